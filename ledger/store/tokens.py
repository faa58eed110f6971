"""The table's tokens (`banco token`, `banco serve`): who may act from a phone.

A token is a random secret (192 bits) handed to one person for one game and one role:
banker, player NAME, referee or viewer.  The database keeps only its SHA-256 digest, so a
copy of the file gives nobody a working token; the first characters after `bt_` (the prefix)
name a token in `banco token --list` and `--revoke`.  A revoked row stays, with the time it
was revoked, and `find` refuses it at once: a running server reads the table on every
request rather than caching it.

The table sits beside the events in the game's file and is created on first use; it is no
part of the hash chain (a token is not a fact of the game).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import sqlite3
from dataclasses import dataclass

ROLES = ("banker", "player", "referee", "viewer")
PREFIX = "bt_"
PREFIX_CHARS = 8  # shown and typed to revoke; 48 bits, enough to tell a table's tokens apart
TABLE = "tokens"
SCHEMA = f"""CREATE TABLE IF NOT EXISTS {TABLE} (
    digest TEXT PRIMARY KEY,
    prefix TEXT NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('banker', 'player', 'referee', 'viewer')),
    player TEXT,
    game INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    revoked_at TEXT
)"""


@dataclass(frozen=True)
class Token:
    prefix: str
    role: str
    player: str | None
    game: int
    created_at: str
    revoked_at: str | None = None


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def _connect(path: str) -> sqlite3.Connection:
    # its own short connection: the event store's connection and its guards are not needed
    # for a table outside the chain, and a server thread may call this at any time
    return sqlite3.connect(path, timeout=5.0, isolation_level=None, check_same_thread=False)


def _exists(conn: sqlite3.Connection) -> bool:
    return conn.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?",
                        (TABLE,)).fetchone() is not None


def issue(path: str, role: str, game: int, now: str, player: str | None = None
          ) -> tuple[str, Token]:
    """A new token: its secret (shown once, never stored) and its row."""
    if role not in ROLES:
        raise ValueError(role)
    if (role == "player") != (player is not None):
        raise ValueError("a player's token names the player; no other token does")
    secret = PREFIX + secrets.token_urlsafe(24)
    row = Token(secret[len(PREFIX):len(PREFIX) + PREFIX_CHARS], role, player, game, now)
    conn = _connect(path)
    try:
        conn.execute(SCHEMA)
        conn.execute(f"INSERT INTO {TABLE} VALUES (?, ?, ?, ?, ?, ?, NULL)",
                     (digest(secret), row.prefix, role, player, game, now))
    finally:
        conn.close()
    return secret, row


def listed(path: str, game: int | None = None) -> list[Token]:
    conn = _connect(path)
    try:
        if not _exists(conn):
            return []
        rows = conn.execute(f"SELECT prefix, role, player, game, created_at, revoked_at "
                            f"FROM {TABLE} WHERE ? IS NULL OR game = ? ORDER BY created_at, "
                            f"prefix", (game, game)).fetchall()
    finally:
        conn.close()
    return [Token(*r) for r in rows]


def revoke(path: str, prefix: str, now: str) -> list[Token]:
    """Revoke the live tokens whose prefix starts with `prefix`; the ones revoked."""
    conn = _connect(path)
    try:
        if not _exists(conn) or not prefix:
            return []
        like = prefix.removeprefix(PREFIX)
        rows = conn.execute(f"SELECT prefix, role, player, game, created_at, revoked_at "
                            f"FROM {TABLE} WHERE revoked_at IS NULL AND substr(prefix, 1, ?) = ?",
                            (len(like), like)).fetchall()
        conn.executemany(f"UPDATE {TABLE} SET revoked_at = ? WHERE prefix = ? AND "
                         f"revoked_at IS NULL", [(now, r[0]) for r in rows])
    finally:
        conn.close()
    return [Token(*r[:5], now) for r in rows]


class Keyring:
    """The server's view of the tokens: one connection, looked up on every request."""

    def __init__(self, path: str):
        import threading

        self.conn = _connect(path)
        self.lock = threading.Lock()  # one connection shared by the server's threads

    def find(self, secret: str | None) -> Token | None:
        """The live token whose secret this is, else None.  Looked up by digest (the index
        sees only the digest, never the secret) and the digest compared in constant time."""
        if not secret or not secret.startswith(PREFIX) or len(secret) > 200:
            return None
        wanted = digest(secret)
        try:
            with self.lock:
                row = self.conn.execute(
                    f"SELECT digest, prefix, role, player, game, created_at, revoked_at "
                    f"FROM {TABLE} WHERE digest = ?", (wanted,)).fetchone()
        except sqlite3.OperationalError:  # no table yet: no token was ever issued
            return None
        if row is None or not hmac.compare_digest(row[0], wanted) or row[6] is not None:
            return None
        return Token(*row[1:])

    def paired(self, game: int) -> set[str]:
        """The players of `game` who hold a live token: their phones answer their trades."""
        try:
            with self.lock:
                rows = self.conn.execute(
                    f"SELECT DISTINCT player FROM {TABLE} WHERE game = ? AND role = 'player' "
                    f"AND revoked_at IS NULL", (game,)).fetchall()
            return {r[0] for r in rows}
        except sqlite3.OperationalError:
            return set()

    def close(self) -> None:
        self.conn.close()
