"""The audit's amount rules for deeds: bought, auctioned, bid for, mortgaged and lifted (with
the interest), traded, dealt, a mortgage reverted.
"""

from __future__ import annotations

from banco.ledger.base.text import Text, msg
from banco.ledger.board.rule_sets import shown
from banco.ledger.rules.auction import bids_past_cash
from banco.ledger.table.state import BANK, State
from banco.projections.audit.amount_basis import (
    expect,
    interest,
    mortgage_value,
    owner_problems,
    rules_of,
    sides,
)
from banco.projections.audit.books import who

_DEED = msg("the deed")
_HIGHEST_BID = msg("the highest bid")


def bought(t: State, d: dict, prev) -> list[str]:
    space = t.edition.space(d["property"])
    out = sides(d, d["player"], BANK, lambda: msg("{space}'s price", space=space.name))
    if t.owners[d["property"]] is not None:
        out.append(msg("{player} buys {space} from the Bank but {owner} owns it",
                       player=d["player"], space=space.name, owner=t.owners[d["property"]]))
    return out + expect(t, lambda: msg("the price of {space}", space=space.name), d["amount"],
                        space.price, _DEED)


def auction_won(t: State, d: dict, prev) -> list[str]:
    space = t.edition.space(d["property"])
    a = t.auction
    if a is None or a.kind != "deed" or a.property != d["property"]:
        return [msg("{player} wins {space} at an auction that is not open", player=d["player"],
                    space=space.name)]

    def bid():
        return msg("the winning bid for {space}", space=space.name)
    # A debtor auctioning his own deed is paid by the winner (002 §Varie); else the Bank is.
    out = sides(d, d["player"], a.seller or BANK, bid)
    if a.high_bidder is not None:
        if d["player"] != a.high_bidder:
            out.append(msg("{player} wins {space} but {bidder} bid highest", player=d["player"],
                           space=space.name, bidder=a.high_bidder))
        return out + expect(t, bid, d["amount"], a.high_bid, _HIGHEST_BID)
    if t.rules.auction_no_bid == "bank_keeps":
        return [msg("{space} went to {player} without a bid; under the {rules} rules a deed "
                    "nobody bids on stays with the Bank", space=space.name, player=d["player"],
                    rules=shown(t.rules))]
    # 000 FAQ 22: without a bid the deed goes to the richest player at the opening price.
    richest = max(t.player(n).cash for n in t.active())
    if d["player"] in t.index and t.player(d["player"]).cash != richest:
        out.append(msg("{space} went without a bid to {player}, who is not the richest",
                       space=space.name, player=d["player"]))
    return out + expect(t, lambda: msg("{space} without a bid", space=space.name), d["amount"],
                        a.min_bid, lambda: msg("the opening price (000 FAQ 22)"))


def auction_opened(t: State, d: dict, prev) -> list[str]:
    return (expect(t, lambda: msg("the opening bid"), d["min_bid"], t.rules.auction_min_bid,
                   lambda: rules_of(t))
            + expect(t, lambda: msg("the bidding step"), d["step"], t.rules.auction_step,
                     lambda: rules_of(t)))


def bid(t: State, d: dict, prev) -> list[str]:
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
    if (d["player"] in t.index and t.player(d["player"]).cash < d["amount"]
            and not bids_past_cash(t)):  # 000: the hammer voids an unpaid bid instead
        out.append(msg("{player} bids {amount} with {cash} in cash", player=d["player"],
                       amount=d["amount"], cash=t.player(d["player"]).cash))
    return out


def mortgaged(t: State, d: dict, prev) -> list[str]:
    space = t.edition.space(d["property"])

    def what():
        return msg("the mortgage on {space}", space=space.name)
    out = owner_problems(t, d, what)
    if d["property"] in t.mortgaged:
        out.append(msg("{space} is mortgaged a second time", space=space.name))
    return (out + sides(d, BANK, d["player"], what)
            + expect(t, what, d["amount"], mortgage_value(space),
                     lambda: msg("half the deed's price (004 §Impegno)")))


def lifted(t: State, d: dict, prev) -> list[str]:
    space = t.edition.space(d["property"])
    m = mortgage_value(space)
    out = [] if d["property"] in t.mortgaged else [
        msg("{space} is not mortgaged", space=space.name)]

    def what():
        return msg("lifting the mortgage on {space}", space=space.name)
    return (out + sides(d, d["player"], BANK, what)
            + expect(t, what, d["amount"], m + interest(t.rules, m),
                     lambda: msg("the mortgage {mortgage} + {percent}% (rounded {rounding})",
                                  mortgage=m, percent=t.rules.mortgage_interest_percent,
                                  rounding=_rounding(t))))


def _rounding(t: State) -> Text:
    return msg("up") if t.rules.interest_rounding == "up" else msg("down")


def interest_paid(t: State, d: dict, prev) -> list[str]:
    space = t.edition.space(d["property"])
    m = mortgage_value(space)
    out = [] if d["property"] in t.mortgaged else [
        msg("{space} is not mortgaged", space=space.name)]
    return (out + sides(d, d["player"], BANK,
                        lambda: msg("the interest on {space}", space=space.name))
            + expect(t, lambda: msg("the interest on receiving {space}", space=space.name),
                     d["amount"], interest(t.rules, m),
                     lambda: msg("{percent}% of the mortgage {mortgage} (rounded {rounding})",
                                  percent=t.rules.mortgage_interest_percent, mortgage=m,
                                  rounding=_rounding(t))))


def trade(t: State, d: dict, prev) -> list[str]:
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
        out += expect(t, lambda payer=payer, payee=payee: msg(
                           "the cash {payer} pays {payee} in the trade", payer=payer,
                           payee=payee),
                       got.get((payer, payee), 0), cash, lambda: msg("the deal as recorded"))
    return out


def deeds_dealt(t: State, d: dict, prev) -> list[str]:
    """Deeds dealt before the first roll are paid at once at their printed price (002
    §Preparazione; 004's short and timed games)."""
    out = sides(d, d["player"], BANK, lambda: msg("the deeds dealt"))
    for pos in d["properties"]:
        if t.owners[pos] is not None:
            out.append(msg("{space} is dealt to {player} but {owner} holds it",
                           space=t.edition.space(pos).name, player=d["player"],
                           owner=t.owners[pos]))
    # deeds have prices: a None is the TypeError the pure module raises too
    total = sum(t.edition.space(pos).price for pos in d["properties"])  # type: ignore[misc]
    return out + expect(t, lambda: msg("the deeds dealt to {player}", player=d["player"]),
                        d["amount"], total, lambda: msg("their printed prices"))


def mortgage_reverted(t: State, d: dict, prev) -> list[str]:
    """A deed mortgaged during the bankrupt's turn passes as it was (000 FAQ 32): the mortgage
    money goes back to the Bank, as far as the debtor's cash reaches."""
    space = t.edition.space(d["property"])

    def what():
        return msg("the mortgage on {space} undone", space=space.name)
    out = owner_problems(t, d, what)
    if d["property"] not in t.mortgaged:
        out.append(msg("{space} is not mortgaged", space=space.name))
    out += sides(d, d["player"], BANK, what)
    cash = t.player(d["player"]).cash if d["player"] in t.index else 0
    return out + expect(t, what, d["amount"], min(mortgage_value(space), cash),
                        lambda: msg("its mortgage value, as far as the cash reaches "
                                     "(000 FAQ 32)"))
