"""A game exported by the banco before rulings were data (schema version 2: a recorded ruling
held its verdict and its reasons in English, a card drawn its text, a left jail's how a
phrase) imports with its head and audit, and its rulings read as today's facts: the verdict a
code, said in English as it was and in Italian from the code.

tests/data/schema2-rulings.jsonl.gz is fixtures/classic-4p.banco run by banco at 0157235 (the
last to write them), then `ruling rent 79 --record`, `ruling rent 79 --claim-at 70
--record`, `ruling jail 397 --record`, `ruling jail 334 --record` and `ruling auction 209
--record`, referee Rita, and `export`.
"""

from __future__ import annotations

import gzip
import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

DATA = Path(__file__).resolve().parent / "data"
HEAD = "2ad0f129bd170b46e95e18ea7e1120f48c7734d2a8f9c2f30739f7931f424955"


@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    from banco.cli.main import cli

    where = tmp_path_factory.mktemp("schema2")
    export = where / "schema2-rulings.jsonl"
    with gzip.open(DATA / "schema2-rulings.jsonl.gz") as src, open(export, "wb") as out:
        shutil.copyfileobj(src, out)
    db = str(where / "s2.db")
    result = CliRunner().invoke(cli, ["--db", db, "import", str(export)],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "653 events, chain intact, audit passed" in result.output and HEAD in result.output
    return db


def _banco(db, *args) -> str:
    from banco.cli.main import cli

    result = CliRunner().invoke(cli, ["--db", db, *args], catch_exceptions=False)
    assert result.exit_code == 0, (args, result.output)
    return result.output


def test_the_rows_keep_their_bytes_and_the_audit_its_head(imported):
    conn = sqlite3.connect(imported)
    rows = conn.execute("SELECT type, schema_version, data FROM events WHERE type IN "
                        "('RulingRecorded', 'LeftJail', 'CardDrawn')").fetchall()
    conn.close()
    assert {v for _, v, _ in rows} == {2}
    assert all("text" in json.loads(d) for t, _, d in rows if t != "LeftJail")
    report = json.loads(_banco(imported, "audit", "--json", "--expect-head", HEAD))
    assert report["ok"] is True, report


def test_the_older_rulings_read_as_codes(imported):
    log = json.loads(_banco(imported, "log", "--json"))
    rulings = [e["data"] for e in log if e["type"] == "RulingRecorded"]
    assert [r["verdict"]["code"] for r in rulings] == [
        "rent_refused", "claim_at", "jail_left", "jail_left", "auction_won"]
    claim_at = rulings[1]["verdict"]
    assert claim_at["when"] == {"code": "after_event", "seq": 70}
    assert claim_at["answer"]["code"] == "claim_early_batch"
    assert rulings[2]["verdict"]["way"]["value"] == {"code": "fine_after_last_try"}
    assert all(r["rule"] and "said" in r["evidence"] and "text" not in r for r in rulings)
    assert {e["data"]["how"]["code"] for e in log if e["type"] == "LeftJail"} == {
        "fine", "fine_after_last_try"}
    assert not any("text" in e["data"] for e in log if e["type"] == "CardDrawn")


def test_the_older_rulings_are_said_in_english_as_then_and_in_italian(imported):
    english = _banco(imported, "log", "--tail", "10")
    assert ("by referee Rita: too late: the window closed when Bruno rolled (event 74); the "
            "claim at event 79 was rightly refused and Dario lost the rent") in english
    assert ("a claim made after event 70 was too early: the landing (event 70) was not yet "
            "recorded whole; the window opened at event 71") in english
    assert "Dario left jail by fine after the last try at event 467, after 3 failed tries" \
        in english
    italian = _banco(imported, "--lang", "it", "log", "--tail", "10")
    assert ("decisione sull'evento 79 (affitto) dell'arbitro Rita: troppo tardi: la finestra "
            "si è chiusa quando Bruno ha tirato (evento 74)") in italian
    assert "una richiesta fatta dopo l'evento 70 era troppo presto" in italian
    assert "multa dopo l'ultimo tentativo" in italian
    assert "vinta da Anna per 45 M, pagati alla Banca all'evento 209" in italian
    assert "too late" not in italian and "fine after" not in italian


def test_a_card_drawn_is_said_from_the_edition(imported):
    log = json.loads(_banco(imported, "log", "--json"))
    drawn = next(e for e in log if e["type"] == "CardDrawn")
    shown = _banco(imported, "show", str(drawn["seq"]))
    conn = sqlite3.connect(imported)
    (data,) = conn.execute("SELECT data FROM events WHERE seq = ?", (drawn["seq"],)).fetchone()
    conn.close()
    assert json.loads(data)["text"] in shown  # the edition's words, the very ones recorded


def test_replay_export_and_report_say_the_older_rulings_in_italian(imported, tmp_path):
    said = "Dario esce di prigione (multa dopo l'ultimo tentativo) all'evento 467"
    assert said in _banco(imported, "--lang", "it", "replay")
    assert said in _banco(imported, "--lang", "it", "export", "--format", "text")
    page = tmp_path / "report.html"
    _banco(imported, "--lang", "it", "report", "-o", str(page))
    assert said.replace("'", "&#x27;") in page.read_text(encoding="utf-8")
