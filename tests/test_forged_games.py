"""A referee's and organiser's trial ("impossible to cook"): games forged in the file with
every hash recomputed (the chain intact), which only the audit can tell, met by the commands
that hand a history on (`export`), run as the installed command for exit codes and stderr."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from forge import drop_triggers, rechain_stored
from test_copy import BANCO, FIXTURE, banco  # the installed banco, run as a shell runs it

pytestmark = pytest.mark.skipif(not BANCO.exists(), reason="banco is not installed in this venv")


def forged(tmp_path) -> str:
    """A file of two games, the second's starting cash for Anna edited (1500 -> 9500) and every
    hash after it recomputed, the games row's head too: the chain is intact."""
    db = str(tmp_path / "table.db")
    banco("--db", db, "run", "-q", FIXTURE)
    banco("--db", db, "new", "Anna", "Bruno")
    conn = sqlite3.connect(db, isolation_level=None)
    drop_triggers(conn)
    conn.execute("UPDATE events SET data=replace(data, '1500', '9500') WHERE game_id=2 "
                 "AND seq=3")
    conn.execute("UPDATE games SET head=? WHERE game_id=2", (rechain_stored(conn, 2, 3),))
    conn.close()
    return db


def test_an_export_of_a_forged_game_says_so_and_exits_3(tmp_path):
    """A trial: the export of a forged game was written with exit 0 and no word; the import
    at the other end refuses it.  With --audit the file is written all the same (the evidence
    of what the database holds), but stderr names the event and the reason, and the exit is
    3, as `audit`'s and `report`'s; without it the export reads at its own pace (issue 21)
    and the import is where the forgery is refused."""
    db = forged(tmp_path)
    out = str(tmp_path / "g2.jsonl")
    plain = banco("--db", db, "export", "--game", "2", "-o", str(tmp_path / "plain.jsonl"))
    assert "FAILED" not in plain.stderr
    said = banco("--db", db, "export", "--game", "2", "-o", out, "--audit", code=3).stderr
    assert "game 2: FAILED at event 3: starting cash for Anna is 9500 M" in said, said
    assert "warning: game 2 does not audit clean: the export is the history as this database " \
           "holds it, not one to trust" in said
    written = Path(out).read_text(encoding="utf-8").splitlines()
    assert json.loads(written[0])["events"] == len(written) - 1 >= 3  # written whole
    refused = banco("--db", str(tmp_path / "other.db"), "import", out, code=3).stderr
    assert "the audit stops at event 3" in refused
    for fmt in ("csv", "text"):  # the same history in other words: the same verdict
        said = banco("--db", db, "export", "--game", "2", "--format", fmt, "--audit",
                     code=3).stderr
        assert "game 2: FAILED at event 3" in said, (fmt, said)
    clean = banco("--db", db, "export", "--game", "1", "-o", str(tmp_path / "g1.jsonl"),
                  "--audit")
    assert "FAILED" not in clean.stderr and "warning" not in clean.stderr


def test_a_game_stored_otherwise_than_the_file_says_how(tmp_path):
    """A trial: a shortened forgery of a game imported first, the genuine game's import said
    only "already game 1".  It says the stored copy differs: shorter (where each ends), or a
    different history (where they part); exit 3, nothing imported.  The same history: still
    "already game 1" (exit 2)."""
    from exchange_files import rehash, rows_of, write

    db = str(tmp_path / "table.db")
    banco("--db", db, "run", "-q", FIXTURE)
    full = tmp_path / "full.jsonl"
    banco("--db", db, "export", "-o", full)
    header, rows = rows_of(full)
    cut = next(r["seq"] for r in rows if r["seq"] >= 300 and r["type"] == "CommandRecorded") - 1
    short = tmp_path / "short.jsonl"
    kept = rows[:cut]
    versions = sorted({r["chain_version"] for r in kept})
    write(short, {**header, "events": cut, "head": kept[-1]["hash"], "chain_versions": versions,
                  "hashed_fields": {str(v): header["hashed_fields"][str(v)] for v in versions}},
          kept)
    other = str(tmp_path / "other.db")
    banco("--db", other, "import", short)  # the forger's, first: a game cut short
    said = banco("--db", other, "import", full, code=3).stderr
    assert "this game is already game 1 in" in said and "but the copy stored differs from this " \
           f"file: shorter: the stored copy ends at event {cut}, the file goes on to event " \
           f"{header['events']}, the same up to there; nothing was imported" in said, said
    said = banco("--db", other, "import", short, code=2).stderr
    assert "differs" not in said and "this game is already game 1 in" in said
    said = banco("--db", db, "import", short, code=3).stderr  # the whole game stored here
    assert f"longer: the file ends at event {cut}, the stored copy goes on to event " \
           f"{header['events']}" in said, said
    # a history changed at event 10 and re-chained from there: they part at event 10
    rows[9]["data"] = {**rows[9]["data"], "forged": 1}
    rehash(rows, 9)
    write(tmp_path / "changed.jsonl", {**header, "head": rows[-1]["hash"]}, rows)
    said = banco("--db", db, "import", tmp_path / "changed.jsonl", code=3).stderr
    assert "but the copy stored differs from this file: a different history: they part at " \
           "event 10 (the stored copy's hash there is" in said, said
    said = banco("--db", str(tmp_path / "third.db"), "import", short)
    said = banco("--db", str(tmp_path / "third.db"), "import", tmp_path / "changed.jsonl",
                 code=3).stderr
    assert "they part at event 10" in said  # the file goes on longer, but parts first
