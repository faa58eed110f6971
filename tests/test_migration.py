"""Databases written before format 2 still read and audit, and are migrated in place by the
first write, without one old row rewritten: tests/data/format1.db (written by banco at 3ce052c)
and the committed fixtures' logs as format 1 held them."""

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from format1 import OLD_DB, as_format1_log, write_format1

from banco.cli.main import cli

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
# What banco at 3ce052c printed for tests/data/format1.db (`audit`, `state --json`).
OLD_HEADS = {1: "aab4550e17c6fd8f8878b51ed19e835757c401787c7401519d5533dae1cfc708",
             2: "70b120b57c78384df3a7eb26cc59a140de95ba5de67f3426108a9473727dd84a"}
OLD_CASH = {1: {"Anna": 1225, "Bruno": 1370, "Carla": 1160, "Dario": 1335},
            2: {"Ada": 1440, "Bea": 1500}}


def banco(db, *args, code=0):
    result = CliRunner().invoke(cli, ["--db", db, *args], catch_exceptions=False)
    assert result.exit_code == code, (args, result.output)
    assert "Traceback" not in result.output
    return result.output


def rows(db):
    conn = sqlite3.connect(db)
    out = conn.execute("SELECT game_id, seq, type, data, recorded_at, actor, command_id, "
                       "schema_version, prev_hash, hash FROM events ORDER BY game_id, seq").fetchall()
    conn.close()
    return out


def tables(db):
    conn = sqlite3.connect(db)
    out = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    conn.close()
    return out


@pytest.fixture
def old_db(tmp_path):
    db = str(tmp_path / "old.db")
    shutil.copy(OLD_DB, db)
    return db


def test_the_old_database_reads_and_audits_as_it_is(old_db):
    before = rows(old_db)
    for g in (1, 2):
        state = json.loads(banco(old_db, "--game", str(g), "state", "--json"))
        assert {p["name"]: p["cash"] for p in state["players"]} == OLD_CASH[g]
        audit = banco(old_db, "--game", str(g), "audit")
        assert "chain intact, schemas valid, books balance" in audit and OLD_HEADS[g] in audit
    log = banco(old_db, "--game", "1", "log")
    assert "RentClaimRefused" in log and "x " in log  # the late claim, the undone command
    games = json.loads(banco(old_db, "games", "--json"))
    assert [(g["game"], g["rules"], g["events"], g["uuid"]) for g in games] == [
        (1, "classic", 66, None), (2, "quick", 8, None)]
    assert rows(old_db) == before and "meta" not in tables(old_db)  # reading wrote nothing


def test_the_first_write_migrates_it_and_every_old_row_stays(old_db):
    before = rows(old_db)
    banco(old_db, "--game", "2", "roll", "2", "3")
    assert {"meta", "games"} <= tables(old_db)
    after = rows(old_db)
    assert after[:len(before)] == before
    conn = sqlite3.connect(old_db)
    meta = dict(conn.execute("SELECT key, value FROM meta"))
    chains = conn.execute("SELECT game_id, chain_version, COUNT(*) FROM events GROUP BY 1, 2 "
                          "ORDER BY 1, 2").fetchall()
    conn.close()
    assert meta["format"] == "4" and meta["migrated_from"] == "1" and meta["migrated_at"]
    assert chains[0] == (1, 1, 66) and chains[1] == (2, 1, 8) and chains[2][:2] == (2, 2)
    assert OLD_HEADS[1] in banco(old_db, "--game", "1", "audit")  # untouched: same head
    # game 2 went on, with a version-2 row chained onto its old head
    assert "chain intact" in banco(old_db, "--game", "2", "audit", "--expect-head",
                                   OLD_HEADS[2])
    state = json.loads(banco(old_db, "--game", "2", "state", "--json"))
    assert state["players"][1]["position"] == 5  # Bea's roll, on top of the old rows
    log = json.loads(banco(old_db, "--game", "2", "log", "--json"))
    assert log[8]["type"] == "CommandRecorded" and log[8]["data"]["line"] == "roll 2 3"
    banco(old_db, "new", "Cleo", "Dan")
    assert [g["game"] for g in json.loads(banco(old_db, "games", "--json"))] == [1, 2, 3]


@pytest.mark.parametrize("name", ["classic-4p", "classic-to-the-end"])
def test_the_committed_fixture_logs_held_as_format_1_read_and_audit(tmp_path, name):
    from forge import recorded_schema1  # a format-1 file held the English sentences of schema 1

    log = recorded_schema1(name)
    golden = json.loads((FIXTURES / f"{name}.state.json").read_text(encoding="utf-8"))
    db = str(tmp_path / "f1.db")
    old_log = as_format1_log(log)
    write_format1(db, {1: old_log})
    state = json.loads(banco(db, "state", "--json"))
    assert {**state, "seq": 0} == {**golden, "seq": 0} and state["seq"] == len(old_log)
    assert f"{len(old_log)} events, chain intact" in banco(db, "audit")
    if not golden["ended"]:
        banco(db, "undo")  # a write: the file is migrated, the old rows verify as before
    else:
        banco(db, "new", "Ada", "Bea")
        banco(db, "--game", "2", "undo", code=1)  # nothing to undo in a game just dealt
    assert "meta" in tables(db)
    assert "chain intact, schemas valid, books balance" in banco(db, "--game", "1", "audit")
