"""disney: the names, pieces and decks of seed 004's "Monopoli Disney" on the classic figures."""

import pytest
from edition_tables import at_card, table
from helpers import DrawCard, of_type, play, types

from banco.ledger.base.errors import RuleViolation
from banco.ledger.board.edition import load_edition

# Typed from seed 004: the Show Time cards in the seed's order, with what each moves.
SHOW_TIME = [
    ("pay", 150), ("repairs", (40, 115)), ("collect", 150), ("collect", 150),
    ("advance_to", "Nave pirata di Capitan Uncino"), ("advance_to", "Vai"),
    ("advance_to", "La carica dei 101"), ("advance_to", "Dumbo"), ("back", 3), ("pay", 15),
    ("jail_free", None), ("pay", 50), ("advance_to", "Lilli e il vagabondo"),
    ("repairs", (25, 100)), ("go_to_jail", None), ("pay_each", 20),
]
MAGIC_MOMENTS = [
    ("pay", 50), ("go_to_jail", None), ("back_to", "Tarzan"), ("collect", 100),
    ("collect_from_each", 10), ("collect", 10), ("pay_or_draw", 10), ("collect", 20),
    ("pay", 50), ("collect", 25), ("jail_free", None), ("advance_to", "Vai"),
    ("collect", 200), ("pay", 100), ("collect", 50),
    ("collect", 100),  # Malefica: the seed cuts the amount off; 100 chosen (see disney.toml)
]
# Words from each card of the seed, in order, to check the texts are the seed's.
SHOW_WORDS = ["spaniel", "cottage", "nani", "Dumbo", "Capitan Uncino", "Peter Pan", "101",
              "Dumbo", "Regina di Cuori", "Foulfellow", "Robin Hood", "Simba", "Lilli",
              "fate", "Nottingham", "Fata Turchina"]
MAGIC_WORDS = ["scarpetta", "accalappiacani", "Tarzan", "Peter Pan", "non compleanno",
               "elefanti", "Show Time", "dalmati", "mela", "cicogna", "Campanellino", "Trilly",
               "Bella Addormentata", "Kaa", "più bella", "Malefica"]


def _what(edition, effect):
    kind = effect["kind"]
    if kind in ("advance_to", "back_to"):
        return kind, edition.space(effect["position"]).name
    if kind == "back":
        return kind, effect["spaces"]
    if kind == "repairs":
        return kind, (effect["house"], effect["hotel"])
    return kind, effect.get("amount")


def test_decks_are_the_seeds():
    e = load_edition("disney")
    assert {k: d.title for k, d in e.decks.items()} == {"show": "Show Time",
                                                        "momenti": "Momenti Magici"}
    assert [_what(e, c.effect) for c in e.decks["show"].cards] == SHOW_TIME
    assert [_what(e, c.effect) for c in e.decks["momenti"].cards] == MAGIC_MOMENTS
    for deck, words in (("show", SHOW_WORDS), ("momenti", MAGIC_WORDS)):
        for card, word in zip(e.decks[deck].cards, words, strict=True):
            assert word in card.text, (card, word)
    choice = e.decks["momenti"].cards[6].effect
    assert (choice["kind"], choice["deck"]) == ("pay_or_draw", "show")


def test_names_the_seed_gives():
    e = load_edition("disney")
    name = {s.position: s.name for s in e.spaces}
    assert [name[p] for p in (5, 15, 25, 35)] == [
        "Tappeto volante di Aladino", "Nave pirata di Capitan Uncino", "Carrozza di Cenerentola",
        "Auto di Crudelia De Mon"]
    assert [e.space(p).kind for p in (5, 15, 25, 35)] == ["station"] * 4
    assert [(name[p], e.space(p).kind) for p in (12, 28)] == [
        ("Bacchetta magica", "utility"), ("Polvere magica", "utility")]
    assert [(name[p], e.space(p).amount) for p in (4, 38)] == [
        ("Tassa di Paperone", 200), ("Tassa del principe Giovanni", 100)]
    assert [p for p, s in enumerate(e.spaces) if s.kind == "card" and s.deck == "momenti"] == [2, 17, 33]
    assert [p for p, s in enumerate(e.spaces) if s.kind == "card" and s.deck == "show"] == [7, 22, 36]
    assert (e.house_word, e.hotel_word, e.bank_houses, e.bank_hotels) == ("cottage", "castle", 32, 12)


def test_classic_figures_and_marked_classic_names():
    """"Il valore dell'immobile rimane invariato": every deed is the classic one, square by
    square; a lot the seed does not name keeps its classic name, marked."""
    it, disney = load_edition("it"), load_edition("disney")
    for a, b in zip(it.spaces, disney.spaces, strict=True):
        assert (a.kind, a.price, a.house_cost, a.rents, a.amount) == (
            b.kind, b.price, b.house_cost, b.rents, b.amount)
        if b.kind == "street" and b.name.endswith(" (classico)"):
            assert b.name == a.name + " (classico)"
    named = [s.name for s in disney.spaces if s.kind == "street" and "(classico)" not in s.name]
    assert named == ["Tarzan", "Dumbo", "Lilli e il vagabondo", "Il Re Leone", "La carica dei 101"]


def test_pay_or_draw_show_time_through_the_decider():
    t = at_card(table("disney"), "Anna", 17, "momenti")
    t, ev = play(t, DrawCard("momenti", 7))
    assert types(ev) == ["CardChoiceRequired"]
    drew, ev = play(t, DrawCard("momenti", 7, "draw"))
    assert drew.turn.phase == "card" and drew.turn.card_deck == "show"
    with pytest.raises(RuleViolation, match="Show Time square, not Momenti Magici"):
        play(drew, DrawCard("momenti", 1))
    paid, ev = play(t, DrawCard("momenti", 7, "pay"))
    assert of_type(ev, "CardPayment")[0]["amount"] == 10 and paid.player("Anna").cash == 1490


def test_lost_in_the_jungle_back_to_tarzan_and_the_blue_fairy():
    t, ev = play(at_card(table("disney"), "Anna", 33, "momenti"), DrawCard("momenti", 3))
    assert t.player("Anna").position == 1 and of_type(ev, "SalaryPaid") == []
    assert of_type(ev, "PurchaseOffered")[0]["property"] == 1
    t, ev = play(at_card(table("disney"), "Anna", 22, "show"), DrawCard("show", 16))
    assert [(p["payee"], p["amount"]) for p in of_type(ev, "CardPayment")] == [
        ("Bruno", 20), ("Carla", 20), ("Dario", 20)]
    assert t.player("Anna").cash == 1440
