"""The words at the table a new banker tripped on (issue 20, "At the table"): the prompt and
`next:` with the open rent claims, an auction's prompt and what `hammer` does with no bid, the
pay-or-draw hints, `sell`, completion, `help`, `undo`, a late claim, the suggestions, and the
Italian of the same lines (checked against the catalogs)."""

from __future__ import annotations

import io
import json

import pytest
from test_shell import Typed

from banco.cli.banker.shell import BancoShell
from banco.cli.main import cli as banco_cli
from banco.cli.session import Session
from banco.cli.words import i18n
from banco.cli.words.table_lines import turn_line
from banco.cli.words.waiting import next_words, prompt_text

pytestmark = pytest.mark.usefixtures("no_locale")


def shell(db, *typed):
    """What a shell on `db` writes (the prompts) and what its commands print, after `typed`."""
    out = io.StringIO()
    sh = BancoShell(Session(str(db), None), banco_cli, stdin=Typed(*typed), stdout=out)
    sh.cmdloop(intro="")
    sh.session.close()
    return out.getvalue()


@pytest.fixture
def rent_open(banco):
    """Bruno has landed on Anna's Stazione Sud: Anna may claim 25 M until Carla rolls."""
    banco("new", "Anna", "Bruno", "Carla", "Dario", "--edition", "it")
    banco("roll", "3", "2")
    banco("buy")
    banco("roll", "2", "3")
    return banco


def test_the_prompt_and_next_show_an_open_rent_claim(rent_open):
    session = Session(rent_open.db, None)
    state = session.state()
    assert prompt_text(state) == "Carla (roll; Anna may claim 25 M)> "
    assert turn_line(state) == ("next: Carla to `roll D1 D2`; rent: Anna may claim 25 M from "
                                "Bruno (`claim Anna`, before Carla rolls)")
    # the phones' pages render the same words in their language
    from banco.ledger.base.text import render

    i18n.use("it")
    try:
        said = render(next_words(state), i18n.translations())
        prompt = prompt_text(state)
    finally:
        i18n._release()
    assert said == ("tocca a Carla: `tira D1 D2`; affitto: Anna può chiedere 25 M a Bruno "
                    "(`riscuoti Anna`, prima che Carla tiri)")
    assert prompt == "Carla (tirare; Anna può chiedere 25 M)> "
    session.close()
    assert "#1 Carla (roll; Anna may claim 25 M)> " in shell(rent_open.db, "state")


def test_a_claimed_rent_leaves_the_prompt(rent_open):
    rent_open("claim", "Anna")
    session = Session(rent_open.db, None)
    assert prompt_text(session.state()) == "Carla (roll)> "
    session.close()


def test_an_auction_names_its_deed_and_says_what_hammer_does_with_no_bid(banco):
    banco("new", "Anna", "Bruno", "Carla", "Dario", "--edition", "it")
    banco("roll", "3", "2")
    out = banco("decline").output
    assert "if nobody bids: `hammer PLAYER` among Anna, Bruno, Carla and Dario (no bid: the " \
           "richest player takes it at 1 M; they are tied, so the banker says who)" in out
    said = shell(banco.db, "bid Bruno 10")
    assert "#1 auction Stazione Sud: bids from 1 M> " in said
    assert "#1 auction Stazione Sud: Bruno leads 10 M> " in said


def test_a_late_claim_is_refused_first_then_said_to_be_evidence(rent_open):
    rent_open("roll", "1", "2")  # Carla rolls: the window closes
    out = rent_open("claim", "Anna", code=1).output
    assert out.startswith("refused: Anna's claim for 25 M rent on Stazione Sud from Bruno is "
                          "too late")
    assert "  the refusal is recorded as evidence (event " in out
    assert out.index("refused:") < out.index("recorded as evidence")
    log = json.loads(rent_open("log", "--json").output)
    assert "RentClaimRefused" in [e["type"] for e in log[-3:]]


# --- a pay-or-draw card (item 3) --------------------------------------------------------------

@pytest.fixture
def pay_or_draw(banco):
    """Anna has turned Probabilità 11: pay 10 or draw an Imprevisti."""
    banco("new", "Anna", "Bruno", "--edition", "it")
    banco("roll", "1", "1")
    banco("card", "probabilita", "11")
    return banco


def test_draw_and_pay_alone_at_a_pay_or_draw_card_are_its_choice(pay_or_draw):
    """The prompt says `pay or draw`: the words alone answer the card (they were refused,
    with the long form to type), in either language, and are recorded as typed."""
    out = pay_or_draw("draw").output
    assert "Anna draws from Imprevisti: `card imprevisti CARD`" in out
    log = json.loads(pay_or_draw("log", "--json").output)
    drawn = [e for e in log if e["type"] == "CommandRecorded"][-1]["data"]
    assert drawn["line"] == "draw" and drawn["command"]["kind"] == "DrawCard"
    assert drawn["command"]["fields"]["choice"] == "draw"
    pay_or_draw("undo")
    out = pay_or_draw("pay").output
    assert "Anna pays 10 M to the Bank: Probabilità 11" in out
    pay_or_draw("undo")
    assert "Anna paga 10 M alla Banca" in pay_or_draw("--lang", "it", "paga").output
    pay_or_draw("undo")
    assert "Anna pesca da Imprevisti" in pay_or_draw("--lang", "it", "pesca").output
    pay_or_draw("undo")
    out = pay_or_draw("pay", "Bruno", code=1).output  # the card is Anna's to answer
    assert "it is Anna's turn, not Bruno's" in out
    assert " card [OPTIONS] DECK CARD" in pay_or_draw("help", "draw").output  # a traceback
    said = shell(pay_or_draw.db, "draw", "undo", "pay")  # the shell: its prompts tell
    assert "#1 Anna (pay or draw)> #1 Anna (card Imprevisti)> " in said
    assert "#1 Anna (pay or draw)> #1 Anna (roll)> " in said and "misdraw" not in said


def test_draw_with_no_card_waiting_is_no_command(banco):
    banco("new", "Anna", "Bruno")
    out = banco("draw", code=2).output
    assert "no command called 'draw': did you mean misdraw?" in out


# --- suggestions (item 9) -------------------------------------------------------------------

def test_an_english_session_is_offered_english_words(banco):
    banco("new", "Anna", "Bruno")
    out = banco("clear", code=2).output
    assert "carte" not in out and "cards" in out
    assert "carte" in banco("--lang", "it", "clear", code=2).output


def test_a_command_word_in_capitals_is_understood(banco):
    banco("new", "Anna", "Bruno")
    banco("ROLL", "1", "2")
    log = json.loads(banco("log", "--json").output)
    assert [e["data"]["line"] for e in log if e["type"] == "CommandRecorded"][-1] == "ROLL 1 2"
    shell(banco.db, "DECLINE")
    assert json.loads(banco("state", "--json").output)["turn"]["phase"] == "auction"


def test_the_bank_does_not_bid_and_a_bid_is_a_positive_amount(banco):
    banco("new", "Anna", "Bruno")
    banco("roll", "1", "2")
    banco("decline")
    assert "the Bank does not bid" in banco("bid", "Bank", "10", code=2).output
    assert "the Bank does not bid" in banco("bid", "banca", "10", code=2).output
    out = banco("bid", "Anna", "-5", code=1).output
    assert out.startswith("refused: a bid is a positive amount:") and "No such option" not in out


def test_a_moment_in_the_future_is_said_to_be(banco):
    banco("new", "Anna", "Bruno")
    out = banco("state", "--at", "2099-01-01").output
    assert "(2099-01-01 is in the future: the table as it is now, after event" in out


def test_two_rule_sets_are_refused(banco):
    out = banco("new", "A", "B", "--rules", "classic", "--rules", "short", code=2).output
    # two values: the line's every option given twice is refused so (cli/usage_checks.py)
    assert "--rules is given twice, classic and short: give it once" in out
    out = banco("new", "A", "B", "--rules", "short", "--rules", "short", code=2).output
    assert "--rules is given 2 times: say it once" in out  # the same twice: still `new`'s own
    import os

    assert not os.path.exists(banco.db)  # no game was started, no file made


# --- undo (item 7) ----------------------------------------------------------------------------

def test_undo_says_in_words_what_it_takes_back(rent_open):
    rent_open("claim", "Anna")
    out = rent_open("undo").output
    assert out.startswith("undone: `claim Anna` (event ")
    assert "Anna gives 25 M back to Bruno" in out and "Rent" not in out
    rent_open("undo")  # Bruno's roll
    out = rent_open("undo").output
    assert "undone: `buy` (events " in out
    assert "Anna gets back 200 M; Stazione Sud goes back to the Bank" in out
    assert "PropertyBought" not in out


# --- sell reads one way (item 4) --------------------------------------------------------------

@pytest.fixture
def browns(banco):
    """Anna owns both brown streets, 3 houses on each."""
    banco("new", "Anna", "Bruno")
    banco("roll", "1", "1")  # Probabilità
    banco("card", "probabilita", "ritornate")
    banco("buy")  # Vicolo Corto
    banco("roll", "1", "1")  # Vicolo Stretto
    banco("buy")
    banco("roll", "2", "3")
    banco("decline")
    banco("hammer")
    banco("build", "marrone", "3")
    return banco


def levels(banco):
    doc = json.loads(banco("state", "--json").output)
    return {p["name"]: p["houses"] for p in doc["properties"] if p["name"].startswith("Vicolo")}


def test_a_level_after_sell_means_the_same_after_a_property_and_a_group(browns):
    browns("sell", "marrone", "2")
    assert levels(browns) == {"Vicolo Corto": 2, "Vicolo Stretto": 2}
    browns("sell", "vicolo", "stretto", "1")  # down to 1, as after the group
    assert levels(browns) == {"Vicolo Corto": 2, "Vicolo Stretto": 1}
    browns("sell", "vicolo corto")  # no level: one building off
    assert levels(browns) == {"Vicolo Corto": 1, "Vicolo Stretto": 1}


def test_sell_group_all_works_as_sell_property_all(browns):
    browns("sell", "marrone", "all")
    assert levels(browns) == {"Vicolo Corto": 0, "Vicolo Stretto": 0}


# --- Italian (item 10), against the catalogs --------------------------------------------------

def _italian(msgid: str) -> str:
    i18n.use("it")
    try:
        return i18n._(msgid)
    finally:
        i18n._release()


def test_the_italian_refusal_is_not_the_word_of_rifiuta():
    assert not _italian("refused: {message}").startswith("rifiut")
    assert _italian("; `help` lists them") == "; `aiuto` li elenca"
    assert _italian("take at most {cash}").startswith("togli")


def test_the_italian_catalog_says_no_rifatti_and_no_testa_for_a_head():
    from test_i18n_table import _italian_msgstrs

    said = list(_italian_msgstrs())
    assert not [t for t in said if "rifatt" in t]
    import re

    heads = [t for t in said if re.search(r"\btesta\b", t)
             and not re.search(r"\b(in testa|a testa)\b", t)]
    assert heads == []


# --- what the referee reads: the report (issue 20) --------------------------------------------

def test_the_report_of_a_game_in_progress_fits_its_chart_and_uses_the_centre(banco):
    from banco.cli.words.facts import describe
    from banco.ledger.book import Book
    from banco.projections.readings.report import chart_axis, report_html

    banco("new", "Anna", "Bruno", "Carla", "Dario")
    for line in (("roll", "3", "2"), ("buy",), ("roll", "2", "3"), ("claim", "Anna")):
        banco(*line)
    book = Book(banco.db)
    events = book.events(1)
    book.close()
    page = report_html(events, 1, describe, head=events[-1]["hash"])
    assert "The table at the end" not in page
    assert f"The table after event {events[-1]['seq']}: the game goes on" in page
    # four players near 1500 M: the axis starts near them, not at 0
    low, high = chart_axis([1475, 1500, 1525, 1500])
    assert 1300 <= low < 1475 and 1525 < high <= 1700
    assert chart_axis([0, 3000]) == (0, 3300)
    centre = page[page.index('class="centre"'):]
    assert '<ol class="mid">' in centre[:2000] and "Anna" in centre[:2000]


# --- completion and help inside the shell (items 5, 6) ----------------------------------------

def _completions(db, line):
    sh = BancoShell(Session(str(db), None), banco_cli, stdin=Typed(), stdout=io.StringIO())
    text = line.rsplit(" ", 1)[1]
    try:
        return sh.completedefault(text, line, len(line) - len(text), len(line))
    finally:
        sh.session.close()


def test_completion_inside_trade_and_never_an_option_into_a_name(banco):
    banco("new", "Anna", "Bruno")
    banco("roll", "1", "2")  # Anna to Vicolo Stretto, and buys it
    banco("buy")
    assert _completions(banco.db, "trade Anna Bruno --give vicolo s") == ["Stretto "]
    # Bruno holds no deed: nothing to get from him (each side's deeds: tests/test_completion.py)
    assert _completions(banco.db, "trade Anna Bruno --get piazza univ") == []
    assert _completions(banco.db, "trade Bruno Anna --get vicolo s") == ["Stretto "]
    assert _completions(banco.db, "state --a") == []


def test_help_word_in_the_shell_leaves_out_where_and_how_a_line_is_recorded(banco):
    banco("new", "Anna", "Bruno")
    said = shell(banco.db, "help roll")
    for option in ("--db", "--game", "--lang", "--id", "--expect"):
        assert option not in said
    assert "--player" in said
    assert "--expect" in banco("roll", "--help").output  # on the command line they stay


def test_the_italian_options_the_italian_hints_name_work_when_typed(banco):
    """`--dai`, `--ricevi`, `--libera`, `--fino-a`, `--vogliono` and `tutto` are the words
    the Italian messages name (tests/test_i18n_table.py); typed, they are the English ones."""
    banco("new", "Anna", "Bruno", "Carla", "Dario", "--edition", "it")
    banco("roll", "3", "2")  # Anna -> Stazione Sud
    banco("buy")
    out = banco("scambia", "Anna", "Bruno", "--dai", "stazione", "sud", "--ricevi", "300").output
    assert "trade: Anna gives Stazione Sud; Bruno gives 300 M" in out
    banco("mortgage", "stazione sud")
    out = banco("trade", "Bruno", "Anna", "--dai", "stazione", "sud", "--ricevi", "10",
                "--libera", "stazione", "sud").output
    assert "Anna pays 110 M to the Bank: freed Stazione Sud on receiving it" in out
    refused = banco("trade", "Bruno", "Anna", "--dai", "stazione", "sud", code=1).output
    assert "Bruno does not own Stazione Sud" in refused
    # the gift's hint names the option in the banker's language
    said = banco("--lang", "it", "scambia", "Anna", "Bruno", "--dai", "100", code=1).output
    assert "`scambia Anna Bruno ... --ricevi ELEMENTO`" in said
    said = banco("--lang", "it", "scambia", "Bruno", "Anna", "--ricevi", "100", code=1).output
    assert "`scambia Bruno Anna ... --dai ELEMENTO`" in said


def test_sell_all_and_build_to_in_italian_words(banco):
    banco("new", "Anna", "Bruno", "--rules", "classic", "--edition", "it")
    banco("roll", "1", "2")
    banco("buy")
    # Anna owns Vicolo Stretto only: the refusal is the rules', so the words were understood
    said = banco("costruisci", "vicolo", "stretto", "--fino-a", "2", code=1).output
    assert "does not own the whole group" in said
    said = banco("vendi", "vicolo", "stretto", "tutto", code=1).output
    assert "no buildings on the group of Vicolo Stretto" in said


def test_banco_help_is_short_and_grouped_by_what_the_banker_is_doing(banco):
    """`banco help` was click's whole --help, 78 lines in the alphabet's order; it says the
    words a group a line (wrapped), in the user's language; `banco --help` keeps them all."""
    from banco.cli.command_table import ALIASES, COMMANDS, HELP_GROUPS

    grouped = [n for _title, names in HELP_GROUPS for n in names]
    assert sorted(grouped) == sorted(set(COMMANDS) - {"help"})  # every word, once
    # `help` is said by the closing line (and the shell's own), not a group as well (it was
    # `aiuto` twice in the shell's); `keygen` makes the referee's key for `seal`
    assert "`help WORD`" in banco("help").output.splitlines()[-1]
    assert "keygen seal" in banco("help").output
    out = banco("help").output
    assert len(out.splitlines()) <= 20 and "Usage:" not in out
    assert "the turn:            roll buy decline bid hammer claim" in out
    assert "the referee:         replay ruling correct audit keygen seal" in out
    italian = banco("--lang", "it", "aiuto").output
    assert "il turno:" in italian and " tira compra rifiuta " in italian
    said = set(" ".join(ln.split(":", 1)[1] for ln in italian.splitlines() if ":" in ln).split())
    assert not said & {w for w in COMMANDS if w in ALIASES.values()}  # no English word there
    assert "Commands:" in banco("--help").output


def test_the_italian_words_for_a_card_s_choice_a_building_and_a_jail_card_work_when_typed(
        banco):
    """`paga`/`pesca` (a card's choice), `casa`/`albergo` (a building) and `carta-prigione`
    (a trade's card) are what the Italian messages name; typed, they are the English words."""
    from banco.cli.command_table import VALUE_ALIASES

    assert {VALUE_ALIASES[w] for w in ("paga", "pesca", "casa", "albergo",
                                       "carta-prigione")} == {"pay", "draw", "house", "hotel",
                                                              "jail-card"}
    banco("new", "Anna", "Bruno", "--edition", "it")
    banco("roll", "1", "2")  # Anna -> Vicolo Stretto
    banco("buy")
    english = banco("build", "marrone", "hotel", code=1).output
    assert banco("costruisci", "marrone", "albergo", code=1).output == english
    assert "nobody can build on it" in english, english
    said = banco("asta-edificio", "casa", "--vogliono", "Anna=1", "Bruno=1", code=1).output
    assert said == banco("auction-building", "house", "--wanted", "Anna=1", "Bruno=1",
                         code=1).output and "room for 0 houses" in said, said
    said = banco("scambia", "Anna", "Bruno", "--dai", "carta-prigione", code=1).output
    assert "Anna holds 0 get-out-of-jail cards" in said, said
    said = banco("--lang", "it", "scambia", "Anna", "Bruno", "--dai", "2", "carta-prigione",
                 code=2).output
    assert "`carta-prigione`" in said and "jail-card" not in said, said


def test_click_s_options_work_by_their_italian_names(banco):
    """`--ultimi`, `--al`, `--giocatore`, `--regole`, `--arbitro`/`--motivo` typed give what
    the English options give."""
    banco("nuova", "Anna", "Bruno", "--regole", "classic", "--edizione", "it")
    banco("roll", "1", "2")
    banco("buy")
    assert banco("log", "--ultimi", "2").output == banco("log", "--tail", "2").output
    assert banco("stato", "--al", "3").output == banco("state", "--at", "3").output
    assert banco("log", "--giocatore", "Anna").output == banco("log", "--player", "Anna").output
    out = banco("correggi", "Anna", "10", "--arbitro", "Rita", "--motivo", "miscounted").output
    assert "Rita" in out


def test_italian_copia_is_copy_a_backup_is_salvataggio_and_no_word_names_two_commands(
        banco, tmp_path):
    """`copia` meant `backup` while `copy` was `trasferisci`: a false friend.  `copia` is
    `copy`, a backup a `salvataggio`; `trasferisci` is still read (a line is recorded as
    typed, `run` replays transcripts) but neither help nor a hint says it."""
    from banco.cli.command_table import spoken_words
    from banco.cli.lines.vocabulary import ALIASES, FORMER, WORDS, italian_word

    assert (ALIASES["copia"], ALIASES["salvataggio"], ALIASES["trasferisci"]) == (
        "copy", "backup", "copy")
    shown = [w.italian for w in WORDS if w.italian]
    assert len(shown) == len(set(shown)) and not set(FORMER) & set(shown)
    assert not set(ALIASES) & {w.english for w in WORDS}  # no other command's English word
    assert italian_word("copy") == "copia" and italian_word("backup") == "salvataggio"
    banco("new", "Anna", "Bruno")
    banco("salvataggio", str(tmp_path / "b.db"))
    banco("copia", banco.db, str(tmp_path / "c.db"))
    banco("trasferisci", banco.db, str(tmp_path / "d.db"))
    assert all((tmp_path / f).exists() for f in ("b.db", "c.db", "d.db"))
    said = banco("--lang", "it", "aiuto").output
    assert "torneo salvataggio copia diagnosi" in said and "trasferisci" not in said, said
    assert "trasferisci" not in banco("--lang", "it", "--help").output
    from banco.cli.words import i18n

    with i18n.in_language("it"):
        assert "trasferisci" not in spoken_words()


def test_before_the_deal_the_turn_says_the_roll_waits_for_it(banco):
    """002 §Preparazione: `roll` is refused until every deed is dealt; `state` said
    `turn: Anna (roll)` beside it (a trial's finding)."""
    banco("new", "Anna", "Bruno", "--rules", "vintage")
    assert "turn: Anna (to roll once the deeds are dealt)" in banco("state").output
    assert "turno: Anna (tira quando i contratti sono distribuiti)" in banco(
        "--lang", "it", "state").output
