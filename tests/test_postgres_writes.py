"""Two faults of the PostgreSQL store's writes (issue 32, the last trial), on a real server
(tests/pg_cluster.py): `run --dry-run` checked the lines against an empty SQLite file, not
the database's games; and the raise of a format-3 schema to format 4 ran in a transaction of
its own before the first write, so a write refused at the store left the database raised."""

from __future__ import annotations

import pg_cluster
import psycopg
import pytest
from click.testing import CliRunner

from banco.cli.main import cli
from banco.ledger.base.errors import ConflictError
from banco.ledger.store.open import open_store
from banco.ledger.store.protocol import NewEvent

NOW = "2026-11-29T21:00:00.000000Z"


def banco(db: str, *words, code: int = 0) -> str:
    result = CliRunner().invoke(cli, ["--db", db, *map(str, words)], catch_exceptions=False)
    assert result.exit_code == code, (words, result.output)
    return result.output


@pytest.fixture
def url(monkeypatch):
    monkeypatch.setenv("BANCO_FIXED_TIME", "2026-11-29T21:00:00Z")
    url, admin = pg_cluster.database()
    return url, admin


def _events(url: str, game: int) -> int:
    store = open_store(url, create=False)
    try:
        return store.last_seq(game)
    finally:
        store.close()


def test_a_dry_run_checks_the_lines_against_the_database_s_games(url, tmp_path):
    url, _admin = url
    banco(url, "new", "Ada", "Bea")
    banco(url, "new", "Cid", "Dan")  # game 2: the latest, unfinished
    banco(url, "--game", "1", "roll", "1", "2")
    before = (_events(url, 1), _events(url, 2))
    good = tmp_path / "good.banco"
    good.write_text("buy\nroll 3 4 --player Bea\n")  # Ada stands on Vicolo Stretto
    out = banco(url, "--game", "1", "run", "--dry-run", good)
    assert "Ada pays 60 M to the Bank: bought Vicolo Stretto" in out
    assert "dry run: checked on a copy; nothing was written to" in out
    # a line the real game refuses is refused: on an empty copy it said "no game" instead
    bad = tmp_path / "bad.banco"
    bad.write_text("roll 1 1 --player Dan\n")  # Cid's turn in game 2
    out = banco(url, "run", "--dry-run", bad, code=1)
    assert "Cid" in out and "no game" not in out
    assert (_events(url, 1), _events(url, 2)) == before  # nothing kept


def _format(admin: str) -> str:
    with psycopg.connect(admin, autocommit=True) as conn:
        return conn.execute("SELECT value FROM banco.meta WHERE key='format'").fetchone()[0]


def test_a_write_refused_at_the_store_leaves_a_format_3_database_at_format_3(url):
    url, admin = url
    banco(url, "new", "Ada", "Bea")
    with psycopg.connect(admin, autocommit=True) as conn:  # as a banco of format 3 left it
        conn.execute("UPDATE banco.meta SET value='3' WHERE key='format'")
        conn.execute("DELETE FROM banco.meta WHERE key='migrated_to_4_at'")
    store = open_store(url, create=False)
    try:
        assert store.format == 3
        last = store.last_seq(1)
        event = NewEvent("CommandRecorded", {"line": "undo", "command": None})
        with pytest.raises(ConflictError):  # another writer went first: refused, nothing kept
            store.append(1, last - 1, [event], recorded_at=NOW, actor="banker",
                         command_id="k1")
        assert _format(admin) == "3" and store.format == 3
        store.append(1, last, [event], recorded_at=NOW, actor="banker", command_id="k2")
        assert _format(admin) == "4" and store.format == 4  # raised with the write
    finally:
        store.close()


def test_a_dry_run_copies_only_the_games_its_lines_act_on(url, tmp_path, monkeypatch):
    from banco.ledger.store import copy

    url, _admin = url
    for players in (("Ada", "Bea"), ("Cid", "Dan"), ("Eva", "Fil")):
        banco(url, "new", *players)
    before = [_events(url, g) for g in (1, 2, 3, 4)]
    copied = []
    real = copy.copy_game
    monkeypatch.setattr(copy, "copy_game", lambda src, dst, game, *a, **k: copied.append(
        game) or real(src, dst, game, *a, **k))
    lines = tmp_path / "two.banco"
    lines.write_text("roll 1 2\nbuy\n")
    out = banco(url, "--game", "2", "run", "--dry-run", lines)
    assert "Cid pays 60 M to the Bank: bought Vicolo Stretto" in out and copied == [2]
    # a `new` is numbered as the database would number it: after its newest game, copied too
    copied.clear()
    lines.write_text("roll 1 2 --game 1\nnew Gil Hal\n")
    out = banco(url, "run", "--dry-run", lines)
    assert "game 4" in out and copied == [1, 3], out
    copied.clear()  # a reading that may range over every game: every game, as before
    lines.write_text("games\n")
    out = banco(url, "run", "--dry-run", lines)
    assert "Eva" in out and "Ada" in out and copied == [1, 2, 3]
    assert [_events(url, g) for g in (1, 2, 3, 4)] == before  # nothing kept
