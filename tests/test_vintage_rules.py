"""Vintage Monopoli in lire (seed 002), through decide and evolve: the Bank takes a bankrupt's
estate and pays his creditors in full (§Fallimento); a debtor pays partly in deeds priced by the
creditor, or auctions them among the others (§Varie)."""

import pytest
from helpers import POS, build, cash, mortgage, new_table, of_type, own, play, types
from helpers import owe as debt

from banco.ledger.base.errors import RuleViolation
from banco.ledger.records import commands as c
from banco.ledger.rules.decide import decide
from banco.ledger.table.state import BANK
from banco.projections.audit.checks import table_problems

THREE = ("Anna", "Bruno", "Carla")


def vintage(players=THREE):
    from banco.ledger.board.rule_sets import deeds_to_deal

    t = new_table(players, rules="vintage")
    due = deeds_to_deal(t.rules, len(players))
    return t._replace(dealt={n: due for n in players})  # the deals are not the point here


def carla_in_debt():
    """Carla: 10.000 cash, Vicolo Corto and Vicolo Stretto with a house each, Viale Vesuvio
    mortgaged, Via Accademia free; she owes Bruno 40.000 and the Bank 5.000."""
    t = own(vintage(), "Carla", "Vicolo Corto", "Vicolo Stretto", "Viale Vesuvio", "Via Accademia")
    t = build(build(t, "Vicolo Corto", 1), "Vicolo Stretto", 1)
    t = mortgage(cash(t, "Carla", 10_000), "Viale Vesuvio")
    t = debt(t, "Carla", "Bruno", 40_000)
    return debt(t, "Carla", BANK, 5_000, "tax")


def test_the_bank_takes_everything_and_pays_each_creditor_in_full():
    t = carla_in_debt()
    # raisable: 10.000 + 2 houses at half 5.000 + Via Accademia's 7.000 mortgage = 22.000
    t, events = play(t, c.Bankrupt("Carla"))
    assert types(events)[:3] == ["BuildingsReturned", "EstateTransferred", "DebtPaidByBank"]
    returned = of_type(events, "BuildingsReturned")[0]
    assert (returned["bank_houses"], returned["bank_hotels"]) == (2, 0)
    estate = of_type(events, "EstateTransferred")[0]
    assert (estate["creditor"], estate["payee"], estate["amount"]) == ("bank", "bank", 10_000)
    paid = of_type(events, "DebtPaidByBank")
    assert [(d["payer"], d["payee"], d["amount"]) for d in paid] == [("bank", "Bruno", 40_000)]
    assert of_type(events, "BankruptcyDeclared")[0]["creditor"] == "Bruno"
    assert t.player("Bruno").cash == 300_000 + 40_000 and t.player("Carla").cash == 0
    assert t.bank_houses == 32 and t.buildings[POS["Vicolo Corto"]] == 0
    # the land, mortgages cancelled, auctioned among the players left, one by one
    assert t.auction.property == POS["Vicolo Corto"]
    assert set(t.auction_queue) == {POS["Vicolo Stretto"], POS["Viale Vesuvio"],
                                    POS["Via Accademia"]}
    assert POS["Viale Vesuvio"] not in t.mortgaged and not t.debts
    assert not table_problems(t)


def test_no_lift_when_the_bank_takes_the_estate():
    with pytest.raises(RuleViolation, match="the Bank takes them back"):
        decide(carla_in_debt(), c.Bankrupt("Carla", (POS["Viale Vesuvio"],)))


def test_a_debtor_pays_partly_with_a_deed_at_the_creditors_price():
    t = debt(cash(own(vintage(), "Carla", "Via Accademia", "Viale Vesuvio"), "Carla", 7_000),
             "Carla", "Bruno", 20_000)
    t = mortgage(t, "Viale Vesuvio")
    t, events = play(t, c.PayInKind(((POS["Via Accademia"], 13_000),), "Carla"))
    assert types(events) == ["DebtPaidInKind"]
    d = events[0]["data"]
    assert (d["payer"], d["payee"], d["amount"], d["deeds"]) == (
        "Carla", "Bruno", 7_000, [{"property": POS["Via Accademia"], "price": 13_000}])
    assert t.owners[POS["Via Accademia"]] == "Bruno" and not t.debts
    assert (t.player("Carla").cash, t.player("Bruno").cash) == (0, 307_000)
    assert not table_problems(t)


def test_a_mortgaged_deed_in_payment_costs_the_creditor_the_10_percent():
    t = debt(cash(own(vintage(), "Carla", "Viale Vesuvio"), "Carla", 0), "Carla", "Bruno", 5_000)
    t = mortgage(t, "Viale Vesuvio")
    t, events = play(t, c.PayInKind(((POS["Viale Vesuvio"], 5_000),), "Carla"))
    assert types(events) == ["DebtPaidInKind", "MortgageInterestPaid"]
    assert events[1]["data"]["amount"] == 600  # 10% of the 6.000 mortgage


@pytest.mark.parametrize("deeds,words", [
    ((("Vicolo Corto", 13_000),), "group has buildings"),
    ((("Via Roma", 13_000),), "Via Roma is not Carla's"),
    ((("Via Accademia", 25_000),), "worth more than the debt"),
    ((("Via Accademia", 5_000),), "15.000 £ must be paid in cash, but Carla has 7.000 £"),
    ((("Via Accademia", 6_000), ("Via Accademia", 7_000)), "named twice"),
])
def test_paying_in_deeds_is_refused_naming_002_varie(deeds, words):
    t = own(vintage(), "Carla", "Via Accademia", "Vicolo Corto", "Vicolo Stretto")
    t = debt(cash(build(t, "Vicolo Corto", 1), "Carla", 7_000), "Carla", "Bruno", 20_000)
    cmd = c.PayInKind(tuple((POS[n], p) for n, p in deeds), "Carla")
    with pytest.raises(RuleViolation, match=rf"{words}.*\(002 §Varie\)"):
        decide(t, cmd)


def test_a_debt_to_the_bank_is_not_paid_in_deeds_nor_in_classic():
    t = debt(own(vintage(), "Carla", "Via Accademia"), "Carla", BANK, 20_000)
    with pytest.raises(RuleViolation, match="owes the Bank, which buys no deeds"):
        decide(t, c.PayInKind(((POS["Via Accademia"], 1_000),), "Carla"))
    t = debt(own(new_table(THREE), "Carla", "Via Accademia"), "Carla", "Bruno", 200)
    with pytest.raises(RuleViolation, match=r"the classic rules have no paying in deeds.*"
                                            r"000 FAQ 10"):
        decide(t, c.PayInKind(((POS["Via Accademia"], 100),), "Carla"))


def test_a_debtor_auctions_his_deed_among_the_others_and_is_paid_the_price():
    t = debt(cash(own(vintage(), "Carla", "Via Accademia"), "Carla", 7_000), "Carla", "Bruno",
             20_000)
    t, events = play(t, c.AuctionDeed(POS["Via Accademia"]))
    assert of_type(events, "AuctionOpened")[0]["seller"] == "Carla"
    with pytest.raises(RuleViolation, match=r"Carla is selling Via Accademia.*\(002 §Varie\)"):
        decide(t, c.Bid("Carla", 16_000))
    t, _ = play(t, c.Bid("Bruno", 14_000), c.Bid("Anna", 15_000))
    t, events = play(t, c.Hammer())
    won = of_type(events, "AuctionWon")[0]
    assert (won["payer"], won["payee"], won["amount"]) == ("Anna", "Carla", 15_000)
    assert t.owners[POS["Via Accademia"]] == "Anna" and t.auction is None
    assert t.turn.phase == "roll"  # the table goes back to where it was
    t, _ = play(t, c.PayDebt("Carla"))
    assert [p.cash for p in t.players] == [285_000, 320_000, 2_000]
    assert not table_problems(t)


def test_nobody_bids_for_a_debtors_deed_it_stays_his():
    t = debt(own(vintage(), "Carla", "Via Accademia"), "Carla", "Bruno", 400_000)
    t, events = play(t, c.AuctionDeed(POS["Via Accademia"]), c.Hammer())
    assert of_type(events, "AuctionClosed")[0]["outcome"] == "no bid"
    assert t.owners[POS["Via Accademia"]] == "Carla"


@pytest.mark.parametrize("owner,words", [
    (None, "belongs to the Bank"),
    ("Anna", "Anna owes nothing"),
])
def test_only_a_debtor_auctions_his_own_deed(owner, words):
    t = debt(vintage(), "Carla", "Bruno", 20_000)
    if owner:
        t = own(t, owner, "Via Accademia")
    with pytest.raises(RuleViolation, match=rf"{words}.*\(002 §Varie\)"):
        decide(t, c.AuctionDeed(POS["Via Accademia"]))


def test_salary_and_fine_in_lire():
    # 002 §Indennità: 20.000 £; §Prigione: 5.000 £
    from helpers import place

    t = place(vintage(("Anna", "Bruno")), "Anna", 10, in_jail=True)
    t, events = play(t, c.PayFine())
    assert of_type(events, "FinePaid")[0]["amount"] == 5_000
    t = place(t, "Anna", 36)
    t, events = play(t, c.Roll((1, 3)))  # 36 -> 40 = Via!
    assert [d["amount"] for d in of_type(events, "SalaryPaid")] == [20_000]


def test_a_utility_rent_in_lire_is_400_times_the_dice():
    # The it-lire board is the M board x 100 (002 gives Via! 20.000 for 200): the utility's
    # dice multiplier too, else a rent of 28 £ beside a station's 2.500 £.
    from helpers import place

    t = own(vintage(("Anna", "Bruno")), "Bruno", "Società Elettrica")
    t = place(t, "Anna", 5)
    t, events = play(t, c.Roll((3, 4)))
    assert of_type(events, "RentClaimOpened")[0]["amount"] == 400 * 7


def test_the_jail_fine_refused_for_want_of_cash_cites_002():
    from helpers import place

    t = cash(place(vintage(("Anna", "Bruno")), "Anna", 10, in_jail=True), "Anna", 4_000)
    with pytest.raises(RuleViolation, match=r"the fine is 5.000 £ \(002 §Prigione\)"):
        decide(t, c.PayFine())
