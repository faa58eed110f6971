"""Every path that starts from a snapshot, given a forged one (issue 19): `state`, `state --at`,
`standings`, `replay --from`, rulings, a write, `serve`'s screen and the tournament check.

A snapshot's text edited in place (no trigger stands in the way) no longer matches the digest
that binds it to the log (ledger/store/snapshot_binding.py); edited with that digest recomputed
(the function is public), it is still not the table whose digest the chain records at its
event (chain version 3).  Each path shows exactly what it shows on the honest file.  Remove the
check in `unusable` and every "text" case fails; remove `not_chained` from `table_from`
(ledger/snapshot_check.py) and every "text and digest" case does."""

from __future__ import annotations

import re
import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from banco.cli.main import cli
from banco.ledger.book import Book

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
ENV = {"BANCO_FIXED_TIME": "2026-11-29T21:00:00Z"}


@pytest.fixture(scope="module")
def honest(tmp_path_factory) -> Path:
    """The recorded game played to its end: snapshots at 501, 1004, 1507; it ends at 1721."""
    db = tmp_path_factory.mktemp("forgery") / "honest.db"
    result = CliRunner().invoke(cli, ["--db", str(db), "run", "-q",
                                      str(FIXTURES / "classic-to-the-end.banco")], env=ENV)
    assert result.exit_code == 0, result.output
    conn = sqlite3.connect(db)
    assert [s for (s,) in conn.execute("SELECT seq FROM snapshots ORDER BY seq")] == [
        501, 1004, 1507]
    conn.close()
    return db


def forged_copy(honest: Path, tmp_path: Path, digest: bool = False) -> Path:
    """A copy whose every snapshot says Anna has 9,000 more than she has; `digest`: with the
    snapshot's own digest recomputed, as a forger who read snapshot_binding.py would."""
    from banco.ledger.store.snapshot_binding import snapshot_digest

    db = tmp_path / "forged.db"
    shutil.copyfile(honest, db)
    conn = sqlite3.connect(db)
    for seq, head, fmt, text, was in conn.execute(
            "SELECT seq, head, format, state, digest FROM snapshots").fetchall():
        rich = text.replace('{"n":"Player","v":["Anna",', '{"n":"Player","v":["Anna",9', 1)
        assert rich != text
        conn.execute("UPDATE snapshots SET state=?, digest=? WHERE seq=?",
                     (rich, snapshot_digest(seq, head, fmt, rich) if digest else was, seq))
    conn.commit()
    conn.close()
    return db


READINGS = {
    "state": ["state"],
    "state --json": ["state", "--json"],
    "state --at": ["state", "--at", "1600"],
    "standings": ["standings"],
    "replay --from": ["replay", "--from", "1650", "--to", "1700"],
    "ruling rent": ["ruling", "rent", "1706"],
    "ruling bankruptcy": ["ruling", "bankruptcy", "1711"],
}


FORGERS = pytest.mark.parametrize("digest", [False, True], ids=["text", "text and digest"])


@FORGERS
@pytest.mark.parametrize("words", READINGS.values(), ids=READINGS.keys())
def test_a_reading_from_a_forged_snapshot_shows_the_log_s_table(honest, tmp_path, words, digest):
    runner = CliRunner()
    told = runner.invoke(cli, ["--db", str(honest), "--game", "1", *words], env=ENV)
    assert told.exit_code == 0, told.output
    forged = forged_copy(honest, tmp_path, digest)
    shown = runner.invoke(cli, ["--db", str(forged), "--game", "1", *words], env=ENV)
    assert shown.exit_code == 0, shown.output
    assert shown.stdout == told.stdout
    assert re.search(r"the snapshot at event \d+ was changed after banco wrote it", shown.stderr)


@FORGERS
def test_no_write_starts_from_a_forged_snapshot(honest, tmp_path, digest):
    """The issue's case: a finished game whose snapshot is edited; a roll is refused as it is
    on the honest file, nothing appended."""
    forged = forged_copy(honest, tmp_path, digest)
    runner = CliRunner()
    told = runner.invoke(cli, ["--db", str(honest), "--game", "1", "roll", "1", "2"], env=ENV)
    shown = runner.invoke(cli, ["--db", str(forged), "--game", "1", "roll", "1", "2"], env=ENV)
    assert shown.exit_code == told.exit_code != 0
    assert shown.stdout == told.stdout
    book = Book(str(forged))
    assert book.store.last_seq(1) == 1721
    book.close()


@FORGERS
def test_the_room_s_screen_is_not_drawn_from_a_forged_snapshot(honest, tmp_path, digest):
    from banco.cli.web.hub import Table

    def screen(db: Path) -> bytes:
        table = Table(str(db), 1, True)
        table.start()
        try:
            assert table.state is not None, table.error
            return table.json("en")[1]
        finally:
            table.close()

    assert screen(forged_copy(honest, tmp_path, digest)) == screen(honest)


def test_the_tournament_check_reads_the_end_from_the_log(tmp_path):
    """A game still in progress whose snapshot is forged with a recomputed digest to say it
    ended (the strongest forgery: its digest verifies) is still refused as in progress: the
    end of a game comes from its log."""
    from banco.ledger.store.snapshot_binding import snapshot_digest
    from banco.ledger.table.snapshot_codec import encode, shape

    db = str(tmp_path / "t.db")
    runner = CliRunner()
    for words in (["new", "Anna", "Bruno", "--rules", "championship"],
                  ["tournament", "new", "Coppa"]):
        assert runner.invoke(cli, ["--db", db, *words], env=ENV).exit_code == 0
    book = Book(db)
    seq, head = book.store.last_seq(1), book.store.head(1)
    over = encode(book.state(1)._replace(ended=True, winner="Anna"))
    book.close()
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE IF NOT EXISTS snapshots (game_id INTEGER NOT NULL, seq INTEGER "
                 "NOT NULL, head TEXT NOT NULL, format TEXT NOT NULL, state TEXT NOT NULL, "
                 "made_at TEXT NOT NULL, digest TEXT, PRIMARY KEY (game_id, seq))")
    conn.execute("INSERT INTO snapshots VALUES (1, ?, ?, ?, ?, 'x', ?)",
                 (seq, head, shape(), over, snapshot_digest(seq, head, shape(), over)))
    conn.commit()
    conn.close()
    result = runner.invoke(cli, ["--db", db, "tournament", "add", "1"], env=ENV)
    assert result.exit_code == 1, result.output
    assert "game 1 is still in progress" in result.output
    assert runner.invoke(cli, ["--db", db, "--game", "1", "state", "--json"],
                         env=ENV).stdout.count('"ended": false') == 1


def test_state_at_a_seq_folds_from_the_nearest_snapshot_only(honest, monkeypatch):
    """`state --at SEQ` reads no row before the snapshot nearest SEQ (issue 21: it decoded the
    whole game to learn its last seq)."""
    from banco.ledger.store.bulk import GameRows
    from banco.ledger.store.sqlite import SQLiteStore

    read_after = []
    real = SQLiteStore.read

    def spy(self, game_id, after=0, *args, **kwargs):
        if kwargs.get("prev_hash") is not None:  # the rows a fold reads, checked
            read_after.append(after)
        return real(self, game_id, after, *args, **kwargs)

    def whole(self):
        raise AssertionError("the whole game was read")

    monkeypatch.setattr(SQLiteStore, "read", spy)
    monkeypatch.setattr(GameRows, "__iter__", whole)
    result = CliRunner().invoke(cli, ["--db", str(honest), "--game", "1", "state", "--at",
                                      "1600"], env=ENV)
    assert result.exit_code == 0, result.output
    assert read_after and min(read_after) == 1507
