"""`banco shell` fed on a pipe reads its lines bounded, as `run` reads a transcript's (issue 32,
the fifth trial): `shell < /dev/zero` grew until a MemoryError, a 17 MiB line got no answer
in a minute.  A line longer than run's bound (65,536 bytes) is refused at once, nothing of it
or after it run, exit 2; and a line is split once, not once for each reader of it (shlex's
time grows with the square of a word's length)."""

from __future__ import annotations

import io
import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from banco.cli.banker.shell import BancoShell
from banco.cli.bounded_input import TRANSCRIPT_LINE_LIMIT
from banco.cli.main import cli as banco_cli
from banco.cli.session import Session

BANCO = Path(sys.executable).parent / "banco"
ENV = {**os.environ, "BANCO_FIXED_TIME": "2026-11-29T21:00:00Z", "BANCO_LANG": "en",
       "BANCO_HISTORY": ""}
pytestmark = pytest.mark.skipif(not BANCO.exists(), reason="banco is not installed in this venv")


def shell(db, stdin, code):
    done = subprocess.run([str(BANCO), "--db", str(db), "shell"], stdin=stdin,
                          capture_output=True, env=ENV, timeout=60)
    assert done.returncode == code, done.stderr[-2000:]
    assert b"Traceback" not in done.stderr
    return done


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "t.db"
    subprocess.run([str(BANCO), "--db", str(path), "new", "Anna", "Bruno"], env=ENV,
                   check=True, capture_output=True)
    return path


def logged(db) -> list[dict]:
    out = subprocess.run([str(BANCO), "--db", str(db), "log", "--json"], env=ENV, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


def seqs(db) -> int:
    return len(logged(db))


def test_an_endless_line_is_refused_at_once(db):
    before = seqs(db)
    with open("/dev/zero", "rb") as zero:
        done = shell(db, zero, 2)
    assert done.stderr.decode().strip() == (
        f"error: line 1 of the standard input is longer than {TRANSCRIPT_LINE_LIMIT} bytes: "
        "not a banco line; it was not run")
    assert seqs(db) == before


def test_a_long_line_stops_the_pipe_there(db, tmp_path):
    lines = tmp_path / "lines.txt"
    lines.write_text("roll 1 2\nroll " + "x" * (TRANSCRIPT_LINE_LIMIT + 10) + "\nbuy\n")
    before = seqs(db)
    with open(lines, "rb") as f:
        done = shell(db, f, 2)
    assert "error: line 2 of the standard input is longer than" in done.stderr.decode()
    after = logged(db)
    assert len(after) > before  # the roll was recorded, the buy after the long line was not
    assert not any(e["type"] == "PropertyBought" for e in after)


def test_a_line_is_split_once(db, monkeypatch):
    calls = []
    real = shlex.split

    def counted(*args, **kwargs):
        calls.append(args[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(shlex, "split", counted)
    line = "roll 3 " + "q" * 5000  # refused (exit 2): every reader of it has looked
    sh = BancoShell(Session(str(db), None), banco_cli, stdin=io.StringIO(line + "\n"), stdout=io.StringIO())
    sh.cmdloop()
    sh.session.close()
    assert sh.first_failure == 2
    assert calls.count(line) == 1, len(calls)


def test_a_paste_too_long_at_a_terminal_is_said_as_typed(banco, monkeypatch, capsys):
    # at a terminal it said "line 19 of the standard input", which names nothing on the screen
    banco("new", "Anna", "Bruno")
    typed = iter(["bid Anna " + "7" * 70_000, "state"])

    def keyboard(prompt):
        try:
            return next(typed)
        except StopIteration:
            raise EOFError from None

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.setattr("builtins.input", keyboard)
    sh = BancoShell(Session(banco.db, None), banco_cli, stdin=Terminal(), stdout=io.StringIO())
    sh.use_rawinput, sh.completekey = True, ""
    sh.cmdloop(intro="")
    sh.session.close()
    said = capsys.readouterr()
    assert said.err.splitlines()[0] == (
        f"error: the line typed is longer than {TRANSCRIPT_LINE_LIMIT} bytes (a paste?): not a "
        "banco line; it was not run")
    assert "game 1 at event" in said.out  # the shell went on: `state` ran
