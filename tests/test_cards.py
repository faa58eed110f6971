"""Imprevisti and Probabilità: every effect kind of the it decks, amounts from the card texts."""

import pytest
from helpers import (
    POS,
    DrawCard,
    Roll,
    UseCard,
    balanced,
    build,
    cash,
    new_table,
    of_type,
    own,
    place,
    play,
    turn_of,
    types,
)

from ledger.errors import RuleViolation


def at_card(player="Anna", position=7, deck="imprevisti", **kw):
    """`player` standing on a card square, waiting to draw."""
    t = place(turn_of(new_table(), player), player, position, **kw)
    return t._replace(turn=t.turn._replace(phase="card", card_deck=deck, dice=(3, 4)))


def test_decks_have_sixteen_cards_each():
    t = new_table()
    assert {k: len(d.cards) for k, d in t.edition.decks.items()} == {"imprevisti": 16,
                                                                    "probabilita": 16}


def test_advance_to_a_station_without_passing_via():
    t, ev = play(at_card(position=22), DrawCard("imprevisti", 1))
    assert t.player("Anna").position == 25
    assert of_type(ev, "SalaryPaid") == []
    assert of_type(ev, "PurchaseOffered")[0]["property"] == 25


def test_advance_past_via_collects_the_salary():
    t, ev = play(at_card(position=36), DrawCard("imprevisti", 5))  # Via Accademia
    assert t.player("Anna").position == 11
    assert of_type(ev, "SalaryPaid")[0]["amount"] == 200
    assert t.player("Anna").cash == 1700 and t.turn.phase == "buy"


def test_advance_to_via_collects_the_salary():
    t, ev = play(at_card(position=7), DrawCard("imprevisti", 2))
    assert t.player("Anna").position == 0 and t.player("Anna").cash == 1700
    assert of_type(ev, "SalaryPaid")[0]["reason"] == "landed on Via!"


def test_advance_onto_an_owned_lot_opens_a_claim():
    t = own(at_card(position=7), "Bruno", "Parco della Vittoria")
    t, ev = play(t, DrawCard("imprevisti", 3))
    assert of_type(ev, "RentClaimOpened")[0]["amount"] == 50


def test_back_three_spaces_does_what_that_square_says():
    t, ev = play(at_card(position=7), DrawCard("imprevisti", 10))
    assert t.player("Anna").position == 4
    assert of_type(ev, "TaxPaid")[0]["amount"] == 200 and t.player("Anna").cash == 1300
    t, ev = play(at_card(position=36), DrawCard("imprevisti", 10))
    assert t.player("Anna").position == 33
    assert types(ev)[-1] == "CardDrawRequired" and t.turn.card_deck == "probabilita"


def test_back_to_vicolo_corto_never_passes_via():
    t, ev = play(at_card(position=17, deck="probabilita"), DrawCard("probabilita", 13))
    a = t.player("Anna")
    assert a.position == 1 and a.cash == 1500
    assert of_type(ev, "TokenMoved")[0]["spaces"] == -16


def test_go_to_jail_card_ends_the_turn_even_after_doubles():
    t = at_card(position=7)
    t = t._replace(turn=t.turn._replace(extra_roll=True, doubles=1))
    t, ev = play(t, DrawCard("imprevisti", 4))
    assert t.player("Anna").in_jail and t.player("Anna").position == 10
    assert types(ev)[-1] == "TurnEnded" and t.turn.player == "Bruno"


def test_collect_and_pay_cards():
    t, _ = play(at_card(position=7), DrawCard("imprevisti", 13))
    assert t.player("Anna").cash == 1650
    t, _ = play(at_card(position=7), DrawCard("imprevisti", 12))
    assert t.player("Anna").cash == 1350
    t, _ = play(at_card(position=2, deck="probabilita"), DrawCard("probabilita", 15))
    assert t.player("Anna").cash == 1700 and balanced(t)


def test_birthday_collects_from_each_other_player():
    t, ev = play(at_card(position=2, deck="probabilita"), DrawCard("probabilita", 7))
    assert len(of_type(ev, "CardPayment")) == 3
    assert [p.cash for p in t.players] == [1530, 1490, 1490, 1490]


def test_repairs_count_houses_and_hotels_of_the_drawer():
    t = own(at_card(position=7), "Anna", "Via Roma", "Corso Impero", "Largo Augusto")
    t = build(build(build(t, "Via Roma", 2), "Corso Impero", 3), "Largo Augusto", 5)
    t = own(t, "Bruno", "Vicolo Corto")
    t = build(t, "Vicolo Corto", 4)  # Bruno's houses do not count for Anna
    t1, ev = play(t, DrawCard("imprevisti", 7))
    assert of_type(ev, "CardPayment")[0]["amount"] == 5 * 25 + 100
    t2, ev = play(t, DrawCard("imprevisti", 9))
    assert of_type(ev, "CardPayment")[0]["amount"] == 5 * 40 + 100


def test_a_card_payment_beyond_cash_is_a_debt():
    t = cash(at_card(position=7), "Anna", 100)
    t, ev = play(t, DrawCard("imprevisti", 12))
    assert of_type(ev, "DebtIncurred")[0]["amount"] == 150 and t.player("Anna").cash == 100


def test_jail_card_is_kept_cannot_be_drawn_again_and_returns_when_used():
    t, ev = play(at_card(position=2, deck="probabilita"), DrawCard("probabilita", 16))
    assert t.player("Anna").jail_cards == (("probabilita", 16),)
    later = t._replace(turn=t.turn._replace(player="Bruno", phase="card", card_deck="probabilita"))
    with pytest.raises(RuleViolation, match='Probabilità 16 is not in the deck: Anna holds it') as err:
        play(later, DrawCard("probabilita", 16))
    assert "Anna holds it" in str(err.value)
    jailed = place(turn_of(t, "Anna"), "Anna", 10, in_jail=True)
    t, ev = play(jailed, UseCard())
    assert types(ev) == ["JailCardUsed", "LeftJail"]
    assert t.player("Anna").jail_cards == () and ("probabilita", 16) not in t.held_cards


def test_pay_or_draw_waits_for_the_choice():
    t, ev = play(at_card(position=2, deck="probabilita"), DrawCard("probabilita", 11))
    assert types(ev) == ["CardChoiceRequired"] and t.turn.phase == "choice"
    with pytest.raises(RuleViolation, match='cannot roll now'):
        play(t, Roll((1, 2)))
    paid, ev = play(t, DrawCard("probabilita", 11, "pay"))
    assert paid.player("Anna").cash == 1490
    drew, ev = play(t, DrawCard("probabilita", 11, "draw"))
    assert drew.turn.phase == "card" and drew.turn.card_deck == "imprevisti"
    drew, ev = play(drew, DrawCard("imprevisti", 8))
    assert drew.player("Anna").cash == 1600


def test_wrong_deck_bad_number_and_needless_choice_are_refused():
    with pytest.raises(RuleViolation, match='is on a Imprevisti square, not Probabilità') as err:
        play(at_card(position=7), DrawCard("probabilita", 3))
    assert "card imprevisti N" in err.value.allowed
    with pytest.raises(RuleViolation, match='Imprevisti has cards 1 to 16, not 17') as err:
        play(at_card(position=7), DrawCard("imprevisti", 17))
    assert "1 to 16" in str(err.value)
    with pytest.raises(RuleViolation, match='Imprevisti 8 offers no choice'):
        play(at_card(position=7), DrawCard("imprevisti", 8, "pay"))
    with pytest.raises(RuleViolation, match='cannot draw a card now'):
        play(new_table(), DrawCard("imprevisti", 8))


def test_utility_reached_by_card_uses_the_last_roll():
    # No it card moves to a utility; a card move onto a street still keeps the roll for later.
    t = own(at_card(position=7), "Bruno", "Via Accademia")
    t, ev = play(t, DrawCard("imprevisti", 5))
    assert of_type(ev, "RentClaimOpened")[0]["amount"] == 10
    assert POS["Via Accademia"] == 11
