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

from banco.ledger.base.errors import RuleViolation


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
    assert of_type(ev, "SalaryPaid")[0]["reason"] == {"code": "landed_go"}


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


# --- the decks as the table knows them (003 §09: a drawn card goes to the bottom) -------------

def draw(t, deck, number, choice=None):
    """Anna draws `number`, whatever happened since: the deck's state is what is tested."""
    square = 7 if deck == "imprevisti" else 2
    t = place(turn_of(t, "Anna"), "Anna", square, in_jail=False)
    t = t._replace(turn=t.turn._replace(phase="card", card_deck=deck, dice=(3, 4)))
    return play(t, DrawCard(deck, number, choice))[0]


def test_in_the_first_round_a_drawn_card_cannot_come_again():
    t = draw(new_table(), "imprevisti", 8)  # terno al lotto
    assert t.decks["imprevisti"].known == ((8, t.seq - 2),)  # CardDrawn, then the payment
    assert 8 not in t.decks["imprevisti"].unseen and len(t.decks["imprevisti"].unseen) == 15
    with pytest.raises(RuleViolation, match="003 §09") as err:
        draw(t, "imprevisti", 8)
    assert str(err.value).startswith(
        f"cannot draw Imprevisti 8: Imprevisti 8 went to the bottom at event {t.seq - 2} and is "
        "now at the bottom; the next card is unseen: one of 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, "
        "13, 14, 15, 16")
    assert "`shuffle imprevisti`" in err.value.allowed and "`misdraw imprevisti N`" in err.value.allowed


def test_once_every_card_is_seen_the_order_is_known_and_only_the_next_one_can_come():
    from banco.ledger.table.decks import deck_views, next_card

    t = new_table()
    order = [5, 12, 1, 16, 3, 14, 9, 7, 11, 2, 13, 10, 6, 8, 4, 15]
    for n in order[:-1]:
        t = draw(t, "probabilita", n, "pay" if n == 11 else None)
    assert next_card(t, "probabilita") == 15  # the last unseen card is the next
    t = draw(t, "probabilita", 15)
    kept = [n for n in order if n != 16]  # the jail card is in Anna's hand, not in the deck
    assert [n for n, _ in t.decks["probabilita"].known] == kept
    assert next_card(t, "probabilita") == 5
    view = deck_views(t)["probabilita"]
    assert view["next"] == 5 and view["next_text"].startswith("Avete vinto il secondo premio")
    assert view["unseen"] == [] and view["known"] == kept and view["held"] == {"16": "Anna"}
    with pytest.raises(RuleViolation) as err:
        draw(t, "probabilita", 12)
    assert "Probabilità 12 went to the bottom at event" in str(err.value)
    assert "with 13 cards under it; the next card is Probabilità 5" in str(err.value)
    t = draw(t, "probabilita", 5)
    assert next_card(t, "probabilita") == 12


def test_a_jail_card_leaves_the_deck_while_held_and_goes_to_the_bottom_when_used():
    t = draw(new_table(), "imprevisti", 15)
    assert 15 not in t.decks["imprevisti"].unseen and t.decks["imprevisti"].known == ()
    jailed = place(turn_of(t, "Anna"), "Anna", 10, in_jail=True)
    t, ev = play(jailed, UseCard())
    assert t.decks["imprevisti"].known == ((15, t.seq - 1),)


def test_a_bankrupt_returns_his_jail_cards_under_their_decks():
    from helpers import Bankrupt, debt

    t = draw(new_table(), "probabilita", 16)
    t = debt(cash(t, "Anna", 0), "Anna", "bank", 100)
    t, _ = play(t, Bankrupt("Anna"))
    assert [n for n, _ in t.decks["probabilita"].known] == [16]


def test_a_card_turned_by_mistake_goes_under_its_deck_without_effect():
    # 000 FAQ 18: a Probabilità turned instead of an Imprevisti is shown and put at the bottom.
    from helpers import Misdraw

    t = at_card(position=7)
    t2, ev = play(t, Misdraw("probabilita", 15))
    assert types(ev) == ["CardMisdrawn"] and t2.player("Anna").cash == 1500
    assert t2.decks["probabilita"].known == ((15, t2.seq),) and t2.turn.phase == "card"
    with pytest.raises(RuleViolation, match="Probabilità 15 went to the bottom"):
        play(t2, Misdraw("probabilita", 15))
    with pytest.raises(RuleViolation) as err:
        play(t, DrawCard("probabilita", 15))
    assert "`misdraw probabilità 15` (000 FAQ 18)" in err.value.allowed
    t2, _ = play(t2, DrawCard("imprevisti", 8))
    assert t2.player("Anna").cash == 1600


def test_shuffle_forgets_the_order_but_not_the_held_cards():
    from helpers import Shuffle

    t = draw(draw(new_table(), "imprevisti", 8), "imprevisti", 15)
    t, ev = play(t, Shuffle("imprevisti"))
    assert types(ev) == ["DeckShuffled"]
    assert t.decks["imprevisti"].known == () and t.decks["imprevisti"].unseen == frozenset(
        set(range(1, 17)) - {15})
    t = draw(t, "imprevisti", 8)
    assert t.player("Anna").cash == 1700


def test_an_old_log_with_a_card_drawn_twice_still_folds():
    from banco.ledger.table.state import evolve

    t = new_table()
    for n in (3, 3):
        t = evolve(t, {"type": "CardDrawn", "data": {"player": "Anna", "deck": "imprevisti",
                                                     "number": n, "text": "x"}})
    assert [n for n, _ in t.decks["imprevisti"].known] == [3]


@pytest.mark.parametrize("words,number", [
    (["terno"], 8), (["8"], 8), (["Terno", "al", "LOTTO"], 8), (["matrimonio"], 12),
    (["parco", "vittoria"], 3), (["uscite"], 15), (["contributo"], 9),
])
def test_a_card_is_named_by_a_word_of_its_text(words, number):
    from banco.ledger.table.decks import card_by_words

    assert card_by_words(new_table(), "imprevisti", words) == number


def test_ambiguous_words_list_the_candidates_and_prefer_a_card_that_can_come():
    from banco.ledger.base.errors import UsageError
    from banco.ledger.table.decks import card_by_words

    t = new_table()
    with pytest.raises(UsageError) as err:
        card_by_words(t, "imprevisti", ["ritirate"])
    assert "'ritirate' is on several Imprevisti cards: 1: Andate alla Stazione Nord" in str(err.value)
    t = draw(draw(draw(t, "imprevisti", 8), "imprevisti", 11), "imprevisti", 1)
    with pytest.raises(UsageError) as err:  # the cards that can come are listed first
        card_by_words(t, "imprevisti", ["ritirate"])
    assert "cards: 5: Andate fino a Via Accademia" in str(err.value)
    assert str(err.value).index("13: Maturano") < str(err.value).index("1: Andate alla Stazione")
    t = draw(draw(t, "imprevisti", 3), "imprevisti", 5)
    # "andate fino" is on 3, 5 and 6; 3 and 5 went to the bottom, so only 6 can come
    assert card_by_words(t, "imprevisti", ["andate", "fino"]) == 6
    assert card_by_words(t, "imprevisti", ["ritirate", "150"]) == 13
    assert card_by_words(t, "imprevisti", ["andate", "stazione"]) == 1  # a single match stands
    with pytest.raises(UsageError, match="no Imprevisti card reads 'unicorno'"):
        card_by_words(t, "imprevisti", ["unicorno"])


def test_card_words_misdraw_shuffle_and_the_decks_through_the_cli(banco):
    import json

    banco("new", "Anna", "Bruno")
    banco("roll", "3", "4")  # Anna on Imprevisti
    r = banco("misdraw", "probabilita", "bellezza")  # a Probabilità turned by mistake
    assert "Probabilità 5 turned by mistake" in r.output and "without effect" in r.output
    r = banco("card", "imprevisti", "ritirate", code=2)
    assert "'ritirate' is on several Imprevisti cards" in r.output
    r = banco("card", "imp", "terno")
    assert "Imprevisti 8: Avete vinto un terno al lotto: ritirate 100" in r.output
    decks = json.loads(banco("state", "--json").output)["decks"]
    assert decks["imprevisti"]["known"] == [8] and decks["probabilita"]["known"] == [5]
    assert decks["imprevisti"]["next"] is None and len(decks["imprevisti"]["unseen"]) == 15
    assert "Imprevisti: next card unseen, one of 15" in banco("state").output
    banco("roll", "3", "4")  # Bruno on Imprevisti too
    r = banco("card", "imprevisti", "8", code=1)
    assert "Imprevisti 8 went to the bottom at event" in r.output
    assert "`shuffle imprevisti`" in r.output
    # in Italian the whole refusal is Italian, where it was English from the card on
    r = banco("--lang", "it", "carta", "imprevisti", "8", code=1)
    assert "Imprevisti 8 è finita in fondo al mazzo all'evento" in r.output, r.output
    assert "ed è ora l'ultima; la prossima carta non è ancora uscita: una tra 1, 2," in r.output
    assert "went to" not in r.output and "unseen" not in r.output
    r = banco("shuffle", "imprevisti")
    assert "Imprevisti shuffled: its order is unknown again" in r.output
    assert "Imprevisti 8" in banco("card", "imprevisti", "8").output


def test_every_card_is_in_exactly_one_place_through_random_games():
    """Unseen on top, known under them, or in a player's hand: never two, never none."""
    import random

    from test_properties import choose

    from banco.ledger.rules.decide import decide
    from banco.ledger.table.state import evolve

    for seed in range(30):
        rng = random.Random(seed)
        t = new_table()
        for _ in range(300):
            cmd = choose(t, rng.randint(1, 6), rng.randint(1, 6), rng.randint(0, 99))
            if cmd is None:
                break
            for e in decide(t, cmd):
                t = evolve(t, e)
            for key, deck in t.edition.decks.items():
                order = t.decks[key]
                known = [n for n, _ in order.known]
                held = [n for (k, n) in t.held_cards if k == key]
                places = sorted(list(order.unseen) + known + held)
                assert places == [card.number for card in deck.cards], (seed, key, order, held)


def test_a_repairs_card_with_nothing_built_says_there_is_nothing_to_pay(banco):
    """No payment follows it, so the banker is told so, in either language, and only then."""
    from banco.cli.words.facts import nothing_to_pay

    banco("new", "Anna", "Bruno")
    banco("roll", "3", "4")  # Anna on Imprevisti, owning nothing
    r = banco("card", "imprevisti", "7")
    assert "  Anna has no houses or hotels: nothing to pay" in r.output
    assert r.output.index("nothing to pay") < r.output.index("Bruno to roll")
    banco("roll", "3", "4")
    r = banco("--lang", "it", "carta", "imprevisti", "9")
    assert "Bruno non ha case né alberghi: niente da pagare" in r.output, r.output
    # with a building the payment line says it, and the note is not printed
    t = own(at_card(position=7), "Anna", "Via Roma")
    t = build(t, "Via Roma", 1)
    t1, ev = play(t, DrawCard("imprevisti", 7))
    drawn = next(e for e in ev if e["type"] == "CardDrawn")
    assert of_type(ev, "CardPayment")[0]["amount"] == 25
    assert nothing_to_pay(drawn, ev, t1) is None
    assert nothing_to_pay(drawn, [drawn], t1) == "  Anna has no houses or hotels: nothing to pay"
