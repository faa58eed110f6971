"""A progress bar for long work (issue 21): click's own, on stderr, only when stderr is a
terminal, only once the work has taken more than a second, never with --json.

The projections know nothing of it: they (or the command reading their output) call `step`
with how many events are done; this module decides whether anything is shown.  Work done in
parts at once (`report`'s audit and its page) steps the bar through `part()`: each part its
own count, the bar their sum, from any thread; the bar never goes back.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

import click

T = TypeVar("T")
# seconds before a bar appears: a quick command stays silent (the tests set 0)
DELAY = float(os.environ.get("BANCO_PROGRESS_DELAY", "1"))


class Progress:
    """`with Progress(total, label) as p: ... p.step(done)`: events done so far."""

    def __init__(self, total: int | None, label: str, quiet: bool = False, stream=None):
        self.total = total
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        # may show, once DELAY has passed (never without a total: nothing to measure against)
        self.shown = not quiet and total is not None and self.stream.isatty()
        self.started = time.monotonic()
        self.bar = None
        self.done = 0
        self._lock = threading.RLock()  # stepped from two threads: one update at a time
        self._parts: list[int] = []

    def __enter__(self) -> Progress:
        return self

    def _rate(self, _item) -> str:
        elapsed = time.monotonic() - self.started
        return f"{self.done / elapsed:,.0f} events/s" if elapsed > 0 else ""

    def step(self, done: int) -> None:
        if not self.shown:
            return
        with self._lock:
            if self.bar is None:
                if time.monotonic() - self.started < DELAY:
                    return
                self.bar = click.progressbar(length=self.total, label=self.label,
                                             file=self.stream, show_pos=True, show_eta=True,
                                             item_show_func=self._rate)
                self.bar.__enter__()
            if done > self.done:  # a part begun again (the report's page redrawn) stays put
                self.bar.update(done - self.done)
                self.done = done

    def part(self) -> Callable[[int], None]:
        """A `step` for one of the works this bar counts together: that work's events done
        so far; the bar shows the sum of every part's."""
        with self._lock:
            index = len(self._parts)
            self._parts.append(0)

        def step(done: int) -> None:
            with self._lock:
                self._parts[index] = done
                self.step(sum(self._parts))

        return step

    def __exit__(self, *exc) -> None:
        with self._lock:
            self.shown = False  # a step after the end draws nothing
            if self.bar is not None:
                self.bar.__exit__(*exc)  # ends the line, so what follows starts on its own


def counted(items: Iterable[T], progress: Progress, every: int = 1000) -> Iterator[T]:
    """`items` unchanged, telling `progress` every `every` items (and at the end)."""
    n = 0
    for item in items:
        yield item
        n += 1
        if n % every == 0:
            progress.step(n)
    progress.step(n)
