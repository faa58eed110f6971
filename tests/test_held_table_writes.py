"""A process that keeps the table it folded (the shell, `serve`) writes onto nothing a fresh
`banco` would refuse (issue 32's note): a row edited in place after it read the table is found
when it next writes, which is refused (exit 3's words, nothing appended), as a cold write on the
same file is (tests/test_broken_chain_writes.py)."""

from __future__ import annotations

import os
import select
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from forge import drop_triggers, last_seq

from banco.ledger.book import Book
from banco.ledger.records import commands as c

BANCO = Path(sys.executable).parent / "banco"
NOW = "2026-11-29T10:00:00.000000Z"


@pytest.fixture
def db(tmp_path):
    """Ada and Bea; Ada rolled 1 2 and stands on Vicolo Stretto, to buy or decline."""
    path = str(tmp_path / "t.db")
    book = Book(path)
    book.execute(book.new_game(["Ada", "Bea"], now=NOW), c.Roll((1, 2)), now=NOW)
    book.close()
    return path


def edit_in_place(db) -> None:
    """Ada's starting cash made 9943 (event 3), no rehash: the issue's game 4."""
    conn = sqlite3.connect(db)
    drop_triggers(conn)
    conn.execute("UPDATE events SET data=replace(data, '1500', '9943') WHERE seq=3")
    conn.commit()
    conn.close()


def until_prompt(proc) -> str:
    """What the shell writes up to its prompt (`> `, waiting for a line)."""
    seen = b""
    while not seen.endswith(b"> "):
        ready, _, _ = select.select([proc.stdout], [], [], 120)
        assert ready, seen  # a shell that says nothing more: stop rather than hang
        chunk = os.read(proc.stdout.fileno(), 4096)
        assert chunk, seen
        seen += chunk
    return seen.decode()


@pytest.mark.skipif(not BANCO.exists(), reason="banco is not installed in this venv")
def test_the_shell_refuses_a_write_after_a_row_it_read_was_edited(db):
    env = {**os.environ, "BANCO_HISTORY": "", "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([str(BANCO), "--db", db, "shell"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)
    try:
        assert "Ada (buy)> " in until_prompt(proc)  # the table read and held
        proc.stdin.write(b"state\n")
        proc.stdin.flush()
        assert "1500" in until_prompt(proc)
        edit_in_place(db)
        before = last_seq(db)
        proc.stdin.write(b"buy\n")
        proc.stdin.flush()
        said = until_prompt(proc)
        out, _ = proc.communicate(b"", timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert last_seq(db) == before, said
    assert "game 1 event 3 " in said and "nothing was recorded" in said, said


@pytest.mark.filterwarnings("ignore:Using `httpx`")
def test_the_server_refuses_a_write_after_a_row_it_read_was_edited(db):
    from starlette.testclient import TestClient

    from banco.cli.web.app import Hub, make_app
    from banco.ledger.store import tokens

    banker = {"Authorization": f"Bearer {tokens.issue(db, 'banker', 1, NOW)[0]}"}
    hub = Hub(db, None, poll=60)
    try:
        with TestClient(make_app(hub)) as client:
            assert client.post("/api/commands", json={"line": "buy"},
                               headers=banker).status_code == 200  # the table read and held
            assert client.get("/api/table", headers=banker).json()["warning"] is None
            edit_in_place(db)
            before = last_seq(db)
            r = client.post("/api/commands", json={"line": "roll 2 3"}, headers=banker)
            assert last_seq(db) == before
            assert r.json()["code"] == 3 and "game 1 event 3 " in r.json()["errors"], r.json()
            # locked until the referee acts: no server fault (a 500) for a phone to retry
            assert r.status_code == 423, r.status_code
            # and every view of the table says so from then on, as the terminal does
            for headers in (banker, {}):
                warning = client.get("/api/table", headers=headers).json()["warning"]
                assert warning == "WARNING: game 1 event 3 does not match its hash: run " \
                                  "`banco audit`", warning
    finally:
        hub.close()
