"""`banco report` draws its page while the game is audited in a process of its own
(projections/audit/audit_apart.py, issue 21): the page is byte for byte the one drawn after
the audit (the way it was drawn before), on a clean game, on one whose audit fails by its rules
and on one whose chain is broken; the verdict shown is the audit's, of the events the page
shows, whatever is appended meanwhile; Ctrl-C leaves no file and no process behind."""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from forge import append_forged_undo, drop_triggers
from games import lines, record
from helpers import child_pids

from banco.cli.main import cli
from banco.ledger.book import Book
from banco.ledger.records.seals import head_line
from banco.ledger.store.sqlite import SQLiteStore
from banco.projections.audit import audit_apart
from banco.projections.audit.audit_apart import AuditApart
from banco.projections.audit.audit_parallel import audit_game

sys.path.insert(0, str(Path(__file__).parent / "tools"))


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> Path:
    """A generated game of about 3,000 events (undos among them): cut into parts by
    BANCO_AUDIT_CHUNK, its audit apart has workers of its own."""
    import big_games

    db = tmp_path_factory.mktemp("overlap") / "long.db"
    store = SQLiteStore(str(db))
    big_games.write_game(store, 3000, 7)
    store.close()
    return db


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> Path:
    """The classic-4p game with a ruling, a correction and an undo (as test_report's)."""
    db = str(tmp_path_factory.mktemp("overlap") / "r.db")
    record(db, "classic-4p")
    book = Book(db)
    late = next(e["seq"] for e in book.events(1) if e["type"] == "RentClaimRefused")
    book.close()
    lines(db, f"ruling rent {late} --record --referee Rita",
          "correct Anna 50 --reason 'change miscounted' --referee Rita", "roll 2 3", "undo")
    return Path(db)


@pytest.fixture
def started(monkeypatch) -> list:
    """Each AuditApart.start's answer: the audit apart, or None (the audit first)."""
    seen: list = []
    start = AuditApart.start.__func__

    def spy(cls, *args, **kw):
        seen.append(start(cls, *args, **kw))
        return seen[-1]

    monkeypatch.setattr(AuditApart, "start", classmethod(spy))
    return seen


def _report(db, out: Path, *more) -> tuple[str, bytes]:
    result = CliRunner().invoke(cli, ["--db", str(db), "report", "-o", str(out), "--force",
                                      *more])
    # exit 3 when the audit failed (as `audit` itself), else 0
    assert result.exit_code == (3 if ": FAILED at event" in result.output else 0), result.output
    return result.output, out.read_bytes()


def _both(db, tmp_path, monkeypatch, started) -> tuple[tuple, tuple]:
    """(what was said, the page) drawn as the audit runs, and drawn after it."""
    overlapped = _report(db, tmp_path / "page.html")
    assert started and started[-1] is not None  # drawn while the audit ran apart
    with monkeypatch.context() as m:
        m.setattr(AuditApart, "start", classmethod(lambda cls, *a, **k: None))
        after = _report(db, tmp_path / "page.html")
    return overlapped, after


def _copy(db: Path, tmp_path: Path) -> Path:
    target = tmp_path / "game.db"
    shutil.copy(db, target)
    return target


def _break_chain(db: Path, seq: int) -> None:
    conn = sqlite3.connect(db)
    drop_triggers(conn)
    conn.execute("UPDATE events SET recorded_at='2026-11-29T23:59:59.000000Z' WHERE game_id=1 "
                 "AND seq=?", (seq,))
    conn.commit()
    conn.close()


@pytest.mark.parametrize("env", [{}, {"BANCO_AUDIT_CHUNK": "250"},
                                 {"BANCO_AUDIT_CHUNK": "250", "BANCO_AUDIT_WORKERS": "1"}],
                         ids=["one pass", "parts", "one worker"])
@pytest.mark.parametrize("harm", ["none", "forged undo", "broken chain"])
def test_the_page_drawn_as_the_audit_runs_is_the_page_drawn_after_it(
        generated, tmp_path, monkeypatch, started, env, harm):
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    db = _copy(generated, tmp_path)
    store = SQLiteStore(str(db), create=False)
    last = store.last_seq(1)
    store.close()
    if harm == "forged undo":  # its chain re-made: the checked read passes, the audit not
        book = Book(str(db))
        events = list(book.stream(1))
        book.close()
        target = next(e["seq"] for e in reversed(events) if e["type"] == "DiceRolled")
        append_forged_undo(db, 1, target)
    elif harm == "broken chain":  # the checked read stops there: drawn from the rows as stored
        _break_chain(db, last - 700)
    (said, page), (said_after, page_after) = _both(db, tmp_path, monkeypatch, started)
    assert page == page_after and said == said_after
    store = SQLiteStore(str(db), create=False)
    verdict = audit_game(store, 1)
    store.close()
    text = page.decode()
    if harm == "none":
        assert verdict.ok and head_line(1, verdict.events, verdict.head) in text
        assert 'class="audit ok"' in text
    else:
        assert not verdict.ok
        assert f'audit FAILED at event <a href="#e{verdict.bad_seq}">' in text
        assert f"FAILED at event {verdict.bad_seq}" in said


def test_a_fixture_game_and_an_old_one(played, tmp_path, monkeypatch, started):
    from format1 import OLD_DB

    for db in (played, _copy(Path(OLD_DB), tmp_path)):
        overlapped, after = _both(db, tmp_path, monkeypatch, started)
        assert overlapped == after


def test_a_command_appended_meanwhile_is_in_neither_the_page_nor_its_verdict(
        played, tmp_path, monkeypatch, started):
    """The page and its audit are of the game as it stood when the report began: a command
    recorded once the audit is under way is in neither, and the head shown is that
    moment's, in the page's head and in the verdict alike."""
    db = _copy(played, tmp_path)
    book = Book(str(db))
    before = list(book.stream(1))
    book.close()
    start = AuditApart.start.__func__

    def start_then_play(cls, store, game, last, progress=None):
        apart = start(cls, store, game, last, progress)
        started.append(apart)
        lines(str(db), "roll 4 5")  # at another terminal, as the page is drawn
        return apart

    monkeypatch.setattr(AuditApart, "start", classmethod(start_then_play))
    said, page = _report(db, tmp_path / "page.html")
    assert started[-1] is not None
    book = Book(str(db))
    now = list(book.stream(1))
    book.close()
    assert len(now) > len(before)  # the command was recorded
    text = page.decode()
    line = head_line(1, before[-1]["seq"], before[-1]["hash"])
    assert f"verified, head {line}</p>" in text
    assert f'{before[-1]["hash"]} ({line})</p>' in text  # the page's own head: the same
    assert f"{len(before)} events)" in said
    assert f'id="e{now[-1]["seq"]}"' not in text


def _says_nothing(path, game_id, last, pipe):
    pipe.close()


def _dies(path, game_id, last, pipe):
    pipe.send(10)  # some progress, then nothing: killed
    os._exit(9)


def _sends_what_cannot_be_read(path, game_id, last, pipe):
    pipe.send(_Unreadable())


class _Unreadable:
    def __reduce__(self):
        return (_cannot_rebuild, ())


def _cannot_rebuild():
    raise TypeError("cannot be rebuilt here")


@pytest.mark.parametrize("apart", [_says_nothing, _dies, _sends_what_cannot_be_read])
def test_an_audit_apart_that_fails_leaves_the_audit_here(played, tmp_path, monkeypatch,
                                                         started, apart):
    """The process apart fails (it cannot open the file, it is killed, what it sends cannot
    be read): the audit is made in the report's own process, with the same page."""
    db = _copy(played, tmp_path)
    after = _report(db, tmp_path / "page.html")
    monkeypatch.setattr(audit_apart, "_audit_apart", apart)
    reports = []
    here = audit_apart.audit_game

    def audit_here(*args, **kw):
        reports.append(here(*args, **kw))
        return reports[-1]

    monkeypatch.setattr(audit_apart, "audit_game", audit_here)
    assert _report(db, tmp_path / "page.html") == after
    assert started[-1] is not None and len(reports) == 1 and reports[0].ok


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux's /proc")
def test_ctrl_c_stops_the_page_and_the_audit_apart_with_its_workers(generated, tmp_path):
    """Ctrl-C at a terminal (SIGINT to the whole group) while the page is drawn and the audit
    apart has its workers: one line, exit 130, no page and no temporary file, no process
    left (the audit apart ignores SIGINT and is stopped by the report, its pool with it)."""
    banco = Path(sys.executable).parent / "banco"
    env = {**os.environ, "BANCO_AUDIT_CHUNK": "10", "BANCO_AUDIT_WORKERS": "2"}
    out = tmp_path / "out"
    out.mkdir()
    proc = subprocess.Popen([str(banco), "--db", str(generated), "report", "-o",
                             str(out / "page.html")], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.monotonic() + 30
    workers: list[int] = []
    while not workers and proc.poll() is None and time.monotonic() < deadline:
        workers = [w for c in child_pids(proc.pid) for w in child_pids(c)]
        time.sleep(0.01)
    assert proc.poll() is None and workers, "the report ended before its audit had workers"
    time.sleep(0.2)
    os.killpg(proc.pid, signal.SIGINT)
    said, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, (said, err)
    assert "Traceback" not in err and err.strip() == "interrupted", err
    assert list(out.iterdir()) == []  # neither the page nor its .part
    time.sleep(0.2)
    with pytest.raises(ProcessLookupError):  # nothing of the report's group is left
        os.killpg(proc.pid, 0)
