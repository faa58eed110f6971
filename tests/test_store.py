"""Behaviours every event store must have: append, read back, conflict, integrity."""

import multiprocessing
import sqlite3

import pytest

from ledger.canonical import GENESIS, row_hash
from ledger.errors import ConflictError
from ledger.store import NewEvent, SQLiteStore, verify_chain

AT = "2026-11-29T10:00:00.000000Z"


@pytest.fixture
def store(tmp_path):
    s = SQLiteStore(str(tmp_path / "book.db"))
    yield s
    s.close()


def add(store, game, expected, *datas, cid=None):
    return store.append(game, expected, [NewEvent("Note", d) for d in datas], recorded_at=AT,
                        actor="test", command_id=cid or f"c{expected}-{len(datas)}-{game}")


def test_append_and_read_back_in_order(store):
    add(store, 1, 0, {"n": 1}, {"n": 2})
    add(store, 1, 2, {"n": 3})
    rows = store.read(1)
    assert [r["seq"] for r in rows] == [1, 2, 3]
    assert [r["data"]["n"] for r in rows] == [1, 2, 3]
    assert rows[0]["prev_hash"] == GENESIS and rows[1]["prev_hash"] == rows[0]["hash"]
    assert all(r["schema_version"] == 1 and r["recorded_at"] == AT for r in rows)
    assert store.read(1, after=2)[0]["data"] == {"n": 3}
    assert store.last_seq(1) == 3 and store.head(1) == rows[-1]["hash"]


def test_games_are_kept_apart(store):
    add(store, 1, 0, {"g": 1})
    add(store, 2, 0, {"g": 2})
    assert [r["data"] for r in store.read(2)] == [{"g": 2}]
    assert store.next_game_id() == 3


def test_a_stale_writer_gets_a_conflict_and_writes_nothing(store, tmp_path):
    other = SQLiteStore(str(tmp_path / "book.db"))
    add(store, 1, 0, {"n": 1})
    add(other, 1, 1, {"by": "other"}, cid="other")
    with pytest.raises(ConflictError) as err:
        add(store, 1, 1, {"by": "stale"}, cid="stale")
    assert "retry" in str(err.value)
    assert [r["data"] for r in store.read(1)] == [{"n": 1}, {"by": "other"}]
    other.close()


def test_a_retried_command_is_appended_once(store):
    first = add(store, 1, 0, {"n": 1}, cid="same")
    again = add(store, 1, 0, {"n": 1}, cid="same")
    assert [r["hash"] for r in again] == [r["hash"] for r in first]
    assert len(store.read(1)) == 1


def test_all_events_of_a_command_or_none(store):
    with pytest.raises(TypeError):
        store.append(1, 0, [NewEvent("Note", {"n": 1}), NewEvent("Note", {"bad": 1.5})],
                     recorded_at=AT, actor="t", command_id="x")
    assert store.read(1) == []
    assert not store.conn.in_transaction


def test_update_and_delete_are_refused_by_the_database(store):
    add(store, 1, 0, {"n": 1})
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        store.conn.execute("UPDATE events SET data='{}' WHERE seq=1")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        store.conn.execute("DELETE FROM events")
    assert len(store.read(1)) == 1


def test_wal_and_full_sync(store):
    assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_the_hash_is_over_banco_canonical_json(store):
    row = add(store, 1, 0, {"b": 2, "a": "è"})[0]
    assert row["hash"] == row_hash(GENESIS, row)
    stored = store.conn.execute("SELECT data FROM events").fetchone()[0]
    assert stored == '{"a":"è","b":2}'


def _tamper(store, sql):
    store.conn.execute("DROP TRIGGER events_no_update")
    store.conn.execute("DROP TRIGGER events_no_delete")
    for statement in sql.split(";"):
        store.conn.execute(statement)


@pytest.mark.parametrize("sql,bad", [
    ("UPDATE events SET data='{\"n\":99}' WHERE seq=3", 3),
    ("DELETE FROM events WHERE seq=3", 3),
    ("UPDATE events SET seq=-2 WHERE seq=2;UPDATE events SET seq=2 WHERE seq=4;"
     "UPDATE events SET seq=4 WHERE seq=-2", 2),
    ("UPDATE events SET recorded_at='2020-01-01T00:00:00.000000Z' WHERE seq=5", 5),
])
def test_chain_verification_names_the_first_bad_seq(store, sql, bad):
    for i in range(5):
        add(store, 1, i, {"n": i + 1})
    assert verify_chain(store.read(1))[2] is None
    _tamper(store, sql)
    count, head, problem = verify_chain(store.read(1))
    assert problem is not None and problem.seq == bad


def _writer(path, worker, count):
    s = SQLiteStore(path)
    done = 0
    while done < count:
        last = s.last_seq(1)
        try:
            s.append(1, last, [NewEvent("Note", {"w": worker, "i": done})], recorded_at=AT,
                     actor=f"w{worker}", command_id=f"w{worker}-{done}")
            done += 1
        except ConflictError:
            continue
    s.close()


def test_two_processes_appending_to_one_game_lose_and_duplicate_nothing(tmp_path):
    path = str(tmp_path / "race.db")
    SQLiteStore(path).close()
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_writer, args=(path, w, 60)) for w in (1, 2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
        assert p.exitcode == 0
    s = SQLiteStore(path)
    rows = s.read(1)
    assert [r["seq"] for r in rows] == list(range(1, 121))
    seen = {(r["data"]["w"], r["data"]["i"]) for r in rows}
    assert seen == {(w, i) for w in (1, 2) for i in range(60)}
    assert verify_chain(rows)[2] is None
    s.close()
