"""Opening a SQLite file and saying what went wrong with it: the lock wait, the mode of the
connection, the WAL journal, and every sqlite3 error as one sentence about the file (a
DatabaseError), so that no store method lets a sqlite3 traceback reach the banker."""

from __future__ import annotations

import functools
import os
import sqlite3
import time

from banco.ledger.base.errors import DatabaseError, NoDatabase
from banco.ledger.base.text import either, msg

DEFAULT_WAIT = 5.0  # seconds a command waits for another writer's lock (env BANCO_LOCK_WAIT)


def lock_wait() -> float:
    try:
        return float(os.environ.get("BANCO_LOCK_WAIT", DEFAULT_WAIT))
    except ValueError:
        return DEFAULT_WAIT


def missing_database(path: str) -> NoDatabase:
    """No file at `path`: say so, and name the databases nearby (a misspelt --db)."""
    import difflib

    folder = os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        return NoDatabase("no database at {path}: the folder {folder} does not exist",
                          path=path, folder=folder)
    try:
        nearby = sorted(n for n in os.listdir(folder) if n.endswith(".db"))
    except OSError:
        nearby = []
    shown = [os.path.join(os.path.dirname(path), n) for n in nearby]
    close = difflib.get_close_matches(os.path.basename(path), nearby, n=3, cutoff=0.6)
    if close:
        close = [os.path.join(os.path.dirname(path), n) for n in close]
        exc = NoDatabase("no database at {path} (no such file); did you mean {names}?\n"
                         "  `banco new PLAYER PLAYER ...` starts a game in a new file",
                         path=path, names=either(close))
    elif shown:
        names = ", ".join(shown[:8]) + (" ..." if len(shown) > 8 else "")
        exc = NoDatabase("no database at {path} (no such file); databases there: {names}\n"
                         "  `banco new PLAYER PLAYER ...` starts a game in a new file",
                         path=path, names=names)
    else:
        exc = NoDatabase("no database at {path} (no such file)\n"
                         "  `banco new PLAYER PLAYER ...` starts a game in a new file", path=path)
    exc.nearby = close or shown[:8]
    return exc


def writable(path: str) -> bool:
    # root may write anything: a file whose owner took away every write bit is read-only to
    # banco all the same (an archived game).
    import stat

    return os.access(path, os.W_OK) and bool(os.stat(path).st_mode & (stat.S_IWUSR |
                                                                     stat.S_IWGRP | stat.S_IWOTH))


def connect(path: str, mode: str, wait: float) -> sqlite3.Connection:
    """A connection in autocommit (the store says BEGIN itself) with `mode` ro, rw or rwc."""
    # A URI for its mode= (never create a file by reading); %, ? and # escaped by hand, as
    # importing urllib.parse for three characters costs a read command 2 ms.
    path = os.path.abspath(path)
    path = path.replace("%", "%25").replace("?", "%3f").replace("#", "%23")
    conn = sqlite3.connect(f"file:{path}?mode={mode}", uri=True, timeout=wait,
                           isolation_level=None)
    if mode != "ro":
        conn.execute("PRAGMA synchronous=FULL")
    return conn


def use_wal(conn: sqlite3.Connection, wait: float) -> None:
    """WAL journal, set once per file.  Switching needs a moment alone with the file, and
    SQLite answers `database is locked` at once (no busy wait) when several processes open a
    new file together: retry within the same wait as any lock."""
    deadline = time.monotonic() + wait
    while True:
        try:
            if conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal":
                return
            conn.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            import random

            time.sleep(random.uniform(0.005, 0.05))


def rollback(conn: sqlite3.Connection) -> None:
    if conn.in_transaction:
        try:
            conn.execute("ROLLBACK")
        except sqlite3.Error:
            pass  # the transaction is gone with the error that is already on its way up


class NotText(DatabaseError):
    """A row whose bytes are not UTF-8 (sqlite3 names no row): the audit then reads the rows as
    bytes to name the game and seq (projections/audit/database_audit.py)."""


def explain(exc: sqlite3.Error, path: str, wait: float, writing: bool) -> DatabaseError:
    """A sqlite3 error as one sentence about the file at `path`."""
    # SQLite's own words ({cause}) stay as SQLite says them
    name = getattr(exc, "sqlite_errorname", "") or ""
    p, cause = path, str(exc)
    unrecorded = msg("; nothing was recorded") if writing else ""
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "locked" in cause:
        if writing:
            return DatabaseError("the database {path} is locked by another writer (another "
                                 "banco, or a tool such as sqlite3); waited {wait} s; nothing "
                                 "was recorded, retry",
                                 path=p, wait=format(wait, "g"))
        return DatabaseError("the database {path} is locked by another program; waited "
                             "{wait} s; retry", path=p, wait=format(wait, "g"))
    if name.startswith("SQLITE_READONLY"):
        return DatabaseError("{path} is read-only: banco can show it but not record in it"
                             "{unrecorded} (`banco backup` makes a copy you can play on)",
                             path=p, unrecorded=unrecorded)
    if name == "SQLITE_NOTADB":
        return DatabaseError("{path} is not a SQLite database: is --db the right file?",
                             path=p)
    if name.startswith("SQLITE_CORRUPT") or "malformed" in cause:
        return DatabaseError("{path} is damaged ({cause}){unrecorded}: restore your last "
                             "`banco backup`, or try `sqlite3 {path} .recover`",
                             path=p, cause=cause, unrecorded=unrecorded)
    if "Could not decode to UTF-8" in cause:
        # a row holding bytes that are not text: written past banco (which writes UTF-8 only)
        return NotText(msg("{path} holds a row that is not UTF-8 text, written past banco: "
                           "`banco audit` and `banco doctor` name the game and event"
                           "{unrecorded}", path=p, unrecorded=unrecorded))
    if name.startswith("SQLITE_CANTOPEN"):
        return DatabaseError("cannot open {path} ({cause}): check the path and its "
                             "permissions", path=p, cause=cause)
    if name.startswith(("SQLITE_IOERR", "SQLITE_FULL")):
        return DatabaseError("cannot use {path}: {cause} (is the disk full or failing?)"
                             "{unrecorded}", path=p, cause=cause, unrecorded=unrecorded)
    return DatabaseError("cannot use the database {path}: {cause}{unrecorded}",
                         path=p, cause=cause, unrecorded=unrecorded)


def guarded(writing: bool):
    """Turn any sqlite3 error of a store method into a DatabaseError naming file and cause
    (through the store's `explain`)."""

    def wrap(method):
        @functools.wraps(method)
        def guard(self, *args, **kwargs):
            try:
                return method(self, *args, **kwargs)
            except sqlite3.Error as exc:
                raise self.explain(exc, writing) from None

        return guard

    return wrap


def copy_file(conn: sqlite3.Connection, target: str) -> None:
    """A consistent copy of the connection's file into `target`, with SQLite's online backup:
    what is still in the WAL is included, and writers may go on (`banco backup`)."""
    dest = sqlite3.connect(target, isolation_level=None)
    try:
        conn.backup(dest)
    finally:
        dest.close()
