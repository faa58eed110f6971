"""The import's bulk path and the audit's streamed reads: a game's rows read from the file as
they are used (GameRows, RawRows), and one game written whole in one transaction (GameImport),
for games too long to hold in memory (an import of a million events)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator
from itertools import chain
from typing import TYPE_CHECKING, Protocol

from banco.ledger.store import read_model
from banco.ledger.store.connection import rollback
from banco.ledger.store.many_rows import ManyRows
from banco.ledger.store.reading import RowsView
from banco.ledger.store.schema import (
    FORMAT1_COLUMNS,
    FORMAT_TRIGGER,
    INSERT,
    INSERT_GAME,
    TRIGGERS,
    event_dict,
    put_snapshot,
)

if TYPE_CHECKING:
    import sqlite3

    from banco.ledger.base.errors import DatabaseError
    from banco.ledger.store.protocol import ReadRows


# A row with no table digest (every row but the few that bind a snapshot) goes in by a
# statement that names no digest column (NULL, its default): Python's sqlite3 binds a None
# after two failed lookups of its adapter protocol, each formatting an AttributeError, some
# 2,500 instructions a row (7% of the inserts').  Many rows to a statement
# (ledger/store/many_rows.py), after the game's number
_NO_DIGEST = ManyRows(f"INSERT INTO events ({', '.join(FORMAT1_COLUMNS)}, chain_version)",
                      len(FORMAT1_COLUMNS))


TYPE_INDEX = "idx_events_type"  # ledger/store/health.py INDEXES
COMMAND_INDEX = "idx_events_game_id_command_id"
LIFTED = (TYPE_INDEX, COMMAND_INDEX)  # built after a long game's rows (_lift_indexes)



class BulkHost(Protocol):
    """What the bulk path needs of its store (ledger/store/sqlite.py's SQLiteStore), named
    here so that this module does not import the store that imports it."""
    conn: sqlite3.Connection
    format: int

    @property
    def columns(self) -> str: ...

    def beside(self, game_id: int) -> dict: ...
    def explain(self, exc: sqlite3.Error, writing: bool) -> DatabaseError: ...
    def inspect(self) -> int: ...
    def after_rollback(self) -> None: ...


class GameRows(RowsView):
    """A game's rows (as `read` gives them), read from the file as they are used: a RowsView
    (ledger/store/reading.py) over the store's own connection, inside an import's
    transaction too, with version-1 rows told the number they hash (`hashed_as`).  Rows of a
    game are numbered 1, 2, 3 ... with no gap (an import checks it before reading it)."""

    def __init__(self, store: BulkHost, game_id: int, start: int, stop: int,
                 hashed_as: int | None = None):
        super().__init__(store, game_id, start, stop)
        # the number version-1 rows hash, when not the game's own (games.py beside)
        self.hashed_as = store.beside(game_id)["chain_game_id"] if hashed_as is None else hashed_as

    def _raw(self, first: int, last: int) -> list[tuple]:
        """The rows first..last as stored (each store's own read: PgGameRows has its own)."""
        s = self.store
        return s.conn.execute(f"SELECT {s.columns} FROM events WHERE game_id=? AND seq>=? AND "
                              "seq<=? ORDER BY seq", (self.game_id, first, last)).fetchall()

    def _rows(self, first: int, last: int) -> list[dict]:
        rows = [event_dict(r) for r in self._raw(first, last)]
        if self.hashed_as is not None:
            for row in rows:
                if row["chain_version"] == 1:
                    row["chain_game_id"] = self.hashed_as
        return rows

    def _like(self, start: int, stop: int) -> GameRows:
        return type(self)(self.store, self.game_id, start, stop, self.hashed_as)


class RawRows:
    """A game's rows as the file holds them, tuples in COLUMNS order (the data as its JSON
    text): iterating streams them in seq order through one cursor; `fetch` reads a range again
    by the primary key.  `hashed_as`: the game number its version-1 rows hash, when not its
    own (an imported game).  Nothing is parsed or checked here: that is the audit's work."""

    numbered = True  # each row begins with the game's number (unnumbered: without it)

    def __init__(self, store: BulkHost, game_id: int, hashed_as: int | None = None):
        self.store, self.game_id = store, game_id
        self.hashed_as = store.beside(game_id)["chain_game_id"] if hashed_as is None else hashed_as

    def unnumbered(self) -> RawRows:
        """The same rows without the game's number, which is the WHERE's (the audit's pass
        reads them so: each column read takes SQLite's mutex and lets the GIL go, a twelfth of
        the rows' reading)."""
        rows = RawRows(self.store, self.game_id, self.hashed_as)
        rows.numbered = False
        return rows

    def _columns(self) -> str:
        columns = self.store.columns
        return columns if self.numbered else columns.removeprefix("game_id, ")

    def __iter__(self) -> Iterator[tuple]:
        s = self.store
        if s.conn is None or s.format == 0:
            return iter(())
        try:
            cursor = s.conn.execute(f"SELECT {self._columns()} FROM events WHERE game_id=? "
                                    "ORDER BY seq", (self.game_id,))
        except sqlite3.Error as exc:
            raise s.explain(exc, writing=False) from None
        # handed out by C a chunk at a time: a generator resumed a row cost the audit some
        # hundreds of instructions an event
        return chain.from_iterable(self._chunks(cursor))

    def _chunks(self, cursor) -> Iterator[list[tuple]]:
        try:
            while chunk := cursor.fetchmany(512):
                yield chunk
        except sqlite3.Error as exc:
            raise self.store.explain(exc, writing=False) from None

    def fetch(self, first: int, last: int) -> list[tuple]:
        s = self.store
        try:
            return s.conn.execute(f"SELECT {self._columns()} FROM events WHERE game_id=? AND "
                                  "seq>=? AND seq<=? ORDER BY seq",
                                  (self.game_id, first, last)).fetchall()
        except sqlite3.Error as exc:
            raise s.explain(exc, writing=False) from None


def stored_row(game_id: int, row: tuple) -> tuple:
    """A row as GameImport.insert takes it (seq, type, data text, recorded_at, actor,
    command_id, schema_version, prev_hash, hash, chain_version, table_digest) as RawRows reads it back, in
    COLUMNS order: the game's number before it, each value as it went in (the import gives
    ints to the INTEGER columns, str or None to the TEXT ones, which SQLite returns as they
    were).  The import's audit in a process of its own (projections/exchange/import_audit.py) audits
    the rows through this very function, and GameImport.insert writes this very tuple (spelt
    inline there: a call a row was a fiftieth of an import), so they cannot differ."""
    return (game_id, *row)


class GameImport:
    """One game written whole in one transaction (SQLiteStore.begin_import): rows go in by
    batches; `finish` indexes the game and commits, `abort` leaves the file as it was.

    The trigger that keeps an old banco from appending version-1 rows (events_format_2) is
    lifted for this transaction and put back before the commit: the importer has checked every
    row's chain version against its header (a game from before format 2 is inserted as it was
    hashed, its version-1 rows and all: the number they hash is kept in `meta`), and the
    trigger, run for every row, was 40% of the inserts' cost.  Other connections never see
    the file without it: DROP and CREATE are in the same transaction as the rows."""

    TRIGGER = FORMAT_TRIGGER

    def __init__(self, store: BulkHost, game_id: int):
        self.store, self.game_id = store, game_id
        self.conn = store.conn
        self.inserted = 0
        self._lifted = False  # the trigger dropped in this transaction
        self._restore = False  # ... and created again before the commit
        # The events the file announces (the import sets it): a game at least as long as
        # what the file holds already has the indexes on the events' type and command ids
        # built after its rows (`_lift_indexes`)
        self.expected = 0
        self._indexes: list[str] = []  # the indexes' SQL, to create again before the commit
        self._modelled = False  # the read model's tables made and the game's rows cleared
        self.done = False

    def insert(self, rows: list[tuple]) -> None:
        """Rows as (seq, type, data text, recorded_at, actor, command_id, schema_version,
        prev_hash, hash, chain_version, table_digest)."""
        g = self.game_id
        try:
            if not self._lifted:
                self._restore = self.conn.execute(
                    "SELECT 1 FROM sqlite_master WHERE type='trigger' AND name=?",
                    (self.TRIGGER,)).fetchone() is not None
                self.conn.execute(f"DROP TRIGGER IF EXISTS {self.TRIGGER}")
                self._lifted = True
                self._indexes = self._lift_indexes()
            if not self._restore and any(r[9] < 2 for r in rows):
                self._restore = True  # as before: a file that gets version-1 rows gets the guard
            # stored_row's, inline; in order, the rows with a digest by INSERT
            start = 0
            for at in [i for i, r in enumerate(rows) if r[10] is not None] + [len(rows)]:
                if at > start:
                    _NO_DIGEST.insert(self.conn, g, [r[:10] for r in rows[start:at]])
                if at < len(rows):
                    self.conn.execute(INSERT, (g, *rows[at]))
                start = at + 1
        except sqlite3.Error as exc:
            self.abort()
            raise self.store.explain(exc, writing=True) from None
        self.inserted += len(rows)

    def _lift_indexes(self) -> list[str]:
        """The indexes on the events' type and command ids dropped for this transaction, when
        this game is at least as long as what the file holds (an import into a new file): each
        row put into them went to the middle of the index, among its type's or its command
        ids' rows, and their pages in and out of the cache (a tenth of the inserts' time, 2,500
        instructions a row for the command ids'); built after the rows (`finish`) each is one
        sort, of at most twice this game's rows.  Their own SQL is kept and run again, in the
        same transaction: no other connection sees the file without them.  The primary key's
        index stays: the rows go in at its end, and the audit reads back by it."""
        conn = self.conn
        found = [(name, sql) for name in LIFTED for (sql,) in conn.execute(
            "SELECT sql FROM sqlite_master WHERE type='index' AND name=?", (name,)) if sql]
        if not found:
            return []
        held = conn.execute("SELECT MAX(rowid) FROM events").fetchone()[0] or 0
        if held > self.expected:
            return []
        for name, _ in found:
            conn.execute(f"DROP INDEX {name}")
        return [sql for _, sql in found]

    def keep_read_model(self, rows: ReadRows, through: int) -> None:
        """The read model's rows (ledger/store/read_model.py) of the events inserted, which
        reach seq `through`: kept in this transaction as they come, so the game has its read
        model once committed and none when the import is refused (it rolls back with them)."""
        conn = self.conn
        try:
            if not self._modelled:
                for sql in read_model.DDL:
                    conn.execute(sql)
                read_model.forget(conn, self.game_id)
                self._modelled = True
            read_model.keep(conn, self.game_id, rows, through)
        except sqlite3.Error as exc:
            self.abort()
            raise self.store.explain(exc, writing=True) from None

    def raw_rows(self, hashed_as: int | None = None) -> RawRows:
        """The rows inserted so far as stored, read back inside the transaction (the audit)."""
        return RawRows(self.store, self.game_id, hashed_as)

    def rows(self, hashed_as: int | None = None) -> GameRows:
        """The rows inserted so far, read back inside the transaction; `hashed_as`: the game
        number their version-1 rows hash (meta says so only once the game is committed)."""
        return GameRows(self.store, self.game_id, 0, self.inserted, hashed_as)

    def finish(self, game: dict, meta: dict[str, str],
               snapshots: Iterable[tuple[int, str, str, str]] = (),
               made_at: str | None = None, commit: bool = True) -> None:
        """Index the game (`game`: game_uuid, started_at, players, rules, edition, last_seq,
        head, ended_seq) and commit, with `meta` rows and the game's `snapshots` as (seq,
        head, format, text), oldest first.  `commit` False: the transaction stays open for
        the next game of an archive (`following`), then `commit` or `abort` for them all."""
        conn = self.conn
        try:
            for seq, head, fmt, text in snapshots:
                put_snapshot(conn, self.game_id, seq, head, fmt, text, made_at)
            for sql in self._indexes:
                conn.execute(sql)
            self._indexes = []
            if self._restore:
                conn.execute(TRIGGERS[2])
            conn.execute(INSERT_GAME,
                         (self.game_id, game["game_uuid"], None, game["started_at"],
                          json.dumps(game["players"], ensure_ascii=False), game["rules"],
                          game["edition"], game["last_seq"], game["head"], game["ended_seq"]))
            conn.executemany("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                             list(meta.items()))
            if not commit:
                return
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            self.abort()
            raise self.store.explain(exc, writing=True) from None
        except BaseException:
            self.abort()
            raise
        self.done = True
        self.store.inspect()  # meta now holds this game's chain id, if it has one

    def following(self) -> GameImport:
        """The next game of an archive, in this same transaction (after `finish(commit=False)`)."""
        # this game's number + 1, as PostgreSQL's: the one after the largest when this one
        # began (begin_import), and this game may be indexed only later (an archive's games'
        # audits run at once: projections/exchange/tournament_archive.py)
        return GameImport(self.store, self.game_id + 1)

    def commit(self) -> None:
        """Commit every game of the archive written in this transaction."""
        try:
            self.conn.execute("COMMIT")
        except sqlite3.Error as exc:
            self.abort()
            raise self.store.explain(exc, writing=True) from None
        self.done = True
        self.store.inspect()

    def abort(self) -> None:
        if not self.done:
            rollback(self.conn)
            self.store.after_rollback()
            self.done = True
