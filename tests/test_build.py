"""The build: setup.py compiles banco's hot modules with mypyc where a C compiler is found.

The rest of the suite runs against whatever this environment imports, compiled or pure; these
tests make sure that is the build one thinks it is: a compiled module is never older than its
source (an editable install keeps the .so beside the .py it came from, and Python prefers the
.so: an edit would be silently ignored), and an installed copy built on a machine with a
compiler is compiled (so the suite really tests what users run).
"""

from __future__ import annotations

import ast
import importlib
import os
import shutil
import subprocess
import sys
import sysconfig
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def compiled_names() -> list[str]:
    """setup.py's COMPILED, read without running setup.py: module names."""
    tree = ast.parse((ROOT / "setup.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "COMPILED":
            paths = ast.literal_eval(node.value)
            return [p.removesuffix(".py").replace("/", ".") for p in paths]
    raise AssertionError("setup.py has no COMPILED list")


def is_extension(path: str | None) -> bool:
    return bool(path) and path.endswith(tuple(EXTENSION_SUFFIXES))


def test_the_compiled_list_names_real_modules():
    names = compiled_names()
    assert "ledger.table.state" in names and "projections.audit.audit" in names
    for name in names:
        assert (ROOT / (name.replace(".", "/") + ".py")).is_file(), name


@pytest.mark.parametrize("name", compiled_names())
def test_a_compiled_module_is_not_older_than_its_source(name):
    module = importlib.import_module(name)
    if not is_extension(module.__file__):
        return  # pure: its source is what runs
    source = Path(module.__file__).with_name(name.rsplit(".", 1)[1] + ".py")
    assert source.exists(), f"{module.__file__} has no source beside it"
    assert source.stat().st_mtime <= Path(module.__file__).stat().st_mtime + 1, (
        f"{source} changed after it was compiled, and Python runs the compiled copy: "
        "reinstall (pip install -e .), or develop without compiling (BANCO_PURE=1 pip install "
        "-e .)")


def _installed_copy() -> bool:
    """Is the suite importing an installed copy (site-packages), not the source tree?"""
    ledger = importlib.import_module("ledger")
    purelib = Path(sysconfig.get_paths()["purelib"]).resolve()
    return Path(ledger.__file__).resolve().is_relative_to(purelib)


def test_an_installed_copy_is_compiled_where_a_compiler_is():
    """CI installs with `pip install '.[test]'` on a machine with gcc: the suite must then be
    testing the compiled modules, not fall back to pure Python without anyone knowing."""
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if os.environ.get("BANCO_PURE") or shutil.which(cc) is None or not _installed_copy():
        pytest.skip("a pure build is expected here (BANCO_PURE, no C compiler, or the source "
                    "tree is imported)")
    pure = [n for n in compiled_names() if not is_extension(importlib.import_module(n).__file__)]
    assert not pure, f"installed pure although {cc} is here: {pure}"


def test_version_says_how_this_copy_was_built():
    banco = Path(sys.executable).with_name("banco")
    if not banco.exists():
        pytest.skip("banco is not installed beside this Python")
    out = subprocess.run([str(banco), "--version"], capture_output=True, text=True,
                         env={**os.environ, "BANCO_LANG": "en"}, check=True).stdout
    state = importlib.import_module("ledger.table.state")
    build = "compiled with mypyc" if is_extension(state.__file__) else "pure Python"
    assert out == f"banco 0.1.0 ({build})\n"
