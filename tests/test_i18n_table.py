"""The Italian a table reads, found English or half English by a newcomer: a debt's reason in
`stato` and after a refusal, click's own errors, the commands named in advice, BANCO_LANG, the
participles said of any player, the plurals, the statement's Bank."""

from __future__ import annotations

import re

import pytest

# the same CLI runner as the other Italian messages' tests
from conftest import LOCALE_VARS
from test_i18n_messages import run

from banco.cli.words import i18n

pytestmark = pytest.mark.usefixtures("no_locale")


@pytest.fixture
def in_debt(tmp_path):
    """Bruno owes Anna 4 M rent on Vicolo Stretto and can raise only 2 M."""
    db = tmp_path / "t.db"
    run(db, "new", "Anna", "Bruno")
    run(db, "roll", 1, 2)
    run(db, "buy")
    run(db, "correct", "Bruno", "-1498", "--reason", "test", "--referee", "Rita")
    run(db, "roll", 1, 2)
    run(db, "claim", "Anna")
    return db


def test_a_debt_s_reason_is_said_in_italian_in_the_next_step_and_the_refusals(in_debt):
    state = run(in_debt, "--lang", "it", "stato")
    assert ("prossimo: Bruno deve 4 M ad Anna (affitto su Vicolo Stretto) e può procurarsi "
            "solo 2 M: `bancarotta Bruno`") in state
    refused = run(in_debt, "--lang", "it", "tira", 1, 1, code=1)
    assert refused.startswith("non ammesso: impossibile tirare: Bruno deve 4 M ad Anna (affitto "
                              "su Vicolo Stretto) (003 §10)\n"), refused
    assert "  consentito: Bruno deve 4 M ad Anna (affitto su Vicolo Stretto) e può" in refused
    assert "rent on" not in state + refused
    # English stays English
    assert "(rent on Vicolo Stretto)" in run(in_debt, "roll", 1, 1, code=1)


def test_the_statement_says_the_bank_in_the_table_s_language(in_debt):
    out = run(in_debt, "--lang", "it", "estratto", "Anna")
    assert "   10      -60     1440  Banca      comprato Vicolo Stretto\n" in out, out
    assert "bank" not in out
    english = run(in_debt, "statement", "Anna")
    assert "   10      -60     1440  Bank       bought Vicolo Stretto\n" in english, english
    # the data keeps its word
    assert '"counterparty": "bank"' in run(in_debt, "statement", "Anna", "--json")


def test_click_s_own_errors_are_said_whole_in_italian(tmp_path):
    db = tmp_path / "t.db"
    run(db, "new", "Anna", "Bruno")
    out = run(db, "--lang", "it", "log", "--tail", "5O", code=2)
    assert "errore: Valore non valido per '--tail': '5O' non è un numero intero valido." in out
    assert "integer" not in out
    # banco's own reading of an amount says it in the same words (it said "integer")
    out = run(db, "--lang", "it", "offerta", "Bruno", "5O", code=2)
    assert "errore: '5O' non è un numero intero valido: forse 50? (una lettera battuta al " \
        "posto di una cifra)" in out and "integer" not in out
    # a full-width digit likewise (an input method left on): said, never read
    out = run(db, "--lang", "it", "offerta", "Bruno", "１０", code=2)
    assert "errore: '１０' non è un numero intero valido: forse 10? (scrivi le cifre 0-9)" in out
    assert "did you mean 10? (type the digits 0-9)" in run(db, "bid", "Bruno", "１０", code=2)
    out = run(db, "--lang", "it", "run", tmp_path / "nofile.banco", code=2)
    assert f"'{tmp_path}/nofile.banco': file o cartella inesistente" in out, out
    assert f"'{tmp_path}': è una cartella" in run(db, "--lang", "it", "run", tmp_path, code=2)
    # English as click says it
    assert "'5O' is not a valid integer." in run(db, "log", "--tail", "5O", code=2)
    assert "nofile.banco': No such file or directory" in run(
        db, "run", tmp_path / "nofile.banco", code=2)


def test_a_system_error_inside_a_message_is_said_in_italian(tmp_path):
    from banco.ledger.records.seals import KeyFileError, load_public_key

    (tmp_path / "k").mkdir()
    with pytest.raises(KeyFileError, match="cannot read the public key .*k: Is a directory") as err:
        load_public_key(str(tmp_path / "k"))
    i18n.use("it")
    try:
        said = i18n.say(err.value.text)
    finally:
        i18n._release()
    assert said.endswith(f"{tmp_path}/k: è una cartella"), said


def _italian_msgstrs():
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent / "tools"))
    import catalogs

    for m in catalogs.read_po("it"):
        if m.id and not m.context:
            yield from (m.string if isinstance(m.string, tuple) else (m.string,))


def test_italian_advice_names_the_italian_command_words():
    """`banco doctor --repair` in an Italian message, while `classifica` said `banco verifica`:
    a command (and a tournament's or a ruling's subcommand) with an Italian word is named by
    it, after `banco` and at the start of a quoted line."""
    import re

    from banco.cli.lines.vocabulary import ALIASES, ITALIAN_WORDS
    from banco.cli.main import COMMANDS

    italian = ITALIAN_WORDS  # the words shown
    subwords = {"tournament": {"new", "add", "standings", "export"},
                "ruling": {"rent", "auction", "bankruptcy", "jail"}}
    choice = "la scelta è `pay` o `draw`"  # the card's choice, typed as it is in either language
    wrong = []
    for text in _italian_msgstrs():
        for word, sub in re.findall(r"\bbanco ([a-z][a-z-]*)(?: ([a-z][a-z-]*))?", text):
            if word in italian or (sub and sub in subwords.get(ALIASES.get(word, word), ())):
                wrong.append(text)
        for word in re.findall(r"`([a-z][a-z-]*)\b", text):
            if word in COMMANDS and word in italian and choice not in text:
                wrong.append(text)
    assert wrong == []


def test_an_unknown_banco_lang_is_warned_of_once_on_stderr(tmp_path):
    """`--lang fr` is refused while BANCO_LANG=fr was ignored without a word."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    banco = Path(sys.executable).parent / "banco"
    env = {k: v for k, v in os.environ.items() if k not in LOCALE_VARS}
    db = tmp_path / "t.db"

    def call(*args, lang="fr", stdin=None):
        return subprocess.run([str(banco), "--db", str(db), *args], capture_output=True,
                              text=True, env={**env, "BANCO_LANG": lang}, input=stdin,
                              timeout=60)

    warning = "BANCO_LANG=fr is not a language banco speaks (it, en): English\n"
    made = call("new", "Anna", "Bruno")
    assert made.returncode == 0 and made.stderr == warning, made.stderr
    assert made.stdout.startswith("game 1: Anna, Bruno with 1500 M each")
    # a shell's lines are one run: one warning
    shell = call("shell", stdin="state\nstate\n")
    assert shell.stderr.count("BANCO_LANG=fr") == 1, shell.stderr
    # --lang says the language: no warning; nor for a language banco speaks
    assert call("--lang", "it", "state").stderr == ""
    assert call("state", lang="it_IT").stderr == ""
    refused = call("--lang", "fr", "state")
    assert refused.returncode == 2 and "BANCO_LANG" not in refused.stderr
    # passed over for the locale, which still says (it used to fall back to English)
    italian = subprocess.run([str(banco), "--db", str(db), "state"], capture_output=True,
                             text=True, env={**env, "BANCO_LANG": "fr", "LANG": "it_IT.UTF-8"},
                             timeout=60)
    assert italian.stderr == "BANCO_LANG=fr non è una lingua che banco parla (it, en): italiano\n"
    assert "turno: Anna (tirare)" in italian.stdout, italian.stdout


# a player's name, then what is said of the player with a man's participle or adjective:
# "{payer} si è fermato", "{player} non era stato mandato", "{player}, il più ricco"
_PLAYER = r"\{(?:payer|payee|player|debtor|bidder|high_bidder|winner|owner|seller|closer)\}"
_GENDERED = re.compile(
    _PLAYER + r",? (?:non )?(?:si |ci |ne )?(?:è|era|sia|fosse) (?:ancora |già |stato )?"
              r"[a-z]+(?:at|ut|it|ss|rs|ol)o\b"
    + "|" + _PLAYER + r",? (?:che )?(?:è |non è )?il più ricco"
    # a participle that opens a note about the player ("uscito all'evento 12")
    + r"|(?:^|, poi )(?:andato|uscito|fermo|passato|mandato) ")


def test_what_is_said_of_a_player_fits_a_player_of_either_sex():
    """`{payer} si è fermato su...`, `{player} è uscito di prigione`: said of Anna as of
    Bruno ("{payer}: sosta su...", "esce di prigione", "è in testa")."""
    wrong = [_GENDERED.search(text).group(0) for text in _italian_msgstrs()
             if _GENDERED.search(text)]
    assert wrong == []


@pytest.mark.parametrize("text", [
    "{payer} si è fermato su {space}", "{player} non era stato mandato in prigione",
    "{player} non è ancora passato dal Via!", "{player} è uscito di prigione ({way})",
    "{player} è stato dichiarato in bancarotta", "{player}, il più ricco, lo prende",
    "{player} è il più ricco con {amount}", "uscito all'evento {seq}", "passato dal Via!",
    ", poi andato su {space}"])
def test_the_participle_check_finds_them(text):
    assert _GENDERED.search(text)


def _said(violation) -> tuple[str, str]:
    """A refusal in English (str) and in Italian."""
    i18n.use("it")
    try:
        return str(violation), i18n.say_error(violation)
    finally:
        i18n._release()


@pytest.mark.parametrize("bank_houses,english,italian", [
    (5, "needs 6 houses from the Bank, which has 5 houses and 12 hotels",
     "richiede 6 case dalla Banca, che ha 5 case e 12 alberghi"),
    (1, "needs 6 houses from the Bank, which has 1 house and 12 hotels",
     "richiede 6 case dalla Banca, che ha 1 casa e 12 alberghi"),
])
def test_a_count_of_buildings_agrees_with_its_noun(bank_houses, english, italian):
    """`6 house(s)`, `5 casa/e`: the noun said in the form its count takes."""
    from helpers import POS, BuildTo, new_table, own, play

    from banco.ledger.base.errors import RuleViolation

    verde = ("Via Roma", "Corso Impero", "Largo Augusto")
    t = own(new_table(), "Anna", *verde)._replace(bank_houses=bank_houses)
    with pytest.raises(RuleViolation, match="building to 2 houses needs") as err:
        play(t, BuildTo(tuple(POS[n] for n in verde), 2))
    said, detto = _said(err.value)
    assert english in said and italian in detto, (said, detto)
    assert "(s)" not in said and "/e" not in detto and "/i" not in detto


def test_get_out_of_jail_cards_are_counted_in_the_form_their_number_takes():
    from helpers import Items, Trade, new_table

    from banco.ledger.base.errors import RuleViolation

    t = new_table()
    with pytest.raises(RuleViolation, match="Anna holds 0 get-out-of-jail cards") as err:
        from helpers import play

        play(t, Trade("Anna", "Bruno", Items(jail_cards=1), Items(cash=10)))
    assert _said(err.value)[1].startswith("non ammesso: Anna ha 0 carte per uscire di prigione")


@pytest.mark.parametrize(("reason", "english", "italian"), [
    ("hotel on Vicolo Corto sold: 1 house(s) back on the lot, 3 paid at half value",
     "hotel on Vicolo Corto sold: 1 house back on the lot, 3 paid at half value",
     "venduto l'albergo su Vicolo Corto: 1 casa di nuovo sul terreno, 3 a metà valore"),
    ("hotel on Vicolo Corto sold: 4 house(s) back on the lot",
     "hotel on Vicolo Corto sold: 4 houses back on the lot",
     "venduto l'albergo su Vicolo Corto: 4 case di nuovo sul terreno"),
    ("hotel on Via Roma broken up into 2 house(s)", "hotel on Via Roma broken up into 2 houses",
     "albergo su Via Roma smontato in 2 case"),
    ("Tassa: 3 house(s) x 25 M + 1 hotel(s) x 100 M", "Tassa: 3 houses x 25 M + 1 hotel x 100 M",
     "Tassa: 3 case x 25 M + 1 albergo x 100 M"),
])
def test_a_recorded_reason_s_count_of_buildings_is_said_agreeing(reason, english, italian):
    """The log keeps `2 house(s)` (the audit re-derives it); what is shown agrees."""
    from banco.cli.words.reasons import say_reason

    assert say_reason(reason) == english
    i18n.use("it")
    try:
        assert say_reason(reason) == italian
    finally:
        i18n._release()


def test_no_italian_message_says_a_plural_with_a_slash():
    """`casa/e`, `partita/e`, `albergo/i`: every count is said in the form its number takes
    (the catalog has Italian's three plural forms)."""
    slashed = [text for text in _italian_msgstrs() if re.search(r"[a-zà-ù]/[ei]\b", text)]
    assert slashed == []



# The options and words a command parses itself, with the Italian words the Italian messages
# name instead (cli/command_table.py OPTION_ALIASES, ALL_WORDS): an Italian hint names what
# an Italian banker types, and it works when typed (tests/test_table_words.py).
ENGLISH_OPTIONS = re.compile(r"--(give|get|lift|wanted|to|with)\b|`[^`]*\ball\b[^`]*`|\[N\|all\]")
# Event types stay English in the log's type column and in JSON (DESIGN.md): these messages
# name that column's word, for a referee or an import reading the log; no other may.
LOG_WORDS = {"GameStarted", "GameEnded", "EventRetracted", "SealRecorded", "RulingRecorded",
             "CommandRecorded"}


def test_italian_messages_name_the_italian_options_and_no_event_type():
    from banco.cli.command_table import OPTION_ALIASES
    from banco.ledger.records.events import EVENT_TYPES

    english, types, named = [], [], set()
    for text in _italian_msgstrs():
        if ENGLISH_OPTIONS.search(text):
            english.append(text)
        types += [t for t in re.findall(r"\b[A-Z][a-z]+(?:[A-Z][a-z]+)+\b", text)
                  if t in EVENT_TYPES and t not in LOG_WORDS]
        named |= set(re.findall(r"--[a-z][a-z-]*", text)) & set(OPTION_ALIASES)
    assert (english, types) == ([], [])
    assert named == set(OPTION_ALIASES)  # each Italian option is named where it helps


def test_an_undo_s_reason_says_the_facts_it_took_back_in_italian():
    """`annullamento: TradeCompleted` was the Italian log's line for an undone trade."""
    from banco.cli.words.event_words import EVENT_WORDS
    from banco.cli.words.reasons import say_reason
    from banco.ledger.records.events import EVENT_TYPES

    reason = "undo: TradeCompleted, MortgageInterestPaid (`trade Anna Bruno --give 10`)"
    assert say_reason(reason) == reason  # English keeps the log's own words
    i18n.use("it")
    try:
        said = say_reason(reason)
        italian = {t: i18n.pgettext("event type", t) for t in EVENT_TYPES}
    finally:
        i18n._release()
    assert said == ("annullamento: scambio concluso, interessi dell'ipoteca pagati "
                    "(`trade Anna Bruno --give 10`)")
    assert EVENT_WORDS == set(EVENT_TYPES)
    assert [t for t, w in italian.items() if w == t] == []


def test_a_rule_set_is_named_in_italian_where_the_seeds_name_it():
    """"regole classic", "le regole championship": the names the seeds give (000 Campionato,
    004 Monopoli Classico, gioco breve, gioco con limite di tempo) are said, always after
    "regole" so that one word fits every message; vintage, euro and quick, which the seeds do
    not name, and a house file keep their identifiers.  What `--rules` takes is unchanged."""
    from helpers import new_table

    from banco.ledger.base.errors import RuleViolation
    from banco.ledger.board.rule_sets import BUILTIN, load_rules, shown
    from banco.ledger.records import commands as c
    from banco.ledger.rules.decide import decide

    loose = [text for text in _italian_msgstrs() for x in re.finditer(r"\{rules\}", text)
             if not text[:x.start()].endswith("regole ")]
    assert loose == []
    with pytest.raises(RuleViolation) as err:
        decide(new_table(rules="championship"), c.Deal("Anna", (1,)))
    i18n.use("it")
    try:
        said = err.value.render(i18n.translations())
        names = {n: i18n.pgettext("rule set", n) for n in BUILTIN}
    finally:
        i18n._release()
    assert said.startswith("le regole del campionato non distribuiscono contratti")
    assert str(shown(load_rules("championship"))) == "championship"  # English: the identifier
    assert names == {"classic": "classiche", "quick": "rapide", "championship": "del campionato",
                     "vintage": "vintage", "euro": "euro", "short": "del gioco breve",
                     "timed": "del gioco con limite di tempo"}


def test_italian_messages_name_the_italian_words_of_a_choice_a_building_and_a_jail_card():
    """`paga`/`pesca`, `casa`/`albergo`, `carta-prigione` (cli/command_table.py VALUE_ALIASES)
    where the English says `pay`/`draw`, `house`/`hotel`, `jail-card` in a line to type."""
    english = re.compile(r"`[^`]*\b(pay|draw|house|hotel|jail-card)`|`asta-edificio house")
    assert [t for t in _italian_msgstrs() if english.search(t)] == []


def test_italian_messages_name_click_s_options_by_their_italian_names():
    """`--arbitro`, `--motivo`, `--regole` ... (cli/command_table.py ITALIAN_OPTIONS) where the
    English says `--referee`, `--reason`, `--rules`: every one is named somewhere, none of the
    English ones is left (`--db`, `--game`, `--json`, `--lang` stay in every language)."""
    from banco.cli.command_table import ITALIAN_OPTIONS

    english = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, ITALIAN_OPTIONS))
                         + r")(?![a-z-])")
    said = list(_italian_msgstrs())
    assert [t for t in said if english.search(t)] == []
    named = {o for t in said for o in re.findall(r"--[a-z][a-z-]*", t)}
    assert set(ITALIAN_OPTIONS.values()) - named <= {"--elenco", "--uscita"}, \
        set(ITALIAN_OPTIONS.values()) - named


def test_every_italian_option_names_an_option_banco_has():
    """Each Italian name stands for an English option some command takes, and no two stand
    for one; `--al=3` is `--at=3` as `--al 3` is `--at 3`."""
    import click

    from banco.cli.command_table import COMMANDS, ITALIAN_OPTIONS, english_option_words
    from banco.cli.main import cli

    options = set()
    for word in COMMANDS:
        command = cli.get_command(click.Context(cli), word)
        for cmd in [command, *getattr(command, "commands", {}).values()]:
            options |= {n for p in cmd.params if isinstance(p, click.Option) for n in p.opts}
    assert set(ITALIAN_OPTIONS) <= options
    assert len(set(ITALIAN_OPTIONS.values())) == len(ITALIAN_OPTIONS)
    assert not set(ITALIAN_OPTIONS.values()) & options  # no Italian name is an English one
    assert english_option_words(["stato", "--al=3", "--AL", "3", "--motivo", "x"]) == [
        "stato", "--at=3", "--at", "3", "--reason", "x"]


@pytest.mark.parametrize(("reason", "english", "italian"), [
    ({"code": "built_evenly", "changes": [{"space": 1, "from": 1, "to": 5},
                                          {"space": 3, "from": 0, "to": 2}]},
     "built evenly: Vicolo Corto 1 house -> a hotel, Vicolo Stretto 0 houses -> 2 houses",
     "costruito in modo uniforme: Vicolo Corto 1 casa -> un albergo, Vicolo Stretto 0 case -> "
     "2 case"),
    ({"code": "sold_at_half", "what": [{"space": 1, "level": 5}, {"space": 3, "level": 1}]},
     "sold a hotel on Vicolo Corto, 1 house on Vicolo Stretto at half price",
     "venduto un albergo su Vicolo Corto, 1 casa su Vicolo Stretto a metà prezzo"),
    ({"code": "deeds_dealt", "deeds": [{"space": 1, "price": 60}, {"space": 39, "price": 400}]},
     "deeds dealt and paid at once: Vicolo Corto 60 M + Parco della Vittoria 400 M",
     "contratti distribuiti e pagati subito: Vicolo Corto 60 M + Parco della Vittoria 400 M"),
    ({"code": "owed_could_raise", "owed": 1200, "can": 389},
     "owed 1200 M, could raise 389 M", "dovuti 1200 M, poteva procurarsi 389 M"),
    ({"code": "card_each_player", "card": {"code": "card", "deck": "imprevisti", "number": 5},
      "amount": 50}, "Imprevisti 5: 50 M to each player", "Imprevisti 5: 50 M a ogni giocatore"),
    ({"code": "tax", "space": 4}, "Tassa Patrimoniale", "Tassa Patrimoniale"),
])
def test_a_reason_s_data_is_said_with_the_game_s_edition(reason, english, italian):
    """Since schema version 3 a reason holds squares, decks, amounts and lots as data: the
    edge says them with the game's edition, in the user's language."""
    from banco.cli.words.reasons import say_reason
    from banco.ledger.board.edition import load_edition

    edition = load_edition("it")
    assert say_reason(reason, edition) == english
    i18n.use("it")
    try:
        assert say_reason(reason, edition) == italian
    finally:
        i18n._release()
