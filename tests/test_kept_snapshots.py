"""Which snapshots a game keeps (ledger/store/kept_snapshots.py): the stores' DELETE and the
audit's KeptSnapshots (what an import leaves) keep the same ones, and `state --at` a moment
long ago in a long game starts from one of them instead of folding from the first event."""

import shutil
import sqlite3
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from banco.ledger.book import Book
from banco.ledger.store import kept_snapshots
from banco.ledger.store.kept_snapshots import KeptSnapshots, prune_args, prune_sql


@settings(max_examples=150, deadline=None)
@given(gaps=st.lists(st.integers(1, 700), min_size=0, max_size=40),
       every=st.sampled_from([1, 3, 500, 1000]))
def test_the_audit_keeps_what_the_stores_delete_leaves(gaps, every):
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(kept_snapshots, "EVERY", every)
        conn = sqlite3.connect(":memory:")
        conn.execute("CREATE TABLE snaps (game_id INTEGER, seq INTEGER, PRIMARY KEY (game_id, "
                     "seq))")
        kept, seq = KeptSnapshots(), 0
        for gap in gaps:  # snapshots are taken as the game grows: in increasing seq
            seq += gap
            conn.execute("INSERT INTO snaps VALUES (1, ?)", (seq,))
            conn.execute(prune_sql("snaps", "?"), prune_args(1))
            kept.append((seq, f"table@{seq}"))
        stored = [r[0] for r in conn.execute("SELECT seq FROM snaps ORDER BY seq")]
        assert [s[0] for s in kept] == stored and len(kept) == len(stored)
        assert [s[1] for s in kept] == [f"table@{s}" for s in stored]
        taken = [sum(gaps[:i + 1]) for i in range(len(gaps))]
        firsts = {}
        for s in taken:
            firsts.setdefault(s // every, s)
        assert stored == sorted({*taken[-3:], *firsts.values()})


FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


@pytest.fixture(scope="module")
def long_game(tmp_path_factory):
    """A 3,000-event generated game (tests/tools/big_games.py, a snapshot every 500 events as
    the book takes them)."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent / "tools"))
    import big_games

    from banco.ledger.store.sqlite import SQLiteStore

    db = tmp_path_factory.mktemp("kept") / "long.db"
    store = SQLiteStore(str(db))
    big_games.write_game(store, 3000, 11)
    store.close()
    return db


def test_a_moment_long_ago_is_folded_from_a_snapshot_near_it(long_game, tmp_path, monkeypatch):
    db = tmp_path / "g.db"
    shutil.copyfile(long_game, db)
    conn = sqlite3.connect(db)
    kept = [r[0] for r in conn.execute("SELECT seq FROM snapshots ORDER BY seq")]
    last = conn.execute("SELECT MAX(seq) FROM events").fetchone()[0]
    conn.close()
    assert last > 3000 and len(kept) >= 5 and kept[0] < 1000  # the old ones are still there
    at = kept[1] + 7  # after an old snapshot, long before the newest three
    assert at < kept[-3]
    # the table there as a fold from the first event gives it
    slow = Book(str(db))
    monkeypatch.setattr(slow.store, "snapshots", lambda game: [])
    expected = slow.state(1, at=at)
    slow.close()
    monkeypatch.undo()
    folded = []
    real = Book._fold_from_start
    monkeypatch.setattr(Book, "_fold_from_start",
                        lambda self, *a, **k: folded.append(a) or real(self, *a, **k))
    book = Book(str(db))
    assert book.state(1, at=at) == expected and expected.seq == at
    assert folded == []  # from the snapshot at kept[1], not from event 1
    book.close()
