"""Messages that were English only, said in Italian: the database's errors, the seals' key
files, the snapshots' findings, the server's answers, the words of `torneo` and `decisione`,
the refusal inside `rivedi --rules`.  Each is also checked in English, where it was before."""

from __future__ import annotations

import sqlite3

import pytest
from click.testing import CliRunner
from conftest import LOCALE_VARS  # noqa: E402,F401

from banco.cli.main import cli
from banco.cli.words import i18n
from banco.ledger.base.errors import DatabaseError
from banco.ledger.store.sqlite import SQLiteStore

pytestmark = pytest.mark.usefixtures("no_locale")


def run(db, *args, code=0):
    result = CliRunner().invoke(cli, ["--db", str(db), *map(str, args)],
                                catch_exceptions=False)
    assert result.exit_code == code, (args, result.output)
    return result.output


def in_italian(text) -> str:
    i18n.use("it")
    try:
        return text.render(i18n.translations())
    finally:
        i18n._release()


# --- the database file (ledger/store/sqlite.py) -------------------------------------------------------

def test_a_missing_database_is_said_in_italian_with_the_files_nearby(tmp_path):
    (tmp_path / "serata.db").write_bytes(b"")
    out = run(tmp_path / "serat.db", "--lang", "it", "stato", code=4)
    assert out == (f"errore: nessun database in {tmp_path}/serat.db (il file non esiste); "
                   f"intendevi {tmp_path}/serata.db?\n"
                   "  `banco nuova GIOCATORE GIOCATORE ...` inizia una partita in un nuovo "
                   "file\n")
    assert run(tmp_path / "altro.db", "--lang", "it", "stato", code=4).startswith(
        f"errore: nessun database in {tmp_path}/altro.db (il file non esiste); database lì "
        f"presenti: {tmp_path}/serata.db\n")
    assert run(tmp_path / "no" / "x.db", "--lang", "it", "stato", code=4) == (
        f"errore: nessun database in {tmp_path}/no/x.db: la cartella {tmp_path}/no non esiste\n")
    assert run(tmp_path / "serat.db", "state", code=4).startswith(
        f"error: no database at {tmp_path}/serat.db (no such file); did you mean "
        f"{tmp_path}/serata.db?\n")


def test_a_file_that_is_not_banco_s_is_said_in_italian(tmp_path):
    notes = tmp_path / "appunti.db"
    notes.write_text("latte, uova\n" * 200)
    assert run(notes, "--lang", "it", "stato", code=4) == (
        f"errore: {notes} non è un database SQLite: --db è il file giusto?\n")
    assert run(tmp_path, "--lang", "it", "stato", code=4) == (
        f"errore: {tmp_path} è una cartella, non un file di database: indica un file al suo "
        f"interno, ad es. --db {tmp_path}/banco.db\n")
    theirs = tmp_path / "loro.db"
    conn = sqlite3.connect(theirs)
    conn.execute("CREATE TABLE spesa (cosa TEXT)")
    conn.commit()
    conn.close()
    assert run(theirs, "--lang", "it", "nuova", "Anna", "Bruno", code=4) == (
        f"errore: {theirs} è un database SQLite ma non di banco (le sue tabelle: spesa): banco "
        "non lo tocca; usa un altro --db\n")
    assert run(theirs, "state", code=4) == (
        f"error: {theirs} is a SQLite database but not banco's (its tables: spesa): banco "
        "leaves it alone; use another --db\n")


def test_a_newer_format_is_refused_in_italian(tmp_path):
    db = tmp_path / "t.db"
    run(db, "new", "Anna", "Bruno")
    conn = sqlite3.connect(db)
    conn.execute("UPDATE meta SET value='5' WHERE key='format'")
    conn.commit()
    conn.close()
    out = run(db, "--lang", "it", "tira", "1", "2", code=4)
    assert (f"errore: {db} è nel formato 5, scritto da un banco più recente; questo banco "
            "scrive il formato 4 e non vi registrerà (la lettura funziona): aggiorna banco") in out
    assert (f"ATTENZIONE: {db} è nel formato 5, scritto da un banco più recente (questo "
            "conosce il formato 4): si può leggere, non scrivere\n") in run(db, "--lang", "it",
                                                                           "stato")


def test_a_broken_chain_is_warned_about_in_italian_and_the_table_still_shown(tmp_path):
    db = tmp_path / "t.db"
    for line in ("new Anna Bruno", "roll 3 2", "buy"):
        run(db, *line.split())
    conn = sqlite3.connect(db)
    conn.execute("DROP TRIGGER events_no_update")
    conn.execute("UPDATE events SET actor='mallory' WHERE game_id=1 AND seq=5")
    conn.commit()
    conn.close()
    out = run(db, "--lang", "it", "stato")
    assert ("ATTENZIONE: partita 1, l'evento 5 non corrisponde al suo hash: esegui `banco "
            "verifica`\n") in out and "turno: " in out
    assert "WARNING: game 1 event 5 does not match its hash: run `banco audit`\n" in run(
        db, "state")


@pytest.mark.parametrize("writing, italian, english", [
    (True, "il database {p} è bloccato da un altro che vi sta scrivendo (un altro banco, o uno "
           "strumento come sqlite3); atteso 0.5 s; nulla è stato registrato, riprova",
     "the database {p} is locked by another writer (another banco, or a tool such as sqlite3); "
     "waited 0.5 s; nothing was recorded, retry"),
    (False, "il database {p} è bloccato da un altro programma; atteso 0.5 s; riprova",
     "the database {p} is locked by another program; waited 0.5 s; retry"),
])
def test_a_locked_database_is_said_in_italian(tmp_path, writing, italian, english):
    db = tmp_path / "t.db"
    run(db, "new", "Anna", "Bruno")
    store = SQLiteStore(str(db), wait=0.5)
    exc = store.explain(sqlite3.OperationalError("database is locked"), writing)
    store.close()
    assert isinstance(exc, DatabaseError)
    assert str(exc) == english.format(p=db)
    assert in_italian(exc) == italian.format(p=db)


def test_a_damaged_database_keeps_sqlite_s_words_and_says_the_rest_in_italian(tmp_path):
    db = tmp_path / "t.db"
    run(db, "new", "Anna", "Bruno")
    store = SQLiteStore(str(db))
    exc = store.explain(sqlite3.DatabaseError("database disk image is malformed"), True)
    store.close()
    assert in_italian(exc) == (
        f"{db} è danneggiato (database disk image is malformed); nulla è stato registrato: "
        f"ripristina il tuo ultimo `banco salvataggio`, o prova `sqlite3 {db} .recover`")
    assert str(exc).startswith(f"{db} is damaged (database disk image is malformed); nothing "
                               "was recorded: restore")


# --- key files and seal files (ledger/records/seals.py) ------------------------------------------------

def test_key_files_and_seal_files_banco_cannot_use_are_said_in_italian(tmp_path):
    db = tmp_path / "t.db"
    run(db, "new", "Anna", "Bruno")
    run(db, "keygen", "--out", tmp_path / "rita")
    key, pub = tmp_path / "rita.key", tmp_path / "rita.pub"
    (tmp_path / "bad.key").write_text("hello\n")
    said = {
        ("sigilla", "--key", tmp_path / "none.key"):
            f"nessuna chiave privata in {tmp_path}/none.key (`banco chiavi` crea una coppia di "
            "chiavi)",
        ("sigilla", "--key", tmp_path / "bad.key"):
            f"{tmp_path}/bad.key non è una chiave privata in formato PEM",
        ("sigilla", "--key", pub):
            f"{pub} non è una chiave privata in formato PEM (quella è la chiave pubblica: firma "
            "con il file .key)",
    }
    for args, italian in said.items():
        assert run(db, "--lang", "it", *map(str, args), code=2) == f"errore: {italian}\n"
    assert run(db, "seal", "--key", str(pub), code=2) == (
        f"error: {pub} is not a private key in PEM form (that is the public key: sign with the "
        ".key file)\n")
    run(db, "seal", "--key", str(key), "--out", str(tmp_path / "seal.txt"))
    seal = tmp_path / "seal.txt"
    assert run(db, "--lang", "it", "verifica", "--seal", str(seal), "--pubkey", str(key),
               code=2) == (f"errore: {key} non è una chiave pubblica in formato PEM (quella è una "
                           "chiave privata: indica il file .pub)\n")
    text = seal.read_text()
    broken = tmp_path / "broken.txt"
    broken.write_text(text.replace("\nevent:", "\nevento:"))
    assert run(db, "--lang", "it", "verifica", "--seal", str(broken), "--pubkey", str(pub),
               code=2) == (f"errore: {broken} non è un sigillo che banco sa leggere: non ha una "
                           "riga `event:`\n")
    broken.write_text(text.replace("format: banco seal 1", "format: banco seal 9"))
    assert run(db, "--lang", "it", "verifica", "--seal", str(broken), "--pubkey", str(pub),
               code=2) == (f"errore: {broken} non è un sigillo che banco sa leggere: non è un "
                           "sigillo di banco (la sua riga format dovrebbe dire 'banco seal 1')\n")
    assert run(db, "audit", "--seal", str(broken), "--pubkey", str(pub), code=2) == (
        f"error: {broken} is not a seal banco can read: it is not a banco seal (its format line "
        "should say 'banco seal 1')\n")


# --- snapshots, as doctor names them (ledger/snapshot_check.py) --------------------------------------

def test_doctor_names_a_bad_snapshot_in_italian_and_its_document_stays_english(tmp_path,
                                                                             monkeypatch):
    import json
    from pathlib import Path

    from banco.ledger.book import Book

    monkeypatch.setattr(Book, "SNAPSHOT_EVERY", 50)
    db = tmp_path / "long.db"
    fixture = Path(__file__).resolve().parents[1] / "fixtures" / "classic-to-the-end.banco"
    run(db, "run", "-q", str(fixture))
    conn = sqlite3.connect(db)
    first, second, third = [seq for (seq,) in conn.execute(
        "SELECT seq FROM snapshots ORDER BY seq")][-3:]  # the newest three
    conn.execute("UPDATE snapshots SET head=? WHERE seq=?", ("0" * 64, first))
    conn.execute("UPDATE snapshots SET state='{\"t\":[1]}' WHERE seq=?", (second,))
    conn.execute("UPDATE snapshots SET format='0:old' WHERE seq=?", (third,))
    conn.commit()
    conn.close()
    out = run(db, "--lang", "it", "diagnosi", code=3).splitlines()
    assert (f"problema: partita 1: l'istantanea all'evento {first} è stata fatta da un registro "
            "che non è più questo (la sua impronta non è quella del registro): non usata") in out
    assert (f"problema: partita 1: l'istantanea all'evento {second} non si può leggere: non è "
            "un tavolo") in out
    assert any(line.startswith(f"problema: partita 1: l'istantanea all'evento {third} ha il "
                               "formato '0:old', non '3:") and line.endswith(
                                   ": non usata, ricostruita") for line in out)
    doc = json.loads(run(db, "--lang", "it", "diagnosi", "--json", code=3))
    assert (f"game 1: the snapshot at event {second} cannot be read: not a table"
            in doc["snapshots"]["problems"])
    out = run(db, "--lang", "it", "diagnosi", "--repair")
    assert (f"riparato: cancellata l'istantanea della partita 1 all'evento {second} (non si può "
            "leggere: non è un tavolo)") in out.splitlines()


# --- the server's answers (cli/web/serve.py) -------------------------------------------------------

def test_the_server_refuses_and_misses_in_the_visitor_s_language(tmp_path):
    import http.client

    from banco.cli.web.serve import start

    db = tmp_path / "t.db"
    run(db, "new", "Anna", "Bruno")
    base, _, stop = start(str(db), port=0, poll=0.05)

    def ask(method, path, headers=None):
        conn = http.client.HTTPConnection("127.0.0.1", int(base.rsplit(":", 1)[1]), timeout=30)
        try:
            conn.request(method, path, headers=headers or {})
            response = conn.getresponse()
            return response.status, response.getheader("Content-Language"), response.read()
        finally:
            conn.close()

    italian = {"Accept-Language": "it-IT,it;q=0.9"}
    it_405 = b"questo indirizzo non accetta POST: le righe vanno a POST /api/commands\n"
    try:
        assert ask("POST", "/", italian) == (405, "it", it_405)
        assert ask("DELETE", "/table.json?lang=it")[:2] == (405, "it")
        assert ask("GET", "/nulla", italian) == (
            404, "it", b"non trovato: questo server mostra / e risponde a /api/table, "
            b"/api/events, /api/commands\n")
        assert ask("POST", "/") == (
            405, "en", b"this address takes no POST: the lines go to POST /api/commands\n")
        assert ask("GET", "/x") == (
            404, "en", b"not found: this server shows / and answers /api/table, /api/events, "
            b"/api/commands\n")
    finally:
        stop()


# --- the words of `torneo` and `decisione` (cli/groups.py) -------------------------------------

def test_a_tournament_in_italian_words(tmp_path):
    db = tmp_path / "t.db"
    run(db, "nuova", "Anna", "Bruno", "--rules", "championship")
    run(db, "tira", "1", "2")
    run(db, "compra")
    run(db, "tempo-scaduto")
    assert run(db, "--lang", "it", "torneo", "nuovo", "Coppa") == (
        "torneo 'Coppa': aggiungi le partite di ogni turno con `banco torneo aggiungi "
        "PARTITA...`\n")
    assert run(db, "--lang", "it", "torneo", "aggiungi", "1").startswith(
        "partita 1 nel turno 1 di 'Coppa': Anna ")
    out = run(db, "torneo", "classifica", "--lang", "it")
    assert out.startswith("torneo 'Coppa': 1 partita in 1 turno") and "\n 1. Anna " in out
    english = run(db, "tournament", "standings")
    assert english.startswith("tournament 'Coppa': 1 game in 1 round")
    assert run(db, "torneo", "classifica", "--json") == run(db, "tournament", "standings",
                                                            "--json")
    out = run(db, "--lang", "it", "torneo", "aggiung", "1", code=2)
    assert "nessun comando chiamato 'aggiung': intendevi aggiungi?" in out


def test_the_groups_help_in_italian_names_the_italian_words():
    out = run("x.db", "--lang", "it", "torneo", "--help")
    assert "  aggiungi (add)          Inserisci partite di campionato finite" in out
    assert "  nuovo (new)             Inizia un torneo chiamato NOME." in out
    assert "  classifica (standings)  Punti sommati sui turni" in out
    out = run("x.db", "--lang", "it", "torneo", "aggiungi", "--help")
    assert out.startswith("Uso: cli torneo aggiungi [OPZIONI] PARTITE...\n\n  Inserisci partite")
    assert "Quale torneo (predefinito: l'ultimo iniziato)." in out
    out = run("x.db", "--lang", "it", "decisione", "--help")
    for line in ("  asta (auction)           SEQ: un'offerta rifiutata",
                 "  bancarotta (bankruptcy)  SEQ: la bancarotta",
                 "  prigione (jail)          SEQ: l'invio di un giocatore in",
                 "  affitto (rent)           SEQ: un arrivo"):
        assert line in out
    out = run("x.db", "--lang", "it", "decisione", "prigione", "--help")
    # the option's Italian name first, as the commands' are (tests/test_italian_help.py)
    assert "  --arbitro, --referee NOME  Chi decide (con --registra)." in out
    assert "  add        Enter finished championship games" in run("x.db", "tournament",
                                                                   "--help")


def test_every_word_of_a_group_names_one_of_its_commands_and_none_is_english():
    from banco.cli.banker.table_rules import tournament
    from banco.cli.referee.commands import ruling

    for group, words in ((tournament, {"nuovo", "aggiungi", "classifica", "esporta"}),
                         (ruling, {"affitto", "asta", "bancarotta", "prigione"})):
        assert set(group.aliases) == words
        assert set(group.aliases.values()) == set(group.commands)
        assert not set(group.aliases) & set(group.commands)


# --- the refusal inside `rivedi --rules` (cli/referee/counterfactual_text.py) --------------------------

def test_the_other_rules_refusal_in_a_replay_is_said_in_italian(tmp_path):
    db = tmp_path / "t.db"
    for line in ("new Anna Bruno", "roll 3 2", "decline", "bid Bruno 5", "hammer"):
        run(db, *line.split())
    out = run(db, "--lang", "it", "rivedi", "--rules", "quick").splitlines()
    assert ("      non ammesso: le offerte per Stazione Sud partono da 10 M; 5 è troppo poco "
            "(004 §Acquisto di proprietà; 003 §03)") in out
    out = run(db, "--lang", "it", "rivedi", "--rules", "quick", "--skip-refused").splitlines()
    assert ("saltato (rifiutato con le regole rapide): n. 4 `bid Bruno 5`: le offerte per Stazione Sud "
            "partono da 10 M; 5 è troppo poco (004 §Acquisto di proprietà; 003 §03)") in out
    assert any(line.startswith("saltato (rifiutato con le regole rapide): n. 5 `hammer`: nessuna offerta "
                               "per Stazione Sud") for line in out)
    english = run(db, "replay", "--rules", "quick").splitlines()
    assert ("      refused: bids for Stazione Sud open at 10 M; 5 is too low "
            "(004 §Acquisto di proprietà; 003 §03)") in english
    import json

    doc = json.loads(run(db, "--lang", "it", "rivedi", "--rules", "quick", "--json"))
    assert doc["stopped"]["refused"].startswith("bids for Stazione Sud open at 10 M")


def test_rules_that_cannot_seat_the_game_are_said_in_italian(tmp_path):
    db = tmp_path / "t.db"
    run(db, "new", *"ABCDEFG")
    assert run(db, "--lang", "it", "rivedi", "--rules", "vintage", code=2) == (
        "errore: le regole vintage non possono far sedere questa partita: al massimo 6 "
        "giocatori con le regole vintage, non 7 (002 §Preparazione)\n")
    assert run(db, "replay", "--rules", "vintage", code=2) == (
        "error: the vintage rules cannot seat this game: at most the vintage rules seat 6 "
        "players, not 7 (002 §Preparazione)\n")
    assert run(tmp_path / "n.db", "--lang", "it", "nuova", *"ABCDEFGHI", code=1) == (
        "non ammesso: al massimo otto giocatori a un tavolo, non 9 (004 §Inizio del gioco)\n")


# --- a player's name refused (ledger/table/seats.py) -------------------------------------------------

def test_why_a_name_is_refused_is_said_in_italian(tmp_path):
    db = tmp_path / "t.db"
    said = {"bank": "è il nome della Banca: il conto della Banca non è quello di un giocatore",
            "A" * 30: "è lungo 30 caratteri; al massimo 24",
            "A\tx": "contiene il carattere di controllo U+0009",
            "42": "un nome di sole cifre sarebbe letto come un importo o un numero"}
    for name, why in said.items():
        assert run(db, "--lang", "it", "nuova", name, "Bruno", code=2) == (
            f"errore: nome del giocatore {name!r} rifiutato: {why}\n")
    assert run(db, "new", "bank", "Bruno", code=2) == (
        "error: player name 'bank' refused: that is the Bank's name: the Bank's account is not "
        "a player's\n")
    assert not db.exists()
