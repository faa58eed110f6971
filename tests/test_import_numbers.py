"""A number of 5,000 digits in an imported file (issue 32): json refuses an integer of more
than 4,300 digits with Python's advice "use sys.set_int_max_str_digits()", which `import`
quoted.  It is named as a number too long to be a figure of a game; run as the installed
command."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

BANCO = Path(sys.executable).parent / "banco"
ENV = {**os.environ, "BANCO_FIXED_TIME": "2026-11-29T21:00:00Z"}

pytestmark = pytest.mark.skipif(not BANCO.exists(), reason="banco is not installed in this venv")


def banco(*args, code=0, lang="en"):
    done = subprocess.run([str(BANCO), *map(str, args)], capture_output=True, text=True,
                          env={**ENV, "BANCO_LANG": lang}, timeout=120)
    assert done.returncode == code, (args, done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    return done


def test_a_number_of_5000_digits_is_named_without_python_advice(tmp_path):
    db, other = str(tmp_path / "a.db"), str(tmp_path / "b.db")
    banco("--db", db, "new", "Anna", "Bruno")
    banco("--db", db, "roll", "1", "2")
    export = tmp_path / "g.jsonl"
    banco("--db", db, "export", "-o", export)
    text = export.read_text()
    assert '"seq":3,' in text
    export.write_text(text.replace('"seq":3,', '"seq":' + "3" * 5000 + ",", 1))
    done = banco("--db", other, "import", export, code=3)
    assert done.stderr == ("error: line 4 is not valid JSON: a number of 5000 digits, too long "
                           "to be a figure of a game; nothing was imported\n")
    done = banco("--db", other, "import", export, code=3, lang="it")
    assert "un numero di 5000 cifre" in done.stderr and "sys." not in done.stderr
