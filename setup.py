"""banco's build.  The metadata is in pyproject.toml; this file only adds the compiled modules.

banco is pure Python.  Its hottest modules - the fold, the rules, and the audit's pass over a
game - are also compiled to C extensions with mypyc (mypy's compiler) when this machine has a
C compiler: the same source, type-checked, about 1.6x faster (`banco audit` of a 300,000-event
game: 4.3 s -> 2.8 s on two cores; docs/performance.md).  Without a compiler, or with
BANCO_PURE=1 in the environment, the same modules install as plain Python and behave the same.
"""

from __future__ import annotations

import glob
import os
import shutil
import sys
import sysconfig

from setuptools import setup
from setuptools.command.build_ext import build_ext

# What the audit (and so `import`, `report`) and every command's fold spend their time in.
# Not ledger/records/events.py: its schemas are a megabyte of C, and only transfers_of is hot (tiny).
COMPILED = [
    "ledger/table/state.py",
    "ledger/table/model.py",
    "ledger/table/steps.py",
    "ledger/table/speedy_die.py",
    "ledger/table/fold_turns.py",
    "ledger/table/fold_estate.py",
    "ledger/table/fold_money.py",
    "ledger/table/fold_cards.py",
    "ledger/rules/decide.py",
    "ledger/rules/decision.py",
    "ledger/rules/estate.py",
    "ledger/rules/buildings.py",
    "ledger/rules/mortgages.py",
    "ledger/rules/trade.py",
    "ledger/rules/bankruptcy.py",
    "ledger/rules/registry.py",
    "ledger/rules/movement.py",
    "ledger/rules/turn.py",
    "ledger/rules/auction.py",
    "ledger/rules/claims.py",
    "ledger/rules/cards.py",
    "ledger/rules/ending.py",
    "ledger/rules/card_effects.py",
    "ledger/rules/debts.py",
    "ledger/table/seats.py",
    "ledger/table/worth.py",
    "projections/audit/audit.py",
    "projections/audit/checks.py",
    "projections/audit/books.py",
    "projections/audit/amounts.py",
    "projections/audit/rederive.py",
    "projections/exchange/exchange.py",
]


def _cannot_compile() -> str | None:
    """Why C extensions cannot be built here (no compiler, or no Python headers: Debian's
    python3 without python3-dev), else None."""
    cc = (sysconfig.get_config_var("CC") or "cc").split()
    if not cc or shutil.which(cc[0]) is None:
        return "no C compiler"
    if not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")):
        return "no Python.h (the python3-dev package)"
    return None


def _clean_build_dir() -> None:
    """An earlier install's build/lib.* keeps the extensions it built, and setuptools copies
    them into the next wheel: a module no longer compiled (or a BANCO_PURE install) would come
    back as a stale .so that no longer loads."""
    here = os.path.dirname(os.path.abspath(__file__))
    for stale in glob.glob(os.path.join(here, "build", "lib.*")):
        shutil.rmtree(stale, ignore_errors=True)


def _extensions() -> list:
    _clean_build_dir()
    if os.environ.get("BANCO_PURE"):
        return []
    why = _cannot_compile()
    if why is None:
        try:
            from mypyc.build import mypycify  # a build requirement (pyproject.toml)

            # one C file a module, compiled on every core (_BuildExt): the install's
            # minute and a half of gcc becomes about one
            return mypycify(COMPILED, opt_level="3", debug_level="0", group_name="banco",
                            multi_file=True)
        except (Exception, SystemExit) as exc:  # mypyc exits on a type error
            why = f"mypyc failed ({exc})"
    print(f"banco: {why}; installing pure Python (a slower audit, the same results)",
          file=sys.stderr)
    return []


class _BuildExt(build_ext):
    """build_ext on every core unless told otherwise (`--parallel`)."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if self.parallel is None:
            self.parallel = os.cpu_count() or 1


setup(ext_modules=_extensions(), cmdclass={"build_ext": _BuildExt})
