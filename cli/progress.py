"""A progress bar for long work (issue 21): click's own, on stderr, only when stderr is a
terminal, only once the work has taken more than a second, never with --json.

The projections know nothing of it: they (or the command reading their output) call `step`
with how many events are done; this module decides whether anything is shown.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterable, Iterator
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

    def __enter__(self) -> Progress:
        return self

    def _rate(self, _item) -> str:
        elapsed = time.monotonic() - self.started
        return f"{self.done / elapsed:,.0f} events/s" if elapsed > 0 else ""

    def step(self, done: int) -> None:
        if not self.shown:
            return
        if self.bar is None:
            if time.monotonic() - self.started < DELAY:
                return
            self.bar = click.progressbar(length=self.total, label=self.label, file=self.stream,
                                         show_pos=True, show_eta=True, item_show_func=self._rate)
            self.bar.__enter__()
        self.bar.update(done - self.done)
        self.done = done

    def __exit__(self, *exc) -> None:
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
