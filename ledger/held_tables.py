"""The table a book holds for a game between commands, and what an append does to it.

A pure part of the book (ledger/book.py): the fold from a table rather than from GameStarted,
the snapshot text of a table with the digest the chain records of it, and the table that
follows the rows an append has just written (folded as written, not read back).
"""

from __future__ import annotations

from typing import NamedTuple

from banco.ledger.records.bounds import Bounds
from banco.ledger.store.canonical import GENESIS
from banco.ledger.store.findings import end_elsewhere
from banco.ledger.store.protocol import Appended, ChainProblem, EventStore
from banco.ledger.store.reading import hash_at
from banco.ledger.table.state import State, fold_rows, retracted_seqs


class HeldTable(NamedTuple):
    """A game's table as the book holds it: the state, the hash of its last event, and the
    seq of the snapshot it was read from or last wrote (0: none)."""
    state: State
    head: str | None  # None: a snapshot made inside an append, before its rows were hashed
    snap_seq: int


def fold_onto(state: State, rows: list[dict], gone: set[int] | frozenset = frozenset(), *,
              decided: bool = False) -> State:
    """The table after `rows` (in seq order, following `state`), the seqs in `gone` skipped:
    a fold that starts from a table instead of GameStarted (pure).  `decided`: rows this
    process has just decided and appended itself (decide's own facts, never read back from
    the log), whose fields' ranges need no second look: a quarter of a fold-heavy run."""
    state = fold_rows(state, rows, gone,
                      None if decided else Bounds.of(state.seats, state.edition.decks))
    return state._replace(seq=rows[-1]["seq"]) if rows else state


def snapshot_of(state: State) -> tuple[str, str, str] | None:
    """(format, text, the digest the chain records of it) of the table, or None when it holds
    a value the snapshot format does not know (a class added to the table and not to
    ledger/table/snapshot_codec.py): the command goes on without a snapshot, it only folds
    more."""
    from banco.ledger.store.canonical import table_digest
    from banco.ledger.table.snapshot_codec import SnapshotError, canonical, encode, shape

    try:
        return shape(), encode(state), table_digest(shape(), canonical(state))
    except SnapshotError:
        return None


def after_append(table: HeldTable, expected: int, appended: Appended) -> HeldTable | None:
    """The table after an append decided on `table` (its last seq `expected`): None when it
    must be read again.  A snapshot made in the append left its head unset (its rows were
    hashed after): it is set now.  Otherwise the rows written are folded onto the table they
    were decided on; an undo, which takes back what the table holds, is read back as before
    (from a mark), and a replayed command wrote nothing."""
    if appended.replayed or not appended:
        return None if table.head is None else table
    if table.head is None:
        return table._replace(head=appended[-1]["hash"])
    if table.state.seq != expected:
        return table
    gone = retracted_seqs(appended)
    if gone and min(gone) <= expected:
        return table
    return table._replace(state=fold_onto(table.state, appended, gone, decided=True),
                          head=appended[-1]["hash"])


def end_not_recorded(info: dict | None, table: HeldTable) -> ChainProblem | None:
    """Where the log read ends elsewhere than the games table recorded with the last append
    (`info`: store.game's row, read before the log): its tail rewritten and re-chained, or
    cut.  The chain alone cannot tell (a trial's re-chained events 10-11 showed forged cash
    with no warning); the write refuses it in the append itself (schema.py index_game), in the same words."""
    if not info or not info.get("head") or table.head is None:
        return None  # a first format's games, from the log itself; a head not yet hashed
    if (info["events"] or 0) < table.state.seq:
        return None  # `info` read first: commands appended since (each append checks its own)
    if (info["events"], info["head"]) == (table.state.seq, table.head):
        return None
    return end_elsewhere(info["events"] or 0, info["head"], table.state.seq, table.head)


def still_chained(store: EventStore, game_id: int, table: HeldTable | None,
                  checked: dict[int, int]) -> ChainProblem | None:
    """The first break, if any, in the rows a table held between commands was folded from
    (from its snapshot's row, or the game's start, to its last event), read again before a
    write: a process that keeps its table (the shell, `serve`) otherwise never sees a row
    edited in place after it read it, and would append onto a chain a fresh `banco` refuses
    (issue 32's note).  The same span a cold write checks, so the same refusal.  `checked`:
    game -> the store's data_version when its rows were last found sound; while no other
    connection has written since, they are not read again (a shell's usual command)."""
    if table is None:  # read by this command: checked as it was read
        return None
    version = store.data_version()  # before the reading: a write during it is seen next time
    if version is not None and checked.get(game_id) == version:
        return None
    after = max(table.snap_seq - 1, 0)
    prev = (hash_at(store, game_id, after) or "") if after else GENESIS
    problem = (store.read(game_id, after, limit=table.state.seq - after, prev_hash=prev).problem
               if table.state.seq > after else None)
    if problem is None and version is not None:
        checked[game_id] = version
    return problem
