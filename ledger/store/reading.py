"""What both stores' `read` share (the SELECT and the rows it gives), and the readings made of
`read` itself rather than asked of each store: a game's first fact, its rows newest first, its
last command, the hash of one row, the seqs its undos took back, its times, its rows as a
sequence read on demand.  Each store keeps its own connection and marks; nothing here knows
which."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

from banco.ledger.base.errors import DatabaseError
from banco.ledger.store.chain import check_rows
from banco.ledger.store.protocol import Rows
from banco.ledger.store.schema import FORMAT1_COLUMNS, RETRACTED, STARTED, event_dict

if TYPE_CHECKING:
    from banco.ledger.store.protocol import EventStore


FEW_A_GAME = frozenset({STARTED, "GameEnded", RETRACTED, "SealRecorded", "TimeRanOut"})


def select(columns: str, events: str, mark: str, any_of: str, game_id: int, after: int,
           upto: int | None, types: Iterable[str] | None, limit: int | None,
           checked: bool, only: Iterable[str] | None = None) -> tuple[str, list]:
    """`read`'s statement and its arguments.  `any_of`: how the engine says "type is one of
    these" with the marks it is given ("IN ({marks})", "= ANY({mark})").  `only`: read's
    `columns`, in place of the store's whole row's."""
    if types is not None and checked:  # a chain is checked over all its rows, never a few
        raise ValueError("read: a chain is checked over every row, not rows of some types")
    if only is not None:
        only = list(only)
        if checked or not only or not set(only) <= set(FORMAT1_COLUMNS):
            raise ValueError(f"read: columns {only} are not some of {FORMAT1_COLUMNS}, or "
                             "the chain is to be checked (over whole rows)")
        columns = ", ".join(only)
    # A type a game holds a few of (its start, its end, its undos, its seals): the seq range
    # made no index's (`+seq`, SQLite's), so that the type's index or the game's is taken,
    # not the key's range: SQLite walked the whole game for them (57 ms of every `state` and
    # write on a 300,002-event game through ended_in_log, against 0.03 ms; in a file of
    # 1,000 games it takes the game's index, 0.3-1.9 ms); a type of many rows keeps the key
    few = mark == "?" and types is not None and set(types) <= FEW_A_GAME
    seq = "+seq" if few else "seq"
    sql = f"SELECT {columns} FROM {events} WHERE game_id={mark} AND {seq}>{mark}"
    args: list = [game_id, after]
    if upto is not None:
        sql += f" AND {seq}<={mark}"
        args.append(upto)
    if types is not None:
        types = list(types)
        if mark == "?":
            sql += f" AND type {any_of.format(marks=','.join('?' * len(types)))}"
            args += types
        else:
            sql += f" AND type {any_of.format(marks=mark)}"
            args.append(types)
        if limit is None:
            # `+seq` (SQLite): sorted after the type index's lookup, else SQLite walks the
            # whole game in seq order to skip the sort (0.5 s for a 300,000-event game's 514
            # undos; 1 ms by the index); PostgreSQL ignores the sign of a column
            return sql + (" ORDER BY +seq" if mark == "?" else " ORDER BY seq"), args
    if limit is not None:
        return sql + f" ORDER BY seq LIMIT {mark}", [*args, limit]
    return sql + " ORDER BY seq", args


def rows_of(raw: Iterable[tuple], game_id: int, hashed_as: int | None, after: int,
            prev_hash: str | None) -> Rows:
    """`read`'s rows from the rows as stored: checked against the chain from `prev_hash`
    when it is given (its first break in `problem`), each version-1 row of a game imported
    under another number told the number it hashes (`hashed_as`)."""
    if prev_hash is not None:
        rows, problem = check_rows(raw, after, prev_hash, hashed_as)
        return Rows(rows, problem)
    rows = [event_dict(r) for r in raw]
    if hashed_as is not None:
        for row in rows:
            if row["chain_version"] == 1:
                row["chain_game_id"] = hashed_as
    return Rows(rows)


def game_start(store: EventStore, game_id: int) -> dict | None:
    """The game's GameStarted row (its first fact: within its first rows, by the key)."""
    found = store.read(game_id, 0, 4, types=(STARTED,), limit=1)
    return found[0] if found else None


def read_backwards(store: EventStore, game_id: int, before: int | None = None,
                   chunk: int = 8) -> Iterator[dict]:
    """A game's rows newest first, from the one before seq `before` (default: the last),
    read a chunk at a time as they are used: an undo looks only at the tail."""
    last = before - 1 if before is not None else store.last_seq(game_id)
    while last >= 1:
        first = max(1, last - chunk + 1)
        yield from reversed(store.read(game_id, first - 1, last))
        last = first - 1
        chunk = min(chunk * 4, 4096)


def last_command(store: EventStore, game_id: int) -> list[dict]:
    """The rows of the game's last command (by the key and the command index, however long
    the game)."""
    last = store.last_seq(game_id)
    tail = store.read(game_id, last - 1, last) if last else []
    return store.command_events(game_id, tail[0]["command_id"]) if tail else []


def hash_at(store: EventStore, game_id: int, seq: int) -> str | None:
    """The hash of the game's row `seq`, None when there is none (by the key)."""
    found = store.read(game_id, seq - 1, seq, columns=("hash",))
    return found[0][0] if found else None


def retracted_seqs(store: EventStore, game_id: int, upto: int | None = None) -> set[int]:
    """Every seq a retraction of the game (up to seq `upto`) takes back (by the type index)."""
    out: set[int] = set()
    for (data,) in store.read(game_id, 0, upto, types=(RETRACTED,), columns=("data",)):
        try:
            out.update(json.loads(data).get("seqs", ()))
        except (TypeError, ValueError, AttributeError):
            raise DatabaseError("game {game}: a retraction's data is not banco's: run "
                                "`banco audit`", game=game_id) from None
    return out


def times(store: EventStore, game_id: int, after: int = 0,
          limit: int = 2000) -> list[tuple[int, str]]:
    """(seq, recorded_at) of up to `limit` rows after seq `after`: a time named by a referee
    is found in a long game without reading its events."""
    return store.read(game_id, after, limit=limit, columns=("seq", "recorded_at"))


class RowsView(Sequence):
    """A game's rows start+1..stop (as `read` gives them), read from the store as they are
    used: iteration streams them in chunks, an index or a slice reads only what it names
    (`state --at` in a long game, in bounded memory).  A game's rows are numbered 1, 2,
    3 ... with no gap."""

    CHUNK = 2000

    def __init__(self, store: EventStore, game_id: int, start: int, stop: int):
        self.store, self.game_id, self.start, self.stop = store, game_id, start, stop

    def __len__(self) -> int:
        return max(0, self.stop - self.start)

    def __bool__(self) -> bool:
        return len(self) > 0

    def _rows(self, first: int, last: int) -> list[dict]:
        """The rows first..last (the import's GameRows reads them its own way)."""
        return self.store.read(self.game_id, first - 1, last)

    def _like(self, start: int, stop: int) -> RowsView:
        """The same view over start+1..stop (a slice)."""
        return type(self)(self.store, self.game_id, start, stop)

    def __iter__(self) -> Iterator[dict]:
        for first in range(self.start + 1, self.stop + 1, self.CHUNK):
            yield from self._rows(first, min(first + self.CHUNK - 1, self.stop))

    def __getitem__(self, index):
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            if step != 1:
                raise ValueError(f"{type(self).__name__} slices have no step")
            return self._like(self.start + start, self.start + max(start, stop))
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        seq = self.start + index + 1
        return self._rows(seq, seq)[0]


def rows_view(store: EventStore, game_id: int, count: int | None = None) -> RowsView:
    """The game's rows as a RowsView; `count`, when the caller knows it (its last seq),
    spares asking for it."""
    return RowsView(store, game_id, 0, store.last_seq(game_id) if count is None else count)
