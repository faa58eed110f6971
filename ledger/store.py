"""The append-only event store.  Persistence only: it knows rows, not Monopoly.

The table is created through sqlite-utils; reads and appends use the sqlite3 connection directly
so that a banker's command does not pay for importing sqlite-utils (DESIGN.md budgets).
Appends run in BEGIN IMMEDIATE, not sqlite-utils' deferred `atomic()`, which fails under two
writers; the last seq is checked inside the write lock (optimistic concurrency).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from typing import NamedTuple

from .canonical import GENESIS, canonical_json, row_hash
from .errors import ConflictError


class NewEvent(NamedTuple):
    type: str
    data: dict
    schema_version: int = 1


class ChainProblem(NamedTuple):
    seq: int
    problem: str


def event_dict(row: tuple) -> dict:
    game_id, seq, type_, data, recorded_at, actor, command_id, version, prev, hsh = row
    return {"game_id": game_id, "seq": seq, "type": type_, "data": json.loads(data),
            "recorded_at": recorded_at, "actor": actor, "command_id": command_id,
            "schema_version": version, "prev_hash": prev, "hash": hsh}


COLUMNS = ("game_id, seq, type, data, recorded_at, actor, command_id, schema_version, "
           "prev_hash, hash")

TRIGGERS = (
    "CREATE TRIGGER IF NOT EXISTS events_no_update BEFORE UPDATE ON events "
    "BEGIN SELECT RAISE(ABORT, 'events are append-only: UPDATE refused'); END",
    "CREATE TRIGGER IF NOT EXISTS events_no_delete BEFORE DELETE ON events "
    "BEGIN SELECT RAISE(ABORT, 'events are append-only: DELETE refused'); END",
)


class SQLiteStore:
    def __init__(self, path: str, timeout: float = 30.0):
        self.path = path
        self.conn = sqlite3.connect(path, timeout=timeout, isolation_level=None)
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA synchronous=FULL")
        self.conn.execute(f"PRAGMA busy_timeout={int(timeout * 1000)}")
        if not self._has_events():
            self._create()

    def close(self) -> None:
        self.conn.close()

    def _has_events(self) -> bool:
        return self.conn.execute(
            "SELECT 1 FROM sqlite_master WHERE type='table' AND name='events'").fetchone() is not None

    def _create(self) -> None:
        import sqlite_utils  # only the first command on a new database pays for this import

        db = sqlite_utils.Database(self.conn)
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            if not self._has_events():
                db["events"].create(
                    {"game_id": int, "seq": int, "type": str, "data": str, "recorded_at": str,
                     "actor": str, "command_id": str, "schema_version": int, "prev_hash": str,
                     "hash": str},
                    pk=("game_id", "seq"), not_null={"type", "data", "recorded_at", "hash",
                                                     "prev_hash", "schema_version"})
                db["events"].create_index(["game_id", "command_id"])
                db["events"].create_index(["type"])
                for trigger in TRIGGERS:
                    self.conn.execute(trigger)
            self.conn.execute("COMMIT")
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise

    # --- reading ----------------------------------------------------------------------------

    def read(self, game_id: int, after: int = 0, upto: int | None = None) -> list[dict]:
        sql = f"SELECT {COLUMNS} FROM events WHERE game_id=? AND seq>?"
        args: list = [game_id, after]
        if upto is not None:
            sql += " AND seq<=?"
            args.append(upto)
        rows = self.conn.execute(sql + " ORDER BY seq", args).fetchall()
        return [event_dict(r) for r in rows]

    def iter_raw(self, game_id: int) -> Iterable[tuple]:
        return self.conn.execute(f"SELECT {COLUMNS} FROM events WHERE game_id=? ORDER BY seq",
                                 (game_id,))

    def last_seq(self, game_id: int) -> int:
        row = self.conn.execute("SELECT MAX(seq) FROM events WHERE game_id=?",
                                (game_id,)).fetchone()
        return row[0] or 0

    def head(self, game_id: int) -> str:
        row = self.conn.execute("SELECT hash FROM events WHERE game_id=? ORDER BY seq DESC LIMIT 1",
                                (game_id,)).fetchone()
        return row[0] if row else GENESIS

    def games(self) -> list[dict]:
        rows = self.conn.execute(
            "SELECT game_id, data, recorded_at FROM events WHERE seq=1 ORDER BY game_id").fetchall()
        ended = {r[0] for r in self.conn.execute(
            "SELECT game_id FROM events WHERE type='GameEnded'")}
        return [{"game_id": g, "started_at": at, "ended": g in ended, "data": json.loads(d)}
                for g, d, at in rows]

    def next_game_id(self) -> int:
        row = self.conn.execute("SELECT MAX(game_id) FROM events").fetchone()
        return (row[0] or 0) + 1

    def command_events(self, game_id: int, command_id: str) -> list[dict]:
        rows = self.conn.execute(
            f"SELECT {COLUMNS} FROM events WHERE game_id=? AND command_id=? ORDER BY seq",
            (game_id, command_id)).fetchall()
        return [event_dict(r) for r in rows]

    # --- writing ----------------------------------------------------------------------------

    def append(self, game_id: int, expected_seq: int, events: list[NewEvent], *,
               recorded_at: str, actor: str, command_id: str) -> list[dict]:
        """Append one command's events atomically, or none.

        A command_id already in the game returns the events it recorded then (idempotent
        retry).  If the game's last seq is not `expected_seq`, someone else wrote first:
        ConflictError, nothing written.
        """
        conn = self.conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            done = conn.execute(
                f"SELECT {COLUMNS} FROM events WHERE game_id=? AND command_id=? ORDER BY seq",
                (game_id, command_id)).fetchall()
            if done:
                conn.execute("ROLLBACK")
                return [event_dict(r) for r in done]
            last = conn.execute(
                "SELECT seq, hash FROM events WHERE game_id=? ORDER BY seq DESC LIMIT 1",
                (game_id,)).fetchone()
            last_seq, prev = (last if last else (0, GENESIS))
            if last_seq != expected_seq:
                raise ConflictError(
                    f"game {game_id} changed while this command was being decided (now at event "
                    f"{last_seq}, expected {expected_seq}); nothing was recorded: look at the "
                    f"table again and retry")
            written = []
            for i, ev in enumerate(events, start=1):
                row = {"game_id": game_id, "seq": last_seq + i, "type": ev.type, "data": ev.data,
                       "recorded_at": recorded_at, "actor": actor, "command_id": command_id,
                       "schema_version": ev.schema_version}
                row["prev_hash"] = prev
                row["hash"] = prev = row_hash(prev, row)
                conn.execute(
                    f"INSERT INTO events ({COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?)",
                    (game_id, row["seq"], ev.type, canonical_json(ev.data), recorded_at, actor,
                     command_id, ev.schema_version, row["prev_hash"], row["hash"]))
                written.append(row)
            conn.execute("COMMIT")
            return written
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise


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
        except TypeError as exc:  # banco never writes a float: someone else wrote this row
            return count, prev, ChainProblem(row["seq"], f"its content is not banco's: {exc}")
        if recomputed != row["hash"]:
            return count, prev, ChainProblem(row["seq"], "its content does not match its hash: "
                                                         "the row was edited")
        prev = row["hash"]
        expected += 1
    return count, prev, None
