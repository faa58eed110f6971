"""No write onto a chain the book finds broken (issue 32, item 2): a log tampered with in a way
the chain shows (data edited, a row's hash recomputed with its link broken, a row deleted) is
read with a warning, on the terminal and in the phones' table document, and every command on
it is refused (exit 3, nothing appended) naming the first bad event and what to run.  Both
stores: tests/store_suite.py."""

from __future__ import annotations

import sqlite3

import pytest
from click.testing import CliRunner
from forge import drop_triggers, last_seq, rechain_stored

from banco.cli.main import cli
from banco.ledger.book import Book
from banco.ledger.records import commands as c
from banco.ledger.store.canonical import stored_row_hash

NOW = "2026-11-29T10:00:00.000000Z"


def banco(db, *args, code=0):
    result = CliRunner().invoke(cli, ["--db", str(db), *map(str, args)], catch_exceptions=False)
    assert result.exit_code == code, (args, result.output)
    return result.output


@pytest.fixture
def db(tmp_path):
    """Ada and Bea; Ada rolled 1 2 and stands on Vicolo Stretto, to buy or decline (events
    1-4: the start and the starting cash, 5 on: the roll)."""
    path = str(tmp_path / "t.db")
    book = Book(path)
    game = book.new_game(["Ada", "Bea"], now=NOW)
    book.execute(game, c.Roll((1, 2)), now=NOW)
    book.close()
    return path


def forge(db, *statements, args=()) -> None:
    conn = sqlite3.connect(db)
    drop_triggers(conn)
    for i, statement in enumerate(statements):
        conn.execute(statement, args[i] if args else ())
    conn.commit()
    conn.close()


def data_edited(db) -> int:
    """Ada's starting cash made 9943, in place, no rehash (the issue's game 4)."""
    forge(db, "UPDATE events SET data=replace(data, '1500', '9943') WHERE seq=3")
    return 3


def link_broken(db) -> int:
    """Event 4's prev_hash changed and its own hash recomputed over it, the rows after it
    re-chained onto that: every row matches its hash, one does not follow the one before."""
    conn = sqlite3.connect(db)
    drop_triggers(conn)
    row = conn.execute("SELECT seq, type, data, recorded_at, actor, command_id, schema_version, "
                       "chain_version, table_digest FROM events WHERE seq=4").fetchone()
    prev = "f" * 64
    conn.execute("UPDATE events SET prev_hash=?, hash=? WHERE seq=4",
                 (prev, stored_row_hash(prev, 1, *row)))
    rechain_stored(conn, 1, 5)
    conn.commit()
    conn.close()
    return 4


def row_deleted(db) -> int:
    """Bea's starting cash taken out of the middle of the log."""
    forge(db, "DELETE FROM events WHERE seq=4")
    return 4


TAMPERINGS = [data_edited, link_broken, row_deleted]


@pytest.mark.parametrize("tamper", TAMPERINGS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("line", [["buy"], ["decline"], ["undo"], ["roll", "1", "2"]])
def test_a_write_onto_a_broken_chain_is_refused_and_appends_nothing(db, tamper, line):
    bad = tamper(db)
    before = last_seq(db)
    out = banco(db, *line, code=3)
    assert f"game 1 event {bad} " in out
    assert "nothing was recorded" in out and "`banco audit`" in out and "`banco doctor`" in out
    assert last_seq(db) == before
    # and the audit names the same event
    assert f"FAILED at event {bad}" in banco(db, "audit", code=3)


@pytest.mark.parametrize("tamper", TAMPERINGS, ids=lambda f: f.__name__)
def test_the_book_refuses_before_deciding_and_a_retry_is_refused_too(db, tamper):
    from banco.ledger.store.findings import BrokenChain

    bad = tamper(db)
    book = Book(db)
    try:
        for _ in range(2):  # the same book again: the break it met stays known
            with pytest.raises(BrokenChain) as refused:
                book.execute(1, c.Buy(), now=NOW, command_id="k1")
            assert refused.value.seq == bad and refused.value.exit_code == 3
        assert book.store.command_events(1, "k1") == []
    finally:
        book.close()


def test_the_sound_log_is_written_as_before(db):
    banco(db, "buy")
    assert "9943" not in banco(db, "state")


def test_a_reading_of_a_broken_chain_warns_on_the_terminal(db):
    data_edited(db)
    out = banco(db, "state")
    assert "WARNING: game 1 event 3 does not match its hash: run `banco audit`" in out


@pytest.mark.parametrize("tamper", TAMPERINGS, ids=lambda f: f.__name__)
def test_the_phones_table_document_carries_the_warning(db, tamper):
    from banco.cli.web.hub import Table

    sound = Table(db, 1, None, poll=None).start()
    try:
        assert sound.doc("en", "public")[1]["warning"] is None
    finally:
        sound.close()
    bad = tamper(db)
    table = Table(db, 1, None, poll=None).start()
    try:
        for view in ("public", "full", "player:Ada"):
            warning = table.doc("en", view)[1]["warning"]
            assert warning.startswith(f"WARNING: game 1 event {bad} "), warning
            assert warning.endswith("run `banco audit`")
        assert table.doc("it", "public")[1]["warning"].startswith("ATTENZIONE: partita 1")
    finally:
        table.close()


@pytest.fixture(scope="module")
def snapshotted(tmp_path_factory):
    """classic-4p played through the CLI with a snapshot every 50 events."""
    from pathlib import Path

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Book, "SNAPSHOT_EVERY", 50)
        db = tmp_path_factory.mktemp("snap") / "s.db"
        fixture = Path(__file__).resolve().parents[1] / "fixtures" / "classic-4p.banco"
        result = CliRunner().invoke(cli, ["--db", str(db), "run", "-q", str(fixture)],
                                    env={"BANCO_FIXED_TIME": "2026-11-29T21:00:00Z"})
    assert result.exit_code in (0, 1), result.output
    return db


def test_a_write_checks_the_chain_from_its_snapshot_to_the_head_not_the_whole_log(
        snapshotted, tmp_path, monkeypatch):
    """The cost stays flat: the write holds to the chain the rows it folds, from the newest
    snapshot bound to the log (ledger/store/snapshot_binding.py vouches for it) to the head.
    An edit after the snapshot refuses it; one before is the audit's (as it always was)."""
    import contextlib
    import shutil

    from banco.ledger.base.errors import RuleViolation
    from banco.ledger.store.findings import BrokenChain
    from banco.ledger.store.sqlite import SQLiteStore

    monkeypatch.setattr(Book, "SNAPSHOT_EVERY", 50)
    conn = sqlite3.connect(snapshotted)
    snap = conn.execute("SELECT MAX(seq) FROM snapshots WHERE game_id=1").fetchone()[0]
    last = conn.execute("SELECT MAX(seq) FROM events WHERE game_id=1").fetchone()[0]
    conn.close()
    assert 50 <= snap < last
    read = []
    real = SQLiteStore.read

    def counting(self, game_id, after=0, upto=None, **kwargs):
        rows = real(self, game_id, after, upto, **kwargs)
        if kwargs.get("prev_hash") is not None:  # the rows read against the chain
            read.extend(r["seq"] for r in rows)
        return rows

    monkeypatch.setattr(SQLiteStore, "read", counting)
    for seq, refused in ((snap + 1, True), (snap - 10, False)):
        db = tmp_path / f"{seq}.db"
        shutil.copyfile(snapshotted, db)
        forge(str(db), f"UPDATE events SET actor='mallory' WHERE game_id=1 AND seq={seq}")
        read.clear()
        book = Book(str(db))
        try:
            if refused:
                with pytest.raises(BrokenChain, match=f"game 1 event {seq} "):
                    book.execute(1, c.Roll((1, 2)), now=NOW)
            else:  # decided by the rules (which may refuse the roll), not refused as broken
                with contextlib.suppress(RuleViolation):
                    book.execute(1, c.Roll((1, 2)), now=NOW)
        finally:
            book.close()
        assert min(read) > snap and max(read) <= last + 3, (seq, min(read))


def tail_rechained(db) -> int:
    """Ada's starting cash made 9943 and every row from it re-chained to the end, the games
    table's head left as the last command wrote it (a trial's forgery): the chain is whole,
    only its end is not the one recorded.  Returns the last seq."""
    conn = sqlite3.connect(db)
    drop_triggers(conn)
    conn.execute("UPDATE events SET data=replace(data, '1500', '9943') WHERE seq=3")
    rechain_stored(conn, 1, 3)
    conn.commit()
    conn.close()
    return last_seq(db)


def test_a_rechained_tail_is_warned_about_and_no_write_covers_it(db):
    """The trial's `roll` exited 0 onto it and rewrote the games table's head: after it,
    `doctor` said the games table matched the log.  Now every write is refused (exit 3) and
    the evidence stays for `doctor`."""
    last = tail_rechained(db)
    out = banco(db, "state")
    assert f"WARNING: game 1 event {last} ends the log read, but the games table recorded" in out
    for line in (["buy"], ["roll", "1", "2"], ["undo"]):
        out = banco(db, *line, code=3)
        assert "the log was rewritten or cut" in out and "nothing was recorded" in out
    assert last_seq(db) == last
    assert "the log was rewritten or cut" in banco(db, "doctor", code=3)


def test_a_rechained_tail_is_one_finding_said_alike_by_every_reader_and_writer(db):
    """One fact, one message (it was two catalog entries: the reading's and the append's):
    `state`'s warning, the phones' document, a write's refusal (the book's, and the append's
    own, schema.index_game) and `audit` name the same event with the same words."""
    from banco.cli.web.hub import Table
    from banco.ledger.base.errors import BancoError
    from banco.ledger.store.protocol import NewEvent
    from banco.ledger.store.sqlite import SQLiteStore

    last = tail_rechained(db)
    problem = f"game 1 event {last} ends the log read, but the games table recorded its end at"
    said = banco(db, "state").split("WARNING: ", 1)[1]
    assert said.startswith(problem) and "the log was rewritten or cut" in said
    found = said.split(": run `banco audit`")[0]  # the whole finding, with its hashes
    assert f"{found}, so nothing was recorded" in banco(db, "roll", "1", "2", code=3)
    table = Table(db, 1, None, poll=None).start()
    try:
        assert table.doc("en", "public")[1]["warning"] == f"WARNING: {found}: run `banco audit`"
    finally:
        table.close()
    store = SQLiteStore(db)
    try:  # the append itself, under no book
        with pytest.raises(BancoError) as refused:
            store.append(1, last, [NewEvent("Note", {"text": "more"})], recorded_at=NOW,
                         actor="banker", command_id="k9")
    finally:
        store.close()
    assert str(refused.value).startswith(f"{found}, so nothing was recorded")
    assert found in banco(db, "audit", code=3)
    assert last_seq(db) == last


def test_a_held_table_is_refused_when_its_tail_was_rechained_since(db):
    """A shell or `serve` holds its table between commands: the re-chained rows still chain
    from its snapshot, so only the append's look at the games table's head refuses them."""
    from banco.ledger.base.errors import BancoError

    book = Book(db)
    try:
        book.state(1)
        last = tail_rechained(db)
        with pytest.raises(BancoError, match="the log was rewritten or cut") as refused:
            book.execute(1, c.Buy(), now=NOW, command_id="k2")
        assert refused.value.exit_code == 3
    finally:
        book.close()
    assert last_seq(db) == last
