"""The tournaments' own log in the game database: its table, the triggers that keep it
append-only, and the hash that chains its facts.  The store's like every other table (so that
the file's health, ledger/store/health.py, checks it without knowing tournaments);
ledger/tournaments.py holds what the facts mean."""

from __future__ import annotations

import hashlib

from banco.ledger.store.canonical import canonical_json

TABLE = "tournament_facts"
CREATE = (  # the table and its triggers (ledger/store/health.py checks them)
    f"CREATE TABLE IF NOT EXISTS {TABLE} (tournament TEXT NOT NULL, seq INTEGER NOT NULL, "
    "type TEXT NOT NULL, data TEXT NOT NULL, recorded_at TEXT NOT NULL, actor TEXT, "
    "prev_hash TEXT NOT NULL, hash TEXT NOT NULL, PRIMARY KEY (tournament, seq))",
    f"CREATE TRIGGER IF NOT EXISTS {TABLE}_no_update BEFORE UPDATE ON {TABLE} "
    "BEGIN SELECT RAISE(ABORT, 'tournament facts are append-only: UPDATE refused'); END",
    f"CREATE TRIGGER IF NOT EXISTS {TABLE}_no_delete BEFORE DELETE ON {TABLE} "
    "BEGIN SELECT RAISE(ABORT, 'tournament facts are append-only: DELETE refused'); END",
)


def fact_hash(prev: str, row: dict) -> str:
    body = {k: row[k] for k in ("tournament", "seq", "type", "data", "recorded_at", "actor")}
    return hashlib.sha256((prev + canonical_json(body)).encode("utf-8")).hexdigest()
