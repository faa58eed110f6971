"""The exported four-player game the exchange's tests read (`four`, `exported`, recorded once a
worker: every test reads it or copies it), a fresh target database, and what a forger does to
an export's lines.  Loaded by tests/conftest.py's pytest_plugins."""

import json
import os
import sqlite3
from pathlib import Path

import pytest
from games import record

from banco.ledger.store.canonical import GENESIS, canonical_json, row_hash


@pytest.fixture(scope="session")
def four(tmp_path_factory):
    return record(str(tmp_path_factory.mktemp("exchange") / "4p.db"), "classic-4p")


@pytest.fixture(scope="session")
def exported(four, tmp_path_factory):
    from click.testing import CliRunner

    from banco.cli.main import cli

    path = tmp_path_factory.mktemp("exchange") / "4p.jsonl"
    result = CliRunner().invoke(cli, ["--db", four, "export", "-o", str(path)])
    assert result.exit_code == 0, result.output
    return path


@pytest.fixture
def target(tmp_path, banco):
    db = str(tmp_path / "target.db")
    banco("--db", db, "new", "Zoe", "Yuri")
    return db


def refused(banco, db, header, rows, tmp_path, code=3, lang="en"):
    path = tmp_path / "tampered.jsonl"
    write(path, header, rows)
    before = games(db)
    out = banco("--db", db, "--lang", lang, "import", str(path), code=code).output
    assert games(db) == before  # nothing written
    return out


def games(db):
    if not os.path.exists(db):
        return None
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT game_id, game_uuid, last_seq, head FROM games").fetchall()
    finally:
        conn.close()


def rows_of(path):
    text = Path(path).read_text(encoding="utf-8").splitlines()
    return json.loads(text[0]), [json.loads(x) for x in text[1:]]


def write(path, header, rows):
    Path(path).write_text("\n".join([canonical_json(header)] + [canonical_json(r) for r in rows])
                          + "\n", encoding="utf-8")


def rehash(rows, start=0, game_id=None):
    """What a forger does: recompute every hash from row `start` on."""
    prev = rows[start - 1]["hash"] if start else GENESIS
    for r in rows[start:]:
        r["prev_hash"] = prev
        full = {**r, "game_id": game_id}
        r["hash"] = prev = row_hash(prev, full)
    return rows


def played_with_undos(db: str, commands: int = 160) -> None:
    """A game played by decide (tests/bench_import.py's players), an undo every 7th command."""
    import random

    from bench_import import choose

    from banco.ledger.book import Book

    book = Book(db)
    g = book.new_game(["Anna", "Bruno", "Carla"], now="2026-11-29T21:00:00.000000Z")
    rng = random.Random(3)
    for n in range(commands):
        if n % 7 == 6:
            book.undo(g, now="2026-11-29T21:00:00.000000Z")
        else:
            book.execute(g, choose(book.state(g), rng), now="2026-11-29T21:00:00.000000Z")
    book.close()
