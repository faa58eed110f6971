"""cli/lines: a line into a typed command with no click (parse), and a table action executed
by cli/execution.py through the parser and the book, not through click and a captured stdout."""

import subprocess
import sys

import pytest

from cli.execution import execute
from cli.lines.parse import LineShape, parse
from cli.lines.turn import Undo
from cli.session import Session
from ledger.base.errors import UsageError
from ledger.records import commands as c


@pytest.fixture
def session(tmp_path, monkeypatch):
    monkeypatch.setenv("BANCO_FIXED_TIME", "2026-11-29T21:00:00Z")
    s = Session(str(tmp_path / "p.db"), None)
    assert execute(s, "new Anna Bruno", echo=False).code == 0
    yield s
    s.close()


def test_the_parser_imports_no_click():
    code = ("import sys; import cli.lines.parse, cli.lines.answer, cli.lines.vocabulary\n"
            "print('CLICK', 'click' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert "CLICK False" in out


def test_a_line_becomes_a_typed_command(session):
    table = session.state()
    assert parse(table, ["roll", "3", "4"]) == c.Roll((3, 4), None, None)
    assert parse(table, ["tira", "3", "4", "--player", "an"]) == c.Roll((3, 4), "Anna", None)
    assert parse(table, ["ROLL", "3", "4", "-p", "Anna"]) == c.Roll((3, 4), "Anna", None)
    assert parse(table, ["buy"]) == c.Buy(None)
    assert parse(table, ["rifiuta", "--player=Anna"]) == c.Decline("Anna")
    assert parse(table, ["annulla"]) == Undo()
    assert parse(table, ["roll", "--", "1", "2"]) == c.Roll((1, 2), None, None)
    # the context options are not the command's: they say where and how to record it
    assert parse(table, ["buy", "--id", "k", "--lang", "it"]) == c.Buy(None)


def test_the_parser_says_what_the_click_command_says_in_the_word_typed(session):
    table = session.state()
    with pytest.raises(UsageError) as caught:
        parse(table, ["tira", "34"], "it")
    assert caught.value.meant == "tira 3 4"  # the word as typed, for the line to copy
    with pytest.raises(UsageError) as caught:
        parse(table, ["roll", "2", "--player", "3"], "it")
    assert "--giocatore" in caught.value.meant  # the option as the language types it
    with pytest.raises(UsageError) as caught:
        parse(table, ["offerta", "50", "Anna"])
    assert caught.value.meant == "offerta Anna 50"


def test_a_line_whose_shape_click_refuses_is_left_to_click(session):
    table = session.state()
    for words in (["buy", "Vicolo"], ["claim"], ["buy", "--playr", "Anna"], ["roll", "--x", "1"],
                  ["buy", "--player"], ["roll", "1", "2", "--help"], ["state"]):
        with pytest.raises(LineShape):
            parse(table, words)


def test_a_table_action_runs_without_click(session, monkeypatch):
    """No click group and no captured stdout for a table action: its words come from the
    outcome (cli/lines/answer.py)."""
    import contextlib

    import cli.execution as execution

    def no_click(*args, **kwargs):
        raise AssertionError("a table action reached click")

    monkeypatch.setattr(execution, "load", no_click)
    monkeypatch.setattr(contextlib, "redirect_stdout", no_click)
    out = execute(session, "tira 1 2 --lang it", echo=False)
    assert out.code == 0 and "DiceRolled" in [e["type"] for e in out.events]
    assert out.events[0]["data"]["line"] == "tira 1 2"  # recorded without --lang
    assert "Anna" in out.said and out.errors == ""
    out = execute(session, "buy", echo=False)
    assert out.code == 0 and "PropertyBought" in [e["type"] for e in out.events]
    out = execute(session, "buy", echo=False)
    assert out.code == 1 and out.errors.startswith("refused:") and out.refusal is not None
    out = execute(session, "claim Zorro", echo=False)
    assert out.code == 2 and out.errors.startswith("error:") and out.events == ()
    out = execute(session, "undo", echo=False)
    assert out.code == 0 and "EventRetracted" in [e["type"] for e in out.events]


def test_a_table_action_says_the_same_words_as_through_click(tmp_path, monkeypatch):
    """The same lines through the parser path and through click say the same, byte for byte."""
    import cli.execution as execution

    lines = ["roll 1 2", "buy", "buy Vicolo", "roll 7 1", "roll 34", "decline", "claim Zorro",
             "roll 2 2", "bid Bruno 50", "offerta 50 Bruno", "hammer", "undo", "undo",
             "pay Anna 50", "card imprevisti 99", "mortgage vicolo", "roll 3 3 --lang it"]
    said = {}
    for way in ("parser", "click"):
        if way == "click":
            monkeypatch.setattr(execution, "_table_action", lambda *a: None)
        monkeypatch.setenv("BANCO_FIXED_TIME", "2026-11-29T21:00:00Z")
        s = Session(str(tmp_path / f"{way}.db"), None)
        execute(s, "new Anna Bruno", echo=False)
        said[way] = [(o.code, o.said, o.errors, [e["type"] for e in o.events])
                     for o in (execute(s, line, echo=False) for line in lines)]
        s.close()
    assert said["parser"] == said["click"]
