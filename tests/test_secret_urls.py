"""A postgresql:// URL is never printed with its password: every message, listing and log
says `--db` through one function (ledger/store/postgres_connection.py shown), which masks the
password of the user part and of a `password=` in the query, and leaves a file's path alone."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pg_cluster
import pytest

from banco.ledger.store.postgres_connection import shown

BANCO = Path(sys.executable).parent / "banco"
ENV = {"BANCO_FIXED_TIME": "2026-11-29T21:00:00Z", "BANCO_LANG": "en"}


@pytest.mark.parametrize("url, said", [
    ("postgresql://banco:secret@host/db", "postgresql://banco:***@host/db"),
    ("postgres://banco:secret@host:5433/db", "postgres://banco:***@host:5433/db"),
    ("postgresql://:secret@host/db", "postgresql://:***@host/db"),
    ("postgresql://banco@host/db?password=secret&sslmode=require",
     "postgresql://banco@host/db?password=***&sslmode=require"),
    ("postgresql:///db?host=/run/pg&PASSWORD=secret", "postgresql:///db?host=/run/pg&PASSWORD=***"),
    ("postgresql://banco@host/db", "postgresql://banco@host/db"),
])
def test_a_url_is_shown_without_its_password(url, said):
    assert shown(url) == said


@pytest.mark.parametrize("path", ["banco.db", "/tmp/a:b@c.db", "[weird.db", ""])
def test_a_file_s_path_is_shown_as_given(path):
    assert shown(path) == path


def banco(*args, code: int) -> str:
    done = subprocess.run([str(BANCO), *map(str, args)], capture_output=True, text=True,
                          env={**os.environ, **ENV}, timeout=120)
    assert done.returncode == code, (args, done.stdout, done.stderr)
    return done.stdout + done.stderr


@pytest.mark.skipif(not BANCO.exists(), reason="banco is not installed in this venv")
def test_no_message_about_a_postgresql_database_shows_its_password(tmp_path):
    url, _ = pg_cluster.database()
    lines = tmp_path / "t.txt"
    lines.write_text("new Ada Bea\n")
    other = tmp_path / "a.db"
    banco("--db", other, "new", "Anna", "Bruno", code=0)
    said = [banco("--db", url, "run", lines, "--resume", code=2),  # the file's ids not there
            banco("--db", url, "import", other, code=2)]  # a SQLite file: `banco copy` it
    for text in said:
        assert pg_cluster.APP_PASSWORD not in text and "banco:***@" in text, text
