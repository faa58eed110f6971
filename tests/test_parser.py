"""cli/lines: a line into a typed command with no click (parse), and a table action executed
by cli/execution.py through the parser and the book, not through click and a captured stdout."""

import subprocess
import sys

import pytest

from banco.cli.execution import execute
from banco.cli.lines.parse import LineShape, parse
from banco.cli.lines.turn import Undo
from banco.cli.main import cli
from banco.cli.session import Session
from banco.ledger.base.errors import UsageError
from banco.ledger.records import commands as c


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

    import banco.cli.execution as execution

    def no_click(*args, **kwargs):
        raise AssertionError("a table action reached click")

    # no command line's group is given (commands=None): one reached would be a TypeError
    monkeypatch.setattr(execution, "_click_context", no_click)
    monkeypatch.setattr(execution, "_run", no_click)
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


def printed(s, line, capsys, **context):
    """What a line printed (both ways print: nothing is captured by banco), its code, its
    events."""
    capsys.readouterr()
    o = execute(s, line, commands=cli, **context)
    out = capsys.readouterr()
    return o, out.out, out.err


def through_click(monkeypatch):
    """Every line through cli/main.py's click group, as `banco LINE` runs it: the library's
    reading of each says it is the command line's."""
    import banco.cli.execution as execution
    from banco.cli.library import Line, Refusal
    from banco.cli.lines.referee import NotRecordedHere
    from banco.cli.lines.vocabulary import english_word

    theirs = Refusal(NotRecordedHere(UsageError("through click"), known=True))
    monkeypatch.setattr(execution, "_read", lambda session, line: Line(
        line, None, english_word(line.split()[0]), refusal=theirs))


def test_a_table_action_says_the_same_words_as_through_click(tmp_path, monkeypatch, capsys):
    """The same lines through the library and through click say the same, byte for byte."""
    lines = ["roll 1 2", "buy", "buy Vicolo", "roll 7 1", "roll 34", "decline", "claim Zorro",
             "roll 2 2", "bid Bruno 50", "offerta 50 Bruno", "hammer", "undo", "undo",
             "pay Anna 50", "card imprevisti 99", "mortgage vicolo", "roll 3 3 --lang it",
             "correct Anna -40 --reason slip --referee Rita",
             "correggi --sposta Anna 5 --motivo x --arbitro rita", "correct Bank 10",
             "correct Anna 10 --referee Anna --reason x",
             "ruling rent 3 --record --referee Rita", "ruling jail 99 --record --referee Rita",
             "new Carla Dario --rules short"]
    said = {}
    for way in ("parser", "click"):
        if way == "click":
            through_click(monkeypatch)
        monkeypatch.setenv("BANCO_FIXED_TIME", "2026-11-29T21:00:00Z")
        s = Session(str(tmp_path / f"{way}.db"), None)
        execute(s, "new Anna Bruno", echo=False, commands=cli)
        said[way] = [(o.code, out, err, [e["type"] for e in o.events])
                     for o, out, err in (printed(s, line, capsys) for line in lines)]
        s.close()
    assert said["parser"] == said["click"]


# --- the parser path and click say the same for any line --------------------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from banco.cli.lines.vocabulary import TABLE_ACTIONS, WORDS  # noqa: E402

SAID_WORDS = sorted({w for word in WORDS if word.english in TABLE_ACTIONS
                     for w in (word.english, word.italian) if w} | {"draw", "pesca", "ROLL"})
TOKENS = ["Anna", "an", "Bruno", "Carla", "Zeno", "bank", "vicolo", "via roma", "viale",
          "marrone", "rosa", "hotel", "casa", "all", "tutto", "1", "2", "3", "4", "6", "7", "34",
          "-1", "50", "１", "imprevisti", "probabilita", "pay", "paga", "draw", "bus", "jail-card",
          "carta-prigione", "--player", "--giocatore", "-p", "-pAnna", "--player=Bruno", "--id",
          "--expect", "0", "--game", "1", "--lang", "it", "en", "fr", "--give", "--dai", "--get",
          "--ricevi", "--lift", "--to", "--with", "--con", "Vicolo Corto=10", "--wanted",
          "Anna=2", "--", "--json", "--help", "--playr", "-x", "'Via Roma'", "--game", "2",
          "--game=1", "--id=", "--expect=0", "--lang=it", "-p=Anna", "--player=", "Bruno=3",
          "verde", "--to", "5", "albergo", "corso impero", "13.000", "tutti", "b", "mr", "٣"]
table_line = st.tuples(st.sampled_from(SAID_WORDS),
                       st.lists(st.sampled_from(TOKENS), max_size=5)).map(
    lambda t: " ".join([t[0], *t[1]]))


@pytest.fixture(scope="module")
def table_file(tmp_path_factory):
    import os

    folder = tmp_path_factory.mktemp("table")
    old = os.environ.get("BANCO_FIXED_TIME")
    os.environ["BANCO_FIXED_TIME"] = "2026-11-29T21:00:00Z"
    try:
        s = Session(str(folder / "t.db"), None)
        for line in ("new Anna Bruno Carla", "roll 1 2", "buy", "roll 3 4", "decline"):
            execute(s, line, echo=False)
        s.close()
    finally:
        if old is None:
            del os.environ["BANCO_FIXED_TIME"]
        else:
            os.environ["BANCO_FIXED_TIME"] = old
    return folder / "t.db"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(st.one_of(table_line, st.sampled_from(
    ["bid Anna 10", "bid Bruno 20", "hammer", "roll 2 2", "buy", "undo", "claim Anna"])),
    min_size=1, max_size=6))
def test_any_table_line_says_through_the_parser_what_click_says(lines, table_file, tmp_path,
                                                                 monkeypatch, capsys):
    import shutil

    monkeypatch.setenv("BANCO_FIXED_TIME", "2026-11-29T21:00:00Z")
    said = {}
    for way in ("parser", "click"):
        if way == "click":
            through_click(monkeypatch)
        db = tmp_path / f"{way}.db"
        for suffix in ("", "-wal", "-shm"):
            (tmp_path / f"{way}.db{suffix}").unlink(missing_ok=True)
        shutil.copy(table_file, db)
        s = Session(str(db), None)
        said[way] = []
        for n, line in enumerate(lines):
            o, out, err = printed(s, line, capsys, command_id=f"k{n}")
            said[way].append((line, o.code, out, err,
                              [(e["type"], e["data"]) for e in o.events],
                              type(o.refusal).__name__))
        s.close()
    assert said["parser"] == said["click"]


def test_a_phone_s_lines_never_reach_click(session, monkeypatch):
    """POST /api/commands and POST /api/games: a table action, a line whose shape is wrong, a
    referee's correction and ruling, a word that is none and a new game are executed by the
    library, whose words come from the outcome: no click context is ever made."""
    import click
    from starlette.testclient import TestClient

    import banco.cli.web.app as app
    from banco.ledger.store import tokens

    def no_click(*args, **kwargs):
        raise AssertionError("a phone's line reached click")

    banker, referee = (tokens.issue(session.db, role, 1, "2026-11-29T21:00:00Z", None)[0]
                       for role in ("banker", "referee"))
    hub = app.Hub(session.db, None, poll=0.05)
    try:
        with TestClient(app.make_app(hub)) as client:
            monkeypatch.setattr(click.Context, "__init__", no_click)

            def post(line, secret=banker):
                return client.post("/api/commands", json={"line": line},
                                   headers={"Authorization": f"Bearer {secret}"})

            said = post("roll 1 2")
            assert said.status_code == 200 and "DiceRolled" in [
                e["type"] for e in said.json()["events"]]
            assert said.json()["said"].startswith("Anna rolls 1+2 = 3")
            said = post("buy Vicolo")
            assert said.status_code == 400 and said.json()["errors"].startswith(
                "error: Got unexpected extra argument (Vicolo): “buy Vicolo”\n"
                "  Usage: buy [OPTIONS]\n  “buy” takes no words")  # as the shell says it, in a
            # phone's quotes
            said = post("ruling", referee)
            assert said.status_code == 400
            said = post("correct Anna -40 --reason slip --referee Rita", referee)
            assert said.status_code == 200 and [e["type"] for e in said.json()["events"]] == [
                "CommandRecorded", "CashCorrected"], said.json()
            said = post("ruling rent 3", referee)
            assert said.status_code == 400 and "is not a landing" in said.json()["errors"]
            said = post("rol 1 2")
            assert said.status_code == 400 and "did you mean roll?" in said.json()["errors"]
            said = client.post("/api/games", json={"players": ["Carla", "Dario"]},
                               headers={"Authorization": f"Bearer {banker}"})
            assert said.status_code == 201 and "game 2" in said.json()["said"], said.json()
    finally:
        hub.close()
