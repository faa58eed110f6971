"""The SQLite store's checks (`SQLiteStore.checks()`, ledger/store/protocol.py StoreChecks): the
referee's and the organiser's look at the file beside what a command needs of it (audit, seal,
doctor, backup): the games its log holds, a game's hashes, the events a head line's digits
name, the file's health beside the chains (ledger/store/health.py, ledger/store/file_checks.py)
and its copy.  PostgreSQL's are ledger/store/postgres_health.py, and the behaviour suite holds
both to one answer."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from banco.ledger.store.connection import copy_file, guarded, missing_database
from banco.ledger.store.protocol import StoreHealth

if TYPE_CHECKING:
    from banco.ledger.store.sqlite import SQLiteStore


class SQLiteChecks:
    """The checks of one SQLite store, through its connection (asked for each time: a first
    write may open it, a reading reconnect to a file another process created)."""

    def __init__(self, store: SQLiteStore):
        self.store = store
        self.path = store.path

    @property
    def conn(self) -> sqlite3.Connection | None:
        return self.store.conn

    @property
    def format(self) -> int:
        return self.store.format

    def has_tables(self) -> bool:
        return self.store.has_tables()

    def explain(self, exc: sqlite3.Error, writing: bool):
        return self.store.explain(exc, writing)

    @guarded(writing=False)
    def logged_games(self) -> list[int]:
        if not self.has_tables():
            return []
        return [g for (g,) in self.conn.execute(
            "SELECT DISTINCT game_id FROM events ORDER BY game_id").fetchall()]

    @guarded(writing=False)
    def hashes(self, game_id: int, upto: int | None = None) -> list[tuple[int, str]]:
        if not self.has_tables():
            return []
        return self.conn.execute("SELECT seq, hash FROM events WHERE game_id=? AND seq<=? "
                                 "ORDER BY seq", (game_id, 2**62 if upto is None else upto)
                                 ).fetchall()

    @guarded(writing=False)
    def hash_prefix(self, prefix: str) -> list[tuple[int, int]]:
        if not self.has_tables():
            return []
        return self.conn.execute("SELECT game_id, seq FROM events WHERE substr(hash, 1, ?) = ? "
                                 "ORDER BY game_id, seq", (len(prefix), prefix)).fetchall()

    @guarded(writing=False)
    def health(self, *, tournaments: bool = True, file: bool = False) -> StoreHealth:
        from banco.ledger.store import health as h
        from banco.ledger.store.games_health import games_findings

        conn = self.conn
        if conn is None:
            return StoreHealth([], [], [], [], [])
        # one read transaction: one snapshot of the log and the games table (with WAL), so a
        # command committed between two of the reads is not a games row ahead of its log
        began = not conn.in_transaction
        if began:
            conn.execute("BEGIN")
        try:
            findings = (h.structure_findings(conn) + games_findings(conn)
                        + h.token_findings(conn)  # the phones' tokens: a table of the file
                        + h.maintenance_findings(conn))  # doctor's and audit's alike
            if tournaments:
                findings += h.tournament_findings(conn)
            if file:
                from banco.ledger.store.file_checks import file_findings

                findings += file_findings(conn, self.path)
            state = StoreHealth(findings, h.maintenance(conn), h.missing_triggers(conn),
                                h.missing_indexes(conn), h.token_not_checked(conn),
                                (len(h.TRIGGERS), len(h.INDEXES)))
        finally:
            if began and conn.in_transaction:
                conn.execute("COMMIT")
        return state

    @guarded(writing=False)
    def games_row_findings(self) -> list:
        """What doctor finds of the games table against the logs (Finding each), for `banco
        games`: its quick look first, the exact check only when that sees something."""
        from banco.ledger.store.games_health import games_findings, games_rows_differ

        conn = self.conn
        if conn is None or self.format < 2 or not self.has_tables():
            return []
        began = not conn.in_transaction
        if began:
            conn.execute("BEGIN")  # one snapshot of the log and the games table, as health's
        try:
            if not games_rows_differ(conn):
                return []
            return [f for f in games_findings(conn) if f.kind == "games"]
        finally:
            if began and conn.in_transaction:
                conn.execute("COMMIT")

    @guarded(writing=False)
    def missing_guards(self) -> list[str]:
        # health.missing_triggers narrowed to the log's guards, without importing health.py:
        # every write asks this once, and that import (the tokens', tournaments' and
        # maintenance's tables with it) was ~10 ms of a cold write
        from banco.ledger.store.schema import EVENT_GUARDS

        if self.conn is None:
            return []
        names = {r[0] for r in self.conn.execute(
            "SELECT name FROM sqlite_master WHERE type='trigger' OR (type='table' AND "
            "name='events')")}
        if "events" not in names:
            return []
        return [name for name in EVENT_GUARDS if name not in names]

    @guarded(writing=False)
    def engine_check(self) -> str | None:
        from banco.ledger.store.file_checks import quick_check

        return quick_check(self.conn) if self.conn is not None else None

    def refuse_damaged(self, whole: bool = False) -> None:
        from banco.ledger.store.file_checks import refuse_damaged

        refuse_damaged(self.store, whole=whole)  # once per store: the write's check too

    def worker_path(self) -> str | None:
        if self.conn is None or self.format < 1 or not self.path:
            return None
        return os.path.abspath(self.path)

    def repair(self, *, now: Callable[[], str], why: str,
               snapshots: Iterable[tuple[int, int, str]] = ()) -> list:
        """doctor --repair: the missing guards and indexes recreated, the games table's rows
        rebuilt from their logs, then the `snapshots` (game, seq, problem) that are not their
        log's table deleted, each write recorded in the maintenance history at `now()`; what
        was done (ledger/store/health.py repair, forget_snapshots); None for a file with no
        banco tables yet (a repair never creates them)."""
        from banco.ledger.store import health

        if self.conn is None or self.format < 1:
            return None
        done = self.store.write(lambda conn: health.repair(conn, now=now(), why=why))
        bad = list(snapshots)
        if bad:
            done += self.store.write(lambda conn: health.forget_snapshots(
                conn, bad, now=now(), why=why))
        return done

    @guarded(writing=False)
    def backup(self, target: str) -> None:
        """A consistent copy of the whole file into `target` (which must not exist yet), with
        SQLite's online backup: what is still in the WAL is included, and writers may go on."""
        if not self.has_tables():
            raise missing_database(self.path)
        copy_file(self.conn, target)
