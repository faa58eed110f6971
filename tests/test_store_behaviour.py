"""The store behaviours (tests/store_suite.py) run against every implementation of
ledger/store/protocol.py.  Today SQLite; another store adds a kit to KITS and nothing else."""

from __future__ import annotations

import functools

import pytest
from store_suite import StoreKit, StoreSuite

from ledger.store.sqlite import SQLiteStore


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


def _sqlite_tamper_snapshot(store: SQLiteStore, game: int, seq: int, text: str) -> None:
    store.conn.execute("UPDATE snapshots SET state=? WHERE game_id=? AND seq=?", (text, game, seq))


def sqlite_kit(tmp_path) -> StoreKit:
    # a generous lock wait: the concurrency behaviours queue several writers on one file
    opener = functools.partial(SQLiteStore, str(tmp_path / "store.db"), wait=60.0)
    return StoreKit("sqlite", opener, _sqlite_update, _sqlite_delete, _sqlite_tamper,
                    _sqlite_tamper_snapshot)


KITS = {"sqlite": sqlite_kit}


@pytest.fixture(params=sorted(KITS))
def kit(request, tmp_path) -> StoreKit:
    return KITS[request.param](tmp_path)


@pytest.fixture
def store(kit):
    s = kit.open()
    yield s
    s.close()


class TestStoreBehaviour(StoreSuite):
    """Every behaviour of the suite, once per kit."""
