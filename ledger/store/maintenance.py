"""The maintenance history of a SQLite file: what `doctor --repair` did, when and why.

Append-only (triggers refuse UPDATE and DELETE), numbered 1, 2, 3 ... in the order written,
each entry at or after the one before it, and chained: each entry's `hash` covers the entry
before it and its own fields, so an entry's text or date changed, or one slipped in by hand,
is named (`banco audit`, `banco doctor`).  What the chain cannot show, as for any history kept in the file alone: entries
rewritten and re-chained to its end, or the last ones cut (README, "Integrity").

A table written before the chain (no `prev`, `hash`) gains the columns at the next entry
written; its entries keep no hash of their own, but the first chained entry's `prev` is the
hash they chain to, so an edit of one of them after that is named too.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3

from banco.ledger.base.text import Text, msg

MAINTENANCE = "maintenance"
GENESIS = "0" * 64
MAINTENANCE_DDL = (
    f"CREATE TABLE IF NOT EXISTS {MAINTENANCE} (id INTEGER PRIMARY KEY, at TEXT NOT NULL, "
    "what TEXT NOT NULL, why TEXT NOT NULL, prev TEXT, hash TEXT)",
    f"CREATE TRIGGER IF NOT EXISTS {MAINTENANCE}_no_update BEFORE UPDATE ON {MAINTENANCE} "
    "BEGIN SELECT RAISE(ABORT, 'the maintenance history is append-only: UPDATE refused'); END",
    f"CREATE TRIGGER IF NOT EXISTS {MAINTENANCE}_no_delete BEFORE DELETE ON {MAINTENANCE} "
    "BEGIN SELECT RAISE(ABORT, 'the maintenance history is append-only: DELETE refused'); END",
)


def entry_hash(prev: str, id_: int, at: str, what: str, why: str) -> str:
    """The hash an entry records: of the entry before it and every field of its own."""
    body = json.dumps([prev, id_, at, what, why], ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(b"banco-maintenance\n" + body.encode("utf-8")).hexdigest()


def _exists(conn: sqlite3.Connection) -> bool:
    return conn.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?",
                        (MAINTENANCE,)).fetchone() is not None


def _chained(conn: sqlite3.Connection) -> bool:
    return "hash" in {r[1] for r in conn.execute(f"PRAGMA table_info({MAINTENANCE})")}


def rows(conn: sqlite3.Connection) -> list[tuple]:
    """(id, at, what, why, prev, hash) of every entry, in order (prev, hash None before the
    chain)."""
    if not _exists(conn):
        return []
    extra = "prev, hash" if _chained(conn) else "NULL, NULL"
    return conn.execute(f"SELECT id, at, what, why, {extra} FROM {MAINTENANCE} "
                        "ORDER BY id").fetchall()


def maintenance(conn: sqlite3.Connection) -> list[dict]:
    """The history as the documents show it: {id, at, what, why}, in order."""
    return [{"id": i, "at": at, "what": what, "why": why} for i, at, what, why, _, _ in rows(conn)]


def record(conn: sqlite3.Connection, done: list, *, now: str, why: str) -> None:
    """Inside a write transaction: each thing done (its English) kept as an entry, chained."""
    if not done:
        return
    for sql in MAINTENANCE_DDL:
        conn.execute(sql)
    if not _chained(conn):  # an older banco's table: chained from here on
        conn.execute(f"ALTER TABLE {MAINTENANCE} ADD COLUMN prev TEXT")
        conn.execute(f"ALTER TABLE {MAINTENANCE} ADD COLUMN hash TEXT")
    entries = rows(conn)
    prev = _walk(entries)[1]
    id_ = entries[-1][0] + 1 if entries else 1
    for what in done:
        text = str(what)
        hash_ = entry_hash(prev, id_, now, text, why)
        conn.execute(f"INSERT INTO {MAINTENANCE} (id, at, what, why, prev, hash) "
                     "VALUES (?, ?, ?, ?, ?, ?)", (id_, now, text, why, prev, hash_))
        id_, prev = id_ + 1, hash_


def _walk(entries: list[tuple]) -> tuple[list[Text], str]:
    """The entries walked in order: (what they show changed, the hash the next one chains
    to)."""
    out: list[Text] = []
    expected, before, prev, chained = 1, "", GENESIS, False
    for id_, at, what, why, link, hash_ in entries:
        if id_ != expected:
            out.append(msg("maintenance entry {id} is missing (the next one is entry {next}): "
                           "it was deleted", id=expected, next=id_))
        elif at < before:
            out.append(msg("maintenance entry {id} is dated {at}, before the entry ahead of it: "
                           "it was written by hand", id=id_, at=at))
        own = entry_hash(prev, id_, at, what, why)
        if hash_ is None:
            if chained:  # an older banco's entry after a chained one: none such is written
                out.append(msg("maintenance entry {id} carries no hash, though the entries "
                               "before it do: it was written by hand", id=id_))
        elif link != prev and id_ == expected:
            out.append(msg("maintenance entry {id} does not follow the entry before it (its "
                           "prev is not that entry's hash): an entry before it was changed, or "
                           "it was written by hand", id=id_))
        elif entry_hash(link, id_, at, what, why) != hash_:
            out.append(msg("maintenance entry {id} is not what its hash binds: its date or "
                           "its text was changed after banco wrote it", id=id_))
        chained = chained or hash_ is not None
        expected, before = id_ + 1, max(before, at)
        prev = hash_ if hash_ is not None else own
    return out, prev


def problems(conn: sqlite3.Connection) -> list[Text]:
    """What the maintenance history shows changed: an entry deleted, edited, dated back, or
    written by hand (no hash where banco writes one: a table with the chain's columns got
    them from this banco with a chained entry, and no older banco's entry follows one)."""
    entries = rows(conn)
    found = _walk(entries)[0]
    if entries and _chained(conn) and all(e[5] is None for e in entries):
        found.append(msg("maintenance entry {id} carries no hash, though the history is "
                         "chained: it was written by hand", id=entries[-1][0]))
    return found
