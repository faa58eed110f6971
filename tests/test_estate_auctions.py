"""The building shortage: the last houses and hotels auctioned one by one when the builders
want more than the Bank has (004 §Mancanza di edifici, 000 FAQ 30)."""

import pytest
from estate_tables import MARRONE, scarce, verde
from helpers import (
    POS,
    Bid,
    Build,
    BuildingAuction,
    Hammer,
    Items,
    Mortgage,
    Trade,
    balanced,
    new_table,
    of_type,
    own,
    play,
    stock_ok,
    types,
)

from banco.ledger.base.errors import RuleViolation
from banco.ledger.records.reasons import english

# --- building shortage auctions ---------------------------------------------------------------


def test_the_last_houses_go_to_auction_one_by_one_from_each_bidders_deed_price():
    # Anna builds on verde (house 200), Bruno on marrone (house 50); the Bank has 3 houses and
    # they want 3 and 2 (000 FAQ 30): 5 > 3, so the houses are auctioned (004 §Mancanza di
    # edifici), opening at the deed's price: each bidder's own, the auction at the lowest, 50.
    t = scarce(own(verde(), "Bruno", *MARRONE), 3)
    assert t.bank_houses == 3 and stock_ok(t)
    t, ev = play(t, BuildingAuction("house", (("Anna", 3), ("Bruno", 2))))
    assert of_type(ev, "BuildingAuctionOpened") == [{
        "kind": "house", "min_bid": 50, "step": 1, "resume": "roll",
        "wanted": {"Anna": 3, "Bruno": 2}}]
    assert t.turn.phase == "auction" and t.auction.kind == "house"
    for bidder, words in (("Dario", "Dario did not say before the auctions that they want"),
                          ("Carla", "Carla did not say before the auctions that they want")):
        with pytest.raises(RuleViolation, match="000 FAQ 30") as err:
            play(t, Bid(bidder, 60))
        assert words in str(err.value)
    with pytest.raises(RuleViolation, match="004 §Mancanza di edifici") as err:
        play(t, Bid("Anna", 150))  # her houses cost 200 on the deed
    assert "a house on Anna's cheapest lot costs 200 M on the deed: Anna's bids start" in str(err.value)
    assert err.value.allowed == "bid 200 or more"
    t, _ = play(t, Bid("Bruno", 60), Bid("Anna", 200))
    with pytest.raises(RuleViolation, match="say where it goes") as err:
        play(t, Hammer())
    assert "Via Roma or Corso Impero or Largo Augusto" in err.value.allowed
    t, ev = play(t, Hammer(POS["Via Roma"]))
    assert types(ev) == ["HouseBuilt", "AuctionClosed", "BuildingAuctionOpened"]
    assert of_type(ev, "HouseBuilt")[0]["amount"] == 200
    assert of_type(ev, "BuildingAuctionOpened")[0]["wanted"] == {"Anna": 2, "Bruno": 2}
    t, ev = play(t, Bid("Bruno", 55), Hammer(POS["Vicolo Corto"]))
    assert of_type(ev, "BuildingAuctionOpened")[0]["wanted"] == {"Anna": 2, "Bruno": 1}
    assert t.bank_houses == 1
    t, ev = play(t, Hammer())  # nobody bids for the last one: it stays, the auctions end
    assert "stays with the Bank and the auctions end" in english(of_type(ev, "AuctionClosed")[0]["reason"])
    assert t.auction is None and t.turn.phase == "roll" and t.bank_houses == 1
    assert t.player("Anna").cash == 1300 and t.player("Bruno").cash == 1445
    assert t.buildings[POS["Via Roma"]] == 1 and t.buildings[POS["Vicolo Corto"]] == 1
    assert stock_ok(t) and balanced(t)


def test_nobody_wins_more_than_announced_and_the_auctions_stop_when_one_still_wants():
    t = own(scarce(own(verde(), "Bruno", *MARRONE), 2), "Dario", "Viale dei Giardini",
            "Parco della Vittoria")
    t, _ = play(t, BuildingAuction("house", (("Anna", 1), ("Bruno", 1), ("Dario", 2))))
    t, ev = play(t, Bid("Anna", 200), Hammer(POS["Via Roma"]))
    assert of_type(ev, "BuildingAuctionOpened")[0]["wanted"] == {"Anna": 0, "Bruno": 1, "Dario": 2}
    with pytest.raises(RuleViolation, match="Anna has won every house they said they want") as err:
        play(t, Bid("Anna", 300))
    assert err.value.allowed == "bids from Bruno, Dario"
    t, ev = play(t, Bid("Dario", 200), Hammer(POS["Parco della Vittoria"]))
    assert "BuildingAuctionOpened" not in types(ev) and t.bank_houses == 0
    assert t.auction is None and stock_ok(t) and balanced(t)


def test_a_bidder_who_loses_his_room_mid_series_drops_out_without_breaking_the_next_auction():
    t = own(scarce(own(verde(), "Bruno", *MARRONE), 2), "Dario", "Viale dei Giardini",
            "Parco della Vittoria")
    t, _ = play(t, BuildingAuction("house", (("Anna", 2), ("Bruno", 2), ("Dario", 2))))
    t, _ = play(t, Mortgage(POS["Parco della Vittoria"]))  # Dario can no longer build there
    t, ev = play(t, Bid("Anna", 200), Hammer(POS["Via Roma"]))
    opened = of_type(ev, "BuildingAuctionOpened")[0]
    assert opened["min_bid"] == 50 and opened["wanted"] == {"Anna": 1, "Bruno": 2, "Dario": 2}
    with pytest.raises(RuleViolation, match="Dario has no lot where a house could go now"):
        play(t, Bid("Dario", 200))


def test_a_winner_puts_the_house_where_his_bid_covers_the_deeds_price():
    t = own(verde(), "Anna", *MARRONE)  # Anna could build at 50 (marrone) or 200 (verde)
    t = own(t, "Bruno", "Viale dei Giardini", "Parco della Vittoria")
    t = scarce(t, 1)
    t, _ = play(t, BuildingAuction("house", (("Anna", 2), ("Bruno", 1))))
    assert t.auction.min_bid == 50
    t, _ = play(t, Bid("Anna", 60))
    with pytest.raises(RuleViolation) as err:
        play(t, Hammer(POS["Via Roma"]))
    assert err.value.allowed == "`hammer PROPERTY` with Vicolo Corto or Vicolo Stretto"
    t, ev = play(t, Hammer(POS["Vicolo Stretto"]))
    assert of_type(ev, "HouseBuilt")[0]["amount"] == 60 and t.bank_houses == 0


@pytest.mark.parametrize("left,wanted,words", [
    (5, (("Anna", 2), ("Bruno", 2)),
     "the Bank has 5 houses and 4 are wanted: no shortage, so no auction"),
    (1, (("Anna", 2),), "a building auction is for two or more players"),
    (1, (("Anna", 2), ("Bruno", 9)), "Bruno has room for 8 houses, not 9"),
    (1, (("Anna", 2), ("Dario", 1)), "Dario has room for 0 houses, not 1"),
    (0, (("Anna", 2), ("Bruno", 2)), "the Bank has no houses"),
])
def test_a_building_auction_only_when_buildings_are_short(left, wanted, words):
    t = scarce(own(verde(), "Bruno", *MARRONE), left)
    with pytest.raises(RuleViolation, match="004 §Mancanza di edifici") as err:
        play(t, BuildingAuction("house", wanted))
    assert words in str(err.value)


def test_quick_opens_building_auctions_at_ten_and_championship_style_at_the_lowest(tmp_path):
    t = scarce(own(verde(new_table(rules="quick")), "Bruno", *MARRONE), 1)
    t, _ = play(t, BuildingAuction("house", (("Anna", 1), ("Bruno", 1))))
    assert t.auction.min_bid == 10  # 003 §05: from M10, whatever the deed says
    t, ev = play(t, Bid("Anna", 10), Hammer(POS["Largo Augusto"]))
    assert of_type(ev, "HouseBuilt")[0]["amount"] == 10
    path = tmp_path / "penuria.toml"
    path.write_text('extends = "classic"\nbuilding_auction_opening = "lowest_house_price"\n')
    t = scarce(own(verde(new_table(rules=str(path))), "Bruno", *MARRONE), 1)
    t, _ = play(t, BuildingAuction("house", (("Anna", 1), ("Bruno", 1))))
    assert t.auction.min_bid == 50  # 000 §PENURIA DI EDIFICI: the lowest deed concerned
    t, ev = play(t, Bid("Anna", 50), Hammer(POS["Via Roma"]))
    assert of_type(ev, "HouseBuilt")[0]["amount"] == 50


def test_no_trades_and_no_building_during_a_building_auction():
    t = scarce(own(verde(), "Bruno", *MARRONE), 1)
    t, _ = play(t, BuildingAuction("house", (("Anna", 1), ("Bruno", 1))))
    with pytest.raises(RuleViolation, match="000 FAQ 25"):
        play(t, Trade("Anna", "Bruno", Items(cash=10), Items((POS["Vicolo Corto"],))))
    with pytest.raises(RuleViolation, match="buildings go to the highest bidder"):
        play(t, Build(POS["Via Roma"]))
