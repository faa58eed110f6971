"""The short game (004, "Regole del gioco breve") through decide and evolve: hotels after three
houses, and a bankrupt's everything, buildings included, to his creditor."""

from helpers import POS, build, cash, mortgage, new_table, of_type, owe, own, play, types

from banco.ledger.records import commands as c
from banco.ledger.table.state import BANK
from banco.projections.audit.checks import table_problems

FOUR = ("Anna", "Bruno", "Carla", "Dario")


def short():
    t = new_table(FOUR, rules="short")
    return t._replace(dealt={n: 2 for n in FOUR})


def test_a_hotel_comes_after_three_houses_and_sells_for_half_of_hotel_and_three_houses():
    t = cash(own(short(), "Anna", "Vicolo Corto", "Vicolo Stretto"), "Anna", 1000)
    t = build(build(t, "Vicolo Corto", 3), "Vicolo Stretto", 3)
    t, events = play(t, c.Build(POS["Vicolo Corto"]))
    built = of_type(events, "HotelBuilt")[0]
    assert (built["level"], built["bank_houses"], built["amount"]) == (5, 3, 50)
    t, events = play(t, c.Sell(POS["Vicolo Corto"], whole_group=True))
    assert of_type(events, "BuildingsSold")[0]["amount"] == (50 + 3 * 50) // 2 + 3 * 50 // 2


def test_a_bankrupt_hands_his_buildings_to_the_player_he_owes():
    t = own(short(), "Carla", "Vicolo Corto", "Vicolo Stretto", "Stazione Sud")
    t = build(build(t, "Vicolo Corto", 5), "Vicolo Stretto", 3)  # a hotel and 3 houses
    t = mortgage(cash(t, "Carla", 0), "Stazione Sud")
    t = owe(t, "Carla", "Anna", 1000)  # more than 235 raisable
    before = t.bank_houses, t.bank_hotels
    t, events = play(t, c.Bankrupt("Carla"))
    assert "BuildingsSold" not in types(events)
    estate = of_type(events, "EstateTransferred")[0]
    assert (estate["creditor"], estate["buildings"]) == ("Anna", True)
    assert t.buildings[POS["Vicolo Corto"]] == 5 and t.buildings[POS["Vicolo Stretto"]] == 3
    assert {t.owners[POS[n]] for n in ("Vicolo Corto", "Vicolo Stretto", "Stazione Sud")} == {
        "Anna"}
    assert (t.bank_houses, t.bank_hotels) == before
    assert of_type(events, "MortgageInterestPaid")[0]["amount"] == 10  # Stazione Sud's 100
    assert not table_problems(t)


def test_to_the_bank_the_buildings_are_sold_and_the_deeds_auctioned_as_in_classic():
    t = own(short(), "Carla", "Vicolo Corto", "Vicolo Stretto")
    t = cash(build(build(t, "Vicolo Corto", 1), "Vicolo Stretto", 1), "Carla", 0)
    from helpers import place

    t = place(t, "Carla", 0)
    t = t._replace(turn=t.turn._replace(player="Carla"))
    t, _ = play(t, c.Roll((1, 3)))  # 4 Tassa Patrimoniale: 200, raisable 50 + 60
    t, events = play(t, c.Bankrupt("Carla"))
    assert of_type(events, "EstateTransferred")[0]["creditor"] == BANK
    assert "buildings" not in of_type(events, "EstateTransferred")[0]
    assert types(events)[0] == "BuildingsSold" and t.auction is not None
