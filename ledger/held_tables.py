"""The table a book holds for a game between commands, and what an append does to it.

A pure part of the book (ledger/book.py): the fold from a table rather than from GameStarted,
the snapshot text of a table with the digest the chain records of it, and the table that
follows the rows an append has just written (folded as written, not read back).
"""

from __future__ import annotations

from typing import NamedTuple

from banco.ledger.store.protocol import Appended
from banco.ledger.table.state import HANDLERS, State, not_foldable, retracted_seqs


class HeldTable(NamedTuple):
    """A game's table as the book holds it: the state, the hash of its last event, and the
    seq of the snapshot it was read from or last wrote (0: none)."""
    state: State
    head: str | None  # None: a snapshot made inside an append, before its rows were hashed
    snap_seq: int


def fold_onto(state: State, rows: list[dict], gone: set[int] | frozenset = frozenset()) -> State:
    """The table after `rows` (in seq order, following `state`), the seqs in `gone` skipped:
    a fold that starts from a table instead of GameStarted (pure)."""
    handlers = HANDLERS
    for e in rows:
        seq = e["seq"]
        if seq not in gone:
            try:
                state = handlers[e["type"]](state, e["data"], seq)
            except Exception as exc:
                raise not_foldable(state, e, exc) from None
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
    return table._replace(state=fold_onto(table.state, appended, gone),
                          head=appended[-1]["hash"])
