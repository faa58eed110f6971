"""Databases in format 1, as banco wrote them before format 2, for the migration tests.

The schema is copied from tests/data/format1.db (written by banco at commit 3ce052c), so it is
the old code's, not a guess; rows are hashed the old way (chain version 1: with game_id).
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

from banco.ledger.store.canonical import GENESIS, canonical_json, row_hash

DATA = Path(__file__).parent / "data"
OLD_DB = DATA / "format1.db"
AT = "2026-11-29T21:00:00.000000Z"


def format1_schema() -> list[str]:
    conn = sqlite3.connect(f"file:{OLD_DB}?mode=ro", uri=True)
    try:
        return [sql for (sql,) in conn.execute(
            "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid")]
    finally:
        conn.close()


def write_format1(path: str, games: dict[int, list[dict]]) -> None:
    """A format-1 database holding `games` ({game_id: [{"type", "data"}, ...]}), one command
    per event."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    for sql in format1_schema():
        conn.execute(sql)
    conn.execute("BEGIN")
    for game_id, events in games.items():
        prev = GENESIS
        for seq, e in enumerate(events, start=1):
            row = {"game_id": game_id, "seq": seq, "type": e["type"], "data": e["data"],
                   "recorded_at": AT, "actor": "banker", "command_id": f"old-{game_id}-{seq}",
                   "schema_version": 1}
            h = row_hash(prev, row)  # no chain_version: version 1, game_id hashed
            conn.execute("INSERT INTO events VALUES (?,?,?,?,?,?,?,?,?,?)",
                         (game_id, seq, e["type"], canonical_json(e["data"]), AT, "banker",
                          row["command_id"], 1, prev, h))
            prev = h
    conn.execute("COMMIT")
    conn.close()


SEQ_FIELDS = ("opened_seq", "lapsed_seq", "debt_seq")


def as_format1_log(events: list[dict]) -> list[dict]:
    """A format-2 log as banco wrote it before commands were recorded: CommandRecorded rows
    left out, seqs (and the seqs facts point at, and the event numbers in a refusal's text)
    renumbered, no game uuid.  For the committed fixtures this gives back, fact for fact, the
    logs committed at 3ce052c."""
    kept = [e for e in events if e["type"] != "CommandRecorded"]
    renumber = {e["seq"]: i for i, e in enumerate(kept, start=1)}
    out = []
    for e in kept:
        data = {k: v for k, v in e["data"].items() if k != "game_uuid"}
        for k in SEQ_FIELDS:
            if k in data:
                data[k] = renumber[data[k]]
        if "seqs" in data:
            data["seqs"] = [renumber[s] for s in data["seqs"]]
        if e["type"] == "RentClaimRefused":
            data["reason"] = re.sub(r"event (\d+)", lambda m: f"event {renumber[int(m[1])]}",
                                    data["reason"])
        out.append({"seq": renumber[e["seq"]], "type": e["type"], "data": data})
    return out
