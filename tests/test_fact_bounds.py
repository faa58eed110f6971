"""A fact no command could have recorded, its chain recomputed over it, is refused by the fold
and named (issue 32, the fifth trial): a turn passed to a player not at the table, a token
moved to square 45, a deed 99, an event whose data is a list, a time that is no time.  Every
reading ended in a traceback (KeyError, IndexError, AttributeError, ValueError); now each
names the event, its field and its value, exit 4, and `audit` says more.  The ranges are
ledger/records/bounds.py's, held here to the schemas' fields."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from banco.ledger.records.bounds import FIELDS, OPTIONAL, Bounds
from banco.ledger.records.events import schema_of

BANCO = Path(sys.executable).parent / "banco"
ENV = {**os.environ, "BANCO_FIXED_TIME": "2026-11-29T21:00:00Z", "BANCO_LANG": "en"}


class Deck:
    cards = [type("Card", (), {"number": n})() for n in range(1, 17)]


TABLE = Bounds(["Anna", "Bruno"], {"imprevisti": Deck, "probabilita": Deck})


def test_every_field_of_the_table_is_a_field_of_its_schema():
    for type_, spec in FIELDS.items():
        fields = schema_of(type_).fields
        for key, _ in spec:
            assert key in fields, (type_, key)
            # a field the schema lets a row lack, the fold does too (older logs)
            assert fields[key].required or (type_, key) in OPTIONAL, (type_, key)


@pytest.mark.parametrize(("type_", "data", "named"), [
    ("TurnEnded", {"player": "Anna", "next": "Zed"}, "next"),
    ("TurnEnded", {"player": "Anna", "next": None}, "next"),
    ("TurnEnded", {"player": "Anna"}, "next"),
    ("TokenMoved", {"player": "Anna", "from": 0, "to": 45, "spaces": 3, "cause": "dice",
                    "passed_go": False}, "to"),
    ("TokenMoved", {"player": "Anna", "from": 0, "to": 3.0, "spaces": 3, "cause": "dice",
                    "passed_go": False}, "to"),
    ("TokenMoved", {"player": "Anna", "from": True, "to": 3, "spaces": 3, "cause": "dice",
                    "passed_go": False}, "from"),
    ("DiceRolled", {"player": "Anna", "dice": [7, 1], "doubles": False, "in_row": 0,
                    "extra_roll": False}, "dice"),
    ("PropertyBought", {"payer": "Anna", "payee": "bank", "amount": 60, "reason": {},
                        "player": "Anna", "property": 99}, "property"),
    ("RentPaid", {"payer": "Anna", "payee": "Zed", "amount": 6, "reason": {}, "property": 3,
                  "opened_seq": 9}, "payee"),
    ("CardDrawn", {"player": "Anna", "deck": "imprevisti", "number": 99}, "number"),
    ("CardDrawn", {"player": "Anna", "deck": "tarocchi", "number": 1}, "deck"),
    ("TimeRanOut", {"at": "2026-13-45T99", "ends": "at_once", "rule": "", "reason": {}}, "at"),
    ("TurnEnded", [], "data"),
    ("CommandRecorded", "x", "data"),
])
def test_a_field_out_of_its_range_is_named(type_, data, named):
    assert not TABLE.fits(type_, data)
    assert TABLE.fault(type_, data)[0] == named


@pytest.mark.parametrize(("type_", "data"), [
    ("TurnEnded", {"player": "Anna", "next": "Bruno"}),
    ("TokenMoved", {"player": "Anna", "from": 39, "to": 0, "spaces": 1, "cause": "dice",
                    "passed_go": True}),
    ("AuctionOpened", {"property": 3, "min_bid": 1, "step": 1}),  # an older log's: no seller
    ("AuctionClosed", {"property": None, "outcome": "no bid", "reason": {}}),
    ("TradeCompleted", {"a": "Anna", "b": "Bruno", "transfers": [],
                        "a_gives": {"properties": [1, 3], "cash": 0,
                                    "jail_cards": [["imprevisti", 16]]},
                        "b_gives": {"properties": [], "cash": 10, "jail_cards": []}}),
    ("GameEnded", {"winner": None, "reason": {"code": "x"}}),
    ("CommandRecorded", {"line": None, "command": None}),
])
def test_a_fact_a_command_records_fits(type_, data):
    assert TABLE.fits(type_, data) and TABLE.fault(type_, data) is None


def banco(db, *args, code=0):
    done = subprocess.run([str(BANCO), "--db", str(db), *map(str, args)], capture_output=True,
                          text=True, env=ENV, timeout=120)
    assert done.returncode == code, (args, done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    return done


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    path = tmp_path_factory.mktemp("bounds") / "played.db"
    banco(path, "new", "Anna", "Bruno")
    banco(path, "roll", "1", "2")
    banco(path, "buy")
    banco(path, "roll", "3", "4", "--player", "Bruno")
    return path


def forged(played, tmp_path, sql: str, rechain: bool = True) -> Path:
    """A copy of the game with `sql` run as a forger would: triggers dropped, the chain and
    the games table's head recomputed over the edit."""
    sys.path.insert(0, str(Path(__file__).parent))
    from forge import drop_triggers, rechain_stored

    db = tmp_path / "forged.db"
    db.write_bytes(played.read_bytes())
    conn = sqlite3.connect(db, isolation_level=None)
    drop_triggers(conn)
    conn.execute(sql)
    if rechain:
        head = rechain_stored(conn, 1)
        conn.execute("UPDATE games SET head=? WHERE game_id=1", (head,))
    conn.close()
    return db


@pytest.mark.parametrize(("sql", "said"), [
    ("""UPDATE events SET data='{"next":"Zed","player":"Anna"}' WHERE type='TurnEnded'""",
     "event 11 (TurnEnded) is no fact the table can take (its next names 'Zed', who is not "
     "at the table)"),
    ("""UPDATE events SET data=replace(data, '"to":3', '"to":45') WHERE seq=7""",
     "event 7 (TokenMoved) is no fact the table can take (its to is 45, which no command "
     "records on this table)"),
    ("""UPDATE events SET data=replace(data, '"property":3', '"property":99')
        WHERE type='PropertyBought'""",
     "event 10 (PropertyBought) is no fact the table can take (its property is 99"),
    ("UPDATE events SET data='[]' WHERE type='TurnEnded'",
     "event 11 (TurnEnded) is no fact the table can take (its data is []"),
])
def test_a_rechained_fact_out_of_range_is_named_by_every_reading(played, tmp_path, sql, said):
    db = forged(played, tmp_path, sql)
    for args in (("state",), ("log",), ("standings",), ("roll", "1", "2")):
        err = banco(db, *args, code=4).stderr
        assert f"error: game 1 cannot be read: {said}" in err, (args, err)
        assert "run `banco audit`" in err
    banco(db, "audit", code=3)
    banco(db, "doctor", code=3)  # the read model no longer matches: named, no traceback


def test_a_time_that_is_no_time_is_named(played, tmp_path):
    db = forged(played, tmp_path, "UPDATE games SET started_at='2026-13-45T99'", rechain=False)
    assert "'2026-13-45T99' is no time banco records" in banco(db, "games", code=4).stderr
    db.unlink()
    db = forged(played, tmp_path, "UPDATE events SET recorded_at='garbage' WHERE seq=9",
                rechain=False)
    err = banco(db, "log", code=4).stderr
    assert "'garbage' is no time banco records: a row was edited outside banco" in err


def test_state_json_carries_the_warning_the_terminal_prints(played, tmp_path):
    import json

    assert "warning" not in json.loads(banco(played, "state", "--json").stdout)
    db = forged(played, tmp_path, "UPDATE events SET data=replace(data, '1500', '9943') "
                "WHERE seq=3", rechain=False)
    done = banco(db, "state", "--json")
    warned = json.loads(done.stdout)["warning"]
    assert warned == "WARNING: game 1 event 3 does not match its hash: run `banco audit`"
    assert warned in done.stderr


def test_a_write_onto_a_broken_chain_is_no_retry_over_http(played, tmp_path):
    from starlette.testclient import TestClient

    from banco.cli.web.app import Hub, make_app
    from banco.ledger.store import tokens

    db = forged(played, tmp_path, "UPDATE events SET data=replace(data, '1500', '9943') "
                "WHERE seq=3", rechain=False)
    secret, _ = tokens.issue(str(db), "banker", 1, "2026-11-29T21:00:00Z")
    hub = Hub(str(db), None, poll=0.05)
    try:
        with TestClient(make_app(hub)) as client:
            r = client.post("/api/commands", json={"line": "card imprevisti 3"},
                            headers={"Authorization": f"Bearer {secret}"})
    finally:
        hub.close()
    assert (r.status_code, r.json()["code"]) == (423, 3)  # was 503, Retry-After: 1 (then 500: a phone may retry a 500)
    assert "retry-after" not in r.headers


def test_a_fold_onto_a_table_builds_its_bounds_once(monkeypatch):
    """fold_onto (a server catching up a few rows) built the seats' and decks' checks anew
    every time: one Bounds serves every fold of the same seats and decks."""
    from banco.ledger.board.rule_sets import load_rules
    from banco.ledger.held_tables import fold_onto
    from banco.ledger.rules.decide import start_game
    from banco.ledger.table.state import fold

    log = start_game(["Anna", "Bruno"], load_rules("classic"), "it")
    for i, e in enumerate(log, 1):
        e["seq"] = i
    state = fold(log, 1)
    made = []
    real = Bounds.__init__
    monkeypatch.setattr(Bounds, "__init__", lambda self, *a: made.append(a) or real(self, *a))
    for _ in range(3):
        assert fold_onto(state, []) == state
    assert len(made) <= 1
    first = Bounds.of(state.seats, state.edition.decks)
    assert Bounds.of(list(state.seats), state.edition.decks) is first
    assert Bounds.of(("Anna", "Carla"), state.edition.decks) is not first
