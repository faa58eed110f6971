"""The import's bulk writing into SQLite (ledger/store/bulk.py GameImport): a long game into a
file that holds less has the indexes on the events' type and command ids built after its
rows, in the same transaction; the file has them, as they were, whatever the import's end."""

import sqlite3

import pytest
from click.testing import CliRunner
from games import record

from banco.cli.main import cli
from banco.ledger.store import bulk


def banco(db, *args, code=0):
    result = CliRunner().invoke(cli, ["--db", str(db), *map(str, args)])
    assert result.exit_code == code, result.output
    return result.output


def index_sql(db) -> list[str | None]:
    """The SQL of each index an import may lift (None where the file has none)."""
    conn = sqlite3.connect(db)
    try:
        found = [conn.execute("SELECT sql FROM sqlite_master WHERE name=?",
                              (name,)).fetchone() for name in bulk.LIFTED]
    finally:
        conn.close()
    return [f and f[0] for f in found]


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    folder = tmp_path_factory.mktemp("bulk")
    db, path = record(str(folder / "4p.db"), "classic-4p"), folder / "4p.jsonl"
    banco(db, "export", "-o", path)
    return db, path


@pytest.fixture
def lifted(monkeypatch):
    """The SQL each import's `_lift_indexes` kept ([]: the indexes stayed)."""
    seen = []
    real = bulk.GameImport._lift_indexes

    def spy(self):
        seen.append(real(self))
        return seen[-1]

    monkeypatch.setattr(bulk.GameImport, "_lift_indexes", spy)
    return seen


def test_a_game_into_a_new_file_has_the_indexes_built_after_its_rows(exported, tmp_path,
                                                                     lifted):
    source, path = exported
    db = tmp_path / "new.db"
    banco(db, "import", path)
    assert lifted == [index_sql(source)] and index_sql(db) == index_sql(source)
    conn = sqlite3.connect(db)
    try:  # the index holds every row, as one built row by row does
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        by_index = conn.execute("SELECT COUNT(*) FROM events INDEXED BY idx_events_type "
                                "WHERE type='TurnEnded'").fetchone()
        assert by_index == conn.execute("SELECT COUNT(*) FROM events NOT INDEXED WHERE "
                                        "type='TurnEnded'").fetchone() != (0,)
        by_index = conn.execute("SELECT command_id, seq FROM events INDEXED BY "
                                "idx_events_game_id_command_id WHERE game_id=1 ORDER BY "
                                "command_id, seq").fetchall()
        assert by_index == conn.execute("SELECT command_id, seq FROM events NOT INDEXED "
                                        "ORDER BY command_id, seq").fetchall()
        assert len(by_index) > 600
    finally:
        conn.close()
    assert "index" not in banco(db, "doctor").lower().replace("indexes", "")
    out = tmp_path / "again.jsonl"
    banco(db, "export", "-o", out)
    assert out.read_bytes() == path.read_bytes()


def test_a_game_into_a_file_holding_more_leaves_the_index_alone(exported, tmp_path, lifted):
    source, path = exported
    db = tmp_path / "more.db"
    record(str(db), "classic-to-the-end")  # 1,721 events, the one imported 643
    banco(db, "import", path)
    assert lifted == [[]] and index_sql(db) == index_sql(source)


def test_a_refused_import_leaves_the_index_as_it_was(exported, tmp_path, lifted,
                                                     monkeypatch):
    from banco.projections.exchange import exchange

    monkeypatch.setattr(exchange, "BATCH", 50)  # rows go in before the bad line is read
    source, path = exported
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[-1] = lines[-1].replace('"type":"', '"type":"X', 1)  # the last line edited
    bad = tmp_path / "bad.jsonl"
    bad.write_text("".join(lines), encoding="utf-8")
    db = tmp_path / "new.db"
    banco(db, "new", "Anna", "Bruno")  # a file with one short game: this one is longer
    said = banco(db, "import", bad, code=3)
    assert "nothing was imported" in said
    assert lifted == [index_sql(source)] and index_sql(db) == index_sql(source)
    conn = sqlite3.connect(db)
    try:  # the short game alone
        assert conn.execute("SELECT DISTINCT game_id FROM events").fetchall() == [(1,)]
    finally:
        conn.close()
