"""The chain binds the book's snapshots (issue 19): the event a snapshot is taken after records
the digest of its table under its own hash (chain version 3, ledger/store/chain.py
chain_rows), readers start only from a snapshot whose table has that digest
(ledger/snapshot_check.py), and the audit holds every chained digest to the table it folds
there (projections/audit/audit.py), whether the snapshot is still kept or not.  What is left to
a forger is rewriting the chain from that event on, which a printed head shows."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from forge import drop_triggers, rechain_stored
from games import record
from store_suite import keep_unbound_snapshot

from banco.cli.main import cli
from banco.ledger.book import Book
from banco.ledger.store.canonical import table_digest
from banco.ledger.store.snapshot_binding import snapshot_digest
from banco.ledger.table.snapshot_codec import canonical, decode, encode, shape
from banco.ledger.table.state import initial_state

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
ENV = {"BANCO_FIXED_TIME": "2026-11-29T21:00:00Z"}


def banco(db, *words, code=0):
    result = CliRunner().invoke(cli, ["--db", str(db), *map(str, words)], env=ENV)
    assert result.exit_code == code, (words, result.output)
    return result


@pytest.fixture(scope="module")
def honest(tmp_path_factory) -> Path:
    """classic-to-the-end played through: snapshots at 501, 1004 and 1507."""
    db = tmp_path_factory.mktemp("chain") / "honest.db"
    banco(db, "run", "-q", FIXTURES / "classic-to-the-end.banco")
    return db


@pytest.fixture
def game(honest, tmp_path) -> Path:
    db = tmp_path / "g.db"
    shutil.copyfile(honest, db)
    return db


def richer(db: Path, seq: int) -> tuple[str, str]:
    """The snapshot at `seq` with Anna 9,000 richer: (its text, the digest of its table)."""
    conn = sqlite3.connect(db)
    (text,), = conn.execute("SELECT state FROM snapshots WHERE seq=?", (seq,)).fetchall()
    conn.close()
    rich = text.replace('{"n":"Player","v":["Anna",', '{"n":"Player","v":["Anna",9', 1)
    assert rich != text
    book = Book(str(db))
    table = decode(rich, initial_state(1, book.game_start(1)))
    book.close()
    return rich, table_digest(shape(), canonical(table))


def test_every_snapshot_is_bound_by_the_chain_at_its_event(honest):
    conn = sqlite3.connect(honest)
    bound = conn.execute("SELECT seq, chain_version, table_digest FROM events "
                         "WHERE table_digest IS NOT NULL ORDER BY seq").fetchall()
    kept = conn.execute("SELECT seq, format, state FROM snapshots ORDER BY seq").fetchall()
    assert [s for s, *_ in bound] == [501, 1004, 1507] == [s for s, *_ in kept]
    assert {v for _, v, _ in bound} == {3}
    assert conn.execute("SELECT DISTINCT chain_version FROM events WHERE table_digest IS NULL"
                        ).fetchall() == [(2,)]
    conn.close()
    book = Book(str(honest))
    base = initial_state(1, book.game_start(1))
    for (seq, _, digest), (_, fmt, text) in zip(bound, kept, strict=True):
        assert digest == table_digest(fmt, canonical(decode(text, base)))
        assert canonical(book.state(1, at=seq)) == canonical(decode(text, base))
    book.close()


def test_a_forger_must_rewrite_the_chain_and_the_audit_still_names_the_event(game, honest):
    """The strongest forgery of a snapshot: its text, its own digest, the event's table digest,
    every hash from that event on and the games table, all made to agree.  The book trusts it
    (nothing inside the file tells it otherwise); `audit` folds the log and names the event
    whose digest is not the log's table, with the snapshot deleted too; the head printed at the
    end of the game is no longer in the history."""
    honest_line = json.loads(banco(honest, "audit", "--json").stdout)["games"][0]["head"]
    seq = 1507
    rich, digest = richer(game, seq)
    conn = sqlite3.connect(game)
    drop_triggers(conn)
    conn.execute("UPDATE events SET table_digest=? WHERE game_id=1 AND seq=?", (digest, seq))
    head = rechain_stored(conn, 1, seq)
    conn.execute("UPDATE games SET head=? WHERE game_id=1", (head,))
    (at,), = conn.execute("SELECT hash FROM events WHERE seq=?", (seq,)).fetchall()
    fmt = shape()
    conn.execute("UPDATE snapshots SET head=?, state=?, digest=? WHERE seq=?",
                 (at, rich, snapshot_digest(seq, at, fmt, rich), seq))
    conn.commit()
    conn.close()
    shown = json.loads(banco(game, "state", "--json").stdout)
    told = json.loads(banco(honest, "state", "--json").stdout)
    anna = [p["cash"] for doc in (shown, told) for p in doc["players"] if p["name"] == "Anna"]
    assert anna[0] != anna[1]  # what only a check outside the book can catch
    for deleted in (False, True):
        if deleted:
            conn = sqlite3.connect(game)
            conn.execute("DELETE FROM snapshots")
            conn.commit()
            conn.close()
        doc = json.loads(banco(game, "audit", "--json", code=3).stdout)["games"][0]
        assert doc["bad_seq"] == seq
        assert doc["problem"].startswith(f"event {seq} records the digest of a table that is "
                                         "not the one the log folds to there")
    banco(game, "audit", "--expect-head", honest_line, code=3)


def test_a_table_digest_edited_without_the_chain_is_a_broken_row(game, honest):
    """The event's digest changed to bind the forged text, and nothing re-chained: that row no
    longer matches its hash, so no reader binds the snapshot to it; the audit names the row."""
    seq = 1507
    rich, digest = richer(game, seq)
    conn = sqlite3.connect(game)
    drop_triggers(conn)
    conn.execute("UPDATE events SET table_digest=? WHERE seq=?", (digest, seq))
    (head, fmt), = conn.execute("SELECT head, format FROM snapshots WHERE seq=?",
                                (seq,)).fetchall()
    conn.execute("UPDATE snapshots SET state=?, digest=? WHERE seq=?",
                 (rich, snapshot_digest(seq, head, fmt, rich), seq))
    conn.commit()
    conn.close()
    shown = banco(game, "state", "--json")
    doc = json.loads(shown.stdout)
    # the table as the honest file's, with the warning the terminal prints beside it
    assert f"event {seq} does not match its hash" in doc.pop("warning")
    assert doc == json.loads(banco(honest, "state", "--json").stdout)
    assert f"event {seq} does not match its hash" in shown.stderr
    doc = json.loads(banco(game, "audit", "--json", code=3).stdout)["games"][0]
    assert doc["bad_seq"] == seq and "does not match its hash" in doc["problem"]


def _audited(db, sql, args=(), rechain_from=None):
    conn = sqlite3.connect(db)
    drop_triggers(conn)
    conn.execute(sql, args)
    if rechain_from is not None:
        head = rechain_stored(conn, 1, rechain_from)
        conn.execute("UPDATE games SET head=? WHERE game_id=1", (head,))
    conn.commit()
    conn.close()
    return json.loads(banco(db, "audit", "--json", code=3).stdout)["games"][0]


def test_a_digest_on_a_row_whose_version_does_not_hash_it(game):
    """A version-2 row does not hash `table_digest`: one written there changes no hash, and
    the audit names the row all the same."""
    doc = _audited(game, "UPDATE events SET table_digest=? WHERE seq=10",
                   (table_digest(shape(), "{}"),))
    assert doc["bad_seq"] == 10 and "table digest and its chain version disagree" in \
        doc["problem"]


def test_a_digest_inside_a_command_is_named(game):
    conn = sqlite3.connect(game)
    seq = next(s for s, n in conn.execute(
        "SELECT a.seq, COUNT(*) FROM events a JOIN events b ON a.command_id=b.command_id "
        "WHERE a.seq > 600 AND a.type='DiceRolled' GROUP BY a.seq ORDER BY a.seq") if n > 2)
    conn.close()
    doc = _audited(game, "UPDATE events SET chain_version=3, table_digest=? WHERE seq=?",
                   (table_digest(shape(), "{}"), seq), rechain_from=seq)
    assert doc["bad_seq"] == seq and "records a table digest inside its command" in \
        doc["problem"]


def test_a_digest_banco_does_not_write_is_named(game):
    conn = sqlite3.connect(game)
    conn.execute("DELETE FROM snapshots")  # the forger's: or their heads are named first
    conn.commit()
    conn.close()
    doc = _audited(game, "UPDATE events SET table_digest='forty-two' WHERE seq=1004",
                   rechain_from=1004)
    assert doc["bad_seq"] == 1004 and "'forty-two' is not one banco writes" in doc["problem"]


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    d = tmp_path_factory.mktemp("chain-export")
    db = d / "4p.db"
    record(str(db), "classic-4p")
    path = d / "4p.jsonl"
    banco(db, "export", "-o", path)
    return path


@pytest.mark.parametrize("edit, says", [
    (lambda r: r.update(table_digest=table_digest(shape(), "{}")), "does not match its hash"),
    (lambda r: r.pop("table_digest"), "lacks table_digest"),
    (lambda r: r.update(table_digest="abc"), "table_digest 'abc' is not what banco writes"),
], ids=["edited", "taken away", "not a digest"])
def test_the_import_holds_a_table_digest_to_its_row(exported, tmp_path, edit, says):
    lines = exported.read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if '"table_digest":"' in line)
    row = json.loads(lines[at])
    edit(row)
    lines[at] = json.dumps(row, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    path = tmp_path / "edited.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    db = tmp_path / "in.db"
    out = banco(db, "import", path, code=3).output
    assert says in out and "nothing was imported" in out and "event 500" in out


def test_a_version_2_line_with_a_table_digest_is_refused(exported, tmp_path):
    lines = exported.read_text(encoding="utf-8").splitlines()
    row = json.loads(lines[10])
    assert row["chain_version"] == 2
    row["table_digest"] = table_digest(shape(), "{}")
    lines[10] = json.dumps(row, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    path = tmp_path / "edited.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = banco(tmp_path / "in.db", "import", path, code=3).output
    assert "has fields banco does not write: table_digest" in out


def test_the_next_write_binds_a_snapshot_where_none_is(tmp_path):
    """A game with no snapshot its chain binds (deleted, or recorded by an older banco) is
    folded by reads, which leave nothing; the next command keeps one, bound at its last event,
    and the command after it starts from there."""
    db = tmp_path / "g.db"
    record(str(db), "classic-4p")
    conn = sqlite3.connect(db)
    conn.execute("DELETE FROM snapshots")
    conn.commit()
    conn.close()
    banco(db, "state")
    assert sqlite3.connect(db).execute("SELECT COUNT(*) FROM snapshots").fetchone() == (0,)
    banco(db, "roll", "1", "1")
    book = Book(str(db))
    last = book.store.last_seq(1)
    (snap,) = book.store.snapshots(1)
    row = book.store.read(1, last - 1, last)[0]
    assert snap.seq == last and (row["chain_version"], row["table_digest"]) == (
        3, table_digest(snap.format, canonical(decode(snap.state, initial_state(
            1, book.game_start(1))))))
    book.state(1)
    assert book._tables[1].snap_seq == last  # started from it
    book.close()


def test_a_file_from_before_format_3_upgrades_quietly(tmp_path, monkeypatch):
    """A format-2 file, its long game with the snapshots an older banco kept (no event binds
    them): every reading folds instead (no warning: nothing is wrong), doctor says healthy, the
    audit passes with the same head, and the first write adds the column and binds one."""
    monkeypatch.setattr(Book, "SNAPSHOT_EVERY", 10 ** 6)
    db = tmp_path / "old.db"
    record(str(db), "classic-4p")
    monkeypatch.undo()
    book = Book(str(db))
    table = book.state(1)
    for seq in (200, 400):
        text = encode(book.state(1, at=seq))  # as an older banco kept them
        keep_unbound_snapshot(book.store, 1, seq, shape(), text)
    book.close()
    conn = sqlite3.connect(db)
    conn.execute("ALTER TABLE events DROP COLUMN table_digest")
    conn.execute("UPDATE meta SET value='2' WHERE key='format'")
    conn.commit()
    conn.close()
    head = json.loads(banco(db, "audit", "--json").stdout)["games"][0]["head"]
    shown = banco(db, "state", "--json")
    assert shown.stderr == "" and json.loads(shown.stdout)["seq"] == table.seq
    doctor = banco(db, "doctor")
    assert "healthy" in doctor.stdout and "format 2 (this banco writes 4)" in doctor.stdout
    banco(db, "roll", "1", "1")
    book = Book(str(db))
    assert book.store.format == 4 and book.store.snapshots(1)[0].seq == book.store.last_seq(1)
    assert book.store.read(1, book.store.last_seq(1) - 1)[0]["chain_version"] == 3
    book.close()
    assert json.loads(banco(db, "audit", "--json").stdout)["games"][0]["ok"]
    assert banco(db, "audit", "--expect-head", head).exit_code == 0


def test_the_audit_spells_the_tables_it_checked_only_for_an_import(honest, monkeypatch):
    """`banco audit` checks each bound table's digest and keeps the tables, but spells them
    as snapshots only when an import asks for them (GameAudit.bound)."""
    from banco.ledger.table import snapshot_codec
    from banco.projections.audit.audit import GameAudit

    book = Book(str(honest))
    spelt = []
    real = snapshot_codec.encode
    monkeypatch.setattr(snapshot_codec, "encode", lambda t: spelt.append(t.seq) or real(t))
    judge = GameAudit(1, book.store.raw_rows(1))
    assert judge.run().ok and spelt == []
    kept = sqlite3.connect(honest).execute("SELECT seq, format, state FROM snapshots "
                                           "ORDER BY seq").fetchall()
    assert [(seq, fmt, text) for seq, _, fmt, text in judge.bound] == kept
    assert spelt == [501, 1004, 1507]
    book.close()


def test_a_bound_row_spelt_another_way_and_rechained_is_named(game):
    """A chain-version-3 row's data is banco's canonical JSON like a version-2 row's: the same
    fact spelt another way (a space), its chain re-computed, is a rewritten row."""
    conn = sqlite3.connect(game)
    (data,), = conn.execute("SELECT data FROM events WHERE seq=501").fetchall()
    conn.execute("DELETE FROM snapshots")  # (each keeps the head it was taken at: named first)
    conn.commit()
    conn.close()
    assert ":" in data
    doc = _audited(game, "UPDATE events SET data=? WHERE seq=501",
                   (data.replace(":", ": ", 1),), rechain_from=501)
    assert doc["bad_seq"] == 501 and "not spelt as banco writes it" in doc["problem"], doc


def test_the_canonical_text_is_sorted_enc_spelt_by_json(honest):
    """`canonical` walks the table once (snapshot_codec._canon); its definition is the two
    walks, _enc then _sorted, spelt by json.dumps: the same text for every table of a game,
    and for one whose mappings hold keys of every kind in a shuffled order, names outside
    ASCII among them (json.dumps orders a name by its escaped spelling)."""
    from banco.ledger.table import snapshot_codec as codec
    from banco.ledger.table.state import replay

    def defined(t):
        doc = codec._sorted(codec._enc(t._replace(game_id=None, rules=None, edition=None)))
        return json.dumps(doc, ensure_ascii=False, separators=(",", ":"))

    book = Book(str(honest))
    events = list(book.store.read(1))
    book.close()
    tables = [t for i, (_, t) in enumerate(replay(events, 1)) if i % 97 == 0]
    t = tables[-1]
    tables.append(t._replace(
        dealt={"Zoë": (1, 3), "Zoe": (), "Ábel": (5,), "zed": ()},
        held_cards={("probabilita", 7): "Anna", ("imprevisti", 2): "Bruno",
                    ("imprevisti", 10): "Anna"},
        index={"Żaneta": 3, **t.index, "Ann": 9}))
    for t in tables:
        assert canonical(t) == defined(t)
