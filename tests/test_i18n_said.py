"""What is said in Italian and what stays English: the log's facts stay English whatever the
language and the words, a refusal is said in Italian while str() stays English, the Italian
words name commands, and the shell, the help, a report, a ruling, the usage lines and the
board speak the user's language (tests/test_i18n.py: the catalogs and the choice of language)."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest
from i18n_run import clear_locale, run

from banco.cli.main import ALIASES, COMMANDS
from banco.cli.words import i18n
from banco.ledger.base.errors import RuleViolation

ROOT = Path(__file__).resolve().parents[1]

# --- what is translated, and what is not ---------------------------------------------------


def _facts(db: str) -> list[tuple]:
    conn = sqlite3.connect(db)
    try:
        rows = conn.execute("SELECT seq, type, data FROM events ORDER BY seq").fetchall()
    finally:
        conn.close()
    return [(seq, type_, json.loads(data)) for seq, type_, data in rows]


GAME = [["new", "Anna", "Bruno"], ["roll", "1", "2"], ["buy"], ["roll", "2", "4"],
        ["decline"], ["bid", "Anna", "70"], ["hammer"], ["roll", "1", "1"]]
GAME_IT = [["nuova", "Anna", "Bruno"], ["tira", "1", "2"], ["compra"], ["tira", "2", "4"],
           ["rifiuta"], ["offerta", "Anna", "70"], ["aggiudica"], ["tira", "1", "1"]]


def test_the_log_stays_english_whatever_the_language_and_the_words(tmp_path, monkeypatch):
    """Facts are data: the same game played in English and in Italian, with the Italian
    words, records the same events (reasons in English); only the typed line differs."""
    clear_locale(monkeypatch)
    (tmp_path / "en").mkdir()
    (tmp_path / "it").mkdir()
    for args in GAME:
        run(tmp_path / "en", *args)
    outputs = [run(tmp_path / "it", "--lang", "it", *args) for args in GAME_IT]
    assert outputs[2] == "  Anna paga 60 M alla Banca: comprato Vicolo Stretto\ntocca a Bruno tirare\n"
    assert "  Anna paga 70 M alla Banca: vinto Bastioni Gran Sasso all'asta\n" in outputs[6]
    en, it = _facts(str(tmp_path / "en" / "t.db")), _facts(str(tmp_path / "it" / "t.db"))
    assert [t for _, t, _ in en] == [t for _, t, _ in it]
    for (seq, type_, a), (_, _, b) in zip(en, it, strict=True):
        if type_ == "CommandRecorded":
            continue
        a.pop("game_uuid", None), b.pop("game_uuid", None)
        assert a == b, (seq, type_)
    lines = [d["line"] for _, t, d in it if t == "CommandRecorded"]
    assert lines[:3] == ["nuova Anna Bruno", "tira 1 2", "compra"]  # as typed
    # a reason is a code and its parameters, whatever the language (prose before schema 2), its
    # square a number (schema 3)
    reasons = [d["reason"] for _, t, d in it if "reason" in d]
    assert {"code": "bought", "space": 3} in reasons
    assert {"code": "won_auction", "space": 6} in reasons
    assert {"code": "starting_cash"} in reasons


def test_a_refusal_is_said_in_italian_but_str_stays_english(tmp_path, monkeypatch):
    clear_locale(monkeypatch)
    run(tmp_path, "new", "Anna", "Bruno")
    out = run(tmp_path, "--lang", "it", "buy", code=1)
    assert out.startswith("non ammesso: impossibile comprare ora (")
    assert "\n  consentito: tocca ad Anna tirare" in out or "consentito:" in out
    out = run(tmp_path, "buy", code=1)
    assert out.startswith("refused: cannot buy now (")
    exc = RuleViolation("{name} has {cash} in cash and {space} costs {price}", name="Anna",
                        cash="50 M", space="Parco della Vittoria", price="400 M", rule="000 §X")
    assert str(exc) == "Anna has 50 M in cash and Parco della Vittoria costs 400 M (000 §X)"
    i18n.use("it")
    try:
        assert exc.render(i18n.translations()) == (
            "Anna ha 50 M in contanti e Parco della Vittoria costa 400 M (000 §X)")
    finally:
        i18n._release()


def test_every_alias_names_a_command_and_no_alias_is_an_english_word():
    for word, command in ALIASES.items():
        assert command in COMMANDS or command == "serve", word
        assert word not in COMMANDS, word
    required = ["tira", "compra", "rifiuta", "offerta", "aggiudica", "riscuoti", "carta",
                "paga-multa", "usa-carta", "costruisci", "vendi", "ipoteca", "riscatta",
                "scambia", "paga", "bancarotta", "annulla", "stato", "registro", "classifica"]
    assert set(required) <= set(ALIASES)


def test_the_board_in_italian_says_the_kind_of_a_space_not_the_command(tmp_path,
                                                                      monkeypatch):
    clear_locale(monkeypatch)
    out = run(tmp_path, "--lang", "it", "tabellone").splitlines()
    assert out[2].split() == ["pos", "casella", "tipo", "dettagli"]
    via = next(line for line in out if line.startswith("  0  Via!"))
    assert " via " in via and "stipendio di 200 M passando o fermandosi" in via


def test_every_reason_in_the_recorded_games_is_said_in_italian():
    """A fact's English reason is said through the template decide writes it from
    (cli/words/reasons.py); the only reasons left as written are the board's own words (a card,
    a tax: already in the edition's language)."""
    from banco.cli.words.reasons import known
    from banco.ledger.board.edition import EDITIONS, load_edition

    board_words = set()
    for name in EDITIONS:
        edition = load_edition(name)
        board_words |= {s.name for s in edition.spaces}
        board_words |= {f"{d.title} {n}" for d in edition.decks.values()
                        for n in range(1, len(d.cards) + 1)}
    from forge import schema1_games  # the recorded games as an older banco wrote them (schema 1)

    unknown = set()
    for name, events in sorted(schema1_games().items()):
        for e in events:
            reason = e.get("data", {}).get("reason")
            if reason and not known(reason) and reason not in board_words:
                unknown.add((name, e["type"], reason))
    assert unknown == set()


def test_the_shell_speaks_italian_and_completes_the_italian_words(tmp_path, monkeypatch):
    from banco.cli.banker.shell import BancoShell, words

    clear_locale(monkeypatch)
    assert {"compra", "buy", "paga-multa", "rivedi"} <= set(words())
    assert not {"run", "esegui", "shell"} & set(words())  # not inside the shell
    shell = BancoShell.__new__(BancoShell)
    assert sorted(shell.completenames("ri")) == ["rifiuta", "riscatta", "riscuoti", "rivedi"]
    monkeypatch.setenv("BANCO_HISTORY", "")
    out = run(tmp_path, "--lang", "it", "shell",
               input="nuova Anna Bruno\ntira 1 2\ncompra\nfoo\n", code=2)  # fed: `foo` failed
    assert "Anna (comprare)>   Anna paga 60 M alla Banca: comprato Vicolo Stretto" in out
    assert "nessun comando chiamato 'foo'" in out


def test_aiuto_lists_the_italian_words_first_in_their_order(tmp_path, monkeypatch):
    """`aiuto` in the shell listed `buy (compra)`, by the English words: in Italian each line
    starts with the Italian word, `compra (buy)`, in the Italian words' order, as `banco
    --help` lists them (`banco aiuto` groups them: tests/test_table_words.py)."""
    clear_locale(monkeypatch)
    monkeypatch.setenv("BANCO_HISTORY", "")
    run(tmp_path, "new", "Anna", "Bruno")
    for out in (run(tmp_path, "--lang", "it", "shell", input="aiuto tutto\n"),
                run(tmp_path, "--lang", "it", "--help")):
        listed = re.findall(r"(?m)^  (\S+) \([a-z-]+\)", out)
        assert listed == sorted(listed) and "compra" in listed and "buy" not in listed, listed
        assert listed.count("aiuto") == 1
        assert "\n  compra (buy) " in out and "\n  tira (roll) " in out
    shell = run(tmp_path, "--lang", "it", "shell", input="aiuto tutto\n")
    assert "`aiuto PAROLA` per una" in shell and "\n  partita (game) " in shell
    english = run(tmp_path, "shell", input="help all\n")
    assert "\n  buy               Buy the property" in english
    # `help` alone: the words grouped, as `banco help` says them, and the shell's own
    short = run(tmp_path, "shell", input="help\n")
    assert "Buy the property" not in short and "roll" in short and "the shell: help quit game" \
        in short and "`help all`: every word with its line" in short
    assert len(short.splitlines()) < 20
    italian = run(tmp_path, "--lang", "it", "shell", input="aiuto\n")
    assert "la shell: aiuto esci partita" in italian and "compra" in italian
    # `aiuto` is the shell's own word there, not an organiser's word as well (it was twice)
    assert italian.split().count("aiuto") == 1, italian


def test_the_report_page_in_italian(tmp_path, monkeypatch):
    clear_locale(monkeypatch)
    for args in GAME:
        run(tmp_path, *args)
    page = tmp_path / "r.html"
    run(tmp_path, "--lang", "it", "resoconto", "-o", str(page))
    html = page.read_text()
    assert '<html lang="it">' in html
    # a game in progress: not "the table at the end" (issue 20)
    assert "<h2>Il tavolo dopo l'evento " in html and ": la partita continua</h2>" in html
    assert "<h2>Cronologia</h2>" in html
    assert "Anna paga 60 M alla Banca: comprato Vicolo Stretto" in html
    # the chart's axis and label, and the highlights' tags (were English in the Italian page)
    assert re.search(r">evento \d+</text>", html)
    assert 'aria-label="patrimonio di ogni giocatore' in html
    assert ">event " not in html and 'class="tag">undo<' not in html
    run(tmp_path, "annulla")
    run(tmp_path, "--lang", "it", "resoconto", "-o", str(page), "--force")
    assert '<span class="tag">annullamento</span>' in page.read_text()
    run(tmp_path, "report", "-o", str(page), "--force")
    assert '<html lang="en">' in page.read_text() and "<h2>Timeline</h2>" in page.read_text()


def test_a_ruling_is_said_in_italian_and_recorded_as_data(tmp_path, monkeypatch):
    clear_locale(monkeypatch)
    for args in GAME:
        run(tmp_path, *args)
    out = run(tmp_path, "--lang", "it", "decisione", "auction", "17", "--record",
               "--referee", "Zoe")
    assert "decisione sull'asta all'evento 17 (regole classiche): Bastioni Gran Sasso" in out
    # the table names its rule set as `nuova` and the rulings do (it said `regole classic`)
    assert "all'evento 21 - regole classiche, edizione it" in run(tmp_path, "--lang", "it",
                                                                    "stato", "--at", "21")
    assert "verdetto: vinta da Anna per 70 M, pagati alla Banca all'evento" in out
    recorded = [d for _, t, d in _facts(str(tmp_path / "t.db")) if t == "RulingRecorded"]
    # recorded in no language: the verdict's code and parameters, the evidence as data
    assert recorded and recorded[0]["verdict"]["code"] == "auction_won"
    assert recorded[0]["verdict"]["player"] == "Anna" and "text" not in recorded[0]
    assert recorded[0]["verdict"]["amount"] == {"code": "money", "amount": 70}  # an integer
    assert recorded[0]["evidence"]["auctions"][0]["bids"][0]["player"] in ("Anna", "Bruno", "Carla")
    log_it = run(tmp_path, "--lang", "it", "log", "--tail", "1")
    assert "vinta da Anna per 70 M, pagati alla Banca all'evento" in log_it
    assert "won by Anna for 70 M" in run(tmp_path, "--lang", "en", "log", "--tail", "1")


def test_the_line_recorded_is_the_line_typed_with_the_italian_words(tmp_path, monkeypatch):
    """CommandRecorded keeps the line as typed: `decisione rent 16 ...` (a word of a group,
    through its alias) must not lose its first word, nor `tira` become `roll`."""
    clear_locale(monkeypatch)
    for line in ("nuova Anna Bruno Carla", "tira 3 2", "compra", "tira 2 3 --player bruno",
                 "tira 1 2 --player carla"):
        run(tmp_path, *line.split())
    run(tmp_path, "decisione", "rent", "16", "--claim-at", "17", "--record", "--referee", "Rita")
    # the group's own Italian words too: `decisione affitto` is `ruling rent`
    out = run(tmp_path, "--lang", "it", "decisione", "affitto", "16", "--record",
               "--referee", "Ugo")
    assert "registrata come evento" in out and "arbitro Ugo" in out
    conn = sqlite3.connect(tmp_path / "t.db")
    lines = [json.loads(d)["line"] for (d,) in conn.execute(
        "SELECT data FROM events WHERE type='CommandRecorded' ORDER BY seq")]
    rulings = [(json.loads(d)["kind"], json.loads(d)["referee"]) for (d,) in conn.execute(
        "SELECT data FROM events WHERE type='RulingRecorded' ORDER BY seq")]
    conn.close()
    assert lines[0] == "nuova Anna Bruno Carla" and lines[-3:] == [
        "tira 1 2 --player carla", "decisione rent 16 --claim-at 17 --record --referee Rita",
        "decisione affitto 16 --record --referee Ugo"]
    assert rulings == [("rent", "Rita"), ("rent", "Ugo")]


@pytest.mark.parametrize(("reason", "italian"), [
    ("built evenly: Viale Monterosa 1 house -> 2 houses, Viale Vesuvio 0 houses -> a hotel",
     "Viale Monterosa 1 casa -> 2 case, Viale Vesuvio 0 case -> un albergo"),
    ("sold a hotel on Vicolo Corto, 2 houses on Vicolo Stretto at half price",
     "un albergo su Vicolo Corto, 2 case su Vicolo Stretto"),
    ("the Bus: 8, both dice (000 FAQ 38)", "entrambi i dadi"),
    ("the Bus: 3, one die (000 FAQ 38)", "un dado"),
    ("the third doubles send Carla to jail (000 §SVOLGIMENTO 8)",
     "il terzo doppio manda Carla in prigione (000 §SVOLGIMENTO 8)"),
    ("Anna has not passed Via! yet (000 FAQ 35)", "Anna non ha ancora passato il Via!"),
])
def test_the_buildings_and_the_bus_inside_a_reason_are_said_in_italian(reason, italian):
    from banco.cli.words.reasons import say_reason

    try:
        i18n.use("it")
        said = say_reason(reason)
    finally:
        i18n.use("en")
    assert italian in said and said != reason
    assert say_reason(reason) == reason  # English: as written


def test_the_usage_lines_speak_the_user_s_language(tmp_path, monkeypatch):
    """The words of a usage line (metavars) are help text too: `[OPTIONS] BIDDER AMOUNT` in
    English, `[OPZIONI] OFFERENTE IMPORTO` in Italian, with their shape kept."""
    clear_locale(monkeypatch)
    assert "bid [OPTIONS] BIDDER AMOUNT" in run(tmp_path, "bid", "--help")
    out = run(tmp_path, "--lang", "it", "offerta", "--help")
    assert "offerta [OPZIONI] OFFERENTE IMPORTO" in out
    out = run(tmp_path, "--lang", "it", "bancarotta", "--help")
    assert "[OPZIONI] [DEBITORE] [--lift PROPRIETÀ...]" in out
    assert "--id CHIAVE" in run(tmp_path, "--lang", "it", "tira", "--help")
    # and back: the same process says English again
    assert "bid [OPTIONS] BIDDER AMOUNT" in run(tmp_path, "bid", "--help")


def test_what_only_an_owner_may_do_is_said_whole_in_italian(tmp_path, monkeypatch):
    """`nobody can {action} it`: the action is a word of its own in the catalog (it was left
    English inside the Italian sentence: "nessuno può build on")."""
    clear_locale(monkeypatch)
    run(tmp_path, "new", "Anna", "Bruno")
    out = run(tmp_path, "--lang", "it", "costruisci", "azzurro", "1", code=1)
    assert "nessuno può costruirci" in out and "build on" not in out
    out = run(tmp_path, "--lang", "it", "ipoteca", "vicolo", "corto", code=1)
    assert "nessuno può ipotecarla" in out
    assert "nobody can build on it" in run(tmp_path, "build", "azzurro", "1", code=1)


def test_the_board_s_note_on_its_sources_in_the_table_s_language(tmp_path, monkeypatch):
    from banco.ledger.board.edition import EDITIONS, load_edition

    assert all(load_edition(n).notes_it for n in EDITIONS if load_edition(n).notes)
    clear_locale(monkeypatch)
    run(tmp_path, "new", "Anna", "Bruno", "--rules", "vintage")  # edition it-lire
    out = run(tmp_path, "--lang", "it", "tabellone")
    assert "Importi in lire" in out and "Figures in lire" not in out
    assert "Figures in lire" in run(tmp_path, "board")
