"""it-lire: the vintage lire board of seed 002, against a second typing in lire.

Prices, taxes and both decks are typed from lire-era lists (a C# Monopoli's board, a Processing
sketch's and a newLISP note's decks: see it-lire.toml); rents and house costs in lire, for
which no lire deed card was found, are typed as the M deeds x 100."""

from edition_tables import at_card, table
from helpers import DrawCard, of_type, play

from banco.ledger.board.edition import load_edition
from banco.ledger.board.rule_sets import load_rules

# name: lire price, as the lire board prints it.
PRICES = {
    "Vicolo Corto": 6_000, "Vicolo Stretto": 6_000, "Bastioni Gran Sasso": 10_000,
    "Viale Monterosa": 10_000, "Viale Vesuvio": 12_000, "Via Accademia": 14_000,
    "Corso Ateneo": 14_000, "Piazza Università": 16_000, "Via Verdi": 18_000,
    "Corso Raffaello": 18_000, "Piazza Dante": 20_000, "Via Marco Polo": 22_000,
    "Corso Magellano": 22_000, "Largo Colombo": 24_000, "Viale Costantino": 26_000,
    "Viale Traiano": 26_000, "Piazza Giulio Cesare": 28_000, "Via Roma": 30_000,
    "Corso Impero": 30_000, "Largo Augusto": 32_000, "Viale dei Giardini": 35_000,
    "Parco della Vittoria": 40_000, "Stazione Sud": 20_000, "Stazione Ovest": 20_000,
    "Stazione Nord": 20_000, "Stazione Est": 20_000, "Società Elettrica": 15_000,
    "Società Acqua Potabile": 15_000,
}
# name: house cost and rents unbuilt .. hotel, in lire.
RENTS = {
    "Vicolo Corto": (5_000, 200, 1_000, 3_000, 9_000, 16_000, 25_000),
    "Vicolo Stretto": (5_000, 400, 2_000, 6_000, 18_000, 32_000, 45_000),
    "Bastioni Gran Sasso": (5_000, 600, 3_000, 9_000, 27_000, 40_000, 55_000),
    "Viale Monterosa": (5_000, 600, 3_000, 9_000, 27_000, 40_000, 55_000),
    "Viale Vesuvio": (5_000, 800, 4_000, 10_000, 30_000, 45_000, 60_000),
    "Via Accademia": (10_000, 1_000, 5_000, 15_000, 45_000, 62_500, 75_000),
    "Corso Ateneo": (10_000, 1_000, 5_000, 15_000, 45_000, 62_500, 75_000),
    "Piazza Università": (10_000, 1_200, 6_000, 18_000, 50_000, 70_000, 90_000),
    "Via Verdi": (10_000, 1_400, 7_000, 20_000, 55_000, 75_000, 95_000),
    "Corso Raffaello": (10_000, 1_400, 7_000, 20_000, 55_000, 75_000, 95_000),
    "Piazza Dante": (10_000, 1_600, 8_000, 22_000, 60_000, 80_000, 100_000),
    "Via Marco Polo": (15_000, 1_800, 9_000, 25_000, 70_000, 87_500, 105_000),
    "Corso Magellano": (15_000, 1_800, 9_000, 25_000, 70_000, 87_500, 105_000),
    "Largo Colombo": (15_000, 2_000, 10_000, 30_000, 75_000, 92_500, 110_000),
    "Viale Costantino": (15_000, 2_200, 11_000, 33_000, 80_000, 97_500, 115_000),
    "Viale Traiano": (15_000, 2_200, 11_000, 33_000, 80_000, 97_500, 115_000),
    "Piazza Giulio Cesare": (15_000, 2_400, 12_000, 36_000, 85_000, 102_500, 120_000),
    "Via Roma": (20_000, 2_600, 13_000, 39_000, 90_000, 110_000, 127_500),
    "Corso Impero": (20_000, 2_600, 13_000, 39_000, 90_000, 110_000, 127_500),
    "Largo Augusto": (20_000, 2_800, 15_000, 45_000, 100_000, 120_000, 140_000),
    "Viale dei Giardini": (20_000, 3_500, 17_500, 50_000, 110_000, 130_000, 150_000),
    "Parco della Vittoria": (20_000, 5_000, 20_000, 60_000, 140_000, 170_000, 200_000),
}
# Deck, card number: what it moves, in lire, typed from the lire cards.
AMOUNTS = {
    ("imprevisti", 7): (2_500, 10_000), ("imprevisti", 8): 10_000,
    ("imprevisti", 9): (4_000, 10_000), ("imprevisti", 11): 5_000, ("imprevisti", 12): 15_000,
    ("imprevisti", 13): 15_000, ("imprevisti", 14): 1_500, ("imprevisti", 16): 2_000,
    ("probabilita", 3): 10_000, ("probabilita", 4): 5_000, ("probabilita", 5): 1_000,
    ("probabilita", 6): 10_000, ("probabilita", 7): 1_000, ("probabilita", 8): 2_500,
    ("probabilita", 9): 10_000, ("probabilita", 10): 5_000, ("probabilita", 11): 1_000,
    ("probabilita", 12): 2_000, ("probabilita", 14): 5_000, ("probabilita", 15): 20_000,
}


def test_prices_taxes_and_rents_in_lire():
    e = load_edition("it-lire")
    props = {s.name: s for s in e.properties}
    assert {n: s.price for n, s in props.items()} == PRICES
    for name, (house, *rents) in RENTS.items():
        assert (props[name].house_cost, list(props[name].rents)) == (house, rents), name
        assert props[name].mortgage == PRICES[name] // 2
    for name in ("Stazione Sud", "Stazione Ovest", "Stazione Nord", "Stazione Est"):
        assert list(props[name].rents) == [2_500, 5_000, 10_000, 20_000]
    for name in ("Società Elettrica", "Società Acqua Potabile"):
        # dice multipliers, scaled like every rent: 400 £ a pip with one, 1.000 £ with both
        assert list(props[name].rents) == [400, 1000]
    assert [(s.name, s.amount) for s in e.spaces if s.kind == "tax"] == [
        ("Tassa Patrimoniale", 20_000), ("Tassa di Lusso", 10_000)]
    assert (e.bank_houses, e.bank_hotels, e.go_salary, e.jail_fine) == (32, 12, 20_000, 5_000)


def _amount(effect):
    if effect["kind"] == "repairs":
        return effect["house"], effect["hotel"]
    return effect.get("amount")


def test_deck_amounts_in_lire():
    e = load_edition("it-lire")
    got = {(k, c.number): _amount(c.effect) for k, d in e.decks.items() for c in d.cards
           if _amount(c.effect) is not None}
    assert got == AMOUNTS


def test_same_board_and_cards_as_it():
    """Apart from the money, the lire box is the `it` box: same squares, moves and card order."""
    it, lire = load_edition("it"), load_edition("it-lire")
    assert [(s.name, s.kind, s.group) for s in it.spaces] == [
        (s.name, s.kind, s.group) for s in lire.spaces]
    for key in it.decks:
        for a, b in zip(it.decks[key].cards, lire.decks[key].cards, strict=True):
            assert a.effect["kind"] == b.effect["kind"]
            assert a.effect.get("position") == b.effect.get("position")


def test_money_prints_as_lire_and_classic_rules_do_not_fit():
    e = load_edition("it-lire")
    assert (e.money(20_000), e.money(250_000), e.money(500)) == ("20.000 £", "250.000 £", "500 £")
    mismatches = e.rules_mismatches(load_rules("classic"))
    assert mismatches == ["go_salary is 200 £ in the classic rules but 20.000 £ on the it-lire board",
                          "jail_fine is 50 £ in the classic rules but 5.000 £ on the it-lire board"]
    assert load_edition("it").rules_mismatches(load_rules("classic")) == []


def test_a_lire_card_moves_lire():
    t, ev = play(at_card(table("it-lire"), "Anna", 7, "imprevisti"), DrawCard("imprevisti", 14))
    assert of_type(ev, "CardPayment")[0]["amount"] == 1_500
    assert t.player("Anna").cash == load_rules("classic").starting_cash - 1_500
