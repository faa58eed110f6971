"""Which of a game's snapshots a store keeps: the newest few, and one for every stretch of the
game behind them.

The newest NEWEST stay because an undo may reach behind the newest.  The first snapshot taken in
each stretch of EVERY events stays too, so that the table at a moment long ago (`state --at`,
`replay --from`, a ruling) is folded from at most about EVERY + Book.SNAPSHOT_EVERY events
rather than from the game's first (issue 21: `state --at SEQ` within 1.2x of `state`).  EVERY
is Book.SNAPSHOT_EVERY: a command takes one that far from the last or more, so each is kept
and a moment is folded from at most about 500 events (with 1,000 it was up to about 1,000).
At about 2.3 KB a snapshot that is some 1.4 MB for a 300,000-event game.  Both stores prune
with `prune_sql`; the audit, which hands an import the snapshots it checked, keeps the same ones
with `KeptSnapshots`, so an imported game has those a game recorded here would have.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator

NEWEST = 3
EVERY = 500


def prune_sql(table: str, mark: str) -> str:
    """The DELETE that leaves a game's newest NEWEST snapshots and the first of each stretch of
    EVERY events: parameters (game, game, NEWEST, game, EVERY), `mark` the driver's
    placeholder (`?` or `%s`).  Seqs are integers, so `seq / EVERY` divides to an integer in
    SQLite and PostgreSQL alike."""
    return (f"DELETE FROM {table} WHERE game_id={mark} AND seq NOT IN (SELECT seq FROM {table} "
            f"WHERE game_id={mark} ORDER BY seq DESC LIMIT {mark}) AND seq NOT IN (SELECT "
            f"MIN(seq) FROM {table} WHERE game_id={mark} GROUP BY seq / {mark})")


def prune_args(game_id: int) -> tuple[int, int, int, int, int]:
    return (game_id, game_id, NEWEST, game_id, EVERY)


class KeptSnapshots:
    """Snapshots as (seq, ...) tuples appended in increasing seq, keeping those `prune_sql`
    keeps; iterated oldest first."""

    def __init__(self) -> None:
        self.newest: deque[tuple] = deque(maxlen=NEWEST)
        self.first: dict[int, tuple] = {}  # the first of each stretch of EVERY events

    def append(self, snapshot: tuple) -> None:
        self.newest.append(snapshot)
        self.first.setdefault(snapshot[0] // EVERY, snapshot)

    def __iter__(self) -> Iterator[tuple]:
        kept = {s[0]: s for s in (*self.first.values(), *self.newest)}
        return iter([kept[seq] for seq in sorted(kept)])

    def __len__(self) -> int:
        return len({s[0] for s in (*self.first.values(), *self.newest)})
