"""Italian grammar in what banco says: a preposition joined to the word after it (`ad
Anna`, `dal`), a list said with `e`, what cannot be done now said with an infinitive, a
participle said of any player, and what is English alone left English."""

from __future__ import annotations

import pytest
from i18n_run import clear_locale, run

from banco.cli.words import i18n
from banco.ledger.base.errors import RuleViolation

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
    clear_locale(monkeypatch)
    run(tmp_path, "new", "Bruno", "Anna")
    run(tmp_path, "roll", "1", "2")
    assert run(tmp_path, "--lang", "it", "buy").endswith("\ntocca ad Anna tirare\n")


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
    clear_locale(monkeypatch)
    run(tmp_path, "new", "Anna", "Bruno")
    run(tmp_path, "roll", "1", "2")
    assert run(tmp_path, "--lang", "it", "paga-multa", code=1).startswith(
        "non ammesso: impossibile pagare la multa ora (")
    assert run(tmp_path, "--lang", "it", "usa-carta", code=1).startswith(
        "non ammesso: impossibile usare una carta ora (")


def test_an_undo_says_its_reason_in_italian(tmp_path, monkeypatch):
    """`annullato: evento 72 (undo: TradeCompleted ...)`: an undo says in Italian words what
    it takes back, with no event types (issue 20); the log keeps the recorded reason."""
    clear_locale(monkeypatch)
    run(tmp_path, "new", "Anna", "Bruno")
    run(tmp_path, "roll", "1", "2")
    out = run(tmp_path, "--lang", "it", "annulla")
    assert out.startswith("annullato: `roll 1 2` (eventi 6-8): Anna torna su Via!"), out
    assert "undo:" not in out and "DiceRolled" not in out


def test_a_bankruptcy_is_said_in_italian_whoever_went_bankrupt(tmp_path, monkeypatch):
    """The state's column said `dichiarare bancarotta` (the command) for a bankrupt player, and
    the end `Anna è andato in bancarotta` (a man's participle): `in bancarotta`, `bancarotta
    di Anna`, whoever it is."""
    clear_locale(monkeypatch)
    run(tmp_path, "new", "Anna", "Bruno")
    run(tmp_path, "correct", "Anna", "-1400", "--reason", "test", "--referee", "Rita")
    run(tmp_path, "roll", "1", "3")  # the 200 M tax: 100 M short
    out = run(tmp_path, "--lang", "it", "bancarotta")
    assert "(bancarotta di Anna; resta solo Bruno (003 §11))" in out, out
    assert "\nAnna             0 M  in bancarotta\n" in run(tmp_path, "--lang", "it", "stato")
    assert "\nAnna             0 M  bankrupt\n" in run(tmp_path, "state")


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
