"""`banco copy SRC DST`: every game from one store into another (SQLite to PostgreSQL and
back, issue 22), its rows as stored, each checked on arrival against the source's head; run as
the installed command, so exit codes and what it prints are the shell's."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pg_cluster
import pytest

from banco.ledger.store.open import open_store

BANCO = Path(sys.executable).parent / "banco"
FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "classic-4p.banco"
ENV = {"BANCO_FIXED_TIME": "2026-11-29T21:00:00Z", "BANCO_LANG": "en"}

pytestmark = pytest.mark.skipif(not BANCO.exists(), reason="banco is not installed in this venv")


def banco(*args, code=0):
    import os

    done = subprocess.run([str(BANCO), *map(str, args)], capture_output=True, text=True,
                          env={**os.environ, **ENV}, timeout=300)
    assert done.returncode == code, (args, done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    return done


def recorded(tmp_path) -> str:
    db = str(tmp_path / "table.db")
    banco("--db", db, "run", "-q", FIXTURE)
    banco("--db", db, "new", "Anna", "Bruno")
    return db


def heads(db: str) -> list[str]:
    store = open_store(db, create=False)
    try:
        return [store.head(g["game_id"]) for g in store.games()]
    finally:
        store.close()


def test_a_file_copied_to_another_keeps_every_game_and_its_head(tmp_path):
    src = recorded(tmp_path)
    dst = str(tmp_path / "copy.db")
    said = banco("copy", src, dst).stdout
    assert "copied 2 games" in said and said.count(": head ") == 2
    assert heads(dst) == heads(src) and len(heads(src)) == 2
    assert banco("--db", dst, "audit").returncode == 0  # the copy passes the whole audit
    # its read model is left to doctor --repair, and doctor's text says so (only its JSON did)
    assert ("read model: none yet for game 1, game 2 (`banco doctor --repair` builds it"
            in banco("--db", dst, "doctor").stdout)
    again = banco("copy", src, dst)  # the games are there whole already: nothing twice
    assert again.stdout.count("already there whole") == 2 and "copied 0 games" in again.stdout
    assert heads(dst) == heads(src)
    same = banco("copy", src, src, code=2)  # (as import of the same game: exit 2)
    assert f"{src} and {src} are the same database" in same.stderr


def test_a_missing_source_is_one_line():
    done = banco("copy", "/nonexistent/x.db", "/tmp/never.db", code=2)
    assert "does not exist" in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_sqlite_to_postgresql_and_back(tmp_path):
    url, _admin = pg_cluster.database()
    src = recorded(tmp_path)
    said = banco("copy", src, url).stdout
    assert heads(url) == heads(src)
    # the URL is said without its password (a screen is seen by the table)
    assert pg_cluster.APP_PASSWORD not in said and "to postgresql://banco:***@" in said
    back = str(tmp_path / "back.db")
    banco("copy", url, back)
    assert heads(back) == heads(src)
    assert banco("--db", back, "audit").returncode == 0


def test_the_copy_tells_its_progress_across_the_games(tmp_path, monkeypatch):
    """`progress(events)`: the events copied so far, rising to every event of every game
    (what `banco copy`'s bar shows on a terminal), a batch at a time."""
    from banco.ledger.store import copy as copying
    from banco.ledger.store.copy import copy_store

    monkeypatch.setattr(copying, "BATCH", 50)
    src = open_store(recorded(tmp_path), create=False)
    dst = open_store(str(tmp_path / "copy.db"))
    told = []
    try:
        copied = copy_store(src, dst, told.append)
        total = sum(g["events"] for g in src.games())
    finally:
        src.close()
        dst.close()
    assert len(copied) == 2 and told == sorted(told) and told[-1] == total
    assert len(told) > total // 50  # every batch


def test_a_source_game_edited_under_its_chain_is_refused_whole_and_the_rest_said(tmp_path):
    """A trial: a copy of a game edited in its file was committed, then called "did not arrive
    whole" (exit 4), and stayed in DST.  Now it is refused before its commit (exit 3, as
    import refuses a file), the games before it are copied, and what copy leaves behind (a
    tournament, the phones' tokens) is said, not dropped."""
    import sqlite3

    src = recorded(tmp_path)
    banco("--db", src, "tournament", "new", "Coppa")
    banco("--db", src, "token", "banker")
    good = str(tmp_path / "good.db")
    said = banco("copy", src, good)
    assert "note: the tournament Coppa was not copied" in said.stderr, said.stderr
    assert "note: 1 phone token was not copied" in said.stderr
    conn = sqlite3.connect(src, isolation_level=None)
    conn.execute("DROP TRIGGER events_no_update")
    conn.execute("UPDATE events SET data=replace(data, '1500', '9500') WHERE game_id=2 "
                 "AND seq=3")  # Anna's starting cash
    conn.close()
    dst = str(tmp_path / "dst.db")
    out = banco("copy", src, dst, code=3).stderr
    assert f"error: game 2 of {src} is not whole: event 3: " in out, out
    assert "nothing of it was copied" in out and "audit --game 2" in out
    assert len(heads(dst)) == 1  # game 1 copied whole; nothing of game 2
    assert banco("--db", dst, "audit").returncode == 0


def test_a_forged_game_whose_hashes_were_recomputed_is_refused_as_import_refuses_it(tmp_path):
    """A trial: a game whose starting cash was edited and every hash after it recomputed (the
    chain intact) copied with exit 0, where `import` of its export refuses it (exit 3).  Copy
    audits each game before its commit, as import does: refused whole, the event and the
    reason named; the game before it is copied."""
    import sqlite3

    from forge import drop_triggers, rechain_stored

    src = recorded(tmp_path)
    conn = sqlite3.connect(src, isolation_level=None)
    drop_triggers(conn)
    conn.execute("UPDATE events SET data=replace(data, '1500', '9500') WHERE game_id=2 "
                 "AND seq=3")  # Anna's starting cash
    conn.execute("UPDATE games SET head=? WHERE game_id=2", (rechain_stored(conn, 2, 3),))
    conn.close()
    dst = str(tmp_path / "dst.db")
    out = banco("copy", src, dst, code=3).stderr
    assert f"error: game 2 of {src} does not pass the audit: event 3: starting cash for Anna " \
           "is 9500 M" in out, out
    assert "nothing of it was copied" in out and "audit --game 2" in out
    assert len(heads(dst)) == 1  # game 1 copied whole; nothing of game 2
    assert banco("--db", dst, "audit").returncode == 0


def test_a_copy_killed_midway_is_resumed_by_running_it_again(tmp_path):
    """A trial killed `banco copy` after its first game's commit: the rerun said game 1 was
    already there and copied nothing more.  A game there whole (the same head) is skipped,
    the rest copied; a game there with another history is still refused (exit 2)."""
    from banco.ledger.store.copy import copy_store

    src = recorded(tmp_path)
    dst = str(tmp_path / "dst.db")
    calls = []

    def killed(game, rows):  # the process dies once the first game is committed
        calls.append(game)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return None

    source, target = open_store(src, create=False), open_store(dst)
    try:
        with pytest.raises(KeyboardInterrupt):
            copy_store(source, target, audit=killed)
    finally:
        source.close()
        target.close()
    assert heads(dst) == heads(src)[:1]
    said = banco("copy", src, dst).stdout
    assert "game 1 = game 1: already there whole" in said
    assert "game 2 -> game 2: head" in said and "copied 1 game" in said
    assert heads(dst) == heads(src)
    assert banco("--db", dst, "audit").returncode == 0
    banco("--db", src, "roll", "1", "2", "--game", "2")  # game 2 goes on in SRC only
    refused = banco("copy", src, dst, code=2)
    assert "game 2 (" in refused.stderr and "with another history" in refused.stderr
    assert heads(dst)[1] != heads(src)[1]
