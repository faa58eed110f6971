"""The compiled build (BANCO_COMPILE=1, setup.py) and pure Python record and verify the same
games: the recorded fixtures run through both give the same output of the run, the same folded
table, every event byte for byte (hashes too) and the same audit verdict.

The compiled build is opt-in, so nothing else would notice it rot.  Give a compiled copy's
Python in BANCO_COMPILED_PYTHON (.ci/run builds one into a second venv); without it the test
is skipped, except in CI (CI=true), where a missing copy is a failure.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
GAMES = sorted(p.stem for p in FIXTURES.glob("*.banco"))

# Run by each Python from an empty folder, so it imports that Python's installed banco and
# never this source tree.  One game identity on both sides: then even the hashes must agree.
CHILD = r"""
import json, os, sys, tempfile, uuid
from importlib.machinery import EXTENSION_SUFFIXES
uuid.uuid4 = lambda: uuid.UUID(int=21)
from click.testing import CliRunner
from banco.cli.main import cli
import banco.ledger.table.state as state
runner = CliRunner()
env = {"BANCO_FIXED_TIME": "2026-11-29T21:00:00Z", "BANCO_LANG": "en", "BANCO_DB": None,
       "BANCO_AUDIT_WORKERS": "1"}
out = {"compiled": state.__file__.endswith(tuple(EXTENSION_SUFFIXES)), "module": state.__file__,
       "games": {}}
with tempfile.TemporaryDirectory() as tmp:
    for path in sys.argv[1:]:
        name = os.path.basename(path).removesuffix(".banco")
        db = os.path.join(tmp, name + ".db")
        said = {}
        for key, args in (("run", ["run", "-q", path]), ("state", ["state", "--json"]),
                          ("log", ["log", "--json"]), ("audit", ["audit", "--json"]),
                          ("export", ["export"])):
            r = runner.invoke(cli, ["--db", db, *args], env=env)
            said[key] = [r.exit_code, r.output]
        out["games"][name] = said
print(json.dumps(out))
"""


def _compiled_python() -> str:
    given = os.environ.get("BANCO_COMPILED_PYTHON")
    if not given:
        if os.environ.get("CI") == "true":
            pytest.fail("CI must check the compiled build: BANCO_COMPILED_PYTHON is not set "
                        "(.ci/run builds it with BANCO_COMPILE=1)")
        pytest.skip("no compiled copy given (BANCO_COMPILED_PYTHON=/path/to/its/python; "
                    "build one with BANCO_COMPILE=1 pip install . in another venv)")
    if not Path(given).exists():
        pytest.fail(f"BANCO_COMPILED_PYTHON={given} does not exist")
    return given


def _record(python: str, tmp_path: Path) -> dict:
    done = subprocess.run([python, "-c", CHILD, *(str(FIXTURES / f"{g}.banco") for g in GAMES)],
                          cwd=tmp_path, capture_output=True, text=True,
                          env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})
    assert done.returncode == 0, f"{python} failed:\n{done.stderr}"
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def both(tmp_path_factory):
    compiled = _record(_compiled_python(), tmp_path_factory.mktemp("compiled"))
    pure = _record(sys.executable, tmp_path_factory.mktemp("pure"))
    assert compiled["compiled"], f"{compiled['module']}: the copy given is not compiled"
    assert not pure["compiled"], f"{pure['module']}: this suite's copy should be pure Python"
    return compiled["games"], pure["games"]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("what", ["run", "state", "log", "audit", "export"])
def test_compiled_and_pure_say_the_same(both, game, what):
    compiled, pure = both
    assert compiled[game][what][0] == 0, compiled[game][what][1]
    assert compiled[game][what] == pure[game][what]
