"""The build: pure Python by default; setup.py compiles banco's hot modules with mypyc only
under BANCO_COMPILE=1 (issue 21: minutes of install for an audit 1.5x faster).

The rest of the suite runs against whatever this environment imports, compiled or pure; these
tests make sure that is the build one thinks it is: the default build asks for nothing (its
wheel, written by build_backend.py, holds every module and data file) and compiles nothing, a copy is compiled all through or not at all, a compiled module is never
older than its source (an editable install keeps the .so beside the .py it came from, and
Python prefers the .so: an edit would be silently ignored), and CI runs README's test command.
tests/test_compiled.py compares a compiled copy with pure Python.
"""

from __future__ import annotations

import ast
import importlib
import os
import subprocess
import sys
import sysconfig
import tomllib
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
    assert "banco.ledger.table.state" in names and "banco.projections.audit.audit" in names
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
        "reinstall (BANCO_COMPILE=1 pip install -e .), or develop without compiling (pip "
        "install -e .)")


def test_the_default_build_asks_for_no_mypy(monkeypatch):
    """pip installs the build requirements before setup.py runs: mypy (tens of MB) only when
    the compiled build is asked for (build_backend.py)."""
    build = tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]
    assert not [r for r in build["requires"] if r.startswith("mypy")]
    assert build["build-backend"] == "build_backend"
    sys.path.insert(0, str(ROOT))
    try:
        backend = importlib.import_module("build_backend")
    finally:
        sys.path.remove(str(ROOT))
    for env, wanted in (({}, False), ({"BANCO_COMPILE": "1"}, True), ({"BANCO_COMPILE": "0"}, False),
                        ({"BANCO_COMPILE": "1", "BANCO_PURE": "1"}, False)):
        monkeypatch.delenv("BANCO_COMPILE", raising=False)
        monkeypatch.delenv("BANCO_PURE", raising=False)
        for key, value in env.items():
            monkeypatch.setenv(key, value)
        assert backend.compile_wanted() is wanted, env


def test_a_copy_is_compiled_all_through_or_not_at_all():
    built = {n: is_extension(importlib.import_module(n).__file__) for n in compiled_names()}
    assert len(set(built.values())) == 1, f"a partly compiled copy (a stale build?): {built}"


def _installed_copy() -> bool:
    """Is the suite importing an installed copy (site-packages), not the source tree?"""
    ledger = importlib.import_module("ledger")
    purelib = Path(sysconfig.get_paths()["purelib"]).resolve()
    return Path(ledger.__file__).resolve().is_relative_to(purelib)


def test_ci_tests_the_default_pure_install():
    """.ci/run installs with README's `pip install '.[test]'`: that copy must be pure Python
    (the default), whatever compiler the machine has."""
    if os.environ.get("CI") != "true" or not _installed_copy():
        pytest.skip("not CI's installed copy")
    assert not is_extension(importlib.import_module("banco.ledger.table.state").__file__)


def test_ci_runs_exactly_readmes_test_command():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("Run the tests:", 1)[1].split("```sh\n", 1)[1].split("\n```", 1)[0]
    assert block.count("\n") == 0, block
    assert block in (ROOT / ".ci" / "run").read_text().splitlines(), (
        ".ci/run must run README.md's test command as it is written")


def test_version_says_how_this_copy_was_built():
    banco = Path(sys.executable).with_name("banco")
    if not banco.exists():
        pytest.skip("banco is not installed beside this Python")
    out = subprocess.run([str(banco), "--version"], capture_output=True, text=True,
                         env={**os.environ, "BANCO_LANG": "en"}, check=True).stdout
    state = importlib.import_module("banco.ledger.table.state")
    build = "compiled with mypyc" if is_extension(state.__file__) else "pure Python"
    assert out == f"banco 0.1.0 ({build})\n"


def _backend():
    sys.path.insert(0, str(ROOT))
    try:
        return importlib.import_module("build_backend")
    finally:
        sys.path.remove(str(ROOT))


def test_the_default_wheel_needs_nothing_and_holds_every_module_and_data_file(tmp_path,
                                                                              monkeypatch):
    """build_backend.py writes the pure wheel itself (no setuptools fetched into pip's build
    environment: issue 21's install within 2x of the dependencies alone); it must hold what
    setuptools' held: every module of every package, the package data, the metadata and the
    console script."""
    import zipfile

    monkeypatch.delenv("BANCO_COMPILE", raising=False)
    backend = _backend()
    assert tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]["requires"] == []
    assert backend.get_requires_for_build_wheel() == []
    monkeypatch.setenv("BANCO_COMPILE", "1")
    assert backend.get_requires_for_build_wheel() == [backend.SETUPTOOLS, backend.MYPY]
    monkeypatch.delenv("BANCO_COMPILE")
    assert backend.get_requires_for_build_editable() == [backend.SETUPTOOLS]
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    listed = config["tool"]["setuptools"]["packages"]
    # a package left off pyproject's list would be left out of the wheel without a word
    packages = sorted(p.parent.relative_to(ROOT).as_posix().replace("/", ".")
                      for top in ("ledger", "projections", "cli")
                      for p in (ROOT / top).rglob("__init__.py"))
    assert sorted(listed) == packages
    name = backend.write_wheel(str(tmp_path))
    assert name == "banco-0.1.0-py3-none-any.whl"
    with zipfile.ZipFile(tmp_path / name) as z:
        files = set(z.namelist())
        meta = z.read("banco-0.1.0.dist-info/METADATA").decode()
        scripts = z.read("banco-0.1.0.dist-info/entry_points.txt").decode()
        record = z.read("banco-0.1.0.dist-info/RECORD").decode().splitlines()
        body = {f: z.read(f) for f in files if not f.startswith("banco-0.1.0.dist-info/")}
    modules = {p.relative_to(ROOT).as_posix() for package in listed
               for p in (ROOT / package.replace(".", "/")).glob("*.py")}
    assert modules <= files and "ledger/store/kept_snapshots.py" in files
    for data in ("ledger/board/data/rules/classic.toml", "ledger/board/data/editions/it.toml",
                 "ledger/board/data/rules/classic.json", "ledger/board/data/editions/it.json",
                 "cli/web/static/app.js", "cli/words/locale/it/LC_MESSAGES/banco.mo"):
        assert data in files
    assert not [f for f in files if "__pycache__" in f or f.endswith((".pyc", ".po", ".so"))]
    assert all(body[f] == (ROOT / f).read_bytes() for f in body)
    assert "banco = cli.entry:main" in scripts
    for dependency in config["project"]["dependencies"]:
        assert f"Requires-Dist: {dependency}\n" in meta
    assert 'Requires-Dist: psycopg[binary]>=3.1; extra == "postgres"' in meta
    assert "Requires-Python: >=3.11" in meta and meta.endswith(
        (ROOT / "README.md").read_text(encoding="utf-8"))
    # RECORD names every file with its digest (pip checks them on install)
    assert {line.split(",")[0] for line in record} == files
    again = tmp_path / "again"
    again.mkdir()
    assert backend.write_wheel(str(again)) == name  # the same checkout, the same wheel
    assert (again / name).read_bytes() == (tmp_path / name).read_bytes()
