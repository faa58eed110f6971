"""Every money fact against the amount the rules give, worked out again here from the board,
the decks and the rule set's parameters (as GameStarted recorded them), never by asking
`decide`: a fact whose amount no rule gives is money from nowhere, even if the books balance.

`problems(before, event, previous)` looks at one event with the table as it was just before
it.  Each checked event type has one small function in AMOUNT_RULES; tests/test_books.py
fails when an event type that moves money, or a card effect of any edition, has none.
"""

from __future__ import annotations

from collections.abc import Callable

from ledger.edition import Space
from ledger.state import BANK, State

from . import referee_checks
from .books import who

# --- the tables, written out again ------------------------------------------------------------


def mortgage_value(space: Space) -> int:
    """004 §Impegno: the mortgage value printed on the back of the deed; half the price where
    the edition prints none (it-euro prints its own, halves rounded to 10 €)."""
    printed = getattr(space, "mortgage_value", None)
    return printed if printed is not None else space.price // 2


def interest(rules, mortgage: int) -> int:
    """The rule set's interest (10%) on a mortgage, rounded the way the rule set says."""
    exact = mortgage * rules.mortgage_interest_percent
    return -(-exact // 100) if rules.interest_rounding == "up" else exact // 100


def units(rules, level: int) -> int:
    """Building units on a lot: houses, or a hotel counted with the houses it replaced."""
    return rules.houses_for_hotel + 1 if level == 5 else level


def sale_value(space: Space, rules, level: int) -> int:
    """What the Bank pays for `level` of buildings on a lot: half their cost (004 §Proprietà in
    vendita), each building's half rounded down to the whole unit."""
    return units(rules, level) * (space.house_cost // 2)


def rent_due(t: State, position: int) -> int:
    """The rent the board gives for a landing on `position` with the table as it is: the
    deed's row for its buildings; double on an unbuilt lot of a complete group (not when a lot
    of the group is mortgaged, unless the rule set keeps it); stations by how many the owner
    has; utilities 4 or 10 times the dice."""
    space = t.edition.space(position)
    owner = t.owners[position]
    if owner is None or position in t.mortgaged:
        return 0
    group = t.edition.groups[space.group]
    held = sum(1 for p in group if t.owners[p] == owner)
    if space.kind == "station":
        return space.rents[held - 1]
    if space.kind == "utility":
        # The throw: the numbered dice, and the Speedy die's number when it counted (000
        # §SOCIETÀ: "incluso il Dado Speedy"; the Bus and Mr Monopoly count zero).
        speedy = getattr(t.turn, "speedy", None)
        extra = int(speedy) if speedy and speedy.isdigit() else 0
        return space.rents[held - 1] * (sum(t.turn.dice[:2]) + extra)
    level = t.buildings[position]
    if level:
        return space.rents[level]
    if held < len(group):
        return space.rents[0]
    if any(p in t.mortgaged for p in group) and not t.rules.double_rent_with_mortgage:
        return space.rents[0]
    return 2 * space.rents[0]


def starting_cash(t: State) -> int:
    """Each player's capital: the rule set's, or by the number of players at the table where
    the rule set gives a table of them (002 §Preparazione)."""
    by_players = t.rules.starting_cash_by_players or {}
    return by_players.get(str(len(t.seats)), t.rules.starting_cash)


# --- one rule per event type ----------------------------------------------------------------

def _expect(t: State, what: str, got: int, want: int, why: str) -> list[str]:
    cur = t.edition.currency
    return [] if got == want else [f"{what} is {got} {cur}; {why} gives {want} {cur}"]


def _sides(d: dict, payer: str, payee: str, what: str) -> list[str]:
    out = []
    if d["payer"] != payer:
        out.append(f"{what} is paid by {who(d['payer'])}, not by {who(payer)}")
    if d["payee"] != payee:
        out.append(f"{what} is paid to {who(d['payee'])}, not to {who(payee)}")
    return out


def _cash_issued(t: State, d: dict, prev) -> list[str]:
    return (_sides(d, BANK, d["payee"], "starting cash")
            + _expect(t, f"starting cash for {d['payee']}", d["amount"], starting_cash(t),
                      f"the {t.rules.name} rule set"))


def _salary(t: State, d: dict, prev) -> list[str]:
    out = _sides(d, BANK, d["payee"], "the Via! salary")
    out += _expect(t, f"the Via! salary to {d['payee']}", d["amount"], t.rules.go_salary,
                   f"the {t.rules.name} rule set")
    if not (prev and prev["type"] == "TokenMoved" and prev["data"]["player"] == d["payee"]
            and prev["data"]["passed_go"]):
        out.append(f"a Via! salary to {d['payee']} without a move past Via! just before it")
    return out


def _tax(t: State, d: dict, prev) -> list[str]:
    if d["payer"] not in t.index:
        return []  # the books name the account
    space = t.edition.space(t.player(d["payer"]).position)
    if space.kind != "tax":
        return [f"tax paid by {d['payer']} on {space.name}, which is not a tax square"]
    return (_sides(d, d["payer"], BANK, f"the tax on {space.name}")
            + _expect(t, f"the tax on {space.name}", d["amount"], space.amount, "the board"))


def _fine(t: State, d: dict, prev) -> list[str]:
    out = _sides(d, d["payer"], BANK, "the jail fine")
    if d["payer"] in t.index and not t.player(d["payer"]).in_jail:
        out.append(f"a jail fine paid by {d['payer']}, who is not in jail")
    return out + _expect(t, "the jail fine", d["amount"], t.rules.jail_fine,
                         f"the {t.rules.name} rule set")


def _moved(t: State, d: dict, prev) -> list[str]:
    """A move starts where the token stands and ends `spaces` further on; only a forward move
    that reaches or passes square 0 passes Via! (what a salary rests on)."""
    if d["player"] not in t.index:
        return []
    out = []
    at = t.player(d["player"]).position
    if d["from"] != at:
        out.append(f"{d['player']} moves from square {d['from']} but stands on {at}")
    if d["to"] != (d["from"] + d["spaces"]) % 40:
        out.append(f"{d['player']} moves {d['spaces']} from {d['from']} and lands on {d['to']}")
    if d["passed_go"] and d["from"] + d["spaces"] < 40:
        out.append(f"{d['player']} passes Via! moving {d['spaces']} from square {d['from']}")
    return out


def _bought(t: State, d: dict, prev) -> list[str]:
    space = t.edition.space(d["property"])
    out = _sides(d, d["player"], BANK, f"{space.name}'s price")
    if t.owners[d["property"]] is not None:
        out.append(f"{d['player']} buys {space.name} from the Bank but {t.owners[d['property']]} "
                   "owns it")
    return out + _expect(t, f"the price of {space.name}", d["amount"], space.price, "the deed")


def _auction_won(t: State, d: dict, prev) -> list[str]:
    space = t.edition.space(d["property"])
    a = t.auction
    if a is None or a.kind != "deed" or a.property != d["property"]:
        return [f"{d['player']} wins {space.name} at an auction that is not open"]
    # A debtor auctioning his own deed is paid by the winner (002 §Varie); else the Bank is.
    out = _sides(d, d["player"], a.seller or BANK, f"the winning bid for {space.name}")
    if a.high_bidder is not None:
        if d["player"] != a.high_bidder:
            out.append(f"{d['player']} wins {space.name} but {a.high_bidder} bid highest")
        return out + _expect(t, f"the winning bid for {space.name}", d["amount"], a.high_bid,
                             "the highest bid")
    if t.rules.auction_no_bid == "bank_keeps":
        return [f"{space.name} went to {d['player']} without a bid; under the {t.rules.name} "
                "rules a deed nobody bids on stays with the Bank"]
    # 000 FAQ 22: without a bid the deed goes to the richest player at the opening price.
    richest = max(t.player(n).cash for n in t.active())
    if d["player"] in t.index and t.player(d["player"]).cash != richest:
        out.append(f"{space.name} went without a bid to {d['player']}, who is not the richest")
    return out + _expect(t, f"{space.name} without a bid", d["amount"], a.min_bid,
                         "the opening price (000 FAQ 22)")


def _auction_opened(t: State, d: dict, prev) -> list[str]:
    return (_expect(t, "the opening bid", d["min_bid"], t.rules.auction_min_bid,
                    f"the {t.rules.name} rule set")
            + _expect(t, "the bidding step", d["step"], t.rules.auction_step,
                      f"the {t.rules.name} rule set"))


def _bid(t: State, d: dict, prev) -> list[str]:
    """A bid opens at the auction's opening price, then raises by its step, from cash in hand
    (003 §03, §06): what an AuctionWon's amount rests on."""
    a = t.auction
    if a is None:
        return [f"{d['player']} bids {d['amount']} with no auction open"]
    lowest = a.min_bid if a.high_bidder is None else a.high_bid + a.step
    out = [] if d["amount"] >= lowest else [
        f"{d['player']}'s bid of {d['amount']} is below the lowest allowed, {lowest}"]
    if d["player"] in t.index and t.player(d["player"]).cash < d["amount"]:
        out.append(f"{d['player']} bids {d['amount']} with {t.player(d['player']).cash} in cash")
    return out


def _owner_of(t: State, d: dict, what: str) -> list[str]:
    owner = t.owners[d["property"]]
    if owner != d["player"]:
        return [f"{what}: {d['player']} does not own it ({who(owner or BANK)} does)"]
    return []


def _mortgaged(t: State, d: dict, prev) -> list[str]:
    space = t.edition.space(d["property"])
    out = _owner_of(t, d, f"the mortgage on {space.name}")
    if d["property"] in t.mortgaged:
        out.append(f"{space.name} is mortgaged a second time")
    return (out + _sides(d, BANK, d["player"], f"the mortgage on {space.name}")
            + _expect(t, f"the mortgage on {space.name}", d["amount"], mortgage_value(space),
                      "half the deed's price (004 §Impegno)"))


def _lifted(t: State, d: dict, prev) -> list[str]:
    space = t.edition.space(d["property"])
    m = mortgage_value(space)
    out = [] if d["property"] in t.mortgaged else [f"{space.name} is not mortgaged"]
    return (out + _sides(d, d["player"], BANK, f"lifting the mortgage on {space.name}")
            + _expect(t, f"lifting the mortgage on {space.name}", d["amount"],
                      m + interest(t.rules, m),
                      f"the mortgage {m} + {t.rules.mortgage_interest_percent}% "
                      f"(rounded {t.rules.interest_rounding})"))


def _interest(t: State, d: dict, prev) -> list[str]:
    space = t.edition.space(d["property"])
    m = mortgage_value(space)
    out = [] if d["property"] in t.mortgaged else [f"{space.name} is not mortgaged"]
    return (out + _sides(d, d["player"], BANK, f"the interest on {space.name}")
            + _expect(t, f"the interest on receiving {space.name}", d["amount"],
                      interest(t.rules, m),
                      f"{t.rules.mortgage_interest_percent}% of the mortgage {m} "
                      f"(rounded {t.rules.interest_rounding})"))


def _built(t: State, d: dict, prev) -> list[str]:
    space = t.edition.space(d["property"])
    what = f"a {'hotel' if d['level'] == 5 else 'house'} on {space.name}"
    out = _owner_of(t, d, what) + _sides(d, d["player"], BANK, what)
    a = t.auction
    if a is not None and a.kind in ("house", "hotel"):
        if d["player"] != a.high_bidder:
            out.append(f"{what} goes to {d['player']} but {a.high_bidder} bid highest")
        return out + _expect(t, what, d["amount"], a.high_bid, "the building auction's highest bid")
    return out + _expect(t, what, d["amount"], space.house_cost, "the deed's building price")


def _sold(t: State, d: dict, prev) -> list[str]:
    space = t.edition.space(d["property"])
    before = t.buildings[d["property"]]
    sold = sale_value(space, t.rules, before) - sale_value(space, t.rules, d["level"])
    what = f"buildings sold on {space.name}"
    return (_owner_of(t, d, what) + _sides(d, BANK, d["player"], what)
            + _expect(t, what, d["amount"], sold, "half their price"))


def _group_sold(t: State, d: dict, prev) -> list[str]:
    """A group's buildings sold at once: all of them, or down to the levels in `lots`; half
    their price, a hotel broken up paying half value for the houses it does not get back."""
    out = _sides(d, BANK, d["player"], "the group's buildings")
    levels = {lot["property"]: lot["level"] for lot in d.get("lots", ())}
    total = 0
    for pos in d["properties"]:
        space = t.edition.space(pos)
        if t.owners[pos] != d["player"]:
            out.append(f"buildings on {space.name} sold by {d['player']}, who does not own it")
        total += (sale_value(space, t.rules, t.buildings[pos])
                  - sale_value(space, t.rules, levels.get(pos, 0)))
    return out + _expect(t, "the group's buildings", d["amount"], total, "half their price")


def _group_built(t: State, d: dict, prev) -> list[str]:
    """Buildings put up evenly across lots in one fact: each new house (or hotel) at the
    deed's building price."""
    out = _sides(d, d["player"], BANK, "the buildings")
    total = 0
    for lot in d["lots"]:
        pos = lot["property"]
        space = t.edition.space(pos)
        if t.owners[pos] != d["player"]:
            out.append(f"buildings on {space.name} put up by {d['player']}, who does not own it")
        total += ((units(t.rules, lot["level"]) - units(t.rules, t.buildings[pos]))
                  * space.house_cost)
    return out + _expect(t, "the buildings", d["amount"], total, "the deeds' building prices")


def _broken_up(t: State, d: dict, prev) -> list[str]:
    out = []
    if len(d["lots"]) != len(d["transfers"]):
        out.append(f"{len(d['lots'])} hotels broken up but {len(d['transfers'])} payments")
    for lot, tr in zip(d["lots"], d["transfers"], strict=False):
        space = t.edition.space(lot["property"])
        owner = t.owners[lot["property"]]
        what = f"the hotel broken up on {space.name}"
        if t.buildings[lot["property"]] != 5:
            out.append(f"{space.name} has no hotel to break up")
        out += _sides(tr, BANK, owner or BANK, what)
        # 000 FAQ 29: half value for the hotel and for every house not received in its place.
        out += _expect(t, what, tr["amount"], sale_value(space, t.rules, 5)
                       - sale_value(space, t.rules, lot["level"]), "half value (000 FAQ 29)")
    return out


def _claim_opened(t: State, d: dict, prev, card: dict | None = None) -> list[str]:
    """The rent the deed gives for the table at the landing; a card that sent the player there
    may change it (`card` is the effect of the card drawn this turn, if any): twice the rent of
    the nearest railroad, or a multiple of a fresh throw of the dice for a utility."""
    space = t.edition.space(d["property"])
    out = []
    if t.owners[d["property"]] != d["owner"]:
        out.append(f"rent on {space.name} claimed for {d['owner']}, who does not own it")
    if d["payer"] in t.index and t.player(d["payer"]).position != d["property"]:
        out.append(f"rent on {space.name} asked of {d['payer']}, who is not on it")
    want, why = rent_due(t, d["property"]), "the deed for the table at the landing"
    if card and card.get("kind") == "advance_to_nearest":
        if prev and prev["type"] == "CardDiceThrown" and "dice_multiplier" in card:
            throw = sum(prev["data"]["dice"])
            want = card["dice_multiplier"] * throw
            why = f"{card['dice_multiplier']} x the fresh throw of {throw} (the card's text)"
        elif "rent_multiplier" in card:
            want = rent_due(t, d["property"]) * card["rent_multiplier"]
            why = f"the deed's rent x {card['rent_multiplier']} (the card's text)"
    return out + _expect(t, f"the rent on {space.name}", d["amount"], want, why)


def _rent_paid(t: State, d: dict, prev) -> list[str]:
    space = t.edition.space(d["property"])
    if d["opened_seq"] == 0:  # rent = "auto": paid at the landing, no claim
        if t.rules.rent != "auto":
            return [f"rent on {space.name} paid without a claim under {t.rules.name} rules"]
        return (_sides(d, d["payer"], t.owners[d["property"]] or BANK, f"the rent on {space.name}")
                + _expect(t, f"the rent on {space.name}", d["amount"], rent_due(t, d["property"]),
                          "the deed for the table at the landing"))
    claim = next((c for c in t.claims if c.opened_seq == d["opened_seq"]), None)
    if claim is None:
        return [f"rent on {space.name} paid for a claim (event {d['opened_seq']}) that is not open"]
    out = _sides(d, claim.payer, claim.owner, f"the rent on {space.name}")
    if claim.property != d["property"]:
        out.append(f"rent paid on {space.name} for a claim on "
                   f"{t.edition.space(claim.property).name}")
    return out + _expect(t, f"the rent on {space.name}", d["amount"], claim.amount,
                         f"the claim opened at event {claim.opened_seq}")


def _debt_paid(t: State, d: dict, prev) -> list[str]:
    debt = next((x for x in t.debts if x.seq == d["debt_seq"]), None)
    if debt is None:
        return [f"a debt paid that is not owed (event {d['debt_seq']})"]
    return (_sides(d, debt.debtor, debt.creditor, f"the debt of event {debt.seq}")
            + _expect(t, f"the debt of event {debt.seq}", d["amount"], debt.amount,
                      "the debt as incurred"))


def _estate(t: State, d: dict, prev) -> list[str]:
    out = _sides(d, d["debtor"], d["creditor"], f"{d['debtor']}'s estate")
    if d["debtor"] not in t.index:
        return out
    return out + _expect(t, f"the cash in {d['debtor']}'s estate", d["amount"],
                         t.player(d["debtor"]).cash, "all the debtor's cash (004 §Fallimento)")


def _trade(t: State, d: dict, prev) -> list[str]:
    a, b = d["a"], d["b"]
    want = {(a, b): d["a_gives"]["cash"], (b, a): d["b_gives"]["cash"]}
    got: dict[tuple[str, str], int] = {}
    out = []
    for tr in d["transfers"]:
        key = (tr["payer"], tr["payee"])
        if key not in want:
            out.append(f"a trade between {a} and {b} moves money from {who(tr['payer'])} to "
                       f"{who(tr['payee'])}")
        got[key] = got.get(key, 0) + tr["amount"]
    for (payer, payee), cash in want.items():
        out += _expect(t, f"the cash {payer} pays {payee} in the trade", got.get((payer, payee), 0),
                       cash, "the deal as recorded")
    return out


def _deeds_dealt(t: State, d: dict, prev) -> list[str]:
    """Deeds dealt before the first roll are paid at once at their printed price (002
    §Preparazione; 004's short and timed games)."""
    out = _sides(d, d["player"], BANK, "the deeds dealt")
    for pos in d["properties"]:
        if t.owners[pos] is not None:
            out.append(f"{t.edition.space(pos).name} is dealt to {d['player']} but "
                       f"{t.owners[pos]} holds it")
    total = sum(t.edition.space(pos).price for pos in d["properties"])
    return out + _expect(t, f"the deeds dealt to {d['player']}", d["amount"], total,
                         "their printed prices")


def _mortgage_reverted(t: State, d: dict, prev) -> list[str]:
    """A deed mortgaged during the bankrupt's turn passes as it was (000 FAQ 32): the mortgage
    money goes back to the Bank, as far as the debtor's cash reaches."""
    space = t.edition.space(d["property"])
    out = _owner_of(t, d, f"the mortgage on {space.name} undone")
    if d["property"] not in t.mortgaged:
        out.append(f"{space.name} is not mortgaged")
    out += _sides(d, d["player"], BANK, f"the mortgage on {space.name} undone")
    cash = t.player(d["player"]).cash if d["player"] in t.index else 0
    return out + _expect(t, f"the mortgage on {space.name} undone", d["amount"],
                         min(mortgage_value(space), cash),
                         "its mortgage value, as far as the cash reaches (000 FAQ 32)")


def _debt_paid_by_bank(t: State, d: dict, prev) -> list[str]:
    """A vintage bankrupt's creditors are paid in full by the Bank (002 §Fallimento)."""
    debt = next((x for x in t.debts if x.seq == d["debt_seq"]), None)
    if debt is None:
        return [f"the Bank pays a debt that is not owed (event {d['debt_seq']})"]
    out = _sides(d, BANK, debt.creditor, f"the debt of event {debt.seq}")
    if debt.debtor != d["debtor"]:
        out.append(f"the debt of event {debt.seq} is {debt.debtor}'s, not {d['debtor']}'s")
    return out + _expect(t, f"the Bank's payment of the debt of event {debt.seq}", d["amount"],
                         debt.amount, "the debt in full (002 §Fallimento)")


def _debt_paid_in_kind(t: State, d: dict, prev) -> list[str]:
    """Part of a debt paid in deeds at the creditor's prices, the rest in cash (002 §Varie)."""
    debt = next((x for x in t.debts if x.seq == d["debt_seq"]), None)
    if debt is None:
        return [f"a debt paid in kind that is not owed (event {d['debt_seq']})"]
    out = _sides(d, debt.debtor, debt.creditor, f"the debt of event {debt.seq}")
    for deed in d["deeds"]:
        if t.owners[deed["property"]] != debt.debtor:
            out.append(f"{t.edition.space(deed['property']).name} given for a debt by "
                       f"{debt.debtor}, who does not own it")
    deeds = sum(x["price"] for x in d["deeds"])
    return out + _expect(t, f"the cash part of the debt of event {debt.seq}", d["amount"],
                         debt.amount - deeds, "the debt less the creditor's prices for the deeds")


# --- cards ----------------------------------------------------------------------------------

def _repairs(t: State, drawer: str, effect: dict) -> int:
    houses = sum(lv for p, lv in enumerate(t.buildings) if t.owners[p] == drawer and lv < 5)
    hotels = sum(1 for p, lv in enumerate(t.buildings) if t.owners[p] == drawer and lv == 5)
    return houses * effect["house"] + hotels * effect["hotel"]


def _other_player(t: State, drawer: str, name: str) -> bool:
    return name != drawer and name in t.index and not t.player(name).bankrupt


def _card_from_bank(t, drawer, effect, d, what):
    return _sides(d, BANK, drawer, what) + _expect(t, what, d["amount"], effect["amount"],
                                                   "the card's text")


def _card_to_bank(t, drawer, effect, d, what):
    return _sides(d, drawer, BANK, what) + _expect(t, what, d["amount"], effect["amount"],
                                                   "the card's text")


def _card_from_each(t, drawer, effect, d, what):
    out = [] if _other_player(t, drawer, d["payer"]) else [
        f"{what} is paid by {who(d['payer'])}, not by another player in the game"]
    return out + _sides(d, d["payer"], drawer, what) + _expect(t,
        what, d["amount"], effect["amount"], "the card's text")


def _card_to_each(t, drawer, effect, d, what):
    out = [] if _other_player(t, drawer, d["payee"]) else [
        f"{what} is paid to {who(d['payee'])}, not to another player in the game"]
    return out + _sides(d, drawer, d["payee"], what) + _expect(t,
        what, d["amount"], effect["amount"], "the card's text")


def _card_repairs(t, drawer, effect, d, what):
    return _sides(d, drawer, BANK, what) + _expect(t,
        what, d["amount"], _repairs(t, drawer, effect),
        f"{effect['house']} a house and {effect['hotel']} a hotel of {drawer}'s")


# card effect kind -> (table, drawer, effect, event data, card name) -> problems
CARD_PAYMENTS: dict[str, Callable] = {
    "collect": _card_from_bank,
    "pay": _card_to_bank,
    "pay_or_draw": _card_to_bank,
    "collect_from_each": _card_from_each,
    "pay_each": _card_to_each,
    "repairs": _card_repairs,
}
# Card effects that never move money themselves (a move's salary or rent is its own fact).
CARD_NO_PAYMENT = frozenset({"advance_to", "back_to", "back", "go_to_jail", "jail_free",
                             "advance_to_nearest"})


def _card_payment(t: State, d: dict, prev) -> list[str]:
    deck = t.edition.decks.get(d["deck"])
    if deck is None or not 1 <= d["number"] <= len(deck.cards):
        return [f"a payment for card {d['deck']} {d['number']}, which is not in the edition"]
    card = deck.cards[d["number"] - 1]
    what = f"{deck.title} {d['number']}"
    rule = CARD_PAYMENTS.get(card.effect["kind"])
    if rule is None:
        if card.effect["kind"] in CARD_NO_PAYMENT:
            return [f"{what} ({card.effect['kind']}) pays nothing itself"]
        return []  # a kind this audit does not know: tests/test_books.py names it
    return rule(t, t.turn.player, card.effect, d, what)


AMOUNT_RULES: dict[str, Callable[[State, dict, dict | None], list[str]]] = {
    "CashIssued": _cash_issued,
    "SalaryPaid": _salary,
    "TaxPaid": _tax,
    "FinePaid": _fine,
    "TokenMoved": _moved,
    "PropertyBought": _bought,
    "AuctionOpened": _auction_opened,
    "BidPlaced": _bid,
    "AuctionWon": _auction_won,
    "PropertyMortgaged": _mortgaged,
    "MortgageLifted": _lifted,
    "MortgageInterestPaid": _interest,
    "HouseBuilt": _built,
    "HotelBuilt": _built,
    "BuildingSold": _sold,
    "BuildingsSold": _group_sold,
    "BuildingsBuilt": _group_built,
    "HotelsBrokenUp": _broken_up,
    "RentClaimOpened": _claim_opened,
    "RentPaid": _rent_paid,
    "DebtPaid": _debt_paid,
    "EstateTransferred": _estate,
    "TradeCompleted": _trade,
    "CardPayment": _card_payment,
    "DeedsDealt": _deeds_dealt,
    "MortgageReverted": _mortgage_reverted,
    "DebtPaidByBank": _debt_paid_by_bank,
    "DebtPaidInKind": _debt_paid_in_kind,
}
# A referee's correction: no rule gives its amount, the referee does; what makes it a
# correction and not money from nowhere is checked there (projections/referee_checks.py).
AMOUNT_RULES.update(referee_checks.MONEY_CHECKS)


def problems(before: State, event: dict, previous: dict | None = None,
             card: dict | None = None) -> list[str]:
    """What is wrong with the amounts of `event`, given the table just before it, the event
    just before it (a salary follows the move that passed Via!) and the effect of the card
    drawn this turn, if any (a card may change the rent of the square it sends to)."""
    rule = AMOUNT_RULES.get(event["type"])
    if rule is None:
        return []
    if rule is _claim_opened:
        return rule(before, event["data"], previous, card)
    return rule(before, event["data"], previous)
