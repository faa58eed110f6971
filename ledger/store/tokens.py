"""The table's tokens (`banco token`, `banco serve`): who may act from a phone.

A token is a random secret (192 bits) handed to one person for one game and one role:
banker, player NAME, referee or viewer.  The database keeps only its SHA-256 digest, so a
copy of the file gives nobody a working token; the first characters after `bt_` (the prefix)
name a token in `banco token --list` and `--revoke`.  `find` looks on every request, so a
token revoked is refused at once by a running server.

The table is a history, not a list: each row is an entry (`issue` or `revoke`), numbered
1, 2, 3 ..., append-only (triggers refuse UPDATE and DELETE) and chained (each entry's hash
covers the one before it), so that `banco audit` names a token slipped in, changed (a
player's made a banker's) or a revocation taken back (ledger/store/health.py).  What the chain
cannot show: entries appended at its end by someone who recomputes the hashes, or the last
ones cut, as for any history kept in the file alone (README, "Integrity").  A token is no fact
of the game: the table sits beside the events, outside their chain, created on first use.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import sqlite3
from dataclasses import dataclass

from banco.ledger.base.text import Text, msg

ROLES = ("banker", "player", "referee", "viewer")
# A banker's token bound to no single game: the banker of every game of the file, for the
# evening that starts at `banco serve` before any game exists (issue 34).  No game is 0.
EVERY_GAME = 0
PREFIX = "bt_"
PREFIX_CHARS = 8  # shown and typed to revoke; 48 bits, enough to tell a table's tokens apart
TABLE = "tokens"
GENESIS = "0" * 64
COLUMNS = "id, kind, digest, prefix, role, player, game, at, prev, hash"
DDL = (
    f"""CREATE TABLE IF NOT EXISTS {TABLE} (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('issue', 'revoke')),
    digest TEXT NOT NULL,
    prefix TEXT NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('banker', 'player', 'referee', 'viewer')),
    player TEXT,
    game INTEGER NOT NULL,
    at TEXT NOT NULL,
    prev TEXT NOT NULL,
    hash TEXT NOT NULL
)""",
    f"CREATE INDEX IF NOT EXISTS idx_{TABLE}_digest ON {TABLE} (digest)",
    f"CREATE TRIGGER IF NOT EXISTS {TABLE}_no_update BEFORE UPDATE ON {TABLE} "
    "BEGIN SELECT RAISE(ABORT, 'the tokens history is append-only: UPDATE refused'); END",
    f"CREATE TRIGGER IF NOT EXISTS {TABLE}_no_delete BEFORE DELETE ON {TABLE} "
    "BEGIN SELECT RAISE(ABORT, 'the tokens history is append-only: DELETE refused'); END",
)


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


def entry_hash(prev: str, id_: int, kind: str, digest_: str, prefix: str, role: str,
               player: str | None, game: int, at: str) -> str:
    """The hash an entry records: of the entry before it and every field of its own."""
    body = json.dumps([prev, id_, kind, digest_, prefix, role, player, game, at],
                      ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(b"banco-token\n" + body.encode("utf-8")).hexdigest()


def _connect(path: str) -> sqlite3.Connection:
    # its own short connection: the event store's connection and its guards are not needed
    # for a table outside the chain, and a server thread may call this at any time
    return sqlite3.connect(path, timeout=5.0, isolation_level=None, check_same_thread=False)


def _exists(conn: sqlite3.Connection) -> bool:
    return conn.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?",
                        (TABLE,)).fetchone() is not None


def _ready(conn: sqlite3.Connection) -> None:
    """The table as this banco keeps it.  A table written before it was a history (one row a
    token, revoked in place) is rewritten as one, each token issued and then revoked if it was,
    in the order issued: its rows had no hashes, so there is nothing older to keep."""
    columns = {r[1] for r in conn.execute(f"PRAGMA table_info({TABLE})")}
    if columns and "hash" not in columns:
        old = conn.execute(f"SELECT digest, prefix, role, player, game, created_at, revoked_at "
                           f"FROM {TABLE} ORDER BY created_at, prefix").fetchall()
        conn.execute(f"DROP TABLE {TABLE}")
        for sql in DDL:
            conn.execute(sql)
        for d, prefix, role, player, game, created, _revoked in old:
            _append(conn, "issue", d, prefix, role, player, game, created)
        for d, prefix, role, player, game, _created, revoked in old:
            if revoked is not None:
                _append(conn, "revoke", d, prefix, role, player, game, revoked)
        return
    for sql in DDL:
        conn.execute(sql)


def _append(conn: sqlite3.Connection, kind: str, digest_: str, prefix: str, role: str,
            player: str | None, game: int, at: str) -> None:
    last = conn.execute(f"SELECT id, hash FROM {TABLE} ORDER BY id DESC LIMIT 1").fetchone()
    id_, prev = (last[0] + 1, last[1]) if last else (1, GENESIS)
    conn.execute(f"INSERT INTO {TABLE} ({COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                 (id_, kind, digest_, prefix, role, player, game, at, prev,
                  entry_hash(prev, id_, kind, digest_, prefix, role, player, game, at)))


def issue(path: str, role: str, game: int, now: str, player: str | None = None
          ) -> tuple[str, Token]:
    """A new token: its secret (shown once, never stored) and its row."""
    secret, row = new_secret(role, game, now, player)
    conn = _connect(path)
    try:
        conn.execute("BEGIN IMMEDIATE")  # the next id and the hash before it, as one
        _ready(conn)
        _append(conn, "issue", digest(secret), row.prefix, role, player, game, now)
        conn.execute("COMMIT")
    finally:
        conn.close()
    return secret, row


# The tokens with their revocation, if any: one row a token issued.
_TOKENS = (f"SELECT i.prefix, i.role, i.player, i.game, i.at, "
           f"(SELECT MIN(r.at) FROM {TABLE} r WHERE r.kind = 'revoke' AND r.digest = i.digest) "
           f"FROM {TABLE} i WHERE i.kind = 'issue'")


def listed(path: str, game: int | None = None) -> list[Token]:
    conn = _connect(path)
    try:
        if not _exists(conn):
            return []
        _ready(conn)
        rows = conn.execute(f"{_TOKENS} AND (? IS NULL OR i.game = ? OR i.game = {EVERY_GAME}) "
                            f"ORDER BY i.at, i.prefix", (game, game)).fetchall()
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
        conn.execute("BEGIN IMMEDIATE")
        _ready(conn)
        rows = conn.execute(
            f"SELECT i.digest, i.prefix, i.role, i.player, i.game, i.at FROM {TABLE} i "
            f"WHERE i.kind = 'issue' AND substr(i.prefix, 1, ?) = ? AND NOT EXISTS (SELECT 1 "
            f"FROM {TABLE} r WHERE r.kind = 'revoke' AND r.digest = i.digest) ORDER BY i.id",
            (len(like), like)).fetchall()
        for d, p, role, player, game, _at in rows:
            _append(conn, "revoke", d, p, role, player, game, now)
        conn.execute("COMMIT")
    finally:
        conn.close()
    return [Token(*r[1:6], now) for r in rows]


def entries(conn: sqlite3.Connection) -> list[tuple]:
    """The history as written, in order (COLUMNS), for the audit."""
    if not _exists(conn):
        return []
    columns = {r[1] for r in conn.execute(f"PRAGMA table_info({TABLE})")}
    if "hash" not in columns:
        return []  # a list from before the history: rewritten as one when next used
    return conn.execute(f"SELECT {COLUMNS} FROM {TABLE} ORDER BY id").fetchall()


def problems(conn: sqlite3.Connection) -> list[Text]:
    """What the tokens history of a SQLite file shows changed (problems_in)."""
    return problems_in(entries(conn))


def problems_in(history: list[tuple]) -> list[Text]:
    """What a tokens history (its entries as written, COLUMNS, in order) shows changed, entry
    by entry (the audit's and doctor's, on either store): an entry missing (deleted), one whose
    fields are not what its hash binds (edited, or written by hand without banco's hash), one
    that does not follow the entry before it, a revocation of a token never issued, a token
    issued twice."""
    out: list[Text] = []
    expected, prev = 1, GENESIS
    issued: dict[str, int] = {}
    for id_, kind, d, prefix, role, player, game, at, before, hash_ in history:
        what = msg("token entry {id} ({kind} bt_{prefix}..., {role}{player}, game {game})",
                   id=id_, kind=msg("issue") if kind == "issue" else msg("revocation"),
                   prefix=prefix, role=role,
                   player=" " + player if player else "", game=game)
        if id_ != expected:
            out.append(msg("token entry {id} is missing (the next one is entry {next}): it was "
                           "deleted; a revocation taken back reads so", id=expected, next=id_))
        elif before != prev:
            out.append(msg("{what} does not follow the entry before it (its prev is not that "
                           "entry's hash): written by hand", what=what))
        if entry_hash(before, id_, kind, d, prefix, role, player, game, at) != hash_:
            out.append(msg("{what} is not what its hash binds: changed after banco wrote it, "
                           "or written by hand", what=what))
        if kind == "issue":
            if d in issued:
                out.append(msg("{what} issues again the token of entry {first}", what=what,
                               first=issued[d]))
            issued.setdefault(d, id_)
        elif d not in issued:
            out.append(msg("{what} revokes a token no entry before it issued", what=what))
        expected, prev = id_ + 1, hash_
    return out


# What Keyring.find reads of the entries of one digest (either store), by id.
FIND_COLUMNS = "kind, digest, prefix, role, player, game, at, id, prev, hash"


def live_token(rows: list[tuple], wanted: str) -> Token | None:
    """The live token among the entries of the digest `wanted` (FIND_COLUMNS), else None: one
    issue, no revocation, its hash banco's.  The digests compared in constant time."""
    issued = [r for r in rows if r[0] == "issue" and hmac.compare_digest(r[1], wanted)]
    if len(issued) != 1 or any(r[0] == "revoke" for r in rows):
        return None
    id_, prev, hash_ = issued[0][7:]
    if entry_hash(prev, id_, *issued[0][:7]) != hash_:
        return None  # an entry banco did not write (`banco audit` names it)
    return Token(*issued[0][2:7])


def wanted_digest(secret: str | None) -> str | None:
    """The digest to look a presented secret up by, or None for one no token can have."""
    if not secret or not secret.startswith(PREFIX) or len(secret) > 200:
        return None
    return digest(secret)


def new_secret(role: str, game: int, now: str, player: str | None) -> tuple[str, Token]:
    """A new token's secret and its row (not yet kept), the role and player checked."""
    if role not in ROLES:
        raise ValueError(role)
    if (role == "player") != (player is not None):
        raise ValueError("a player's token names the player; no other token does")
    if game == EVERY_GAME and role != "banker":
        raise ValueError("only the banker's token may be for every game")
    secret = PREFIX + secrets.token_urlsafe(24)
    return secret, Token(secret[len(PREFIX):len(PREFIX) + PREFIX_CHARS], role, player, game, now)


class Keyring:
    """The server's view of the tokens: one connection, looked up on every request."""

    def __init__(self, path: str):
        import threading

        self.conn = _connect(path)
        self.lock = threading.Lock()  # one connection shared by the server's threads
        if _exists(self.conn):
            self.conn.execute("BEGIN IMMEDIATE")
            try:
                _ready(self.conn)  # an older list becomes the history find reads
            finally:
                self.conn.execute("COMMIT")

    def find(self, secret: str | None) -> Token | None:
        """The live token whose secret this is, else None.  Looked up by digest (the index
        sees only the digest, never the secret) and the digest compared in constant time."""
        wanted = wanted_digest(secret)
        if wanted is None:
            return None
        try:
            with self.lock:
                rows = self.conn.execute(
                    f"SELECT {FIND_COLUMNS} FROM {TABLE} WHERE digest = ? ORDER BY id",
                    (wanted,)).fetchall()
        except sqlite3.OperationalError:  # no table yet (or an old one): no token to find
            return None
        return live_token(rows, wanted)

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

    def revoke(self, prefix: str, now: str) -> list[Token]:
        return revoke(self.path, prefix, now)

    def find(self, secret: str | None) -> Token | None:
        return self.keyring.find(secret) if self.keyring is not None else None

    def paired(self, game: int) -> set[str]:
        return self.keyring.paired(game) if self.keyring is not None else set()

    def close(self) -> None:
        if self.keyring is not None:
            self.keyring.close()
