"""The append-only event store.  Persistence only: it knows rows and the games they belong to,
not Monopoly.

The file carries its format in a `meta` table (key/value rows: `application` = banco,
`format`, and when and from what it was migrated).  A table rather than PRAGMA user_version
because it says more than a number (who migrated it and when), is written in the same
transaction as what it describes, and anyone can read it with `sqlite3` or `sqlite-utils`.

  format 0  an empty file: the first append creates format 2
  format 1  banco before this store (no `meta`): `events` only, every row hashed with its local
            game number; read as it is, migrated in place by the first write
  format 2  `meta`; `games` (one row per game: identity, players, last seq, head, whether it
            ended), kept in the same transaction as the appends so that listing the games or
            finding the current one never reads the log; `events` gains `chain_version`
            (1 for the rows of format 1, untouched; 2 for new rows, hashed without the game
            number: see canonical.HASHED_FIELDS)

Tables are created through sqlite-utils; reads and appends use the sqlite3 connection directly
so that a banker's command does not pay for importing sqlite-utils (DESIGN.md budgets).
Appends run in BEGIN IMMEDIATE, not sqlite-utils' deferred `atomic()`, which fails under two
writers; the last seq, the idempotency key and the format are checked inside the write lock.
Every sqlite3 error leaves here as a DatabaseError that says what is wrong with which file.
"""

from __future__ import annotations

import functools
import json
import os
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import NamedTuple

from ledger.base.errors import BancoError, ConflictError, DatabaseError, NoDatabase, UsageError
from ledger.base.text import either, msg
from ledger.store.canonical import (
    CHAIN_VERSION,
    GENESIS,
    UnknownChainVersion,
    canonical_json,
    now_text,
    row_hash,
    stored_row_hash,
)

FORMAT = 2  # what this banco writes; it reads 1 and 2
DEFAULT_WAIT = 5.0  # seconds a command waits for another writer's lock (env BANCO_LOCK_WAIT)

# The facts the games table follows.  The store knows these three names and nothing else of
# the game: where a game starts, where it ends, and that a retraction can take the end back.
STARTED, ENDED, RETRACTED = "GameStarted", "GameEnded", "EventRetracted"


class NewEvent(NamedTuple):
    type: str
    data: dict
    schema_version: int = 1


class ChainProblem(NamedTuple):
    seq: int
    problem: str  # read_checked's: a message (ledger/base/text.py), said in the user's language


class Appended(list):
    """The rows of one command (a list of event dicts), with the game they went to and whether
    they were already there (an idempotent retry: nothing was written)."""

    def __init__(self, rows: Iterable[dict], game_id: int, replayed: bool = False):
        super().__init__(rows)
        self.game_id = game_id
        self.replayed = replayed


def event_dict(row: tuple) -> dict:
    game_id, seq, type_, data, recorded_at, actor, command_id, version, prev, hsh, chain = row
    try:
        data = json.loads(data)
    except (TypeError, ValueError):
        raise DatabaseError("game {game} event {seq}: its data is not JSON, which banco never "
                            "writes: run `banco audit`", game=game_id, seq=seq) from None
    return {"game_id": game_id, "seq": seq, "type": type_, "data": data,
            "recorded_at": recorded_at, "actor": actor, "command_id": command_id,
            "schema_version": version, "prev_hash": prev, "hash": hsh, "chain_version": chain}


FORMAT1_COLUMNS = ["game_id", "seq", "type", "data", "recorded_at", "actor", "command_id",
                   "schema_version", "prev_hash", "hash"]
COLUMNS = ", ".join(FORMAT1_COLUMNS) + ", chain_version"
COLUMNS_FORMAT1 = ", ".join(FORMAT1_COLUMNS) + ", 1"  # a format-1 file read as it is
INSERT = f"INSERT INTO events ({COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?)"

TRIGGERS = (
    "CREATE TRIGGER IF NOT EXISTS events_no_update BEFORE UPDATE ON events "
    "BEGIN SELECT RAISE(ABORT, 'events are append-only: UPDATE refused'); END",
    "CREATE TRIGGER IF NOT EXISTS events_no_delete BEFORE DELETE ON events "
    "BEGIN SELECT RAISE(ABORT, 'events are append-only: DELETE refused'); END",
    # A banco from before format 2 knows nothing of `meta` and would append rows hashed the old
    # way, without updating `games`: the database itself refuses them.
    "CREATE TRIGGER IF NOT EXISTS events_format_2 BEFORE INSERT ON events "
    "WHEN NEW.chain_version < 2 BEGIN SELECT RAISE(ABORT, 'this database is banco format 2, "
    "written by a newer banco: upgrade banco to record in it'); END",
)


# Snapshots of folded tables (ledger/store/snapshot.py): a cache beside the log, not part of it.
# A row is trusted only when the log's event `seq` has the hash `head`; rows are replaced and
# pruned freely (the newest KEEP_SNAPSHOTS of each game stay: an undo may reach behind the
# newest).  Created by the first snapshot written, in the same transaction.
SNAPSHOTS_TABLE = ("CREATE TABLE IF NOT EXISTS snapshots (game_id INTEGER NOT NULL, "
                   "seq INTEGER NOT NULL, head TEXT NOT NULL, format TEXT NOT NULL, "
                   "state TEXT NOT NULL, made_at TEXT NOT NULL, PRIMARY KEY (game_id, seq))")
KEEP_SNAPSHOTS = 3


class Snapshot(NamedTuple):
    seq: int
    head: str
    format: str
    state: str


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
        return NoDatabase("no database at {path} (no such file); did you mean {names}?\n"
                          "  `banco new PLAYER PLAYER ...` starts a game in a new file",
                          path=path, names=either([os.path.join(os.path.dirname(path), n)
                                                   for n in close]))
    if shown:
        names = ", ".join(shown[:8]) + (" ..." if len(shown) > 8 else "")
        return NoDatabase("no database at {path} (no such file); databases there: {names}\n"
                          "  `banco new PLAYER PLAYER ...` starts a game in a new file",
                          path=path, names=names)
    return NoDatabase("no database at {path} (no such file)\n"
                      "  `banco new PLAYER PLAYER ...` starts a game in a new file", path=path)


def _guarded(writing: bool):
    """Turn any sqlite3 error of a store method into a DatabaseError naming file and cause."""

    def wrap(method):
        @functools.wraps(method)
        def guarded(self, *args, **kwargs):
            try:
                return method(self, *args, **kwargs)
            except sqlite3.Error as exc:
                raise self.explain(exc, writing) from None

        return guarded

    return wrap


class SQLiteStore:
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
        if os.path.isdir(path):
            raise DatabaseError("{path} is a folder, not a database file: name a file in it, "
                                "e.g. --db {example}", path=path,
                                example=os.path.join(path, "banco.db"))
        if not os.path.exists(path):
            if not create:
                raise missing_database(path)
            folder = os.path.dirname(os.path.abspath(path))
            if not os.path.isdir(folder):
                raise DatabaseError("cannot create {path}: the folder {folder} does not exist",
                                    path=path, folder=folder)
            return  # connected by the first append
        self.readonly = not _writable(path)
        self._connect(create=False)
        self._inspect()

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    # --- opening ------------------------------------------------------------------------------

    @_guarded(writing=False)
    def _connect(self, create: bool) -> None:
        mode = "ro" if self.readonly else ("rwc" if create else "rw")
        # A URI for its mode= (never create a file by reading); %, ? and # escaped by hand, as
        # importing urllib.parse for three characters costs a read command 2 ms.
        path = os.path.abspath(self.path)
        path = path.replace("%", "%25").replace("?", "%3f").replace("#", "%23")
        uri = f"file:{path}?mode={mode}"
        self.conn = sqlite3.connect(uri, uri=True, timeout=self.wait, isolation_level=None)
        if not self.readonly:
            self.conn.execute("PRAGMA synchronous=FULL")

    @_guarded(writing=False)
    def _inspect(self) -> int:
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

    def _view(self) -> bool:
        """Whether there are banco tables to read.  A store opened on a missing or empty file,
        or on a format-1 file, notices another process creating or migrating it meanwhile
        (a format-1 view would not read the chain version of new rows)."""
        if self.conn is None:
            if not os.path.exists(self.path):
                return False
            self.readonly = not _writable(self.path)
            self._connect(create=False)
            self._inspect()
        elif self.format < FORMAT:
            if self.conn.execute("PRAGMA schema_version").fetchone()[0] != self._schema_cookie:
                self._inspect()
        return self.format > 0

    @property
    def _cols(self) -> str:
        return COLUMNS if self.format >= 2 else COLUMNS_FORMAT1

    def explain(self, exc: sqlite3.Error, writing: bool) -> DatabaseError:
        """A sqlite3 error as one sentence about this file."""
        # SQLite's own words ({cause}) stay as SQLite says them
        name = getattr(exc, "sqlite_errorname", "") or ""
        p, cause = self.path, str(exc)
        unrecorded = msg("; nothing was recorded") if writing else ""
        if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "locked" in cause:
            if writing:
                return DatabaseError("the database {path} is locked by another banco writing to "
                                     "it; waited {wait} s; nothing was recorded, retry",
                                     path=p, wait=format(self.wait, "g"))
            return DatabaseError("the database {path} is locked by another program; waited "
                                 "{wait} s; retry", path=p, wait=format(self.wait, "g"))
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
        if name.startswith("SQLITE_CANTOPEN"):
            return DatabaseError("cannot open {path} ({cause}): check the path and its "
                                 "permissions", path=p, cause=cause)
        if name.startswith(("SQLITE_IOERR", "SQLITE_FULL")):
            return DatabaseError("cannot use {path}: {cause} (is the disk full or failing?)"
                                 "{unrecorded}", path=p, cause=cause, unrecorded=unrecorded)
        return DatabaseError("cannot use the database {path}: {cause}{unrecorded}",
                             path=p, cause=cause, unrecorded=unrecorded)

    # --- reading ------------------------------------------------------------------------------

    @_guarded(writing=False)
    def read(self, game_id: int, after: int = 0, upto: int | None = None) -> list[dict]:
        """A game's rows in seq order, as they are (the audit checks them)."""
        if not self._view():
            return []
        sql = f"SELECT {self._cols} FROM events WHERE game_id=? AND seq>?"
        args: list = [game_id, after]
        if upto is not None:
            sql += " AND seq<=?"
            args.append(upto)
        rows = self.conn.execute(sql + " ORDER BY seq", args).fetchall()
        return self._with_chain_ids(game_id, [event_dict(r) for r in rows])

    @_guarded(writing=False)
    def read_type(self, game_id: int, type_: str) -> list[dict]:
        """A game's rows of one type, in seq order (by the type index: an undo's few rows in a
        long game are found without reading the rest)."""
        if not self._view():
            return []
        # `+seq`: sorted after the lookup, else SQLite walks the whole game in seq order to
        # skip the sort (0.5 s for a 300,000-event game's 514 undos; 1 ms by the index)
        rows = self.conn.execute(f"SELECT {self._cols} FROM events WHERE type=? AND game_id=? "
                                 "ORDER BY +seq", (type_, game_id)).fetchall()
        return self._with_chain_ids(game_id, [event_dict(r) for r in rows])

    @_guarded(writing=False)
    def times(self, game_id: int, after: int = 0, limit: int = 2000) -> list[tuple[int, str]]:
        """(seq, recorded_at) of up to `limit` rows after seq `after`: a time named by a
        referee is found in a long game without reading its events."""
        if not self._view():
            return []
        return self.conn.execute("SELECT seq, recorded_at FROM events WHERE game_id=? AND seq>? "
                                 "ORDER BY seq LIMIT ?", (game_id, after, limit)).fetchall()

    @_guarded(writing=False)
    def commands_before(self, game_id: int, seq: int) -> int:
        """How many commands were recorded before event `seq`, the first event of a command
        (or one past the last): a step's number, for a replay of a long game that starts in
        its middle.  A command's rows are contiguous and share its id, so that is the game's
        commands less those from `seq` on (an index of ids, and the tail's rows)."""
        if not self._view():
            return 0
        total, tail = (self.conn.execute(
            f"SELECT COUNT(DISTINCT command_id) FROM events WHERE game_id=?{more}",
            args).fetchone()[0] for more, args in (("", (game_id,)),
                                                   (" AND seq>=?", (game_id, seq))))
        return total - tail

    @_guarded(writing=False)
    def read_types(self, game_id: int, types: Iterable[str], after: int = 0,
                   limit: int = 2000) -> list[dict]:
        """Up to `limit` rows of these types after seq `after`, in seq order (a ruling reads a
        long game's auctions or jail stays a chunk at a time, not the whole log)."""
        if not self._view():
            return []
        types = list(types)
        marks = ",".join("?" * len(types))
        rows = self.conn.execute(f"SELECT {self._cols} FROM events WHERE game_id=? AND seq>? "
                                 f"AND type IN ({marks}) ORDER BY seq LIMIT ?",
                                 (game_id, after, *types, limit)).fetchall()
        return self._with_chain_ids(game_id, [event_dict(r) for r in rows])

    @_guarded(writing=False)
    def types(self, game_id: int) -> set[str]:
        """The event types a game holds."""
        if not self._view():
            return set()
        return {t for (t,) in self.conn.execute(
            "SELECT DISTINCT type FROM events WHERE game_id=?", (game_id,))}

    @_guarded(writing=False)
    def read_checked(self, game_id: int, after: int = 0, prev_hash: str = GENESIS,
                     limit: int | None = None) -> tuple[list[dict], ChainProblem | None]:
        """Rows after seq `after` (at most `limit`), each checked against the hash chain as it
        is read (the caller gives the hash of row `after`): the rows, and the first break or
        None.  ChainProblem.problem completes the sentence "event N ..."."""
        if not self._view():
            return [], None
        raw = self.conn.execute(f"SELECT {self._cols} FROM events WHERE game_id=? AND seq>? "
                                "ORDER BY seq LIMIT ?",
                                (game_id, after, -1 if limit is None else limit)).fetchall()
        rows = []
        problem = None
        prev, expected = prev_hash, after + 1
        hashed_as = self.chain_game_id(game_id)
        for r in raw:
            row = event_dict(r)
            if hashed_as is not None and r[10] == 1:
                row["chain_game_id"] = hashed_as
            rows.append(row)
            if problem is not None:
                continue
            seq = r[1]
            if seq != expected:
                problem = ChainProblem(expected, msg("is missing from the log (the next one "
                                                     "is event {seq})", seq=seq))
            elif r[8] != prev:
                problem = ChainProblem(seq, msg("does not follow the event before it (its "
                                                "prev_hash is another)"))
            elif stored_row_hash(prev, hashed_as if hashed_as is not None else r[0], *r[1:8],
                                 r[10]) != r[9]:
                try:  # the slow way, from the parsed row: the same answer, or the reason
                    same = row_hash(prev, row) == r[9]
                except (TypeError, UnknownChainVersion) as exc:
                    problem = ChainProblem(seq, msg("is not banco's ({why})", why=str(exc)))
                else:
                    if not same:
                        problem = ChainProblem(seq, msg("does not match its hash"))
            prev, expected = r[9], seq + 1
        return rows, problem

    @_guarded(writing=False)
    def iter_raw(self, game_id: int) -> Iterable[tuple]:
        if not self._view():
            return iter(())
        return self.conn.execute(f"SELECT {self._cols} FROM events WHERE game_id=? ORDER BY seq",
                                 (game_id,))

    def read_backwards(self, game_id: int, before: int | None = None,
                       chunk: int = 64) -> Iterator[dict]:
        """A game's rows newest first, from the one before seq `before` (default: the last),
        read a chunk at a time as they are used: an undo looks only at the tail."""
        if not self._view():
            return
        last = before - 1 if before is not None else self.last_seq(game_id)
        while last >= 1:
            first = max(1, last - chunk + 1)
            yield from reversed(self.read(game_id, first - 1, last))
            last = first - 1
            chunk = min(chunk * 4, 4096)

    @_guarded(writing=False)
    def game_start(self, game_id: int) -> dict | None:
        """The game's GameStarted row (its first fact), by the primary key."""
        if not self._view():
            return None
        row = self.conn.execute(f"SELECT {self._cols} FROM events WHERE game_id=? AND seq<=? "
                                "AND type=? ORDER BY seq LIMIT 1",
                                (game_id, 4, STARTED)).fetchone()
        return self._with_chain_ids(game_id, [event_dict(row)])[0] if row else None

    @_guarded(writing=False)
    def hash_at(self, game_id: int, seq: int) -> str | None:
        if not self._view():
            return None
        row = self.conn.execute("SELECT hash FROM events WHERE game_id=? AND seq=?",
                                (game_id, seq)).fetchone()
        return row[0] if row else None

    @_guarded(writing=False)
    def retracted_seqs(self, game_id: int, upto: int | None = None) -> set[int]:
        """Every seq a retraction of this game (up to seq `upto`) takes back (by the type
        index)."""
        if not self._view():
            return set()
        out: set[int] = set()
        for (data,) in self.conn.execute("SELECT data FROM events WHERE type=? AND game_id=? "
                                         "AND seq<=?", (RETRACTED, game_id,
                                                        2**62 if upto is None else upto)):
            try:
                out.update(json.loads(data).get("seqs", ()))
            except (TypeError, ValueError, AttributeError):
                raise DatabaseError("game {game}: a retraction's data is not banco's: run "
                                    "`banco audit`", game=game_id) from None
        return out

    @_guarded(writing=False)
    def snapshots(self, game_id: int) -> list[Snapshot]:
        """The game's snapshots, newest first ([] when there are none, or no table yet)."""
        rows = self.read_table("SELECT seq, head, format, state FROM snapshots WHERE game_id=? "
                               "ORDER BY seq DESC", (game_id,))
        return [Snapshot(*r) for r in rows]

    def put_snapshot(self, game_id: int, seq: int, head: str, fmt: str, text: str) -> bool:
        """Keep a snapshot in a transaction of its own, if the file can be written and nobody
        is writing (a read that had to fold a long game leaves one for the next command): never
        waits, never fails the command that asked; whether it was kept."""
        if self.readonly or self.format < 2:
            return False
        wait, self.wait = self.wait, 0.05
        try:
            self.conn.execute(f"PRAGMA busy_timeout={int(self.wait * 1000)}")
            self.write(lambda conn: _put_snapshot(conn, game_id, seq, head, fmt, text))
            return True
        except (BancoError, sqlite3.Error):
            return False
        finally:
            self.wait = wait
            try:
                self.conn.execute(f"PRAGMA busy_timeout={int(wait * 1000)}")
            except sqlite3.Error:
                pass

    @_guarded(writing=False)
    def last_seq(self, game_id: int) -> int:
        if not self._view():
            return 0
        row = self.conn.execute("SELECT MAX(seq) FROM events WHERE game_id=?",
                                (game_id,)).fetchone()
        return row[0] or 0

    @_guarded(writing=False)
    def head(self, game_id: int) -> str:
        if not self._view():
            return GENESIS
        row = self.conn.execute("SELECT hash FROM events WHERE game_id=? ORDER BY seq DESC LIMIT 1",
                                (game_id,)).fetchone()
        return row[0] if row else GENESIS

    GAME_COLUMNS = ("game_id, game_uuid, command_id, started_at, players, rules, edition, "
                    "last_seq, head, ended_seq")

    @staticmethod
    def _game_dict(row: tuple) -> dict:
        g, uid, cid, at, players, rules, edition, last, head, ended = row
        return {"game_id": g, "uuid": uid, "command_id": cid, "started_at": at,
                "players": json.loads(players) if players else [], "rules": rules,
                "edition": edition, "events": last, "head": head, "ended": ended is not None}

    @_guarded(writing=False)
    def games(self) -> list[dict]:
        """Every game: game_id, uuid, started_at, players, rules, edition, events, head, ended.
        From the games table: the log is not read (format 1: the old scan)."""
        if not self._view():
            return []
        if self.format == 1:
            return self._games_format1()
        return [self._game_dict(r) for r in self.conn.execute(
            f"SELECT {self.GAME_COLUMNS} FROM games ORDER BY game_id")]

    @_guarded(writing=False)
    def game(self, game_id: int) -> dict | None:
        if not self._view():
            return None
        if self.format == 1:
            return next((g for g in self._games_format1() if g["game_id"] == game_id), None)
        row = self.conn.execute(f"SELECT {self.GAME_COLUMNS} FROM games WHERE game_id=?",
                                (game_id,)).fetchone()
        return self._game_dict(row) if row else None

    @_guarded(writing=False)
    def latest_game(self, unfinished: bool) -> int | None:
        """The highest game number, among the unfinished ones if asked (an index lookup)."""
        if not self._view():
            return None
        if self.format == 1:
            games = [g for g in self._games_format1() if not (unfinished and g["ended"])]
            return games[-1]["game_id"] if games else None
        where = "WHERE ended_seq IS NULL " if unfinished else ""
        row = self.conn.execute(f"SELECT game_id FROM games {where}ORDER BY game_id DESC "
                                "LIMIT 1").fetchone()
        return row[0] if row else None

    def _games_format1(self) -> list[dict]:
        conn = self.conn
        ended = _ended_seqs(conn)
        out = []
        for (g,) in conn.execute("SELECT DISTINCT game_id FROM events ORDER BY game_id").fetchall():
            out.append(self._game_dict(_game_row_format1(conn, g, ended.get(g))))
        return out

    @_guarded(writing=False)
    def next_game_id(self) -> int:
        if not self._view():
            return 1
        table = "games" if self.format >= 2 else "events"
        row = self.conn.execute(f"SELECT MAX(game_id) FROM {table}").fetchone()
        return (row[0] or 0) + 1

    @_guarded(writing=False)
    def command_events(self, game_id: int, command_id: str) -> list[dict]:
        """The rows a command recorded in a game (by index), or [].  `ORDER BY +seq`: sorted
        after the lookup, so that SQLite takes the (game_id, command_id) index and does not
        walk the whole game in seq order to skip the sort (120 ms on a 300,000-event game)."""
        if not self._view():
            return []
        rows = self.conn.execute(
            f"SELECT {self._cols} FROM events WHERE game_id=? AND command_id=? ORDER BY +seq",
            (game_id, command_id)).fetchall()
        return [event_dict(r) for r in rows]

    @_guarded(writing=False)
    def game_of_command(self, command_id: str) -> int | None:
        """The game a command started (an idempotent `new`), or None."""
        if not self._view() or self.format < 2:
            return None
        row = self.conn.execute("SELECT game_id FROM games WHERE command_id=?",
                                (command_id,)).fetchone()
        return row[0] if row else None

    @_guarded(writing=False)
    def last_command(self, game_id: int) -> list[dict]:
        """The rows of the game's last command (two index lookups, however long the game)."""
        if not self._view():
            return []
        row = self.conn.execute("SELECT command_id FROM events WHERE game_id=? ORDER BY seq DESC "
                                "LIMIT 1", (game_id,)).fetchone()
        return self.command_events(game_id, row[0]) if row else []

    # --- writing ------------------------------------------------------------------------------

    def _begin_write(self) -> None:
        """BEGIN IMMEDIATE, then (inside the lock) check the format, creating or migrating."""
        if self.readonly:
            raise DatabaseError("{path} is read-only: banco can show it but not record in "
                                "it; nothing was recorded (`banco backup` makes a copy you can "
                                "play on)", path=self.path)
        if self.conn is None:
            self._connect(create=True)
        self._wal()
        conn = self.conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            found = self._inspect()
            if found > FORMAT:
                raise DatabaseError(
                    "{path} is format {found}, written by a newer banco; this banco "
                    "writes format {format} and will not record in it (reading works): "
                    "upgrade banco", path=self.path, found=found, format=FORMAT)
            if found == 0:
                self._create()
            elif found == 1:
                self._migrate()
            from ledger.store.file_checks import refuse_damaged

            refuse_damaged(self)  # never a write into a damaged file (once per process)
        except BaseException:
            _rollback(conn)
            self._after_rollback()
            raise

    def _wal(self) -> None:
        """WAL journal, set once per file.  Switching needs a moment alone with the file, and
        SQLite answers `database is locked` at once (no busy wait) when several processes
        open a new file together: retry within the same wait as any lock."""
        deadline = time.monotonic() + self.wait
        while True:
            try:
                if self.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal":
                    return
                self.conn.execute("PRAGMA journal_mode=WAL")
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    raise
                import random

                time.sleep(random.uniform(0.005, 0.05))

    def _create(self) -> None:
        import sqlite_utils  # only the first command on a new database pays for this import

        db = sqlite_utils.Database(self.conn, execute_plugins=False)
        db["events"].create(
            {"game_id": int, "seq": int, "type": str, "data": str, "recorded_at": str,
             "actor": str, "command_id": str, "schema_version": int, "prev_hash": str,
             "hash": str, "chain_version": int},
            pk=("game_id", "seq"), not_null={"type", "data", "recorded_at", "hash", "prev_hash",
                                             "schema_version", "chain_version"},
            defaults={"chain_version": 1})
        db["events"].create_index(["game_id", "command_id"])
        db["events"].create_index(["type"])
        self._create_format2(db)
        self.conn.executemany("INSERT INTO meta (key, value) VALUES (?, ?)",
                              [("application", "banco"), ("format", str(FORMAT)),
                               ("created_at", now_text())])
        self._inspect()

    def _create_format2(self, db) -> None:
        db["meta"].create({"key": str, "value": str}, pk="key", not_null={"value"})
        db["games"].create(
            {"game_id": int, "game_uuid": str, "command_id": str, "started_at": str,
             "players": str, "rules": str, "edition": str, "last_seq": int, "head": str,
             "ended_seq": int},
            pk="game_id", not_null={"last_seq", "head"})
        db["games"].create_index(["game_uuid"], unique=True)
        db["games"].create_index(["command_id"], unique=True)
        db["games"].create_index(["ended_seq", "game_id"])
        for trigger in TRIGGERS:
            self.conn.execute(trigger)

    def _migrate(self) -> None:
        """Format 1 to 2 in place: no event row is rewritten (a column added with a default
        is a change of the schema only), the games table is filled from the log once."""
        import sqlite_utils

        db = sqlite_utils.Database(self.conn, execute_plugins=False)
        conn = self.conn
        db["events"].add_column("chain_version", int, not_null_default=1)
        self._create_format2(db)
        ended = _ended_seqs(conn)
        games = [(g,) for (g,) in conn.execute("SELECT DISTINCT game_id FROM events")]
        for (g,) in games:
            conn.execute(f"INSERT INTO games ({self.GAME_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?)",
                         _game_row_format1(conn, g, ended.get(g)))
        conn.executemany("INSERT INTO meta (key, value) VALUES (?, ?)",
                         [("application", "banco"), ("format", str(FORMAT)),
                          ("migrated_from", "1"), ("migrated_at", now_text()),
                          ("migrated_games", str(len(games)))])
        self._inspect()

    @_guarded(writing=True)
    def append(self, game_id: int | None, expected_seq: int, events: list[NewEvent], *,
               recorded_at: str, actor: str, command_id: str,
               snapshot: Callable[[list[dict]], tuple[str, str] | None] | None = None
               ) -> Appended:
        """Append one command's events atomically, or none.

        `game_id` None starts a new game: its number is the next free one, taken inside the
        write lock (several processes can start games at once).  A `command_id` already
        recorded (in this game; for a new game, as the start of any game) returns the rows it
        recorded then, marked `replayed`, and writes nothing.  If the game's last seq is not
        `expected_seq`, someone else wrote first: ConflictError, nothing written.
        `snapshot(rows written)`: (format, text) of the table after them, or None; kept in the
        same transaction, at the last row's seq and hash.
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
                "SELECT seq, hash FROM events WHERE game_id=? ORDER BY seq DESC LIMIT 1",
                (game_id,)).fetchone()
            last_seq, prev = (last if last else (0, GENESIS))
            if last_seq != expected_seq:
                raise ConflictError(
                    "game {game} changed while this command was being decided (now at event "
                    "{last_seq}, expected {expected_seq}); nothing was recorded: look at the "
                    "table again and retry", game=game_id, last_seq=last_seq,
                    expected_seq=expected_seq)
            written = []
            for i, ev in enumerate(events, start=1):
                row = {"game_id": game_id, "seq": last_seq + i, "type": ev.type, "data": ev.data,
                       "recorded_at": recorded_at, "actor": actor, "command_id": command_id,
                       "schema_version": ev.schema_version, "chain_version": CHAIN_VERSION}
                row["prev_hash"] = prev
                row["hash"] = prev = row_hash(prev, row)
                conn.execute(INSERT, (game_id, row["seq"], ev.type, canonical_json(ev.data),
                                      recorded_at, actor, command_id, ev.schema_version,
                                      row["prev_hash"], row["hash"], CHAIN_VERSION))
                written.append(row)
            self._index_game(game_id, last_seq, written, command_id)
            kept = snapshot(written) if snapshot is not None else None
            if kept is not None:
                _put_snapshot(conn, game_id, written[-1]["seq"], written[-1]["hash"], *kept,
                              made_at=recorded_at)
            conn.execute("COMMIT")
            return Appended(written, game_id)
        except BaseException:
            _rollback(conn)
            self._after_rollback()
            raise

    def _after_rollback(self) -> None:
        """A rolled-back first write also took back the tables it created (or the migration):
        look at the file again."""
        try:
            self._inspect()
        except (sqlite3.Error, DatabaseError):
            pass

    def _replay(self, game_id: int, command_id: str) -> Appended:
        rows = self.conn.execute(
            f"SELECT {COLUMNS} FROM events WHERE game_id=? AND command_id=? ORDER BY +seq",
            (game_id, command_id)).fetchall()
        self.conn.execute("COMMIT")  # nothing new; a migration made on the way is kept
        return Appended([event_dict(r) for r in rows], game_id, replayed=True)

    def _index_game(self, game_id: int, last_seq: int, written: list[dict],
                    command_id: str) -> None:
        """Keep the game's row in `games` in step with the rows just written."""
        conn = self.conn
        if last_seq == 0:
            started = next((r["data"] for r in written if r["type"] == STARTED), {})
            uid = started.get("game_uuid")
            if uid is not None:
                taken = conn.execute("SELECT game_id FROM games WHERE game_uuid=?",
                                     (uid,)).fetchone()
                if taken:
                    raise UsageError("game {game} in this database already has the identity "
                                     "{uid}; nothing was recorded", game=taken[0], uid=uid)
            rules = started.get("rules")
            conn.execute(
                f"INSERT INTO games ({self.GAME_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?)",
                (game_id, uid, command_id, written[0]["recorded_at"],
                 json.dumps(started.get("players", []), ensure_ascii=False),
                 rules.get("name") if isinstance(rules, dict) else None,
                 started.get("edition"), 0, GENESIS, None))
        ended = conn.execute("SELECT ended_seq FROM games WHERE game_id=?",
                             (game_id,)).fetchone()[0]
        for r in written:
            if r["type"] == ENDED:
                ended = r["seq"]
            elif r["type"] == RETRACTED and ended in r["data"].get("seqs", ()):
                ended = None
        conn.execute("UPDATE games SET last_seq=?, head=?, ended_seq=? WHERE game_id=?",
                     (written[-1]["seq"], written[-1]["hash"], ended, game_id))

    # --- games that came from another database ------------------------------------------------

    # A game's version-1 rows hash the game number they were first written under.  Imported
    # under another number, the number they hash is kept in `meta` (one row per such game,
    # read with the rest of meta when the file is opened, so a read costs nothing more).
    CHAIN_GAME_KEY = "chain_game_id:{}"
    IMPORTED_KEY = "imported:{}"

    def chain_game_id(self, game_id: int) -> int | None:
        """The game number this game's version-1 rows were hashed with, when it is not its
        own (an imported game); None otherwise."""
        value = self.meta.get(self.CHAIN_GAME_KEY.format(game_id))
        return int(value) if value is not None else None

    def imported(self, game_id: int) -> dict | None:
        """Where and when this game was imported from (at, from, events, head), or None for a
        game played here."""
        value = self.meta.get(self.IMPORTED_KEY.format(game_id))
        return json.loads(value) if value is not None else None

    def _with_chain_ids(self, game_id: int, rows: list[dict]) -> list[dict]:
        hashed_as = self.chain_game_id(game_id)
        if hashed_as is not None:
            for row in rows:
                if row["chain_version"] == 1:
                    row["chain_game_id"] = hashed_as
        return rows

    @_guarded(writing=False)
    def game_with_uuid(self, uuid: str) -> int | None:
        if not self._view() or self.format < 2:
            return None
        row = self.conn.execute("SELECT game_id FROM games WHERE game_uuid=?", (uuid,)).fetchone()
        return row[0] if row else None

    @_guarded(writing=False)
    def game_starting_with(self, first_hash: str) -> int | None:
        """The game whose first row has this hash: the identity of a game from before game
        uuids (a scan of every game's first row; only such imports ask)."""
        if not self._view():
            return None
        row = self.conn.execute("SELECT game_id FROM events WHERE seq=1 AND hash=?",
                                (first_hash,)).fetchone()
        return row[0] if row else None

    def raw_rows(self, game_id: int) -> RawRows:
        """A game's rows as stored, for the audit: streamed in seq order, in bounded memory."""
        self._view()
        return RawRows(self, game_id)

    def rows_view(self, game_id: int) -> GameRows:
        """A game's rows as a sequence read from the file on demand, in bounded memory: for
        checking a game too long to hold (an import of a million events)."""
        count = self.conn.execute("SELECT COUNT(*) FROM events WHERE game_id=?",
                                  (game_id,)).fetchone()[0] if self._view() else 0
        return GameRows(self, game_id, 0, count)

    def begin_import(self) -> GameImport:
        """Start writing a whole game in one transaction: GameImport.insert in batches, then
        finish (commit) or abort (nothing written).  The write lock is held throughout."""
        self._begin_write()
        try:
            game_id = (self.conn.execute("SELECT MAX(game_id) FROM games").fetchone()[0] or 0) + 1
        except BaseException:
            _rollback(self.conn)
            self._after_rollback()
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
            _rollback(conn)
            self._after_rollback()
            raise self.explain(exc, True) from None
        except BaseException:
            _rollback(conn)
            self._after_rollback()
            raise

    @_guarded(writing=False)
    def read_table(self, sql: str, args: tuple = ()) -> list[tuple]:
        """Rows of a query on a table kept beside the games' ([] when it does not exist yet)."""
        if not self._view():
            return []
        try:
            return self.conn.execute(sql, args).fetchall()
        except sqlite3.OperationalError as exc:
            if "no such table" in str(exc):
                return []
            raise

    # --- copying ------------------------------------------------------------------------------

    @_guarded(writing=False)
    def backup(self, target: str) -> None:
        """A consistent copy of the whole file into `target` (which must not exist yet), with
        SQLite's online backup: what is still in the WAL is included, and writers may go on."""
        if not self._view():
            raise missing_database(self.path)
        dest = sqlite3.connect(target, isolation_level=None)
        try:
            self.conn.backup(dest)
        finally:
            dest.close()


class GameRows(Sequence):
    """A game's rows (as `read` gives them), read from the file as they are used: iteration
    streams them in chunks, an index or a slice reads only what it names.  Rows of a game
    are numbered 1, 2, 3 ... with no gap (an import checks it before reading it this way)."""

    CHUNK = 2000

    def __init__(self, store: SQLiteStore, game_id: int, start: int, stop: int,
                 hashed_as: int | None = None):
        self.store, self.game_id, self.start, self.stop = store, game_id, start, stop
        # the number version-1 rows hash, when not the game's own (see chain_game_id)
        self.hashed_as = store.chain_game_id(game_id) if hashed_as is None else hashed_as

    def __len__(self) -> int:
        return max(0, self.stop - self.start)

    def __bool__(self) -> bool:
        return len(self) > 0

    def _rows(self, first: int, last: int) -> list[dict]:
        s = self.store
        raw = s.conn.execute(f"SELECT {s._cols} FROM events WHERE game_id=? AND seq>=? AND "
                             "seq<=? ORDER BY seq", (self.game_id, first, last)).fetchall()
        rows = [event_dict(r) for r in raw]
        if self.hashed_as is not None:
            for row in rows:
                if row["chain_version"] == 1:
                    row["chain_game_id"] = self.hashed_as
        return rows

    def __iter__(self):
        for first in range(self.start + 1, self.stop + 1, self.CHUNK):
            yield from self._rows(first, min(first + self.CHUNK - 1, self.stop))

    def __getitem__(self, index):
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            if step != 1:
                raise ValueError("GameRows slices have no step")
            return GameRows(self.store, self.game_id, self.start + start,
                            self.start + max(start, stop), self.hashed_as)
        n = len(self)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError(index)
        seq = self.start + index + 1
        return self._rows(seq, seq)[0]


class RawRows:
    """A game's rows as the file holds them, tuples in COLUMNS order (the data as its JSON
    text): iterating streams them in seq order through one cursor; `fetch` reads a range again
    by the primary key.  `hashed_as`: the game number its version-1 rows hash, when not its
    own (an imported game).  Nothing is parsed or checked here: that is the audit's work."""

    def __init__(self, store: SQLiteStore, game_id: int, hashed_as: int | None = None):
        self.store, self.game_id = store, game_id
        self.hashed_as = store.chain_game_id(game_id) if hashed_as is None else hashed_as

    def __iter__(self) -> Iterator[tuple]:
        s = self.store
        if s.conn is None or s.format == 0:
            return iter(())
        try:
            cursor = s.conn.execute(f"SELECT {s._cols} FROM events WHERE game_id=? ORDER BY seq",
                                    (self.game_id,))
        except sqlite3.Error as exc:
            raise s.explain(exc, writing=False) from None
        return self._guarded(cursor)

    def _guarded(self, cursor) -> Iterator[tuple]:
        try:
            while chunk := cursor.fetchmany(512):
                yield from chunk
        except sqlite3.Error as exc:
            raise self.store.explain(exc, writing=False) from None

    def fetch(self, first: int, last: int) -> list[tuple]:
        s = self.store
        try:
            return s.conn.execute(f"SELECT {s._cols} FROM events WHERE game_id=? AND seq>=? AND "
                                  "seq<=? ORDER BY seq", (self.game_id, first, last)).fetchall()
        except sqlite3.Error as exc:
            raise s.explain(exc, writing=False) from None


def stored_row(game_id: int, row: tuple) -> tuple:
    """A row as GameImport.insert takes it (seq, type, data text, recorded_at, actor,
    command_id, schema_version, prev_hash, hash, chain_version) as RawRows reads it back, in
    COLUMNS order: the game's number before it, each value as it went in (the import gives
    ints to the INTEGER columns, str or None to the TEXT ones, which SQLite returns as they
    were).  The import's audit in a process of its own (projections/exchange/import_audit.py) audits
    the rows through this very function, so they cannot differ from those written."""
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

    TRIGGER = "events_format_2"

    def __init__(self, store: SQLiteStore, game_id: int):
        self.store, self.game_id = store, game_id
        self.conn = store.conn
        self.inserted = 0
        self._lifted = False  # the trigger dropped in this transaction
        self._restore = False  # ... and created again before the commit
        self.done = False

    def insert(self, rows: list[tuple]) -> None:
        """Rows as (seq, type, data text, recorded_at, actor, command_id, schema_version,
        prev_hash, hash, chain_version)."""
        g = self.game_id
        try:
            if not self._lifted:
                self._restore = self.conn.execute(
                    "SELECT 1 FROM sqlite_master WHERE type='trigger' AND name=?",
                    (self.TRIGGER,)).fetchone() is not None
                self.conn.execute(f"DROP TRIGGER IF EXISTS {self.TRIGGER}")
                self._lifted = True
            if not self._restore and any(r[9] < 2 for r in rows):
                self._restore = True  # as before: a file that gets version-1 rows gets the guard
            self.conn.executemany(INSERT, [stored_row(g, r) for r in rows])
        except sqlite3.Error as exc:
            self.abort()
            raise self.store.explain(exc, writing=True) from None
        self.inserted += len(rows)

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
                _put_snapshot(conn, self.game_id, seq, head, fmt, text, made_at)
            if self._restore:
                conn.execute(TRIGGERS[2])
            conn.execute(f"INSERT INTO games ({SQLiteStore.GAME_COLUMNS}) VALUES "
                         "(?,?,?,?,?,?,?,?,?,?)",
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
        self.store._inspect()  # meta now holds this game's chain id, if it has one

    def following(self) -> GameImport:
        """The next game of an archive, in this same transaction (after `finish(commit=False)`)."""
        try:
            last = self.conn.execute("SELECT MAX(game_id) FROM games").fetchone()[0] or 0
        except sqlite3.Error as exc:
            self.abort()
            raise self.store.explain(exc, writing=True) from None
        return GameImport(self.store, last + 1)

    def commit(self) -> None:
        """Commit every game of the archive written in this transaction."""
        try:
            self.conn.execute("COMMIT")
        except sqlite3.Error as exc:
            self.abort()
            raise self.store.explain(exc, writing=True) from None
        self.done = True
        self.store._inspect()

    def abort(self) -> None:
        if not self.done:
            _rollback(self.conn)
            self.store._after_rollback()
            self.done = True


def _put_snapshot(conn: sqlite3.Connection, game_id: int, seq: int, head: str, fmt: str,
                  text: str, made_at: str | None = None) -> None:
    """Inside a write transaction: keep a snapshot, and only the game's newest few."""
    conn.execute(SNAPSHOTS_TABLE)
    conn.execute("INSERT OR REPLACE INTO snapshots (game_id, seq, head, format, state, made_at) "
                 "VALUES (?,?,?,?,?,?)", (game_id, seq, head, fmt, text, made_at or now_text()))
    conn.execute("DELETE FROM snapshots WHERE game_id=? AND seq NOT IN (SELECT seq FROM "
                 "snapshots WHERE game_id=? ORDER BY seq DESC LIMIT ?)",
                 (game_id, game_id, KEEP_SNAPSHOTS))


def _writable(path: str) -> bool:
    # root may write anything: a file whose owner took away every write bit is read-only to
    # banco all the same (an archived game).
    import stat

    return os.access(path, os.W_OK) and bool(os.stat(path).st_mode & (stat.S_IWUSR |
                                                                     stat.S_IWGRP | stat.S_IWOTH))


def _rollback(conn: sqlite3.Connection) -> None:
    if conn.in_transaction:
        try:
            conn.execute("ROLLBACK")
        except sqlite3.Error:
            pass  # the transaction is gone with the error that is already on its way up


def _ended_seqs(conn: sqlite3.Connection) -> dict[int, int]:
    """Per game, the seq of its GameEnded unless a retraction took it back (type index)."""
    ended = dict(conn.execute("SELECT game_id, seq FROM events WHERE type=?", (ENDED,)))
    for g, data in conn.execute("SELECT game_id, data FROM events WHERE type=?", (RETRACTED,)):
        if ended.get(g) in json.loads(data).get("seqs", ()):
            del ended[g]
    return ended


def _game_row_format1(conn: sqlite3.Connection, game_id: int, ended: int | None) -> tuple:
    first = conn.execute("SELECT type, data, recorded_at, command_id FROM events WHERE "
                         "game_id=? ORDER BY seq LIMIT 1", (game_id,)).fetchone()
    last = conn.execute("SELECT seq, hash FROM events WHERE game_id=? ORDER BY seq DESC LIMIT 1",
                        (game_id,)).fetchone()
    type_, data, at, cid = first
    d = json.loads(data) if type_ == STARTED else {}
    rules = d.get("rules")
    return (game_id, d.get("game_uuid"), cid, at, json.dumps(d.get("players", []),
                                                             ensure_ascii=False),
            rules.get("name") if isinstance(rules, dict) else None, d.get("edition"),
            last[0], last[1], ended)


def verify_chain(rows: Iterable[dict]) -> tuple[int, str, ChainProblem | None]:
    """Walk a game's rows in seq order: (count, head, first problem or None).

    Catches an edited row (its hash no longer matches), a deleted one (a gap in seq, and the
    next row's prev_hash points at a row that is not there) and a reordering.
    """
    prev = GENESIS
    expected = 1
    count = 0
    for row in rows:
        count += 1
        if row["seq"] != expected:
            return count, prev, ChainProblem(expected, f"event {expected} is missing (next is "
                                                       f"{row['seq']}): a row was deleted")
        if row["prev_hash"] != prev:
            return count, prev, ChainProblem(row["seq"], "its prev_hash does not match the hash "
                                                         "of the event before it")
        try:
            recomputed = row_hash(prev, row)
        except (TypeError, UnknownChainVersion) as exc:  # banco never writes this
            return count, prev, ChainProblem(row["seq"], f"its content is not banco's: {exc}")
        if recomputed != row["hash"]:
            return count, prev, ChainProblem(row["seq"], "its content does not match its hash: "
                                                         "the row was edited")
        prev = row["hash"]
        expected += 1
    return count, prev, None
