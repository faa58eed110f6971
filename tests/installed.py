"""The installed `banco` (the venv's console script) run as a separate process, for the
tests/test_subprocess*.py files: the run, the rows a file holds, and the one `error:` line
every bad --db or usage mistake ends in."""

import os
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

BANCO = Path(sys.executable).parent / "banco"
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
UID = "1b4e28ba-2fa1-11d2-883f-0016d3cca427"
FIXED = {"BANCO_FIXED_TIME": "2026-11-29T21:00:00Z"}

INSTALLED = pytest.mark.skipif(not BANCO.exists(), reason="banco is not installed in this venv")


def banco(*args, code=0, env=None, cwd=None, input=None):
    result = subprocess.run([str(BANCO), *map(str, args)], capture_output=True, text=True,
                            env={**os.environ, **(env or {})}, cwd=cwd, timeout=60,
                            input=input)
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == code, (args, result.stdout, result.stderr)
    return result


def rows(db):
    conn = sqlite3.connect(db)
    try:
        if not conn.execute("SELECT 1 FROM sqlite_master WHERE name='events'").fetchone():
            return []  # killed before its first commit: an empty file, as banco treats it
        return conn.execute("SELECT game_id, seq, type, data, command_id, hash FROM events "
                            "ORDER BY game_id, seq").fetchall()
    finally:
        conn.close()


def copy_of(played, tmp_path, name="b.db"):
    db = tmp_path / name
    shutil.copy(played, db)
    return db


def one_error_line(result, *words):
    lines = [x for x in result.stderr.splitlines() if not x.startswith("WARNING")]
    assert lines and lines[0].startswith("error: "), result.stderr
    assert all(w in result.stderr for w in words), result.stderr


def wait_for_events(db, at_least, proc, timeout=20):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            if len(rows(db)) >= at_least:
                return
        except sqlite3.Error:
            pass
        time.sleep(0.02)
