"""A game's log read back a chunk at a time, each chunk checked against the chain as it is
read, and the table as it was at a past event (`state --at`, a ruling's moments): readings in
bounded memory however long the game.  Part of the Book (ledger/book.py), which reads its rows
(`_read`, checked against the chain and the fold's types) and holds its warnings."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from banco.ledger.base.errors import DatabaseError, UsageError
from banco.ledger.held_tables import fold_onto
from banco.ledger.records.upcast import upcast_rows
from banco.ledger.snapshot_check import table_from
from banco.ledger.store import reading
from banco.ledger.store.canonical import GENESIS
from banco.ledger.store.reading import game_start, read_backwards
from banco.ledger.table.state import State, initial_state

if TYPE_CHECKING:
    from banco.ledger.store.protocol import EventStore


class LogReading:
    """The Book's readings of its log by chunks (mixed into ledger/book.py's Book)."""

    store: EventStore  # the Book's, as are the `_read` and `_warn_once` called here

    CHUNK = 2000  # rows read at a time by a fold from the start: bounded memory

    def rows_of_type(self, game_id: int, *types: str, after: int = 0,
                     limit: int | None = None) -> list[dict]:
        """A game's rows of these types after seq `after` (at most `limit`), in seq order, as
        stored (by the type index: an undo's few rows in a long game, a ruling's facts)."""
        return self.store.read(game_id, after, types=types, limit=limit)

    def last_seq(self, game_id: int) -> int:
        """The game's last seq; 0 for no rows (an index lookup)."""
        return self.store.last_seq(game_id)

    def hash_at(self, game_id: int, seq: int) -> str | None:
        """The hash of the game's event `seq`, as stored; None when there is none."""
        return reading.hash_at(self.store, game_id, seq)

    def retracted_seqs(self, game_id: int, upto: int | None = None) -> set[int]:
        """Every seq an undo of the game (up to seq `upto`) took back (by the type index)."""
        return reading.retracted_seqs(self.store, game_id, upto)

    def commands_before(self, game_id: int, seq: int) -> int:
        """How many commands were recorded before event `seq` (one past the last: all)."""
        return self.store.commands_before(game_id, seq)

    def rows_view(self, game_id: int, count: int | None = None) -> reading.RowsView:
        """The game's rows as a sequence read on demand (ledger/store/reading.py); `count`:
        its last seq, when the caller has it."""
        return reading.rows_view(self.store, game_id, count)

    def movements(self, game_id: int, account: str) -> list[tuple] | None:
        """The read model's money movements in or out of `account`; None where the game's
        read model does not reach its last event (then the log is read)."""
        return self.store.movements(game_id, account)

    def mentioning(self, game_id: int, subjects: list[str], after: int = 0,
                   upto: int | None = None) -> Iterator[dict] | None:
        """The rows after < seq <= upto the read model says mention any of `subjects`; None
        as for `movements`."""
        return self.store.mentioning(game_id, subjects, after, upto)

    def game_start(self, game_id: int) -> dict | None:
        """The game's GameStarted row, as stored (its first fact)."""
        return game_start(self.store, game_id)

    def backwards(self, game_id: int, before: int | None = None) -> Iterator[dict]:
        """A game's rows newest first from the one before seq `before` (default: the last),
        as stored, read a chunk at a time as they are used (an undo looks only at the tail)."""
        return read_backwards(self.store, game_id, before)

    def stream(self, game_id: int, first: int = 1, last: int | None = None,
               chunk: int = 4096) -> Iterator[dict]:
        """Events first..last, read a chunk at a time: what a long game's `log` shows, in
        bounded memory.  Not checked against the chain as `events` is (the table a command
        reads is: from its snapshot on)."""
        last = self.store.last_seq(game_id) if last is None else last
        lo = max(first, 1)
        while lo <= last:
            hi = min(last, lo + chunk - 1)
            yield from upcast_rows(self.store.read(game_id, lo - 1, hi))
            lo = hi + 1

    def checked(self, game_id: int, first: int = 1, last: int | None = None) -> Iterator[dict]:
        """Events first..last read a chunk at a time (bounded memory however long the game),
        each checked against the chain as it is read, as `events` does (from the stored hash of
        event first - 1: the whole chain is the audit's): for the referee's and the organiser's
        readings of a long game."""
        if self.store.last_seq(game_id) == 0:
            raise UsageError("no game {game} in this database", game=game_id)
        after = max(first, 1) - 1
        head = GENESIS if after == 0 else self.hash_at(game_id, after)
        for rows in self._chunks(game_id, after, head, last):
            yield from rows

    def _chunks(self, game_id: int, after: int, head: str,
                last: int | None = None) -> Iterator[list[dict]]:
        """The rows after `after` (whose hash is `head`) up to `last` (None: the end), CHUNK at
        a time, each checked against the chain as it is read."""
        while last is None or after < last:
            limit = self.CHUNK if last is None else min(self.CHUNK, last - after)
            rows = self._read(game_id, after, head, limit)
            if not rows:
                return
            yield rows
            after, head = rows[-1]["seq"], rows[-1]["hash"]
            if len(rows) < limit:
                return

    def _table_at(self, game_id: int, at: int, undone: list | None = None) -> State:
        """The table as it was after event `at`."""
        # The table then, folded a chunk at a time from rows checked against the chain as they
        # are read (bounded memory however long the game), the undos up to `at` honoured.
        last = self.store.last_seq(game_id)
        if last == 0:
            raise UsageError("no game {game} in this database", game=game_id)
        if not 1 <= at <= last:
            raise UsageError("game {game} has events 1 to {last}; there is no event {at}",
                             game=game_id, last=last, at=at)
        started = self.game_start(game_id)
        if started is None:
            raise DatabaseError("game {game} cannot be read: its log does not begin with "
                                "GameStarted; run `banco audit`", game=game_id)
        if at < started["seq"]:
            raise UsageError("event {at} records the command that started game {game}; the table "
                             "exists from event {start}", at=at, game=game_id,
                             start=started["seq"])
        # `undone`: the game's EventRetracted rows, when the caller has read them (state --at)
        undone = self.rows_of_type(game_id, "EventRetracted") if undone is None else undone
        undos = [e for e in undone if e["seq"] <= at]
        gone = {s for e in undos for s in e["data"]["seqs"]}
        base = initial_state(game_id, started)
        return (self._state_from_snapshot(game_id, base, at, undos, gone)
                or self._fold_from_start(game_id, base, gone, at)[0])

    def _state_from_snapshot(self, game_id: int, base: State, at: int, undos: list[dict],
                             gone: set[int]) -> State | None:
        """The table after event `at` from the newest snapshot at or before it that no undo up
        to `at` reaches behind, and the rows after it: a moment late in a long game without
        folding it from the start (None when there is no such snapshot)."""
        from banco.ledger.table.snapshot_codec import shape

        for snap in self.store.snapshots(game_id):
            if snap.seq > at or snap.format != shape() or any(
                    e["seq"] > snap.seq and min(e["data"]["seqs"], default=at + 1) <= snap.seq
                    for e in undos):
                continue
            state = table_from(self.store, game_id, snap, base, self._warn_once)
            if state is None:
                continue  # not this log's, or edited: the fold from the start is right
            for rows in self._chunks(game_id, snap.seq, snap.head, at):
                state = fold_onto(state, rows, gone)
            return state._replace(seq=at)
        return None

    def _fold_from_start(self, game_id: int, base: State, gone: set[int] | frozenset,
                         upto: int | None = None) -> tuple[State, int, str]:
        """The table folded from GameStarted (`base`, the table as dealt) a chunk of rows at a
        time, each checked against the chain as it is read, up to seq `upto` (None: the end),
        the seqs in `gone` skipped: (table, last seq read, its hash)."""
        state, after, head = None, 0, GENESIS
        for rows in self._chunks(game_id, 0, GENESIS, upto):
            after, head = rows[-1]["seq"], rows[-1]["hash"]
            if state is None:  # the rows up to GameStarted: the table as dealt
                start = next(i for i, r in enumerate(rows) if r["type"] == "GameStarted")
                state, rows = base, rows[start + 1:]
            if rows:
                state = fold_onto(state, rows, gone)
        return (state or base)._replace(seq=after), after, head
