"""`export` and `import`: a game's history as a file a third party can verify, imported
everything or nothing; the money as CSV and the history as text.  A tampered file refused naming
its line and event is tests/test_exchange_tampering.py; the import's own hashing and the audit
it runs, tests/test_exchange_hashing.py."""

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from exchange_files import games, rows_of, write
from format1 import OLD_DB
from games import lines

from banco.ledger.store.canonical import canonical_json
from banco.ledger.store.reading import rows_view
from banco.ledger.store.sqlite import SQLiteStore
from banco.projections.exchange import exchange

# --- the file ---------------------------------------------------------------------------------

def test_the_export_is_a_header_then_one_canonical_event_a_line(exported, four):
    header, rows = rows_of(exported)
    # format 2: its rows are of schema version 3, which a banco of export format 1 cannot read
    assert header["banco_export"] == 2 and header["events"] == len(rows) > 600
    assert {r["schema_version"] for r in rows} == {3}
    assert header["players"] == ["Anna", "Bruno", "Carla", "Dario"]
    assert (header["rules"], header["edition"], header["chain_versions"]) == ("classic", "it",
                                                                              [2, 3])
    # event 500 binds the book's snapshot there: its line carries the digest its hash covers
    assert [r["seq"] for r in rows if "table_digest" in r] == [500] == \
        [r["seq"] for r in rows if r["chain_version"] == 3]
    assert header["hashed_fields"]["3"][-1] == "table_digest"
    store = SQLiteStore(four)
    assert header["head"] == store.head(1) == rows[-1]["hash"]
    assert header["game_uuid"] == store.game(1)["uuid"]
    store.close()
    # each line is the canonical JSON of its row, and anyone can check the chain with
    # sha256(prev_hash + canonical JSON of the hashed fields the header names)
    import hashlib

    text = Path(exported).read_text(encoding="utf-8").splitlines()
    prev = "0" * 64
    for line, row in zip(text[1:], rows, strict=True):
        assert line == canonical_json(row)
        body = canonical_json({k: row[k] for k in
                               header["hashed_fields"][str(row["chain_version"])]})
        assert hashlib.sha256((prev + body).encode()).hexdigest() == row["hash"]
        assert row["prev_hash"] == prev
        prev = row["hash"]


def test_export_import_export_is_byte_identical(exported, tmp_path, banco):
    db = str(tmp_path / "elsewhere.db")
    banco("--db", db, "new", "Zoe", "Yuri")  # another machine, with a game of its own
    n = rows_of(exported)[0]["events"]
    out = banco("--db", db, "import", str(exported)).output
    assert f"imported {exported} as game 2: Anna, Bruno, Carla, Dario; rules classic; {n} " \
           "events, chain intact, audit passed" in out
    again = tmp_path / "again.jsonl"
    banco("--db", db, "--game", "2", "export", "-o", str(again))
    assert again.read_bytes() == Path(exported).read_bytes()
    header, _ = rows_of(again)
    assert json.loads(banco("--db", db, "--game", "2", "audit", "--json").output)["games"][0]["head"] == \
        header["head"]
    listed = json.loads(banco("--db", db, "games", "--json").output)
    assert [g["uuid"] for g in listed][1] == header["game_uuid"]


def test_an_export_of_format_1_with_rows_of_schema_3_still_imports(exported, tmp_path, banco):
    """A banco between the typed facts and export format 2 wrote such files: they import."""
    header, rows = rows_of(exported)
    old = tmp_path / "format1.jsonl"
    write(old, {**header, "banco_export": 1}, rows)
    db = str(tmp_path / "e.db")
    assert "audit passed" in banco("--db", db, "import", str(old)).output
    assert games(db)[0][3] == header["head"]


def test_the_same_game_is_not_imported_twice(exported, tmp_path, banco):
    db = str(tmp_path / "e.db")
    banco("--db", db, "import", str(exported))
    before = games(db)
    out = banco("--db", db, "import", str(exported), code=2).output
    assert "this game is already game 1 in" in out and "nothing was imported" in out
    assert games(db) == before


def test_an_old_game_keeps_the_number_its_rows_were_hashed_with(tmp_path, banco):
    """Format-1 games hash their local game number: the header carries it, the import keeps
    it beside the game (a meta row), and the chain verifies under another number."""
    old = str(tmp_path / "old.db")
    shutil.copy(OLD_DB, old)
    path = tmp_path / "g2.jsonl"
    banco("--db", old, "--game", "2", "export", "-o", str(path))
    header, rows = rows_of(path)
    assert (header["chain_versions"], header["chain_game_id"], header["game_uuid"]) == ([1], 2,
                                                                                       None)
    assert header["head"] == "70b120b57c78384df3a7eb26cc59a140de95ba5de67f3426108a9473727dd84a"
    db = str(tmp_path / "new.db")
    out = banco("--db", db, "import", str(path)).output
    assert "as game 1" in out and "hashed with game number 2, kept beside it" in out
    conn = sqlite3.connect(db)
    assert dict(conn.execute("SELECT key, value FROM meta"))["chain_game_id:1"] == "2"
    conn.close()
    audit = banco("--db", db, "audit").output
    assert "chain intact" in audit and header["head"] in audit
    again = tmp_path / "again.jsonl"
    banco("--db", db, "export", "-o", str(again))
    assert again.read_bytes() == path.read_bytes()
    # the game goes on in its new home, in chain version 2, and still audits
    banco("--db", db, "roll", "2", "3")
    assert "chain intact" in banco("--db", db, "audit").output
    assert "WARNING" not in banco("--db", db, "state").output
    # and it is the same game as the one it came from: not imported twice
    out = banco("--db", old, "import", str(path), code=2).output
    assert "already game 2" in out


def test_an_old_game_whose_number_is_taken_elsewhere(tmp_path, banco):
    old = str(tmp_path / "old.db")
    shutil.copy(OLD_DB, old)
    one = tmp_path / "g1.jsonl"
    banco("--db", old, "--game", "1", "export", "-o", str(one))
    db = str(tmp_path / "other.db")
    banco("--db", db, "new", "Zoe", "Yuri")
    assert "as game 2" in banco("--db", db, "import", str(one)).output
    assert "chain intact" in banco("--db", db, "--game", "2", "audit").output


def test_an_export_is_readable_as_any_new_file(exported):
    # it was 0600, mkstemp's: a file made to be handed to another machine
    import os
    import stat

    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(Path(exported).stat().st_mode) == 0o666 & ~mask


def test_import_from_standard_input(exported, tmp_path):
    from click.testing import CliRunner

    from banco.cli.main import cli

    db = str(tmp_path / "stdin.db")
    result = CliRunner().invoke(cli, ["--db", db, "import", "-"],
                                input=Path(exported).read_text(encoding="utf-8"))
    assert result.exit_code == 0, result.output
    assert "imported - as game 1" in result.output


# --- bounded memory -------------------------------------------------------------------------

def test_the_import_goes_by_batches_and_checks_the_game_read_back_in_chunks(exported, tmp_path,
                                                                             monkeypatch, banco):
    from banco.ledger.store.sqlite import GameRows

    monkeypatch.setattr(exchange, "BATCH", 7)
    monkeypatch.setattr(GameRows, "CHUNK", 5)
    inserted = []
    from banco.ledger.store import sqlite as store

    real = store.GameImport.insert

    def spy(self, rows):
        inserted.append(len(rows))
        return real(self, rows)

    monkeypatch.setattr(store.GameImport, "insert", spy)
    db = str(tmp_path / "b.db")
    banco("--db", db, "import", str(exported))
    assert max(inserted) == 7 and sum(inserted) == rows_of(exported)[0]["events"]
    again = tmp_path / "again.jsonl"
    banco("--db", db, "export", "-o", str(again))
    assert again.read_bytes() == Path(exported).read_bytes()


def test_game_rows_read_on_demand_behave_as_the_list(four):
    store = SQLiteStore(four)
    view, rows = rows_view(store, 1), store.read(1)
    assert len(view) == len(rows) and bool(view)
    assert list(view) == rows
    assert view[0] == rows[0] and view[-1] == rows[-1] and view[100] == rows[100]
    assert list(view[3:10]) == rows[3:10] and list(view[590:]) == rows[590:]
    assert list(view[3:][2:5]) == rows[3:][2:5] and len(view[len(rows) + 5:]) == 0
    with pytest.raises(IndexError):
        view[len(rows)]
    store.close()


# --- csv and text ---------------------------------------------------------------------------

def test_csv_one_row_per_money_movement(four, banco):
    import csv
    import io

    text = banco("--db", four, "export", "--format", "csv").output
    rows = list(csv.DictReader(io.StringIO(text)))
    assert list(rows[0]) == ["date", "seq", "account", "counterparty", "amount", "balance",
                             "description"]
    assert rows[0] == {"date": "2026-11-29", "seq": "3", "account": "Anna",
                       "counterparty": "bank", "amount": "1500", "balance": "1500",
                       "description": "starting cash (CashIssued)"}
    state = json.loads(banco("--db", four, "state", "--json").output)
    # `balance` is the receiving account's balance after the movement (hledger's assertion)
    total = {}
    for r in rows:
        total[r["account"]] = total.get(r["account"], 0) + int(r["amount"])
        total[r["counterparty"]] = total.get(r["counterparty"], 0) - int(r["amount"])
        assert int(r["balance"]) == total[r["account"]], r
    assert sum(total.values()) == 0  # every movement is in the books once
    assert {p["name"]: p["cash"] for p in state["players"]} == \
        {k: v for k, v in total.items() if k != "bank"}


def test_csv_leaves_out_money_an_undo_took_back(tmp_path, banco):
    db = str(tmp_path / "u.db")
    lines(db, "new Anna Bruno", "roll 3 2", "buy", "undo")
    text = banco("--db", db, "export", "--format", "csv").output
    assert "bought Stazione Sud" not in text and text.count("\n") == 3  # header + 2 issues


def test_text_is_the_replay(four, banco):
    text = banco("--db", four, "export", "--format", "text").output
    assert text == banco("--db", four, "replay").output


def test_export_to_a_file_that_exists(exported, four, banco):
    assert "exists: give another name, or --force" in banco("--db", four, "export", "-o",
                                                            str(exported), code=2).output


# --- a game written to while it is exported ---------------------------------------------------

def test_an_export_stops_at_the_events_its_header_announces(four, tmp_path):
    """A command recorded while a game is exported (between the pass that checks the chain and
    writes the header, and the pass that writes the lines) is not in the file: the file is the
    game as its header says, and imports."""
    from banco.ledger.store.protocol import NewEvent

    now = "2026-11-30T12:00:00.000000Z"
    copy = tmp_path / "4p.db"
    shutil.copyfile(four, copy)
    store = SQLiteStore(str(copy))
    real = store.iter_raw
    passes = []

    def iter_raw(game_id):
        passes.append(game_id)
        if len(passes) == 2:  # the second pass: another table's command came in meanwhile
            last = store.last_seq(game_id)
            store.append(game_id, last, [NewEvent("Note", {"text": "late"})], recorded_at=now,
                         actor="t", command_id="late")
        return real(game_id)

    store.iter_raw = iter_raw
    try:
        lines = list(exchange.export_lines(store, 1))
    finally:
        store.iter_raw = real
    header = json.loads(lines[0])
    assert len(lines) == header["events"] + 1 and json.loads(lines[-1])["hash"] == header["head"]
    target = SQLiteStore(str(tmp_path / "in.db"))
    exchange.import_lines(target, [line + "\n" for line in lines], source="x", now=now)
    assert target.head(1) == header["head"]
    target.close()
    store.close()
