"""banco's build.  The metadata is in pyproject.toml; this file only adds the compiled modules.

banco is pure Python, and `pip install .` installs it so: a few seconds, nothing compiled.
With BANCO_COMPILE=1 in the environment its hottest modules - the fold, the rules, and the
audit's pass over a game - are compiled to C extensions with mypyc (mypy's compiler; the build
backend, build_backend.py, then asks pip for mypy): the same source, type-checked, the audit
about 1.5x faster, the fold 1.3x, a write or `state` no faster (docs/performance.md).  It needs a
C compiler and Python's headers, and fails the install, saying why, where they are missing.
BANCO_PURE=1, once needed for a pure install, is still accepted and wins over BANCO_COMPILE.
"""

from __future__ import annotations

import glob
import os
import shutil
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
    "projections/audit/rows.py",
    "projections/audit/results.py",
    "projections/audit/checks.py",
    "projections/audit/books.py",
    "projections/audit/amounts.py",
    "projections/audit/amount_basis.py",
    "projections/audit/board_amounts.py",
    "projections/audit/deed_amounts.py",
    "projections/audit/building_amounts.py",
    "projections/audit/rent_debt_amounts.py",
    "projections/audit/card_amounts.py",
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


def compile_wanted() -> bool:
    """The compiled build is opt-in (issue 21): it took a newcomer's install from seconds to
    minutes for an audit 1.5x faster."""
    return os.environ.get("BANCO_COMPILE", "") not in ("", "0") and not os.environ.get("BANCO_PURE")


def _extensions() -> list:
    _clean_build_dir()
    if not compile_wanted():
        return []
    why = _cannot_compile()
    if why is None:
        try:
            from mypyc.build import mypycify  # asked for by build_backend.py under BANCO_COMPILE

            # one C file a module, compiled on every core (_BuildExt): the install's
            # minute and a half of gcc becomes about one
            return mypycify(COMPILED, opt_level="3", debug_level="0", group_name="banco",
                            multi_file=True)
        except ImportError:
            why = "mypy is not installed (pip install mypy==2.4.1, or let pip build in isolation)"
        except (Exception, SystemExit) as exc:  # mypyc exits on a type error
            why = f"mypyc failed ({exc})"
    # asked for explicitly: a pure copy in its place would be the surprise the flag is there
    # to avoid (CI's compiled check would test pure Python against itself)
    raise SystemExit(f"banco: BANCO_COMPILE=1 but cannot compile: {why}; unset BANCO_COMPILE "
                     "to install pure Python (the same results, a slower audit)")


class _BuildExt(build_ext):
    """build_ext on every core unless told otherwise (`--parallel`)."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if self.parallel is None:
            self.parallel = os.cpu_count() or 1


setup(ext_modules=_extensions(), cmdclass={"build_ext": _BuildExt})
