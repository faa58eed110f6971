"""Which store `--db` names: a postgresql:// URL is the PostgreSQL store (the optional extra
`postgres`), anything else a SQLite file."""

from __future__ import annotations

from banco.ledger.base.errors import DatabaseError
from banco.ledger.store.postgres_connection import is_postgres_url, shown
from banco.ledger.store.protocol import EventStore


def open_store(db: str, *, create: bool = True, wait: float | None = None) -> EventStore:
    """The store at `db` (see SQLiteStore and PostgresStore for `create` and `wait`)."""
    if is_postgres_url(db):
        try:
            import psycopg  # noqa: F401
        except ImportError:
            raise DatabaseError("{path} is a PostgreSQL database and this banco has no "
                                "PostgreSQL driver: pip install 'banco[postgres]'",
                                path=shown(db)) from None
        from banco.ledger.store.postgres import PostgresStore

        return PostgresStore(db, create=create, wait=wait)
    from banco.ledger.store.sqlite import SQLiteStore

    return SQLiteStore(db, create=create, wait=wait)


def open_tokens(db: str, serving: bool = False):
    """The phones' tokens of the store at `db` (ledger/store/keyring.py FileTokens for a
    SQLite file, ledger/store/postgres_tokens.py PgTokens for a URL): issue, listed, revoke,
    find, paired, unchecked, shorter, close.  `serving`: for the server's lookups on every
    request, with what it reads kept for its life (keyring.Lookout)."""
    if is_postgres_url(db):
        from banco.ledger.store.postgres_tokens import PgTokens

        return PgTokens(open_store(db, create=False), serving)
    from banco.ledger.store.keyring import FileTokens

    return FileTokens(db, serving)


def copy_to(src: EventStore, target: str, *, create: bool = True,
            progress=None, audit=None, skipped=None) -> list[tuple[int, int, str]]:
    """Every game of `src` into the store at `target` (a path or a URL), each verified on
    arrival (ledger/store/copy.py): (game in src, game in target, head) per game copied;
    `progress(events)` told the events copied so far; `audit` run on each game before its
    commit (ledger/store/copy.py CopyAudit); `skipped` told the games the target holds
    whole already."""
    from banco.ledger.store.copy import copy_store

    dst = open_store(target, create=create)
    try:
        return copy_store(src, dst, progress, audit, skipped)
    finally:
        dst.close()
