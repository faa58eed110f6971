"""The classic turn: moving, salary, doubles, buying and auctions (seeds 003 and 004)."""

import pytest
from helpers import (
    POS,
    Bid,
    Buy,
    Decline,
    Hammer,
    Roll,
    balanced,
    cash,
    new_table,
    of_type,
    place,
    play,
    turn_of,
    types,
)

from ledger.errors import RuleViolation


def test_game_starts_with_cash_issued_by_the_bank():
    t = new_table()
    assert [p.cash for p in t.players] == [1500] * 4
    assert t.bank_paid_out == 6000 and balanced(t)
    assert t.turn.player == "Anna" and t.turn.phase == "roll"


def test_roll_moves_the_current_player_and_the_square_acts():
    t, ev = play(new_table(), Roll((3, 4)))
    assert t.player("Anna").position == 7  # Imprevisti
    assert types(ev) == ["DiceRolled", "TokenMoved", "CardDrawRequired"]
    assert t.turn.phase == "card"


def test_passing_via_pays_the_salary():
    t = place(new_table(), "Anna", 36)
    t, ev = play(t, Roll((3, 2)))  # 36 + 5 = 41 -> Vicolo Corto (1)
    assert t.player("Anna").position == 1
    assert of_type(ev, "SalaryPaid") == [{"payer": "bank", "payee": "Anna", "amount": 200,
                                          "reason": "passed Via!"}]
    assert t.player("Anna").cash == 1700
    assert of_type(ev, "PurchaseOffered")[0]["price"] == 60


def test_landing_on_via_pays_the_salary_once():
    t = place(new_table(), "Anna", 35)
    t, ev = play(t, Roll((2, 3)))
    assert t.player("Anna").position == 0
    assert [d["reason"] for d in of_type(ev, "SalaryPaid")] == ["landed on Via!"]
    assert t.player("Anna").cash == 1700
    assert t.turn.player == "Bruno"


def test_doubles_roll_again_and_the_turn_then_passes():
    t, ev = play(new_table(), Roll((2, 2)))  # Tassa Patrimoniale: 200
    assert t.player("Anna").cash == 1300
    assert types(ev)[-1] == "ExtraRollDue"
    assert t.turn.player == "Anna" and t.turn.doubles == 1
    t, ev = play(t, Roll((1, 2)))  # 4 + 3 = 7, Imprevisti
    assert t.turn.phase == "card" and t.turn.player == "Anna"


def test_third_doubles_in_a_row_goes_to_jail_without_moving():
    t = place(new_table(), "Anna", 5)
    t = t._replace(turn=t.turn._replace(doubles=2))
    t, ev = play(t, Roll((4, 4)))
    assert types(ev) == ["DiceRolled", "SentToJail", "TurnEnded"]
    a = t.player("Anna")
    assert a.position == 10 and a.in_jail
    assert a.cash == 1500  # no salary, no landing
    assert t.turn.player == "Bruno"


def test_buy_pays_the_price_and_takes_the_deed():
    t, ev = play(new_table(), Roll((1, 2)), Buy())  # Vicolo Stretto, 60
    assert t.owners[POS["Vicolo Stretto"]] == "Anna"
    assert t.player("Anna").cash == 1440
    assert of_type(ev, "PropertyBought")[0]["amount"] == 60
    assert t.turn.player == "Bruno" and balanced(t)


def test_buy_refused_without_the_cash_and_decline_is_offered():
    t, _ = play(new_table(), Roll((1, 2)))
    t = cash(t, "Anna", 50)
    with pytest.raises(RuleViolation, match='Anna has 50 M in cash and Vicolo Stretto costs 60 M') as err:
        play(t, Buy())
    assert "50 M in cash" in str(err.value) and "Vicolo Stretto costs 60 M" in str(err.value)
    assert "decline" in err.value.allowed and "004" in err.value.rule


def test_buy_refused_when_nothing_is_offered():
    with pytest.raises(RuleViolation, match='cannot buy now') as err:
        play(new_table(), Buy())
    assert "Anna to `roll D1 D2`" in err.value.allowed


def test_declined_property_goes_to_auction_and_the_decliner_may_bid():
    t, ev = play(new_table(), Roll((1, 2)), Decline())
    assert types(ev)[-2:] == ["PropertyDeclined", "AuctionOpened"]
    assert t.turn.phase == "auction"
    with pytest.raises(RuleViolation, match='open at 1 M; 0 is too low'):
        play(t, Bid("Carla", 0))  # classic: any bid of at least 1
    t, _ = play(t, Bid("Carla", 10))
    with pytest.raises(RuleViolation, match='a bid must raise by at least 1') as err:
        play(t, Bid("Bruno", 10))
    assert "bid 11 or more" in err.value.allowed
    t, _ = play(t, Bid("Bruno", 11), Bid("Anna", 12))
    t, ev = play(t, Hammer())
    assert of_type(ev, "AuctionWon")[0] == {"player": "Anna", "property": 3, "payer": "Anna",
                                            "payee": "bank", "amount": 12,
                                            "reason": "won Vicolo Stretto at auction"}
    assert t.owners[3] == "Anna" and t.player("Anna").cash == 1488
    assert t.auction is None and t.turn.player == "Bruno" and balanced(t)


def test_quick_rules_open_auctions_at_ten():
    t, _ = play(new_table(rules="quick"), Roll((1, 2)), Decline())
    with pytest.raises(RuleViolation, match='open at 10 M; 9 is too low') as err:
        play(t, Bid("Carla", 9))
    assert "open at 10 M" in str(err.value) and "003" in err.value.rule
    t, _ = play(t, Bid("Carla", 10))
    assert t.auction.high_bid == 10


def test_a_bid_above_cash_in_hand_is_refused():
    t, _ = play(new_table(), Roll((1, 2)), Decline())
    t = cash(t, "Carla", 30)
    with pytest.raises(RuleViolation, match='Carla has 30 M in cash and cannot bid 31') as err:
        play(t, Bid("Carla", 31))
    assert "bid at most 30" in err.value.allowed


def test_auction_without_a_bid_leaves_the_deed_with_the_bank():
    t, ev = play(new_table(), Roll((1, 2)), Decline(), Hammer())
    assert of_type(ev, "AuctionClosed")[0]["outcome"] == "no bid"
    assert t.owners[3] is None and t.turn.player == "Bruno"


def test_bids_from_strangers_and_out_of_auction_are_refused():
    t, _ = play(new_table(), Roll((1, 2)), Decline())
    with pytest.raises(RuleViolation, match='Zeno is not at this table'):
        play(t, Bid("Zeno", 5))
    with pytest.raises(RuleViolation, match='cannot bid now'):
        play(new_table(), Bid("Anna", 5))
    with pytest.raises(RuleViolation, match='cannot close the auction now'):
        play(new_table(), Hammer())


def test_player_option_checks_whose_turn_it_is():
    with pytest.raises(RuleViolation, match="it is Anna's turn, not Bruno's, to roll") as err:
        play(new_table(), Roll((1, 2), player="Bruno"))
    assert "Anna's turn" in str(err.value)
    t, _ = play(new_table(), Roll((1, 2), player="Anna"))
    assert t.player("Anna").position == 3


@pytest.mark.parametrize("dice", [(0, 3), (7, 1), (3,), (1, 2, 3)])
def test_impossible_dice_are_refused(dice):
    with pytest.raises(RuleViolation, match='a die shows 1 to 6|rules roll two dice'):
        play(new_table(), Roll(dice))


def test_go_to_jail_square_sends_to_jail_without_salary_even_after_doubles():
    t = place(new_table(), "Anna", 26)
    t, ev = play(t, Roll((2, 2)))
    a = t.player("Anna")
    assert a.position == 10 and a.in_jail and a.cash == 1500
    assert "ExtraRollDue" not in types(ev) and t.turn.player == "Bruno"


def test_tax_squares_charge_their_amount():
    t = place(new_table(), "Anna", 35)
    t, ev = play(t, Roll((1, 2)))  # 38 Tassa di Lusso
    assert of_type(ev, "TaxPaid")[0]["amount"] == 100 and t.player("Anna").cash == 1400


def test_free_parking_does_nothing():
    t = place(new_table(), "Anna", 17)
    t, ev = play(t, Roll((1, 2)))
    assert t.player("Anna").position == 20
    assert types(ev) == ["DiceRolled", "TokenMoved", "TurnEnded"]
    assert t.player("Anna").cash == 1500


def test_eliminated_players_are_skipped_in_turn_order():
    t = new_table()
    i = t.index["Bruno"]
    t = t._replace(players=t.players[:i] + (t.players[i]._replace(bankrupt=True),) + t.players[i + 1:])
    t, _ = play(t, Roll((1, 2)), Buy())
    assert t.turn.player == "Carla"


def test_a_game_over_refuses_everything():
    t = new_table()._replace(ended=True)
    with pytest.raises(RuleViolation, match='the game is over'):
        play(t, Roll((1, 2)))


def test_turn_helper_for_tests_is_consistent():
    t = turn_of(new_table(), "Carla")
    t, _ = play(t, Roll((1, 2), player="Carla"))
    assert t.player("Carla").position == 3


def test_a_winner_who_cannot_pay_voids_the_auction_and_is_kept_out_of_the_next():
    from helpers import Items, Trade

    t, _ = play(new_table(), Roll((1, 2)), Decline(), Bid("Bruno", 50), Bid("Carla", 60))
    t, _ = play(t, Trade("Carla", "Dario", Items(cash=1450), Items()))  # Carla spends her cash
    t, ev = play(t, Hammer())
    assert types(ev) == ["AuctionVoided", "AuctionOpened"]
    assert "000 §COMPRARE I CONTRATTI" in of_type(ev, "AuctionVoided")[0]["reason"]
    assert t.auction.high_bidder is None and t.auction.excluded == ("Carla",)
    with pytest.raises(RuleViolation, match='could not pay: kept out of the new one') as err:
        play(t, Bid("Carla", 10))
    assert "kept out" in str(err.value)
    t, ev = play(t, Bid("Bruno", 40), Hammer())
    assert t.owners[3] == "Bruno" and t.player("Bruno").cash == 1460 and balanced(t)


def test_a_debtor_cannot_spend_on_a_deed_before_paying():
    from helpers import debt

    t, _ = play(new_table(), Roll((1, 2)))
    t = debt(t, "Anna", "Bruno", 100)
    with pytest.raises(RuleViolation, match='cannot buy: Anna owes 100 M to Bruno') as err:
        play(t, Buy())
    assert "owes 100 M to Bruno" in str(err.value) and "bankrupt" in err.value.allowed
    t, ev = play(t, Decline())  # declining costs nothing: the deed goes to auction
    assert t.turn.phase == "auction"
