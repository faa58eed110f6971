"""Two tables on one database, each from its own terminal (the last trial, docs/postgresql.md):
a plain command goes to the latest unfinished game (DESIGN), so the table that started first
lost its next roll to the other's game, with no warning on PostgreSQL.  `new` says so where
another game is left unfinished, on either store, and BANCO_GAME pins a table's game.

The installed `banco`, as a subprocess: its stderr, its exit codes, its environment.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pg_cluster
import pytest

BANCO = Path(sys.executable).parent / "banco"


def run(db: str, *words: str, game: str | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "BANCO_GAME"}
    env.update(BANCO_LANG="en", BANCO_DB=db)
    if game is not None:
        env["BANCO_GAME"] = game
    done = subprocess.run([str(BANCO), *words], capture_output=True, text=True, env=env,
                          timeout=60)
    assert "Traceback" not in done.stderr, done.stderr
    return done


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request, tmp_path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "hall.db")
    url, _ = pg_cluster.database()
    return url


@pytest.mark.skipif(not BANCO.exists(), reason="banco is not installed in this venv")
def test_each_table_pins_its_game_and_new_says_how(db):
    assert run(db, "new", "Ada", "Bea").returncode == 0  # table A: game 1
    b = run(db, "new", "Cid", "Dan")  # table B: game 2
    assert b.returncode == 0
    assert "warning: game 1 (Ada, Bea) is left unfinished; `--game 1` goes back to it" in b.stderr
    assert ("commands without --game now go to game 2, the latest; a table sharing this "
            "database with others names its own: `export BANCO_GAME=2`") in b.stderr
    # table A, pinned, rolls in its own game; table B, plain, in the latest
    a = run(db, "roll", "1", "2", game="1")
    assert a.returncode == 0 and "Ada rolls 1+2" in a.stdout, a.stdout
    plain = run(db, "roll", "3", "4")
    assert plain.returncode == 0 and "Cid rolls 3+4" in plain.stdout, plain.stdout
    table = run(db, "state", game="1").stdout
    assert "Ada" in table and "Cid" not in table
    missing = run(db, "state", game="9")
    assert missing.returncode == 2 and "no game 9 in this database" in missing.stderr
