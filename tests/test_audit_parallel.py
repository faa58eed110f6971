"""The audit of a long game on several processes (projections/audit/audit_parallel.py) gives the one
pass's report, word for word: on a clean game, on each tampering wherever it falls (the first
part, a part's first or last event, the last part), with undos reaching behind a part's start,
with --expect-head, and when what a worker works out ahead is wrong."""

from __future__ import annotations

import dataclasses
import json
import shutil
import sqlite3
import sys
from pathlib import Path

import pytest
from forge import drop_triggers, rechain_stored
from helpers import child_pids
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from banco.ledger.store.canonical import canonical_json
from banco.ledger.store.sqlite import SQLiteStore
from banco.projections.audit import audit_parallel as ap
from banco.projections.audit.audit import GameAudit

sys.path.insert(0, str(Path(__file__).parent / "tools"))

CHUNK = 250  # events a part: a game of 3,000 events in a dozen parts


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> Path:
    """A generated game of about 3,000 events (every command decided, undos among them)."""
    import big_games

    db = tmp_path_factory.mktemp("parallel") / "long.db"
    store = SQLiteStore(str(db))
    big_games.write_game(store, 3000, 7)
    store.close()
    return db


@pytest.fixture
def db(template, tmp_path) -> Path:
    target = tmp_path / "long.db"
    shutil.copy(template, target)
    return target


@pytest.fixture
def redone(monkeypatch) -> list[int]:
    """The parts audited again in the parent, from the pass the part before ended with."""
    seen: list[int] = []
    audit_part = ap._audit_part

    def spy(store, game_id, first, last, expect_head, start=None, **end):
        if start is not None:
            seen.append(first)
        return audit_part(store, game_id, first, last, expect_head, start, **end)

    monkeypatch.setattr(ap, "_audit_part", spy)
    return seen


@pytest.fixture
def cut(monkeypatch) -> list[int]:
    """How many parts each game audited apart was cut into (when the parts gave the report,
    not the one pass after workers that failed)."""
    seen: list[int] = []
    gather = ap._parallel

    def spy(store, game_id, expect_head, parts, processes, **progress):
        report = gather(store, game_id, expect_head, parts, processes, **progress)
        if report is not None:
            seen.append(len(parts))
        return report

    monkeypatch.setattr(ap, "_parallel", spy)
    return seen


def sequential(db, expect_head=None) -> dict:
    store = SQLiteStore(str(db), create=False)
    try:
        return GameAudit(1, store.raw_rows(1), expect_head,
                         snapshots=store.snapshots(1)).run().document()
    finally:
        store.close()


def parallel(db, expect_head=None, chunk=CHUNK, processes=2) -> dict:
    store = SQLiteStore(str(db), create=False)
    try:
        return ap.audit_game(store, 1, expect_head, processes=processes,
                             chunk=chunk).document()
    finally:
        store.close()


def parts(db, chunk=CHUNK) -> list[tuple[int, int]]:
    store = SQLiteStore(str(db), create=False)
    try:
        return ap._plan(store, 1, 2, chunk)[2]
    finally:
        store.close()


def log(db) -> list[tuple]:
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT seq, type, data FROM events WHERE game_id=1 "
                            "ORDER BY seq").fetchall()
    finally:
        conn.close()


def forge(db, *sql, args=(), rechain_from=None) -> None:
    conn = sqlite3.connect(db)
    drop_triggers(conn)
    for s, a in zip(sql, args or [()] * len(sql), strict=True):
        conn.execute(s, a)
    if rechain_from is not None:
        rechain_stored(conn, 1, rechain_from)
    conn.commit()
    conn.close()


def change_dice(db, seq: int, rechain: bool = True) -> None:
    data = json.loads(next(d for s, _, d in log(db) if s == seq))
    data["dice"] = [d % 6 + 1 for d in data["dice"]]
    forge(db, "UPDATE events SET data=? WHERE game_id=1 AND seq=?",
          args=[(canonical_json(data), seq)], rechain_from=seq if rechain else None)


def dice_near(db, seq: int, after: bool = True) -> int:
    """The first DiceRolled at or after `seq` (or the last one at or before it)."""
    rolls = [s for s, t, _ in log(db) if t == "DiceRolled"]
    return min(s for s in rolls if s >= seq) if after else max(s for s in rolls if s <= seq)


# --- a clean game ---------------------------------------------------------------------------

def test_a_clean_game_audits_alike_on_one_process_and_on_two(db, redone, cut):
    made = parts(db)
    assert len(made) >= 10 and made[0][0] == 1 and made[-1][1] == len(log(db))
    report = parallel(db)
    assert report == sequential(db) and cut == [len(made)]
    assert report["ok"] and report["events"] == len(log(db)) and report["commands_rederived"]
    assert redone == []  # every worker worked out the pass it starts from rightly


def test_a_process_with_other_threads_starts_its_workers_fresh(db, cut):
    """fork beside another thread (a server's, a test's) can leave a worker waiting for ever on
    a lock that thread held: the workers then come from forkserver, and the report is the same."""
    import threading

    stop = threading.Event()
    waiter = threading.Thread(target=stop.wait, daemon=True)
    waiter.start()
    try:
        assert ap.pool_context().get_start_method() in ("forkserver", "spawn")
        assert parallel(db) == sequential(db)
        assert cut and cut[-1] > 1  # it was cut into parts, audited by the workers
    finally:
        stop.set()
        waiter.join()
    if threading.active_count() == 1:  # (an earlier test may have left a thread of its own)
        assert ap.pool_context().get_start_method() == "fork"


def test_each_part_begins_with_a_command(db):
    rows = {s: t for s, t, _ in log(db)}
    assert all(rows[first] == "CommandRecorded" for first, _ in parts(db)[1:])


def test_the_pass_worked_out_ahead_is_the_one_pass_at_every_part_start(db):
    """fold_ahead gives what GameAudit has after the event before: the table, the books, the
    undone seqs, the chain's head (the boundary check would catch it, at a cost in time)."""
    store = SQLiteStore(str(db), create=False)
    try:
        cut = parts(db, 120)
        audit = GameAudit(1, ap._PartRows(store, 1, 1, cut[0][1]))
        audit.run(finish=False, stop=cut[0][1])
        undone = 0
        for first, last in cut[1:]:
            at = audit.resumable()
            ahead = ap.fold_ahead(store, 1, first)
            assert ap.same(ahead, at), first
            undone = max(undone, len(at.gone))
            audit.rows = ap._PartRows(store, 1, first, last)
            audit.run(finish=False, stop=last)
        assert undone > 0  # the game has undos, before some part starts
        # ...and a wrong one is told apart
        ahead = ap.fold_ahead(store, 1, cut[-1][0])
        richer = ahead.state.players[0]._replace(cash=ahead.state.players[0].cash + 1)
        wrong = ahead.state._replace(players=(richer, *ahead.state.players[1:]))
        # (dataclasses.replace, not the __dict__: a compiled Resume has none)
        assert not ap.same(dataclasses.replace(ahead, state=wrong), ahead)
        assert not ap.same(dataclasses.replace(ahead, gone=frozenset()), ahead) \
            or not ahead.gone
        # equal, but in another order (what is said about a table follows its order)
        turned = ahead.state._replace(index=dict(reversed(ahead.state.index.items())))
        assert turned == ahead.state
        assert not ap.same(dataclasses.replace(ahead, state=turned), ahead)
    finally:
        store.close()


# --- tamperings, wherever they fall ---------------------------------------------------------

def test_a_tampering_in_the_first_part(db):
    seq = dice_near(db, 40)
    change_dice(db, seq)
    report = parallel(db)
    assert report == sequential(db) and report["bad_seq"] == seq


def test_tamperings_in_two_parts_name_the_first(db):
    cut = parts(db)
    first, second = dice_near(db, cut[1][0] + 5), dice_near(db, cut[-2][0] + 5)
    change_dice(db, second)
    change_dice(db, first)
    report = parallel(db)
    assert report == sequential(db) and report["bad_seq"] == first


@pytest.mark.parametrize("where", ["first", "last"])
@pytest.mark.parametrize("rechain", [True, False])
def test_a_tampering_at_a_part_boundary(db, where, rechain):
    cut = parts(db)
    first, last = cut[4]
    seq = first if where == "first" else last
    data = json.loads(next(d for s, _, d in log(db) if s == seq))
    data["forged"] = 1
    forge(db, "UPDATE events SET data=? WHERE game_id=1 AND seq=?",
          args=[(canonical_json(data), seq)], rechain_from=seq if rechain else None)
    report = parallel(db)
    assert report == sequential(db) and report["bad_seq"] == seq


def test_a_tampering_in_the_last_part(db, cut):
    seq = dice_near(db, parts(db)[-1][0] + 3)
    change_dice(db, seq, rechain=False)
    report = parallel(db)
    assert report == sequential(db) and report["bad_seq"] == seq and cut


def test_a_row_deleted_at_a_part_start_is_caught_by_the_one_pass(db):
    first = parts(db)[3][0]
    forge(db, f"DELETE FROM events WHERE game_id=1 AND seq={first}")
    report = parallel(db)
    assert report == sequential(db) and report["bad_seq"] == first


def test_the_last_rows_cut_off(db):
    last = len(log(db))
    forge(db, f"DELETE FROM events WHERE game_id=1 AND seq>{last - 7}")
    report = parallel(db)
    assert report == sequential(db) and report["events"] == last - 7


@pytest.mark.parametrize("processes, chunk", [(1, None), (2, CHUNK)])
def test_a_game_audited_up_to_an_event_is_the_game_cut_there(db, tmp_path, processes, chunk,
                                                             cut):
    """`last`: the audit of the game as it stood at that event (what `banco report` pins its
    page and its audit to, issue 21), whatever came after it, a bad row included: the report
    on a copy of the game cut there, word for word, on one process and on parts."""
    rows = log(db)
    at = next(s for s, t, _ in rows[len(rows) * 2 // 3:] if t == "CommandRecorded") - 1
    shorter = tmp_path / "cut.db"
    shutil.copy(db, shorter)
    forge(shorter, f"DELETE FROM events WHERE game_id=1 AND seq>{at}",
          f"DELETE FROM snapshots WHERE game_id=1 AND seq>{at}")
    # in the whole game, the row after it does not match its hash: never read
    forge(db, "UPDATE events SET hash='0' || substr(hash, 2) WHERE game_id=1 AND seq=?",
          args=[(at + 1,)])
    store = SQLiteStore(str(db), create=False)
    try:
        upto = ap.audit_game(store, 1, processes=processes, chunk=chunk, last=at).document()
    finally:
        store.close()
    assert upto == parallel(shorter, processes=processes, chunk=chunk)
    assert upto["ok"] and upto["events"] == at and bool(cut) == (processes > 1)
    assert not parallel(db, processes=processes, chunk=chunk)["ok"]


# --- undo ------------------------------------------------------------------------------------

def test_an_undo_that_reaches_behind_its_part_start(db, redone):
    """A part that begins with an undo: the command it takes back is the part before's; the
    worker folds again from the start, without what was undone before."""
    rows = log(db)
    undo = next(s for s, t, _ in rows if t == "EventRetracted" and s > 600)
    command = max(s for s, t, _ in rows if t == "CommandRecorded" and s < undo)
    retracted = json.loads(next(d for s, _, d in rows if s == undo))["seqs"]
    assert min(retracted) < command
    cut = parts(db, command - 1)
    assert any(first == command for first, _ in cut)
    report = parallel(db, chunk=command - 1)
    assert report == sequential(db) and report["ok"]
    assert redone == []


def test_an_undo_forged_behind_a_part_start(db):
    """An undo's seqs rewritten to reach further back than its command: the same verdict."""
    rows = log(db)
    undo = next(s for s, t, _ in rows if t == "EventRetracted" and s > 1200)
    data = json.loads(next(d for s, _, d in rows if s == undo))
    data["seqs"] = [data["seqs"][0] - 400, *data["seqs"]]
    forge(db, "UPDATE events SET data=? WHERE game_id=1 AND seq=?",
          args=[(canonical_json(data), undo)], rechain_from=undo)
    report = parallel(db)
    assert report == sequential(db) and not report["ok"]


# --- what a worker works out ahead is only a hint -------------------------------------------

def test_a_wrong_start_costs_time_never_the_verdict(db, redone, monkeypatch):
    """Every worker starts from a table with 1 more in Anna's cash: each part is audited again
    from the pass the part before ended with, and the report is the one pass's."""
    fold_ahead = ap.fold_ahead

    def wrong(store, game_id, first):
        at = fold_ahead(store, game_id, first)
        anna = at.state.players[0]
        at.state = at.state._replace(players=(anna._replace(cash=anna.cash + 1),
                                              *at.state.players[1:]))
        return at

    monkeypatch.setattr(ap, "fold_ahead", wrong)
    report = parallel(db)
    assert report == sequential(db) and report["ok"]
    assert redone == [first for first, _ in parts(db)[1:]]


def test_a_start_that_cannot_be_worked_out_is_audited_from_the_pass(db, redone, monkeypatch):
    def broken(store, game_id, first):
        raise KeyError("no such deck")

    monkeypatch.setattr(ap, "fold_ahead", broken)
    seq = dice_near(db, parts(db)[-1][0] + 3)
    change_dice(db, seq)
    report = parallel(db)
    assert report == sequential(db) and report["bad_seq"] == seq
    assert redone == [first for first, _ in parts(db)[1:]]


def test_an_edited_snapshot_is_named_alike_in_any_part(db):
    conn = sqlite3.connect(db)
    seqs = [s for (s,) in conn.execute("SELECT seq FROM snapshots ORDER BY seq")]
    conn.close()
    clean = parallel(db)
    assert clean["ok"] and len(seqs) >= 2
    for seq in seqs:  # each in a part of its own, the last part among them
        conn = sqlite3.connect(db)
        text = conn.execute("SELECT state FROM snapshots WHERE seq=?", (seq,)).fetchone()[0]
        rich = text.replace('{"n":"Player","v":["Anna",', '{"n":"Player","v":["Anna",9', 1)
        assert rich != text
        conn.execute("UPDATE snapshots SET state=? WHERE seq=?", (rich, seq))
        conn.commit()
        report = parallel(db)
        assert report == sequential(db) and report["bad_seq"] == seq
        conn.execute("UPDATE snapshots SET state=? WHERE seq=?", (text, seq))
        conn.commit()
        conn.close()
    conn = sqlite3.connect(db)
    conn.execute("DELETE FROM snapshots WHERE seq>?", (seqs[0],))  # a cache: none is fine
    conn.commit()
    conn.close()
    assert parallel(db) == sequential(db) == clean


# --- --expect-head ---------------------------------------------------------------------------

def test_expect_head_on_several_parts(db):
    conn = sqlite3.connect(db)
    hashes = dict(conn.execute("SELECT seq, hash FROM events WHERE game_id=1"))
    conn.close()
    last = max(hashes)
    cut = parts(db, 600)
    for head in (hashes[last], hashes[cut[0][1] - 3][:10], hashes[cut[-1][0]][:8].upper(),
                 f"banco/1/{cut[2][0]}/{hashes[cut[2][0]][:12]}",
                 f"banco/1/{cut[2][0]}/{'0' * 12}", f"banco/1/{last + 4}/{hashes[last][:12]}",
                 "deadbeefdeadbeef"):
        report = parallel(db, head, chunk=600)
        assert report == sequential(db, head), head


# --- one pass -------------------------------------------------------------------------------

def test_short_games_and_one_worker_get_the_one_pass(db, monkeypatch):
    store = SQLiteStore(str(db), create=False)
    try:
        assert ap._plan(store, 1, 2, None) is None  # below THRESHOLD
        assert ap._plan(store, 1, 2, 5000) is None  # one part
    finally:
        store.close()
    monkeypatch.setenv("BANCO_AUDIT_WORKERS", "1")
    assert ap.workers() == 1
    monkeypatch.setenv("BANCO_AUDIT_WORKERS", "3")
    assert ap.workers() == 3


def test_banco_audit_uses_the_parts(db, monkeypatch, cut):
    from click.testing import CliRunner

    from banco.cli.main import cli

    change_dice(db, dice_near(db, parts(db)[-1][0] + 3))
    out = {}
    for workers in ("1", "2"):
        monkeypatch.setenv("BANCO_AUDIT_WORKERS", workers)
        monkeypatch.setenv("BANCO_AUDIT_CHUNK", str(CHUNK))
        result = CliRunner().invoke(cli, ["--db", str(db), "audit", "--json"])
        assert result.exit_code == 3, result.output
        out[workers] = json.loads(result.output)
    assert out["1"] == out["2"] and cut == [len(parts(db))]


@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(where=st.floats(0, 1), how=st.sampled_from(["amount", "field", "type", "delete",
                                                   "swap"]),
       rechain=st.booleans(), chunk=st.integers(90, 700))
def test_any_tampering_parallel_is_sequential(template, tmp_path_factory, where, how, rechain,
                                              chunk):
    db = tmp_path_factory.mktemp("h") / "long.db"
    shutil.copy(template, db)
    rows = log(db)
    seq = 2 + int(where * (len(rows) - 3))
    data = json.loads(rows[seq - 1][2])
    if how == "amount":
        money = [s for s, _, d in rows[seq - 1:] if '"amount"' in d]
        seq = money[0] if money else seq
        data = json.loads(rows[seq - 1][2])
        text = canonical_json(data).replace('"amount":', '"amount":1', 1)
        forge(db, "UPDATE events SET data=? WHERE game_id=1 AND seq=?", args=[(text, seq)],
              rechain_from=seq if rechain else None)
    elif how == "field":
        data["x"] = 1
        forge(db, "UPDATE events SET data=? WHERE game_id=1 AND seq=?",
              args=[(canonical_json(data), seq)], rechain_from=seq if rechain else None)
    elif how == "type":
        forge(db, "UPDATE events SET type='TurnEnded' WHERE game_id=1 AND seq=?",
              args=[(seq,)], rechain_from=seq if rechain else None)
    elif how == "delete":
        forge(db, f"DELETE FROM events WHERE game_id=1 AND seq={seq}")
    else:
        forge(db, f"UPDATE events SET seq=-1 WHERE game_id=1 AND seq={seq}",
              f"UPDATE events SET seq={seq} WHERE game_id=1 AND seq={seq + 1}",
              f"UPDATE events SET seq={seq + 1} WHERE game_id=1 AND seq=-1",
              rechain_from=seq if rechain else None)
    assert parallel(db, chunk=chunk) == sequential(db)


def test_workers_that_fail_leave_the_one_pass(db, monkeypatch):
    """A worker that cannot read the file (or no processes at all): the one pass's report."""
    def unreadable(task):
        raise OSError("no such file")

    monkeypatch.setattr(ap, "_worker", unreadable)
    change_dice(db, dice_near(db, parts(db)[2][0] + 3))
    assert parallel(db) == sequential(db)


class _Unreadable:
    """A result the parent cannot unpickle (as a compiled class without __reduce__ was)."""

    def __reduce__(self):
        return (_cannot_rebuild, ())


def _cannot_rebuild():
    raise TypeError("cannot rebuild this result")


def test_a_result_the_parent_cannot_unpickle_leaves_the_one_pass(db, monkeypatch):
    """The pool's own thread died on it and the parent waited for ever (types2 met it with
    the compiled audit); unpickled by the parent, it raises, and the one pass reports."""
    import signal

    monkeypatch.setattr(ap, "_audit_part", lambda *a, **k: _Unreadable())
    change_dice(db, dice_near(db, parts(db)[2][0] + 3))
    hung = []

    def stop(*_):
        hung.append(True)
        raise TimeoutError("the audit hung")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(60)
    try:
        assert parallel(db) == sequential(db)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert not hung, "the parent waited for a result it could not read"


@pytest.mark.parametrize("tamper", [False, True])
def test_a_format_1_game_audits_alike(template, tmp_path, tamper):
    """Rows from before commands were recorded (chain version 1): folded and checked, not
    re-derived; the note that says so spans every part."""
    from format1 import as_format1_log, write_format1

    events = [{"seq": s, "type": t, "data": json.loads(d)} for s, t, d in log(template)]
    db = tmp_path / "old.db"
    write_format1(str(db), {1: as_format1_log(events)})
    if tamper:
        seq = dice_near(db, parts(db)[-2][0] + 2)
        data = json.loads(next(d for s, _, d in log(db) if s == seq))
        data["dice"] = [7, 7]
        conn = sqlite3.connect(db)
        drop_triggers(conn)
        conn.execute("UPDATE events SET data=? WHERE game_id=1 AND seq=?",
                     (canonical_json(data), seq))
        conn.commit()
        conn.close()
    report = parallel(db)
    assert report == sequential(db)
    assert report["not_checked"] and report["ok"] is not tamper


def test_a_duplicated_seq_in_a_table_without_its_key_gets_the_one_pass(db):
    """A forger who rebuilt the table without its primary key: seqs 1..N counted right but
    one twice and one missing; the one pass names it, never the parts."""
    conn = sqlite3.connect(db)
    drop_triggers(conn)
    conn.execute("ALTER TABLE events RENAME TO old_events")
    conn.execute("CREATE TABLE events AS SELECT * FROM old_events")
    conn.execute("DROP TABLE old_events")
    conn.execute("UPDATE events SET seq=seq-1 WHERE game_id=1 AND seq=1500")
    conn.commit()
    conn.close()
    store = SQLiteStore(str(db), create=False)
    try:
        assert ap._plan(store, 1, 2, CHUNK) is None
    finally:
        store.close()
    assert parallel(db) == sequential(db)


def test_seal_audits_a_long_game_on_parts(db, tmp_path, monkeypatch, cut):
    from click.testing import CliRunner

    from banco.cli.main import cli

    def banco(*args):
        return CliRunner().invoke(cli, ["--db", str(db), *args], catch_exceptions=False)

    monkeypatch.setenv("BANCO_AUDIT_WORKERS", "2")
    monkeypatch.setenv("BANCO_AUDIT_CHUNK", str(CHUNK))
    assert banco("keygen", "--out", str(tmp_path / "rita")).exit_code == 0
    seq = dice_near(db, parts(db)[-2][0] + 3)
    change_dice(db, seq)
    result = banco("seal", "--key", str(tmp_path / "rita.key"), "--out", str(tmp_path / "s"))
    assert result.exit_code == 3 and f"FAILED at event {seq}:" in result.output
    assert not (tmp_path / "s").exists() and cut == [len(parts(db))]


def test_workers_started_by_spawn_give_the_same_report(db, monkeypatch, cut):
    """Where fork is not available (macOS, Windows) the workers are spawned: fresh processes
    that import banco and open the file themselves."""
    import multiprocessing

    monkeypatch.setattr(ap, "pool_context", lambda: multiprocessing.get_context("spawn"))
    change_dice(db, dice_near(db, parts(db)[5][0] + 3))
    assert parallel(db, chunk=1000) == sequential(db) and cut == [len(parts(db, 1000))]


def test_a_part_that_would_end_inside_a_command_leaves_the_one_pass(db, monkeypatch, cut):
    """Parts are cut between commands; rows that changed since the cut was planned (a part
    ending inside a command) give the one pass, never a command judged in halves."""
    plan = ap._plan

    def inside(store, game_id, processes, chunk, upto=None):
        last, head, made = plan(store, game_id, processes, chunk, upto)
        (a, b), (c, d) = made[2], made[3]
        return last, head, [*made[:2], (a, b + 1), (c + 1, d), *made[4:]]

    monkeypatch.setattr(ap, "_plan", inside)
    change_dice(db, dice_near(db, len(log(db)) - 40))
    assert parallel(db) == sequential(db) and cut == []


# --- Ctrl-C -----------------------------------------------------------------------------------

@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux's /proc")
def test_ctrl_c_stops_the_workers_with_one_line_and_exit_130(db):
    """Ctrl-C at a terminal reaches the whole process group: the workers once printed a
    traceback each, and click's "Aborted!" exited 1 (banco's code for a refusal)."""
    import os
    import signal
    import subprocess
    import time

    banco = Path(sys.executable).parent / "banco"
    env = {**os.environ, "BANCO_AUDIT_CHUNK": "10", "BANCO_AUDIT_WORKERS": "2"}
    proc = subprocess.Popen([str(banco), "--db", str(db), "audit"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)  # its own group, as a terminal gives it
    deadline = time.monotonic() + 20
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


# --- many games, one a worker -------------------------------------------------------------------

@pytest.fixture(scope="module")
def archive(tmp_path_factory) -> Path:
    """A tournament's archive in small: eight games of about 300 events."""
    import big_games

    db = tmp_path_factory.mktemp("archive") / "archive.db"
    store = SQLiteStore(str(db))
    for seed in range(8):
        big_games.write_game(store, 300, 100 + seed)
    store.close()
    return db


def _reports(db: Path, processes: int) -> list[dict]:
    store = SQLiteStore(str(db), create=False)
    try:
        ids = sorted(g["game_id"] for g in store.games())
        return [r.document() for r in ap.audit_games(store, ids, None, processes, at_least=0)]
    finally:
        store.close()


def test_the_games_of_a_file_on_every_core_give_the_one_pass_reports(archive, tmp_path,
                                                                    monkeypatch):
    apart: list = []  # what the workers handed back (None: they failed, one pass instead)
    games_apart = ap._games_apart
    monkeypatch.setattr(ap, "_games_apart", lambda *a: apart.append(games_apart(*a)) or apart[-1])
    one = _reports(archive, 1)
    assert apart == [] and [r["ok"] for r in one] == [True] * 8
    assert _reports(archive, 2) == one
    # the first game in the parent, the other seven by the workers
    assert sorted(apart[0]) == list(range(2, 9))
    # tampered games (a changed amount re-chained in one, a deleted row in another) are named
    # in each at the same seq and in the same words
    db = tmp_path / "archive.db"
    shutil.copy(archive, db)
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
    one = _reports(db, 1)
    assert [r["game"] for r in one if not r["ok"]] == [3, 6]
    assert one[2]["bad_seq"] == seq and one[5]["bad_seq"] == 120
    assert _reports(db, 2) == one
    assert apart[-1] is not None and not apart[-1][3].ok and not apart[-1][6].ok


# --- the table at a moment, folded a chunk at a time ---------------------------------------------

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
