"""The 2015 championship's rules beyond the Speedy die (seed 000), through decide and evolve:
the claim window and claims made while the dice are on the table (FAQ 7-8), jail-card prices
(FAQ 21), trades in a turn (FAQ 26) and with two left (FAQ 31), bankruptcy in the
start-of-turn state (FAQ 32)."""

import pytest
from helpers import POS, cash, mortgage, new_table, of_type, own, place, play, types

from banco.ledger.base.errors import RuleViolation
from banco.ledger.records import commands as c
from banco.ledger.records.reasons import english
from banco.ledger.rules.decide import decide
from banco.projections.audit.checks import table_problems

FOUR = ("Anna", "Bruno", "Carla", "Dario")


def champ(players=FOUR, **kw):
    return new_table(players, rules="championship", **kw)


# --- FAQ 7 and 8 ----------------------------------------------------------------------------

def landed_on_annas():
    """Bruno lands on Anna's Vicolo Stretto (rent 4); Carla to roll."""
    t = own(champ(), "Anna", "Vicolo Stretto")
    t, _ = play(t, c.Roll((4, 6)))  # Anna -> 10
    t, _ = play(t, c.Roll((1, 2)))  # Bruno -> 3
    assert [(cl.payer, cl.closer) for cl in t.claims] == [("Bruno", "Dario")]
    return t


def test_the_claim_window_closes_when_the_second_player_after_the_payer_rolls():
    t = landed_on_annas()
    t, _ = play(t, c.Roll((4, 6)))  # Carla -> 10: still open (000 FAQ 7)
    assert t.claims
    t, events = play(t, c.Roll((4, 6)))  # Dario rolls: closed
    assert of_type(events, "RentClaimLapsed")[0]["closed_by"] == "Dario"
    with pytest.raises(RuleViolation, match=r"too late.*\(000 FAQ 7\)") as err:
        decide(t, c.Claim("Anna"))
    assert err.value.record[0]["data"]["rule"] == "000 FAQ 7"


def test_a_claim_made_while_the_next_dice_are_on_the_table_is_paid_after_that_turn():
    t = landed_on_annas()
    t, _ = play(t, c.Roll((4, 5)))  # Carla -> 9 Viale Vesuvio, for sale: her turn goes on
    t, events = play(t, c.Claim("Anna"))
    assert types(events) == ["RentClaimDeferred"]
    d = events[0]["data"]
    assert (d["settles_after"], d["rule"]) == ("Carla", "000 FAQ 8")
    assert t.player("Bruno").cash == 1500 and t.claims[0].made_seq
    with pytest.raises(RuleViolation, match=r"already claimed.*when Carla's turn is over"):
        decide(t, c.Claim("Anna"))
    t, events = play(t, c.Buy())  # Carla's turn is over: now the rent
    assert types(events) == ["PropertyBought", "RentPaid", "TurnEnded"]
    assert (t.player("Anna").cash, t.player("Bruno").cash) == (1504, 1496)
    assert not t.claims and not table_problems(t)


def test_a_claim_made_during_a_roll_of_doubles_is_paid_before_the_roll_again():
    """A roll for doubles is a turn of its own (000 FAQ 11: "Il loro lancio successivo conta
    come un turno extra"): the deferred rent is paid when Carla's square is done, not after
    her roll again; the words say so, since a family reads "her turn" as both rolls."""
    t = landed_on_annas()
    t, _ = play(t, c.Roll((3, 3)))  # Carla -> 6 Bastioni Gran Sasso, for sale; doubles
    t, events = play(t, c.Claim("Anna"))
    assert types(events) == ["RentClaimDeferred"]
    t, events = play(t, c.Buy())
    assert types(events) == ["PropertyBought", "RentPaid", "ExtraRollDue"]
    assert (t.player("Anna").cash, t.player("Bruno").cash) == (1504, 1496)
    assert t.turn.player == "Carla" and not t.claims


def test_the_deferred_claims_words_say_it_is_paid_before_the_roll_for_doubles(tmp_path):
    import banco

    with banco.open(str(tmp_path / "g.db"), create=True) as book:
        game = book.execute("new Anna Bruno Carla --rules championship").game
        for line in ("roll 1 2", "buy", "roll 2 1", "roll 3 3", "decline"):
            assert book.execute(line, game=game).refusal is None, line
        out = book.execute("claim anna", game=game)
        assert "before any roll for doubles" in out.say("en") and "000 FAQ 11" in out.say("en")
        assert "prima di un nuovo tiro per il doppio" in out.say("it")


def test_a_claim_made_between_turns_is_paid_at_once():
    t = landed_on_annas()
    t, events = play(t, c.Claim("Anna"))  # Carla has not rolled: no dice on the table
    assert types(events) == ["RentPaid"]


def test_a_made_claim_paid_short_becomes_the_payers_debt_at_the_end_of_the_turn():
    t = cash(landed_on_annas(), "Bruno", 3)
    t, _ = play(t, c.Roll((4, 5)), c.Claim("Anna"))  # deferred until Carla's turn is over
    t, events = play(t, c.Buy())
    assert types(events) == ["PropertyBought", "DebtIncurred", "RentClaimLapsed", "TurnEnded"]
    assert [(d.debtor, d.creditor, d.amount) for d in t.debts] == [("Bruno", "Anna", 4)]
    with pytest.raises(RuleViolation, match="Bruno owes 4 M to Anna"):
        decide(t, c.Roll((1, 1)))  # Dario waits for the debt (003 §10)


def test_the_classic_claim_is_paid_at_once_whatever_the_dice():
    t = own(new_table(FOUR), "Anna", "Vicolo Stretto")
    t, _ = play(t, c.Roll((4, 6)), c.Roll((1, 2)))  # Bruno on Anna's; Carla to roll
    t, events = play(t, c.Claim("Anna"))
    assert types(events) == ["RentPaid"]
    # nor is it a turn in progress for 000 FAQ 26: Anna and Bruno may trade
    play(t, c.Trade("Anna", "Bruno", c.Items(properties=(POS["Vicolo Stretto"],)),
                    c.Items(cash=100)))


# --- FAQ 21, 26, 31 --------------------------------------------------------------------------

def with_a_jail_card(t, player="Anna"):
    i = t.index[player]
    p = t.players[i]._replace(jail_cards=(("imprevisti", 15),))
    return t._replace(players=t.players[:i] + (p,) + t.players[i + 1:],
                      held_cards={("imprevisti", 15): player})


def card_for(cash_):
    return c.Trade("Anna", "Bruno", c.Items(jail_cards=1), c.Items(cash=cash_))


def test_a_jail_card_sells_for_at_most_50():
    t = with_a_jail_card(champ())
    with pytest.raises(RuleViolation, match=r"at most 50 M each \(000 FAQ 21\)"):
        decide(t, card_for(51))
    t2, events = play(t, card_for(50))
    assert t2.player("Bruno").jail_cards == (("imprevisti", 15),)
    # classic: any agreed price (004 §Fermati ai campi Probabilità e Tesoro)
    play(with_a_jail_card(new_table(FOUR)), card_for(200))


def test_trades_during_a_turn_must_involve_the_active_player():
    t = own(champ(), "Bruno", "Stazione Sud")
    t = own(t, "Carla", "Viale Vesuvio")
    t, _ = play(t, c.Roll((5, 6)))  # Anna -> 11 Via Accademia, for sale: her turn goes on
    sale = c.Trade("Bruno", "Carla", c.Items(properties=(POS["Stazione Sud"],)), c.Items(cash=250))
    with pytest.raises(RuleViolation, match=r"Anna's turn is in progress.*\(000 FAQ 26\)"):
        decide(t, sale)
    play(t, c.Trade("Anna", "Bruno", c.Items(cash=250),
                    c.Items(properties=(POS["Stazione Sud"],))))
    t, _ = play(t, c.Buy())  # Anna's turn is over; Bruno has not rolled
    play(t, sale)  # between turns: anyone


def test_no_trades_with_two_left_in_a_preliminary_game_but_in_a_final():
    for final, refused in ((False, True), (True, False)):
        t = own(champ(("Anna", "Bruno", "Carla"), final=final), "Bruno", "Stazione Sud")
        t = place(t, "Carla", 0, bankrupt=True)
        t = t._replace(eliminated=("Carla",))
        sale = c.Trade("Anna", "Bruno", c.Items(cash=300),
                       c.Items(properties=(POS["Stazione Sud"],)))
        if refused:
            with pytest.raises(RuleViolation, match=r"only two players are left.*\(000 FAQ 31\)"):
                decide(t, sale)
        else:
            play(t, sale)
    # With three left the same trade is fine in a preliminary game.
    play(own(champ(("Anna", "Bruno", "Carla")), "Bruno", "Stazione Sud"), sale)


# --- FAQ 32 ------------------------------------------------------------------------------------

def anna_owes_bruno_50():
    """Anna (0 cash) owns Vicolo Stretto and Bastioni Gran Sasso (mortgaged before her turn);
    she rolls onto Bruno's two stations (50)."""
    t = champ(("Anna", "Bruno", "Carla"))
    t = own(t, "Anna", "Vicolo Stretto", "Bastioni Gran Sasso")
    t = mortgage(t, "Bastioni Gran Sasso")
    t = own(t, "Bruno", "Stazione Ovest", "Stazione Sud")
    t = cash(place(t, "Anna", 10), "Anna", 0)
    t, _ = play(t, c.Roll((2, 3)))  # Anna -> 15 Stazione Ovest
    return t


def test_a_deed_mortgaged_during_the_turn_passes_as_it_was_when_the_turn_began():
    t = anna_owes_bruno_50()
    t, _ = play(t, c.Mortgage(POS["Vicolo Stretto"]), c.Claim("Bruno"))  # 30 < 50: a debt
    t, events = play(t, c.Bankrupt("Anna"))
    reverted = of_type(events, "MortgageReverted")
    assert [(d["property"], d["amount"], d["payee"]) for d in reverted] == [
        (POS["Vicolo Stretto"], 30, "bank")]
    assert POS["Vicolo Stretto"] not in t.mortgaged  # as at the start of the turn
    assert POS["Bastioni Gran Sasso"] in t.mortgaged
    fee = of_type(events, "MortgageInterestPaid")
    assert [(d["property"], d["amount"]) for d in fee] == [(POS["Bastioni Gran Sasso"], 5)]
    assert t.player("Bruno").cash == 1500 - 5 and not table_problems(t)


def test_after_another_roll_the_estate_passes_as_it_stands():
    t = anna_owes_bruno_50()
    t, _ = play(t, c.Mortgage(POS["Vicolo Stretto"]))
    t, _ = play(t, c.Roll((4, 6)))  # Bruno rolls: Anna's turn is over (and her claim holds)
    t, _ = play(t, c.Claim("Bruno"))
    t, events = play(t, c.Bankrupt("Anna"))
    assert of_type(events, "MortgageReverted") == []
    assert POS["Vicolo Stretto"] in t.mortgaged
    assert t.player("Bruno").cash == 1500 + 30 - 3 - 5  # her 30 cash; 10% on both mortgages


def test_to_the_bank_the_start_of_turn_state_does_not_apply():
    # FAQ 32 is about a player creditor (the 10% he would pay); the Bank cancels mortgages.
    t = champ(("Anna", "Bruno", "Carla"))
    t = cash(own(t, "Anna", "Vicolo Corto"), "Anna", 100)
    t, _ = play(t, c.Roll((1, 3)), c.Mortgage(POS["Vicolo Corto"]))  # tax 200: a debt
    t, events = play(t, c.Bankrupt("Anna"))
    assert of_type(events, "MortgageReverted") == []


def test_a_deed_mortgaged_before_the_debtors_roll_passes_mortgaged():
    t = champ(("Anna", "Bruno", "Carla"))
    t = own(t, "Anna", "Vicolo Stretto")
    t = own(t, "Bruno", "Stazione Ovest", "Stazione Sud")
    t = cash(place(t, "Anna", 10), "Anna", 0)
    t, _ = play(t, c.Mortgage(POS["Vicolo Stretto"]))  # before her turn begins: 30
    t, _ = play(t, c.Roll((2, 3)), c.Claim("Bruno"))  # 15: 50 owed, 30 in cash
    t, events = play(t, c.Bankrupt("Anna"))
    assert of_type(events, "MortgageReverted") == []
    assert POS["Vicolo Stretto"] in t.mortgaged and t.owners[POS["Vicolo Stretto"]] == "Bruno"


def test_a_claim_during_a_bankrupts_auction_between_turns_is_paid_at_once():
    # Bruno lands on Anna's; Carla rolls onto a tax she cannot pay and goes bankrupt to the
    # Bank; her deed is auctioned before Dario rolls.  Carla's dice are not "on the table" of a
    # turn in progress: Anna's claim is paid at once, not after Dario's coming turn.
    t = own(champ(), "Anna", "Vicolo Stretto")
    t = own(t, "Carla", "Via Roma")
    t, _ = play(t, c.Roll((4, 6)), c.Roll((1, 2)))  # Anna -> 10; Bruno -> 3, Anna's
    t = cash(t, "Carla", 10)
    t, _ = play(t, c.Roll((1, 3)), c.Bankrupt("Carla"))  # Carla -> 4: 200 owed, 160 raisable
    assert t.auction and t.turn.player == "Dario" and t.turn.phase == "auction"
    t, events = play(t, c.Claim("Anna"))
    assert types(events) == ["RentPaid"]
    # nor is it a turn in progress for 000 FAQ 26: Anna and Bruno may trade
    play(t, c.Trade("Anna", "Bruno", c.Items(properties=(POS["Vicolo Stretto"],)),
                    c.Items(cash=100)))


def test_a_turn_out_of_order_cites_the_championships_own_rulebook():
    # 000 §SVOLGIMENTO DEL GIOCO says the order of a turn for the championship; 004 for classic
    with pytest.raises(RuleViolation, match=r"cannot buy now \(000 §SVOLGIMENTO DEL GIOCO\)"):
        decide(champ(), c.Buy())
    with pytest.raises(RuleViolation, match=r"it is Anna's turn.*\(000 §SVOLGIMENTO DEL GIOCO\)"):
        decide(champ(), c.Roll((1, 2), player="Bruno", speedy=1))
    with pytest.raises(RuleViolation, match=r"cannot buy now \(004 §Svolgimento del gioco\)"):
        decide(new_table(FOUR), c.Buy())


# --- FAQ 42: two rents of one turn, paid in landing order -----------------------------------

def two_rents_for_anna():
    """The issue's example: Anna (610, every deed of hers mortgaged) at 5 rolls 1 3 mr -> 9
    Viale Vesuvio (Bruno's hotel, 600); Mr Monopoly takes her to 21 Via Marco Polo (Carla's,
    two houses, 250): the nearest rent, every square between being Anna's and mortgaged."""
    from helpers import build

    t = champ()
    names = [s.name for s in t.edition.properties]
    mine = [n for n in names if n not in ("Viale Vesuvio", "Via Marco Polo")]
    t = mortgage(own(t, "Anna", *mine), *mine)
    t = own(t, "Bruno", "Viale Vesuvio")
    t = own(t, "Carla", "Via Marco Polo")
    t = build(build(t, "Viale Vesuvio", 5), "Via Marco Polo", 2)
    t = cash(place(t, "Anna", 5, passed_go=True), "Anna", 610)
    t, _ = play(t, c.Roll((1, 3), speedy="mr"), c.Advance())
    assert [(cl.owner, cl.amount) for cl in t.claims] == [("Bruno", 600), ("Carla", 250)]
    return t


@pytest.mark.parametrize("order", [("Bruno", "Carla"), ("Carla", "Bruno")])
def test_the_first_squares_rent_is_paid_first_whoever_claims_first(order):
    t, events = play(two_rents_for_anna(), *[c.Claim(o) for o in order])
    assert (t.player("Bruno").cash, t.player("Anna").cash) == (1500 + 600, 10)
    assert [(d.creditor, d.amount) for d in t.debts] == [("Carla", 250)]
    if order[0] == "Carla":  # the later square's claim waits as a debt, citing FAQ 42
        assert of_type(events, "DebtIncurred")[0]["reason"]["rule"] == "000 FAQ 42"
    t, events = play(t, c.Bankrupt())
    declared = of_type(events, "BankruptcyDeclared")[0]
    assert (declared["player"], declared["creditor"]) == ("Anna", "Carla")
    assert t.player("Bruno").cash == 2100 and t.player("Anna").bankrupt
    assert not table_problems(t)


# --- a closer who goes bankrupt (FAQ 7) -----------------------------------------------------

def test_a_bankrupt_closers_window_passes_to_the_next_player_still_in_the_game():
    # Anna lands on Dario's Vicolo Stretto (4): the window closes when Carla, two seats after
    # her, rolls.  Carla goes bankrupt first: two seats after Anna is now Dario (000 FAQ 7),
    # so Bruno's roll leaves the claim open; counting one seat would close it there.
    from helpers import owe

    t = own(champ(), "Dario", "Vicolo Stretto")
    t, _ = play(t, c.Roll((1, 2)))  # Anna -> 3
    assert [(cl.payer, cl.closer) for cl in t.claims] == [("Anna", "Carla")]
    t = owe(cash(t, "Carla", 0), "Carla", "bank", 100, "Tassa Patrimoniale")
    t, _ = play(t, c.Bankrupt("Carla"))
    assert t.player("Carla").bankrupt and t.turn.player == "Bruno"
    t, events = play(t, c.Roll((4, 6)))  # Bruno -> 10, then Dario's turn
    assert not of_type(events, "RentClaimLapsed") and t.claims
    assert t.turn.player == "Dario"
    paid, _ = play(t, c.Claim("Dario"))  # still in time
    assert (paid.player("Dario").cash, paid.player("Anna").cash) == (1504, 1496)
    t, events = play(t, c.Roll((4, 6)))  # Dario rolls: now it is closed
    assert of_type(events, "RentClaimLapsed")[0]["closed_by"] == "Dario"
    assert not t.claims and not table_problems(t)


# --- 000 §COMPRARE I CONTRATTI: a winner who cannot pay ------------------------------------

def auction_of_vicolo_stretto(bruno_cash=50):
    """Anna declines Vicolo Stretto (60); Bruno, with `bruno_cash` and Vicolo Corto (mortgage
    30), bids 70."""
    from banco.projections.audit.deed_amounts import bid

    t = cash(own(champ(), "Bruno", "Vicolo Corto"), "Bruno", bruno_cash)
    t, _ = play(t, c.Roll((1, 2)), c.Decline())
    assert not bid(t, {"player": "Bruno", "amount": 70}, None)  # the audit accepts it
    t, events = play(t, c.Bid("Bruno", 70))  # past his cash: allowed under 000
    assert types(events) == ["BidPlaced"]
    return t


def test_a_bid_past_the_cash_is_paid_by_mortgaging_before_the_hammer():
    t = auction_of_vicolo_stretto()
    t, events = play(t, c.Mortgage(POS["Vicolo Corto"]), c.Hammer())
    assert of_type(events, "AuctionWon")[0]["amount"] == 70
    assert t.owners[POS["Vicolo Stretto"]] == "Bruno" and t.player("Bruno").cash == 10
    assert not table_problems(t)


def test_a_winner_who_cannot_pay_has_the_auction_held_again_without_him():
    t = auction_of_vicolo_stretto()
    t, events = play(t, c.Hammer())
    assert types(events) == ["AuctionVoided", "AuctionOpened"]
    assert "000 §COMPRARE I CONTRATTI" in english(of_type(events, "AuctionVoided")[0]["reason"])
    assert t.auction.excluded == ("Bruno",) and t.player("Bruno").cash == 50
    with pytest.raises(RuleViolation, match=r"kept out.*000 §COMPRARE I CONTRATTI"):
        decide(t, c.Bid("Bruno", 1))
    t, _ = play(t, c.Bid("Carla", 5), c.Hammer())
    assert t.owners[POS["Vicolo Stretto"]] == "Carla" and not table_problems(t)


def test_under_classic_a_bid_past_the_cash_is_refused_and_the_audit_flags_one():
    from banco.projections.audit.deed_amounts import bid

    t = cash(new_table(FOUR), "Bruno", 50)
    t, _ = play(t, c.Roll((1, 2)), c.Decline())
    # the winner pays the Bank (003 §03) and no player borrows (004 §Note di gioco); 003 §06
    # is the trades' section (a trial found it cited here)
    with pytest.raises(RuleViolation, match=r"cannot bid 70") as refused:
        decide(t, c.Bid("Bruno", 70))
    assert refused.value.rule == "003 §03; 004 §Note di gioco"
    assert bid(t, {"player": "Bruno", "amount": 70}, None)  # a forged one
