"""Rows banco never writes, named without a traceback (issue 32): a games row whose players
are no JSON (`games`, `audit`, `doctor`, `standings` died with JSONDecodeError), a last seq
that is no number (a TypeError in `audit` and `doctor`), an event naming a player who is not
at the table, its chain recomputed (a KeyError in `state`, `standings`, `roll`; the server
sent "state": null).  Reading commands exit 4 naming the damage; `audit` and `doctor` name it
as a problem (exit 3) and `doctor --repair` rebuilds the row.  Run as the installed command."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

BANCO = Path(sys.executable).parent / "banco"
ENV = {**os.environ, "BANCO_FIXED_TIME": "2026-11-29T21:00:00Z", "BANCO_LANG": "en"}

pytestmark = pytest.mark.skipif(not BANCO.exists(), reason="banco is not installed in this venv")


def banco(db, *args, code=0):
    done = subprocess.run([str(BANCO), "--db", str(db), *map(str, args)], capture_output=True,
                          text=True, env=ENV, timeout=120)
    assert done.returncode == code, (args, done.stdout, done.stderr)
    assert "Traceback" not in done.stderr and "Error:" not in done.stderr
    return done


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "t.db"
    banco(path, "new", "Anna", "Bruno")
    banco(path, "roll", "1", "2")
    return path


def edit(db, sql: str) -> None:
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute(sql)
    conn.close()


def test_players_that_are_no_json_are_named_and_repaired(db):
    edit(db, "UPDATE games SET players='[[['")
    said = ("error: game 1's row in the games table is damaged: its players is '[[[', which "
            "banco never writes; `banco doctor --repair` rebuilds it from the game's log\n")
    assert banco(db, "games", code=4).stderr == said
    assert said in banco(db, "standings", code=4).stderr
    out = banco(db, "audit", code=3).stdout
    assert "the games table says game 1's players is [[[" in out
    assert "the games table says game 1's players is [[[" in banco(db, "doctor", code=3).stdout
    banco(db, "doctor", "--repair")
    assert "Anna, Bruno" in banco(db, "games").stdout
    banco(db, "audit")


def test_a_last_seq_that_is_no_number_is_named_and_repaired(db):
    edit(db, "UPDATE games SET last_seq='abc'")
    assert "its last_seq is 'abc', which banco never writes" in banco(db, "games",
                                                                     code=4).stderr
    named = "the games table's row of game 1 is damaged: its last_seq is 'abc'"
    assert named in banco(db, "audit", code=3).stdout
    assert named in banco(db, "doctor", code=3).stdout
    banco(db, "doctor", "--repair")
    banco(db, "audit")


def test_an_event_naming_a_stranger_rechained_is_named_by_every_reading(db):
    sys.path.insert(0, str(Path(__file__).parent))
    from forge import drop_triggers, rechain_stored

    conn = sqlite3.connect(db, isolation_level=None)
    drop_triggers(conn)
    conn.execute("""UPDATE events SET data=replace(data, '"Anna"', '"Zed"')
                    WHERE game_id=1 AND type='TokenMoved'""")
    rechain_stored(conn, 1)
    conn.close()
    said = ("error: game 1 cannot be read: event 7 (TokenMoved) is no fact the table can take "
            "(its player names 'Zed', who is not at the table), and banco never writes one: run "
            "`banco audit`\n")
    for args in (("state",), ("standings",), ("roll", "2", "3"), ("statement", "Anna"),
                 ("replay",)):
        assert banco(db, *args, code=4).stderr == said, args
    # the audit names the stranger as `state` does, not by a Python exception's words
    out = banco(db, "audit", code=3).stdout
    assert ("game 1: FAILED at event 7: TokenMoved is no fact the table can take: its player "
            "names 'Zed', who is not at the table; ") in out
    assert "KeyError" not in out

    from starlette.testclient import TestClient

    from banco.cli.web.app import Hub, make_app

    hub = Hub(str(db), None, poll=0.05)
    try:
        with TestClient(make_app(hub)) as client:
            doc = client.get("/api/table").json()
    finally:
        hub.close()
    assert doc["state"] is None and doc["error"] == said.strip()
