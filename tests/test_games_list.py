"""`games`: an organiser sees which games were played here and which came from a file."""

import json

from freezegun import freeze_time


def test_games_says_which_game_was_imported_and_from_where(banco, tmp_path):
    from cli.words.facts import local_time

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
