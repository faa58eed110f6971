"""it-euro: the Italian euro board of seed 001, against a second typing in euro.

No euro deed list was found: the figures are the M deeds x 2.5 (seed 001's ratio), a half euro
going to the nearest 10 € as the published euro decks do.  Typed here by hand, deed by deed;
the deck amounts are typed from the two euro deck lists (see it-euro.toml)."""

from edition_tables import at_card, positions, table
from helpers import DrawCard, of_type, play

from banco.ledger.board.edition import load_edition

# name: price, house cost, rents unbuilt .. hotel, in euro.
DEEDS = {
    "Vicolo Corto": (150, 125, 5, 25, 75, 225, 400, 625),
    "Vicolo Stretto": (150, 125, 10, 50, 150, 450, 800, 1125),
    "Bastioni Gran Sasso": (250, 125, 15, 75, 225, 675, 1000, 1375),
    "Viale Monterosa": (250, 125, 15, 75, 225, 675, 1000, 1375),
    "Viale Vesuvio": (300, 125, 20, 100, 250, 750, 1125, 1500),
    "Via Accademia": (350, 250, 25, 125, 375, 1125, 1560, 1875),
    "Corso Ateneo": (350, 250, 25, 125, 375, 1125, 1560, 1875),
    "Piazza Università": (400, 250, 30, 150, 450, 1250, 1750, 2250),
    "Via Verdi": (450, 250, 35, 175, 500, 1375, 1875, 2375),
    "Corso Raffaello": (450, 250, 35, 175, 500, 1375, 1875, 2375),
    "Piazza Dante": (500, 250, 40, 200, 550, 1500, 2000, 2500),
    "Via Marco Polo": (550, 375, 45, 225, 625, 1750, 2190, 2625),
    "Corso Magellano": (550, 375, 45, 225, 625, 1750, 2190, 2625),
    "Largo Colombo": (600, 375, 50, 250, 750, 1875, 2310, 2750),
    "Viale Costantino": (650, 375, 55, 275, 825, 2000, 2440, 2875),
    "Viale Traiano": (650, 375, 55, 275, 825, 2000, 2440, 2875),
    "Piazza Giulio Cesare": (700, 375, 60, 300, 900, 2125, 2560, 3000),
    "Via Roma": (750, 500, 65, 325, 975, 2250, 2750, 3190),
    "Corso Impero": (750, 500, 65, 325, 975, 2250, 2750, 3190),
    "Largo Augusto": (800, 500, 70, 375, 1125, 2500, 3000, 3500),
    "Viale dei Giardini": (875, 500, 90, 440, 1250, 2750, 3250, 3750),
    "Parco della Vittoria": (1000, 500, 125, 500, 1500, 3500, 4250, 5000),
}
# Deck, card number: amount in euro as the euro cards print it.
AMOUNTS = {
    ("imprevisti", 7): (60, 250), ("imprevisti", 8): 250, ("imprevisti", 9): (100, 250),
    ("imprevisti", 11): 125, ("imprevisti", 12): 375, ("imprevisti", 13): 375,
    ("imprevisti", 14): 40, ("imprevisti", 16): 50,
    ("probabilita", 3): 250, ("probabilita", 4): 125, ("probabilita", 5): 25,
    ("probabilita", 6): 250, ("probabilita", 7): 25, ("probabilita", 8): 60,
    ("probabilita", 9): 250, ("probabilita", 10): 125, ("probabilita", 11): 25,
    ("probabilita", 12): 50, ("probabilita", 14): 125, ("probabilita", 15): 500,
}


def test_every_street_in_euro():
    e = load_edition("it-euro")
    streets = {s.name: s for s in e.spaces if s.kind == "street"}
    assert set(streets) == set(DEEDS)
    for name, (price, house, *rents) in DEEDS.items():
        assert (streets[name].price, streets[name].house_cost, list(streets[name].rents)) == (
            price, house, rents), name


def test_stations_utilities_taxes_and_mortgages():
    e = load_edition("it-euro")
    by_name = {s.name: s for s in e.properties}
    for name in ("Stazione Sud", "Stazione Ovest", "Stazione Nord", "Stazione Est"):
        s = by_name[name]
        assert (s.price, list(s.rents), s.mortgage) == (500, [60, 125, 250, 500], 250)
    for name in ("Società Elettrica", "Società Acqua Potabile"):
        s = by_name[name]
        # 187.5 -> 190; the dice multipliers x 2.5 like every rent
        assert (s.price, list(s.rents), s.mortgage) == (375, [10, 25], 190)
    assert by_name["Viale dei Giardini"].mortgage == 440  # 437.5 -> 440
    assert by_name["Parco della Vittoria"].mortgage == 500 and by_name["Vicolo Corto"].mortgage == 75
    assert [s.amount for s in e.spaces if s.kind == "tax"] == [500, 250]
    assert (e.go_salary, e.jail_fine) == (500, 125)  # seed 001


def test_deck_amounts_in_euro():
    e = load_edition("it-euro")
    got = {}
    for key, deck in e.decks.items():
        for c in deck.cards:
            eff = c.effect
            if eff["kind"] == "repairs":
                got[key, c.number] = (eff["house"], eff["hotel"])
            elif "amount" in eff:
                got[key, c.number] = eff["amount"]
    assert got == AMOUNTS


def test_money_and_header_say_how_the_figures_were_made():
    e = load_edition("it-euro")
    assert (e.money(500), e.money(1560)) == ("500 €", "1.560 €")
    assert "2.5" in e.notes and "nearest 10" in e.notes


def test_a_euro_rent_and_a_euro_card_move_euro():
    t = table("it-euro")
    pos = positions(t)
    t = t._replace(owners=tuple("Bruno" if p == pos["Via Accademia"] else o
                                for p, o in enumerate(t.owners)))
    t, ev = play(at_card(t, "Anna", 36, "imprevisti"), DrawCard("imprevisti", 5))
    assert of_type(ev, "SalaryPaid")[0]["amount"] == 200  # the classic rules' salary, not 500
    assert of_type(ev, "RentClaimOpened")[0]["amount"] == 25
