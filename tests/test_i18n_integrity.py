"""The referee's integrity commands in Italian: `audit` (its report, the file's findings, a
seal), `doctor` (and its repair), `keygen`, `seal`, and the head line a finished game prints
under `standings` and `state`.  Their --json documents and the maintenance history stay
English, word for word the English run's."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from forge import drop_triggers
from games import record

from banco.cli.main import cli


def banco(db, *args, code=0, lang="it"):
    words = ["--lang", lang] if lang else []
    result = CliRunner().invoke(cli, ["--db", str(db), *words, *map(str, args)],
                                catch_exceptions=False)
    assert result.exit_code == code, (args, result.output)
    return result.output


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> Path:
    """A short game played to its end and sealed by referee Rita."""
    d = tmp_path_factory.mktemp("i18n-integrity")
    db = d / "t.db"
    record(str(db), "short-to-the-end")
    banco(db, "keygen", "--out", d / "rita", lang="en")
    banco(db, "seal", "--key", d / "rita.key", "--referee", "Rita", "--out", d / "seal.txt",
          lang="en")
    return d


@pytest.fixture
def copy(template, tmp_path) -> Path:
    for name in ("t.db", "rita.key", "rita.pub", "seal.txt"):
        shutil.copy(template / name, tmp_path / name)
    return tmp_path


def last_event(db) -> tuple[int, str]:
    conn = sqlite3.connect(db)
    seq, head = conn.execute("SELECT seq, hash FROM events WHERE game_id=1 ORDER BY seq DESC "
                             "LIMIT 1").fetchone()
    conn.close()
    return seq, head


def sealed_seq(d: Path) -> int:
    return int(next(line.split(":")[1] for line in (d / "seal.txt").read_text().splitlines()
                    if line.startswith("event:")))


ENGLISH = ("events,", "chain intact", "schemas valid", "books balance", "re-derived", "head ",
           "signature good", "FAILED", "after the seal", "is missing", "healthy", "known)")


def test_a_clean_audit_with_its_seal_in_italian(copy):
    db = copy / "t.db"
    seq, head = last_event(db)
    sealed = sealed_seq(copy)
    out = banco(db, "audit", "--seal", copy / "seal.txt", "--pubkey", copy / "rita.pub")
    lines = out.splitlines()
    assert lines[0].startswith(f"partita 1: {seq} eventi, catena integra, schemi validi, conti "
                               "in pari, ")
    assert lines[0].endswith(" comandi rieseguiti")
    assert lines[1] == f"  impronta {head}  (banco/1/{seq}/{head[:12]})"
    assert lines[2].startswith(f"sigillo banco/1/{sealed}/")
    assert lines[2].endswith(f"(arbitro Rita, chiave {lines[2].split('chiave ')[1][:16]}): "
                             f"firma valida; gli eventi 1-{sealed} della partita 1 sono quelli "
                             "sigillati, nessuno mancante")
    assert lines[3] == f"  dopo il sigillo: eventi {sealed + 1}-{seq}:"
    assert not [w for w in ENGLISH if w in out], out


def test_the_json_documents_stay_english_whatever_the_language(copy):
    db = copy / "t.db"
    conn = sqlite3.connect(db)
    drop_triggers(conn)
    conn.commit()
    conn.close()
    seal = ["--seal", copy / "seal.txt", "--pubkey", copy / "rita.pub"]
    italian = banco(db, "audit", "--json", *seal, code=3)
    assert italian == banco(db, "audit", "--json", *seal, code=3, lang="en")
    doc = json.loads(italian)
    assert doc["database"][0]["problem"].startswith("the trigger events_no_update is missing")
    assert banco(db, "doctor", "--json", code=3) == banco(db, "doctor", "--json", code=3,
                                                          lang="en")


def test_a_deleted_row_is_named_in_italian_by_the_audit_and_the_seal(copy):
    db = copy / "t.db"
    conn = sqlite3.connect(db)
    drop_triggers(conn)
    conn.execute("DELETE FROM events WHERE game_id=1 AND seq=40")
    conn.commit()
    conn.close()
    out = banco(db, "audit", "--seal", copy / "seal.txt", "--pubkey", copy / "rita.pub",
                code=3)
    assert ("partita 1: NON SUPERATA all'evento 40: catena degli hash: manca l'evento 40 (il "
            "successivo è l'evento 41): una riga è stata cancellata") in out.splitlines()
    assert ("database: manca il trigger events_no_delete: le righe di events si possono "
            "cancellare senza lasciare traccia se non nella catena (`banco diagnosi --ripara` lo "
            "ricrea)") in out.splitlines()
    assert out.splitlines()[-1].endswith(
        "NON SUPERATO all'evento 40: manca l'evento 40, sigillato (il successivo è l'evento "
        "41): una riga è stata cancellata")
    # a seal is refused, in Italian, for a history that does not audit clean
    out = banco(db, "seal", "--key", copy / "rita.key", "--out", copy / "again.txt", code=3)
    assert "partita 1: NON SUPERATA all'evento 40: catena degli hash: manca l'evento 40" in out
    assert "non sigillata: un sigillo garantisce una storia che supera la verifica" in out
    assert not (copy / "again.txt").exists()


def test_doctor_and_its_repair_in_italian_the_history_in_its_own_words(copy):
    db = copy / "t.db"
    seq, _ = last_event(db)
    out = banco(db, "doctor")
    assert out.splitlines()[0] == (f"database {db}: formato 4 (questo banco scrive il 4), "
                                   f"1 partita, {seq} eventi")
    assert "trigger: tutti presenti (9 conosciuti)" in out
    assert "tabella delle partite: concorda con i registri" in out
    assert out.splitlines()[-1] == "sano"
    conn = sqlite3.connect(db)
    drop_triggers(conn)
    conn.commit()
    conn.close()
    out = banco(db, "doctor", code=3)
    assert "trigger: mancano events_no_update, events_no_delete, events_format_2 (9 " \
           "conosciuti)" in out
    assert ("problema: manca il trigger events_format_2: un banco più vecchio potrebbe "
            "aggiungere righe con l'hash alla vecchia maniera (`banco diagnosi --ripara` lo "
            "ricrea)") in out
    assert out.splitlines()[-1].startswith("trovati problemi: `banco diagnosi --ripara` ripara")
    out = banco(db, "doctor", "--repair", "--reason", "trovato dal giudice")
    assert "riparato: ricreato il trigger events_no_update" in out
    assert "storico della manutenzione: 3 voci" in out
    # what was done is recorded in English (a fact), and said so
    assert "  recreated the trigger events_no_update  (perché: trovato dal giudice)" in out
    assert out.splitlines()[-1] == "sano"
    out = banco(db, "audit")
    assert "manutenzione " in out and ": recreated the trigger events_no_delete " \
                                      "(trovato dal giudice)" in out


def test_keygen_seal_and_their_mistakes_in_italian(copy):
    db = copy / "t.db"
    out = banco(db, "keygen", "--out", copy / "ugo")
    assert out.startswith(f"scritti {copy / 'ugo.key'} (privata: la legge solo l'arbitro) e "
                          f"{copy / 'ugo.pub'} (pubblica: da dare a chi controlla un sigillo)")
    assert out.splitlines()[1].startswith("impronta ")
    out = banco(db, "seal", "--key", copy / "ugo.key", "--out", copy / "ugo.txt")
    seq, _ = last_event(db)
    assert out.splitlines()[0].startswith(f"sigillata la partita 1 all'evento {seq - 2} (impronta ")
    assert out.splitlines()[1] == (f"registrato come evento {seq} (SealRecorded); file di "
                                   f"sigillo {copy / 'ugo.txt'}")
    out = banco(db, "seal", "--key", copy / "ugo.key", "--out", copy / "ugo.txt", code=2)
    assert f"{copy / 'ugo.txt'} esiste già: banco non sovrascrive mai un sigillo" in out
    out = banco(db, "audit", "--expect-head", "zz", code=2)
    assert "--impronta-attesa vuole un hash d'impronta (almeno le sue prime 8 cifre esadecimali)" in out
    out = banco(db, "audit", "--seal", copy / "none.txt", "--pubkey", copy / "ugo.pub", code=2)
    assert f"nessun file di sigillo in {copy / 'none.txt'}" in out
    out = banco(db, "audit", "--expect-head", "0123456789ab", code=3)
    assert ("partita 1: NON SUPERATA: l'impronta 0123456789ab non si trova in questa storia "
            f"(partita 1, eventi 1-{seq})") in out


def test_the_head_line_of_a_finished_game_in_italian(tmp_path):
    db = tmp_path / "t.db"
    banco(db, "new", "Anna", "Bruno", "--rules", "championship", lang="en")
    out = banco(db, "time-up")
    seq, head = last_event(db)
    line = f"banco/1/{seq}/{head[:12]}"
    said = (f"riga d'impronta per il foglio dei punti: {line}  (`banco verifica --impronta-attesa "
            f"{line}` la controlla)")
    assert out.splitlines()[-1] == said
    assert banco(db, "state").splitlines()[-1] == said
    assert banco(db, "standings").splitlines()[-1] == said
    english = banco(db, "standings", lang="en").splitlines()[-1]
    assert english == (f"head line for the score sheet: {line}  (`banco audit --expect-head "
                       f"{line}` checks it)")


@pytest.mark.parametrize("lang", ["en", "it"])
def test_after_a_repair_an_edited_row_is_not_sent_back_to_the_repair(copy, lang):
    """An edited event row ended `doctor --repair` with "`banco doctor --repair` mends what it
    can": a hint that loops.  After a repair, what is left is beyond it: the referee's way."""
    db = copy / "t.db"
    conn = sqlite3.connect(db)
    drop_triggers(conn)
    conn.execute("UPDATE events SET data = replace(data, '1500', '1600') WHERE game_id=1 "
                 "AND seq=2")
    conn.commit()
    conn.close()
    hint = {"en": "problems found: `banco doctor --repair` mends what it can",
            "it": "trovati problemi: `banco diagnosi --ripara` ripara ciò che può"}[lang]
    assert banco(db, "doctor", code=3, lang=lang).splitlines()[-1].startswith(hint)
    last = banco(db, "doctor", "--repair", code=3, lang=lang).splitlines()[-1]
    assert last == {
        "en": "problems found that `banco doctor --repair` cannot mend: `banco audit` names "
              "the first event that differs; `banco export` writes each game that is sound; "
              "else restore the last `banco backup` (docs/referee.md)",
        "it": "trovati problemi che `banco diagnosi --ripara` non può riparare: `banco "
              "verifica` nomina il primo evento diverso; `banco esporta` scrive ogni partita "
              "integra; altrimenti ripristina l'ultimo `banco salvataggio` (docs/arbitro.md)",
    }[lang], last
