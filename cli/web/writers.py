"""The server's writer threads (`banco serve`): one a game on PostgreSQL, so that two tables' lines do not
wait for each other, while one table's lines run one at a time, in the order they came.

Each writer thread opens its own Library (cli/library.py) on first use and keeps it: a SQLite
connection stays in the thread that opened it, and a game's folded table stays in the one
book that writes it.  Two games' writes meet only in the store, whose own concurrency keeps
them apart (SQLite's write lock, PostgreSQL's per-game advisory lock), as two terminals' do.
The lines that name no game yet (a new game, a line for "the latest game" before any table
was shown) run on the writer of no game.  At most WRITERS threads for the games (game N on
thread N mod WRITERS, always the same one): each holds a connection, and on PostgreSQL a
hall's hundred tables must not take a hundred more of the server's connections.

Only on PostgreSQL (`many`), whose lock is a game's: on a SQLite file every write takes the
file's one lock, so threads a game would only meet there, and they cost more CPU a line and
memory (bench_phones at 30 tables, docs/performance.md): a file's games share one writer.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

WRITERS = 8  # the games' writer threads, beside the one of no game


class Writers:
    def __init__(self, warm: Callable[[], None], many: bool = True):
        self.many = many  # a writer a game (PostgreSQL), or one for all (a SQLite file)
        self.threads: dict[int | None, ThreadPoolExecutor] = {}
        self.local = threading.local()  # each writer thread's own Library
        self.lock = threading.Lock()
        self.warm = warm
        self.of(None)

    def of(self, game: int | None) -> ThreadPoolExecutor:
        """The writer thread of `game` (made at its first line): always the same one."""
        key = None if game is None or not self.many else game % WRITERS
        with self.lock:
            thread = self.threads.get(key)
            if thread is None:
                thread = ThreadPoolExecutor(1, thread_name_prefix=f"banco-writer-{key}")
                thread.submit(self.warm)  # the first line must not wait for the imports
                self.threads[key] = thread
            return thread

    def library(self, open_: Callable[[], object]):
        """This writer thread's Library, opened by `open_` the first time."""
        library = getattr(self.local, "library", None)
        if library is None:
            library = self.local.library = open_()
        return library

    def close_library(self) -> None:
        """Close this thread's Library, on the thread that opened it."""
        library = getattr(self.local, "library", None)
        if library is not None:
            library.close()
            self.local.library = None

    def close(self) -> None:
        with self.lock:
            threads, self.threads = list(self.threads.values()), {}
        for thread in threads:
            thread.submit(self.close_library).result()
            thread.shutdown()
