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

from banco.ledger.base.errors import RuleViolation
from banco.ledger.board.edition import load_edition
from banco.ledger.records.reasons import english

EDITION = load_edition("it")  # a reason's amounts are integers: the edition prints them


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
                                          "reason": {"code": "passed_go"}}]
    assert t.player("Anna").cash == 1700
    assert of_type(ev, "PurchaseOffered")[0]["price"] == 60


def test_landing_on_via_pays_the_salary_once():
    t = place(new_table(), "Anna", 35)
    t, ev = play(t, Roll((2, 3)))
    assert t.player("Anna").position == 0
    assert [d["reason"] for d in of_type(ev, "SalaryPaid")] == [{"code": "landed_go"}]
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
                                            "reason": {"code": "won_auction",
                                                           "space": POS["Vicolo Stretto"]}}
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


def test_a_deed_nobody_bids_for_goes_to_the_richest_at_the_opening_bid():
    # 000 FAQ 22 (004 and 003 are silent): the banker gives it to the player with most cash.
    t, _ = play(new_table(), Roll((1, 2)), Decline())
    t = cash(cash(t, "Carla", 1600), "Bruno", 1599)
    t, ev = play(t, Hammer())
    assert of_type(ev, "AuctionWon")[0] == {
        "player": "Carla", "property": 3, "payer": "Carla", "payee": "bank", "amount": 1,
        "reason": {"code": "no_bid_richest", "space": POS["Vicolo Stretto"], "rule": "000 FAQ 22"}}
    assert t.owners[3] == "Carla" and t.player("Carla").cash == 1599
    assert t.turn.player == "Bruno" and balanced(t)


def test_a_tie_of_cash_is_broken_by_the_banker():
    t, _ = play(new_table(), Roll((1, 2)), Decline())  # everybody has 1500
    with pytest.raises(RuleViolation, match="000 FAQ 22") as err:
        play(t, Hammer())
    assert "Anna, Bruno, Carla and Dario have 1500 M each; the banker says who" in str(err.value)
    assert err.value.allowed == ("`hammer Anna` or `hammer Bruno` or `hammer Carla` or "
                                 "`hammer Dario`")
    t = cash(t, "Anna", 1400)
    with pytest.raises(RuleViolation, match="Bruno, Carla and Dario have 1500 M each"):
        play(t, Hammer(player="Anna"))
    t, ev = play(t, Hammer(player="Dario"))
    assert t.owners[3] == "Dario" and t.player("Dario").cash == 1499
    assert of_type(ev, "AuctionWon")[0]["reason"]["code"] == "no_bid_richest_tied"


def test_the_richest_must_be_able_to_bid():
    from helpers import debt

    t, _ = play(new_table(), Roll((1, 2)), Decline())
    t = debt(cash(t, "Bruno", 3000), "Bruno", "bank", 2900)  # in debt: cannot bid, cannot take it
    t = cash(t, "Carla", 1501)
    t, _ = play(t, Hammer())
    assert t.owners[3] == "Carla"
    t, _ = play(new_table(), Roll((1, 2)), Decline())
    for name in ("Anna", "Bruno", "Carla", "Dario"):
        t = cash(t, name, 0)
    t, ev = play(t, Hammer())
    assert "nobody can pay 1 M" in english(of_type(ev, "AuctionClosed")[0]["reason"], EDITION)
    assert t.owners[3] is None and balanced(t)


def test_quick_rules_give_an_unbid_deed_at_ten_and_house_rules_may_keep_it_unsold(tmp_path):
    t, _ = play(new_table(rules="quick"), Roll((1, 2)), Decline())
    t, ev = play(cash(t, "Bruno", 1501), Hammer())
    assert of_type(ev, "AuctionWon")[0]["amount"] == 10 and t.player("Bruno").cash == 1491
    from banco.ledger.board.rule_sets import load_rules

    path = tmp_path / "keep.toml"
    path.write_text('extends = "classic"\nauction_no_bid = "bank_keeps"\n')
    t = new_table(rules=str(path))
    assert load_rules(str(path)).auction_no_bid == "bank_keeps"
    t, ev = play(t, Roll((1, 2)), Decline(), Hammer())
    assert of_type(ev, "AuctionClosed")[0]["outcome"] == "no bid"
    assert t.owners[3] is None and t.turn.player == "Bruno"


def test_hammer_player_only_picks_among_the_tied_when_nobody_bid():
    t, _ = play(new_table(), Roll((1, 2)), Decline(), Bid("Bruno", 5))
    with pytest.raises(RuleViolation, match="Bruno bid 5 M: the highest bid wins"):
        play(t, Hammer(player="Carla"))


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


@pytest.mark.parametrize("dice", [(3,), (1, 2, 3)])
def test_two_numbered_dice_or_it_is_a_usage_error(dice):
    # no rule set throws one numbered die or three: a slip (exit 2), whatever the table waits for
    from banco.ledger.base.errors import UsageError

    word = "die" if len(dice) == 1 else "dice"
    with pytest.raises(UsageError, match=rf"roll D1 D2 S with the Speedy die; got {len(dice)} {word}$"):
        play(new_table(), Roll(dice))
    with pytest.raises(UsageError, match="got"):
        play(new_table()._replace(turn=new_table().turn._replace(phase="buy")), Roll(dice))


@pytest.mark.parametrize("dice", [(0, 3), (7, 1)])
def test_a_die_value_no_die_shows_is_a_usage_error(dice):
    from banco.ledger.base.errors import UsageError

    with pytest.raises(UsageError, match="a die shows 1 to 6, not"):
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
    t, _ = play(new_table(), Roll((1, 2)), Decline(), Bid("Bruno", 50), Bid("Carla", 60))
    t = cash(t, "Carla", 50)  # Carla has spent her cash since she bid
    t, ev = play(t, Hammer())
    assert types(ev) == ["AuctionVoided", "AuctionOpened"]
    assert "000 §COMPRARE I CONTRATTI" in english(of_type(ev, "AuctionVoided")[0]["reason"])
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
    assert "owes 100 M to Bruno" in str(err.value)
    assert err.value.allowed == "Anna owes 100 M to Bruno (test debt) and has the cash: `pay Anna`"
    t, ev = play(t, Decline())  # declining costs nothing: the deed goes to auction
    assert t.turn.phase == "auction"


# --- who may sit at the table -------------------------------------------------------------------

@pytest.mark.parametrize("name", ["bank", "Bank", "BANK", "banca", "Banca", "the bank",
                                  "La Banca", "banco", "Bänk", "  bank  "[2:-2], "Il Banchiere"])
def test_no_player_may_take_the_banks_name(name):
    from banco.ledger.base.errors import UsageError
    from banco.ledger.board.rule_sets import load_rules
    from banco.ledger.rules.decide import start_game

    with pytest.raises(UsageError, match=f"player name {name!r} refused: that is the Bank's name"):
        start_game([name, "Anna"], load_rules("classic"), "it")


@pytest.mark.parametrize("names,words", [
    (["", "Anna"], "'' refused: a name cannot be empty"),
    (["  ", "Anna"], "'  ' refused: a name cannot be empty"),
    ([" Anna", "Bruno"], "spaces at its ends: type it as 'Anna'"),
    (["Anna", "Anná"], "'Anna' and 'Anná' are the same to banco"),
    (["anna", "ANNA"], "'anna' and 'ANNA' are the same"),
    (["Anna", "Anna!"], "'Anna' and 'Anna!' are the same"),
    (["Anna", "42"], "'42' refused: a name of digits would be read as an amount"),
    (["Anna", "-p"], "'-p' refused: a name starting with '-' would be read as an option"),
    (["Anna", "#1"], "read as a comment"),
    (["Anna", "jail-card"], "get-out-of-jail card"),
    (["Anna", "Jail"], "get-out-of-jail card"),
    (["Anna", "Bru=no"], "'=' separates a name from a count"),
    (["Anna", "Bru\x07no"], "control character U\\+0007"),
    (["Anna", "Bruno\u200b"], r"it contains an invisible character \(U\+200B\)$"),
    (["Anna", "\u2066Bruno"], r"an invisible character \(U\+2066\)"),
    (["Anna", "Bruno\ue000"], r"a character that cannot be shown \(U\+E000\)"),
    (["Anna", "Bruno\udcff"], r"a character that cannot be shown \(U\+DCFF\)"),
    (["Anna", "x" * 25], "25 characters long; at most 24"),
    (["Anna", "!!!"], "needs at least one letter"),
])
def test_names_a_banker_could_not_type_are_refused(names, words):
    from banco.ledger.base.errors import UsageError
    from banco.ledger.board.rule_sets import load_rules
    from banco.ledger.rules.decide import start_game

    with pytest.raises(UsageError, match=words):
        start_game(names, load_rules("classic"), "it")


def test_ordinary_names_with_accents_spaces_and_digits_are_seated():
    t = new_table(("Anná", "Gian Luca", "R2D2", "x" * 24))
    assert t.seats == ("Anná", "Gian Luca", "R2D2", "x" * 24) and balanced(t)


def test_the_first_player_must_be_at_the_table():
    from banco.ledger.base.errors import UsageError
    from banco.ledger.board.rule_sets import load_rules
    from banco.ledger.rules.decide import start_game

    with pytest.raises(UsageError, match="'Zeno' is not one of the players"):
        start_game(["Anna", "Bruno"], load_rules("classic"), "it", "Zeno")


# --- what the table waits for (next_step) and what a refusal says is allowed -------------------

def test_next_step_during_a_debt_names_who_owes_what_and_the_words():
    from helpers import debt, own

    from banco.ledger.table.state import next_step

    t = turn_of(debt(cash(new_table(), "Anna", 100), "Anna", "bank", 150), "Bruno")
    assert next_step(t) == ("Anna owes 150 M to the Bank (test debt) and can raise only 100 M: "
                            "`bankrupt Anna`; then Bruno rolls")
    t = own(t, "Anna", "Via Roma")  # mortgage 100: now she can raise it
    assert next_step(t) == ("Anna owes 150 M to the Bank (test debt) with 100 M in cash: raise "
                            "50 M (`sell`, `mortgage`, `trade`), then `pay Anna`; then Bruno rolls")
    with pytest.raises(RuleViolation, match="cannot roll: Anna owes 150 M to the Bank") as err:
        play(t, Roll((1, 2)))
    assert err.value.allowed.endswith("then `pay Anna`")
    t = cash(t, "Anna", 150)
    assert next_step(t) == "Anna owes 150 M to the Bank (test debt) and has the cash: `pay Anna`; then Bruno rolls"


def test_next_step_during_auctions_says_what_hammer_would_do():
    from helpers import debt

    from banco.ledger.table.state import next_step

    t, _ = play(new_table(), Roll((1, 2)), Decline())
    assert next_step(t) == (
        "the auction for Vicolo Stretto is open (no bid yet, bids from 1 M): `bid PLAYER AMOUNT` "
        "or `hammer PLAYER` among Anna, Bruno, Carla and Dario (no bid: the richest player takes it "
        "at 1 M; they are tied, so the banker says who)")
    t = cash(t, "Carla", 1600)
    assert next_step(t).endswith("`hammer` (no bid: Carla, the richest, takes it at 1 M, 000 FAQ 22)")
    t2, _ = play(t, Bid("Bruno", 30))
    assert next_step(t2) == ("the auction for Vicolo Stretto is open (Bruno leads at 30 M): "
                             "`bid PLAYER AMOUNT` or `hammer`")
    t = debt(t, "Dario", "bank", 2000)  # Dario owns nothing to raise it with
    assert next_step(t).endswith("; meanwhile Dario owes 2000 M to the Bank (test debt) and can "
                                 "raise only 1500 M: `bankrupt Dario`")


def test_next_step_for_a_building_auction_names_the_wants():
    from estate_tables import MARRONE, scarce, verde
    from helpers import own

    from banco.ledger.records.commands import BuildingAuction
    from banco.ledger.table.state import next_step

    t = scarce(own(verde(), "Bruno", *MARRONE), 2)
    t, _ = play(t, BuildingAuction("house", (("Anna", 3), ("Bruno", 2))))
    assert next_step(t) == ("the auction for a house is open (no bid yet, bids from 50 M; still "
                            "wanted: Anna 3, Bruno 2): `bid PLAYER AMOUNT` or `hammer` (no bid: "
                            "the house stays with the Bank)")
    t, _ = play(t, Bid("Bruno", 50))
    assert next_step(t).endswith("`hammer [PROPERTY]` (where it goes)")


def test_next_step_for_cards_and_jail():
    from test_cards import at_card, draw

    from banco.ledger.table.state import next_step

    t = at_card()
    assert next_step(t) == "Anna must draw from Imprevisti: `card imprevisti CARD`"
    t = new_table()
    for n in range(1, 16):
        t = draw(t, "imprevisti", n)
    t = at_card()._replace(decks=t.decks)
    assert next_step(t) == ("Anna must draw from Imprevisti: `card imprevisti CARD` (the next "
                            "card is Imprevisti 16)")
    jailed = place(new_table(), "Anna", 10, in_jail=True)
    assert next_step(jailed) == ("Anna is in jail: `pay-fine`, `roll D1 D2` to try for doubles "
                                 "(try 1 of 3)")
    assert next_step(cash(jailed, "Anna", 10)) == ("Anna is in jail: `roll D1 D2` to try for "
                                                   "doubles (try 1 of 3)")


def test_a_bad_die_exits_2_and_appends_nothing(banco):
    import json

    banco("new", "Anna", "Bruno")
    before = json.loads(banco("log", "--json").output)
    r = banco("roll", "7", "1", code=2)
    assert "error: a die shows 1 to 6, not 7 1" in r.output
    assert "Imprevisti has cards 1 to 16, not 99" in banco("card", "imp", "99", code=2).output
    assert json.loads(banco("log", "--json").output) == before
