"""The store behaviours (tests/store_suite.py) on PostgreSQL, as tests/test_store_behaviour.py
runs them on SQLite: the PostgreSQL kit (how to reach beneath the store: the admin's raw
statements) on the run's throwaway server (tests/pg_cluster.py)."""

from __future__ import annotations

import functools

import pytest

pytest.importorskip("ledger.store.protocol", reason="the store protocol (house-store) is not "
                    "merged into this branch yet")

import pg_cluster  # noqa: E402
from store_suite import StoreKit, StoreSuite  # noqa: E402


def _admin(store, sql: str, args: tuple) -> None:
    """A raw statement as the tables' owner: past banco's role's grants, to the triggers."""
    import psycopg

    with psycopg.connect(store.admin_url, autocommit=True) as conn:
        conn.execute(sql, args)


def _update(store, game: int, seq: int) -> None:
    _admin(store, "UPDATE banco.events SET data='{}' WHERE game_id=%s AND seq=%s", (game, seq))


def _delete(store, game: int, seq: int) -> None:
    _admin(store, "DELETE FROM banco.events WHERE game_id=%s AND seq=%s", (game, seq))


def _tamper(store, game: int, seq: int, data: str) -> None:
    """What the database's owner can do: switch the triggers off for a moment."""
    import psycopg

    with psycopg.connect(store.admin_url) as conn, conn.transaction():
        conn.execute("ALTER TABLE banco.events DISABLE TRIGGER USER")
        conn.execute("UPDATE banco.events SET data=%s WHERE game_id=%s AND seq=%s",
                     (data, game, seq))
        conn.execute("ALTER TABLE banco.events ENABLE TRIGGER USER")


def _open(url: str, admin: str):
    from ledger.store.postgres import PostgresStore

    store = PostgresStore(url, wait=60.0)
    store.admin_url = admin  # the kit's way beneath the store
    return store


def postgres_kit() -> StoreKit:
    url, admin = pg_cluster.database()
    return StoreKit("postgres", functools.partial(_open, url, admin), _update, _delete, _tamper)


@pytest.fixture
def kit() -> StoreKit:
    return postgres_kit()


@pytest.fixture
def store(kit):
    s = kit.open()
    yield s
    s.close()


class TestPostgresStoreBehaviour(StoreSuite):
    """Every behaviour of the suite, on PostgreSQL."""
