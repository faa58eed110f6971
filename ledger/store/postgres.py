"""The append-only event store on PostgreSQL (the EventStore of ledger/store/protocol.py), for
a hall of tables or a league writing to one database: `--db postgresql://...`.

The same rows as the SQLite file, hashed alike (ledger/store/canonical.py; `data` kept as the
canonical JSON text it was hashed from), so a game has the same head on either store.  Its
tables: ledger/store/postgres_schema.py; connecting and its errors:
ledger/store/postgres_connection.py; the import's bulk path: ledger/store/postgres_bulk.py.

One command is one transaction.  Inside it an advisory lock on the game (on "a new game" for
`new`) serialises the game's writers, so that the idempotency key and the last seq are read
after the previous writer committed (READ COMMITTED reads afresh at each statement): the
expected seq is checked there, and the primary key (game_id, seq) would refuse a duplicate
anyway.  Reads run in autocommit, each statement its own snapshot.  A committed command is
announced on the channel CHANNEL (NOTIFY is delivered at commit, never for a rollback).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from banco.ledger.base.errors import ConflictError, DatabaseError, NoDatabase
from banco.ledger.store.canonical import (
    GENESIS,
    not_before,
    now_text,
)
from banco.ledger.store.chain import chain_rows, insert_values
from banco.ledger.store.connection import lock_wait
from banco.ledger.store.games import GameIndex, asked
from banco.ledger.store.postgres_bulk import PgGameImport, PgRawRows
from banco.ledger.store.postgres_connection import connect, dropped, explain, guarded, shown
from banco.ledger.store.postgres_health import PgChecks
from banco.ledger.store.postgres_read_model import PgReadModel
from banco.ledger.store.postgres_schema import (
    CHANNEL,
    FORMAT,
    LOCKS,
    NEW_GAME_LOCK,
    SCHEMA,
    SCHEMA_LOCK,
    create,
    keep_snapshot,
    to_format_4,
)
from banco.ledger.store.protocol import Appended, NewEvent, ReadRows, Rows, Snapshot
from banco.ledger.store.reading import rows_of, select
from banco.ledger.store.schema import (
    COLUMNS,
    GAME_COLUMNS,
    event_dict,
    game_dict,
    index_game,
)

RETRY_AFTER = 1  # seconds between reconnections while PostgreSQL is away (revive)
INSERT = f"INSERT INTO {SCHEMA}.events ({COLUMNS}) VALUES ({', '.join(['%s'] * 12)})"
INSERT_GAME = f"INSERT INTO {SCHEMA}.games ({GAME_COLUMNS}) VALUES ({', '.join(['%s'] * 10)})"
EVENTS, GAMES, META, SNAPSHOTS = (f"{SCHEMA}.{t}" for t in ("events", "games", "meta",
                                                            "snapshots"))


class PostgresStore(GameIndex, PgReadModel):
    """One PostgreSQL database (its `banco` schema).  `create`: the first write may create the
    tables when the URL's role may (else the organiser installs them: postgres_setup); with
    create=False a database without banco's tables is a NoDatabase error, as a missing file
    is.  `wait`: seconds to wait for another writer's lock (default 5, env BANCO_LOCK_WAIT)."""

    readonly = False

    def __init__(self, url: str, *, create: bool = True, wait: float | None = None):
        self.path = url
        self.shown = shown(url)
        self.wait = lock_wait() if wait is None else wait
        self.format = 0
        self.meta: dict[str, str] = {}
        self.conn = connect(url, self.wait)
        self.inspect()
        if self.format == 0 and not create:
            self.close()
            raise NoDatabase("{path} has no banco games yet (no `banco` tables)\n"
                             "  `banco new PLAYER PLAYER ...` starts a game there",
                             path=self.shown)

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    def checks(self) -> PgChecks:
        """The referee's and the organiser's look at the database
        (ledger/store/postgres_health.py)."""
        return PgChecks(self)

    away: tuple[float, DatabaseError] | None = None  # the last failed reconnection: when, why

    def revive(self) -> None:
        """Before a long-lived user's next command (the server's), never inside a transaction:
        a connection PostgreSQL dropped (a restart, a network cut) is replaced by a new one.
        Until one can be had, DatabaseError; retried at most every RETRY_AFTER seconds, so a
        server asked a hundred times a second while the database is away does not knock a
        hundred times (`banco serve` kept its dead connection and answered 500 until it
        was restarted)."""
        import time

        if not dropped(self.conn):  # also one PostgreSQL ended while it was idle
            return
        if self.away is not None and time.monotonic() - self.away[0] < RETRY_AFTER:
            raise self.away[1]
        if self.conn is not None:
            self.conn.close()
            self.conn = None
        try:
            self.conn = connect(self.path, self.wait)
        except DatabaseError as exc:
            self.away = (time.monotonic(), exc)
            raise
        self.away = None

    def explain(self, exc: Exception, writing: bool) -> DatabaseError:
        return explain(exc, self.path, self.wait, writing)

    def q(self, sql: str, args: tuple | list = ()) -> list[tuple]:
        return self.conn.execute(sql, args).fetchall()

    def one(self, sql: str, args: tuple | list = ()) -> tuple | None:
        return self.conn.execute(sql, args).fetchone()

    @guarded(writing=False)
    def inspect(self) -> int:
        """Which format the database is in (0: no banco tables); refuses another program's."""
        if self.one("SELECT to_regclass(%s)", (META,))[0] is None:
            self.format = 0
            return 0
        self.meta = dict(self.q(f"SELECT key, value FROM {META}"))
        if self.meta.get("application") != "banco" or not self.meta.get("format", "").isdecimal():
            raise DatabaseError("{path} has a `banco.meta` table that is not banco's: banco "
                                "leaves this database alone; use another --db", path=self.shown)
        self.format = int(self.meta["format"])
        if self.format == 2:
            self._to_format_3()
        return self.format

    def _to_format_3(self) -> None:
        """A schema of format 2 gains `events.table_digest` (NULL in its rows: no row is
        rewritten), so that every read selects the same columns."""
        from psycopg import errors

        try:
            with self.conn.transaction():
                self._lock(SCHEMA_LOCK)
                create(self.conn, now_text())
                self.conn.execute(f"UPDATE {META} SET value='3' WHERE key='format'")
        except errors.InsufficientPrivilege:
            raise DatabaseError("{path} is banco format 2 and its user may not add the column "
                                "format 3 needs; nothing was done: the database's owner "
                                "upgrades it with `python -m banco.ledger.store.postgres_setup URL "
                                "--role USER`", path=self.shown) from None
        self.format = 3  # 4 by the first write (ensure_tables), as a SQLite file

    def has_tables(self) -> bool:
        if self.format == 0:
            self.inspect()
        return self.format > 0

    columns = COLUMNS

    @guarded(writing=False)
    def read_table(self, sql: str, args: tuple = ()) -> list[tuple]:
        """Rows of a query on a table kept beside the games', named as in a SQLite file (the
        audit's look for tournaments, projections/audit/database_audit.py): banco's schema
        first on the search path, `?` marks; [] when the table does not exist yet."""
        from psycopg import errors

        if not self.has_tables():
            return []
        try:
            with self.conn.transaction():
                self.conn.execute(f"SET LOCAL search_path TO {SCHEMA}")
                return self.q(sql.replace("?", "%s"), args)
        except errors.UndefinedTable:
            return []

    # --- reading ------------------------------------------------------------------------------

    def rows(self, sql: str, args: tuple | list, game_id: int) -> list[dict]:
        if not self.has_tables():
            return []
        return self.with_chain_ids(game_id, [event_dict(r) for r in self.q(sql, args)])

    @guarded(writing=False)
    def read(self, game_id: int, after: int = 0, upto: int | None = None, *,
             types: Iterable[str] | None = None, limit: int | None = None,
             prev_hash: str | None = None, columns: Iterable[str] | None = None) -> Rows:
        """As SQLiteStore.read (ledger/store/reading.py)."""
        if not self.has_tables():
            return Rows()
        sql, args = select(COLUMNS, EVENTS, "%s", "= ANY({marks})", game_id, after, upto,
                           types, limit, prev_hash is not None, columns)
        if columns is not None:
            return Rows(self.q(sql, args))
        return rows_of(self.q(sql, args), game_id, self.beside(game_id)["chain_game_id"],
                       after, prev_hash)

    @guarded(writing=False)
    def commands_before(self, game_id: int, seq: int) -> int:
        """Commands recorded before event `seq` (a command's rows are contiguous)."""
        if not self.has_tables():
            return 0
        return self.one(f"SELECT COUNT(DISTINCT command_id) FROM {EVENTS} WHERE game_id=%s "
                        "AND seq<%s", (game_id, seq))[0]

    def data_version(self) -> int | None:
        return None  # no such count: a held table's rows are read again before each write

    @guarded(writing=False)
    def last_seq(self, game_id: int) -> int:
        if not self.has_tables():
            return 0
        return self.one(f"SELECT COALESCE(MAX(seq), 0) FROM {EVENTS} WHERE game_id=%s",
                        (game_id,))[0]

    @guarded(writing=False)
    def head(self, game_id: int) -> str:
        if not self.has_tables():
            return GENESIS
        row = self.one(f"SELECT hash FROM {EVENTS} WHERE game_id=%s ORDER BY seq DESC LIMIT 1",
                       (game_id,))
        return row[0] if row else GENESIS

    @guarded(writing=False)
    def command_events(self, game_id: int, command_id: str) -> list[dict]:
        return self.rows(f"SELECT {COLUMNS} FROM {EVENTS} WHERE game_id=%s AND command_id=%s "
                         "ORDER BY seq", (game_id, command_id), game_id)

    # --- games --------------------------------------------------------------------------------

    @guarded(writing=False)
    def games(self) -> list[dict]:
        if not self.has_tables():
            return []
        return [{**game_dict(r), **self.beside(r[0])}
                for r in self.q(f"SELECT {GAME_COLUMNS} FROM {GAMES} ORDER BY game_id")]

    @guarded(writing=False)
    def game(self, game_id: int) -> dict | None:
        if not self.has_tables():
            return None
        row = self.one(f"SELECT {GAME_COLUMNS} FROM {GAMES} WHERE game_id=%s", (game_id,))
        return {**game_dict(row), **self.beside(game_id)} if row else None

    @guarded(writing=False)
    def latest_game(self, unfinished: bool) -> int | None:
        if not self.has_tables():
            return None
        where = "WHERE ended_seq IS NULL " if unfinished else ""
        row = self.one(f"SELECT game_id FROM {GAMES} {where}ORDER BY game_id DESC LIMIT 1")
        return row[0] if row else None

    def _next_game_id(self) -> int:
        """The number an import takes, under the lock on new games (begin_import)."""
        return self.one(f"SELECT COALESCE(MAX(game_id), 0) + 1 FROM {GAMES}")[0]

    @guarded(writing=False)
    def find_game(self, *, command_id: str | None = None, uuid: str | None = None,
                  first_hash: str | None = None) -> int | None:
        column, value = asked(command_id, uuid, first_hash)
        if not self.has_tables():
            return None
        table = EVENTS if column == "hash" else GAMES
        first = " AND seq=1" if column == "hash" else ""
        row = self.one(f"SELECT game_id FROM {table} WHERE {column}=%s{first}", (value,))
        return row[0] if row else None

    # --- snapshots ----------------------------------------------------------------------------

    @guarded(writing=False)
    def snapshots(self, game_id: int) -> list[Snapshot]:
        if not self.has_tables():
            return []
        return [Snapshot(*r) for r in self.q(f"SELECT seq, head, format, state, digest FROM "
                                             f"{SNAPSHOTS} WHERE game_id=%s ORDER BY seq DESC",
                                             (game_id,))]

    # --- writing ------------------------------------------------------------------------------

    def _lock(self, key: int) -> None:
        self.conn.execute("SELECT pg_advisory_xact_lock(%s, %s)", (LOCKS, key))

    def ensure_tables(self) -> None:
        """Before the first write: banco's tables, created if the URL's role may create them.
        A schema of format 3 is raised to 4 by the write itself, in its transaction
        (_raise_format): a write refused or failed leaves the database at its old format."""
        if self.has_tables():
            if self.format > FORMAT:
                raise DatabaseError(
                    "{path} is format {found}, written by a newer banco; this banco "
                    "writes format {format} and will not record in it (reading works): "
                    "upgrade banco", path=self.shown, found=self.format, format=FORMAT)
            return
        from psycopg import errors

        try:
            with self.conn.transaction():
                self._lock(SCHEMA_LOCK)
                create(self.conn, now_text())
        except errors.InsufficientPrivilege:
            raise DatabaseError("{path} has no banco tables, and its user may not create "
                                "them; nothing was recorded: the database's owner installs "
                                "them with `python -m banco.ledger.store.postgres_setup URL "
                                "--role USER`", path=self.shown) from None
        self.inspect()

    def _raise_format(self) -> bool:
        """Inside a write's transaction, before its rows: a schema of format 3 raised to 4
        (rows of schema 3 follow, which a banco of format 3 must not write after); whether it
        was.  It commits with the rows or not at all (it ran in a transaction of its own before
        the write, which a refused write left raised).  self.format follows at the commit."""
        if self.format >= FORMAT:
            return False
        to_format_4(self.conn, now_text())
        return True

    @guarded(writing=True)
    def append(self, game_id: int | None, expected_seq: int, events: list[NewEvent], *,
               recorded_at: str, actor: str, command_id: str,
               snapshot: Callable[[list[dict]], tuple[str, str, str] | None] | None = None,
               read_model: Callable[[list[dict]], ReadRows] | None = None) -> Appended:
        """One command's events in one transaction, or none (see the module's doc);
        `read_model(rows written)`: the read model's rows for them, kept in it too
        (ledger/store/postgres_read_model.py)."""
        self.ensure_tables()
        conn = self.conn
        with conn.transaction():
            if game_id is None:
                self._lock(NEW_GAME_LOCK)
                done_in = self.one(f"SELECT game_id FROM {GAMES} WHERE command_id=%s",
                                   (command_id,))
                if done_in:
                    return self._replay(done_in[0], command_id)
                game_id = self.one(f"SELECT COALESCE(MAX(game_id), 0) + 1 FROM {GAMES}")[0]
            self._lock(game_id)
            if self.one(f"SELECT 1 FROM {EVENTS} WHERE game_id=%s AND command_id=%s LIMIT 1",
                        (game_id, command_id)):
                return self._replay(game_id, command_id)
            last = self.one(f"SELECT seq, hash, recorded_at FROM {EVENTS} WHERE game_id=%s "
                            "ORDER BY seq DESC LIMIT 1", (game_id,))
            last_seq, prev, last_at = last if last else (0, GENESIS, None)
            if last_seq != expected_seq:
                raise ConflictError(
                    "game {game} changed while this command was being decided (now at event "
                    "{last_seq}, expected {expected_seq}); nothing was recorded: look at the "
                    "table again and retry", game=game_id, last_seq=last_seq,
                    expected_seq=expected_seq)
            recorded_at = not_before(recorded_at, last_at)  # a clock set back: times go on
            raised = self._raise_format()
            written, kept = chain_rows(game_id, last_seq, prev, events, recorded_at=recorded_at,
                                       actor=actor, command_id=command_id, snapshot=snapshot)
            with conn.cursor() as cur:
                cur.executemany(INSERT, [insert_values(r) for r in written])
            index_game(conn, game_id, last_seq, written, command_id, games=GAMES,
                       insert_game=INSERT_GAME, mark="%s")
            if kept is not None:
                keep_snapshot(conn, game_id, written[-1]["seq"], written[-1]["hash"], *kept,
                              made_at=recorded_at)
            if read_model is not None:
                self.keep_read_model(game_id, last_seq, read_model(written), written[-1]["seq"])
            conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{game_id}:{written[-1]['seq']}"))
        if raised:
            self.format = FORMAT
        return Appended(written, game_id)

    def _replay(self, game_id: int, command_id: str) -> Appended:
        rows = self.q(f"SELECT {COLUMNS} FROM {EVENTS} WHERE game_id=%s AND command_id=%s "
                      "ORDER BY seq", (game_id, command_id))
        return Appended([event_dict(r) for r in rows], game_id, replayed=True)

    # --- the import's bulk path and the audit's streamed reads --------------------------------

    @guarded(writing=True)
    def begin_import(self) -> PgGameImport:
        """A whole game in one transaction (PgGameImport), the lock on new games held."""
        self.ensure_tables()
        self.conn.execute("BEGIN")
        try:
            self._lock(NEW_GAME_LOCK)
            self._raise_format()  # with the game, or not at all (its commit reads it back)
            game_id = self._next_game_id()
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        return PgGameImport(self, game_id)

    def raw_rows(self, game_id: int) -> PgRawRows:
        self.has_tables()
        return PgRawRows(self, game_id)

    iter_raw = raw_rows  # the name the export reads the rows by
