"""The command line run in-process in a language, for the tests of Italian and English
(tests/test_i18n*.py): the environment's language cleared, then `banco` on one database."""

from __future__ import annotations

from click.testing import CliRunner
from conftest import LOCALE_VARS

from banco.cli.main import cli


def clear_locale(monkeypatch, **env):
    for var in LOCALE_VARS:
        monkeypatch.delenv(var, raising=False)
    for var, value in env.items():
        monkeypatch.setenv(var, value)


def run(tmp_path, *args, code=0, input=None):
    result = CliRunner().invoke(cli, ["--db", str(tmp_path / "t.db"), *args], input=input,
                                catch_exceptions=False)
    assert result.exit_code == code, (args, result.output)
    return result.output
