"""The it board, checked against a second copy typed independently from the printed deeds;
and what every edition must be (shipped, whole, consistent)."""

import fnmatch
import os
import tomllib

import pytest

from banco.ledger.base.names import fold
from banco.ledger.board.edition import DATA, EDITIONS, load_edition
from banco.ledger.board.rule_sets import load_rules

# name: (price, house cost, rents base..hotel) from the Italian deeds (M edition).
DEEDS = {
    "Vicolo Corto": (60, 50, 2, 10, 30, 90, 160, 250),
    "Vicolo Stretto": (60, 50, 4, 20, 60, 180, 320, 450),
    "Bastioni Gran Sasso": (100, 50, 6, 30, 90, 270, 400, 550),
    "Viale Monterosa": (100, 50, 6, 30, 90, 270, 400, 550),
    "Viale Vesuvio": (120, 50, 8, 40, 100, 300, 450, 600),
    "Via Accademia": (140, 100, 10, 50, 150, 450, 625, 750),
    "Corso Ateneo": (140, 100, 10, 50, 150, 450, 625, 750),
    "Piazza Università": (160, 100, 12, 60, 180, 500, 700, 900),
    "Via Verdi": (180, 100, 14, 70, 200, 550, 750, 950),
    "Corso Raffaello": (180, 100, 14, 70, 200, 550, 750, 950),
    "Piazza Dante": (200, 100, 16, 80, 220, 600, 800, 1000),
    "Via Marco Polo": (220, 150, 18, 90, 250, 700, 875, 1050),
    "Corso Magellano": (220, 150, 18, 90, 250, 700, 875, 1050),
    "Largo Colombo": (240, 150, 20, 100, 300, 750, 925, 1100),
    "Viale Costantino": (260, 150, 22, 110, 330, 800, 975, 1150),
    "Viale Traiano": (260, 150, 22, 110, 330, 800, 975, 1150),
    "Piazza Giulio Cesare": (280, 150, 24, 120, 360, 850, 1025, 1200),
    "Via Roma": (300, 200, 26, 130, 390, 900, 1100, 1275),
    "Corso Impero": (300, 200, 26, 130, 390, 900, 1100, 1275),
    "Largo Augusto": (320, 200, 28, 150, 450, 1000, 1200, 1400),
    "Viale dei Giardini": (350, 200, 35, 175, 500, 1100, 1300, 1500),
    "Parco della Vittoria": (400, 200, 50, 200, 600, 1400, 1700, 2000),
}


def test_every_street_matches_its_deed():
    e = load_edition("it")
    streets = {s.name: s for s in e.spaces if s.kind == "street"}
    assert set(streets) == set(DEEDS)
    for name, (price, house, *rents) in DEEDS.items():
        s = streets[name]
        assert (s.price, s.house_cost, list(s.rents)) == (price, house, rents), name
        assert s.mortgage == price // 2


def test_stations_utilities_taxes_and_corners():
    e = load_edition("it")
    names = [s.name for s in e.spaces]
    assert [names[i] for i in (0, 10, 20, 30)] == ["Via!", "Prigione", "Parcheggio Gratuito",
                                                   "In Prigione!"]
    assert [names[i] for i in (5, 15, 25, 35)] == ["Stazione Sud", "Stazione Ovest",
                                                   "Stazione Nord", "Stazione Est"]
    for i in (5, 15, 25, 35):
        assert e.spaces[i].price == 200 and list(e.spaces[i].rents) == [25, 50, 100, 200]
    for i in (12, 28):
        assert e.spaces[i].kind == "utility" and e.spaces[i].price == 150
        assert e.spaces[i].mortgage == 75
    assert (e.spaces[4].amount, e.spaces[38].amount) == (200, 100)
    assert [i for i, s in enumerate(e.spaces) if s.kind == "card"] == [2, 7, 17, 22, 33, 36]
    assert len(e.properties) == 28


def test_groups_and_bank_stock():
    e = load_edition("it")
    sizes = {g: len(p) for g, p in e.groups.items()}
    assert sizes == {"marrone": 2, "azzurro": 3, "rosa": 3, "arancione": 3, "rosso": 3,
                     "giallo": 3, "verde": 3, "blu": 2, "stazioni": 4, "società": 2}
    assert (e.bank_houses, e.bank_hotels) == (32, 12)


def test_card_amounts_are_whole_numbers_and_targets_on_the_board():
    e = load_edition("it")
    for deck in e.decks.values():
        for card in deck.cards:
            for k, v in card.effect.items():
                if k != "kind" and k != "deck":
                    assert isinstance(v, int) and v >= 0, (card, k)
            if "position" in card.effect:
                assert 0 <= card.effect["position"] < 40


def test_rule_sets():
    classic, quick = load_rules("classic"), load_rules("quick")
    assert (classic.starting_cash, classic.go_salary, classic.jail_fine) == (1500, 200, 50)
    assert (classic.auction_min_bid, quick.auction_min_bid, quick.auction_step) == (1, 10, 1)
    assert (classic.double_rent_with_mortgage, quick.double_rent_with_mortgage) == (False, True)
    assert classic.claim_window == 1 and classic.source == "004" and quick.source == "003"


# --- every edition: shipped, loadable, consistent ---------------------------------------

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_every_edition_file_is_listed_and_shipped_as_package_data():
    files = sorted(f for f in os.listdir(os.path.join(DATA, "editions")) if f.endswith(".toml"))
    assert files == sorted(f"{e}.toml" for e in EDITIONS)
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        globs = tomllib.load(f)["tool"]["setuptools"]["package-data"]["banco.ledger.board"]
    for name in files:
        assert any(fnmatch.fnmatch(f"data/editions/{name}", g) for g in globs), name


@pytest.mark.parametrize("name", EDITIONS)
def test_every_edition_is_a_whole_board_with_two_full_decks(name):
    e = load_edition(name)
    assert len(e.spaces) == 40 and len(e.properties) == 28
    assert sorted(len(p) for p in e.groups.values()) == [2, 2, 2, 3, 3, 3, 3, 3, 3, 4]
    assert len({s.name for s in e.properties}) == 28  # a deed is named unambiguously
    assert [s.kind for s in (e.space(0), e.space(10), e.space(20), e.space(30))] == [
        "go", "jail", "parking", "go_to_jail"]
    assert {s.deck for s in e.spaces if s.kind == "card"} == set(e.decks)
    for key, deck in e.decks.items():
        assert len(deck.cards) == 16
        # `card KEY N` as narrated must resolve: the key is how the deck's title starts.
        assert fold(deck.title).startswith(key), (key, deck.title)
        for card in deck.cards:
            eff = card.effect
            for k, v in eff.items():
                if k not in ("kind", "deck", "target"):
                    assert isinstance(v, int) and v >= 0, (card, k)
            if "position" in eff:
                assert 0 <= eff["position"] < 40
            if eff["kind"] == "pay_or_draw":
                assert eff["deck"] in e.decks and eff["deck"] != key
    for s in e.properties:
        assert s.mortgage is not None and 0 < s.mortgage <= s.price


def test_money_prints_as_each_box_prints_it():
    assert [load_edition(n).money(1500) for n in EDITIONS] == [
        "1500 M", "1.500 £", "1.500 €", "1500 M", "$1,500"]


def test_rule_sets_that_do_not_fit_a_board_are_told():
    classic = load_rules("classic")
    assert {n: len(load_edition(n).rules_mismatches(classic)) for n in EDITIONS} == {
        "it": 0, "it-lire": 2, "it-euro": 2, "disney": 0, "us": 0}
