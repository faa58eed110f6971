"""The file beside the games: `doctor` naming dropped triggers, a games table, a snapshot or a
tournament's chain edited, and repairing them; a file that is not banco's or empty; the
installed banco's exit codes as a shell sees them."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from forge import drop_triggers
from integrity_files import FORGED_AT, banco, last_30_cut_off, not_json

from banco.cli.main import cli

# --- the file beside the games ---------------------------------------------------------------

def test_dropped_triggers_are_reported_by_audit_and_doctor_and_repaired(copy):
    db = copy / "t.db"
    conn = sqlite3.connect(db)
    drop_triggers(conn)
    conn.commit()
    conn.close()
    out = banco(db, "audit", code=3)
    assert "database: the trigger events_no_update is missing" in out
    assert "database: the trigger events_no_delete is missing" in out
    assert "game 1: 1" in out and "FAILED" not in out  # the games themselves are fine
    out = banco(db, "doctor", code=3)
    assert "triggers: missing events_no_update, events_no_delete, events_format_2" in out
    out = banco(db, "doctor", "--repair", "--reason", "forger's work found at the club")
    assert "repaired: recreated the trigger events_no_update" in out and "healthy" in out
    assert "forger's work found at the club" in out
    banco(db, "audit")  # clean again, and the repair is on the record
    conn = sqlite3.connect(db)
    with pytest.raises(sqlite3.DatabaseError, match="append-only: DELETE refused"):
        conn.execute("DELETE FROM events WHERE seq=1")
    with pytest.raises(sqlite3.DatabaseError, match="maintenance history is append-only"):
        conn.execute("DELETE FROM maintenance")
    conn.close()
    doc = json.loads(banco(db, "audit", "--json"))
    assert [m["what"] for m in doc["maintenance"]][:2] == [
        "recreated the trigger events_no_update", "recreated the trigger events_no_delete"]
    assert "maintenance history: 3 entries" in banco(db, "doctor")


def test_doctor_rebuilds_the_games_table_and_keeps_what_it_was(copy):
    db = copy / "t.db"
    last = last_30_cut_off(db)  # the games table still says where the log ended
    out = banco(db, "doctor", code=3)
    assert (f"game 1 event {last - 1} ends the log read, but the games table recorded its end "
            f"at event {last + 29}") in out and "the log was rewritten or cut" in out
    out = banco(db, "doctor", "--repair")
    assert f"rebuilt game 1's row of the games table from its log: event {last + 29} -> " \
           f"{last - 1}" in out
    out = banco(db, "audit", code=3)  # the triggers are back, the games table agrees...
    assert "database:" not in out
    # ...and the seal still knows
    out = banco(db, "audit", "--seal", copy / "seal.txt", "--pubkey", copy / "rita.pub", code=3)
    assert f"the log stops at event {last - 1}" in out


def test_a_tampered_tournament_chain_is_named(tmp_path):
    db = tmp_path / "t.db"
    banco(db, "new", "Anna", "Bruno", "--rules", "championship")
    banco(db, "time-up")
    banco(db, "tournament", "new", "Coppa")
    banco(db, "tournament", "add", "1")
    banco(db, "audit")
    conn = sqlite3.connect(db)
    drop_triggers(conn)
    conn.execute("UPDATE tournament_facts SET data='{\"game\":1,\"round\":2}' WHERE seq=2")
    conn.commit()
    conn.close()
    out = banco(db, "audit", code=3)
    assert "database: tournament 'Coppa', fact 2: its content does not match its hash" in out
    assert "tournament_facts_no_update is missing" in out


def test_doctor_on_a_file_that_is_not_banco_s_is_unusable(tmp_path):
    db = tmp_path / "other.db"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE x (a)")
    conn.commit()
    conn.close()
    assert "is a SQLite database but not banco's" in banco(db, "doctor", code=4)


def test_an_empty_file_is_said_empty_not_healthy_with_all_its_triggers(tmp_path):
    # what `sqlite3.connect` leaves behind: doctor said "triggers: all present" and "healthy",
    # audit a "no such table" error
    db = tmp_path / "empty.db"
    db.write_bytes(b"")
    out = banco(db, "doctor")
    assert "empty, no banco tables yet: nothing to check" in out
    assert "all present" not in out and "healthy" not in out
    assert json.loads(banco(db, "doctor", "--json"))["empty"] is True
    assert "no game in" in banco(db, "audit", code=2) and db.read_bytes() == b""


# --- the installed banco, as a shell sees it -------------------------------------------------

def test_exit_codes_of_the_installed_banco(copy):
    import os
    import subprocess
    import sys

    exe = Path(sys.executable).parent / "banco"
    if not exe.exists():
        pytest.skip("banco is not installed in this venv")

    def run(*args, code):
        result = subprocess.run([str(exe), "--db", str(copy / "t.db"), *map(str, args)],
                                capture_output=True, text=True, timeout=120, cwd=copy,
                                env={**os.environ, "BANCO_FIXED_TIME": FORGED_AT})
        assert "Traceback" not in result.stderr, result.stderr
        assert result.returncode == code, (args, result.stdout, result.stderr)
        return result.stdout + result.stderr

    run("keygen", "--out", "ref", code=0)
    out = run("--game", "2", "seal", "--key", "ref.key", code=0)
    assert out.strip().splitlines()[-1].startswith("banco/2/643/")
    run("audit", "--seal", "game-2-seal-643.txt", "--pubkey", "ref.pub", code=0)
    run("doctor", code=0)
    seq = not_json(copy / "t.db")  # and the triggers dropped
    assert f"game 1: FAILED at event {seq}: its data is not JSON" in run("audit", code=3)
    run("doctor", code=3)
    run("doctor", "--repair", code=0)
    run("audit", "--seal", "seal.txt", "--pubkey", "rita.pub", code=3)
    run("audit", "--expect-head", "nothex!!", code=2)
    (copy / "other.db").write_bytes(b"not a database at all, just text" * 100)
    for words in (("doctor",), ("audit",)):
        result = subprocess.run([str(exe), "--db", str(copy / "other.db"), *words],
                                capture_output=True, text=True, timeout=60)
        assert result.returncode == 4 and "Traceback" not in result.stderr, result.stderr


def test_a_tournament_game_gone_from_the_file_is_named(tmp_path):
    db = tmp_path / "t.db"
    banco(db, "new", "Anna", "Bruno", "--rules", "championship")
    banco(db, "time-up")
    banco(db, "tournament", "new", "Coppa")
    banco(db, "tournament", "add", "1")
    conn = sqlite3.connect(db)
    drop_triggers(conn)
    conn.execute("DELETE FROM events")
    conn.execute("DELETE FROM games")
    conn.commit()
    conn.close()
    out = banco(db, "doctor", code=3)
    assert "tournament 'Coppa', fact 2: it enters game 1 (" in out
    assert "which is not in this database any more" in out


def test_an_edited_snapshot_is_named_by_doctor_and_deleted_by_repair(copy):
    """A snapshot with the log's head at its seq and a digest that binds its text to it, edited
    with that digest recomputed (the function is public): the chain records the digest of the
    table at that event too, so `state` does not start from it and shows the log's table;
    doctor names it, --repair deletes it and records that."""
    db = copy / "t.db"
    honest = json.loads(banco(db, "--game", "2", "state", "--json"))
    conn = sqlite3.connect(db)
    seq, state = conn.execute("SELECT seq, state FROM snapshots WHERE game_id=2 "
                              "ORDER BY seq DESC").fetchone()
    anna = json.loads(state)["v"][6]["t"][0]["v"]
    assert anna[0] == "Anna"
    forged = state.replace(json.dumps(anna, separators=(",", ":")),
                           json.dumps([anna[0], anna[1] + 5000, *anna[2:]],
                                      separators=(",", ":")), 1)
    assert forged != state
    from banco.ledger.store.snapshot_binding import snapshot_digest

    head, fmt = conn.execute("SELECT head, format FROM snapshots WHERE game_id=2 AND seq=?",
                             (seq,)).fetchone()
    conn.execute("UPDATE snapshots SET state=?, digest=? WHERE game_id=2 AND seq=?",
                 (forged, snapshot_digest(seq, head, fmt, forged), seq))
    conn.commit()
    conn.close()
    shown = CliRunner().invoke(cli, ["--db", str(db), "--game", "2", "state", "--json"])
    assert shown.exit_code == 0 and f"the snapshot at event {seq} was changed" in shown.stderr
    assert json.loads(shown.stdout) == honest
    out = banco(db, "doctor", code=3)
    assert f"game 2: the snapshot at event {seq} was changed after banco wrote it" in out
    doc = json.loads(banco(db, "doctor", "--json", code=3))
    assert [(p["kind"], p["game"], p["seq"]) for p in doc["problems"]] == [("snapshot", 2, seq)]
    out = banco(db, "doctor", "--repair", "--reason", "snapshot edited")
    assert f"repaired: deleted game 2's snapshot at event {seq}" in out and "healthy" in out
    assert "delete it" not in out  # the record of what was done carries no advice to do it
    assert json.loads(banco(db, "--game", "2", "state", "--json")) == honest
    assert "snapshot edited" in banco(db, "doctor")


@pytest.mark.parametrize("column, value, seq_is_start", [
    ("players", '["Anna","Bruno","Zoe"]', True),
    ("rules", "championship", True),
    ("edition", "us", True),
    ("game_uuid", "00000000-0000-0000-0000-000000000000", True),
    ("started_at", "2020-01-01T00:00:00.000000Z", False),
])
def test_an_edited_identity_in_the_games_table_is_named_and_rebuilt(copy, column, value,
                                                                   seq_is_start):
    """`games` and the tournaments read who played, under which rules and since when from the
    games table: each column is held to the game's own log (found by a newcomer's trial: an
    UPDATE of players, rules and started_at passed audit and doctor)."""
    db = copy / "t.db"
    conn = sqlite3.connect(db)
    started = conn.execute("SELECT seq FROM events WHERE game_id=2 AND type='GameStarted'"
                           ).fetchone()[0]
    was = conn.execute(f"SELECT {column} FROM games WHERE game_id=2").fetchone()[0]
    conn.execute(f"UPDATE games SET {column}=? WHERE game_id=2", (value,))
    conn.commit()
    conn.close()
    doc = json.loads(banco(db, "audit", "--json", code=3))
    game2 = next(g for g in doc["games"] if g["game"] == 2)
    assert game2["bad_seq"] == (started if seq_is_start else 1)
    assert game2["problem"].startswith(f"the games table says game 2's {column} is ")
    assert "the row was edited" in game2["problem"]
    assert f"game 2's {column}" in banco(db, "doctor", code=3)
    out = banco(db, "doctor", "--repair")
    assert f"rebuilt game 2's {column} in the games table from its log" in out
    conn = sqlite3.connect(db)
    assert conn.execute(f"SELECT {column} FROM games WHERE game_id=2").fetchone()[0] == was
    conn.close()
    banco(db, "audit")
