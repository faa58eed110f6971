"""`banco run` reads a bounded transcript (issue 32): `run /dev/zero` and `run -` fed
/dev/zero grew until the kernel killed them, a 100 MB line or /dev/urandom hung.  A line over
64 KiB (shlex takes minutes over a 16 MiB line, import's bound), a file over 64 MiB or over a million lines is refused as soon as it is read that far,
exit 2, nothing appended; bytes that are not UTF-8 at the first chunk that holds one.  Run as
the installed command, so what the shell sees is checked."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

BANCO = Path(sys.executable).parent / "banco"
ENV = {**os.environ, "BANCO_FIXED_TIME": "2026-11-29T21:00:00Z", "BANCO_LANG": "en"}

pytestmark = pytest.mark.skipif(not BANCO.exists(), reason="banco is not installed in this venv")


def banco(*args, code=0, stdin=None):
    done = subprocess.run([str(BANCO), *map(str, args)], capture_output=True, text=True,
                          env=ENV, timeout=120, stdin=stdin)
    assert done.returncode == code, (args, done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    return done


@pytest.fixture
def db(tmp_path):
    path = str(tmp_path / "t.db")
    banco("--db", path, "new", "Anna", "Bruno")
    return path


def events(db) -> int:
    return len(banco("--db", db, "log").stdout.splitlines())


def test_dev_zero_is_refused_at_its_first_long_line(db):
    before = events(db)
    done = banco("--db", db, "run", "/dev/zero", code=2)
    assert done.stderr == ("error: line 1 of /dev/zero is longer than 65536 bytes: not a "
                           "banco line; nothing was run\n")
    with open("/dev/zero", "rb") as zero:
        done = banco("--db", db, "run", "-", code=2, stdin=zero)
    assert "line 1 of <stdin> is longer than 65536 bytes" in done.stderr
    assert events(db) == before


def test_a_line_over_64_kib_is_refused_though_the_lines_before_it_are_good(db, tmp_path):
    big = tmp_path / "big.banco"
    with big.open("w") as f:
        f.write("roll 1 2\n# a comment\n")
        f.write("roll " + "1" * (64 * 1024) + "\n")
    before = events(db)
    done = banco("--db", db, "run", big, code=2)
    assert done.stderr.startswith(f"error: line 3 of {big} is longer than 65536 bytes")
    assert events(db) == before  # not even the good first line


def test_dev_urandom_is_refused_at_its_first_byte_that_is_not_utf8(db):
    before = events(db)
    done = banco("--db", db, "run", "/dev/urandom", code=2)
    assert "error: /dev/urandom is not a transcript: it is not UTF-8 text" in done.stderr
    assert events(db) == before


def test_an_endless_stream_of_good_lines_is_refused_by_its_count(db):
    before = events(db)
    yes = subprocess.Popen(["yes", "roll 1 2"], stdout=subprocess.PIPE)
    try:
        done = banco("--db", db, "run", "-", code=2, stdin=yes.stdout)
    finally:
        yes.kill()
        yes.wait()
    assert done.stderr == ("error: <stdin> has more than 1000000 lines: too many for a "
                           "transcript; nothing was run\n")
    assert events(db) == before


def test_a_transcript_within_the_bounds_still_runs(db, tmp_path):
    script = tmp_path / "ok.banco"
    script.write_text("roll 1 2\n")
    before = events(db)
    banco("--db", db, "run", script)
    assert events(db) > before
