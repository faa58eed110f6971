"""Every money fact against the amount the rules give, worked out again here from the board,
the decks and the rule set's parameters (as GameStarted recorded them), never by asking
`decide`: a fact whose amount no rule gives is money from nowhere, even if the books balance.

`problems(before, event, previous)` looks at one event with the table as it was just before
it.  Each checked event type has one small function in AMOUNT_RULES; tests/test_books.py
fails when an event type that moves money, or a card effect of any edition, has none.
"""

from __future__ import annotations

from collections.abc import Callable

from ledger.base.text import Text, msg
from ledger.board.edition import Space
from ledger.table.state import BANK, State
from projections.audit import referee_checks
from projections.audit.books import who

# --- the tables, written out again ------------------------------------------------------------


def mortgage_value(space: Space) -> int:
    """004 §Impegno: the mortgage value printed on the back of the deed; half the price where
    the edition prints none (it-euro prints its own, halves rounded to 10 €)."""
    printed = getattr(space, "mortgage_value", None)
    # a deed has a price: a None here is the TypeError the pure module raises too
    return printed if printed is not None else space.price // 2  # type: ignore[operator]


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
    # a street has a building cost: a None is the TypeError the pure module raises too
    return units(rules, level) * (space.house_cost // 2)  # type: ignore[operator]


def rent_due(t: State, position: int) -> int:
    """The rent the board gives for a landing on `position` with the table as it is: the
    deed's row for its buildings; double on an unbuilt lot of a complete group (not when a lot
    of the group is mortgaged, unless the rule set keeps it); stations by how many the owner
    has; utilities 4 or 10 times the dice."""
    space = t.edition.space(position)
    owner = t.owners[position]
    if owner is None or position in t.mortgaged:
        return 0
    # an owned square is a deed, in a group: a None is the KeyError the pure module raises
    group = t.edition.groups[space.group]  # type: ignore[index]
    held = sum(1 for p in group if t.owners[p] == owner)
    if space.kind == "station":
        return space.rents[held - 1]
    if space.kind == "utility":
        # The throw: the numbered dice, and the Speedy die's number when it counted (000
        # §SOCIETÀ: "incluso il Dado Speedy"; the Bus and Mr Monopoly count zero).
        speedy = getattr(t.turn, "speedy", None)
        extra = int(speedy) if speedy and speedy.isdecimal() else 0
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
# The audit runs these after every event, and nearly every event is right: a message is built
# only when a check fails.  `what` and `why` are a message (a constant Text) or a function
# that makes one (a lambda over the event's names), called only for a problem.

def _say(part) -> Text | str:  # a card's name is a plain str (a name in every language)
    return part() if callable(part) else part


def _rules_of(t: State) -> Text:
    return msg("the {rules} rule set", rules=t.rules.name)


def _expect(t: State, what, got: int, want: int | None, why) -> list[str]:
    # `want` None: a square without the printed figure (space.amount, price, house_cost):
    # never equal, said as it is
    if got == want:
        return []
    cur = t.edition.currency
    return [msg("{what} is {got} {cur}; {why} gives {want} {cur}", what=_say(what), got=got,
                cur=cur, why=_say(why), want=want)]


def _sides(d: dict, payer: str, payee: str, what) -> list[str]:
    out: list[str] = []
    if d["payer"] != payer:
        out.append(msg("{what} is paid by {payer}, not by {expected}", what=_say(what),
                       payer=who(d["payer"]), expected=who(payer)))
    if d["payee"] != payee:
        out.append(msg("{what} is paid to {payee}, not to {expected}", what=_say(what),
                       payee=who(d["payee"]), expected=who(payee)))
    return out


_STARTING_CASH = msg("starting cash")
_SALARY = msg("the Via! salary")
_JAIL_FINE = msg("the jail fine")
_BOARD = msg("the board")
_DEED = msg("the deed")
_HIGHEST_BID = msg("the highest bid")
_HALF_PRICE = msg("half their price")
_CARD_TEXT = msg("the card's text")
_AT_LANDING = msg("the deed for the table at the landing")
_GROUP_BUILDINGS = msg("the group's buildings")
_BUILDINGS = msg("the buildings")
_HALF_VALUE = msg("half value (000 FAQ 29)")


def _cash_issued(t: State, d: dict, prev) -> list[str]:
    return (_sides(d, BANK, d["payee"], _STARTING_CASH)
            + _expect(t, lambda: msg("starting cash for {player}", player=d["payee"]),
                      d["amount"], starting_cash(t), lambda: _rules_of(t)))


def _salary(t: State, d: dict, prev) -> list[str]:
    out = _sides(d, BANK, d["payee"], _SALARY)
    out += _expect(t, lambda: msg("the Via! salary to {player}", player=d["payee"]), d["amount"],
                   t.rules.go_salary, lambda: _rules_of(t))
    if not (prev and prev["type"] == "TokenMoved" and prev["data"]["player"] == d["payee"]
            and prev["data"]["passed_go"]):
        out.append(msg("a Via! salary to {player} without a move past Via! just before it",
                       player=d["payee"]))
    return out


def _tax(t: State, d: dict, prev) -> list[str]:
    if d["payer"] not in t.index:
        return []  # the books name the account
    space = t.edition.space(t.player(d["payer"]).position)
    if space.kind != "tax":
        return [msg("tax paid by {player} on {space}, which is not a tax square",
                    player=d["payer"], space=space.name)]

    def what():
        return msg("the tax on {space}", space=space.name)
    return (_sides(d, d["payer"], BANK, what)
            + _expect(t, what, d["amount"], space.amount, _BOARD))


def _fine(t: State, d: dict, prev) -> list[str]:
    out = _sides(d, d["payer"], BANK, _JAIL_FINE)
    if d["payer"] in t.index and not t.player(d["payer"]).in_jail:
        out.append(msg("a jail fine paid by {player}, who is not in jail", player=d["payer"]))
    return out + _expect(t, _JAIL_FINE, d["amount"], t.rules.jail_fine, lambda: _rules_of(t))


def _moved(t: State, d: dict, prev) -> list[str]:
    """A move starts where the token stands and ends `spaces` further on; only a forward move
    that reaches or passes square 0 passes Via! (what a salary rests on)."""
    if d["player"] not in t.index:
        return []
    out: list[str] = []
    at = t.player(d["player"]).position
    if d["from"] != at:
        out.append(msg("{player} moves from square {start} but stands on {at}",
                       player=d["player"], start=d["from"], at=at))
    if d["to"] != (d["from"] + d["spaces"]) % 40:
        out.append(msg("{player} moves {spaces} from {start} and lands on {end}",
                       player=d["player"], spaces=d["spaces"], start=d["from"], end=d["to"]))
    if d["passed_go"] and d["from"] + d["spaces"] < 40:
        out.append(msg("{player} passes Via! moving {spaces} from square {start}",
                       player=d["player"], spaces=d["spaces"], start=d["from"]))
    return out


def _bought(t: State, d: dict, prev) -> list[str]:
    space = t.edition.space(d["property"])
    out = _sides(d, d["player"], BANK, lambda: msg("{space}'s price", space=space.name))
    if t.owners[d["property"]] is not None:
        out.append(msg("{player} buys {space} from the Bank but {owner} owns it",
                       player=d["player"], space=space.name, owner=t.owners[d["property"]]))
    return out + _expect(t, lambda: msg("the price of {space}", space=space.name), d["amount"],
                         space.price, _DEED)


def _auction_won(t: State, d: dict, prev) -> list[str]:
    space = t.edition.space(d["property"])
    a = t.auction
    if a is None or a.kind != "deed" or a.property != d["property"]:
        return [msg("{player} wins {space} at an auction that is not open", player=d["player"],
                    space=space.name)]

    def bid():
        return msg("the winning bid for {space}", space=space.name)
    # A debtor auctioning his own deed is paid by the winner (002 §Varie); else the Bank is.
    out = _sides(d, d["player"], a.seller or BANK, bid)
    if a.high_bidder is not None:
        if d["player"] != a.high_bidder:
            out.append(msg("{player} wins {space} but {bidder} bid highest", player=d["player"],
                           space=space.name, bidder=a.high_bidder))
        return out + _expect(t, bid, d["amount"], a.high_bid, _HIGHEST_BID)
    if t.rules.auction_no_bid == "bank_keeps":
        return [msg("{space} went to {player} without a bid; under the {rules} rules a deed "
                    "nobody bids on stays with the Bank", space=space.name, player=d["player"],
                    rules=t.rules.name)]
    # 000 FAQ 22: without a bid the deed goes to the richest player at the opening price.
    richest = max(t.player(n).cash for n in t.active())
    if d["player"] in t.index and t.player(d["player"]).cash != richest:
        out.append(msg("{space} went without a bid to {player}, who is not the richest",
                       space=space.name, player=d["player"]))
    return out + _expect(t, lambda: msg("{space} without a bid", space=space.name), d["amount"],
                         a.min_bid, lambda: msg("the opening price (000 FAQ 22)"))


def _auction_opened(t: State, d: dict, prev) -> list[str]:
    return (_expect(t, lambda: msg("the opening bid"), d["min_bid"], t.rules.auction_min_bid,
                    lambda: _rules_of(t))
            + _expect(t, lambda: msg("the bidding step"), d["step"], t.rules.auction_step,
                      lambda: _rules_of(t)))


def _bid(t: State, d: dict, prev) -> list[str]:
    """A bid opens at the auction's opening price, then raises by its step, from cash in hand
    (003 §03, §06): what an AuctionWon's amount rests on."""
    a = t.auction
    if a is None:
        return [msg("{player} bids {amount} with no auction open", player=d["player"],
                    amount=d["amount"])]
    lowest = a.min_bid if a.high_bidder is None else a.high_bid + a.step
    out: list[str] = [] if d["amount"] >= lowest else [
        msg("{player}'s bid of {amount} is below the lowest allowed, {lowest}",
            player=d["player"], amount=d["amount"], lowest=lowest)]
    if d["player"] in t.index and t.player(d["player"]).cash < d["amount"]:
        out.append(msg("{player} bids {amount} with {cash} in cash", player=d["player"],
                       amount=d["amount"], cash=t.player(d["player"]).cash))
    return out


def _owner_of(t: State, d: dict, what) -> list[str]:
    owner = t.owners[d["property"]]
    if owner != d["player"]:
        return [msg("{what}: {player} does not own it ({owner} does)", what=_say(what),
                    player=d["player"], owner=who(owner or BANK))]
    return []


def _mortgaged(t: State, d: dict, prev) -> list[str]:
    space = t.edition.space(d["property"])

    def what():
        return msg("the mortgage on {space}", space=space.name)
    out = _owner_of(t, d, what)
    if d["property"] in t.mortgaged:
        out.append(msg("{space} is mortgaged a second time", space=space.name))
    return (out + _sides(d, BANK, d["player"], what)
            + _expect(t, what, d["amount"], mortgage_value(space),
                      lambda: msg("half the deed's price (004 §Impegno)")))


def _lifted(t: State, d: dict, prev) -> list[str]:
    space = t.edition.space(d["property"])
    m = mortgage_value(space)
    out = [] if d["property"] in t.mortgaged else [
        msg("{space} is not mortgaged", space=space.name)]

    def what():
        return msg("lifting the mortgage on {space}", space=space.name)
    return (out + _sides(d, d["player"], BANK, what)
            + _expect(t, what, d["amount"], m + interest(t.rules, m),
                      lambda: msg("the mortgage {mortgage} + {percent}% (rounded {rounding})",
                                  mortgage=m, percent=t.rules.mortgage_interest_percent,
                                  rounding=_rounding(t))))


def _rounding(t: State) -> Text:
    return msg("up") if t.rules.interest_rounding == "up" else msg("down")


def _interest(t: State, d: dict, prev) -> list[str]:
    space = t.edition.space(d["property"])
    m = mortgage_value(space)
    out = [] if d["property"] in t.mortgaged else [
        msg("{space} is not mortgaged", space=space.name)]
    return (out + _sides(d, d["player"], BANK,
                         lambda: msg("the interest on {space}", space=space.name))
            + _expect(t, lambda: msg("the interest on receiving {space}", space=space.name),
                      d["amount"], interest(t.rules, m),
                      lambda: msg("{percent}% of the mortgage {mortgage} (rounded {rounding})",
                                  percent=t.rules.mortgage_interest_percent, mortgage=m,
                                  rounding=_rounding(t))))


def _built(t: State, d: dict, prev) -> list[str]:
    space = t.edition.space(d["property"])

    def what():
        if d["level"] == 5:
            return msg("a hotel on {space}", space=space.name)
        return msg("a house on {space}", space=space.name)
    out = _owner_of(t, d, what) + _sides(d, d["player"], BANK, what)
    a = t.auction
    if a is not None and a.kind in ("house", "hotel"):
        if d["player"] != a.high_bidder:
            out.append(msg("{what} goes to {player} but {bidder} bid highest", what=what(),
                           player=d["player"], bidder=a.high_bidder))
        return out + _expect(t, what, d["amount"], a.high_bid,
                             lambda: msg("the building auction's highest bid"))
    return out + _expect(t, what, d["amount"], space.house_cost,
                         lambda: msg("the deed's building price"))


def _sold(t: State, d: dict, prev) -> list[str]:
    space = t.edition.space(d["property"])
    before = t.buildings[d["property"]]
    sold = sale_value(space, t.rules, before) - sale_value(space, t.rules, d["level"])

    def what():
        return msg("buildings sold on {space}", space=space.name)
    return (_owner_of(t, d, what) + _sides(d, BANK, d["player"], what)
            + _expect(t, what, d["amount"], sold, _HALF_PRICE))


def _group_sold(t: State, d: dict, prev) -> list[str]:
    """A group's buildings sold at once: all of them, or down to the levels in `lots`; half
    their price, a hotel broken up paying half value for the houses it does not get back."""
    what = _GROUP_BUILDINGS
    out = _sides(d, BANK, d["player"], what)
    levels = {lot["property"]: lot["level"] for lot in d.get("lots", ())}
    total = 0
    for pos in d["properties"]:
        space = t.edition.space(pos)
        if t.owners[pos] != d["player"]:
            out.append(msg("buildings on {space} sold by {player}, who does not own it",
                           space=space.name, player=d["player"]))
        total += (sale_value(space, t.rules, t.buildings[pos])
                  - sale_value(space, t.rules, levels.get(pos, 0)))
    return out + _expect(t, what, d["amount"], total, _HALF_PRICE)


def _group_built(t: State, d: dict, prev) -> list[str]:
    """Buildings put up evenly across lots in one fact: each new house (or hotel) at the
    deed's building price."""
    what = _BUILDINGS
    out = _sides(d, d["player"], BANK, what)
    total = 0
    for lot in d["lots"]:
        pos = lot["property"]
        space = t.edition.space(pos)
        if t.owners[pos] != d["player"]:
            out.append(msg("buildings on {space} put up by {player}, who does not own it",
                           space=space.name, player=d["player"]))
        # a street has a building cost: a None is the TypeError the pure module raises too
        total += ((units(t.rules, lot["level"]) - units(t.rules, t.buildings[pos]))  # type: ignore[operator]
                  * space.house_cost)
    return out + _expect(t, what, d["amount"], total, lambda: msg("the deeds' building prices"))


def _broken_up(t: State, d: dict, prev) -> list[str]:
    out: list[str] = []
    if len(d["lots"]) != len(d["transfers"]):
        out.append(msg("{lots} hotels broken up but {payments} payments", lots=len(d["lots"]),
                       payments=len(d["transfers"])))
    for lot, tr in zip(d["lots"], d["transfers"], strict=False):
        space = t.edition.space(lot["property"])
        owner = t.owners[lot["property"]]
        def what(space=space):
            return msg("the hotel broken up on {space}", space=space.name)
        if t.buildings[lot["property"]] != 5:
            out.append(msg("{space} has no hotel to break up", space=space.name))
        out += _sides(tr, BANK, owner or BANK, what)
        # 000 FAQ 29: half value for the hotel and for every house not received in its place.
        out += _expect(t, what, tr["amount"], sale_value(space, t.rules, 5)
                       - sale_value(space, t.rules, lot["level"]),
                       _HALF_VALUE)
    return out


def _claim_opened(t: State, d: dict, prev, card: dict | None = None) -> list[str]:
    """The rent the deed gives for the table at the landing; a card that sent the player there
    may change it (`card` is the effect of the card drawn this turn, if any): twice the rent of
    the nearest railroad, or a multiple of a fresh throw of the dice for a utility."""
    space = t.edition.space(d["property"])
    out: list[str] = []
    if t.owners[d["property"]] != d["owner"]:
        out.append(msg("rent on {space} claimed for {owner}, who does not own it",
                       space=space.name, owner=d["owner"]))
    if d["payer"] in t.index and t.player(d["payer"]).position != d["property"]:
        out.append(msg("rent on {space} asked of {player}, who is not on it", space=space.name,
                       player=d["payer"]))
    want = rent_due(t, d["property"])
    why: Text | Callable[[], Text] = _AT_LANDING
    if card and card.get("kind") == "advance_to_nearest":
        if prev and prev["type"] == "CardDiceThrown" and "dice_multiplier" in card:
            throw = sum(prev["data"]["dice"])
            want = card["dice_multiplier"] * throw

            def fresh_throw() -> Text:
                return msg("{times} x the fresh throw of {throw} (the card's text)",
                           times=card["dice_multiplier"], throw=throw)
            why = fresh_throw
        elif "rent_multiplier" in card:
            want = rent_due(t, d["property"]) * card["rent_multiplier"]

            def multiplied() -> Text:
                return msg("the deed's rent x {times} (the card's text)",
                           times=card["rent_multiplier"])
            why = multiplied
    return out + _expect(t, lambda: msg("the rent on {space}", space=space.name), d["amount"],
                         want, why)


def _rent_paid(t: State, d: dict, prev) -> list[str]:
    space = t.edition.space(d["property"])

    def what():
        return msg("the rent on {space}", space=space.name)
    if d["opened_seq"] == 0:  # rent = "auto": paid at the landing, no claim
        if t.rules.rent != "auto":
            return [msg("rent on {space} paid without a claim under {rules} rules",
                        space=space.name, rules=t.rules.name)]
        return (_sides(d, d["payer"], t.owners[d["property"]] or BANK, what)
                + _expect(t, what, d["amount"], rent_due(t, d["property"]), _AT_LANDING))
    claim = next((c for c in t.claims if c.opened_seq == d["opened_seq"]), None)
    if claim is None:
        return [msg("rent on {space} paid for a claim (event {seq}) that is not open",
                    space=space.name, seq=d["opened_seq"])]
    out = _sides(d, claim.payer, claim.owner, what)
    if claim.property != d["property"]:
        out.append(msg("rent paid on {space} for a claim on {other}", space=space.name,
                       other=t.edition.space(claim.property).name))
    return out + _expect(t, what, d["amount"], claim.amount,
                         lambda: msg("the claim opened at event {seq}", seq=claim.opened_seq))


def _debt_of(debt):
    return lambda: msg("the debt of event {seq}", seq=debt.seq)


def _debt_paid(t: State, d: dict, prev) -> list[str]:
    debt = next((x for x in t.debts if x.seq == d["debt_seq"]), None)
    if debt is None:
        return [msg("a debt paid that is not owed (event {seq})", seq=d["debt_seq"])]
    return (_sides(d, debt.debtor, debt.creditor, _debt_of(debt))
            + _expect(t, _debt_of(debt), d["amount"], debt.amount,
                      lambda: msg("the debt as incurred")))


def _estate(t: State, d: dict, prev) -> list[str]:
    out = _sides(d, d["debtor"], d["creditor"],
                 lambda: msg("{player}'s estate", player=d["debtor"]))
    if d["debtor"] not in t.index:
        return out
    return out + _expect(t, lambda: msg("the cash in {player}'s estate", player=d["debtor"]),
                         d["amount"], t.player(d["debtor"]).cash,
                         lambda: msg("all the debtor's cash (004 §Fallimento)"))


def _trade(t: State, d: dict, prev) -> list[str]:
    a, b = d["a"], d["b"]
    want = {(a, b): d["a_gives"]["cash"], (b, a): d["b_gives"]["cash"]}
    got: dict[tuple[str, str], int] = {}
    out: list[str] = []
    for tr in d["transfers"]:
        key = (tr["payer"], tr["payee"])
        if key not in want:
            out.append(msg("a trade between {a} and {b} moves money from {payer} to {payee}",
                           a=a, b=b, payer=who(tr["payer"]), payee=who(tr["payee"])))
        got[key] = got.get(key, 0) + tr["amount"]
    for (payer, payee), cash in want.items():
        out += _expect(t, lambda payer=payer, payee=payee: msg(
                           "the cash {payer} pays {payee} in the trade", payer=payer,
                           payee=payee),
                       got.get((payer, payee), 0), cash, lambda: msg("the deal as recorded"))
    return out


def _deeds_dealt(t: State, d: dict, prev) -> list[str]:
    """Deeds dealt before the first roll are paid at once at their printed price (002
    §Preparazione; 004's short and timed games)."""
    out = _sides(d, d["player"], BANK, lambda: msg("the deeds dealt"))
    for pos in d["properties"]:
        if t.owners[pos] is not None:
            out.append(msg("{space} is dealt to {player} but {owner} holds it",
                           space=t.edition.space(pos).name, player=d["player"],
                           owner=t.owners[pos]))
    # deeds have prices: a None is the TypeError the pure module raises too
    total = sum(t.edition.space(pos).price for pos in d["properties"])  # type: ignore[misc]
    return out + _expect(t, lambda: msg("the deeds dealt to {player}", player=d["player"]),
                         d["amount"], total, lambda: msg("their printed prices"))


def _mortgage_reverted(t: State, d: dict, prev) -> list[str]:
    """A deed mortgaged during the bankrupt's turn passes as it was (000 FAQ 32): the mortgage
    money goes back to the Bank, as far as the debtor's cash reaches."""
    space = t.edition.space(d["property"])

    def what():
        return msg("the mortgage on {space} undone", space=space.name)
    out = _owner_of(t, d, what)
    if d["property"] not in t.mortgaged:
        out.append(msg("{space} is not mortgaged", space=space.name))
    out += _sides(d, d["player"], BANK, what)
    cash = t.player(d["player"]).cash if d["player"] in t.index else 0
    return out + _expect(t, what, d["amount"], min(mortgage_value(space), cash),
                         lambda: msg("its mortgage value, as far as the cash reaches "
                                     "(000 FAQ 32)"))


def _debt_paid_by_bank(t: State, d: dict, prev) -> list[str]:
    """A vintage bankrupt's creditors are paid in full by the Bank (002 §Fallimento)."""
    debt = next((x for x in t.debts if x.seq == d["debt_seq"]), None)
    if debt is None:
        return [msg("the Bank pays a debt that is not owed (event {seq})", seq=d["debt_seq"])]
    out = _sides(d, BANK, debt.creditor, _debt_of(debt))
    if debt.debtor != d["debtor"]:
        out.append(msg("the debt of event {seq} is {debtor}'s, not {player}'s", seq=debt.seq,
                       debtor=debt.debtor, player=d["debtor"]))
    return out + _expect(t, lambda: msg("the Bank's payment of the debt of event {seq}",
                                        seq=debt.seq),
                         d["amount"], debt.amount,
                         lambda: msg("the debt in full (002 §Fallimento)"))


def _debt_paid_in_kind(t: State, d: dict, prev) -> list[str]:
    """Part of a debt paid in deeds at the creditor's prices, the rest in cash (002 §Varie)."""
    debt = next((x for x in t.debts if x.seq == d["debt_seq"]), None)
    if debt is None:
        return [msg("a debt paid in kind that is not owed (event {seq})", seq=d["debt_seq"])]
    out = _sides(d, debt.debtor, debt.creditor, _debt_of(debt))
    for deed in d["deeds"]:
        if t.owners[deed["property"]] != debt.debtor:
            out.append(msg("{space} given for a debt by {player}, who does not own it",
                           space=t.edition.space(deed["property"]).name, player=debt.debtor))
    deeds = sum(x["price"] for x in d["deeds"])
    return out + _expect(t, lambda: msg("the cash part of the debt of event {seq}",
                                        seq=debt.seq),
                         d["amount"], debt.amount - deeds,
                         lambda: msg("the debt less the creditor's prices for the deeds"))


# --- cards ----------------------------------------------------------------------------------

def _repairs(t: State, drawer: str, effect: dict) -> int:
    houses = sum(lv for p, lv in enumerate(t.buildings) if t.owners[p] == drawer and lv < 5)
    hotels = sum(1 for p, lv in enumerate(t.buildings) if t.owners[p] == drawer and lv == 5)
    return houses * effect["house"] + hotels * effect["hotel"]


def _other_player(t: State, drawer: str, name: str) -> bool:
    return name != drawer and name in t.index and not t.player(name).bankrupt


def _card_from_bank(t, drawer, effect, d, what):
    return _sides(d, BANK, drawer, what) + _expect(t, what, d["amount"], effect["amount"],
                                                   _CARD_TEXT)


def _card_to_bank(t, drawer, effect, d, what):
    return _sides(d, drawer, BANK, what) + _expect(t, what, d["amount"], effect["amount"],
                                                   _CARD_TEXT)


def _card_from_each(t, drawer, effect, d, what):
    out = [] if _other_player(t, drawer, d["payer"]) else [
        msg("{what} is paid by {payer}, not by another player in the game", what=what,
            payer=who(d["payer"]))]
    return out + _sides(d, d["payer"], drawer, what) + _expect(t,
        what, d["amount"], effect["amount"], _CARD_TEXT)


def _card_to_each(t, drawer, effect, d, what):
    out = [] if _other_player(t, drawer, d["payee"]) else [
        msg("{what} is paid to {payee}, not to another player in the game", what=what,
            payee=who(d["payee"]))]
    return out + _sides(d, drawer, d["payee"], what) + _expect(t,
        what, d["amount"], effect["amount"], _CARD_TEXT)


def _card_repairs(t, drawer, effect, d, what):
    return _sides(d, drawer, BANK, what) + _expect(t,
        what, d["amount"], _repairs(t, drawer, effect),
        lambda: msg("{house} a house and {hotel} a hotel of {player}'s", house=effect["house"],
                    hotel=effect["hotel"], player=drawer))


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
        return [msg("a payment for card {deck} {number}, which is not in the edition",
                    deck=d["deck"], number=d["number"])]
    card = deck.cards[d["number"] - 1]
    # the card's title and number: a name, the same in every language
    what = f"{deck.title} {d['number']}"
    rule = CARD_PAYMENTS.get(card.effect["kind"])
    if rule is None:
        if card.effect["kind"] in CARD_NO_PAYMENT:
            return [msg("{card} ({kind}) pays nothing itself", card=what,
                        kind=card.effect["kind"])]
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
# correction and not money from nowhere is checked there (projections/audit/referee_checks.py).
# (referee_checks's functions say list[Text], which is a list[str] at run time: mypy's list
# is invariant, and that module is not this one's to change)
AMOUNT_RULES.update(referee_checks.MONEY_CHECKS)  # type: ignore[arg-type]


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
