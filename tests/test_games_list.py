"""`games`: an organiser sees which games were played here and which came from a file."""

import json

from freezegun import freeze_time


def test_games_says_which_game_was_imported_and_from_where(banco, tmp_path):
    from banco.cli.words.facts import local_time

    with freeze_time("2026-11-30 09:00:00"):
        banco("new", "Anna", "Bruno")
        banco("roll", "1", "2")
    export = tmp_path / "anna-bruno.jsonl"
    banco("export", "-o", str(export))
    other = tmp_path / "other.db"
    with freeze_time("2026-11-30 10:30:00"):
        banco("--db", str(other), "new", "Carla", "Dario")
        banco("--db", str(other), "import", str(export))
    doc = json.loads(banco("--db", str(other), "games", "--json").output)
    assert [g["imported"] for g in doc][0] is None
    came = doc[1]["imported"]
    assert came["at"] == "2026-11-30T10:30:00.000000Z" and came["from"] == "anna-bruno.jsonl"
    assert came["events"] == doc[1]["events"] and came["head"]
    lines = banco("--db", str(other), "games").output.splitlines()
    assert "imported" not in lines[1]
    at = local_time(came["at"])  # the machine's time zone, as every time banco prints
    assert lines[2].endswith(f"Anna, Bruno  (imported {at} from anna-bruno.jsonl)")
    it = banco("--db", str(other), "--lang", "it", "partite").output.splitlines()
    assert it[2].endswith(f"(importata il {at} da anna-bruno.jsonl)")


def test_a_games_row_edited_by_hand_is_said_and_points_to_doctor(banco):
    """A trial: a games row whose players and rules were changed with sqlite3 was listed as if
    it were the game's log.  The row is held to the log: the listing stands (it is the
    table's), stderr says what the log says instead, pointing to doctor; a head or a last
    event edited likewise.  A file whose rows are the logs' says nothing."""
    import sqlite3

    banco("new", "Anna", "Bruno")
    banco("roll", "1", "2")
    banco("new", "Carla", "Dario")
    clean = banco("games")
    assert "WARNING" not in clean.output
    conn = sqlite3.connect(banco.db)
    conn.execute("""UPDATE games SET players='["Anna", "Zed"]', rules='championship'
                    WHERE game_id=1""")
    conn.commit()
    out = banco("games").output
    assert "Anna, Zed" in out  # the table's row, as listed
    assert "WARNING: the games table says game 1's players is [\"Anna\", \"Zed\"], but its log " \
           "says [\"Anna\", \"Bruno\"] (event 2): the row was edited; `banco doctor` says more" \
           in out, out
    assert "game 1's rules is championship, but its log says classic" in out
    assert "game 2" not in out.split("WARNING", 1)[1]
    conn.execute("UPDATE games SET players='[\"Anna\", \"Bruno\"]', rules='classic', "
                 "head='0000' || substr(head, 5) WHERE game_id=1")
    conn.commit()
    conn.close()
    out = banco("games", "--json").output
    assert "WARNING: game 1 event 8 ends the log read, but the games table recorded its end at " \
           "event 8 with the head 0000" in out and "the log was rewritten or cut" in out, out
