"""The append-only event store on SQLite (the EventStore of ledger/store/protocol.py).
Persistence only: it knows rows and the games they belong to, not Monopoly.

The file's shape and formats: ledger/store/schema.py; opening it and its errors:
ledger/store/connection.py; the import's bulk path and the streamed reads: ledger/store/bulk.py.
Reads and appends use the sqlite3 connection directly so that a banker's command does not pay
for importing sqlite-utils (DESIGN.md budgets).  Appends run in BEGIN IMMEDIATE, not
sqlite-utils' deferred `atomic()`, which fails under two writers; the last seq, the
idempotency key and the format are checked inside the write lock.  Every sqlite3 error leaves
here as a DatabaseError that says what is wrong with which file.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Iterable

from banco.ledger.base.errors import ConflictError, DatabaseError
from banco.ledger.store.bulk import GameImport, GameRows, RawRows
from banco.ledger.store.canonical import GENESIS, not_before
from banco.ledger.store.chain import chain_rows, insert_values, verify_chain
from banco.ledger.store.connection import (
    connect,
    explain,
    guarded,
    lock_wait,
    missing_database,
    rollback,
    use_wal,
    writable,
)
from banco.ledger.store.games import GameIndex
from banco.ledger.store.protocol import Appended, ChainProblem, NewEvent, ReadRows, Rows, Snapshot
from banco.ledger.store.read_model import ReadModelStore
from banco.ledger.store.read_model import append as keep_read_model
from banco.ledger.store.reading import rows_of, select
from banco.ledger.store.schema import (
    COLUMNS,
    COLUMNS_FORMAT1,
    COLUMNS_FORMAT2,
    ENDED,
    FORMAT,
    FORMAT1_COLUMNS,
    INSERT,
    RETRACTED,
    STARTED,
    TRIGGERS,
    event_dict,
    index_game,
    put_snapshot,
    upgrade,
)
from banco.ledger.store.schema import (
    create as create_tables,
)
from banco.ledger.store.sqlite_checks import SQLiteChecks

# Names other modules have always taken from here (the store's records and its file's shape).
__all__ = ["FORMAT", "STARTED", "ENDED", "RETRACTED", "COLUMNS", "INSERT", "TRIGGERS",
           "Appended", "ChainProblem", "NewEvent", "Snapshot", "GameImport", "GameRows",
           "RawRows", "SQLiteStore", "event_dict", "lock_wait", "missing_database",
           "verify_chain"]


class SQLiteStore(GameIndex, ReadModelStore):
    """One database file.  `create`: the file may be created, by the first append and not
    before (so that reading, or a refused first command, leaves no file behind); with
    create=False (the CLI, for every command but `new`) a missing file is a NoDatabase error.
    `wait`: seconds to wait for another writer's lock (default 5, env BANCO_LOCK_WAIT)."""

    def __init__(self, path: str, *, create: bool = True, wait: float | None = None):
        self.path = path
        self.wait = lock_wait() if wait is None else wait
        self.conn: sqlite3.Connection | None = None
        self.readonly = False
        self.format = 0
        self.meta: dict[str, str] = {}
        self._schema_cookie = None
        self._wal: sqlite3.Connection | None = None  # the connection WAL was made sure of on
        if os.path.isdir(path):
            raise DatabaseError("{path} is a folder, not a database file: name a file in it, "
                                "e.g. --db {example}", path=path,
                                example=os.path.join(path, "banco.db"))
        if os.path.exists(path) and not os.path.isfile(path):
            # /dev/null, a pipe: SQLite would fail later with "disk I/O error"
            raise DatabaseError("{path} is a device, not a database file: name a file, e.g. "
                                "--db banco.db", path=path)
        if not os.path.exists(path):
            if not create:
                raise missing_database(path)
            folder = os.path.dirname(os.path.abspath(path))
            if not os.path.isdir(folder):
                raise DatabaseError("cannot create {path}: the folder {folder} does not exist",
                                    path=path, folder=folder)
            return  # connected by the first append
        self.readonly = not writable(path)
        self._connect(create=False)
        self.inspect()

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    @property
    def shown(self) -> str:
        """The file as the user is told of it: its path."""
        return self.path

    def checks(self) -> SQLiteChecks:
        """The referee's and the organiser's look at the file (ledger/store/sqlite_checks.py)."""
        return SQLiteChecks(self)

    # --- opening ------------------------------------------------------------------------------

    @guarded(writing=False)
    def _connect(self, create: bool) -> None:
        mode = "ro" if self.readonly else ("rwc" if create else "rw")
        self.conn = connect(self.path, mode, self.wait)

    @guarded(writing=False)
    def inspect(self) -> int:
        """Which format the file is in; refuses a file that is not banco's."""
        conn = self.conn
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        self._schema_cookie = conn.execute("PRAGMA schema_version").fetchone()[0]
        if "meta" in tables:
            self.meta = dict(conn.execute("SELECT key, value FROM meta"))
            if self.meta.get("application") != "banco" or not self.meta.get("format", "").isdecimal():
                raise DatabaseError("{path} has a `meta` table that is not banco's: banco "
                                    "leaves this database alone; use another --db",
                                    path=self.path)
            self.format = int(self.meta["format"])
        elif "events" in tables:
            columns = [r[1] for r in conn.execute("PRAGMA table_info(events)")]
            if columns != FORMAT1_COLUMNS:
                raise DatabaseError(
                    "{path} has an `events` table that is not banco's (its columns: "
                    "{columns}): banco leaves it alone; use another --db",
                    path=self.path, columns=", ".join(columns))
            self.format = 1
        elif tables:
            raise DatabaseError("{path} is a SQLite database but not banco's (its tables: "
                                "{tables}): banco leaves it alone; use another --db",
                                path=self.path, tables=", ".join(sorted(tables)))
        else:
            self.format = 0
        return self.format

    def has_tables(self) -> bool:
        """Whether there are banco tables to read.  A store opened on a missing or empty file,
        or on a format-1 file, notices another process creating or migrating it meanwhile
        (a format-1 view would not read the chain version of new rows)."""
        if self.conn is None:
            if not os.path.exists(self.path):
                return False
            self.readonly = not writable(self.path)
            self._connect(create=False)
            self.inspect()
        elif self.format < FORMAT:
            if self.conn.execute("PRAGMA schema_version").fetchone()[0] != self._schema_cookie:
                self.inspect()
        return self.format > 0

    @property
    def columns(self) -> str:
        """The columns to SELECT from `events`, in COLUMNS order, for the file's format."""
        return (COLUMNS if self.format >= 3 else COLUMNS_FORMAT2 if self.format == 2
                else COLUMNS_FORMAT1)

    def explain(self, exc: sqlite3.Error, writing: bool) -> DatabaseError:
        """A sqlite3 error as one sentence about this file."""
        return explain(exc, self.path, self.wait, writing)

    # --- reading ------------------------------------------------------------------------------

    @guarded(writing=False)
    def read(self, game_id: int, after: int = 0, upto: int | None = None, *,
             types: Iterable[str] | None = None, limit: int | None = None,
             prev_hash: str | None = None, columns: Iterable[str] | None = None) -> Rows:
        """A game's rows after seq `after` (up to `upto`, of `types`, at most `limit`) in seq
        order, as they are, or checked against the chain from `prev_hash` as they are read
        (ledger/store/reading.py), or some `columns` of them.  By the primary key, or by the
        type index for `types`: an undo's few rows in a long game are found without reading
        the rest."""
        if not self.has_tables():
            return Rows()
        sql, args = select(self.columns, "events", "?", "IN ({marks})", game_id, after, upto,
                           types, limit, prev_hash is not None, columns)
        raw = self.conn.execute(sql, args).fetchall()
        if columns is not None:
            return Rows(raw)
        return rows_of(raw, game_id, self.beside(game_id)["chain_game_id"], after, prev_hash)

    @guarded(writing=False)
    def commands_before(self, game_id: int, seq: int) -> int:
        """How many commands were recorded before event `seq`, the first event of a command
        (or one past the last): a step's number, for a replay of a long game that starts in
        its middle.  A command's rows are contiguous and share its id, so that is the game's
        commands less those from `seq` on (an index of ids, and the tail's rows)."""
        if not self.has_tables():
            return 0
        total, tail = (self.conn.execute(
            f"SELECT COUNT(DISTINCT command_id) FROM events WHERE game_id=?{more}",
            args).fetchone()[0] for more, args in (("", (game_id,)),
                                                   (" AND seq>=?", (game_id, seq))))
        return total - tail

    @guarded(writing=False)
    def iter_raw(self, game_id: int) -> Iterable[tuple]:
        if not self.has_tables():
            return iter(())
        return self.conn.execute(f"SELECT {self.columns} FROM events WHERE game_id=? ORDER BY seq",
                                 (game_id,))

    @guarded(writing=False)
    def data_version(self) -> int | None:
        return self.conn.execute("PRAGMA data_version").fetchone()[0]

    @guarded(writing=False)
    def snapshots(self, game_id: int) -> list[Snapshot]:
        """The game's snapshots, newest first ([] when there are none, or no table yet)."""
        try:
            rows = self.read_table("SELECT seq, head, format, state, digest FROM snapshots "
                                   "WHERE game_id=? ORDER BY seq DESC", (game_id,))
        except sqlite3.OperationalError:  # a table from before digests: none is trusted
            rows = self.read_table("SELECT seq, head, format, state, NULL FROM snapshots "
                                   "WHERE game_id=? ORDER BY seq DESC", (game_id,))
        return [Snapshot(*r) for r in rows]

    @guarded(writing=False)
    def last_seq(self, game_id: int) -> int:
        if not self.has_tables():
            return 0
        row = self.conn.execute("SELECT MAX(seq) FROM events WHERE game_id=?",
                                (game_id,)).fetchone()
        return row[0] or 0

    @guarded(writing=False)
    def head(self, game_id: int) -> str:
        if not self.has_tables():
            return GENESIS
        row = self.conn.execute("SELECT hash FROM events WHERE game_id=? ORDER BY seq DESC LIMIT 1",
                                (game_id,)).fetchone()
        return row[0] if row else GENESIS

    @guarded(writing=False)
    def command_events(self, game_id: int, command_id: str) -> list[dict]:
        """The rows a command recorded in a game (by index), or [].  `ORDER BY +seq`: sorted
        after the lookup, so that SQLite takes the (game_id, command_id) index and does not
        walk the whole game in seq order to skip the sort (120 ms on a 300,000-event game)."""
        if not self.has_tables():
            return []
        rows = self.conn.execute(
            f"SELECT {self.columns} FROM events WHERE game_id=? AND command_id=? ORDER BY +seq",
            (game_id, command_id)).fetchall()
        return [event_dict(r) for r in rows]

    # --- writing ------------------------------------------------------------------------------

    def _begin_write(self) -> None:
        """BEGIN IMMEDIATE, then (inside the lock) check the format, creating or migrating."""
        if self.readonly:
            raise DatabaseError("{path} is read-only: banco can show it but not record in "
                                "it; nothing was recorded (`banco backup` makes a copy you can "
                                "play on)", path=self.path)
        if self.conn is None:
            self._connect(create=True)
        if self._wal is not self.conn:  # once a connection: the journal mode stays with the file
            use_wal(self.conn, self.wait)
            self._wal = self.conn
        conn = self.conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            found = self.inspect()
            if found > FORMAT:
                raise DatabaseError(
                    "{path} is format {found}, written by a newer banco; this banco "
                    "writes format {format} and will not record in it (reading works): "
                    "upgrade banco", path=self.path, found=found, format=FORMAT)
            if found == 0:
                self._create()
            elif found < FORMAT:
                upgrade(self.conn, found)
                self.inspect()
            from banco.ledger.store.file_checks import refuse_damaged

            refuse_damaged(self)  # never a write into a damaged file (once per process)
        except BaseException:
            rollback(conn)
            self.after_rollback()
            raise

    def _create(self) -> None:
        create_tables(self.conn)
        self.inspect()

    @guarded(writing=True)
    def append(self, game_id: int | None, expected_seq: int, events: list[NewEvent], *,
               recorded_at: str, actor: str, command_id: str,
               snapshot: Callable[[list[dict]], tuple[str, str, str] | None] | None = None,
               read_model: Callable[[list[dict]], ReadRows] | None = None) -> Appended:
        """Append one command's events atomically, or none.

        `game_id` None starts a new game: its number is the next free one, taken inside the
        write lock (several processes can start games at once).  A `command_id` already
        recorded (in this game; for a new game, as the start of any game) returns the rows it
        recorded then, marked `replayed`, and writes nothing.  If the game's last seq is not
        `expected_seq`, someone else wrote first: ConflictError, nothing written.
        `snapshot(rows)`: (format, text, table digest) of the table after them, or None; kept
        in the same transaction, at the last row's seq and hash, the digest under that hash
        (ledger/store/chain.py chain_rows); `read_model(rows written)`: the
        read model's rows for them (ledger/store/read_model.py), kept in it too.
        """
        self._begin_write()
        conn = self.conn
        try:
            if game_id is None:
                done_in = conn.execute("SELECT game_id FROM games WHERE command_id=?",
                                       (command_id,)).fetchone()
                if done_in:
                    return self._replay(done_in[0], command_id)
                game_id = (conn.execute("SELECT MAX(game_id) FROM games").fetchone()[0] or 0) + 1
            else:
                done = conn.execute("SELECT 1 FROM events WHERE game_id=? AND command_id=? "
                                    "LIMIT 1", (game_id, command_id)).fetchone()
                if done:
                    return self._replay(game_id, command_id)
            last = conn.execute(
                "SELECT seq, hash, recorded_at FROM events WHERE game_id=? ORDER BY seq DESC "
                "LIMIT 1", (game_id,)).fetchone()
            last_seq, prev, last_at = (last if last else (0, GENESIS, None))
            if last_seq != expected_seq:
                raise ConflictError(
                    "game {game} changed while this command was being decided (now at event "
                    "{last_seq}, expected {expected_seq}); nothing was recorded: look at the "
                    "table again and retry", game=game_id, last_seq=last_seq,
                    expected_seq=expected_seq)
            recorded_at = not_before(recorded_at, last_at)  # a clock set back: times go on
            written, kept = chain_rows(game_id, last_seq, prev, events, recorded_at=recorded_at,
                                       actor=actor, command_id=command_id, snapshot=snapshot)
            conn.executemany(INSERT, [insert_values(r) for r in written])
            index_game(conn, game_id, last_seq, written, command_id)
            if kept is not None:
                put_snapshot(conn, game_id, written[-1]["seq"], written[-1]["hash"], *kept,
                             made_at=recorded_at)
            if read_model is not None:
                keep_read_model(conn, game_id, last_seq, read_model(written), written[-1]["seq"])
            conn.execute("COMMIT")
            return Appended(written, game_id)
        except BaseException:
            rollback(conn)
            self.after_rollback()
            raise

    def after_rollback(self) -> None:
        """A rolled-back first write also took back the tables it created (or the migration):
        look at the file again."""
        try:
            self.inspect()
        except (sqlite3.Error, DatabaseError):
            pass

    def _replay(self, game_id: int, command_id: str) -> Appended:
        rows = self.conn.execute(
            f"SELECT {COLUMNS} FROM events WHERE game_id=? AND command_id=? ORDER BY +seq",
            (game_id, command_id)).fetchall()
        self.conn.execute("COMMIT")  # nothing new; a migration made on the way is kept
        return Appended([event_dict(r) for r in rows], game_id, replayed=True)

    def raw_rows(self, game_id: int) -> RawRows:
        """A game's rows as stored, for the audit: streamed in seq order, in bounded memory."""
        self.has_tables()
        return RawRows(self, game_id)

    def begin_import(self) -> GameImport:
        """Start writing a whole game in one transaction: GameImport.insert in batches, then
        finish (commit) or abort (nothing written).  The write lock is held throughout."""
        self._begin_write()
        try:
            game_id = (self.conn.execute("SELECT MAX(game_id) FROM games").fetchone()[0] or 0) + 1
        except BaseException:
            rollback(self.conn)
            self.after_rollback()
            raise
        return GameImport(self, game_id)

    # --- tables beside the games' -------------------------------------------------------------

    def write(self, work):
        """Run `work(conn)` in one write transaction (BEGIN IMMEDIATE, the format checked as for
        an append), committed if it returns, rolled back if it raises: for the tables other
        modules keep beside the games' (ledger/tournaments.py).  Returns what `work` returns."""
        self._begin_write()
        conn = self.conn
        try:
            result = work(conn)
            conn.execute("COMMIT")
            return result
        except sqlite3.Error as exc:
            rollback(conn)
            self.after_rollback()
            raise self.explain(exc, True) from None
        except BaseException:
            rollback(conn)
            self.after_rollback()
            raise

    @guarded(writing=False)
    def read_table(self, sql: str, args: tuple = ()) -> list[tuple]:
        """Rows of a query on a table kept beside the games' ([] when it does not exist yet)."""
        if not self.has_tables():
            return []
        try:
            return self.conn.execute(sql, args).fetchall()
        except sqlite3.OperationalError as exc:
            if "no such table" in str(exc):
                return []
            raise
