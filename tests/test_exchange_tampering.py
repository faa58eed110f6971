"""An export tampered with, or not an export at all: refused naming its line and event, in
English and in Italian, nothing imported; a history held to the head printed on the score
sheet (--expect-head)."""

import json
import shutil
import sqlite3
from pathlib import Path

from exchange_files import refused, rehash, rows_of, write

from banco.ledger.store.canonical import canonical_json, row_hash

# --- tampering ------------------------------------------------------------------------------


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


# --- the head printed on the score sheet ---------------------------------------------------

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
