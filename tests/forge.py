"""A forger's kit for audit tests: stored rows made from plain events, edited, and re-chained
so that the hash chain is consistent again and only the audit's other checks can object."""

from __future__ import annotations

import copy
import gzip
import json
import sqlite3
from functools import cache
from pathlib import Path

from banco.ledger.store.canonical import GENESIS, row_hash

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
DATA = Path(__file__).resolve().parent / "data"
NOW = "2026-11-29T10:00:00.000000Z"


def recorded(name: str) -> list[dict]:
    """A recorded game's events (seq, type, data) from fixtures/NAME.events.json: today's
    facts, as tests/tools/regolden.py writes them."""
    return json.loads((FIXTURES / f"{name}.events.json").read_text(encoding="utf-8"))


def recorded_schema1(name: str) -> list[dict]:
    """The same game as an older banco recorded it, schema version 1 (its reasons English
    sentences), from tests/data/golden-schema1.json.gz: frozen, for the upcaster's tests."""
    return copy.deepcopy(schema1_games()[name])


@cache
def schema1_games() -> dict[str, list[dict]]:
    with gzip.open(DATA / "golden-schema1.json.gz", "rt", encoding="utf-8") as f:
        return json.load(f)


def as_facts(events: list[dict]) -> list[dict]:
    """Events of schema version 1 (reasons in English sentences) as facts, read through the
    upcasters as any older row is (ledger/records/upcast.py)."""
    from banco.ledger.records.upcast import upcast

    return [{**e, "data": upcast(e["type"], 1, e["data"])} for e in events]


def rows_of(events: list[dict], game_id: int = 1, version: int = 1) -> list[dict]:
    """Rows as the store keeps them, seq from 1, chained from the genesis hash.  `version`:
    the schema version the rows carry (1 for events written as an older banco wrote them,
    with English sentences; SCHEMA_VERSION for today's facts, `recorded`'s)."""
    rows = []
    for i, e in enumerate(events, start=1):
        rows.append({"game_id": game_id, "seq": i, "type": e["type"],
                     "data": copy.deepcopy(e["data"]), "recorded_at": NOW, "actor": "banker",
                     "command_id": f"c{i}", "schema_version": version})
    return rechain(rows)


def recorded_rows(name: str, game_id: int = 1) -> list[dict]:
    """A recorded game's rows, of today's schema version."""
    from banco.ledger.records.upcast import SCHEMA_VERSION

    return rows_of(recorded(name), game_id, SCHEMA_VERSION)


def rechain(rows: list[dict], start: int = 0) -> list[dict]:
    """Recompute prev_hash and hash from rows[start] on, as a forger would after an edit."""
    prev = rows[start - 1]["hash"] if start else GENESIS
    for row in rows[start:]:
        row["prev_hash"] = prev
        row["hash"] = prev = row_hash(prev, row)
    return rows


def money_spots(rows: list[dict]) -> list[tuple[int, int | None]]:
    """Every amount a transfer carries: (row index, index in its `transfers` list or None)."""
    from banco.ledger.records.events import MONEY_EVENTS

    spots: list[tuple[int, int | None]] = []
    for i, row in enumerate(rows):
        if row["type"] in MONEY_EVENTS:
            spots.append((i, None))
        for j, _ in enumerate(row["data"].get("transfers", ())):
            spots.append((i, j))
    return spots


def with_amount(rows: list[dict], spot: tuple[int, int | None], amount: int) -> list[dict]:
    """A copy of the log with one transfer's amount changed and the chain recomputed."""
    i, j = spot
    out = [dict(r) for r in rows]
    data = copy.deepcopy(out[i]["data"])
    (data if j is None else data["transfers"][j])["amount"] = amount
    out[i]["data"] = data
    return rechain(out, i)


def amount_at(rows: list[dict], spot: tuple[int, int | None]) -> int:
    i, j = spot
    data = rows[i]["data"]
    return (data if j is None else data["transfers"][j])["amount"]


# --- a forger at a stored database --------------------------------------------------------------

def last_seq(db) -> int:
    """The file's last seq, as its events table holds it (no book: a forged file too)."""
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT MAX(seq) FROM events").fetchone()[0]
    finally:
        conn.close()


def drop_triggers(conn) -> None:
    """What a forger does first: the triggers that refuse UPDATE and DELETE go."""
    for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type='trigger'").fetchall():
        conn.execute(f"DROP TRIGGER {name}")


def rechain_stored(conn, game_id: int, start: int = 1) -> str:
    """Recompute prev_hash and hash of a stored game's rows from seq `start` on, each by its own
    chain version, as a forger would after an edit; returns the new head."""
    from banco.ledger.store.canonical import stored_row_hash

    prev = GENESIS
    if start > 1:
        prev = conn.execute("SELECT hash FROM events WHERE game_id=? AND seq=?",
                            (game_id, start - 1)).fetchone()[0]
    rows = conn.execute("SELECT seq, type, data, recorded_at, actor, command_id, schema_version, "
                        "chain_version, table_digest FROM events WHERE game_id=? AND seq>=? "
                        "ORDER BY seq", (game_id, start)).fetchall()
    for seq, t, d, at, actor, cid, v, chain, table in rows:
        h = stored_row_hash(prev, game_id, seq, t, d, at, actor, cid, v, chain, table)
        conn.execute("UPDATE events SET prev_hash=?, hash=? WHERE game_id=? AND seq=?",
                     (prev, h, game_id, seq))
        prev = h
    return prev


def append_forged_undo(db, game: int, retract: int) -> int:
    """A forger appends the banker's undo (its command and its EventRetracted) that takes back
    event `retract`, with the triggers dropped, and re-chains; returns the last honest seq."""
    import sqlite3

    from banco.ledger.store.canonical import canonical_json

    conn = sqlite3.connect(db)
    drop_triggers(conn)
    last, at = conn.execute("SELECT seq, recorded_at FROM events WHERE game_id=? ORDER BY seq "
                            "DESC LIMIT 1", (game,)).fetchone()
    cols = "game_id, seq, type, data, recorded_at, actor, command_id, schema_version, " \
           "prev_hash, hash, chain_version"
    undo = canonical_json({"command": None, "line": "undo"})
    fact = canonical_json({"command_id": "x", "reason": "undo", "seqs": [retract]})
    for seq, type_, data in ((last + 1, "CommandRecorded", undo),
                             (last + 2, "EventRetracted", fact)):
        conn.execute(f"INSERT INTO events ({cols}) VALUES (?,?,?,?,?,'banker','forged',1,'',"
                     "'',2)", (game, seq, type_, data, at))
    head = rechain_stored(conn, game, last + 1)
    conn.execute("UPDATE games SET head=?, last_seq=? WHERE game_id=?", (head, last + 2, game))
    conn.commit()
    conn.close()
    return last
