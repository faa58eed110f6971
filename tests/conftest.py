import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture(autouse=True)
def english(monkeypatch):
    """The suite reads English whatever the machine's locale (tests/test_i18n.py clears this
    to check the choice itself)."""
    monkeypatch.setenv("BANCO_LANG", "en")


@pytest.fixture
def banco(tmp_path):
    """`banco` run through click's CliRunner on a fresh database; checks the exit code."""
    from cli.main import cli

    runner = CliRunner()
    db = str(tmp_path / "t.db")

    def call(*args, code=0):
        result = runner.invoke(cli, ["--db", db, *args], catch_exceptions=False)
        assert result.exit_code == code, (args, result.output)
        return result

    call.db = db
    return call
