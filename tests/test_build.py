"""The build: a standard backend (hatchling) maps the three folders the design card fixes
(ledger/, projections/, cli/) into one package, `banco`, with cli/face.py as `import banco`;
nothing else lands in site-packages (issue 31).  And CI runs README's test command."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import sysconfig
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _installed_copy() -> bool:
    """Is the suite importing an installed copy (site-packages), not the source tree?"""
    banco = importlib.import_module("banco")
    purelib = Path(sysconfig.get_paths()["purelib"]).resolve()
    return Path(banco.__file__).resolve().is_relative_to(purelib)


def test_the_suite_tests_the_installed_package():
    if os.environ.get("CI") != "true":
        pytest.skip("only CI is sure to have installed the copy it tests")
    assert _installed_copy()


def test_ci_runs_exactly_readmes_test_command():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("Run the tests:", 1)[1].split("```sh\n", 1)[1].split("\n```", 1)[0]
    assert block.count("\n") == 0, block
    assert block in (ROOT / ".ci" / "run").read_text().splitlines(), (
        ".ci/run must run README.md's test command as it is written")


def test_version():
    banco = Path(sys.executable).with_name("banco")
    if not banco.exists():
        pytest.skip("banco is not installed beside this Python")
    out = subprocess.run([str(banco), "--version"], capture_output=True, text=True,
                         env={**os.environ, "BANCO_LANG": "en"}, check=True).stdout
    assert out == "banco 0.1.0\n"


def test_the_backend_is_a_standard_one_and_no_setup_py():
    build = tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]
    assert build["build-backend"] == "hatchling.build" and "backend-path" not in build
    assert not (ROOT / "setup.py").exists() and not (ROOT / "build_backend.py").exists()


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel pip builds from this checkout (hatchling, fetched into pip's build
    environment as any user's install does)."""
    out = tmp_path_factory.mktemp("wheel")
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w",
                           str(out), str(ROOT)], capture_output=True, text=True)
    if done.returncode != 0:
        if os.environ.get("CI") == "true":
            raise AssertionError(done.stderr)
        pytest.skip(f"pip could not build the wheel here: {done.stderr[-300:]}")
    (found,) = out.glob("banco-*.whl")
    return found


def test_the_wheel_installs_banco_and_no_other_top_level_package(wheel):
    with zipfile.ZipFile(wheel) as z:
        files = set(z.namelist())
        scripts = z.read("banco-0.1.0.dist-info/entry_points.txt").decode()
        meta = z.read("banco-0.1.0.dist-info/METADATA").decode()
    assert {f.split("/")[0] for f in files} == {"banco", "banco-0.1.0.dist-info"}
    # every module of the three folders, under banco/, and the face
    sources = {p.relative_to(ROOT).as_posix() for top in ("ledger", "projections", "cli")
               for p in (ROOT / top).rglob("*.py") if "__pycache__" not in p.parts}
    sources.discard("cli/face.py")
    assert {f"banco/{s}" for s in sources} <= files
    assert "banco/__init__.py" in files and "banco/cli/face.py" not in files
    for data in ("ledger/board/data/rules/classic.toml", "ledger/board/data/editions/it.toml",
                 "cli/web/static/app.js", "cli/words/locale/it/LC_MESSAGES/banco.mo"):
        assert f"banco/{data}" in files
    assert not [f for f in files if "__pycache__" in f or f.endswith((".pyc", ".po", ".so"))]
    assert "banco = banco.cli.main:main" in scripts
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    for dependency in config["project"]["dependencies"]:
        assert f"Requires-Dist: {dependency}\n" in meta
