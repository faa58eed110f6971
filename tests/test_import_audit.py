"""A long game's import audited in a process of its own while it is read and inserted
(projections/exchange/import_audit.py): the same verdict, refusals and tables as in one process,
nothing written on a refusal, no process left behind whatever happens."""

import json
import multiprocessing
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from exchange_files import played_with_undos, rehash, rows_of, write

from banco.cli.main import cli
from banco.projections.exchange import exchange, import_audit

NOW = "2026-11-30T12:00:00.000000Z"


@pytest.fixture
def beside(monkeypatch):
    """Every import takes the concurrent path, in small batches (several a game); the
    ConcurrentAudits started are counted."""
    started = []
    real = import_audit.ConcurrentAudit.__init__

    def count(self, *args):
        started.append(args)
        real(self, *args)

    monkeypatch.setattr(import_audit, "THRESHOLD", 1)
    monkeypatch.setattr(exchange, "BATCH", 50)
    monkeypatch.setattr(import_audit.ConcurrentAudit, "__init__", count)
    return started


def tables(db):
    conn = sqlite3.connect(db)
    try:
        return {t: conn.execute(f"SELECT * FROM {t} ORDER BY 1, 2").fetchall()
                for t in ("events", "games", "meta", "snapshots", "read_model",
                          "read_movements", "read_mentions")
                if conn.execute("SELECT 1 FROM sqlite_master WHERE name=?", (t,)).fetchone()}
    finally:
        conn.close()


def invoke(db, *args, code=0):
    result = CliRunner().invoke(cli, ["--db", str(db), *map(str, args)])
    assert result.exit_code == code, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.output


def test_a_long_game_is_written_alike_by_both_paths_snapshots_and_all(tmp_path, monkeypatch):
    """The undos fold again from restore points behind the window: the child reads back the
    batches it was sent (PipedRows.fetch); the snapshots are the one pass's."""
    from banco.ledger.book import Book
    from banco.projections.audit import audit as audit_module

    monkeypatch.setattr(Book, "SNAPSHOT_EVERY", 40)
    monkeypatch.setattr(audit_module, "CHECKPOINT_EVERY", 30)
    monkeypatch.setattr(audit_module, "WINDOW", 8)
    monkeypatch.setattr(audit_module, "RECENT_COMMANDS", 1)  # undos refold from checkpoints
    played = str(tmp_path / "played.db")
    played_with_undos(played)
    path = tmp_path / "undos.jsonl"
    invoke(played, "export", "-o", path)
    from banco.ledger.store.sqlite import SQLiteStore

    def imported(db):
        store = SQLiteStore(str(db))
        with open(path, encoding="utf-8") as f:
            done = exchange.import_lines(store, f, source="undos.jsonl", now=NOW)
        store.close()
        found = tables(db)
        found["meta"] = [m for m in found["meta"] if m[0] != "created_at"]
        return done, found

    one = imported(tmp_path / "one.db")
    monkeypatch.setattr(import_audit, "THRESHOLD", 1)
    monkeypatch.setattr(exchange, "BATCH", 37)
    fetched = tmp_path / "fetched"
    real_fetch = import_audit.PipedRows.fetch

    def fetch(self, first, last):  # in the child: leaves a mark the parent can see
        fetched.touch()
        return real_fetch(self, first, last)

    monkeypatch.setattr(import_audit.PipedRows, "fetch", fetch)
    two = imported(tmp_path / "two.db")
    assert two[0]["events"] > 500 and fetched.exists()
    # the snapshots are those the chain binds that a book keeps (the newest three and the
    # game's first: it is under 1,000 events), the same by both paths
    assert len(one[1]["snapshots"]) == 4 and one == two
    assert multiprocessing.active_children() == []


def _forged(source):
    header, rows = rows_of(source)
    tax = next(i for i, r in enumerate(rows) if r["type"] == "TaxPaid")
    rows[tax]["data"]["amount"] = 99999  # more than the payer has: cash below zero
    rehash(rows, tax)
    header["head"] = rows[-1]["hash"]
    return header, rows, rows[tax]["seq"]


def _forged_then_edited(source):
    header, rows, seq = _forged(source)
    rows[-20]["data"]["x"] = 1  # the file's own problem, after the audit's: said first
    return header, rows, None


def _deleted(source):
    header, rows = rows_of(source)
    del rows[300]
    return header, rows, None


def _cut(source):
    header, rows = rows_of(source)
    return header, rows[:400], None


CASES = {"forged": _forged, "forged then edited": _forged_then_edited, "deleted": _deleted,
         "cut short": _cut}


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("lang", ["en", "it"])
def test_every_refusal_is_the_one_process_refusal(exported, tmp_path, monkeypatch,  # noqa: F811
                                                  case, lang):
    header, rows, forged_seq = CASES[case](exported)
    path = tmp_path / "bad.jsonl"
    write(path, header, rows)
    db = tmp_path / "target.db"
    invoke(db, "new", "Zoe", "Yuri")
    before = tables(db)
    said = invoke(db, "--lang", lang, "import", path, code=3)
    monkeypatch.setattr(import_audit, "THRESHOLD", 1)
    monkeypatch.setattr(exchange, "BATCH", 50)
    assert invoke(db, "--lang", lang, "import", path, code=3) == said
    assert tables(db) == before and multiprocessing.active_children() == []
    if forged_seq is not None and lang == "en":
        assert f"the audit stops at event {forged_seq} (line {forged_seq + 1})" in said
    if case == "forged then edited" and lang == "en":
        assert "does not match its hash: the line was edited" in said


def test_the_expected_head_on_the_concurrent_path(exported, tmp_path, beside):  # noqa: F811
    header, rows = rows_of(exported)
    db = tmp_path / "x.db"
    out = invoke(db, "import", exported, "--expect-head", "f" * 12, code=3)
    assert "the head ffffffffffff is not found in this history (events 1-" in out
    assert "printed from another game or database, or the history up to it was rewritten" in out
    out = invoke(db, "import", exported, "--expect-head", rows[-5]["hash"][:16])
    assert f"imported {exported} as game 1" in out and len(beside) == 2


@pytest.mark.parametrize("how", ["raises", "killed"])
def test_an_audit_process_that_dies_refuses_the_import(exported, tmp_path, monkeypatch,  # noqa: F811
                                                       beside, how):
    def dies(game_id, row):  # in the child alone: the store inserts with its own binding
        if row[0] == 120:
            if how == "killed":
                os.kill(os.getpid(), signal.SIGKILL)
            raise RuntimeError("boom")
        return (game_id, *row)

    monkeypatch.setattr(import_audit, "stored_row", dies)
    db = tmp_path / "target.db"
    invoke(db, "new", "Zoe", "Yuri")
    before = tables(db)
    out = invoke(db, "import", exported, code=3)
    if how == "killed":
        assert "the audit beside the import stopped before its verdict (its process was " \
               "stopped by signal 9); nothing was imported" in out
    else:
        assert "the audit beside the import failed (RuntimeError: boom); nothing was " \
               "imported" in out
    assert "Traceback" not in out and beside
    assert tables(db) == before and multiprocessing.active_children() == []


def test_a_tournament_archive_on_the_concurrent_path(tmp_path, beside):
    from test_tournament_archive import _amount, _edit, _run

    db = str(tmp_path / "t.db")
    for players in (("Anna", "Bruno", "Carla"), ("Gina", "Ugo")):
        _run(db, "new", *players, "--rules", "championship")
        _run(db, "roll", "1", "2")
        _run(db, "buy")
        _run(db, "time-up")
    _run(db, "tournament", "new", "Coppa")
    _run(db, "tournament", "add", "1")
    _run(db, "tournament", "add", "2")
    path = str(tmp_path / "coppa.jsonl")
    _run(db, "tournament", "export", "Coppa", "-o", path)
    bad = _edit(path, tmp_path, _amount)
    fresh = str(tmp_path / "fresh.db")
    assert "game 2 of the archive (" in _run(fresh, "import", bad, code=3)
    assert not os.path.exists(fresh) and len(beside) == 2
    assert "imported the tournament 'Coppa'" in _run(fresh, "import", path)
    assert _run(fresh, "tournament", "standings") == _run(db, "tournament", "standings")
    assert len(beside) == 4 and multiprocessing.active_children() == []


def _children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(c) for c in (task / "children").read_text().split()]
    return found


@pytest.mark.skipif(not Path(f"/proc/{os.getpid()}/task/{os.getpid()}/children").exists(),
                    reason="finds the import's child in /proc")
def test_ctrl_c_during_a_long_import_leaves_no_process_behind(exported, tmp_path):  # noqa: F811
    banco = Path(sys.executable).parent / "banco"
    header, rows = rows_of(exported)
    header["events"] = import_audit.THRESHOLD  # announced long: the audit starts beside
    db = tmp_path / "int.db"
    proc = subprocess.Popen([str(banco), "--db", str(db), "import", "-"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        from banco.ledger.store.canonical import canonical_json

        proc.stdin.write("\n".join(canonical_json(x) for x in [header, *rows]) + "\n")
        proc.stdin.flush()  # then it waits for the rest, its audit process beside it
        deadline, children = time.monotonic() + 20, []
        while not children and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
            children = _children(proc.pid)
        assert children, proc.communicate(timeout=10)
        time.sleep(0.3)
        os.killpg(proc.pid, signal.SIGINT)  # as a terminal does: to the whole group
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130 and "interrupted" in err and "Traceback" not in err, err
    for child in children:
        assert not Path(f"/proc/{child}").exists()
    assert not db.exists() or tables(db).get("events", []) == []


def test_where_no_process_can_start_the_import_audits_in_one(exported, tmp_path,  # noqa: F811
                                                             monkeypatch):
    def refused(self, *args):
        raise OSError("Resource temporarily unavailable")

    monkeypatch.setattr(import_audit, "THRESHOLD", 1)
    monkeypatch.setattr(import_audit.ConcurrentAudit, "__init__", refused)
    db = tmp_path / "x.db"
    assert f"imported {exported} as game 1" in invoke(db, "import", exported)
    header, rows, seq = _forged(exported)
    path = tmp_path / "bad.jsonl"
    write(path, header, rows)
    assert f"the audit stops at event {seq}" in invoke(tmp_path / "y.db", "import", path, code=3)


def test_an_old_game_on_the_concurrent_path(tmp_path, banco, beside):
    """Version-1 rows, hashed with the number of the game where they were first recorded, as
    tests/test_exchange.py holds them in one process."""
    from test_exchange import test_an_old_game_keeps_the_number_its_rows_were_hashed_with

    test_an_old_game_keeps_the_number_its_rows_were_hashed_with(tmp_path, banco)
    assert beside and multiprocessing.active_children() == []


def test_a_sealed_game_on_the_concurrent_path(beside, copy):  # noqa: F811
    """--seal, as tests/test_integrity.py holds it in one process."""
    from test_integrity_seals import test_import_holds_the_history_to_a_referees_seal

    test_import_holds_the_history_to_a_referees_seal(copy)
    assert beside and multiprocessing.active_children() == []


def test_an_archives_games_are_audited_at_once_and_a_bad_one_is_named(tmp_path, beside,
                                                                      monkeypatch):
    # DESIGN.md: a file's games audited in parallel, one a process: every game's audit is
    # under way before the first verdict is awaited; a game the audit refuses is named, and
    # nothing is written
    from test_tournament_archive import _run

    from banco.ledger.store.canonical import canonical_json

    monkeypatch.setenv("BANCO_AUDIT_WORKERS", "3")
    order = []
    real_verdict = import_audit.ConcurrentAudit.verdict

    def verdict(self, count, head):
        order.append("verdict")
        return real_verdict(self, count, head)

    counted = import_audit.ConcurrentAudit.__init__  # the `beside` fixture's

    def started(self, *args):
        order.append("start")
        counted(self, *args)

    monkeypatch.setattr(import_audit.ConcurrentAudit, "verdict", verdict)
    monkeypatch.setattr(import_audit.ConcurrentAudit, "__init__", started)
    db = str(tmp_path / "t.db")
    for players in (("Anna", "Bruno", "Carla"), ("Gina", "Ugo"), ("Dario", "Elsa")):
        _run(db, "new", *players, "--rules", "championship")
        _run(db, "roll", "1", "2")
        _run(db, "buy")
        _run(db, "time-up")
    _run(db, "tournament", "new", "Coppa")
    for game in ("1", "2", "3"):
        _run(db, "tournament", "add", game)
    path = tmp_path / "coppa.jsonl"
    _run(db, "tournament", "export", "Coppa", "-o", str(path))
    fresh = tmp_path / "fresh.db"
    assert "imported the tournament 'Coppa'" in _run(str(fresh), "import", str(path))
    assert len(beside) == 3 and order == ["start"] * 3 + ["verdict"] * 3

    # game 2's purchase at a tenth of its price, its chain made again from there (the lines
    # hold: only the audit, re-deriving `buy`, finds it)
    lines = path.read_text(encoding="utf-8").splitlines()
    archive = json.loads(lines[0])
    at = 2 + archive["games"][0]["events"]  # game 2's header line (0-based)
    header, rows = json.loads(lines[at]), [json.loads(x) for x in
                                           lines[at + 1:at + 1 + archive["games"][1]["events"]]]
    bought = next(i for i, r in enumerate(rows) if r["type"] == "PropertyBought")
    rows[bought]["data"]["amount"] //= 10
    rehash(rows, bought)
    header["head"] = archive["games"][1]["head"] = rows[-1]["hash"]
    lines[0], lines[at] = canonical_json(archive), canonical_json(header)
    lines[at + 1:at + 1 + len(rows)] = [canonical_json(r) for r in rows]
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    other = tmp_path / "other.db"
    invoke(other, "new", "Zoe", "Yuri")
    before, order[:] = tables(other), []
    said = invoke(other, "import", bad, code=3)
    assert f"game 2 of the archive ({archive['games'][1]['game_uuid']}), from line {at + 1}: " \
           f"the audit stops at event {rows[bought]['seq']}" in said
    assert len(beside) == 6 and order[:4] == ["start"] * 3 + ["verdict"]
    assert tables(other) == before and multiprocessing.active_children() == []
