"""The PostgreSQL store's bulk paths (as ledger/store/bulk.py for SQLite): a game's rows read
as they are used (PgGameRows, PgRawRows: keyset pages by the primary key, bounded memory), and
one game written whole in one transaction (PgGameImport, rows sent with COPY)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any, Protocol

from banco.ledger.store import postgres_read_model as read_model
from banco.ledger.store.bulk import GameRows
from banco.ledger.store.postgres_schema import CHANNEL, SCHEMA
from banco.ledger.store.schema import COLUMNS, GAME_COLUMNS

if TYPE_CHECKING:
    from banco.ledger.base.errors import DatabaseError
    from banco.ledger.store.protocol import ReadRows


class PgBulkHost(Protocol):
    """What the bulk path needs of its store (ledger/store/postgres.py's PostgresStore),
    named here so that this module does not import the store that imports it."""
    conn: Any
    format: int

    def beside(self, game_id: int) -> dict: ...
    def explain(self, exc: Exception, writing: bool) -> DatabaseError: ...
    def inspect(self) -> int: ...
    def q(self, sql: str, args: tuple | list = ()) -> list[tuple]: ...

EVENTS = f"{SCHEMA}.events"
PAGE = 2000


def _range(store: PgBulkHost, game_id: int, first: int, last: int,
           columns: str = COLUMNS) -> list[tuple]:
    import psycopg

    try:
        return store.q(f"SELECT {columns} FROM {EVENTS} WHERE game_id=%s AND seq>=%s AND "
                       "seq<=%s ORDER BY seq", (game_id, first, last))
    except psycopg.Error as exc:
        raise store.explain(exc, writing=False) from None


class PgGameRows(GameRows):
    """A game's rows (as `read` gives them), read as they are used: iteration pages through
    them, an index or a slice reads only what it names (seqs 1..N with no gap); GameRows's
    sequence over PostgreSQL's pages."""

    CHUNK = PAGE

    def _raw(self, first: int, last: int) -> list[tuple]:
        return _range(self.store, self.game_id, first, last)


class PgRawRows:
    """A game's rows as stored, COLUMNS tuples in seq order (the audit's), a page at a time;
    `fetch` reads a range again."""

    numbered, columns = True, COLUMNS  # unnumbered: without the game's number (the WHERE's)

    def __init__(self, store: PgBulkHost, game_id: int, hashed_as: int | None = None):
        self.store, self.game_id = store, game_id
        self.hashed_as = store.beside(game_id)["chain_game_id"] if hashed_as is None else hashed_as

    def unnumbered(self) -> PgRawRows:
        """The same rows without the game's number, as the audit's pass reads them (SQLite's
        RawRows.unnumbered)."""
        rows = PgRawRows(self.store, self.game_id, self.hashed_as)
        rows.numbered, rows.columns = False, COLUMNS.removeprefix("game_id, ")
        return rows

    def __iter__(self) -> Iterator[tuple]:
        import psycopg

        store, after = self.store, 0
        if store.format == 0:
            return
        at = 1 if self.numbered else 0  # the seq's place in a row
        while True:  # keyset pages: each one an index range after the last seq seen
            try:
                page = store.q(f"SELECT {self.columns} FROM {EVENTS} WHERE game_id=%s AND "
                               "seq>%s ORDER BY seq LIMIT %s", (self.game_id, after, PAGE))
            except psycopg.Error as exc:
                raise store.explain(exc, writing=False) from None
            yield from page
            if len(page) < PAGE:
                return
            after = page[-1][at]

    def fetch(self, first: int, last: int) -> list[tuple]:
        return _range(self.store, self.game_id, first, last, self.columns)


class PgGameImport:
    """One game written whole in one transaction (PostgresStore.begin_import, which opened
    it with the lock on new games held): `insert` by batches, then `finish` (commit) or
    `abort` (nothing kept)."""

    def __init__(self, store: PgBulkHost, game_id: int):
        self.store, self.game_id = store, game_id
        self.conn = store.conn
        self.inserted = 0
        self._modelled: bool | None = None  # whether the read model is kept (once asked)
        self.expected = 0  # the events announced (SQLite's GameImport uses it; COPY needs not)
        self.done = False

    def _failed(self, exc: Exception):
        self.abort()
        return self.store.explain(exc, writing=True)

    def insert(self, rows: list[tuple]) -> None:
        """Rows as (seq, type, data text, recorded_at, actor, command_id, schema_version,
        prev_hash, hash, chain_version, table_digest)."""
        import psycopg

        try:
            with self.conn.cursor() as cur, cur.copy(
                    f"COPY {EVENTS} ({COLUMNS}) FROM STDIN") as copy:
                for r in rows:
                    copy.write_row((self.game_id, *r))
        except psycopg.Error as exc:
            raise self._failed(exc) from None
        self.inserted += len(rows)

    def keep_read_model(self, rows: ReadRows, through: int) -> None:
        """The read model's rows of the events inserted, which reach seq `through`, kept in
        this transaction (ledger/store/postgres_read_model.py): rolled back with the rows when
        the import is refused; none where the database has no read model's tables and the
        role may not make them (its readings read the log)."""
        import psycopg

        try:
            if self._modelled is None:
                self._modelled = read_model.start_import(self.conn, self.game_id)
            if self._modelled:
                read_model.copy_rows(self.conn, self.game_id, rows)
                self.conn.execute(read_model.THROUGH, (self.game_id, through))
        except psycopg.Error as exc:
            raise self._failed(exc) from None

    def raw_rows(self, hashed_as: int | None = None) -> PgRawRows:
        return PgRawRows(self.store, self.game_id, hashed_as)

    def rows(self, hashed_as: int | None = None) -> PgGameRows:
        return PgGameRows(self.store, self.game_id, 0, self.inserted, hashed_as)

    def finish(self, game: dict, meta: dict[str, str],
               snapshots: Iterable[tuple[int, str, str, str]] = (),
               made_at: str | None = None, commit: bool = True) -> None:
        """Index the game and commit, with `meta` rows and the game's snapshots (seq, head,
        format, text); `commit` False: the transaction stays open for `following`."""
        import psycopg

        from banco.ledger.store.postgres_schema import keep_snapshot

        conn = self.conn
        try:
            for seq, head, fmt, text in snapshots:
                keep_snapshot(conn, self.game_id, seq, head, fmt, text, made_at)
            conn.execute(f"INSERT INTO {SCHEMA}.games ({GAME_COLUMNS}) VALUES "
                         f"({', '.join(['%s'] * 10)})",
                         (self.game_id, game["game_uuid"], None, game["started_at"],
                          json.dumps(game["players"], ensure_ascii=False), game["rules"],
                          game["edition"], game["last_seq"], game["head"], game["ended_seq"]))
            with conn.cursor() as cur:
                cur.executemany(f"INSERT INTO {SCHEMA}.meta (key, value) VALUES (%s, %s) "
                                "ON CONFLICT (key) DO UPDATE SET value=EXCLUDED.value",
                                list(meta.items()))
            # announced as a command is (delivered at commit): a server shows the game at once
            conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{self.game_id}:"
                                                      f"{game['last_seq']}"))
            if commit:
                conn.execute("COMMIT")
        except psycopg.Error as exc:
            raise self._failed(exc) from None
        except BaseException:
            self.abort()
            raise
        if commit:
            self.done = True
            self.store.inspect()

    def following(self) -> PgGameImport:
        """The next game of an archive, in this same transaction."""
        return PgGameImport(self.store, self.game_id + 1)

    def commit(self) -> None:
        import psycopg

        try:
            self.conn.execute("COMMIT")
        except psycopg.Error as exc:
            raise self._failed(exc) from None
        self.done = True
        self.store.inspect()

    def abort(self) -> None:
        if not self.done:
            self.done = True
            try:
                self.conn.execute("ROLLBACK")
            except Exception:  # the connection is gone, and the transaction with it
                pass
