"""The phones' tokens on PostgreSQL (`banco token`, `banco serve` with `--db postgresql://...`):
the history of ledger/store/tokens.py in the table `banco.tokens` (ledger/store/postgres_schema.py),
through the PostgreSQL store's connection and its one-line errors.

The same guarantees as the SQLite file's: only the secret's SHA-256 kept; entries numbered
1, 2, 3 ... and chained with the same hash (a history copied from one store would verify on
the other); append-only for everyone (triggers refuse UPDATE, DELETE and TRUNCATE, and banco's
role is granted only SELECT and INSERT); a revocation is an entry, looked for on every request,
so a running server refuses a revoked token at once.  Two `banco token` at once are serialised
by an advisory lock (the next number and the hash before it read as one).
"""

from __future__ import annotations

import threading

from banco.ledger.base.errors import DatabaseError
from banco.ledger.base.text import Text
from banco.ledger.store import token_key
from banco.ledger.store.keyring import Lookout
from banco.ledger.store.postgres_connection import guarded
from banco.ledger.store.postgres_schema import LOCKS, SCHEMA, TOKENS_LOCK, install_missing
from banco.ledger.store.tokens import (
    COLUMNS,
    FIND_COLUMNS,
    GENESIS,
    LAST,
    Token,
    digest,
    entry_hash,
    new_secret,
    wanted_digest,
)

TABLE = f"{SCHEMA}.tokens"
INSERT = f"INSERT INTO {TABLE} ({COLUMNS}) VALUES ({', '.join(['%s'] * 10)})"
# the tokens issued, each with its first revocation if any
TOKENS = (f"SELECT i.prefix, i.role, i.player, i.game, i.at, (SELECT MIN(r.at) FROM {TABLE} r "
          f"WHERE r.kind = 'revoke' AND r.digest = i.digest) FROM {TABLE} i "
          "WHERE i.kind = 'issue'")
LIVE = f"NOT EXISTS (SELECT 1 FROM {TABLE} r WHERE r.kind = 'revoke' AND r.digest = i.digest)"


def has_table(conn) -> bool:
    return conn.execute("SELECT to_regclass(%s)", (TABLE,)).fetchone()[0] is not None


def entries(conn) -> list[tuple]:
    """The history as written, in order (tokens.COLUMNS), for the audit; [] without the table."""
    if not has_table(conn):
        return []
    return conn.execute(f"SELECT {COLUMNS} FROM {TABLE} ORDER BY id").fetchall()


class PgTokens:
    """The tokens of one PostgreSQL database, through `store` (a PostgresStore: its connection
    and its errors; closed with this).  The same methods as keyring.FileTokens, and a
    server's (`serving`) memory of what it read, as a SQLite file's Keyring keeps it
    (keyring.Lookout): every revocation, the history's length, what no key lets it check."""

    def __init__(self, store, serving: bool = False):
        self.store = store
        self.lock = threading.Lock()  # one connection shared by the server's threads
        self.key: bytes | None = None  # the history's key (token_key.py), once there is one
        self.lookout = Lookout()
        if serving:
            self._opened()

    @guarded(writing=False)
    def _opened(self) -> None:
        """The history as the server starts: what it keeps for its life (keyring.Lookout)."""
        with self.lock:
            history = entries(self._conn())
        self.lookout.opened(history, token_key.load(self.store.path),
                            str(token_key.key_path(self.store.path)))

    def unchecked(self) -> list[Text]:
        """What the server could not check of the tokens' history as it started (no key)."""
        return self.lookout.unchecked()

    def shorter(self) -> Text | None:
        """Said once, when the history is found shorter than this server had read it."""
        return self.lookout.shorter()

    def explain(self, exc: Exception, writing: bool) -> DatabaseError:
        return self.store.explain(exc, writing)

    def close(self) -> None:
        self.store.close()

    def _ensure(self, conn) -> None:
        """Inside the write transaction: the table, for a database whose banco tables were
        installed before it (created when the URL's role may, else the owner installs it)."""
        if not install_missing(conn, TABLE):
            raise DatabaseError("{path} has no table for the phones' tokens yet, and its user "
                                "may not create it; nothing was recorded: the database's "
                                "owner installs it with `python -m banco.ledger.store.postgres_setup "
                                "URL --role USER`", path=self.store.shown)

    def _append(self, conn, kind: str, digest_: str, prefix: str, role: str,
                player: str | None, game: int, at: str) -> None:
        key = token_key.load(self.store.path, create=True)
        last = conn.execute(f"SELECT id, hash FROM {TABLE} ORDER BY id DESC LIMIT 1").fetchone()
        id_, prev = (last[0] + 1, last[1]) if last else (1, GENESIS)
        conn.execute(INSERT, (id_, kind, digest_, prefix, role, player, game, at, prev,
                              entry_hash(prev, id_, kind, digest_, prefix, role, player, game,
                                         at, key)))

    def _conn(self):
        """The store's connection, new if PostgreSQL dropped it (a restart, or ended while
        idle: the server's evening pairs phones long after its last token).  Under the lock."""
        self.store.revive()
        return self.store.conn

    @guarded(writing=True)
    def issue(self, role: str, game: int, now: str, player: str | None = None
              ) -> tuple[str, Token]:
        """A new token: its secret (shown once, never stored) and its row."""
        secret, row = new_secret(role, game, now, player)
        with self.lock:
            conn = self._conn()
            with conn.transaction():
                self._ensure(conn)
                conn.execute("SELECT pg_advisory_xact_lock(%s, %s)", (LOCKS, TOKENS_LOCK))
                self._append(conn, "issue", digest(secret), row.prefix, role, player, game,
                             now)
        return secret, row

    @guarded(writing=False)
    def listed(self, game: int | None = None) -> list[Token]:
        with self.lock:
            conn = self._conn()
            if not has_table(conn):
                return []
            rows = conn.execute(f"{TOKENS} AND (%s::bigint IS NULL OR i.game = %s OR i.game = 0) "
                                "ORDER BY i.at, i.prefix", (game, game)).fetchall()
        return [Token(*r) for r in rows]

    @guarded(writing=True)
    def revoke(self, prefix: str, now: str, digest_: str | None = None) -> list[Token]:
        """Revoke the live tokens whose prefix starts with `prefix` (and whose digest is
        `digest_`, when given); the ones revoked."""
        like = prefix  # a label as listed: its own letters may begin `bt_` (1 in 262,144)
        if not prefix:
            return []
        with self.lock:
            conn = self._conn()
            if not has_table(conn):
                return []
            with conn.transaction():
                conn.execute("SELECT pg_advisory_xact_lock(%s, %s)", (LOCKS, TOKENS_LOCK))
                rows = conn.execute(
                    f"SELECT i.digest, i.prefix, i.role, i.player, i.game, i.at FROM {TABLE} i "
                    f"WHERE i.kind = 'issue' AND left(i.prefix, %s) = %s AND (%s::text IS "
                    f"NULL OR i.digest = %s) AND {LIVE} ORDER BY i.id",
                    (len(like), like, digest_, digest_)).fetchall()
                for d, p, role, player, game, _at in rows:
                    self._append(conn, "revoke", d, p, role, player, game, now)
        return [Token(*r[1:6], now) for r in rows]

    # --- the server's lookups, on every request ------------------------------------------------

    def _look(self, sql: str, args: tuple) -> list[tuple] | None:
        """A read of the server's (None: no tokens table), on a new connection when PostgreSQL
        dropped the old one (a restart): the first request after it is answered, rather than
        the dead connection refusing every request until the server restarts.  A read, so
        asking again is harmless.  DatabaseError while no server answers."""
        import psycopg

        with self.lock:
            for again in (False, True):
                conn = self._conn()
                try:
                    return conn.execute(sql, args).fetchall() if has_table(conn) else None
                except psycopg.Error as exc:
                    if again or not conn.broken:
                        raise self.explain(exc, False) from None
        return None  # not reached: the second try returns or raises

    def find(self, secret: str | None) -> Token | None:
        """The live token whose secret this is, else None (keyring.Keyring.find)."""
        wanted = wanted_digest(secret)
        if wanted is None:
            return None
        if self.key is None:  # made by the first entry written with it: looked for till then
            self.key = token_key.load(self.store.path)
        rows = self._look(f"SELECT {FIND_COLUMNS.format(table=TABLE)} FROM {TABLE} t "
                          "WHERE digest = %s ORDER BY id", (wanted,))
        if rows is None:
            return None
        last = None
        if self.key is not None:
            found = self._look(LAST.format(table=TABLE), ())
            last = found[0] if found else None
        return self.lookout.live(rows, wanted, self.key, last)

    def paired(self, game: int) -> set[str]:
        """The players of `game` who hold a live token."""
        rows = self._look(f"SELECT DISTINCT i.player FROM {TABLE} i WHERE i.kind = 'issue' AND "
                          f"i.game = %s AND i.role = 'player' AND {LIVE}", (game,))
        return {r[0] for r in rows or ()}
