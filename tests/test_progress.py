"""Long work shows click's progress bar on stderr when stderr is a terminal, and nothing when
it is piped (issue 21).  The terminal is a real pseudo-terminal (the pty module); the delay
before a bar appears is set to 0 so that a short fixture game is long enough."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BANCO = [sys.executable, "-c", "from banco.cli.main import main; main()"]


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    path = tmp_path_factory.mktemp("progress") / "g.db"
    subprocess.run([*BANCO, "--db", str(path), "run", "-q",
                    str(ROOT / "fixtures" / "classic-to-the-end.banco")], check=True,
                   capture_output=True, env={**os.environ, "BANCO_FIXED_TIME": "2026-11-29T21:00:00Z"})
    return path


def _env() -> dict[str, str]:
    return {**os.environ, "BANCO_PROGRESS_DELAY": "0", "BANCO_LANG": "en", "COLUMNS": "100"}


def test_export_shows_a_bar_on_a_terminal(db, tmp_path):
    out = tmp_path / "game.jsonl"
    leader, follower = pty.openpty()
    try:
        done = subprocess.run([*BANCO, "--db", str(db), "export", "-o", str(out)],
                              stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=follower, env=_env(), timeout=120)
        os.close(follower)
        said = b""
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the terminal's other end is closed: all is read
                break
            if not chunk:
                break
            said += chunk
    finally:
        os.close(leader)
    assert done.returncode == 0
    text = said.decode(errors="replace")
    assert "export" in text and "events/s" in text and "1721/1721" in text, text
    assert "game 1 exported to" in text


def test_export_says_nothing_more_when_piped(db, tmp_path):
    out = tmp_path / "game.jsonl"
    done = subprocess.run([*BANCO, "--db", str(db), "export", "-o", str(out)],
                          capture_output=True, text=True, env=_env(), timeout=120)
    assert done.returncode == 0
    assert done.stderr == f"game 1 exported to {out} (jsonl)\n"


def _on_a_terminal(args: list[str]) -> tuple[int, str]:
    """Run banco with stderr on a pseudo-terminal: its exit code and what the terminal got."""
    leader, follower = pty.openpty()
    try:
        done = subprocess.run([*BANCO, *args], stdin=subprocess.DEVNULL,
                              stdout=subprocess.DEVNULL, stderr=follower, env=_env(),
                              timeout=300)
        os.close(follower)
        said = b""
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:
                break
            if not chunk:
                break
            said += chunk
    finally:
        os.close(leader)
    return done.returncode, said.decode(errors="replace")


@pytest.fixture(scope="module")
def exported(db, tmp_path_factory):
    out = tmp_path_factory.mktemp("exported") / "game.jsonl"
    subprocess.run([*BANCO, "--db", str(db), "export", "-o", str(out)], check=True,
                   capture_output=True)
    return out


@pytest.mark.parametrize("words, label", [
    (["audit"], "audit"), (["doctor"], "doctor"),
    (["report", "-o", "{tmp}/page.html"], "report"),
    (["--db", "{tmp}/new.db", "import", "{exported}"], "import"),
    (["copy", "{db}", "{tmp}/copied.db"], "copy")])
def test_long_work_shows_a_bar_on_a_terminal_and_nothing_when_piped(db, exported, tmp_path,
                                                                    words, label):
    args = ([] if "--db" in words else ["--db", str(db)]) + [  # one --db: two are refused
        w.format(tmp=tmp_path, exported=exported, db=db) for w in words]
    code, said = _on_a_terminal(args)
    assert code == 0, said
    assert label in said and "events/s" in said, said
    again = [a.replace("new.db", "new2.db").replace("page.html", "page2.html")
             .replace("copied.db", "copied2.db") for a in args]
    piped = subprocess.run([*BANCO, *again], capture_output=True, text=True, env=_env(),
                           timeout=300)
    assert piped.returncode == 0 and "events/s" not in piped.stderr, piped.stderr
    if label in ("audit", "doctor"):
        json_run = subprocess.run([*BANCO, *args, "--json"], capture_output=True, text=True,
                                  env=_env(), timeout=300)
        assert "events/s" not in json_run.stderr


def _interrupted(monkeypatch):
    """Ctrl-C at the first sign of progress (cli/progress.py's step), as a banker's hand."""
    from banco.cli import progress

    def step(self, done):
        if done:
            raise KeyboardInterrupt

    monkeypatch.setattr(progress.Progress, "step", step)


def test_ctrl_c_stops_import_report_and_doctor_with_nothing_half_written(
        db, exported, tmp_path, monkeypatch):
    import shutil
    import sqlite3

    from click.testing import CliRunner

    from banco.cli.main import cli

    def banco(*args):
        return CliRunner().invoke(cli, list(map(str, args)))

    copy = tmp_path / "copy.db"
    shutil.copyfile(db, copy)
    conn = sqlite3.connect(copy)
    with conn:
        conn.execute("DELETE FROM read_model")  # so that the repair would rebuild it
    conn.close()
    before = copy.read_bytes()
    _interrupted(monkeypatch)
    assert banco("--db", tmp_path / "into.db", "import", exported).exit_code != 0
    assert not (tmp_path / "into.db").exists()  # a refused first import leaves no file
    banco("--db", copy, "import", exported)  # the same game: refused before any progress
    assert banco("--db", copy, "report", "-o", tmp_path / "page.html").exit_code != 0
    assert not (tmp_path / "page.html").exists()
    assert not list(tmp_path.glob(".banco-*"))  # nor its temporary file
    import multiprocessing

    assert multiprocessing.active_children() == []  # the audit apart stopped, waited for
    # a copy stopped in its first game leaves no file where there was none
    assert banco("copy", db, tmp_path / "copied.db").exit_code == 130
    assert not list(tmp_path.glob("copied.db*"))
    assert banco("--db", copy, "doctor", "--repair").exit_code != 0
    assert banco("--db", copy, "audit").exit_code != 0
    monkeypatch.undo()
    conn = sqlite3.connect(copy)
    assert conn.execute("SELECT COUNT(*) FROM read_model").fetchone()[0] == 0
    assert conn.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 1
    conn.close()
    assert copy.read_bytes() == before or banco("--db", copy, "audit").exit_code == 0


class _Terminal:
    """A stream that says it is a terminal, keeping what the bar draws."""

    def __init__(self):
        self.text = []

    def isatty(self):
        return True

    def write(self, text):
        self.text.append(text)

    def flush(self):
        pass


def test_parts_stepped_from_two_threads_add_up(monkeypatch):
    """`report` steps one bar from its audit's progress and its page's, perhaps from two
    threads: the bar shows their sum, never goes back, and ends at the total."""
    import threading

    from banco.cli import progress

    monkeypatch.setattr(progress, "DELAY", 0)
    each = 20_000
    bar = progress.Progress(2 * each, "report", stream=_Terminal())
    seen = []
    update = type(bar).step

    def step(self, done):
        update(self, done)
        seen.append(self.done)

    monkeypatch.setattr(progress.Progress, "step", step)
    parts = [bar.part(), bar.part()]

    def work(part):
        for n in range(1, each + 1):
            part(n)

    threads = [threading.Thread(target=work, args=(p,)) for p in parts]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert bar.done == 2 * each and bar.bar.pos == 2 * each
    assert seen == sorted(seen)
    parts[1](10)  # a part begun again (the page drawn a second time): the bar stays
    assert bar.done == 2 * each and bar.bar.pos == 2 * each
    bar.__exit__(None, None, None)


def test_a_bar_is_quiet_piped_for_standard_output_and_after_its_end():
    from banco.cli.progress import Progress

    for bar in (Progress(10, "report", stream=_Piped()),
                Progress(10, "report", quiet=True, stream=_Terminal())):
        part = bar.part()
        part(5)
        assert bar.bar is None and bar.done == 0
    bar = Progress(10, "report", stream=_Terminal())
    bar.__exit__(None, None, None)
    bar.part()(5)
    assert bar.bar is None


class _Piped(_Terminal):
    def isatty(self):
        return False
