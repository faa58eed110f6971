"""The head line on the score sheet: `--expect-head` with a prefix or a whole line, a line the
log went past, miswritten or of a game deleted; rows moved to another game; an import mark
written by hand."""

from __future__ import annotations

import json
import sqlite3

from forge import drop_triggers
from integrity_files import banco

# --- --expect-head ---------------------------------------------------------------------------

def test_expect_head_takes_a_prefix_in_any_case(copy):
    db = copy / "t.db"
    doc = json.loads(banco(db, "--game", "2", "audit", "--json"))
    head = doc["games"][0]["head"]
    assert "chain intact" in banco(db, "audit", "--expect-head", head[:8].upper())
    # an earlier event's hash: intact up to it, and the log went on
    conn = sqlite3.connect(db)
    earlier = conn.execute("SELECT hash FROM events WHERE game_id=2 AND seq=600").fetchone()[0]
    conn.close()
    out = banco(db, "audit", "--expect-head", earlier[:10])
    assert "is event 600's: events 1-600 are as they were" in out
    assert "events 601-643 came after" in out
    out = banco(db, "--game", "2", "audit", "--expect-head", "0123abcd0123", code=3)
    assert "the head 0123abcd0123 is not found in this history (game 2, events 1-643)" in out
    err = banco(db, "audit", "--expect-head", "abc", code=2)
    assert "at least its first 8 hex digits" in err
    err = banco(db, "audit", "--expect-head", "xyz12345", code=2)
    assert "at least its first 8 hex digits" in err


def test_a_head_line_passed_by_later_events_is_said(copy):
    """The score sheet's line of a finished game, then more events (an undo reopening it, a
    correction): the prefix is intact, and the audit says what came after it, never silent."""
    db = copy / "t.db"
    conn = sqlite3.connect(db)
    earlier = conn.execute("SELECT hash FROM events WHERE game_id=2 AND seq=600").fetchone()[0]
    conn.close()
    out = banco(db, "audit", "--expect-head", f"banco/2/600/{earlier[:12]}")
    assert (f"note: the head banco/2/600/{earlier[:12]} is event 600's: events 1-600 are as "
            "they were when it was printed; the log went on past it: events 601-643 came "
            "after") in out
    assert "--expect-head takes" in banco(db, "audit", "--expect-head", "banco/2/643/", code=2)


def test_a_head_line_with_its_event_number_miswritten_names_the_event_that_has_it(copy):
    db = copy / "t.db"
    conn = sqlite3.connect(db)
    h600 = conn.execute("SELECT hash FROM events WHERE game_id=2 AND seq=600").fetchone()[0]
    conn.close()
    out = banco(db, "audit", "--expect-head", f"banco/2/599/{h600[:12]}", code=3)
    assert (f"game 2: FAILED at event 599: the head line names event 599, but {h600[:12]} is "
            "the hash of event 600: check the event number written with it (`--expect-head "
            f"banco/2/600/{h600[:12]}`)") in out


def test_a_head_line_of_a_game_deleted_whole_fails(copy):
    """Game 1's rows and its games-table entry deleted (the triggers dropped): its score
    sheet's head line passed as '0 events, chain intact' (a newcomer found it)."""
    db = copy / "t.db"
    conn = sqlite3.connect(db)
    last, head = conn.execute("SELECT seq, hash FROM events WHERE game_id=1 ORDER BY seq DESC "
                              "LIMIT 1").fetchone()
    drop_triggers(conn)
    conn.execute("DELETE FROM events WHERE game_id=1")
    conn.execute("DELETE FROM games WHERE game_id=1")
    conn.commit()
    conn.close()
    out = banco(db, "audit", "--expect-head", f"banco/1/{last}/{head[:12]}", code=3)
    assert (f"game 1: FAILED at event 1: the head line banco/1/{last}/{head[:12]} was printed "
            f"at event {last} of game 1, but this file holds no event of game 1: the game was "
            "deleted") in out
    assert "not found in this history" in banco(db, "--game", "2", "audit", "--expect-head",
                                                  "feedfacecafe", code=3)
    out = banco(db, "audit", "--expect-head", f"banco/7/3/{head[:12]}", code=3)
    assert "this file holds no event of game 7" in out


def test_rows_moved_to_a_game_with_no_row_are_said_by_their_last_seq(copy):
    db = copy / "t.db"
    conn = sqlite3.connect(db)
    drop_triggers(conn)
    conn.execute("UPDATE events SET game_id=3 WHERE game_id=2 AND seq IN (402, 403)")
    conn.commit()
    conn.close()
    out = banco(db, "audit", code=3)
    assert "game 3 has events up to event 403 in the log but no row in the games table" in out
    assert "game 2: FAILED at event 402: hash chain: event 402 is missing" in out


def test_an_import_mark_written_by_hand_is_named(copy, tmp_path):
    """meta's imported:G (what `games` shows as "imported ... from FILE") has no trigger: one
    added to a game played here passed the audit.  What it says of the log is checked."""
    db = copy / "t.db"
    exported = tmp_path / "g1.jsonl"
    banco(db, "--game", "1", "export", "-o", str(exported))
    honest = tmp_path / "honest.db"
    banco(honest, "import", str(exported))
    assert "FAILED" not in banco(honest, "audit") and "imported" in banco(honest, "games")
    conn = sqlite3.connect(db)
    conn.execute("INSERT INTO meta VALUES ('imported:2', ?)", (json.dumps(
        {"at": "2026-11-29T20:00:00.000000Z", "events": 5, "from": "referee-rita.jsonl",
         "head": "deadbeef"}),))
    conn.commit()
    conn.close()
    out = banco(db, "audit", code=3)
    assert ("game 2: FAILED: the import mark of game 2 says it came with 5 events and the head "
            "deadbeef..., but its log has") in out and "the mark was written by hand" in out
    assert "the mark was written by hand" in banco(db, "doctor", code=3)


def test_a_finished_game_prints_its_head_line(tmp_path):
    db = tmp_path / "t.db"
    banco(db, "new", "Anna", "Bruno", "--rules", "championship")
    assert "head line" not in banco(db, "state") + banco(db, "standings")  # not over yet
    out = banco(db, "time-up")  # the line that ends it
    conn = sqlite3.connect(db)
    seq, head = conn.execute("SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1").fetchone()
    conn.close()
    line = f"banco/1/{seq}/{head[:12]}"
    said = f"head line for the score sheet: {line}"
    assert said in out.splitlines()[-1]
    assert said in banco(db, "state").splitlines()[-1]
    assert said in banco(db, "standings").splitlines()[-1]
    assert "chain intact" in banco(db, "audit", "--expect-head", line)
