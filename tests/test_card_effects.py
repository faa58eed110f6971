"""The US Chance deck's effects through decide/evolve: nearest railroad at twice the rent,
nearest utility at ten times a fresh throw (004 §Fermati al campo delle imprese di servizi), back three spaces, pay
each player, street repairs."""

import pytest
from edition_tables import at_card, positions, table
from helpers import DrawCard, Roll, balanced, of_type, play, types

from banco.ledger.base.errors import RuleViolation
from banco.ledger.board.edition import load_edition
from banco.ledger.rules.card_effects import nearest
from banco.ledger.rules.decide import decide
from banco.ledger.table.state import evolve

US = load_edition("us")
POS = {s.name: s.position for s in US.properties}
NEAREST_RAILROAD, NEAREST_UTILITY = 5, 7  # Chance card numbers


def us(*owned, rules="classic", **kw):
    """A US table with `owned` = (owner, property name) pairs and Anna on a Chance square."""
    t = table("us", rules=rules)
    owners = list(t.owners)
    for owner, name in owned:
        owners[POS[name]] = owner
    return at_card(t._replace(owners=tuple(owners)), "Anna", kw.get("at", 7), "chance",
                   dice=kw.get("dice", (3, 4)))


def test_nearest_goes_forward_round_the_board():
    assert [nearest(US, p, "station") for p in (7, 22, 36)] == [15, 25, 5]
    assert [nearest(US, p, "utility") for p in (7, 22, 36)] == [12, 28, 12]


def test_nearest_railroad_unowned_is_for_sale():
    t, ev = play(us(), DrawCard("chance", NEAREST_RAILROAD))
    assert t.player("Anna").position == 15 and t.turn.phase == "buy"
    assert of_type(ev, "PurchaseOffered")[0] == {"player": "Anna", "property": 15, "price": 200}


def test_nearest_railroad_owned_claims_twice_the_rent():
    # Bruno owns two railroads: the rent would be 50, the card makes it 100.
    t, ev = play(us(("Bruno", "Pennsylvania Railroad"), ("Bruno", "Short Line")),
                 DrawCard("chance", NEAREST_RAILROAD))
    claim = of_type(ev, "RentClaimOpened")[0]
    assert (claim["owner"], claim["property"], claim["amount"]) == ("Bruno", 15, 100)
    assert claim["basis"] == {"code": "rent_by_card", "basis": {"code": "rent_stations", "n": 2,
                                                                "rent": 50},
                              "times": 2, "card": {"code": "card", "deck": "chance", "number": 5}}
    assert t.turn.player == "Bruno"  # Anna's turn is over, the claim waits for Bruno to ask


def test_nearest_railroad_past_go_collects_salary_and_auto_rent_pays_double():
    t, ev = play(us(("Carla", "Reading Railroad"), rules=_auto_rules(), at=36),
                 DrawCard("chance", NEAREST_RAILROAD))
    assert of_type(ev, "SalaryPaid")[0]["amount"] == 200
    paid = of_type(ev, "RentPaid")[0]
    assert (paid["payer"], paid["payee"], paid["amount"]) == ("Anna", "Carla", 50)
    assert t.player("Anna").cash == 1500 + 200 - 50 and balanced(t)


def test_nearest_railroad_mortgaged_or_own_owes_nothing():
    t = us(("Bruno", "Pennsylvania Railroad"))
    t = t._replace(mortgaged=frozenset({15}))
    _, ev = play(t, DrawCard("chance", NEAREST_RAILROAD))
    assert types(ev)[:3] == ["CardDrawn", "TokenMoved", "RentNotDue"]
    _, ev = play(us(("Anna", "Pennsylvania Railroad")), DrawCard("chance", NEAREST_RAILROAD))
    assert not of_type(ev, "RentClaimOpened") and not of_type(ev, "PurchaseOffered")


def test_nearest_utility_owned_waits_for_a_fresh_throw_then_claims_ten_times_it():
    t, ev = play(us(("Bruno", "Electric Company")), DrawCard("chance", NEAREST_UTILITY))
    assert types(ev)[-1] == "CardThrowRequired" and t.turn.phase == "throw"
    assert t.player("Anna").position == 12 and t.turn.card_throw[0] == 10
    # The claim comes from the throw (5 + 6), not from the roll that reached the card (3 + 4).
    t, ev = play(t, Roll((5, 6)))
    assert types(ev) == ["CardDiceThrown", "RentClaimOpened", "TurnEnded"]
    claim = of_type(ev, "RentClaimOpened")[0]
    assert (claim["owner"], claim["amount"]) == ("Bruno", 110)
    assert t.turn.card_throw is None


def test_the_throw_is_ten_times_even_with_one_utility_and_pays_at_once_with_auto_rent():
    t, _ = play(us(("Bruno", "Electric Company"), rules=_auto_rules()),
                DrawCard("chance", NEAREST_UTILITY))
    t, ev = play(t, Roll((1, 2)))
    assert of_type(ev, "RentPaid")[0]["amount"] == 30  # not 4 x 3: the card says ten times
    assert t.player("Bruno").cash == 1530 and balanced(t)


def test_the_throw_is_no_doubles_and_closes_no_claim():
    # Anna rolled doubles to reach the card: after the throw she still rolls again.
    from banco.ledger.table.state import Claim

    t = us(("Bruno", "Water Works"), ("Bruno", "Boardwalk"), at=22, dice=(2, 2))
    dario_owes = Claim(payer="Dario", owner="Bruno", property=39, amount=50, opened_seq=5,
                       closer="Anna", basis="unbuilt lot")
    t = t._replace(turn=t.turn._replace(extra_roll=True, doubles=1), claims=(dario_owes,))
    t, _ = play(t, DrawCard("chance", NEAREST_UTILITY))
    assert t.player("Anna").position == 28 and t.turn.phase == "throw"
    t, ev = play(t, Roll((6, 6)))
    assert types(ev) == ["CardDiceThrown", "RentClaimOpened", "ExtraRollDue"]
    assert of_type(ev, "RentClaimOpened")[0]["amount"] == 120
    assert t.turn.doubles == 1  # the throw's double six is not a second double
    assert dario_owes in t.claims  # Anna's throw is not the roll that closes Dario's window
    _, ev = play(t, Roll((1, 2)))
    assert of_type(ev, "RentClaimLapsed")[0]["payer"] == "Dario"  # her next roll is


def test_nothing_else_is_accepted_while_the_throw_is_awaited():
    t, _ = play(us(("Bruno", "Electric Company")), DrawCard("chance", NEAREST_UTILITY))
    from banco.ledger.base.errors import UsageError

    with pytest.raises(UsageError, match="a die shows 1 to 6, not 7 1"):  # a slip, as any roll
        play(t, Roll((7, 1)))
    with pytest.raises(RuleViolation, match="two dice, each 1 to 6, got 3 4 bus"):
        play(t, Roll((3, 4), speedy="bus"))
    with pytest.raises(RuleViolation, match=r"throws the dice again .* `roll D1 D2`"):
        play(t, DrawCard("chance", 8))
    with pytest.raises(RuleViolation, match="Anna's turn, not Bruno's"):
        play(t, Roll((1, 2), "Bruno"))


def test_nearest_utility_unowned_or_mortgaged_is_an_ordinary_landing():
    t, ev = play(us(), DrawCard("chance", NEAREST_UTILITY))
    assert t.turn.phase == "buy" and of_type(ev, "PurchaseOffered")[0]["property"] == 12
    t = us(("Bruno", "Electric Company"))
    t, ev = play(t._replace(mortgaged=frozenset({12})), DrawCard("chance", NEAREST_UTILITY))
    assert "RentNotDue" in types(ev) and "CardThrowRequired" not in types(ev)


def test_back_three_spaces_pays_the_income_tax():
    t, ev = play(us(), DrawCard("chance", 10))
    assert t.player("Anna").position == 4
    assert of_type(ev, "TaxPaid")[0]["amount"] == 200 and t.player("Anna").cash == 1300


def test_chairman_of_the_board_pays_each_player():
    t, ev = play(us(), DrawCard("chance", 15))
    assert [(p["payee"], p["amount"]) for p in of_type(ev, "CardPayment")] == [
        ("Bruno", 50), ("Carla", 50), ("Dario", 50)]
    assert [p.cash for p in t.players] == [1350, 1550, 1550, 1550] and balanced(t)


def test_pay_each_player_short_of_cash_owes_each_player_not_the_bank():
    from helpers import PayDebt, cash

    # Anna has 120: Bruno and Carla get their 50 at once, Dario's 50 becomes her debt to Dario.
    t, ev = play(cash(us(), "Anna", 120), DrawCard("chance", 15))
    assert [(p["payee"], p["amount"]) for p in of_type(ev, "CardPayment")] == [
        ("Bruno", 50), ("Carla", 50)]
    assert of_type(ev, "DebtIncurred") == [{"debtor": "Anna", "creditor": "Dario", "amount": 50,
                                            "reason": {"code": "card_each_player", "amount": 50,
                                                       "card": {"code": "card", "deck": "chance",
                                                                "number": 15}}}]
    t = cash(t, "Anna", 70)  # she raises the money (as a mortgage would)
    t, ev = play(t, PayDebt("Anna"))
    assert of_type(ev, "DebtPaid")[0]["payee"] == "Dario"
    assert t.player("Dario").cash == 1550 and t.player("Anna").cash == 20 and balanced(t)


def test_street_repairs_count_houses_and_hotels():
    t = us(("Anna", "Park Place"), ("Anna", "Boardwalk"), at=33)
    t = t._replace(turn=t.turn._replace(card_deck="community"),
                   buildings=tuple(3 if p == POS["Park Place"] else 5 if p == POS["Boardwalk"]
                                   else b for p, b in enumerate(t.buildings)))
    _, ev = play(t, DrawCard("community", 14))
    assert of_type(ev, "CardPayment")[0]["amount"] == 3 * 40 + 115


def test_an_unknown_effect_kind_is_refused_and_appends_nothing():
    t = us()
    deck = t.edition.decks["chance"]
    odd = deck.cards[0]._replace(effect={"kind": "teleport"})
    edition = t.edition._replace(decks={**t.edition.decks,
                                        "chance": deck._replace(cards=(odd,) + deck.cards[1:])})
    with pytest.raises(RuleViolation, match="card effect 'teleport' is not supported"):
        decide(t._replace(edition=edition), DrawCard("chance", 1))


def test_the_throw_replays_from_its_events():
    t, _ = play(us(("Bruno", "Electric Company")), DrawCard("chance", NEAREST_UTILITY))
    events = decide(t, Roll((4, 4)))
    replayed = t
    for e in events:
        replayed = evolve(replayed, e)
    assert replayed.claims[0].amount == 80 and replayed.turn.phase == "roll"


def _auto_rules():
    import os
    import tempfile

    path = os.path.join(tempfile.mkdtemp(), "auto.toml")
    with open(path, "w") as f:
        f.write('extends = "classic"\nrent = "auto"\n')
    return path


def test_positions_helper_names_every_deed():
    assert positions(table("us"))["Boardwalk"] == 39


def test_the_multiplier_comes_from_the_card():
    """A deck file may print another multiplier: the throw is multiplied by the card's."""
    t = us(("Bruno", "Electric Company"))
    deck = t.edition.decks["chance"]
    four = deck.cards[NEAREST_UTILITY - 1]._replace(
        effect={"kind": "advance_to_nearest", "target": "utility", "dice_multiplier": 4})
    cards = deck.cards[:NEAREST_UTILITY - 1] + (four,) + deck.cards[NEAREST_UTILITY:]
    t = t._replace(edition=t.edition._replace(
        decks={**t.edition.decks, "chance": deck._replace(cards=cards)}))
    t, _ = play(t, DrawCard("chance", NEAREST_UTILITY))
    t, ev = play(t, Roll((2, 3)))
    assert of_type(ev, "RentClaimOpened")[0]["amount"] == 20
