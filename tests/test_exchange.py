"""`export` and `import`: a game's history as a file a third party can verify, imported
everything or nothing, a tampered file refused naming its line and event; the money as CSV and
the history as text."""

import json
import os
import shutil
import sqlite3
from pathlib import Path

import pytest
from format1 import OLD_DB
from games import lines, record
from hypothesis import given, settings
from hypothesis import strategies as st

from banco.ledger.store.canonical import GENESIS, canonical_json, row_hash
from banco.ledger.store.sqlite import SQLiteStore
from banco.projections.exchange import exchange, import_rows


@pytest.fixture(scope="module")
def four(tmp_path_factory):
    return record(str(tmp_path_factory.mktemp("exchange") / "4p.db"), "classic-4p")


@pytest.fixture(scope="module")
def exported(four, tmp_path_factory):
    from click.testing import CliRunner

    from banco.cli.main import cli

    path = tmp_path_factory.mktemp("exchange") / "4p.jsonl"
    result = CliRunner().invoke(cli, ["--db", four, "export", "-o", str(path)])
    assert result.exit_code == 0, result.output
    return path


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


# --- tampering ------------------------------------------------------------------------------

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


def test_an_edited_line_is_named(exported, target, tmp_path, banco):
    header, rows = rows_of(exported)
    rows[55]["data"]["amount"] = 2  # line 57, event 56
    out = refused(banco, target, header, rows, tmp_path)
    assert "line 57 (event 56) does not match its hash: the line was edited" in out


def test_an_edited_line_with_its_own_hash_recomputed_breaks_the_next(exported, target,
                                                                       tmp_path, banco):
    header, rows = rows_of(exported)
    rows[55]["recorded_at"] = "2026-11-29T20:00:00.000000Z"
    rows[55]["hash"] = row_hash(rows[55]["prev_hash"], rows[55])
    out = refused(banco, target, header, rows, tmp_path)
    assert "line 58 (event 57) does not follow line 57" in out


def test_a_deleted_line_is_named(exported, target, tmp_path, banco):
    header, rows = rows_of(exported)
    del rows[55]
    out = refused(banco, target, header, rows, tmp_path)
    assert "line 57: event 56 expected, but the line holds event 57: a line was deleted or " \
           "moved" in out


def test_reordered_lines_are_named(exported, target, tmp_path, banco):
    header, rows = rows_of(exported)
    rows[55], rows[56] = rows[56], rows[55]
    out = refused(banco, target, header, rows, tmp_path)
    assert "line 57: event 56 expected, but the line holds event 57" in out


def test_a_truncated_file_is_named(exported, target, tmp_path, banco):
    header, rows = rows_of(exported)
    out = refused(banco, target, header, rows[:600], tmp_path)
    assert "the file ends after line 601 (event 600), but its header announces " \
           f"{len(rows)} events: it was cut short" in out
    path = tmp_path / "cut.jsonl"
    data = Path(exported).read_bytes()
    path.write_bytes(data[:len(data) // 2])  # cut in the middle of a line
    out = banco("--db", target, "import", str(path), code=3).output
    assert "is not valid JSON" in out and "(the file may have been cut short)" in out
    assert "line " in out


def test_a_header_that_lies_is_named(exported, target, tmp_path, banco):
    header, rows = rows_of(exported)
    out = refused(banco, target, {**header, "players": ["Anna", "Bruno", "Carla", "Zed"]}, rows,
                  tmp_path)
    assert "line 1 (the header) says players ['Anna', 'Bruno', 'Carla', 'Zed'] but the events " \
           "say ['Anna', 'Bruno', 'Carla', 'Dario']: the header lies" in out
    out = refused(banco, target, {**header, "head": "f" * 64}, rows, tmp_path)
    assert "the header's head is ffffffffffff...: the header lies, or the history was " \
           "rewritten" in out
    out = refused(banco, target, {**header, "events": 600}, rows, tmp_path)
    assert "line 602 holds event 601, but the header announces 600 events" in out
    out = refused(banco, target, {**header, "rules": "quick"}, rows, tmp_path)
    assert "says rules 'quick' but the events say 'classic'" in out


def test_a_forger_who_recomputes_every_hash_meets_the_printed_head(exported, target, tmp_path,
                                                                    banco):
    header, rows = rows_of(exported)
    printed = header["head"]  # on the score sheet
    cash = next(i for i, r in enumerate(rows) if r["type"] == "CashIssued")
    rows[cash]["data"]["amount"] = 1600
    rows[cash + 1]["data"]["amount"] = 1400
    rehash(rows, cash)
    header["head"] = rows[-1]["hash"]
    path = tmp_path / "forged.jsonl"
    write(path, header, rows)
    out = banco("--db", target, "import", str(path), "--expect-head", printed, code=3).output
    assert f"the head {printed[:12]} is not found in this history (events 1-" in out


def test_a_forged_history_the_audit_refuses_names_its_line(exported, target, tmp_path, banco):
    header, rows = rows_of(exported)
    tax = next(i for i, r in enumerate(rows) if r["type"] == "TaxPaid")
    rows[tax]["data"]["amount"] = 99999  # more than the payer has: cash below zero
    rehash(rows, tax)
    header["head"] = rows[-1]["hash"]
    out = refused(banco, target, header, rows, tmp_path)
    seq = rows[tax]["seq"]
    assert f"the audit stops at event {seq} (line {seq + 1})" in out
    assert "nothing was imported" in out


def test_a_line_with_other_fields_or_types_is_named(exported, target, tmp_path, banco):
    header, rows = rows_of(exported)
    rows[9]["seq"] = "10"
    out = refused(banco, target, header, rows, tmp_path)
    assert "line 11 (event 10): seq '10' is not what banco writes" in out
    header, rows = rows_of(exported)
    rows[9]["note"] = "hello"
    out = refused(banco, target, header, rows, tmp_path)
    assert "line 11 (event 10): has fields banco does not write: note" in out
    header, rows = rows_of(exported)
    rows[9]["data"]["amount"] = 1.5
    path = tmp_path / "float.jsonl"
    path.write_text("\n".join([canonical_json(header)] + [json.dumps(r) for r in rows]) + "\n",
                    encoding="utf-8")
    out = banco("--db", target, "import", str(path), code=3).output
    assert "line 11 is not valid JSON: the number 1.5 is not whole" in out


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


def test_what_is_not_an_export(target, tmp_path, banco):
    path = tmp_path / "x.jsonl"
    path.write_text('{"hello": 1}\n', encoding="utf-8")
    assert "line 1 is not a banco export header" in banco("--db", target, "import", str(path),
                                                          code=2).output
    path.write_text('{"banco_export": 9}\n', encoding="utf-8")
    # every format it reads (it said "reads format 2", though it reads format 1 too)
    assert "this export is format 9; this banco reads formats 1 and 2: upgrade banco" in banco(
        "--db", target, "import", str(path), code=2).output
    assert "formato 9; questo banco legge i formati 1 e 2: aggiorna banco" in banco(
        "--db", target, "--lang", "it", "import", str(path), code=2).output
    path.write_text('{"banco_export": "2"}\n', encoding="utf-8")
    assert "this export is format '2'; this banco reads formats 1 and 2\n" in banco(
        "--db", target, "import", str(path), code=2).output
    assert "no file" in banco("--db", target, "import", str(tmp_path / "nope.jsonl"),
                              code=2).output
    # the database given instead of its export (it was a traceback): said, nothing written
    out = banco("--db", str(tmp_path / "new.db"), "import", target, code=2).output
    assert "is a SQLite database, not a banco export: give it as --db" in out
    assert not (tmp_path / "new.db").exists()


def test_an_export_damaged_past_its_header_is_refused_in_words(exported, tmp_path, banco):
    data = Path(exported).read_bytes()
    second = data.index(b"\n") + 40
    damaged = tmp_path / "damaged.jsonl"
    damaged.write_bytes(data[:second] + b"\xf8" + data[second + 1:])
    out = banco("--db", str(tmp_path / "d.db"), "import", str(damaged), code=2).output
    assert "is not UTF-8 text (it holds the byte 0xf8)" in out and "Traceback" not in out


def test_a_refused_import_into_a_new_file_leaves_no_file(exported, tmp_path, banco):
    header, rows = rows_of(exported)
    del rows[10]
    path = tmp_path / "bad.jsonl"
    write(path, header, rows)
    db = tmp_path / "fresh.db"
    banco("--db", str(db), "import", str(path), code=3)
    assert not db.exists() and not Path(str(db) + "-wal").exists()


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
    view, rows = store.rows_view(1), store.read(1)
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


# --- in Italian -------------------------------------------------------------------------------

def test_a_tampered_file_is_refused_in_italian_naming_its_line_and_event(exported, target,
                                                                         tmp_path, banco):
    def italian(header, rows, code=3):
        out = refused(banco, target, header, rows, tmp_path, code=code, lang="it")
        assert "errore: " in out and "nulla è stato importato" in out, out
        assert not [w for w in ("nothing was imported", "line ", "event ", "error:")
                    if w in out], out
        return out

    header, rows = rows_of(exported)
    rows[55]["data"]["amount"] = 2  # line 57, event 56
    assert "riga 57 (evento 56) non corrisponde al suo hash: la riga è stata modificata; " \
           "nulla è stato importato" in italian(header, rows)
    header, rows = rows_of(exported)
    del rows[55]
    assert "riga 57: era atteso l'evento 56, ma la riga contiene l'evento 57: una riga è stata " \
           "cancellata o spostata" in italian(header, rows)
    header, rows = rows_of(exported)
    rows[9]["note"] = "hello"
    del rows[9]["actor"]
    assert "riga 11 (evento 10): non ha actor; ha campi che banco non scrive: note; nulla è " \
           "stato importato" in italian(header, rows)
    header, rows = rows_of(exported)
    del header["head"]
    assert "riga 1 (intestazione) non ha head; nulla è stato importato" in italian(header, rows)
    header, rows = rows_of(exported)
    assert "la riga 1 (intestazione) dice players ['Anna', 'Bruno', 'Carla', 'Zed'] ma gli " \
           "eventi dicono ['Anna', 'Bruno', 'Carla', 'Dario']: l'intestazione mente" in \
           italian({**header, "players": ["Anna", "Bruno", "Carla", "Zed"]}, rows)
    assert f"il file finisce dopo la riga 601 (evento 600), ma la sua intestazione annuncia " \
           f"{len(rows)} eventi: è stato troncato" in italian(header, rows[:600])


def test_a_forged_history_is_refused_in_italian_with_the_audits_reason(exported, target,
                                                                       tmp_path, banco):
    """The audit's problem inside the refusal is said in Italian too: the forged dice of a
    roll, every hash recomputed, are not what the recorded `roll` gives."""
    header, rows = rows_of(exported)
    i = next(i for i, r in enumerate(rows) if r["type"] == "DiceRolled"
             and r["data"]["dice"][0] != r["data"]["dice"][1]
             and rows[i - 1]["type"] == "CommandRecorded")
    a, b = rows[i]["data"]["dice"]
    rows[i]["data"]["dice"] = [b, a]  # the same sum: only the re-derivation can tell
    rehash(rows, i)
    header["head"] = rows[-1]["hash"]
    seq, line = rows[i]["seq"], rows[i - 1]["data"]["line"]
    out = refused(banco, target, header, rows, tmp_path)
    assert f"the audit stops at event {seq} (line {seq + 1}): not what `{line}` (event " \
           f"{seq - 1}) gives here: DiceRolled has dice [{b}, {a}] where the command gives " \
           f"[{a}, {b}]; nothing was imported" in out
    out = refused(banco, target, header, rows, tmp_path, lang="it")
    assert f"la verifica si ferma all'evento {seq} (riga {seq + 1}): non è ciò che `{line}` " \
           f"(evento {seq - 1}) dà qui: DiceRolled ha dice [{b}, {a}] dove il comando dà " \
           f"[{a}, {b}]; nulla è stato importato" in out


def test_a_float_and_an_export_of_a_broken_chain_refused_in_italian(exported, four, target,
                                                                    tmp_path, banco):
    header, rows = rows_of(exported)
    rows[9]["data"]["amount"] = 1.5
    path = tmp_path / "float.jsonl"
    path.write_text("\n".join([canonical_json(header)] + [json.dumps(r) for r in rows]) + "\n",
                    encoding="utf-8")
    out = banco("--db", target, "--lang", "it", "import", str(path), code=3).output
    assert "la riga 11 non è JSON valido: il numero 1.5 non è intero: denaro e conteggi sono " \
           "numeri interi; nulla è stato importato" in out
    db = tmp_path / "broken.db"
    shutil.copy(four, db)
    conn = sqlite3.connect(db)
    for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type='trigger'"):
        conn.execute(f"DROP TRIGGER {name}")
    conn.execute("UPDATE events SET recorded_at='2026-11-29T20:00:00.000000Z' WHERE seq=56")
    conn.commit()
    conn.close()
    out = banco("--db", str(db), "--lang", "it", "export", "-o", str(tmp_path / "x.jsonl"),
                code=3).output
    assert "partita 1: l'evento 56 non corrisponde al suo hash: esegui `banco verifica`; nulla " \
           "è stato esportato" in out
    assert "game 1 event 56 does not match its hash: run `banco audit`; nothing was " \
           "exported" in banco("--db", str(db), "export", "-o", str(tmp_path / "x.jsonl"),
                               code=3).output


# --- the import's own work, done once ---------------------------------------------------------

_TEXT = st.text(alphabet=st.characters(codec="utf-8"), max_size=8) | st.sampled_from(
    ['"', '\\', '","hash":"', ',"data":', "é", "\u2028", "\x00"])
_JSON = st.recursive(st.none() | st.booleans() | st.integers() | _TEXT,
                     lambda inner: st.lists(inner, max_size=3)
                     | st.dictionaries(_TEXT | st.just("hash"), inner, max_size=3), max_leaves=8)


@settings(max_examples=300, deadline=None)
@given(data=st.dictionaries(_TEXT, _JSON, max_size=4), actor=st.none() | _TEXT,
       cid=st.none() | _TEXT, at=_TEXT, type_=_TEXT, seq=st.integers(1, 10 ** 6),
       spelling=st.sampled_from(["canonical", "spaced", "reordered", "again"]))
def test_the_import_stores_and_hashes_the_canonical_text_however_the_line_spells_it(
        data, actor, cid, at, type_, seq, spelling):
    # what the import stores and checks is the canonical text of the data and the hash of it,
    # as stored_row_hash gives it, whether the line is banco's own text or not
    from banco.ledger.store.canonical import stored_row_hash

    prev = "ab" * 32
    text = canonical_json(data)
    row = {"actor": actor, "chain_version": 2, "command_id": cid, "data": data,
           "hash": "0" * 64, "prev_hash": prev, "recorded_at": at, "schema_version": 1,
           "seq": seq, "type": type_}
    row["hash"] = stored_row_hash(prev, None, seq, type_, text, at, actor, cid, 1, 2)
    line = canonical_json(row) + "\n"
    if spelling == "spaced":
        line = json.dumps(row, sort_keys=True)
    elif spelling == "reordered":
        line = json.dumps({**row, "data": dict(reversed(list(data.items())))},
                          sort_keys=False, ensure_ascii=False, separators=(",", ":"))
    hasher = import_rows.Hasher()
    parsed = json.loads(line)
    assert hasher.text_and_hash(line, parsed, prev) == (text, row["hash"])
    if spelling == "again":  # the second time, from what it remembers
        assert hasher.text_and_hash(line, json.loads(line), prev) == (text, row["hash"])


def test_a_line_whose_data_text_hides_a_second_data_field_is_not_taken_at_its_word():
    # `"data":{"x":1},"data":{"y":2}` parses as {"y": 2}: the text between the fields around
    # the data is then not the data's, even when {"x":1} was seen before
    prev, hasher = GENESIS, import_rows.Hasher()
    row = {"actor": "banker", "chain_version": 2, "command_id": "c", "data": {"x": 1},
           "hash": "0" * 64, "prev_hash": prev, "recorded_at": "t", "schema_version": 1,
           "seq": 1, "type": "T"}
    hasher.text_and_hash(canonical_json(row), row, prev)
    line = canonical_json(row).replace('"data":{"x":1}', '"data":{"x":1},"data":{"y":2}')
    parsed = json.loads(line)
    assert parsed["data"] == {"y": 2}
    assert hasher.text_and_hash(line, parsed, prev)[0] == '{"y":2}'


def test_the_import_encodes_each_data_text_once_not_each_line(exported, tmp_path, monkeypatch):
    calls = []
    real = import_rows.CANONICAL
    for module in (import_rows, exchange):  # the version-2 rows' Hasher, the others' import
        monkeypatch.setattr(module, "CANONICAL", lambda v: calls.append(1) or real(v))
    header, rows = rows_of(exported)
    store = SQLiteStore(str(tmp_path / "once.db"))
    with open(exported, encoding="utf-8") as f:
        done = exchange.import_lines(store, f, source="x", now="2026-11-30T12:00:00.000000Z")
    store.close()
    assert done["events"] == len(rows)
    distinct = len({canonical_json(r["data"]) for r in rows})
    assert len(calls) == distinct < len(rows)  # ~1 in 6 on a long game


def _v1_row_refused(db) -> bool:
    conn = sqlite3.connect(db)
    try:
        conn.execute("INSERT INTO events (game_id, seq, type, data, recorded_at, hash, "
                     "prev_hash, schema_version, chain_version) VALUES (99, 1, 'X', '{}', 't', "
                     "'h', 'p', 1, 1)")
    except sqlite3.IntegrityError as exc:
        return "banco format 2" in str(exc)
    finally:
        conn.rollback()
        conn.close()
    return False


def test_the_trigger_lifted_for_the_import_is_back_after_it(exported, target, tmp_path, banco):
    # the rows go in without events_format_2 running for each; the file keeps it all the same,
    # after an import that commits and after one the audit refuses (rolled back)
    header, rows = rows_of(exported)
    tax = next(i for i, r in enumerate(rows) if r["type"] == "TaxPaid")
    rows[tax]["data"]["amount"] = 99999
    rehash(rows, tax)
    out = refused(banco, target, {**header, "head": rows[-1]["hash"]}, rows, tmp_path)
    assert "the audit stops at event" in out
    assert _v1_row_refused(target)
    banco("--db", target, "import", str(exported))
    assert _v1_row_refused(target)
    conn = sqlite3.connect(target)
    assert conn.execute("SELECT COUNT(*) FROM sqlite_master WHERE type='trigger' AND "
                        "name='events_format_2'").fetchone() == (1,)
    conn.close()


# --- the audit's hook, and the tables it leaves ---------------------------------------------

def _played_with_undos(db: str, commands: int = 160) -> None:
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


def test_an_imported_long_game_has_the_books_snapshots_each_the_table_folded_to_it(
        tmp_path, monkeypatch, banco):
    from banco.ledger.book import Book
    from banco.ledger.snapshot_check import verify_snapshots
    from banco.projections.audit import audit as audit_module

    monkeypatch.setattr(Book, "SNAPSHOT_EVERY", 40)
    monkeypatch.setattr(audit_module, "CHECKPOINT_EVERY", 30)
    played = str(tmp_path / "played.db")
    _played_with_undos(played)
    path = tmp_path / "undos.jsonl"
    banco("--db", played, "export", "-o", str(path))
    header, rows = rows_of(path)
    assert sum(r["type"] == "EventRetracted" for r in rows) >= 20
    db = str(tmp_path / "imported.db")
    store = SQLiteStore(db)
    with open(path, encoding="utf-8") as f:
        exchange.import_lines(store, f, source="x", now="2026-11-30T12:00:00.000000Z")
    snaps = store.snapshots(1)
    # the tables the game's chain binds (its rows with a table digest) that a book keeps: the
    # newest three and the first of each stretch of EVERY events (ledger/store/kept_snapshots.py)
    from banco.ledger.store.kept_snapshots import EVERY

    bound = [r["seq"] for r in rows if r.get("table_digest")]
    first = {}
    for seq in bound:
        first.setdefault(seq // EVERY, seq)
    assert len(bound) >= 4 and len(first) >= 1
    assert [s.seq for s in snaps] == sorted({*bound[-3:], *first.values()}, reverse=True)
    assert verify_snapshots(store, 1) == []  # each is the table a fresh fold gives
    store.close()
    # the first command on the imported game folds from the last one, not from event 1
    monkeypatch.setattr(Book, "_fold_all", lambda *a: pytest.fail("folded from the start"))
    book = Book(db)
    assert book.state(1) == Book(played).state(1)._replace(game_id=1)
    book.close()


def test_an_imported_game_leaves_only_the_snapshots_its_chain_binds(exported, tmp_path,
                                                                     monkeypatch, banco):
    """A snapshot is used only where the chain records its table's digest: an import leaves
    one at each such row it has audited (here event 500 of 643), and none for a game recorded
    without them, whatever its length (a table the chain does not bind is never used)."""
    from banco.ledger.book import Book
    from banco.ledger.snapshot_check import verify_snapshots

    store = SQLiteStore(str(tmp_path / "bound.db"))
    with open(exported, encoding="utf-8") as f:
        exchange.import_lines(store, f, source="x", now="2026-11-30T12:00:00.000000Z")
    _, rows = rows_of(exported)
    assert [s.seq for s in store.snapshots(1)] == [r["seq"] for r in rows
                                                   if r["chain_version"] == 3] == [500]
    assert verify_snapshots(store, 1) == []
    store.close()
    monkeypatch.setattr(Book, "SNAPSHOT_EVERY", 10 ** 6)
    plain = str(tmp_path / "plain.db")
    record(plain, "classic-4p")
    path = tmp_path / "plain.jsonl"
    banco("--db", plain, "export", "-o", str(path))
    assert {r["chain_version"] for r in rows_of(path)[1]} == {2}
    store = SQLiteStore(str(tmp_path / "short.db"))
    with open(path, encoding="utf-8") as f:
        exchange.import_lines(store, f, source="x", now="2026-11-30T12:00:00.000000Z")
    assert store.snapshots(1) == []
    store.close()


def test_the_imports_audit_skips_only_the_hashes_it_computed(exported, tmp_path, monkeypatch):
    """The import hands its audit the rows it has just hashed (hashes_checked): the chain's
    order and links are still followed there, so a row missing or moved after the import's
    checks is named at the same event; a database's audit checks the hashes itself."""
    from banco.projections.audit.audit import GameAudit
    from banco.projections.audit.rows import DictRows

    header, rows = rows_of(exported)
    gone = [r for r in rows if r["seq"] != 40]
    for checked in (False, True):
        report = GameAudit(1, DictRows(gone), hashes_checked=checked).run()
        assert (report.bad_seq, str(report.problem)) == (
            40, "hash chain: event 40 is missing (the next one is event 41): a row was deleted")
    relinked = [dict(r) for r in rows]
    relinked[50]["prev_hash"] = "f" * 64
    for checked in (False, True):
        report = GameAudit(1, DictRows(relinked), hashes_checked=checked).run()
        assert report.bad_seq == 51 and "prev_hash is not the hash of event 50" in report.problem
    # a database's audit checks the hashes itself
    from banco.projections.audit.audit import audit

    forged = [dict(r) for r in rows]
    forged[30]["hash"] = "0" * 64
    assert audit(1, DictRows(forged)).bad_seq == 31


def test_only_the_import_tells_its_audit_the_hashes_are_checked(exported, tmp_path,
                                                                 monkeypatch):
    from importlib.machinery import EXTENSION_SUFFIXES

    from banco.projections.audit import audit as audit_module

    if exchange.__file__.endswith(tuple(EXTENSION_SUFFIXES)):
        # compiled, the import calls GameAudit directly: no spy can stand in its way (the
        # pure install, BANCO_PURE=1, runs this)
        pytest.skip("projections/exchange/exchange.py is compiled")
    seen = []
    real = audit_module.GameAudit

    def spy(*args, **kwargs):
        seen.append(kwargs.get("hashes_checked", False))
        return real(*args, **kwargs)

    monkeypatch.setattr(audit_module, "GameAudit", spy)
    store = SQLiteStore(str(tmp_path / "hook.db"))
    with open(exported, encoding="utf-8") as f:
        exchange.import_lines(store, f, source="x", now="2026-11-30T12:00:00.000000Z")
    assert seen == [True]
    store.close()


@pytest.mark.parametrize("line", ["\n", "  \t\n", "[1, 2]\n", '"text"\n', '{"a":1} x\n',
                                  '{"a":1}{"b":2}\n', ' {"a":1}\n', '{"a":1}  \n', '{"a":1}',
                                  '{"a":1.5}\n', '{"a":NaN}\n', '{"a":\n', '{"a":1}\r\n', ""])
def test_a_line_is_read_as_the_whole_decoder_reads_it(line):
    # the raw step reads banco's own lines; every other one gets the whole decoder's verdict
    def whole(line):  # the import's reading before the raw step
        if not line.strip():
            return "blank"
        try:
            value = import_rows._DECODE(line)
        except ValueError as exc:
            return f"not JSON: {import_rows._why(exc)}"
        return value if isinstance(value, dict) else "not an object"

    try:
        got = import_rows.parse(line, 7)
    except exchange.ImportRefused as exc:
        got = str(exc)
        expected = whole(line)
        assert isinstance(expected, str) and (
            "is blank" in got if expected == "blank" else
            "is not a JSON object" in got if expected == "not an object" else
            expected[len("not JSON: "):] in got), (got, expected)
    else:
        assert got == whole(line)


def test_import_reads_the_expected_head_as_the_audit_does(exported, target, tmp_path, banco):
    """The score sheet's head line, or 8+ hex digits of a head: the same forms as `audit
    --expect-head` (a head line was refused as "not in this history" though it was)."""
    header, rows = rows_of(exported)
    seq, head = len(rows), header["head"]
    line = f"banco/1/{seq}/{head[:12]}"
    out = banco("--db", target, "import", str(exported), "--expect-head", line).output
    assert "imported" in out and "came after it" not in out
    bad = banco("--db", str(tmp_path / "x.db"), "import", str(exported), "--expect-head",
                "banco/1/x", code=2).output
    assert "--expect-head takes a head hash" in bad


def test_import_says_what_came_after_the_expected_head(exported, tmp_path, banco):
    header, rows = rows_of(exported)
    earlier = rows[-5]
    line = f"banco/1/{earlier['seq']}/{earlier['hash'][:12]}"
    done = banco("--db", str(tmp_path / "a.db"), "import", str(exported), "--expect-head", line)
    assert (f"the expected head is event {earlier['seq']}'s: events 1-{earlier['seq']} are as "
            f"they were when it was printed; events {earlier['seq'] + 1}-{len(rows)} came after "
            "it") in done.output
    prefix = banco("--db", str(tmp_path / "b.db"), "import", str(exported), "--expect-head",
                   earlier["hash"][:10], "--json")
    assert json.loads(prefix.output)["expected_head_at"] == earlier["seq"]
    wrong = f"banco/1/{earlier['seq']}/{'0' * 12}"
    out = banco("--db", str(tmp_path / "c.db"), "import", str(exported), "--expect-head", wrong,
                code=3).output
    assert (f"line {earlier['seq'] + 1}: event {earlier['seq']}'s hash is "
            f"{earlier['hash'][:12]}..., not the 000000000000 of the head line") in out
    later = f"banco/1/{len(rows) + 3}/{'0' * 12}"
    out = banco("--db", str(tmp_path / "d.db"), "import", str(exported), "--expect-head", later,
                code=3).output
    assert f"was printed at event {len(rows) + 3}, but the file stops at event {len(rows)}" in out
    assert not (tmp_path / "c.db").exists() and not (tmp_path / "d.db").exists()


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
