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
BANCO = [sys.executable, "-c", "from cli.main import main; main()"]


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
    assert "export" in text and "events/s" in text and "1715/1715" in text, text
    assert "game 1 exported to" in text


def test_export_says_nothing_more_when_piped(db, tmp_path):
    out = tmp_path / "game.jsonl"
    done = subprocess.run([*BANCO, "--db", str(db), "export", "-o", str(out)],
                          capture_output=True, text=True, env=_env(), timeout=120)
    assert done.returncode == 0
    assert done.stderr == f"game 1 exported to {out} (jsonl)\n"
