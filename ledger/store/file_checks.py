"""The file beneath the chain: what SQLite itself says of it, bytes that are no text, the WAL.

The chain proves that the rows are the rows recorded; it cannot see a damaged page that no
row read crosses, nor stop a write from landing in one.  So:

- `refuse_damaged`: SQLite's quick_check, once per store and process, before the first write
  (inside its lock) and before an audit: a file that fails it is refused in one line, exit 4,
  naming what SQLite says.  Nothing is written into it: the damage would spread.
- `undecodable`: rows whose text columns hold bytes that are not UTF-8 (sqlite3 stops at the
  first with "Could not decode to UTF-8 column 'data'", naming no row): found by game and seq.
- `wal_findings`: a write-ahead log past WAL_LIMIT means checkpoints are not happening (a
  reader that never ends its transaction): the events in it live in that one file beside the
  database, and a copy of the database alone (or the WAL deleted) loses them.
"""

from __future__ import annotations

import os
import sqlite3
from typing import TYPE_CHECKING

from banco.ledger.base.errors import DatabaseError
from banco.ledger.base.text import msg

if TYPE_CHECKING:
    from banco.ledger.store.health import Finding

# SQLite checkpoints at 1000 pages (4 MB) by itself; 64 MB is a checkpoint starved for long.
WAL_LIMIT = 64 * 1024 * 1024
# A full quick_check before a write up to this size (about 45,000 events, 0.25 s at most).
FULL_CHECK_BYTES = 32 * 1024 * 1024
# quick_check lists at most this many problems: the first ones say enough.
_SHOWN = 3
_TEXT_COLUMNS = ("type", "data", "recorded_at", "actor", "command_id", "prev_hash", "hash")


def quick_check(conn: sqlite3.Connection, *, but_events: bool = False) -> str | None:
    """None if SQLite's quick_check finds the file sound, else what it says (its first lines).
    `but_events`: every table and index but the events table's, which is most of a big file."""
    try:
        if not but_events:
            said = [r[0] for r in conn.execute(f"PRAGMA quick_check({_SHOWN})")]
        else:
            said = []
            for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type='table' "
                                        "AND name != 'events'").fetchall():
                quoted = '"' + name.replace('"', '""') + '"'
                said += [r[0] for r in conn.execute(f"PRAGMA quick_check({quoted})")
                         if r[0] != "ok"]
            said = said or ["ok"]
    except sqlite3.DatabaseError as exc:  # a page so damaged the check itself cannot run
        return str(exc)
    if said == ["ok"]:
        return None
    # one line: SQLite heads its list with "*** in database main ***" on a line of its own
    lines = [line for s in said for line in str(s).splitlines()
             if line.strip() and not line.startswith("*** in database")]
    return "; ".join(lines[:_SHOWN])


def refuse_damaged(store, *, whole: bool = False) -> None:
    """DatabaseError (exit 4) if the store's file fails quick_check; checked once per store.
    A write at the table stays fast: quick_check costs about 8 ms a MB (0.8 s for a file of
    300,000 events), so a file past FULL_CHECK_BYTES has every table checked but the events
    table (10 ms), whose pages `audit` (`whole`) and `doctor` check."""
    if getattr(store, "quick_checked", False) or store.conn is None:
        return
    try:
        big = os.path.getsize(store.path) > FULL_CHECK_BYTES
    except OSError:
        big = False
    said = quick_check(store.conn, but_events=big and not whole)
    if said is not None:
        raise DatabaseError("{path} is damaged (SQLite's quick_check: {check}): nothing is "
                            "written into it; restore your last `banco backup`, or see `banco "
                            "doctor`", path=store.path, check=said)
    store.quick_checked = whole or not big


def undecodable(conn: sqlite3.Connection, game: int | None = None) -> list[tuple[int, int, str]]:
    """(game, seq, column) of each event whose text is not UTF-8, in order.  A full scan of
    the rows as bytes: run only when sqlite3 has met one (or by doctor)."""
    present = {r[1] for r in conn.execute("PRAGMA table_info(events)")}
    names = [c for c in (*_TEXT_COLUMNS, "table_digest") if c in present]  # format 3's too
    cols = ", ".join(f"CAST({c} AS BLOB)" for c in names)
    sql = f"SELECT game_id, seq, {cols} FROM events"
    args: tuple = ()
    if game is not None:
        sql, args = sql + " WHERE game_id=?", (game,)
    found = []
    for g, seq, *values in conn.execute(sql + " ORDER BY game_id, seq", args):
        for column, value in zip(names, values, strict=True):
            if value is None:
                continue
            try:
                bytes(value).decode("utf-8")
            except UnicodeDecodeError:
                found.append((g, seq, column))
                break
    return found


def undecodable_findings(conn: sqlite3.Connection) -> list[Finding]:
    # the doctor's (health.py's Finding) imported here: a write runs refuse_damaged alone
    from banco.ledger.store.health import Finding

    return [Finding("text", msg("game {game} event {seq}: its {column} is not UTF-8 text (bytes "
                                "were overwritten, or the row was edited outside banco)",
                                game=g, seq=seq, column=column), g, seq)
            for g, seq, column in undecodable(conn)]


def wal_findings(path: str) -> list[Finding]:
    from banco.ledger.store.health import Finding

    try:
        size = os.path.getsize(path + "-wal")
    except OSError:
        return []
    if size <= WAL_LIMIT:
        return []
    return [Finding("wal", msg(
        "the write-ahead log {wal} holds {mb} MB (more than {limit} MB): checkpoints are not "
        "happening, so recent events live only in that file; end the program that keeps the "
        "database open (a `banco serve` of an older banco), then run any banco command",
        wal=path + "-wal", mb=size // (1024 * 1024), limit=WAL_LIMIT // (1024 * 1024)))]


def file_findings(conn: sqlite3.Connection, path: str) -> list[Finding]:
    """What doctor adds about the file itself (quick_check it runs first, on its own)."""
    return undecodable_findings(conn) + wal_findings(path)
