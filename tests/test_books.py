"""The books account by account, and every money fact against the amount the rules give.

Each check here was watched failing with the code it guards broken (see the report of the
audit branch); the figures are worked out by hand from the deeds and the rule set.
"""

import random

import pytest
from forge import amount_at, money_spots, recorded_rows, rows_of, with_amount
from helpers import POS, build, cash, mortgage, new_table, own, place

from banco.ledger.board.edition import load_edition
from banco.ledger.records.events import EVENT_TYPES, MONEY_EVENTS, schemas
from banco.ledger.records.upcast import SCHEMA_VERSION
from banco.ledger.table.state import BANK, Auction, Claim, Debt
from banco.projections.audit import amount_basis, amounts, card_amounts
from banco.projections.audit.audit import audit
from banco.projections.audit.books import Entry, balances, entries, entry_problems, seat_problems
from banco.projections.audit.books import statement_problems as statements

CLASSIC = new_table()  # Anna, Bruno, Carla, Dario with 1500 each


def started(players, issue=None):
    """A hand-made opening: GameStarted and the starting cash, as an old banco wrote it."""
    rules = CLASSIC.rules.params()
    events = [{"type": "GameStarted", "data": {"players": list(players), "rules": rules,
                                               "edition": "it", "first_player": players[0]}}]
    for p in players:
        events.append({"type": "CashIssued", "data": {
            "payer": BANK, "payee": p, "amount": 1500 if issue is None else issue,
            "reason": "starting cash"}})
    return events


def roll(player, d1, d2, frm=0):
    return [{"type": "DiceRolled", "data": {"player": player, "dice": [d1, d2], "doubles": False,
                                            "in_row": 0, "extra_roll": False}},
            {"type": "TokenMoved", "data": {"player": player, "from": frm, "to": frm + d1 + d2,
                                            "spaces": d1 + d2, "cause": "dice",
                                            "passed_go": False}}]


# --- the seats and the accounts ---------------------------------------------------------------

@pytest.mark.parametrize("name", ["bank", "Bank", "BANK", "banca", "Banca", "Bánk", " bank "])
def test_a_log_with_a_player_named_bank_fails_the_audit(name):
    """A log written before `new` refused such names: the audit must not say it balances."""
    rows = rows_of(started([name, "Anna"]) + roll("Anna", 1, 3))
    report = audit(1, rows)
    assert report.bad_seq == 1 and "sits under the Bank's name" in report.problem


def test_the_bank_paying_the_bank_is_flagged():
    e = Entry(7, "TaxPaid", BANK, BANK, 200, "Tassa Patrimoniale")
    assert entry_problems(e, ["Anna", "Bruno"]) == [
        "TaxPaid: the Bank pays 200 to the Bank: a transfer needs two different accounts"]


def test_a_transfer_to_someone_not_at_the_table_is_flagged():
    e = Entry(9, "RentPaid", "Anna", "Zeno", 4, "rent")
    assert entry_problems(e, ["Anna", "Bruno"]) == [
        "RentPaid payee 'Zeno' is neither the Bank nor a seated player: the money goes nowhere"]
    rows = recorded_rows("classic-4p")
    seq = next(r["seq"] for r in rows if r["type"] == "RentPaid")
    rows[seq - 1]["data"]["payee"] = "Zeno"
    report = audit(1, rows_of([{"type": r["type"], "data": r["data"]} for r in rows],
                               version=SCHEMA_VERSION))
    assert report.bad_seq == seq and "'Zeno' is neither the Bank nor a seated player" in report.problem


def test_seats_that_cannot_be_told_apart():
    assert seat_problems(["Anna", "Anná"]) == [
        "players 'Anna' and 'Anná' fold to the same name: their accounts cannot be told apart"]
    assert seat_problems(["  ", "Anna"]) == [
        "a seat has a blank name ('  '): nobody can address it"]
    assert seat_problems(["Anna", "Bruno"]) == []


def test_a_hand_made_unbalanced_table_is_flagged():
    """Anna's cash set to 2000 with no transfer: the Bank 'paid' 500 by the table's own total,
    so a total of cash still balances, but her statement (1500) does not."""
    t = cash(CLASSIC, "Anna", 2000)
    books = balances(e for ev in started(["Anna", "Bruno", "Carla", "Dario"]) for e in entries(ev))
    assert books == {BANK: -6000, "Anna": 1500, "Bruno": 1500, "Carla": 1500, "Dario": 1500}
    assert statements(books, t) == [
        "Anna's statement comes to 1500 but the table shows 2000 in cash",
        "the Bank's statement shows 6000 issued net but the table has 6500"]
    assert statements(books, CLASSIC) == []


def test_starting_cash_is_issued_once_to_each_seat_before_play():
    twice = started(["Anna", "Bruno"]) + started(["Anna"])[1:] + roll("Anna", 1, 3)
    report = audit(1, rows_of(twice))
    assert report.bad_seq == 4 and "starting cash issued to Anna a second time (first at event 2)" \
        in report.problem
    missing = started(["Anna", "Bruno"])[:2] + roll("Anna", 1, 3)
    report = audit(1, rows_of(missing))
    assert report.bad_seq == 3 and "play began before Bruno received starting cash" in report.problem
    stingy = started(["Anna", "Bruno"], issue=1000)
    report = audit(1, rows_of(stingy))
    assert report.bad_seq == 2 and report.problem == (
        "starting cash for Anna is 1000 M; the classic rule set gives 1500 M")


def test_a_fold_that_moves_cash_without_a_transfer_is_caught():
    """The statement is checked after every event, money or not."""
    from banco.ledger.table.state import replay
    from banco.projections.audit.checks import EventChecks

    opening = [{**e, "seq": i} for i, e in enumerate(started(["Anna", "Bruno", "Carla", "Dario"]), 1)]
    steps = replay(opening, 1)
    _, before = next(steps)
    checks = EventChecks(before)
    for e, after in steps:
        assert checks.after(before, e, after) == []
        before = after
    moved = roll("Anna", 1, 3)[1]
    wrong = place(cash(CLASSIC, "Anna", 1700), "Anna", 4)
    assert checks.after(CLASSIC, {**moved, "seq": 7}, wrong)[0] == (
        "Anna's statement comes to 1500 but the table shows 1700 in cash")


# --- each money fact against the rules --------------------------------------------------------

def first_of(rows, type_):
    return next(i for i, r in enumerate(rows) if r["type"] == type_)


# The expected figures, from the deeds and the rule set: starting cash 1500, salary 200, jail fine
# 50 (004); Tassa di Lusso 100; Stazione Sud 200 and, one station owned, 25 rent; Probabilità 4
# "ricavate 50"; a house or hotel on Vicolo Stretto 50; Viale Vesuvio priced 120, so mortgaged
# for 60, lifted for 60 + 6, 6 interest on receiving it.  The winning bid, the debt and the
# estate's cash are what the log recorded before the edit.
@pytest.mark.parametrize("game,type_,message", [
    ("classic-4p", "CashIssued", "starting cash for Anna is 1501 M; the classic rule set gives 1500 M"),
    ("classic-4p", "SalaryPaid", "the Via! salary to Bruno is 201 M; the classic rule set gives 200 M"),
    ("classic-4p", "TaxPaid", "the tax on Tassa di Lusso is 101 M; the board gives 100 M"),
    ("classic-4p", "FinePaid", "the jail fine is 51 M; the classic rule set gives 50 M"),
    ("classic-4p", "PropertyBought", "the price of Stazione Sud is 201 M; the deed gives 200 M"),
    ("classic-4p", "AuctionWon", "the winning bid for Vicolo Corto is 46 M; the highest bid gives 45 M"),
    ("classic-4p", "RentPaid", "the rent on Stazione Sud is 26 M; the claim opened at event 36 gives 25 M"),
    ("classic-4p", "CardPayment", "Probabilità 4 is 51 M; the card's text gives 50 M"),
    ("classic-to-the-end", "HouseBuilt", "a house on Parco della Vittoria is 201 M; the deed's building price gives 200 M"),
    ("classic-to-the-end", "HotelBuilt", "a hotel on Vicolo Corto is 51 M; the deed's building price gives 50 M"),
    ("classic-to-the-end", "PropertyMortgaged", "the mortgage on Corso Ateneo is 71 M; half the deed's price (004 §Impegno) gives 70 M"),
    ("classic-to-the-end", "MortgageLifted", "lifting the mortgage on Stazione Ovest is 111 M; the mortgage 100 + 10% (rounded up) gives 110 M"),
    ("classic-to-the-end", "MortgageInterestPaid", "the interest on receiving Stazione Ovest is 11 M; 10% of the mortgage 100 (rounded up) gives 10 M"),
    ("classic-to-the-end", "DebtPaid", "the debt of event 795 is 451 M; the debt as incurred gives 450 M"),
    ("classic-to-the-end", "EstateTransferred", "the cash in Carla's estate is 175 M; all the debtor's cash (004 §Fallimento) gives 174 M; Carla's cash is negative (-1)"),
])
def test_an_amount_one_off_from_the_rule_is_named_with_the_expected_figure(game, type_, message):
    rows = recorded_rows(game)
    i = first_of(rows, type_)
    report = audit(1, with_amount(rows, (i, None), rows[i]["data"]["amount"] + 1))
    assert (report.bad_seq, report.problem) == (rows[i]["seq"], message)


def test_a_trade_whose_transfer_differs_from_the_deal_is_named():
    rows = recorded_rows("classic-to-the-end")
    i = next(i for i, r in enumerate(rows) if r["type"] == "TradeCompleted" and r["data"]["transfers"])
    d = rows[i]["data"]
    report = audit(1, with_amount(rows, (i, 0), d["transfers"][0]["amount"] + 1))
    payer, payee = d["transfers"][0]["payer"], d["transfers"][0]["payee"]
    assert report.bad_seq == rows[i]["seq"]
    assert report.problem == (f"the cash {payer} pays {payee} in the trade is "
                              f"{d['transfers'][0]['amount'] + 1} M; the deal as recorded gives "
                              f"{d['transfers'][0]['amount']} M")


def test_a_salary_without_a_pass_of_via_is_money_from_nowhere():
    rows = recorded_rows("classic-4p")
    i = first_of(rows, "SalaryPaid")
    rows[i - 1]["data"]["passed_go"] = False
    report = audit(1, rows_of([{"type": r["type"], "data": r["data"]} for r in rows],
                               version=SCHEMA_VERSION))
    assert report.bad_seq == rows[i]["seq"]
    assert report.problem == "a Via! salary to Bruno without a move past Via! just before it"


def test_a_move_that_did_not_pass_via_cannot_earn_a_salary():
    """Anna's first roll, 3+2 from Via! to Stazione Sud: a forger marks it as passing Via! and
    adds a salary; the move itself is named."""
    rows = recorded_rows("classic-4p")
    i = next(i for i, r in enumerate(rows) if r["type"] == "TokenMoved")
    assert (rows[i]["data"]["from"], rows[i]["data"]["spaces"]) == (0, 5)
    rows[i]["data"]["passed_go"] = True
    salary = {"type": "SalaryPaid", "data": {"payer": BANK, "payee": "Anna", "amount": 200,
                                             "reason": {"code": "passed_go"}}}
    events = [{"type": r["type"], "data": r["data"]} for r in rows]
    report = audit(1, rows_of(events[:i + 1] + [salary] + events[i + 1:],
                               version=SCHEMA_VERSION))
    assert (report.bad_seq, report.problem) == (
        rows[i]["seq"], "Anna passes Via! moving 5 from square 0")


def test_auctions_open_and_rise_as_the_rule_set_says():
    """classic (004): bids from 1, step 1; a bid below the lowest, or beyond cash, is forged."""
    t = CLASSIC._replace(auction=Auction(property=39, min_bid=1, step=1, high_bidder="Bruno",
                                         high_bid=100, bids=1))
    opened = {"type": "AuctionOpened", "data": {"property": 39, "min_bid": 10, "step": 1}}
    assert amounts.problems(CLASSIC, opened) == [
        "the opening bid is 10 M; the classic rule set gives 1 M"]
    assert amounts.problems(t, {"type": "BidPlaced", "data": {
        "player": "Carla", "property": 39, "amount": 100}}) == [
        "Carla's bid of 100 is below the lowest allowed, 101"]
    assert amounts.problems(t, {"type": "BidPlaced", "data": {
        "player": "Carla", "property": 39, "amount": 1600}}) == [
        "Carla bids 1600 with 1500 in cash"]


# Every amount a recorded game's money facts carry, changed at random and the chain recomputed:
# the audit names the edited event every time.  210 edits: 140 in the shorter game, 70 in the
# one played to the end (builds, mortgages, trades, bankruptcies), each audited whole (each
# costs a whole audit, and the default run must stay under six minutes; tests/test_tamper_suite.py
# edits the other fields)
@pytest.mark.parametrize("game,seed,edits", [("classic-4p", 11, 140),
                                             ("classic-to-the-end", 12, 70)])
def test_random_edits_of_amounts_are_all_flagged_at_the_edited_event(game, seed, edits):
    rows = recorded_rows(game)
    assert audit(1, rows).ok
    rng = random.Random(seed)
    spots = money_spots(rows)
    missed = []
    for _ in range(edits):
        spot = rng.choice(spots)
        old = amount_at(rows, spot)
        new = rng.choice([x for x in (old + 1, old - 1, old * 2, old // 2, 0,
                                      rng.randrange(1, 3000)) if x != old and x >= 0])
        report = audit(1, with_amount(rows, spot, new))
        if report.bad_seq != rows[spot[0]]["seq"]:
            missed.append((rows[spot[0]]["seq"], rows[spot[0]]["type"], old, new, report.problem))
    assert missed == []


def test_house_rules_are_read_from_the_game_itself():
    """A house-rules game (1000 M to start, 300 for Via!) is checked against the parameters its
    GameStarted recorded, not against the built-in rule set of the same name."""
    from banco.ledger.board.rule_sets import load_rules
    from banco.ledger.records import commands as c
    from banco.ledger.rules.decide import decide, start_game
    from banco.ledger.table.state import evolve, fold

    rules = load_rules("classic")._replace(name="casa", starting_cash=1000, go_salary=300,
                                          auction_no_bid="bank_keeps")
    log = start_game(["Anna", "Bruno"], rules, "it")
    for i, e in enumerate(log, 1):
        e["seq"] = i
    t = fold(log, 1)
    # Anna 11, 21, 32, then past Via! to 3; Bruno 9, 18, 27: every deed declined, unsold.
    for dice in ((6, 5), (5, 4), (6, 4), (5, 4), (6, 5), (5, 4), (5, 6)):
        for cmd in (c.Roll(dice), c.Decline(), c.Hammer()):
            for e in decide(t, cmd):
                e["seq"] = len(log) + 1
                t = evolve(t, e)
                log.append(e)
    rows = rows_of(log, version=SCHEMA_VERSION)  # decide's facts: today's
    assert audit(1, rows).ok
    salary = first_of(rows, "SalaryPaid")
    assert rows[salary]["data"]["amount"] == 300
    report = audit(1, with_amount(rows, (salary, None), 200))
    assert report.problem == "the Via! salary to Anna is 200 M; the casa rule set gives 300 M"
    report = audit(1, with_amount(rows, (1, None), 1500))
    assert report.problem == "starting cash for Anna is 1500 M; the casa rule set gives 1000 M"


# --- the rules' tables, by hand ----------------------------------------------------------------

def test_rent_by_hand():
    t = own(CLASSIC, "Anna", "Via Roma", "Corso Impero", "Largo Augusto")
    assert amount_basis.rent_due(build(t, "Via Roma", 2), POS["Via Roma"]) == 390  # deed: 2 houses
    assert amount_basis.rent_due(build(t, "Largo Augusto", 5), POS["Largo Augusto"]) == 1400  # hotel
    assert amount_basis.rent_due(t, POS["Via Roma"]) == 52  # complete and unbuilt: 2 x 26
    assert amount_basis.rent_due(own(CLASSIC, "Anna", "Via Roma"), POS["Via Roma"]) == 26
    m = mortgage(own(CLASSIC, "Anna", "Vicolo Corto", "Vicolo Stretto"), "Vicolo Corto")
    assert amount_basis.rent_due(m, POS["Vicolo Stretto"]) == 4  # 004: a mortgaged lot, single rent
    quick = new_table(rules="quick")
    qm = mortgage(own(quick, "Anna", "Vicolo Corto", "Vicolo Stretto"), "Vicolo Corto")
    assert amount_basis.rent_due(qm, POS["Vicolo Stretto"]) == 8  # 003 §07 keeps the double rent
    assert amount_basis.rent_due(m, POS["Vicolo Corto"]) == 0  # mortgaged: no rent at all
    st = own(CLASSIC, "Bruno", "Stazione Sud", "Stazione Nord", "Stazione Est")
    assert amount_basis.rent_due(st, POS["Stazione Sud"]) == 100  # 3 stations: 25, 50, 100
    ut = own(CLASSIC, "Carla", "Società Elettrica", "Società Acqua Potabile")
    ut = ut._replace(turn=ut.turn._replace(dice=(3, 4)))
    assert amount_basis.rent_due(ut, POS["Società Elettrica"]) == 70  # both: 10 x 7
    assert amount_basis.rent_due(own(ut, "Dario", "Società Acqua Potabile"),
                            POS["Società Elettrica"]) == 28  # one: 4 x 7


def test_interest_rounds_as_the_rule_set_says():
    rules = CLASSIC.rules
    assert amount_basis.interest(rules, 75) == 8  # 7.5 up
    assert amount_basis.interest(rules._replace(interest_rounding="down"), 75) == 7
    assert amount_basis.interest(rules, 100) == 10


def hotel_table():
    t = own(CLASSIC, "Anna", "Via Roma", "Corso Impero", "Largo Augusto")
    return build(build(build(t, "Via Roma", 5), "Corso Impero", 5), "Largo Augusto", 5)


def test_a_hotel_sold_with_fewer_houses_back_is_paid_half_for_each_missing_one():
    """000 FAQ 29: a hotel (200) with 2 of its 4 houses back on the lot: the hotel and the two
    missing houses at half of 200, 3 x 100 = 300."""
    t = hotel_table()
    sold = {"type": "BuildingSold", "data": {
        "player": "Anna", "property": POS["Via Roma"], "level": 2, "bank_houses": -2,
        "bank_hotels": 1, "payer": BANK, "payee": "Anna", "amount": 300, "reason": "x"}}
    assert amounts.problems(t, sold) == []
    sold["data"]["amount"] = 400
    assert amounts.problems(t, sold) == [
        "buildings sold on Via Roma is 400 M; half their price gives 300 M"]


def test_a_group_sold_at_once_and_hotels_broken_up_together():
    t = hotel_table()
    group = {"type": "BuildingsSold", "data": {
        "player": "Anna", "properties": [POS["Via Roma"], POS["Corso Impero"], POS["Largo Augusto"]],
        "bank_houses": 0, "bank_hotels": 3, "payer": BANK, "payee": "Anna",
        "amount": 1500, "reason": "x"}}  # 3 hotels x (4 houses + hotel) x 200 / 2
    assert amounts.problems(t, group) == []
    group["data"]["amount"] = 1501
    assert amounts.problems(t, group) == [
        "the group's buildings is 1501 M; half their price gives 1500 M"]
    lots = [{"property": POS["Via Roma"], "player": "Anna", "level": 1},
            {"property": POS["Corso Impero"], "player": "Anna", "level": 1}]
    pay = {"payer": BANK, "payee": "Anna", "amount": 400, "reason": "x"}  # hotel + 3 houses
    broken = {"type": "HotelsBrokenUp", "data": {"lots": lots, "bank_houses": -2,
                                                 "bank_hotels": 2, "transfers": [pay, dict(pay)]}}
    assert amounts.problems(t, broken) == []
    broken["data"]["transfers"][1]["amount"] = 500
    assert amounts.problems(t, broken) == [
        "the hotel broken up on Corso Impero is 500 M; half value (000 FAQ 29) gives 400 M"]


def test_a_building_won_at_auction_costs_the_bid_not_the_deed():
    t = own(CLASSIC, "Anna", "Vicolo Corto", "Vicolo Stretto")
    t = t._replace(auction=Auction(property=None, min_bid=50, step=1, high_bidder="Anna",
                                   high_bid=75, bids=2, kind="house"))
    house = {"type": "HouseBuilt", "data": {
        "player": "Anna", "property": 1, "level": 1, "bank_houses": -1, "bank_hotels": 0,
        "payer": "Anna", "payee": BANK, "amount": 75, "reason": "x"}}
    assert amounts.problems(t, house) == []
    house["data"]["amount"] = 50
    assert amounts.problems(t, house) == [
        "a house on Vicolo Corto is 50 M; the building auction's highest bid gives 75 M"]


def test_a_deed_nobody_bid_on_goes_to_the_richest_at_the_opening_price():
    """000 FAQ 22, for a rule set that follows it: the only price is the opening bid; a rule
    set whose deeds stay with the Bank (a house rule) sells none without a bid."""
    t = cash(CLASSIC, "Bruno", 1600)._replace(auction=Auction(property=39, min_bid=1, step=1))
    t = t._replace(rules=t.rules._replace(auction_no_bid="bank_keeps"))  # as classic once was
    won = {"type": "AuctionWon", "data": {"player": "Bruno", "property": 39, "payer": "Bruno",
                                          "payee": BANK, "amount": 1, "reason": "x"}}
    assert amounts.problems(t, won) == [
        "Parco della Vittoria went to Bruno without a bid; under the classic rules a deed nobody "
        "bids on stays with the Bank"]
    t = t._replace(rules=t.rules._replace(auction_no_bid="richest"))
    assert amounts.problems(t, won) == []
    won["data"].update(player="Anna", payer="Anna")
    assert amounts.problems(t, won) == [
        "Parco della Vittoria went without a bid to Anna, who is not the richest"]


def test_rent_is_the_claim_and_the_claim_is_the_deed():
    t = own(place(CLASSIC, "Bruno", POS["Via Roma"]), "Anna", "Via Roma")
    opened = {"type": "RentClaimOpened", "data": {
        "owner": "Anna", "payer": "Bruno", "property": POS["Via Roma"], "amount": 260,
        "basis": "x", "closer": "Carla"}}
    assert amounts.problems(t, opened) == [
        "the rent on Via Roma is 260 M; the deed for the table at the landing gives 26 M"]
    t = t._replace(claims=(Claim("Bruno", "Anna", POS["Via Roma"], 26, 40, "Carla", "x"),))
    paid = {"type": "RentPaid", "data": {"payer": "Bruno", "payee": "Anna", "amount": 26,
                                         "reason": "x", "property": POS["Via Roma"],
                                         "opened_seq": 40}}
    assert amounts.problems(t, paid) == []
    paid["data"]["opened_seq"] = 41
    assert amounts.problems(t, paid) == [
        "rent on Via Roma paid for a claim (event 41) that is not open"]
    paid["data"].update(opened_seq=40, payee="Carla")
    assert amounts.problems(t, paid) == ["the rent on Via Roma is paid to Carla, not to Anna"]


def test_card_payments_follow_the_card():
    t = own(CLASSIC, "Anna", "Via Roma", "Corso Impero", "Largo Augusto")
    t = build(build(build(t, "Via Roma", 4), "Corso Impero", 4), "Largo Augusto", 5)
    imprevisti = {c.text.split(":")[0]: c.number for c in t.edition.decks["imprevisti"].cards}
    n = imprevisti["Avete tutti i vostri stabili da riparare"]
    repairs = {"type": "CardPayment", "data": {
        "payer": "Anna", "payee": BANK, "amount": 8 * 25 + 100, "reason": "x",
        "deck": "imprevisti", "number": n}}
    assert amounts.problems(t, repairs) == []
    repairs["data"]["amount"] = 8 * 25
    assert amounts.problems(t, repairs) == [
        f"Imprevisti {n} is 200 M; 25 a house and 100 a hotel of Anna's gives 300 M"]
    birthday = next(c.number for c in t.edition.decks["probabilita"].cards
                    if c.effect["kind"] == "collect_from_each")
    gift = {"type": "CardPayment", "data": {"payer": "Bruno", "payee": "Anna", "amount": 10,
                                            "reason": "x", "deck": "probabilita",
                                            "number": birthday}}
    assert amounts.problems(t, gift) == []
    gift["data"]["payer"] = BANK
    assert amounts.problems(t, gift)[0] == (
        f"Probabilità {birthday} is paid by the Bank, not by another player in the game")


def test_a_debt_is_paid_in_full_to_its_creditor():
    t = CLASSIC._replace(debts=(Debt("Anna", "Bruno", 120, "rent", 50),))
    paid = {"type": "DebtPaid", "data": {"payer": "Anna", "payee": "Bruno", "amount": 120,
                                         "reason": "x", "debt_seq": 50}}
    assert amounts.problems(t, paid) == []
    paid["data"]["payee"] = BANK
    assert amounts.problems(t, paid) == ["the debt of event 50 is paid to the Bank, not to Bruno"]


# --- nothing that moves money goes unchecked ---------------------------------------------------

def test_every_event_type_that_moves_money_has_an_amount_rule():
    carries = {t for t in EVENT_TYPES if "transfers" in schemas()[t].fields}
    unchecked = sorted((set(MONEY_EVENTS) | carries) - set(amounts.AMOUNT_RULES))
    assert unchecked == [], f"add a rule for {unchecked} to projections/audit/amounts.py"


def test_every_card_effect_of_every_edition_has_a_payment_rule():
    from banco.ledger.board.edition import EDITIONS

    kinds = {c.effect["kind"] for name in EDITIONS
             for deck in load_edition(name).decks.values() for c in deck.cards}
    known = set(card_amounts.CARD_PAYMENTS) | card_amounts.CARD_NO_PAYMENT
    assert sorted(kinds - known) == [], "add the card kind to projections/audit/card_amounts.py"
