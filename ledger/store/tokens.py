"""The table's tokens (`banco token`, `banco serve`): who may act from a phone.

A token is a random secret (192 bits) handed to one person for one game and one role:
banker, player NAME, referee or viewer.  The database keeps only its SHA-256 digest, so a
copy of the file gives nobody a working token; the first characters after `bt_` (the prefix)
name a token in `banco token --list` and `--revoke`.  `find` looks on every request, so a
token revoked is refused at once by a running server.

The table is a history, not a list: each row is an entry (`issue` or `revoke`), numbered
1, 2, 3 ..., append-only (triggers refuse UPDATE and DELETE) and chained (each entry's hash
covers the one before it), so that `banco audit` names a token slipped in, changed (a
player's made a banker's) or a revocation taken back (ledger/store/health.py).  Each entry is
hashed with a key kept outside the database (ledger/store/token_key.py): without it the
history cannot be rewritten and re-chained to its end unseen.  What no chain shows: the last
entries cut (README, "Integrity").  A token is no fact of the game: the table sits beside the
events, outside their chain, created on first use.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import sqlite3
from dataclasses import dataclass

from banco.ledger.base.text import Text, msg
from banco.ledger.store import token_key

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


def entry_body(prev: str, id_: int, kind: str, digest_: str, prefix: str, role: str,
               player: str | None, game: int, at: str) -> bytes:
    """The text an entry's hash is of: the entry before it and every field of its own."""
    body = json.dumps([prev, id_, kind, digest_, prefix, role, player, game, at],
                      ensure_ascii=False, separators=(",", ":"))
    return b"banco-token\n" + body.encode("utf-8")


def entry_hash(prev: str, id_: int, kind: str, digest_: str, prefix: str, role: str,
               player: str | None, game: int, at: str, key: bytes | None = None) -> str:
    """The hash an entry records: keyed (HMAC) when banco has the key, else plain SHA-256
    (an entry written before the key)."""
    body = entry_body(prev, id_, kind, digest_, prefix, role, player, game, at)
    return token_key.keyed(key, body) if key else hashlib.sha256(body).hexdigest()


PLAIN, KEYED = "plain", "keyed"


def hashed(entry: tuple, key: bytes | None) -> str | None:
    """How an entry (its fields in COLUMNS order, from prev) was hashed: PLAIN, KEYED (with
    `key`), or None: neither (changed after banco wrote it, written by hand, or keyed with
    a key that is not `key`)."""
    id_, kind, d, prefix, role, player, game, at, prev, hash_ = entry
    body = entry_body(prev, id_, kind, d, prefix, role, player, game, at)
    if hmac.compare_digest(hashlib.sha256(body).hexdigest(), hash_):
        return PLAIN
    if key and hmac.compare_digest(token_key.keyed(key, body), hash_):
        return KEYED
    return None


def connect(path: str) -> sqlite3.Connection:
    # its own short connection: the event store's connection and its guards are not needed
    # for a table outside the chain, and a server thread may call this at any time
    return sqlite3.connect(path, timeout=5.0, isolation_level=None, check_same_thread=False)


def has_table(conn: sqlite3.Connection) -> bool:
    return conn.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?",
                        (TABLE,)).fetchone() is not None


def ready(conn: sqlite3.Connection, path: str) -> None:
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
        key = token_key.load(path, create=True)
        for d, prefix, role, player, game, created, _revoked in old:
            _append(conn, "issue", d, prefix, role, player, game, created, key)
        for d, prefix, role, player, game, _created, revoked in old:
            if revoked is not None:
                _append(conn, "revoke", d, prefix, role, player, game, revoked, key)
        return
    for sql in DDL:
        conn.execute(sql)


def _append(conn: sqlite3.Connection, kind: str, digest_: str, prefix: str, role: str,
            player: str | None, game: int, at: str, key: bytes) -> None:
    last = conn.execute(f"SELECT id, hash FROM {TABLE} ORDER BY id DESC LIMIT 1").fetchone()
    id_, prev = (last[0] + 1, last[1]) if last else (1, GENESIS)
    conn.execute(f"INSERT INTO {TABLE} ({COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                 (id_, kind, digest_, prefix, role, player, game, at, prev,
                  entry_hash(prev, id_, kind, digest_, prefix, role, player, game, at, key)))


def issue(path: str, role: str, game: int, now: str, player: str | None = None
          ) -> tuple[str, Token]:
    """A new token: its secret (shown once, never stored) and its row."""
    secret, row = new_secret(role, game, now, player)
    conn = connect(path)
    try:
        conn.execute("BEGIN IMMEDIATE")  # the next id and the hash before it, as one
        ready(conn, path)
        _append(conn, "issue", digest(secret), row.prefix, role, player, game, now,
                token_key.load(path, create=True))
        conn.execute("COMMIT")
    finally:
        conn.close()
    return secret, row


# The tokens with their revocation, if any: one row a token issued.
_TOKENS = (f"SELECT i.prefix, i.role, i.player, i.game, i.at, "
           f"(SELECT MIN(r.at) FROM {TABLE} r WHERE r.kind = 'revoke' AND r.digest = i.digest) "
           f"FROM {TABLE} i WHERE i.kind = 'issue'")


def listed(path: str, game: int | None = None) -> list[Token]:
    conn = connect(path)
    try:
        if not has_table(conn):
            return []
        ready(conn, path)
        rows = conn.execute(f"{_TOKENS} AND (? IS NULL OR i.game = ? OR i.game = {EVERY_GAME}) "
                            f"ORDER BY i.at, i.prefix", (game, game)).fetchall()
    finally:
        conn.close()
    return [Token(*r) for r in rows]


def revoke(path: str, prefix: str, now: str, digest_: str | None = None) -> list[Token]:
    """Revoke the live tokens whose prefix starts with `prefix` (and whose digest is
    `digest_`, when given: the whole token named); the ones revoked."""
    conn = connect(path)
    try:
        if not has_table(conn) or not prefix:
            return []
        like = prefix  # a label as listed: its own letters may begin `bt_` (1 in 262,144)
        conn.execute("BEGIN IMMEDIATE")
        ready(conn, path)
        rows = conn.execute(
            f"SELECT i.digest, i.prefix, i.role, i.player, i.game, i.at FROM {TABLE} i "
            f"WHERE i.kind = 'issue' AND substr(i.prefix, 1, ?) = ? AND (? IS NULL OR "
            f"i.digest = ?) AND NOT EXISTS (SELECT 1 "
            f"FROM {TABLE} r WHERE r.kind = 'revoke' AND r.digest = i.digest) ORDER BY i.id",
            (len(like), like, digest_, digest_)).fetchall()
        key = token_key.load(path, create=True) if rows else None
        for d, p, role, player, game, _at in rows:
            _append(conn, "revoke", d, p, role, player, game, now, key)
        conn.execute("COMMIT")
    finally:
        conn.close()
    return [Token(*r[1:6], now) for r in rows]


def entries(conn: sqlite3.Connection) -> list[tuple]:
    """The history as written, in order (COLUMNS), for the audit."""
    if not has_table(conn):
        return []
    columns = {r[1] for r in conn.execute(f"PRAGMA table_info({TABLE})")}
    if "hash" not in columns:
        return []  # a list from before the history: rewritten as one when next used
    return conn.execute(f"SELECT {COLUMNS} FROM {TABLE} ORDER BY id").fetchall()


def file_of(conn: sqlite3.Connection) -> str:
    """The path of the file a connection has open (its key is kept beside it)."""
    return conn.execute("PRAGMA database_list").fetchone()[2]


def problems(conn: sqlite3.Connection) -> list[Text]:
    """What the tokens history of a SQLite file shows changed (problems_in)."""
    history = entries(conn)
    return problems_in(history, token_key.load(file_of(conn)) if history else None)


def unchecked(conn: sqlite3.Connection) -> list[Text]:
    """What of a SQLite file's tokens history its key's absence leaves unchecked
    (unchecked_in)."""
    history = entries(conn)
    if not history:
        return []
    path = file_of(conn)
    return unchecked_in(history, token_key.load(path), str(token_key.key_path(path)))


def problems_in(history: list[tuple], key: bytes | None = None) -> list[Text]:
    """What a tokens history (its entries as written, COLUMNS, in order) shows changed, entry
    by entry (the audit's and doctor's, on either store): an entry missing (deleted), one whose
    fields are not what its hash binds (edited, or written by hand without banco's hash), one
    that does not follow the entry before it, a revocation of a token never issued, a token
    issued twice; with the database's key (`key`, token_key.py): an entry written without it
    after one written with it, or a history none of whose entries is (rewritten without the
    key).  Without the key a keyed entry cannot be told from one edited: neither is named
    here, and unchecked_in says what was left unchecked (not a problem: a copy without its
    key is not forged for that)."""
    out: list[Text] = []
    expected, prev, keyed_at = 1, GENESIS, None
    issued: dict[str, int] = {}
    for entry in history:
        id_, kind, d, prefix, role, player, game, at, before, hash_ = entry
        what = msg("token entry {id} ({kind} bt_{prefix}..., {role}{player}, {games})",
                   id=id_, kind=msg("issue") if kind == "issue" else msg("revocation"),
                   prefix=prefix, role=role, player=" " + player if player else "",
                   games=msg("every game") if game == EVERY_GAME else msg("game {game}",
                                                                          game=game))
        if id_ != expected:
            out.append(msg("token entry {id} is missing (the next one is entry {next}): it was "
                           "deleted; a revocation taken back reads so", id=expected, next=id_))
        elif before != prev:
            out.append(msg("{what} does not follow the entry before it (its prev is not that "
                           "entry's hash): written by hand", what=what))
        how = hashed(entry, key)
        if how is None and key is not None:
            out.append(msg("{what} is not what its hash binds: changed after banco wrote it, "
                           "or written by hand", what=what))
        # Without the key an entry hashed with it cannot be told from one edited: an honest
        # copy is no forgery, so it is no problem here; unchecked_in says what was not checked.
        elif how == PLAIN and keyed_at is not None and key is not None:
            out.append(msg("{what} is hashed without the tokens' key, after entry {first} "
                           "which is hashed with it: written by hand", what=what, first=keyed_at))
        if how == KEYED and keyed_at is None:
            keyed_at = id_
        if kind == "issue":
            if d in issued:
                out.append(msg("{what} issues again the token of entry {first}", what=what,
                               first=issued[d]))
            issued.setdefault(d, id_)
        elif d not in issued:
            out.append(msg("{what} revokes a token no entry before it issued", what=what))
        expected, prev = id_ + 1, hash_
    if history and key is not None and keyed_at is None:
        out.append(msg("no entry of the tokens history is hashed with its key, though banco "
                       "made the key to hash the first entry it wrote after it: the history "
                       "was rewritten without the key (or the key is another database's)"))
    return out


def N_(message: str) -> str:  # a message marked for the catalogs, said later through msg
    return message


UNCHECKED = N_("the tokens' history: its key is not here ({path}), so {n} of its {total} entries "
             "(hashed with the key, or changed since) and whether the history was rewritten "
             "and re-chained without the key are not checked, only each entry's link to the "
             "one before it; `banco audit` where the key is checks them")

UNKEYED = N_("the tokens' history: no key beside it ({path}), and its {total} entries are hashed "
             "without one, as a banco from before the key wrote them or as a rewrite of the "
             "history without the key would: each entry's link to the one before it is "
             "checked, not who wrote them; `banco audit` where the key is tells them apart")


def unchecked_in(history: list[tuple], key: bytes | None, where: str) -> list[Text]:
    """What the audit and doctor could not check of a tokens history because its key is not
    here (`where`: the key's path): said beside their verdict, not as a problem.  Each entry's
    link and order are still checked; neither the entries hashed with the key (nor edited
    ones, which read the same) nor a history rewritten and re-chained without the key (which
    the key would show) can be told apart from banco's here."""
    if key is not None or not history:
        return []
    unknown = sum(1 for entry in history if hashed(entry, None) is None)
    if not unknown:  # a history from before the key, or one rewritten without it: alike here
        return [msg(UNKEYED, path=where, total=len(history))]
    return [msg(UNCHECKED, path=where, n=unknown, total=len(history))]


# What Keyring.find reads of the entries of one digest (either store), by id: each with the
# hash of the entry before it (NULL: none, or deleted), to hold its link as it loads, and how
# many entries follow it and the last one's number (a gap: an entry after it deleted, its
# revocation perhaps).
FIND_COLUMNS = ("kind, digest, prefix, role, player, game, at, id, prev, hash, "
                "(SELECT b.hash FROM {table} b WHERE b.id = t.id - 1), "
                "(SELECT COUNT(*) FROM {table} a WHERE a.id > t.id), "
                "(SELECT MAX(a.id) FROM {table} a)")
LAST = f"SELECT {COLUMNS} FROM {{table}} ORDER BY id DESC LIMIT 1"


def live_token(rows: list[tuple], wanted: str, key: bytes | None = None,
               last: tuple | None = None) -> Token | None:
    """The live token among the entries of the digest `wanted` (FIND_COLUMNS), else None: one
    issue, no revocation, its hash banco's (plain, or keyed with `key`), following the entry
    before it, no entry after it missing; and, with the key, the history's `last` entry (COLUMNS) keyed, which a history
    rewritten without the key is not.  The digests compared in constant time."""
    issued = [r for r in rows if r[0] == "issue" and hmac.compare_digest(r[1], wanted)]
    if len(issued) != 1 or any(r[0] == "revoke" for r in rows):
        return None
    r = issued[0]
    if hashed((r[7], *r[:7], r[8], r[9]), key) is None:
        return None  # an entry banco did not write (`banco audit` names it)
    if r[8] != (GENESIS if r[7] == 1 else r[10]):
        return None  # not chained to the entry before it: written by hand, or that one was
    if r[12] - r[7] != r[11]:
        return None  # an entry after it is missing: its revocation taken back, perhaps
    if key is not None and (last is None or hashed(last, key) != KEYED):
        return None  # the history's end was not written with the key: rewritten without it
    return Token(*r[2:7])


def wanted_digest(secret: str | None) -> str | None:
    """The digest to look a presented secret up by, or None for one no token can have."""
    if not secret or not secret.startswith(PREFIX) or len(secret) > 200:
        return None
    return digest(secret)


def new_secret(role: str, game: int, now: str, player: str | None) -> tuple[str, Token]:
    """A new token's secret and its row (not yet kept), the role and player checked."""
    if role not in ROLES:
        raise ValueError(role)
    if (role == "player" and player is None) or (role not in ("player", "referee")
                                                 and player is not None):
        # a referee's token may name its referee, who alone it records as (cli/web/
        # permissions.py); an older unnamed one records as any referee
        raise ValueError("a player's token names the player, a referee's may; no other does")
    if game == EVERY_GAME and role != "banker":
        raise ValueError("only the banker's token may be for every game")
    secret = PREFIX + secrets.token_urlsafe(24)
    return secret, Token(secret[len(PREFIX):len(PREFIX) + PREFIX_CHARS], role, player, game, now)
