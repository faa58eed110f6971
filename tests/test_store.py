"""The SQLite store's own behaviours: its file (formats, migration, WAL, read-only files), its
query plans, its errors.  What every store must do, SQLite or not: tests/store_suite.py, run
by tests/test_store_behaviour.py."""

import json
import multiprocessing
import shutil
import sqlite3

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from store_suite import read_checked

from banco.ledger.base.errors import ConflictError, DatabaseError, NoDatabase, UsageError
from banco.ledger.store.canonical import GENESIS, row_hash, stored_row_hash
from banco.ledger.store.sqlite import FORMAT, NewEvent, SQLiteStore, verify_chain

AT = "2026-11-29T10:00:00.000000Z"


@pytest.fixture
def store(tmp_path):
    s = SQLiteStore(str(tmp_path / "book.db"))
    yield s
    s.close()


def add(store, game, expected, *datas, cid=None):
    return store.append(game, expected, [NewEvent("Note", d) for d in datas], recorded_at=AT,
                        actor="test", command_id=cid or f"c{expected}-{len(datas)}-{game}")


def start(store, *players, cid=None, uid=None):
    data = {"players": list(players), "rules": {"name": "classic"}, "edition": "it",
            "first_player": players[0]}
    if uid:
        data["game_uuid"] = uid
    return store.append(None, 0, [NewEvent("Note", {"line": "new"}),
                                  NewEvent("GameStarted", data)],
                        recorded_at=AT, actor="test", command_id=cid or f"new-{players}")


# --- append -----------------------------------------------------------------------------------

def test_append_and_read_back_in_order(store):
    add(store, 1, 0, {"n": 1}, {"n": 2})
    add(store, 1, 2, {"n": 3})
    rows = store.read(1)
    assert [r["seq"] for r in rows] == [1, 2, 3]
    assert [r["data"]["n"] for r in rows] == [1, 2, 3]
    assert rows[0]["prev_hash"] == GENESIS and rows[1]["prev_hash"] == rows[0]["hash"]
    assert all(r["schema_version"] == 1 and r["recorded_at"] == AT for r in rows)
    assert all(r["chain_version"] == 2 for r in rows)
    assert store.read(1, after=2)[0]["data"] == {"n": 3}
    assert store.last_seq(1) == 3 and store.head(1) == rows[-1]["hash"]


def test_games_are_kept_apart(store):
    add(store, 1, 0, {"g": 1})
    add(store, 2, 0, {"g": 2})
    assert [r["data"] for r in store.read(2)] == [{"g": 2}]


def test_a_new_game_takes_the_next_number_and_is_listed(store):
    first = start(store, "Anna", "Bruno", uid="1b4e28ba-2fa1-11d2-883f-0016d3cca427")
    second = start(store, "Carla", "Dario")
    assert (first.game_id, second.game_id) == (1, 2)
    assert not first.replayed and [r["seq"] for r in second] == [1, 2]
    games = store.games()
    assert [(g["game_id"], g["players"], g["rules"], g["edition"], g["events"], g["ended"])
            for g in games] == [(1, ["Anna", "Bruno"], "classic", "it", 2, False),
                                (2, ["Carla", "Dario"], "classic", "it", 2, False)]
    assert games[0]["uuid"] == "1b4e28ba-2fa1-11d2-883f-0016d3cca427"
    assert games[1]["head"] == store.head(2)
    assert store.latest_game(unfinished=True) == 2


def test_the_games_list_follows_the_end_and_its_retraction(store):
    g = start(store, "Anna", "Bruno").game_id
    end = store.append(g, 2, [NewEvent("GameEnded", {"winner": "Anna", "reason": "x"})],
                       recorded_at=AT, actor="t", command_id="end")
    assert store.game(g)["ended"] and store.latest_game(unfinished=True) is None
    assert store.latest_game(unfinished=False) == g
    store.append(g, 3, [NewEvent("EventRetracted", {"seqs": [end[0]["seq"]], "command_id": "end",
                                                    "reason": "undo"})],
                 recorded_at=AT, actor="t", command_id="undo")
    assert not store.game(g)["ended"] and store.latest_game(unfinished=True) == g


def test_all_events_of_a_command_or_none(store):
    with pytest.raises(TypeError):
        store.append(1, 0, [NewEvent("Note", {"n": 1}), NewEvent("Note", {"bad": 1.5})],
                     recorded_at=AT, actor="t", command_id="x")
    assert store.read(1) == [] and store.games() == []
    assert not store.conn.in_transaction
    add(store, 1, 0, {"n": 1})  # the rolled-back first write took its tables with it: fine
    assert len(store.read(1)) == 1


def test_a_store_on_a_missing_file_creates_it_only_by_appending(tmp_path):
    path = tmp_path / "later.db"
    s = SQLiteStore(str(path))
    assert s.games() == [] and s.read(1) == [] and not path.exists()
    add(s, 1, 0, {"n": 1})
    assert path.exists()
    s.close()
    with pytest.raises(NoDatabase, match="no database at .*nope.db"):
        SQLiteStore(str(tmp_path / "nope.db"), create=False)
    assert not (tmp_path / "nope.db").exists()


# --- conflict ---------------------------------------------------------------------------------

def test_a_stale_writer_gets_a_conflict_and_writes_nothing(store, tmp_path):
    other = SQLiteStore(str(tmp_path / "book.db"))
    add(store, 1, 0, {"n": 1})
    add(other, 1, 1, {"by": "other"}, cid="other")
    with pytest.raises(ConflictError) as err:
        add(store, 1, 1, {"by": "stale"}, cid="stale")
    assert "retry" in str(err.value)
    assert [r["data"] for r in store.read(1)] == [{"n": 1}, {"by": "other"}]
    other.close()


def test_a_game_cannot_be_started_twice_under_one_number(store):
    add(store, 1, 0, {"n": 1}, cid="a")
    with pytest.raises(ConflictError, match="now at event 1, expected 0"):
        add(store, 1, 0, {"n": 2}, cid="b")


def test_a_game_identity_is_unique_in_the_file(store):
    start(store, "Anna", "Bruno", uid="1b4e28ba-2fa1-11d2-883f-0016d3cca427")
    with pytest.raises(UsageError, match="game 1 in this database already has the identity"):
        start(store, "Carla", "Dario", uid="1b4e28ba-2fa1-11d2-883f-0016d3cca427")
    assert [g["game_id"] for g in store.games()] == [1]


# --- idempotent retry -------------------------------------------------------------------------

def test_a_retried_command_is_appended_once(store):
    first = add(store, 1, 0, {"n": 1}, cid="same")
    again = add(store, 1, 0, {"n": 1}, cid="same")
    assert [r["hash"] for r in again] == [r["hash"] for r in first]
    assert not first.replayed and again.replayed
    assert len(store.read(1)) == 1


def test_a_retried_start_returns_the_game_it_started(store):
    first = start(store, "Anna", "Bruno", cid="start-1")
    again = start(store, "Anna", "Bruno", cid="start-1")
    assert again.replayed and again.game_id == first.game_id
    assert [r["hash"] for r in again] == [r["hash"] for r in first]
    assert len(store.games()) == 1 and store.find_game(command_id="start-1") == first.game_id


def _plan(store, sql, args):
    return " ".join(r[-1] for r in store.conn.execute("EXPLAIN QUERY PLAN " + sql, args))


def test_retry_lookups_and_the_games_list_use_indexes_not_the_log(store):
    start(store, "Anna", "Bruno")
    plan = _plan(store, "SELECT 1 FROM events WHERE game_id=? AND command_id=? LIMIT 1", (1, "x"))
    assert "USING COVERING INDEX idx_events_game_id_command_id" in plan
    assert "INDEX idx_games_command_id" in _plan(
        store, "SELECT game_id FROM games WHERE command_id=?", ("x",))
    # listing games and finding the current one never touch the events table
    seen = []
    store.conn.set_trace_callback(seen.append)
    store.games()
    store.latest_game(unfinished=True)
    store.game(1)
    store.conn.set_trace_callback(None)
    assert seen and not any("events" in sql for sql in seen)


# --- read -------------------------------------------------------------------------------------

def test_reads_check_the_chain_and_name_the_first_break(store):
    for i in range(5):
        add(store, 1, i, {"n": i + 1})
    rows, problem = read_checked(store, 1)
    assert problem is None and len(rows) == 5
    rows, problem = read_checked(store, 1, after=3, prev_hash=rows[2]["hash"])
    assert problem is None and [r["seq"] for r in rows] == [4, 5]
    _tamper(store, "UPDATE events SET data='{\"n\":99}' WHERE seq=4")
    rows, problem = read_checked(store, 1)
    assert problem == (4, "does not match its hash") and len(rows) == 5
    _tamper(store, "DELETE FROM events WHERE seq=2")
    assert read_checked(store, 1)[1].seq == 2
    assert read_checked(store, 1, after=2, prev_hash="f" * 64)[1].problem.startswith(
        "does not follow")


@settings(max_examples=200, deadline=None)
@given(game=st.integers(1, 10**6), seq=st.integers(1, 10**6), type_=st.text(min_size=1),
       data=st.dictionaries(st.text(), st.one_of(st.integers(), st.text(), st.booleans(),
                                                  st.none(), st.lists(st.integers()))),
       actor=st.one_of(st.none(), st.text()), cid=st.one_of(st.none(), st.text()),
       chain=st.sampled_from([1, 2]))
def test_the_fast_hash_of_a_stored_row_is_the_canonical_hash(game, seq, type_, data, actor, cid,
                                                             chain):
    from banco.ledger.store.canonical import canonical_json

    row = {"game_id": game, "seq": seq, "type": type_, "data": data, "recorded_at": AT,
           "actor": actor, "command_id": cid, "schema_version": 1, "chain_version": chain}
    assert stored_row_hash("ab" * 32, game, seq, type_, canonical_json(data), AT, actor, cid, 1,
                           chain) == row_hash("ab" * 32, row)


def test_the_chain_versions_hash_different_fields(store):
    row = {"game_id": 1, "seq": 1, "type": "Note", "data": {}, "recorded_at": AT, "actor": "a",
           "command_id": "c", "schema_version": 1}
    v1 = row_hash(GENESIS, row)
    assert v1 != row_hash(GENESIS, {**row, "game_id": 2})  # version 1 hashed the local number
    v2 = row_hash(GENESIS, {**row, "chain_version": 2})
    assert v2 == row_hash(GENESIS, {**row, "game_id": 2, "chain_version": 2})
    assert v1 != v2


# --- integrity --------------------------------------------------------------------------------

def test_update_and_delete_are_refused_by_the_database(store):
    add(store, 1, 0, {"n": 1})
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        store.conn.execute("UPDATE events SET data='{}' WHERE seq=1")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        store.conn.execute("DELETE FROM events")
    assert len(store.read(1)) == 1


def test_a_row_hashed_the_old_way_cannot_be_appended_to_format_2(store):
    add(store, 1, 0, {"n": 1})
    with pytest.raises(sqlite3.DatabaseError, match="format 2.*upgrade banco"):
        store.conn.execute("INSERT INTO events (game_id, seq, type, data, recorded_at, "
                           "schema_version, prev_hash, hash) VALUES (1, 2, 'Note', '{}', 'x', 1, "
                           "'p', 'h')")


def test_wal_and_full_sync(store):
    add(store, 1, 0, {"n": 1})
    assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_the_hash_is_over_banco_canonical_json(store):
    row = add(store, 1, 0, {"b": 2, "a": "è"})[0]
    assert row["hash"] == row_hash(GENESIS, row)
    stored = store.conn.execute("SELECT data FROM events").fetchone()[0]
    assert stored == '{"a":"è","b":2}'


def _tamper(store, sql):
    store.conn.execute("DROP TRIGGER IF EXISTS events_no_update")
    store.conn.execute("DROP TRIGGER IF EXISTS events_no_delete")
    for statement in sql.split(";"):
        store.conn.execute(statement)


@pytest.mark.parametrize("sql,bad", [
    ("UPDATE events SET data='{\"n\":99}' WHERE seq=3", 3),
    ("DELETE FROM events WHERE seq=3", 3),
    ("UPDATE events SET seq=-2 WHERE seq=2;UPDATE events SET seq=2 WHERE seq=4;"
     "UPDATE events SET seq=4 WHERE seq=-2", 2),
    ("UPDATE events SET recorded_at='2020-01-01T00:00:00.000000Z' WHERE seq=5", 5),
    ("UPDATE events SET chain_version=1 WHERE seq=4", 4),  # passed off as an old row
    ("UPDATE events SET chain_version=7 WHERE seq=4", 4),
])
def test_chain_verification_names_the_first_bad_seq(store, sql, bad):
    for i in range(5):
        add(store, 1, i, {"n": i + 1})
    assert verify_chain(store.read(1))[2] is None
    _tamper(store, sql)
    count, head, problem = verify_chain(store.read(1))
    assert problem is not None and problem.seq == bad
    assert read_checked(store, 1)[1].seq == bad


# --- format version ---------------------------------------------------------------------------

def test_a_new_file_says_it_is_banco_format_4(store):
    add(store, 1, 0, {"n": 1})
    meta = dict(store.conn.execute("SELECT key, value FROM meta"))
    assert meta["application"] == "banco" and meta["format"] == str(FORMAT) == "4"
    assert meta["created_at"].endswith("Z") and store.format == 4
    assert "migrated_to_4_at" not in meta  # made so, not migrated
    columns = [r[1] for r in store.conn.execute("PRAGMA table_info(events)")]
    assert columns[-2:] == ["chain_version", "table_digest"]


def test_a_format_2_file_is_read_as_it_is_and_gains_the_table_digest_by_the_first_write(
        store):
    """Format 2 had no `table_digest`: its rows are read as they are (NULL in its place) and
    the first write adds the column, rewriting no row."""
    add(store, 1, 0, {"n": 1})
    conn = store.conn
    conn.execute("ALTER TABLE events DROP COLUMN table_digest")
    conn.execute("UPDATE meta SET value='2' WHERE key='format'")
    before = conn.execute("SELECT * FROM events").fetchall()
    old = SQLiteStore(store.path)
    assert old.format == 2 and read_checked(old, 1)[1] is None and "table_digest" not in old.read(1)[0]
    add(old, 1, 1, {"n": 2})
    assert old.format == 4 and read_checked(old, 1)[1] is None
    meta = dict(old.conn.execute("SELECT key, value FROM meta"))
    assert meta["format"] == "4" and meta["migrated_to_3_at"].endswith("Z")
    assert meta["migrated_to_4_at"].endswith("Z")
    assert old.conn.execute("SELECT * FROM events WHERE seq=1").fetchall() == \
        [(*before[0], None)]
    old.close()


def test_a_format_3_file_is_raised_to_4_by_the_first_write_and_not_by_a_reading(store):
    """Format 3 rows were of schema version 2 at most: the first write (rows of schema 3
    follow) raises the number that keeps a banco of format 3 from writing after them, and
    changes nothing else; a reading is no such write."""
    add(store, 1, 0, {"n": 1})
    conn = store.conn
    conn.execute("UPDATE meta SET value='3' WHERE key='format'")
    before = conn.execute("SELECT * FROM events").fetchall()
    old = SQLiteStore(store.path)
    assert old.format == 3 and read_checked(old, 1)[1] is None
    assert old.snapshots(1) == [] and old.read(1)[0]["data"] == {"n": 1}
    assert old.format == 3 and dict(conn.execute("SELECT key, value FROM meta"))["format"] == "3"
    schema = conn.execute("SELECT sql FROM sqlite_master ORDER BY name").fetchall()
    add(old, 1, 1, {"n": 2})
    meta = dict(conn.execute("SELECT key, value FROM meta"))
    assert old.format == 4 and meta["format"] == "4" and meta["migrated_to_4_at"].endswith("Z")
    assert conn.execute("SELECT * FROM events WHERE seq=1").fetchall() == before
    assert conn.execute("SELECT sql FROM sqlite_master ORDER BY name").fetchall() == schema
    assert read_checked(old, 1)[1] is None
    old.close()


def test_a_newer_format_is_read_but_never_written(store, tmp_path):
    add(store, 1, 0, {"n": 1})
    store.conn.execute("UPDATE meta SET value='5' WHERE key='format'")
    newer = SQLiteStore(store.path)
    assert newer.format == 5 and len(newer.read(1)) == 1
    with pytest.raises(DatabaseError, match="format 5, written by a newer banco"):
        add(newer, 1, 1, {"n": 2})
    # the store that opened it as format 4 finds out inside the write lock
    with pytest.raises(DatabaseError, match="format 5"):
        add(store, 1, 1, {"n": 2})
    assert len(newer.read(1)) == 1
    newer.close()


@pytest.mark.parametrize("ddl,says", [
    ("CREATE TABLE events (id INTEGER PRIMARY KEY, what TEXT)", "`events` table that is not banco"),
    ("CREATE TABLE users (id INTEGER)", r"not banco's \(its tables: users\)"),
    ("CREATE TABLE meta (key TEXT, value TEXT)", "`meta` table that is not banco"),
])
def test_another_programs_database_is_left_alone(tmp_path, ddl, says):
    path = str(tmp_path / "theirs.db")
    conn = sqlite3.connect(path)
    conn.execute(ddl)
    conn.commit()
    schema = conn.execute("SELECT sql FROM sqlite_master").fetchall()
    conn.close()
    with pytest.raises(DatabaseError, match=says):
        SQLiteStore(path)
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT sql FROM sqlite_master").fetchall() == schema  # nothing added
    conn.close()


def test_a_format_1_file_is_read_as_it_is_and_migrated_by_the_first_write(tmp_path):
    from format1 import OLD_DB

    path = str(tmp_path / "old.db")
    shutil.copy(OLD_DB, path)
    before = sqlite3.connect(path).execute(
        "SELECT game_id, seq, type, data, recorded_at, actor, command_id, schema_version, "
        "prev_hash, hash FROM events ORDER BY game_id, seq").fetchall()
    old = SQLiteStore(path)
    assert old.format == 1
    assert [(g["game_id"], g["players"], g["events"]) for g in old.games()] == [
        (1, ["Anna", "Bruno", "Carla", "Dario"], 66), (2, ["Ada", "Bea"], 8)]
    rows, problem = read_checked(old, 1)
    assert problem is None and all(r["chain_version"] == 1 for r in rows)
    tables = {r[0] for r in old.conn.execute("SELECT name FROM sqlite_master")}
    assert "meta" not in tables and "games" not in tables  # reading changed nothing
    appended = add(old, 2, 8, {"n": 1})
    assert old.format == 4 and appended[0]["chain_version"] == 2
    meta = dict(old.conn.execute("SELECT key, value FROM meta"))
    assert (meta["format"], meta["migrated_from"], meta["migrated_games"]) == ("4", "1", "2")
    assert meta["migrated_at"].endswith("Z")
    after = old.conn.execute(
        "SELECT game_id, seq, type, data, recorded_at, actor, command_id, schema_version, "
        "prev_hash, hash FROM events WHERE chain_version=1 ORDER BY game_id, seq").fetchall()
    assert after == before  # not one old row rewritten
    for g in (1, 2):
        assert verify_chain(old.read(g))[2] is None and read_checked(old, g)[1] is None
    assert [(g["game_id"], g["events"], g["ended"]) for g in old.games()] == [
        (1, 66, False), (2, 9, False)]
    old.close()


def test_a_reader_opened_before_a_migration_reads_the_new_rows(tmp_path):
    from format1 import OLD_DB

    path = str(tmp_path / "old.db")
    shutil.copy(OLD_DB, path)
    reader, writer = SQLiteStore(path), SQLiteStore(path)
    assert reader.format == 1 and len(reader.read(2)) == 8
    add(writer, 2, 8, {"n": 1})
    rows, problem = read_checked(reader, 2)
    assert problem is None and rows[-1]["chain_version"] == 2 and reader.format == 4
    reader.close()
    writer.close()


# --- several processes ------------------------------------------------------------------------

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
    path = str(tmp_path / "race.db")  # not created beforehand: both race to create it too
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


def _starter(path, worker, count):
    s = SQLiteStore(path)
    for i in range(count):
        start(s, f"P{worker}", f"Q{i}", cid=f"w{worker}-{i}")
    s.close()


def test_games_started_at_once_on_a_new_file_all_get_distinct_numbers(tmp_path):
    path = str(tmp_path / "starts.db")
    ctx = multiprocessing.get_context("fork")
    procs = [ctx.Process(target=_starter, args=(path, w, 5)) for w in range(4)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    s = SQLiteStore(path)
    games = s.games()
    assert [g["game_id"] for g in games] == list(range(1, 21))
    assert sorted(g["players"][0] + g["players"][1] for g in games) == sorted(
        f"P{w}Q{i}" for w in range(4) for i in range(5))
    assert all(json.dumps(s.read(g["game_id"])[1]["data"]["players"]) for g in games)
    s.close()
