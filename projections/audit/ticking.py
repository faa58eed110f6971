"""The audit's progress (issue 21, "Long work shows its progress"): the rows a pass reads,
telling a callback how many events are done every EVERY rows.  The callback is the CLI's
(cli/progress.py draws the bar); the audit's verdict knows nothing of it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import chain, islice

EVERY = 1000

Tick = Callable[[int], None]  # events done so far, in the whole of the work


class TickingRows:
    """A RawRows (ledger/store/bulk.py) whose iteration calls `tick(base + rows read)` every
    EVERY rows; `fetch`, `hashed_as` and `numbered` as the rows'."""

    def __init__(self, rows, tick: Tick, base: int = 0):
        self.rows, self.tick, self.base = rows, tick, base
        self.hashed_as = getattr(rows, "hashed_as", None)
        self.numbered = getattr(rows, "numbered", True)

    def __iter__(self) -> Iterator[tuple]:
        # EVERY rows at a time, handed out by C (a generator resumed a row was about 1% of
        # `banco audit`, which always gives a callback): the tick comes, as it did a row at a
        # time, once the caller has taken the EVERY-th row and asks for the next
        return chain.from_iterable(self._chunks())

    def _chunks(self) -> Iterator[list[tuple]]:
        rows, n = iter(self.rows), 0
        while chunk := list(islice(rows, EVERY)):
            yield chunk
            n += len(chunk)
            if len(chunk) == EVERY:
                self.tick(self.base + n)

    def fetch(self, first: int, last: int) -> list[tuple]:
        return self.rows.fetch(first, last)


def ticking(rows, tick: Tick | None, base: int = 0):
    """`rows` as they are without a callback, else TickingRows."""
    return rows if tick is None else TickingRows(rows, tick, base)
