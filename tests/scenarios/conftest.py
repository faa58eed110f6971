"""The banker's words through click's CliRunner, one table per scenario.

`table` gives a fresh database; `table_from(name, script)` gives a copy of a table set up once
by a transcript (a long walk round the board is played once per test session, not per test).
"""

from __future__ import annotations

import json
import re
import shlex
import shutil

import pytest
from click.testing import CliRunner

# The championship scenarios that need the Speedy die (`roll D1 D2 S`, `move`, `advance`, `go`),
# built on its own branch: expected to fail until that branch is merged (the `advance` word is
# there), then they run like any other.
SPEEDY = ("speedy", "bus_", "mr_monopoly", "triple", "doubles_count_the_numbered_dice",
          "in_jail_only_the_numbered_dice")


def pytest_collection_modifyitems(config, items):
    from banco.cli.main import COMMANDS

    if "advance" in COMMANDS:
        return
    wait = pytest.mark.xfail(reason="needs the Speedy die (the speedy branch)", strict=False)
    for item in items:
        if item.path.name == "test_championship.py" and any(w in item.name for w in SPEEDY):
            item.add_marker(wait)


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "scenarios: hand-worked scenarios from the rulebooks (seeds 000-004), "
                   "amounts computed by hand before the rule sets were written")


class Table:
    """One database; `t("roll 3 4 mr")` runs a banco line and checks its exit code."""

    def __init__(self, db: str):
        from banco.cli.main import cli

        self.db = db
        self._cli = cli
        self._runner = CliRunner()

    def __call__(self, line: str, code: int = 0):
        args = shlex.split(line, comments=True)
        result = self._runner.invoke(self._cli, ["--db", self.db, *args],
                                     catch_exceptions=False)
        assert result.exit_code == code, (line, result.exit_code, result.output)
        return result

    def run(self, script: str) -> None:
        """A transcript: one banco line per line, `#` comments, every line must be accepted."""
        for line in script.splitlines():
            if shlex.split(line, comments=True):
                self(line)

    def refused(self, line: str, cite: str, *, appended: int = 0):
        """The rules refuse `line`: exit 1, the seed cited (a regex), no traceback, and nothing
        appended to the log (except `appended` facts kept as evidence, e.g. a late claim)."""
        before = self.facts()
        result = self(line, code=1)
        assert re.search(cite, result.output), (line, cite, result.output)
        assert "Traceback" not in result.output
        assert self.facts() == before + appended, (line, "log changed")
        return result

    def facts(self) -> int:
        """Events in the log, the CommandRecorded that heads each recorded command left out
        (a refusal kept as evidence is recorded with its command)."""
        return sum(1 for e in self.log() if e["type"] != "CommandRecorded")

    # --- the JSON documents ---------------------------------------------------------------

    def doc(self, line: str):
        return json.loads(self(line + " --json").output)

    def state(self) -> dict:
        return self.doc("state")

    def log(self) -> list:
        return self.doc("log")

    def standings(self) -> list:
        return self.doc("standings")

    def player(self, name: str) -> dict:
        return next(p for p in self.state()["players"] if p["name"] == name)

    def cash(self, name: str) -> int:
        return self.player(name)["cash"]

    def cashes(self) -> dict:
        return {p["name"]: p["cash"] for p in self.state()["players"]}

    def pos(self, name: str) -> int:
        return self.player(name)["position"]

    def prop(self, name: str) -> dict:
        return next(p for p in self.state()["properties"] if p["name"] == name)

    def owner(self, name: str) -> str | None:
        return self.prop(name)["owner"]

    def turn(self) -> dict:
        """The documented keys only: a rule set may add its own (a Bus waiting for `move`)."""
        turn = self.state()["turn"]
        return {k: turn[k] for k in ("player", "phase", "doubles")}

    def rents(self) -> list:
        return [(r["payer"], r["owner"], r["property"], r["amount"])
                for r in self.state()["pending"]["rent"]]

    def row(self, name: str) -> dict:
        return next(r for r in self.standings() if r["name"] == name)


@pytest.fixture
def table(tmp_path):
    return Table(str(tmp_path / "t.db"))


_BUILT: dict[str, object] = {}


@pytest.fixture
def table_from(tmp_path, tmp_path_factory):
    """table_from(name, script): a copy of the table `script` sets up, played once per session.
    A script that fails is not cached, so every test that needs it fails at the same line."""
    copies = iter(range(1000))

    def make(name: str, script: str) -> Table:
        src = _BUILT.get(name)
        if src is None:
            built = tmp_path_factory.mktemp(name)
            Table(str(built / "t.db")).run(script)
            _BUILT[name] = src = built
        dest = tmp_path / f"copy{next(copies)}"
        dest.mkdir()
        for f in src.iterdir():
            shutil.copy(f, dest / f.name)
        return Table(str(dest / "t.db"))

    return make
