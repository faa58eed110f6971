"""A read of the types a game holds a few of (its end, its undos) goes by an index of the type or
of the game, never by the key's range over the whole game: on a 300,002-event game SQLite
walked every row for `ended_in_log`, 56 ms of every `state` and write (the flat-cost budget
missed, 1.72x: docs/performance.md); a type of many rows keeps the key's range."""

from __future__ import annotations

import sqlite3

from games import record

from banco.ledger.store.reading import FEW_A_GAME, select


def plan(db: str, types: tuple[str, ...]) -> str:
    sql, args = select("seq", "events", "?", "IN ({marks})", 1, 0, 10**6, types, None, False)
    conn = sqlite3.connect(db)
    try:
        return " ".join(r[3] for r in conn.execute("EXPLAIN QUERY PLAN " + sql, args))
    finally:
        conn.close()


def test_a_few_a_game_types_are_not_found_by_walking_the_games_key(tmp_path):
    db = record(str(tmp_path / "g.db"), "classic-4p")
    for types in (("GameEnded",), ("EventRetracted",), ("GameStarted",), ("SealRecorded",)):
        assert set(types) <= FEW_A_GAME
        said = plan(db, types)
        assert "seq>?" not in said and "USING INDEX" in said, (types, said)
    assert "seq>?" in plan(db, ("DiceRolled",))  # many a game: the key's range
