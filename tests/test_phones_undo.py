"""The banker's undo button as the server offers it (the page draws it and guesses nothing):
after a late claim refused and kept as evidence it names what `undo` then takes back, or,
when the book refuses the undo, it is off with the book's why; an undo stopped by a
referee's decision says so too.  The button in a browser: tests/test_phones_screens_browser.py."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from phones_tables import NOW, auth, make_client, post, seq

from banco.cli.main import cli
from banco.ledger.book import Book
from banco.ledger.store import tokens

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx`")


def served_table(db: str, *lines: str):
    for line in lines:  # a refusal (exit 1) is recorded too: the late claim's evidence
        said = CliRunner().invoke(cli, ["--db", db, *line.split()])
        assert said.exit_code in (0, 1), (line, said.output)
    from banco.cli.web.app import Hub

    return Hub(db, None, poll=0.05), tokens.issue(db, "banker", 1, NOW)[0]


def retracted_lines(db: str, after: int) -> list[str]:
    """The lines of the commands an undo after seq `after` took back."""
    book = Book(db, create=False)
    try:
        rows = list(book.backwards(1))
    finally:
        book.close()
    gone = {s for r in rows if r["type"] == "EventRetracted" and r["seq"] > after
            for s in r["data"]["seqs"]}
    taken = {r["command_id"] for r in rows if r["seq"] in gone}
    return [r["data"]["line"] for r in rows if r["type"] == "CommandRecorded"
            and r["command_id"] in taken]


def test_after_a_recorded_refusal_the_button_is_what_undo_does(tmp_path):
    db = str(tmp_path / "late.db")
    hub, key = served_table(db, "new Anna Bruno Carla", "roll 1 2", "buy", "roll 2 1",
                            "roll 3 4", "claim Anna")  # too late: refused, kept as evidence
    before = seq(db)
    with make_client(hub) as client:
        offer = client.get("/api/table", headers=auth(key)).json()["undo"]
        r = post(client, key, "undo")
    hub.close()
    if offer.get("refused"):  # the book will not reach behind the refusal: nothing taken back
        assert offer["line"] is None and r.status_code == 422 and seq(db) == before
    else:
        assert r.status_code == 200 and retracted_lines(db, before) == [offer["line"]]


def test_an_undo_stopped_by_a_referees_decision_is_offered_off_with_why(tmp_path):
    db = str(tmp_path / "ruled.db")
    hub, key = served_table(db, "new Anna Bruno", "roll 1 2",
                            "correct Anna -10 --reason test --referee Rita")
    before = seq(db)
    with make_client(hub) as client:
        offer = client.get("/api/table", headers=auth(key)).json()["undo"]
        r = post(client, key, "undo")
    hub.close()
    assert offer["line"] is None and "Rita" in offer["refused"], offer
    assert r.status_code == 422 and seq(db) == before


@pytest.mark.parametrize("lines, reads, offered", [
    (("new Anna Bruno",), 1, None),  # nothing to undo: the tail is all the log, read once
    (("new Anna Bruno", "roll 1 2", "correct Anna -10 --reason test --referee Rita"), 0,
     "Rita"),  # the referee's fact is in the tail: nothing more read
])
def test_a_refused_undo_reads_the_log_at_most_once(tmp_path, lines, reads, offered):
    from banco.cli.web.hub import Table

    db = str(tmp_path / "once.db")
    served_table(db, *lines)[0].close()
    book, counted = Book(db, create=False), []
    backwards = book.backwards
    book.backwards = lambda *a: counted.append(a) or backwards(*a)
    try:
        state = book.state(1)
        tail = Table._tail(Book(db, create=False), 1, state)
        undone = Table(db, 1, None)._undone(book, 1, state, tail)
    finally:
        book.close()
    assert len(counted) == reads  # the undo's refusal asked once (it was asked twice)
    assert (undone is None) if offered is None else offered in str(undone.text)
