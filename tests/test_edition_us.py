"""The us board and decks, against a second typing from the printed US deeds and cards
(standard Hasbro board; Chance and Community Chest of current sets)."""

from banco.ledger.board.edition import load_edition

# Typed from the US title deeds: square, price, house cost, rent unbuilt, 1-4 houses, hotel.
DEEDS = {
    "Mediterranean Avenue": (1, 60, 50, [2, 10, 30, 90, 160, 250]),
    "Baltic Avenue": (3, 60, 50, [4, 20, 60, 180, 320, 450]),
    "Oriental Avenue": (6, 100, 50, [6, 30, 90, 270, 400, 550]),
    "Vermont Avenue": (8, 100, 50, [6, 30, 90, 270, 400, 550]),
    "Connecticut Avenue": (9, 120, 50, [8, 40, 100, 300, 450, 600]),
    "St. Charles Place": (11, 140, 100, [10, 50, 150, 450, 625, 750]),
    "States Avenue": (13, 140, 100, [10, 50, 150, 450, 625, 750]),
    "Virginia Avenue": (14, 160, 100, [12, 60, 180, 500, 700, 900]),
    "St. James Place": (16, 180, 100, [14, 70, 200, 550, 750, 950]),
    "Tennessee Avenue": (18, 180, 100, [14, 70, 200, 550, 750, 950]),
    "New York Avenue": (19, 200, 100, [16, 80, 220, 600, 800, 1000]),
    "Kentucky Avenue": (21, 220, 150, [18, 90, 250, 700, 875, 1050]),
    "Indiana Avenue": (23, 220, 150, [18, 90, 250, 700, 875, 1050]),
    "Illinois Avenue": (24, 240, 150, [20, 100, 300, 750, 925, 1100]),
    "Atlantic Avenue": (26, 260, 150, [22, 110, 330, 800, 975, 1150]),
    "Ventnor Avenue": (27, 260, 150, [22, 110, 330, 800, 975, 1150]),
    "Marvin Gardens": (29, 280, 150, [24, 120, 360, 850, 1025, 1200]),
    "Pacific Avenue": (31, 300, 200, [26, 130, 390, 900, 1100, 1275]),
    "North Carolina Avenue": (32, 300, 200, [26, 130, 390, 900, 1100, 1275]),
    "Pennsylvania Avenue": (34, 320, 200, [28, 150, 450, 1000, 1200, 1400]),
    "Park Place": (37, 350, 200, [35, 175, 500, 1100, 1300, 1500]),
    "Boardwalk": (39, 400, 200, [50, 200, 600, 1400, 1700, 2000]),
}
GROUPS = {"brown": 2, "light-blue": 3, "pink": 3, "orange": 3, "red": 3, "yellow": 3,
          "green": 3, "dark-blue": 2, "railroads": 4, "utilities": 2}


def test_every_street_matches_its_deed():
    e = load_edition("us")
    streets = {s.name: s for s in e.spaces if s.kind == "street"}
    assert set(streets) == set(DEEDS)
    for name, (square, price, house, rents) in DEEDS.items():
        s = streets[name]
        assert (s.position, s.price, s.house_cost, list(s.rents)) == (square, price, house, rents), name
        assert s.mortgage * 2 == price


def test_railroads_utilities_taxes_corners_and_card_squares():
    e = load_edition("us")
    by_pos = {s.position: s for s in e.spaces}
    assert [by_pos[i].name for i in (5, 15, 25, 35)] == [
        "Reading Railroad", "Pennsylvania Railroad", "B. & O. Railroad", "Short Line"]
    for i in (5, 15, 25, 35):
        assert (by_pos[i].kind, by_pos[i].price, list(by_pos[i].rents)) == (
            "station", 200, [25, 50, 100, 200])
    assert [(by_pos[i].name, by_pos[i].price, list(by_pos[i].rents)) for i in (12, 28)] == [
        ("Electric Company", 150, [4, 10]), ("Water Works", 150, [4, 10])]
    assert (by_pos[4].name, by_pos[4].amount) == ("Income Tax", 200)
    assert (by_pos[38].name, by_pos[38].amount) == ("Luxury Tax", 100)
    assert [by_pos[i].kind for i in (0, 10, 20, 30)] == ["go", "jail", "parking", "go_to_jail"]
    assert [i for i, s in by_pos.items() if s.kind == "card" and s.deck == "community"] == [2, 17, 33]
    assert [i for i, s in by_pos.items() if s.kind == "card" and s.deck == "chance"] == [7, 22, 36]
    assert {g: len(p) for g, p in e.groups.items()} == GROUPS
    assert (e.bank_houses, e.bank_hotels) == (32, 12)


# Typed from the current US cards: what each does, in deck order.
CHANCE = [
    ("advance_to", 39), ("advance_to", 0), ("advance_to", 24), ("advance_to", 11),
    ("advance_to_nearest", "station"), ("advance_to_nearest", "station"),
    ("advance_to_nearest", "utility"), ("collect", 50), ("jail_free", None), ("back", 3),
    ("go_to_jail", None), ("repairs", (25, 100)), ("pay", 15), ("advance_to", 5),
    ("pay_each", 50), ("collect", 150),
]
COMMUNITY_CHEST = [
    ("advance_to", 0), ("collect", 200), ("pay", 50), ("collect", 50), ("jail_free", None),
    ("go_to_jail", None), ("collect", 100), ("collect", 20), ("collect_from_each", 10),
    ("collect", 100), ("pay", 100), ("pay", 50), ("collect", 25), ("repairs", (40, 115)),
    ("collect", 10), ("collect", 100),
]


def _what(effect: dict):
    kind = effect["kind"]
    if kind in ("advance_to", "back_to"):
        return kind, effect["position"]
    if kind == "back":
        return kind, effect["spaces"]
    if kind == "advance_to_nearest":
        return kind, effect["target"]
    if kind == "repairs":
        return kind, (effect["house"], effect["hotel"])
    return kind, effect.get("amount")


def test_decks_match_the_printed_cards():
    e = load_edition("us")
    assert {k: d.title for k, d in e.decks.items()} == {"chance": "Chance",
                                                        "community": "Community Chest"}
    assert [_what(c.effect) for c in e.decks["chance"].cards] == CHANCE
    assert [_what(c.effect) for c in e.decks["community"].cards] == COMMUNITY_CHEST
    nearest = [c.effect for c in e.decks["chance"].cards if c.effect["kind"] == "advance_to_nearest"]
    assert [n.get("rent_multiplier") or n.get("dice_multiplier") for n in nearest] == [2, 2, 10]


def test_every_amount_in_a_card_text_is_the_amount_it_moves():
    e = load_edition("us")
    for deck in e.decks.values():
        for card in deck.cards:
            kind = card.effect["kind"]
            if kind in ("collect", "pay", "pay_each", "collect_from_each"):
                assert f"${card.effect['amount']}" in card.text, card
            if kind == "repairs":
                assert f"${card.effect['house']}" in card.text and f"${card.effect['hotel']}" in card.text


def test_dollars_print_before_the_amount_with_thousands():
    e = load_edition("us")
    assert (e.money(1500), e.money(200), e.money(-75)) == ("$1,500", "$200", "-$75")
    assert (e.house_word, e.hotel_word) == ("house", "hotel")
