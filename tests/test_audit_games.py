"""The audit of a game (projections/audit/audit_games.py): up to an event, as if the log
ended there; and the games of a file one a worker process, each report the one pass's, word
for word, on clean and tampered games, whatever the workers meet (a thread beside the parent,
spawn instead of fork, a worker that fails, a result the parent cannot read, Ctrl-C)."""

from __future__ import annotations

import json
import pickle
import shutil
import sqlite3
import sys
from pathlib import Path

import pytest
from forge import drop_triggers, rechain_stored
from helpers import child_pids

from banco.ledger.store.canonical import canonical_json
from banco.ledger.store.sqlite import SQLiteStore
from banco.projections.audit import audit_games as ag
from banco.projections.audit.audit import GameAudit

sys.path.insert(0, str(Path(__file__).parent / "tools"))


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> Path:
    """A generated game of about 3,000 events (every command decided, undos among them)."""
    import big_games

    db = tmp_path_factory.mktemp("long") / "long.db"
    store = SQLiteStore(str(db))
    big_games.write_game(store, 3000, 7)
    store.close()
    return db


def log(db) -> list[tuple]:
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT seq, type, data FROM events WHERE game_id=1 "
                            "ORDER BY seq").fetchall()
    finally:
        conn.close()


def forge(db, *sql, args=()) -> None:
    conn = sqlite3.connect(db)
    drop_triggers(conn)
    for s, a in zip(sql, args or [()] * len(sql), strict=True):
        conn.execute(s, a)
    conn.commit()
    conn.close()


def one_pass(db) -> dict:
    store = SQLiteStore(str(db), create=False)
    try:
        return GameAudit(1, store.raw_rows(1), snapshots=store.snapshots(1)).run().document()
    finally:
        store.close()


def test_a_game_audited_up_to_an_event_is_the_game_cut_there(template, tmp_path):
    """`last`: the audit of the game as it stood at that event (what `banco report` pins its
    page and its audit to, issue 21), whatever came after it, a bad row included: the report
    on a copy of the game cut there, word for word."""
    db = tmp_path / "long.db"
    shutil.copy(template, db)
    rows = log(db)
    at = next(s for s, t, _ in rows[len(rows) * 2 // 3:] if t == "CommandRecorded") - 1
    shorter = tmp_path / "cut.db"
    shutil.copy(db, shorter)
    forge(shorter, f"DELETE FROM events WHERE game_id=1 AND seq>{at}",
          f"DELETE FROM snapshots WHERE game_id=1 AND seq>{at}")
    # in the whole game, the row after it does not match its hash: never read
    forge(db, "UPDATE events SET hash=(CASE WHEN substr(hash, 1, 1)='0' THEN '1' ELSE '0' END) || substr(hash, 2) WHERE game_id=1 AND seq=?",
          args=[(at + 1,)])
    store = SQLiteStore(str(db), create=False)
    try:
        upto = ag.audit_game(store, 1, last=at).document()
        whole = ag.audit_game(store, 1).document()
    finally:
        store.close()
    assert upto == one_pass(shorter)
    assert upto["ok"] and upto["events"] == at
    assert not whole["ok"] and whole["bad_seq"] == at + 1


def test_the_table_at_a_moment_is_the_fold_of_the_log_up_to_it(template):
    """`state --at SEQ` folds chunk by chunk from rows checked as read (it held the whole log):
    the same table as a fold of the rows up to SEQ, undos and all, wherever SEQ falls."""
    from banco.ledger.book import Book
    from banco.ledger.table.state import fold

    store = SQLiteStore(str(template), create=False)
    rows = store.read(1)
    store.close()
    undos = [r["seq"] for r in rows if r["type"] == "EventRetracted"]
    assert undos, "the generated game has undos"
    book = Book(str(template), create=False)
    book.CHUNK = 97  # chunks that end anywhere, inside commands too
    moments = sorted({2, 3, 50, 97, 98, 1000, len(rows)} | {u for u in undos[:20]}
                     | {u - 1 for u in undos[:20]} | {u + 1 for u in undos[:20]})
    for at in moments:
        if at > len(rows):
            continue
        assert book.state(1, at) == fold(rows[:at], 1), at
    book.store.close()


# --- many games, one a worker -------------------------------------------------------------------

@pytest.fixture(scope="module")
def archive(tmp_path_factory) -> Path:
    """A tournament's archive in small: eight games of about 300 events, two of them tampered
    with (a changed amount re-chained in game 3, a deleted row in game 6)."""
    import big_games

    db = tmp_path_factory.mktemp("archive") / "archive.db"
    store = SQLiteStore(str(db))
    for seed in range(8):
        big_games.write_game(store, 300, 100 + seed)
    store.close()
    conn = sqlite3.connect(db)
    drop_triggers(conn)
    seq, data = conn.execute("SELECT seq, data FROM events WHERE game_id=3 AND type='RentPaid' "
                             "ORDER BY seq LIMIT 1").fetchone()
    forged = json.loads(data)
    forged["amount"] += 100
    conn.execute("UPDATE events SET data=? WHERE game_id=3 AND seq=?",
                 (canonical_json(forged), seq))
    rechain_stored(conn, 3, seq)
    conn.execute("DELETE FROM events WHERE game_id=6 AND seq=120")
    conn.commit()
    conn.close()
    return db


@pytest.fixture
def apart(monkeypatch) -> list:
    """What the workers handed back for each audit of games apart (None: they failed, and
    the games were audited in the parent)."""
    seen: list = []
    games_apart = ag._games_apart
    monkeypatch.setattr(ag, "_games_apart",
                        lambda *a: seen.append(games_apart(*a)) or seen[-1])
    return seen


def reports(db: Path, processes: int) -> list[dict]:
    store = SQLiteStore(str(db), create=False)
    try:
        ids = sorted(g["game_id"] for g in store.games())
        return [r.document() for r in ag.audit_games(store, ids, None, processes, at_least=0)]
    finally:
        store.close()


@pytest.fixture(scope="module")
def by_one_pass(archive) -> list[dict]:
    return reports(archive, 1)


def test_the_games_of_a_file_one_a_worker_give_the_one_pass_reports(archive, by_one_pass,
                                                                    apart):
    one = by_one_pass
    assert apart == []  # one process: no worker
    assert [r["game"] for r in one if not r["ok"]] == [3, 6]
    assert one[5]["bad_seq"] == 120 and len(one) == 8
    assert reports(archive, 2) == one
    # the first game in the parent, the other seven by the workers; the tampered games named
    # by them at the same seq and in the same words
    assert sorted(apart[0]) == list(range(2, 9))
    assert not apart[0][3].ok and not apart[0][6].ok


def test_a_process_with_other_threads_starts_its_workers_fresh(archive, by_one_pass, apart):
    """fork beside another thread (a server's, a test's) can leave a worker waiting for ever on
    a lock that thread held: the workers then come from forkserver, and the reports are the
    same."""
    import threading

    stop = threading.Event()
    waiter = threading.Thread(target=stop.wait, daemon=True)
    waiter.start()
    try:
        assert ag.pool_context().get_start_method() in ("forkserver", "spawn")
        assert reports(archive, 2) == by_one_pass
        assert apart and apart[-1] is not None  # audited by the workers
    finally:
        stop.set()
        waiter.join()
    if threading.active_count() == 1:  # (an earlier test may have left a thread of its own)
        assert ag.pool_context().get_start_method() == "fork"


def test_workers_started_by_spawn_give_the_same_reports(archive, by_one_pass, apart,
                                                        monkeypatch):
    """Where fork is not available (macOS, Windows) the workers are spawned: fresh processes
    that import banco and open the file themselves."""
    import multiprocessing

    monkeypatch.setattr(ag, "pool_context", lambda: multiprocessing.get_context("spawn"))
    assert reports(archive, 2) == by_one_pass and apart[-1] is not None


def _fails(task):
    raise OSError("no such file")


class _Unreadable:
    """A result the parent cannot unpickle."""

    def __reduce__(self):
        return (_cannot_rebuild, ())


def _cannot_rebuild():
    raise TypeError("cannot rebuild this result")


def _unreadable(task):
    return pickle.dumps(_Unreadable())


@pytest.mark.parametrize("worker", [_fails, _unreadable], ids=["fails", "unreadable"])
def test_workers_that_fail_leave_the_games_to_the_parent(archive, by_one_pass, apart,
                                                         monkeypatch, worker):
    """A worker that cannot read the file (or no processes at all), or whose result cannot be
    read here (the pool's own thread died on one, and the parent waited for ever): the games
    are audited in the parent, with the same reports."""
    import signal

    monkeypatch.setattr(ag, "_game_worker", worker)
    hung = []

    def stop(*_):
        hung.append(True)
        raise TimeoutError("the audit hung")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(60)
    try:
        assert reports(archive, 2) == by_one_pass
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert not hung, "the parent waited for a result it could not read"
    assert apart == [None]


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux's /proc")
def test_ctrl_c_stops_the_workers_with_one_line_and_exit_130(tmp_path):
    """Ctrl-C at a terminal reaches the whole process group: the workers once printed a
    traceback each, and click's "Aborted!" exited 1 (banco's code for a refusal)."""
    import os
    import signal
    import subprocess
    import time

    import big_games

    db = tmp_path / "many.db"  # enough events in all for `banco audit` to start its workers
    store = SQLiteStore(str(db))
    while sum(g["events"] for g in store.games()) < ag.AT_LEAST:
        big_games.write_game(store, 3000, 200 + len(store.games()))
    store.close()
    banco = Path(sys.executable).parent / "banco"
    env = {**os.environ, "BANCO_AUDIT_WORKERS": "2"}
    proc = subprocess.Popen([str(banco), "--db", str(db), "audit"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)  # its own group, as a terminal gives it
    deadline = time.monotonic() + 30
    while not child_pids(proc.pid) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert proc.poll() is None, "the audit ended before its workers could be interrupted"
    time.sleep(0.2)
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, (out, err)
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    assert err.strip() == "interrupted"
    time.sleep(0.2)
    with pytest.raises(ProcessLookupError):  # no worker left behind
        os.killpg(proc.pid, 0)
