"""The first write raises an older file to format 4 (issue 31, item 3): the vintage files of
tests/test_vintage_formats.py (formats 1 to 3, written by the banco of each) and the same
games in a PostgreSQL database of formats 2 and 3.

Format 4 says that rows of schema version 3 (typed facts) may follow, which a banco of format 3
cannot read: that banco refuses to write into a newer format (and warns before reading one).
The raise changes `meta` and nothing else: every old row keeps its bytes, so every old game
keeps its head.  A reading never raises it.
"""

from __future__ import annotations

import json
import sqlite3

import pytest
from test_vintage_formats import FORMATS, LATER, banco, head, said, unpack

# What each old game's table waits for next (tests/tools/make_vintage.py's game)
NEXT = {1: ("roll", "1", "2"), 2: ("buy",), 3: ("buy",)}
ROW = "game_id, seq, type, data, recorded_at, actor, command_id, schema_version, prev_hash, hash"


def rows(db: str) -> dict[tuple[int, int], tuple]:
    conn = sqlite3.connect(db)
    try:
        return {r[:2]: r for r in conn.execute(f"SELECT {ROW} FROM events")}
    finally:
        conn.close()


def meta(db: str) -> dict[str, str]:
    conn = sqlite3.connect(db)
    try:
        tables = {t for (t,) in conn.execute("SELECT name FROM sqlite_master")}
        return dict(conn.execute("SELECT key, value FROM meta")) if "meta" in tables else {}
    finally:
        conn.close()


@pytest.mark.parametrize("fmt", FORMATS, ids=lambda f: f"format{f}")
def test_the_first_write_raises_an_old_file_to_format_4_and_every_old_row_stays(fmt, tmp_path):
    g = said(fmt)
    db = unpack(fmt, tmp_path)
    before, was = rows(db), meta(db)
    banco(db, "--game", "1", "state")
    assert meta(db) == was  # a reading: still the old format
    banco(db, "--game", "1", *NEXT[fmt])
    now = meta(db)
    assert now["format"] == "4"
    if fmt == 1:  # no `meta` before: made, saying from what
        assert now["migrated_from"] == "1" and "migrated_to_4_at" not in now
    else:
        assert now["migrated_to_4_at"].endswith("Z")
        assert {k: v for k, v in now.items() if k not in ("format", "migrated_to_3_at",
                                                          "migrated_to_4_at")} == \
               {k: v for k, v in was.items() if k not in ("format", "migrated_to_3_at")}
    after = rows(db)
    assert {k: after[k] for k in before} == before  # not one old row rewritten
    added = [after[k] for k in after.keys() - before.keys()]
    assert added and {r[7] for r in added} == {3} and {r[0] for r in added} == {1}
    report = json.loads(banco(db, "audit", "--json"))
    assert report["ok"] is True, report
    # the old head is the head of the game's first events still; the other game's is untouched
    assert "chain intact" in banco(db, "--game", "1", "audit", "--expect-head", head(g["audit"]))
    if fmt in LATER:
        assert head(report, 2) == head(g["audit_game2"], 2)
    banco(db, "--game", "1", "state")
    assert meta(db) == now  # raised once


def test_a_postgresql_database_of_format_2_or_3_is_raised_to_4_by_its_first_write(tmp_path):
    """Format 2 gains format 3's column when first opened (as before) and stays 3 while it
    is read; the first write raises it to 4, rewriting no row: every old game keeps its head."""
    import pg_cluster
    import psycopg

    from banco.ledger.store.open import open_store

    url, admin = pg_cluster.database()
    exported = {}
    for fmt in FORMATS:
        exported[fmt] = tmp_path / f"format{fmt}.jsonl"
        if fmt in LATER:
            exported[fmt].write_text(said(fmt)["export"], encoding="utf-8")
        else:  # the format-1 banco had no export: today's, of its file
            banco(unpack(fmt, tmp_path), "--game", "1", "export", "-o", str(exported[fmt]))
    games = {fmt: json.loads(banco(url, "import", str(exported[fmt]), "--json"))["game"]
             for fmt in (1, 2)}  # no table digest in their rows: format 2 holds them whole

    def pg_meta() -> dict[str, str]:
        with psycopg.connect(admin) as conn:
            return dict(conn.execute("SELECT key, value FROM banco.meta").fetchall())

    def pg_rows() -> dict[tuple[int, int], tuple]:
        with psycopg.connect(admin) as conn:
            return {r[:2]: r for r in conn.execute(f"SELECT {ROW} FROM banco.events")}

    with psycopg.connect(admin, autocommit=True) as conn:  # as a banco of format 2 made it
        conn.execute("ALTER TABLE banco.events DROP COLUMN table_digest")
        conn.execute("UPDATE banco.meta SET value='2' WHERE key='format'")
    opened = open_store(admin)  # the owner's: adding a column is the owner's to do
    assert opened.format == 3 and pg_meta()["format"] == "3"
    opened.close()
    before = pg_rows()
    banco(url, "--game", str(games[1]), "state")
    assert pg_meta()["format"] == "3" and "migrated_to_4_at" not in pg_meta()  # a reading
    games[3] = json.loads(banco(url, "import", str(exported[3]), "--json"))["game"]
    assert pg_meta()["format"] == "4" and pg_meta()["migrated_to_4_at"].endswith("Z")
    banco(url, "--game", str(games[1]), *NEXT[1])  # a command's write on a format-4 database
    after = pg_rows()
    assert {k: after[k] for k in before} == before  # not one old row rewritten
    for fmt, game in games.items():
        report = json.loads(banco(url, "--game", str(game), "audit", "--json"))
        assert report["ok"] is True, (fmt, report)
        assert "chain intact" in banco(url, "--game", str(game), "audit", "--expect-head",
                                       head(said(fmt)["audit"]))
