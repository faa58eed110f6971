"""The Italian a table reads, found English or half English by a newcomer: a debt's reason in
`stato` and after a refusal, click's own errors, the commands named in advice, BANCO_LANG, the
participles said of any player, the plurals, the statement's Bank."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from cli.main import cli

LOCALE_VARS = ("BANCO_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


@pytest.fixture(autouse=True)
def _english_locale(monkeypatch):
    for var in LOCALE_VARS:
        monkeypatch.delenv(var, raising=False)


def run(db, *args, code=0):
    result = CliRunner().invoke(cli, ["--db", str(db), *map(str, args)],
                                catch_exceptions=False)
    assert result.exit_code == code, (args, result.output)
    return result.output


@pytest.fixture
def in_debt(tmp_path):
    """Bruno owes Anna 4 M rent on Vicolo Stretto and can raise only 2 M."""
    db = tmp_path / "t.db"
    run(db, "new", "Anna", "Bruno")
    run(db, "roll", 1, 2)
    run(db, "buy")
    run(db, "correct", "Bruno", "-1498", "--reason", "test", "--referee", "Rita")
    run(db, "roll", 1, 2)
    run(db, "claim", "Anna")
    return db


def test_a_debt_s_reason_is_said_in_italian_in_the_next_step_and_the_refusals(in_debt):
    state = run(in_debt, "--lang", "it", "stato")
    assert ("prossimo: Bruno deve 4 M ad Anna (affitto su Vicolo Stretto) e può procurarsi "
            "solo 2 M: `bancarotta Bruno`") in state
    refused = run(in_debt, "--lang", "it", "tira", 1, 1, code=1)
    assert refused.startswith("rifiutato: impossibile tirare: Bruno deve 4 M ad Anna (affitto "
                              "su Vicolo Stretto) (003 §10)\n"), refused
    assert "  consentito: Bruno deve 4 M ad Anna (affitto su Vicolo Stretto) e può" in refused
    assert "rent on" not in state + refused
    # English stays English
    assert "(rent on Vicolo Stretto)" in run(in_debt, "roll", 1, 1, code=1)


def test_the_statement_says_the_bank_in_the_table_s_language(in_debt):
    out = run(in_debt, "--lang", "it", "estratto", "Anna")
    assert "   10      -60     1440  Banca      comprato Vicolo Stretto\n" in out, out
    assert "bank" not in out
    english = run(in_debt, "statement", "Anna")
    assert "   10      -60     1440  Bank       bought Vicolo Stretto\n" in english, english
    # the data keeps its word
    assert '"counterparty": "bank"' in run(in_debt, "statement", "Anna", "--json")
