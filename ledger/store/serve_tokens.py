"""Which banker's tokens `banco serve` issued itself, so that they do not pile up.

Every start of `serve` pairs the banker's page with a new banker's token for every game.  A
banker expects that link to live as long as the server that printed it: `serve` revokes its
own token when it stops (Ctrl-C, SIGTERM), and a token whose server died without stopping
(killed, the machine off) is revoked by the next `serve` on the same database from the same
machine.  The secret cannot be reused instead: only its digest is kept.

The tokens history has no field for "issued by serve" (its rows are chained), so the record
is a small file beside the tokens' key (ledger/store/token_key.py): `FILE.serve-tokens` for a
SQLite file, `token-keys/<digest>.serve-tokens` for a PostgreSQL database.  It holds, per
token, its label, its digest (no secret), and the process and machine serving with it: a
token whose process is gone on this machine is stale.  Another machine's serve on the same
PostgreSQL database keeps its own record and its own token.  A process number used again by
an unrelated process leaves a stale token live (never a live server's token revoked).
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
from dataclasses import dataclass
from pathlib import Path

from banco.ledger.store import token_key


@dataclass(frozen=True)
class Served:
    prefix: str
    digest: str
    pid: int
    host: str
    started: str | None = None  # the process's start (Linux's /proc), against a reused number

    def running(self) -> bool:
        """Whether the serve that issued it still runs (False: stale).  Another machine's is
        taken as running: its state cannot be seen from here."""
        if self.host != socket.gethostname():
            return True
        if self.pid == os.getpid():  # a number used again, by this very serve: not it
            return False
        try:
            os.kill(self.pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:  # another user's process: alive
            pass
        now = _started(self.pid)
        if now == "Z":  # killed, not yet reaped by its parent: gone
            return False
        return self.started is None or now is None or now == self.started


def _started(pid: int) -> str | None:
    """When process `pid` started (clock ticks since boot, /proc/PID/stat's 22nd field), "Z"
    for a zombie, None where /proc does not say."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            fields = f.read().rpartition(")")[2].split()
    except OSError:
        return None
    if not fields:
        return None
    return "Z" if fields[0] in ("Z", "X") else (fields[19] if len(fields) > 19 else None)


def record_path(db: str) -> Path:
    key = token_key.key_path(db)
    return key.with_name(key.name.removesuffix(".key").removesuffix(".token-key")
                         + ".serve-tokens")


@contextlib.contextmanager
def _held(db: str, create: bool):
    """The record, locked against another serve starting or stopping at once: (its entries,
    a function that writes them back).  None when there is no record and `create` is False."""
    import fcntl

    path = record_path(db)
    if not create and not path.exists():
        yield None
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    with os.fdopen(fd, "r+", encoding="utf-8") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            entries = [Served(**e) for e in json.loads(f.read() or "[]")]
        except (ValueError, TypeError):
            entries = []  # a damaged record: its tokens are still listed and revocable by hand

        def write(kept: list[Served]) -> None:
            f.seek(0)
            f.truncate()
            f.write(json.dumps([e.__dict__ for e in kept]))
            f.flush()

        yield entries, write


def served(db: str) -> list[Served]:
    """The tokens serves recorded (for `token --list`)."""
    with _held(db, create=False) as held:
        return list(held[0]) if held else []


def claim(db: str, prefix: str, digest: str) -> Served:
    """Record the token this serve just issued."""
    mine = Served(prefix, digest, os.getpid(), socket.gethostname(), _started(os.getpid()))
    with _held(db, create=True) as (entries, write):
        write([*entries, mine])
    return mine


def stale(db: str) -> list[Served]:
    """The tokens of serves that are no longer running here."""
    with _held(db, create=False) as held:
        return [e for e in held[0] if not e.running()] if held else []


def forget(db: str, gone: list[Served]) -> None:
    """Drop revoked tokens from the record."""
    with _held(db, create=False) as held:
        if held is None:
            return
        entries, write = held
        write([e for e in entries if e not in gone])
