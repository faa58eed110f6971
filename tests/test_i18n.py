"""Italian and English: the catalogs are complete and compiled, the language is chosen as
documented, and only the edges speak it (the log's facts stay English)."""

from __future__ import annotations

import json
import re
import sqlite3
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from banco.cli.main import ALIASES, COMMANDS, cli
from banco.cli.words import i18n
from banco.ledger.base.errors import RuleViolation

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "tools"))

import catalogs  # noqa: E402  (tests/tools/catalogs.py: extraction and compiling, by Babel)
from conftest import LOCALE_VARS  # noqa: E402


@pytest.fixture(scope="module")
def template():
    return catalogs.extract()


# --- the catalogs --------------------------------------------------------------------------


@pytest.mark.parametrize("lang", catalogs.LANGUAGES)
def test_every_marked_message_is_translated_with_the_same_placeholders(lang, template):
    assert catalogs.problems(lang, template) == []


def test_the_extraction_finds_refusals_help_headings_and_contexts(template):
    ids = {m.id if isinstance(m.id, str) else m.id[0] for m in template}
    assert "{name} has {cash} in cash and {space} costs {price}" in ids  # a RuleViolation
    assert "Buy the property the current player stands on." in ids  # a command's help
    assert "net worth" in ids  # a heading inside an f-string
    assert template.get("go", context="space kind") is not None  # pgettext
    assert "Show this message and exit." in ids  # click's own words
    # a marker inside another's arguments, which Babel skips: it stayed English in Italian
    assert "nobody is in debt" in ids and "say who: {items} owe money" in ids
    nested = list(catalogs._nested('raise RuleViolation(msg("a") if x else msg("b {n}", n=1), '
                                   'allowed=msg("c"))\nmsg("top")', "f.py"))
    assert [m for m, _where, _ctx in nested] == ["a", "b {n}", "c"]


def test_a_missing_or_mismatched_translation_is_reported(template, tmp_path, monkeypatch):
    """The check itself fails on what it is there to catch."""
    from babel.messages.pofile import write_po

    catalog = catalogs.read_po("it")
    catalog.get("{player} to roll").string = "tocca a {giocatore} tirare"
    catalog.get("Buy the property the current player stands on.").string = ""
    po = tmp_path / "it" / "LC_MESSAGES" / "banco.po"
    po.parent.mkdir(parents=True)
    with open(po, "wb") as f:
        write_po(f, catalog)
    monkeypatch.setattr(catalogs, "LOCALE", tmp_path)
    found = catalogs.problems("it", template)
    assert any("'{player} to roll' is said with" in p for p in found), found
    assert any("'Buy the property the current player stands on.' has no translation" in p
               for p in found), found
    assert len(found) == 2


@pytest.mark.parametrize("lang", catalogs.LANGUAGES)
def test_the_shipped_mo_is_the_po_compiled(lang):
    shipped = catalogs.po_path(lang).with_suffix(".mo").read_bytes()
    assert shipped == catalogs.compiled(lang), "run `python tests/tools/catalogs.py compile`"


# --- choosing the language -----------------------------------------------------------------


@pytest.mark.parametrize("env, lang", [
    ({}, "en"),
    ({"LANG": "it_IT.UTF-8"}, "it"),
    ({"LANG": "de_DE.UTF-8"}, "en"),
    ({"LANG": "C.UTF-8"}, "en"),
    ({"LANG": "en_GB.UTF-8", "LC_ALL": "it_IT.UTF-8"}, "it"),
    ({"LANGUAGE": "de:it", "LANG": "en_US.UTF-8"}, "it"),
    ({"LANG": "it_IT.UTF-8", "BANCO_LANG": "en"}, "en"),
    ({"LANG": "en_US.UTF-8", "BANCO_LANG": "it"}, "it"),
])
def test_the_language_comes_from_banco_lang_else_the_locale_else_english(env, lang):
    assert i18n.from_environment(env) == lang


def _clear_locale(monkeypatch, **env):
    for var in LOCALE_VARS:
        monkeypatch.delenv(var, raising=False)
    for var, value in env.items():
        monkeypatch.setenv(var, value)


def _run(tmp_path, *args, code=0, input=None):
    result = CliRunner().invoke(cli, ["--db", str(tmp_path / "t.db"), *args], input=input,
                                catch_exceptions=False)
    assert result.exit_code == code, (args, result.output)
    return result.output


@pytest.mark.parametrize("where", ["before", "after"])
def test_lang_is_a_global_option_also_after_the_command(tmp_path, monkeypatch, where):
    _clear_locale(monkeypatch)
    _run(tmp_path, "new", "Anna", "Bruno")
    args = ["--lang", "it", "state"] if where == "before" else ["state", "--lang", "it"]
    out = _run(tmp_path, *args)
    assert "turno: Anna (tirare)" in out
    assert "giocatore" in out and "cassa" in out
    assert "prossimo: tocca ad Anna: `tira D1 D2`" in out


def test_the_locale_speaks_italian_and_banco_lang_overrides_it(tmp_path, monkeypatch):
    _clear_locale(monkeypatch, LANG="it_IT.UTF-8")
    out = _run(tmp_path, "new", "Anna", "Bruno")
    assert out.startswith("partita 1: Anna, Bruno con 1500 M a testa")
    monkeypatch.setenv("BANCO_LANG", "en")
    assert "next: Anna to `roll D1 D2`" in _run(tmp_path, "state")
    monkeypatch.delenv("BANCO_LANG")
    assert "prossimo: tocca ad Anna: `tira D1 D2`" in _run(tmp_path, "state")
    assert "next: Anna to `roll D1 D2`" in _run(tmp_path, "--lang", "en", "state")


def test_one_run_in_italian_leaves_the_next_in_english(tmp_path, monkeypatch):
    """The language is the run's: an in-process run (a test, a shell line) does not leave
    it behind, nor in LANGUAGE for a child process."""
    _clear_locale(monkeypatch)
    _run(tmp_path, "new", "Anna", "Bruno")
    assert "tocca ad Anna: `tira D1 D2`" in _run(tmp_path, "--lang", "it", "state")
    assert "Anna to `roll D1 D2`" in _run(tmp_path, "state")
    import os

    assert "LANGUAGE" not in os.environ


def test_help_and_clicks_own_words_in_italian(tmp_path, monkeypatch):
    _clear_locale(monkeypatch)
    out = _run(tmp_path, "--lang", "it", "--help")
    assert out.startswith("Uso: ") and "[OPZIONI] COMANDO [ARGOMENTI]..." in out.splitlines()[0]
    assert "Opzioni:" in out and "Comandi:" in out
    assert "Mostra questo messaggio ed esci." in out
    assert "Codici di uscita:" in out
    assert "\n  compra (buy) " in out and "\n  tira (roll) " in out  # the Italian word first
    out = _run(tmp_path, "buy", "--help", "--lang", "it")
    assert "Compra la proprietà su cui si trova il giocatore di turno." in out
    out = _run(tmp_path, "--lang", "it", "tira", "--help")
    assert "Registra i dadi: tira D1 D2." in out
    out = _run(tmp_path, "--help")
    assert "Show this message and exit." in out and "Uso:" not in out


def test_a_misspelt_command_in_italian(tmp_path, monkeypatch):
    _clear_locale(monkeypatch)
    out = _run(tmp_path, "--lang", "it", "compar", code=2)
    assert "errore: nessun comando chiamato 'compar': intendevi compra o " in out


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
    _clear_locale(monkeypatch)
    (tmp_path / "en").mkdir()
    (tmp_path / "it").mkdir()
    for args in GAME:
        _run(tmp_path / "en", *args)
    outputs = [_run(tmp_path / "it", "--lang", "it", *args) for args in GAME_IT]
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
    _clear_locale(monkeypatch)
    _run(tmp_path, "new", "Anna", "Bruno")
    out = _run(tmp_path, "--lang", "it", "buy", code=1)
    assert out.startswith("non ammesso: impossibile comprare ora (")
    assert "\n  consentito: tocca ad Anna tirare" in out or "consentito:" in out
    out = _run(tmp_path, "buy", code=1)
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
    _clear_locale(monkeypatch)
    out = _run(tmp_path, "--lang", "it", "tabellone").splitlines()
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
    unknown = set()
    for path in sorted((ROOT / "fixtures").glob("*.events.json")):
        for e in json.loads(path.read_text()):
            reason = e.get("data", {}).get("reason")
            if reason and not known(reason) and reason not in board_words:
                unknown.add((path.name, e["type"], reason))
    assert unknown == set()


def test_the_shell_speaks_italian_and_completes_the_italian_words(tmp_path, monkeypatch):
    from banco.cli.banker.shell import BancoShell, words

    _clear_locale(monkeypatch)
    assert {"compra", "buy", "paga-multa", "rivedi"} <= set(words())
    assert not {"run", "esegui", "shell"} & set(words())  # not inside the shell
    shell = BancoShell.__new__(BancoShell)
    assert sorted(shell.completenames("ri")) == ["rifiuta", "riscatta", "riscuoti", "rivedi"]
    monkeypatch.setenv("BANCO_HISTORY", "")
    out = _run(tmp_path, "--lang", "it", "shell",
               input="nuova Anna Bruno\ntira 1 2\ncompra\nfoo\n", code=2)  # fed: `foo` failed
    assert "Anna (comprare)>   Anna paga 60 M alla Banca: comprato Vicolo Stretto" in out
    assert "nessun comando chiamato 'foo'" in out


def test_aiuto_lists_the_italian_words_first_in_their_order(tmp_path, monkeypatch):
    """`aiuto` in the shell listed `buy (compra)`, by the English words: in Italian each line
    starts with the Italian word, `compra (buy)`, in the Italian words' order, as `banco
    --help` lists them (`banco aiuto` groups them: tests/test_table_words.py)."""
    _clear_locale(monkeypatch)
    monkeypatch.setenv("BANCO_HISTORY", "")
    _run(tmp_path, "new", "Anna", "Bruno")
    for out in (_run(tmp_path, "--lang", "it", "shell", input="aiuto tutto\n"),
                _run(tmp_path, "--lang", "it", "--help")):
        listed = re.findall(r"(?m)^  (\S+) \([a-z-]+\)", out)
        assert listed == sorted(listed) and "compra" in listed and "buy" not in listed, listed
        assert listed.count("aiuto") == 1
        assert "\n  compra (buy) " in out and "\n  tira (roll) " in out
    shell = _run(tmp_path, "--lang", "it", "shell", input="aiuto tutto\n")
    assert "`aiuto PAROLA` per una" in shell and "\n  partita (game) " in shell
    english = _run(tmp_path, "shell", input="help all\n")
    assert "\n  buy               Buy the property" in english
    # `help` alone: the words grouped, as `banco help` says them, and the shell's own
    short = _run(tmp_path, "shell", input="help\n")
    assert "Buy the property" not in short and "roll" in short and "the shell: help quit game" \
        in short and "`help all`: every word with its line" in short
    assert len(short.splitlines()) < 20
    italian = _run(tmp_path, "--lang", "it", "shell", input="aiuto\n")
    assert "la shell: aiuto esci partita" in italian and "compra" in italian
    # `aiuto` is the shell's own word there, not an organiser's word as well (it was twice)
    assert italian.split().count("aiuto") == 1, italian


def test_the_report_page_in_italian(tmp_path, monkeypatch):
    _clear_locale(monkeypatch)
    for args in GAME:
        _run(tmp_path, *args)
    page = tmp_path / "r.html"
    _run(tmp_path, "--lang", "it", "resoconto", "-o", str(page))
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
    _run(tmp_path, "annulla")
    _run(tmp_path, "--lang", "it", "resoconto", "-o", str(page), "--force")
    assert '<span class="tag">annullamento</span>' in page.read_text()
    _run(tmp_path, "report", "-o", str(page), "--force")
    assert '<html lang="en">' in page.read_text() and "<h2>Timeline</h2>" in page.read_text()


def test_a_ruling_is_said_in_italian_and_recorded_as_data(tmp_path, monkeypatch):
    _clear_locale(monkeypatch)
    for args in GAME:
        _run(tmp_path, *args)
    out = _run(tmp_path, "--lang", "it", "decisione", "auction", "17", "--record",
               "--referee", "Zoe")
    assert "decisione sull'asta all'evento 17 (regole classiche): Bastioni Gran Sasso" in out
    # the table names its rule set as `nuova` and the rulings do (it said `regole classic`)
    assert "all'evento 21 - regole classiche, edizione it" in _run(tmp_path, "--lang", "it",
                                                                    "stato", "--at", "21")
    assert "verdetto: vinta da Anna per 70 M, pagati alla Banca all'evento" in out
    recorded = [d for _, t, d in _facts(str(tmp_path / "t.db")) if t == "RulingRecorded"]
    # recorded in no language: the verdict's code and parameters, the evidence as data
    assert recorded and recorded[0]["verdict"]["code"] == "auction_won"
    assert recorded[0]["verdict"]["player"] == "Anna" and "text" not in recorded[0]
    assert recorded[0]["verdict"]["amount"] == {"code": "money", "amount": 70}  # an integer
    assert recorded[0]["evidence"]["auctions"][0]["bids"][0]["player"] in ("Anna", "Bruno", "Carla")
    log_it = _run(tmp_path, "--lang", "it", "log", "--tail", "1")
    assert "vinta da Anna per 70 M, pagati alla Banca all'evento" in log_it
    assert "won by Anna for 70 M" in _run(tmp_path, "--lang", "en", "log", "--tail", "1")


def test_the_line_recorded_is_the_line_typed_with_the_italian_words(tmp_path, monkeypatch):
    """CommandRecorded keeps the line as typed: `decisione rent 16 ...` (a word of a group,
    through its alias) must not lose its first word, nor `tira` become `roll`."""
    _clear_locale(monkeypatch)
    for line in ("nuova Anna Bruno Carla", "tira 3 2", "compra", "tira 2 3 --player bruno",
                 "tira 1 2 --player carla"):
        _run(tmp_path, *line.split())
    _run(tmp_path, "decisione", "rent", "16", "--claim-at", "17", "--record", "--referee", "Rita")
    # the group's own Italian words too: `decisione affitto` is `ruling rent`
    out = _run(tmp_path, "--lang", "it", "decisione", "affitto", "16", "--record",
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
    _clear_locale(monkeypatch)
    assert "bid [OPTIONS] BIDDER AMOUNT" in _run(tmp_path, "bid", "--help")
    out = _run(tmp_path, "--lang", "it", "offerta", "--help")
    assert "offerta [OPZIONI] OFFERENTE IMPORTO" in out
    out = _run(tmp_path, "--lang", "it", "bancarotta", "--help")
    assert "[OPZIONI] [DEBITORE] [--lift PROPRIETÀ...]" in out
    assert "--id CHIAVE" in _run(tmp_path, "--lang", "it", "tira", "--help")
    # and back: the same process says English again
    assert "bid [OPTIONS] BIDDER AMOUNT" in _run(tmp_path, "bid", "--help")


def test_what_only_an_owner_may_do_is_said_whole_in_italian(tmp_path, monkeypatch):
    """`nobody can {action} it`: the action is a word of its own in the catalog (it was left
    English inside the Italian sentence: "nessuno può build on")."""
    _clear_locale(monkeypatch)
    _run(tmp_path, "new", "Anna", "Bruno")
    out = _run(tmp_path, "--lang", "it", "costruisci", "azzurro", "1", code=1)
    assert "nessuno può costruirci" in out and "build on" not in out
    out = _run(tmp_path, "--lang", "it", "ipoteca", "vicolo", "corto", code=1)
    assert "nessuno può ipotecarla" in out
    assert "nobody can build on it" in _run(tmp_path, "build", "azzurro", "1", code=1)


def test_the_board_s_note_on_its_sources_in_the_table_s_language(tmp_path, monkeypatch):
    from banco.ledger.board.edition import EDITIONS, load_edition

    assert all(load_edition(n).notes_it for n in EDITIONS if load_edition(n).notes)
    _clear_locale(monkeypatch)
    _run(tmp_path, "new", "Anna", "Bruno", "--rules", "vintage")  # edition it-lire
    out = _run(tmp_path, "--lang", "it", "tabellone")
    assert "Importi in lire" in out and "Figures in lire" not in out
    assert "Figures in lire" in _run(tmp_path, "board")


# --- Italian prepositions --------------------------------------------------------------------


@pytest.mark.parametrize("prep, phrase, said", [
    ("a", "Anna", "ad Anna"), ("A", "Anna", "Ad Anna"), ("a", "Bruno", "a Bruno"),
    ("a", "Elena", "a Elena"),  # modern usage: "ad" only before an a
    ("e", "Elena", "ed Elena"), ("e", "Anna", "e Anna"), ("a", "'anna'", "ad 'anna'"),
    ("a", "Àlvaro", "ad Àlvaro"), ("a", "la Banca", "alla Banca"), ("da", "la Banca", "dalla Banca"),
    ("di", "il Via!", "del Via!"), ("in", "l'asta", "nell'asta"), ("su", "gli Imprevisti",
                                                                  "sugli Imprevisti"),
    ("e", "la Banca", "e la Banca"), ("a", "Lapo", "a Lapo"), ("a", "1500 M", "a 1500 M"),
])
def test_an_italian_preposition_joins_the_word_that_follows(prep, phrase, said):
    assert i18n.join_preposition(prep, phrase) == said


def test_italian_messages_join_their_prepositions_and_english_ones_do_not(tmp_path, monkeypatch):
    """A name or a phrase filled in after `a`/`e` in the Italian catalog: "tocca ad Anna",
    "Anna ed Elena", "deve 200 M alla Banca" (the Bank is a phrase, "la Banca")."""
    from banco.ledger.base.text import msg

    owed = msg("{amount} to {creditor} ({reason})", amount="200 M", creditor=msg("the Bank"),
               reason="tax")  # a debt as `state` lists it (ledger/table/state.py)
    trade = msg("a trade with {active}; {a} and {b} may agree it once {active}'s turn is over",
                active="Carla", a="Anna", b="Elena")
    i18n.use("it")
    try:
        assert i18n.say(owed) == "200 M alla Banca (tax)"
        assert i18n.say(trade).startswith("uno scambio con Carla; Anna ed Elena possono")
        assert i18n._("{player} to roll").format(player="Anna") == "tocca ad Anna tirare"
        assert i18n._("{player} to roll").format(player="Bruno") == "tocca a Bruno tirare"
    finally:
        i18n._release()
    assert i18n.say(owed) == "200 M to the Bank (tax)"
    _clear_locale(monkeypatch)
    _run(tmp_path, "new", "Bruno", "Anna")
    _run(tmp_path, "roll", "1", "2")
    assert _run(tmp_path, "--lang", "it", "buy").endswith("\ntocca ad Anna tirare\n")


def test_a_tie_among_bidders_is_said_as_a_list_with_and():
    """`hammer PLAYER` among "Anna, Bruno, Elena" read as a list cut short: "Anna, Bruno and
    Elena", and in Italian "Anna, Bruno ed Elena"."""
    from helpers import new_table

    from banco.ledger.table.state import Auction, next_step

    t = new_table(("Anna", "Bruno", "Elena"))
    t = t._replace(auction=Auction(property=3, min_bid=1, step=1),
                   turn=t.turn._replace(phase="auction"))
    step = next_step(t)
    assert "`hammer PLAYER` among Anna, Bruno and Elena (no bid" in str(step)
    i18n.use("it")
    try:
        assert "`aggiudica GIOCATORE` fra Anna, Bruno ed Elena (nessuna offerta" in i18n.say(step)
    finally:
        i18n._release()


def test_what_cannot_be_done_now_is_said_with_an_infinitive(tmp_path, monkeypatch):
    """"impossibile paga la multa ora": every action said after "impossibile" is a verb's
    infinitive, as `tirare` and `comprare` are."""
    _clear_locale(monkeypatch)
    _run(tmp_path, "new", "Anna", "Bruno")
    _run(tmp_path, "roll", "1", "2")
    assert _run(tmp_path, "--lang", "it", "paga-multa", code=1).startswith(
        "non ammesso: impossibile pagare la multa ora (")
    assert _run(tmp_path, "--lang", "it", "usa-carta", code=1).startswith(
        "non ammesso: impossibile usare una carta ora (")


def test_an_undo_says_its_reason_in_italian(tmp_path, monkeypatch):
    """`annullato: evento 72 (undo: TradeCompleted ...)`: an undo says in Italian words what
    it takes back, with no event types (issue 20); the log keeps the recorded reason."""
    _clear_locale(monkeypatch)
    _run(tmp_path, "new", "Anna", "Bruno")
    _run(tmp_path, "roll", "1", "2")
    out = _run(tmp_path, "--lang", "it", "annulla")
    assert out.startswith("annullato: `roll 1 2` (eventi 6-8): Anna torna su Via!"), out
    assert "undo:" not in out and "DiceRolled" not in out


def test_a_bankruptcy_is_said_in_italian_whoever_went_bankrupt(tmp_path, monkeypatch):
    """The state's column said `dichiarare bancarotta` (the command) for a bankrupt player, and
    the end `Anna è andato in bancarotta` (a man's participle): `in bancarotta`, `bancarotta
    di Anna`, whoever it is."""
    _clear_locale(monkeypatch)
    _run(tmp_path, "new", "Anna", "Bruno")
    _run(tmp_path, "correct", "Anna", "-1400", "--reason", "test", "--referee", "Rita")
    _run(tmp_path, "roll", "1", "3")  # the 200 M tax: 100 M short
    out = _run(tmp_path, "--lang", "it", "bancarotta")
    assert "(bancarotta di Anna; resta solo Bruno (003 §11))" in out, out
    assert "\nAnna             0 M  in bancarotta\n" in _run(tmp_path, "--lang", "it", "stato")
    assert "\nAnna             0 M  bankrupt\n" in _run(tmp_path, "state")


def test_a_player_s_past_is_said_whoever_the_player_is():
    """`Anna è passato dal Via!`: a man's participle for whoever it was; `ha già passato il
    Via!` says it of anyone."""
    from helpers import new_table, place

    from banco.ledger.rules.speedy import check_face

    t = new_table(("Anna", "Bruno"), rules="championship")
    anna = place(t, "Anna", 5, passed_go=True).player("Anna")
    with pytest.raises(RuleViolation, match="Anna has passed Via!") as err:
        check_face(t, anna, None)
    i18n.use("it")
    try:
        assert i18n.say_error(err.value).startswith(
            "non ammesso: Anna ha già passato il Via!: i due dadi e il dado Speedy si tirano")
    finally:
        i18n._release()


def test_an_option_ending_in_a_preposition_is_no_preposition():
    """`--fino-a {level}` filled with `albergo` read "--fino-ad albergo" (an option that
    does not exist): the euphonic d joins a preposition of its own, never an option's end."""
    assert i18n.italian_format("`costruisci {name} --fino-a {level}`", name="Via Roma",
                               level="albergo") == "`costruisci Via Roma --fino-a albergo`"
    assert i18n.italian_format("paga a {name}", name="Anna") == "paga ad Anna"
