"""What a running server (`banco serve`) knows of the phones' tokens: the history
(ledger/store/tokens.py) looked up on every request, and what it has read of it kept for its
life, the same on either store (`Lookout`: a SQLite file's `Keyring` here, PostgreSQL's
`PgTokens` in ledger/store/postgres_tokens.py).

- Every revocation read stays a revocation: one deleted from the history (the last entry,
  which leaves no gap a fresh look sees) does not bring its token back (issue 32).
- The history's length only grows: found shorter, the server says so once (`shorter`).
- Without the key beside the history (ledger/store/token_key.py), the server says at start
  what it cannot check (`unchecked`), and refuses an entry hashed without the key after the
  first one that is not (an entry written by hand: `banco audit` names it).
"""

from __future__ import annotations

import sqlite3
import threading

from banco.ledger.base.text import Text, msg
from banco.ledger.store import token_key
from banco.ledger.store.tokens import (
    FIND_COLUMNS,
    LAST,
    N_,
    TABLE,
    Token,
    connect,
    entries,
    has_table,
    hashed,
    issue,
    listed,
    live_token,
    ready,
    revoke,
    unchecked_in,
    wanted_digest,
)


class Seen:
    """What a server has read of the tokens history, kept for its life: every revocation (a
    revocation deleted from the file, the last entry, left no gap a fresh look sees, and the
    revoked token answered again; issue 32), and the history's length, which only grows:
    `shorter` (the entries it had read, the entries it now finds) once it is found shorter."""

    def __init__(self) -> None:
        self.revoked: set[str] = set()
        self.last = 0
        self.shorter: tuple[int, int] | None = None

    def read(self, revoked, last: int | None) -> None:
        """The revocations and the last entry's number of the history as just read."""
        self.revoked.update(revoked)
        last = last or 0
        if last < self.last and self.shorter is None:
            self.shorter = (self.last, last)
        self.last = max(self.last, last)

    def take(self, rows: list[tuple], wanted: str) -> bool:
        """Whether the token of the digest `wanted` may still be live, from its entries
        (FIND_COLUMNS) as just read and what was read before."""
        self.read([wanted] if any(r[0] == "revoke" for r in rows) else (),
                  rows[0][12] if rows else None)
        return wanted not in self.revoked


SHORTER = N_("the tokens' history is shorter than when this server read it ({had} entries, now "
             "{now}): entries were deleted, a revocation perhaps; the server still refuses "
             "every token it saw revoked. `banco audit` names the rest")


class Lookout:
    """A server's memory of one tokens history, whichever store keeps it: the store reads,
    this decides what the server believes."""

    def __init__(self) -> None:
        self.seen = Seen()
        # Without the key (deleted, or a copy served elsewhere) an entry hashed with it cannot
        # be checked, and a history re-chained without it reads as banco's (issue 32: a
        # viewer's token made a banker's was served with no warning).
        self.unkeyed: list[Text] = []
        self.keyed_from: int | None = None
        self.said = False

    def opened(self, history: list[tuple], key: bytes | None, where: str) -> None:
        """The history as the server starts (its entries, tokens.COLUMNS, in order), with the
        database's key if it is here (`where`: the key's path, for the words)."""
        self.seen.read([e[2] for e in history if e[1] == "revoke"],
                       history[-1][0] if history else None)
        if history and key is None:
            self.unkeyed = unchecked_in(history, None, where)
            self.keyed_from = next((e[0] for e in history if hashed(e, None) is None), None)

    def live(self, rows: list[tuple], wanted: str, key: bytes | None,
             last: tuple | None) -> Token | None:
        """The live token of the digest `wanted` from its entries as just read (FIND_COLUMNS)
        and the history's last entry (tokens.live_token), and what this server read before."""
        if not self.seen.take(rows, wanted):
            return None
        if key is None and self.keyed_from is not None and any(
                r[0] == "issue" and r[7] > self.keyed_from for r in rows):
            return None  # hashed without the key after an entry hashed with it: by hand
        return live_token(rows, wanted, key, last)

    def unchecked(self) -> list[Text]:
        """What the server could not check of the tokens' history as it started (no key)."""
        return list(self.unkeyed)

    def shorter(self) -> Text | None:
        """Said once, when the history is found shorter than this server had read it."""
        if self.seen.shorter is None or self.said:
            return None
        self.said = True
        had, now = self.seen.shorter
        return msg(SHORTER, had=had, now=now)


class Keyring:
    """The server's view of a SQLite file's tokens: one connection, looked up on every
    request."""

    def __init__(self, path: str):
        self.conn, self.path, self.key = connect(path), path, None
        self.lock = threading.Lock()  # one connection shared by the server's threads
        self.lookout = Lookout()
        if has_table(self.conn):
            self.conn.execute("BEGIN IMMEDIATE")
            try:
                ready(self.conn, path)  # an older list becomes the history find reads
                self.lookout.opened(entries(self.conn), token_key.load(path),
                                    str(token_key.key_path(path)))
            finally:
                self.conn.execute("COMMIT")

    def unchecked(self) -> list[Text]:
        return self.lookout.unchecked()

    def shorter(self) -> Text | None:
        return self.lookout.shorter()

    def find(self, secret: str | None) -> Token | None:
        """The live token whose secret this is, else None.  Looked up by digest (the index
        sees only the digest, never the secret) and the digest compared in constant time."""
        wanted = wanted_digest(secret)
        if wanted is None:
            return None
        if self.key is None:  # made by the first entry written with it: looked for till then
            self.key = token_key.load(self.path)
        try:
            with self.lock:
                rows = self.conn.execute(
                    f"SELECT {FIND_COLUMNS.format(table=TABLE)} FROM {TABLE} t WHERE digest = ? "
                    "ORDER BY id", (wanted,)).fetchall()
                last = (self.conn.execute(LAST.format(table=TABLE)).fetchone()
                        if self.key is not None else None)
        except sqlite3.OperationalError:  # no table yet (or an old one): no token to find
            return None
        return self.lookout.live(rows, wanted, self.key, last)

    def paired(self, game: int) -> set[str]:
        """The players of `game` who hold a live token: their phones answer their trades."""
        try:
            with self.lock:
                rows = self.conn.execute(
                    f"SELECT DISTINCT i.player FROM {TABLE} i WHERE i.kind = 'issue' AND "
                    f"i.game = ? AND i.role = 'player' AND NOT EXISTS (SELECT 1 FROM {TABLE} r "
                    f"WHERE r.kind = 'revoke' AND r.digest = i.digest)", (game,)).fetchall()
            return {r[0] for r in rows}
        except sqlite3.OperationalError:
            return set()

    def close(self) -> None:
        self.conn.close()


class FileTokens:
    """The tokens of a SQLite file as `banco token` and the server use them (the PostgreSQL
    store's: ledger/store/postgres_tokens.py PgTokens, the same methods).  `serving`: the
    server's Keyring opened now, for find and paired; the command line opens none."""

    def __init__(self, path: str, serving: bool = False):
        self.path = path
        self.keyring = Keyring(path) if serving else None

    def issue(self, role: str, game: int, now: str, player: str | None = None
              ) -> tuple[str, Token]:
        return issue(self.path, role, game, now, player)

    def listed(self, game: int | None = None) -> list[Token]:
        return listed(self.path, game)

    def revoke(self, prefix: str, now: str, digest_: str | None = None) -> list[Token]:
        return revoke(self.path, prefix, now, digest_)

    def find(self, secret: str | None) -> Token | None:
        return self.keyring.find(secret) if self.keyring is not None else None

    def paired(self, game: int) -> set[str]:
        return self.keyring.paired(game) if self.keyring is not None else set()

    def shorter(self) -> Text | None:
        return self.keyring.shorter() if self.keyring is not None else None

    def unchecked(self) -> list[Text]:
        return self.keyring.unchecked() if self.keyring is not None else []

    def close(self) -> None:
        if self.keyring is not None:
            self.keyring.close()
