"""Hearing the commands committed to a PostgreSQL database, from any process or machine:
LISTEN on the channel the store's append announces each command on (postgres_schema.CHANNEL,
a payload "game:last_seq", delivered at commit and never for a rollback).

`Listener` owns one connection of its own (a LISTENing connection must run nothing else) and a
thread that waits on it, so `banco serve` learns of a command made at another table, at the
terminal or by another server at once, without polling the log.  A connection lost (the server
restarted, the backend ended) is opened again, and since what was committed meanwhile was heard
by nobody, `on_lost` is called once it listens again: the caller looks at everything afresh.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from banco.ledger.store.postgres_connection import connect, first_line
from banco.ledger.store.postgres_schema import CHANNEL

WAKE = 0.5  # seconds between looks at `closing` while no notification comes (not at the log)
RETRY = 1.0  # seconds before connecting again after the connection was lost
NAME = "banco-listen"  # its application_name: an administrator sees which connection this is


def parse(payload: str) -> tuple[int, int] | None:
    """(game, seq) of a payload "game:seq", else None (another program's on the channel)."""
    game, _, seq = payload.partition(":")
    if not (game.isdecimal() and seq.isdecimal()):
        return None
    return int(game), int(seq)


class Listener:
    """`heard(game, seq)` for every command committed to the database at `url`, from a thread
    of its own; `on_lost()` after the connection was lost and is listening again."""

    def __init__(self, url: str, heard: Callable[[int, int], None],
                 on_lost: Callable[[], None] = lambda: None,
                 warn: Callable[[str], None] = lambda text: None):
        self.url, self.heard, self.on_lost, self.warn = url, heard, on_lost, warn
        self.closing = threading.Event()
        self.listening = threading.Event()
        self.conn = None
        self.thread = threading.Thread(target=self._run, name="banco-listen", daemon=True)

    def start(self, timeout: float = 10.0) -> Listener:
        """Start, and return once the LISTEN is in place (or `timeout`): a command committed
        after start() returns is heard."""
        self.thread.start()
        self.listening.wait(timeout)
        return self

    def close(self) -> None:
        self.closing.set()
        self.thread.join(WAKE * 4 + 1)

    def _listen(self):
        conn = connect(self.url, 5.0)
        conn.execute(f"SET application_name = '{NAME}'")
        conn.execute(f"LISTEN {CHANNEL}")
        return conn

    def _run(self) -> None:
        import psycopg

        from banco.ledger.base.errors import BancoError

        lost = False
        while not self.closing.is_set():
            try:
                if self.conn is None:
                    self.conn = self._listen()
                    self.listening.set()
                    if lost:
                        self.on_lost()  # what was committed while no one listened
                    lost = False
                for note in self.conn.notifies(timeout=WAKE):
                    found = parse(note.payload)
                    if found is not None:
                        self.heard(*found)
                    if self.closing.is_set():
                        break
            except (psycopg.Error, BancoError) as exc:
                if not lost:
                    self.warn(f"no longer hearing {CHANNEL} ({first_line(exc)}): reconnecting")
                lost = True
                self._drop()
                self.closing.wait(RETRY)
        self._drop()

    def _drop(self) -> None:
        if self.conn is not None:
            try:
                self.conn.close()
            except Exception:  # noqa: BLE001 - a broken connection may fail to close too
                pass
            self.conn = None
