"""The store behaviours (tests/store_suite.py) run against every implementation of
ledger/store/protocol.py: SQLite and PostgreSQL (on the run's throwaway server,
tests/pg_cluster.py); another store adds a kit to KITS and nothing else."""

from __future__ import annotations

import functools

import pytest
from store_suite import StoreKit, StoreSuite
from store_suite_integrity import IntegritySuite
from store_suite_reading import ReadingSuite

from banco.ledger.store.sqlite import SQLiteStore


def _sqlite_update(store: SQLiteStore, game: int, seq: int) -> None:
    store.conn.execute("UPDATE events SET data='{}' WHERE game_id=? AND seq=?", (game, seq))


def _sqlite_delete(store: SQLiteStore, game: int, seq: int) -> None:
    store.conn.execute("DELETE FROM events WHERE game_id=? AND seq=?", (game, seq))


def _sqlite_tamper(store: SQLiteStore, game: int, seq: int, data: str) -> None:
    """What someone with the file can do: drop the guard, edit the row, put the guard back."""
    conn = store.conn
    conn.execute("DROP TRIGGER events_no_update")
    conn.execute("UPDATE events SET data=? WHERE game_id=? AND seq=?", (data, game, seq))
    conn.execute("CREATE TRIGGER events_no_update BEFORE UPDATE ON events "
                 "BEGIN SELECT RAISE(ABORT, 'events are append-only: UPDATE refused'); END")


def _sqlite_set_head(store: SQLiteStore, game: int, head: str) -> None:
    store.conn.execute("UPDATE games SET head=? WHERE game_id=?", (head, game))


def _sqlite_tamper_snapshot(store: SQLiteStore, game: int, seq: int, text: str) -> None:
    store.conn.execute("UPDATE snapshots SET state=? WHERE game_id=? AND seq=?", (text, game, seq))


def sqlite_kit(tmp_path) -> StoreKit:
    # a generous lock wait: the concurrency behaviours queue several writers on one file
    opener = functools.partial(SQLiteStore, str(tmp_path / "store.db"), wait=60.0)
    return StoreKit("sqlite", opener, _sqlite_update, _sqlite_delete, _sqlite_tamper,
                    _sqlite_tamper_snapshot,
                    lambda store, name: store.conn.execute(f"DROP TRIGGER {name}"),
                    _sqlite_set_head)


# PostgreSQL (ledger/store/postgres.py): beneath the store is the tables' owner, the admin.
def _pg_admin(store, sql: str, args: tuple) -> None:
    """A raw statement as the tables' owner: past banco's role's grants, to the triggers."""
    import psycopg

    with psycopg.connect(store.admin_url, autocommit=True) as conn:
        conn.execute(sql, args)


def _pg_update(store, game: int, seq: int) -> None:
    _pg_admin(store, "UPDATE banco.events SET data='{}' WHERE game_id=%s AND seq=%s", (game, seq))


def _pg_delete(store, game: int, seq: int) -> None:
    _pg_admin(store, "DELETE FROM banco.events WHERE game_id=%s AND seq=%s", (game, seq))


def _pg_tamper(store, game: int, seq: int, data: str) -> None:
    """What the database's owner can do: switch the triggers off for a moment."""
    import psycopg

    with psycopg.connect(store.admin_url) as conn, conn.transaction():
        conn.execute("ALTER TABLE banco.events DISABLE TRIGGER USER")
        conn.execute("UPDATE banco.events SET data=%s WHERE game_id=%s AND seq=%s",
                     (data, game, seq))
        conn.execute("ALTER TABLE banco.events ENABLE TRIGGER USER")


def _pg_tamper_snapshot(store, game: int, seq: int, text: str) -> None:
    _pg_admin(store, "UPDATE banco.snapshots SET state=%s WHERE game_id=%s AND seq=%s",
              (text, game, seq))


def _pg_set_head(store, game: int, head: str) -> None:
    _pg_admin(store, "UPDATE banco.games SET head=%s WHERE game_id=%s", (head, game))


def _pg_open(url: str, admin: str):
    from banco.ledger.store.postgres import PostgresStore

    store = PostgresStore(url, wait=60.0)
    store.admin_url = admin  # the kit's way beneath the store
    return store


def postgres_kit(tmp_path) -> StoreKit:
    import pg_cluster  # the run's throwaway server (skipped without one, failed under CI=true)

    url, admin = pg_cluster.database()
    return StoreKit("postgres", functools.partial(_pg_open, url, admin), _pg_update,
                    _pg_delete, _pg_tamper, _pg_tamper_snapshot,
                    lambda store, name: _pg_admin(
                        store, f"ALTER TABLE banco.events DISABLE TRIGGER {name}", ()),
                    _pg_set_head)


KITS = {"sqlite": sqlite_kit, "postgres": postgres_kit}


@pytest.fixture(params=sorted(KITS))
def kit(request, tmp_path) -> StoreKit:
    return KITS[request.param](tmp_path)


@pytest.fixture
def store(kit):
    s = kit.open()
    yield s
    s.close()


class TestStoreBehaviour(StoreSuite, IntegritySuite, ReadingSuite):
    """Every behaviour of the suite, once per kit."""
