"""The words a newcomer's trial found wrong (issue 31 item 4, the fourth trial), each in both
languages: how a player left jail, the deck a hint says to type, the quick rule set's Italian
name, `state`'s columns in Italian."""

from __future__ import annotations

import pytest

# Anna keeps Imprevisti 15 (out of jail free), Bruno buys Vicolo Stretto, Anna is sent to jail
# by Probabilità 2 holding her card; then Bruno buys Via Accademia and Anna uses the card.
TO_JAIL = (("roll", "3", "4"), ("card", "imprevisti", "15"), ("roll", "1", "2"), ("buy",),
           ("roll", "4", "6"))


@pytest.fixture
def jailed(banco):
    banco("new", "Anna", "Bruno", "--rules", "quick")
    said = [banco(*line).output for line in TO_JAIL]
    banco("card", "probabilita", "2")
    return banco, said[-1]


@pytest.mark.parametrize("lang,said", [
    ("en", "  Anna leaves jail (card)"),
    ("it", "  Anna esce di prigione (carta)"),  # it said "(pescare una carta)": the phase's
])
def test_leaving_jail_with_the_card_is_not_drawing_a_card(jailed, lang, said):
    """`card` is the turn's phase ("pescare una carta") and a way out of jail: each its own."""
    banco, _ = jailed
    banco("roll", "3", "5")
    banco("buy")
    out = banco("--lang", lang, "use-card").output
    assert said in out.splitlines(), out


def test_a_hint_says_the_deck_with_its_accent_and_the_bare_word_still_works(jailed):
    """`card probabilita CARD`: the deck's key, a misspelling to a reader; the hint says
    `probabilità`, and the accentless word typed still draws (the key, or by its title)."""
    banco, rolled = jailed
    assert "  Anna draws from Probabilità: `card probabilità CARD`" in rolled.splitlines()
    assert "`card imprevisti CARD`" in banco("log").output  # a key with no accent to give
    italian = banco("--lang", "it", "log").output
    assert "Anna pesca da Probabilità: `carta probabilità CARTA`" in italian
    assert "probabilita CARTA" not in italian


@pytest.mark.parametrize("lang,heading", [
    ("en", "game 1 at event 27 - rules quick, edition it"),
    ("it", "partita 1 all'evento 27 - regole rapide, edizione it"),  # was "regole quick"
])
def test_the_quick_rule_set_is_said_in_the_reader_s_language(jailed, lang, heading):
    from banco.ledger.base.text import render
    from banco.ledger.board.rule_sets import NAMES, named

    banco, _ = jailed
    assert banco("--lang", lang, "state").output.splitlines()[0] == heading
    if lang == "it":
        from banco.cli.words import i18n

        tr = i18n.catalog("it")
        # every built-in rule set has its Italian name but the words Italian keeps as they are
        kept = {r for r in NAMES if render(named(r), tr) == r}
        assert kept == {"vintage", "euro"}, kept


@pytest.mark.parametrize("lang,row", [
    ("en", "Anna          1500 M  IN JAIL (tries 0)       +1 get-out-of-jail card"),
    # "IN PRIGIONE (tentativi 0)+1 carta": the column sized from the reader's words
    ("it", "Anna          1500 M  IN PRIGIONE (tentativi 0) +1 carta per uscire di prigione"),
])
def test_state_s_columns_are_as_wide_as_the_reader_s_words(jailed, lang, row):
    banco, _ = jailed
    assert row in banco("--lang", lang, "state").output.splitlines()
