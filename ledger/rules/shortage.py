"""Building shortage: the last houses or hotels auctioned among the players who want them.

004 §Mancanza di edifici: when the Bank has fewer houses (hotels) than two or more players
want, the banker auctions them, opening at the price on the deed.  000 FAQ 30: the bidders say
how many they want before the auction, and may not raise that number during it; 000 §PENURIA
DI EDIFICI: one auction per building, and only a player with room for it may bid (a building
cannot be kept for later).  000 FAQ 25: no trades meanwhile (estate.trade refuses them).

The opening price is the rule set's `building_auction_opening`:
  house_price         (classic, 004) the price on the bidder's own deed.  When the bidders'
                      lots have different house prices, "the price on the deed" is each
                      bidder's: nobody bids below the house price of the cheapest lot he could
                      build on, the auction opens at the lowest of those, and the winner puts
                      the building on a lot whose house price his bid covers.  So no house is
                      ever sold under its printed price, and none can be sold back at a profit.
  lowest_house_price  (championship, 000) the lowest house price among the lots concerned,
                      for everyone.
  auction_min_bid     (quick, 003 §05) the rule set's opening bid, M10.
"""

from __future__ import annotations

from banco.ledger.base.errors import RuleViolation
from banco.ledger.base.text import counted, msg
from banco.ledger.board.rule_sets import cited
from banco.ledger.records import commands as c
from banco.ledger.records.reasons import reason
from banco.ledger.rules.decision import Tx, check_active, money, no_debts
from banco.ledger.rules.estate import R_SHORT, buildable_lots
from banco.ledger.rules.registry import handles
from banco.ledger.table.state import BANK, State, next_step
from banco.ledger.table.worth import deeds_of

R_WANTED = "000 FAQ 30"


def _street_groups(state: State, player: str) -> list[tuple[int, ...]]:
    """The player's complete, unmortgaged street groups: where he may build."""
    out = []
    for group in dict.fromkeys(state.edition.space(p).group for p in deeds_of(state, player)):
        lots = state.edition.groups[group]
        if state.edition.space(lots[0]).kind != "street":
            continue
        if all(state.owners[p] == player and p not in state.mortgaged for p in lots):
            out.append(lots)
    return out


def room_for(state: State, player: str, kind: str) -> int:
    """How many houses (hotels) the player could put up, building evenly, whatever the Bank's
    stock: what he may announce he wants (000 FAQ 30)."""
    hfh = state.rules.houses_for_hotel
    total = 0
    for lots in _street_groups(state, player):
        levels = [state.buildings[p] for p in lots]
        if kind == "house":
            total += sum(hfh - lv for lv in levels if lv != 5)
        elif all(lv >= hfh for lv in levels):  # a hotel needs its houses on every lot first
            total += sum(1 for lv in levels if lv == hfh)
    return total


def placeable(state: State, player: str, kind: str) -> list[int]:
    """Lots where one more house (a hotel) could go now (even building, 003 §05)."""
    return buildable_lots(state, player, kind)


def floor(state: State, player: str, kind: str) -> int:
    """The lowest bid `player` may make for one building."""
    mode = state.rules.building_auction_opening
    if mode == "auction_min_bid":
        return state.rules.auction_min_bid
    lots = placeable(state, player, kind)
    if not lots:
        return 0
    if mode == "house_price":
        return min(state.edition.space(p).house_cost for p in lots)
    return _lowest(state, state.auction.wanted if state.auction else (), kind)


def _lowest(state: State, wanted, kind: str) -> int:
    """000 §PENURIA DI EDIFICI: the lowest house price on the deeds of the lots concerned."""
    costs = [state.edition.space(p).house_cost for name, _ in wanted
             for p in placeable(state, name, kind)]
    return min(costs) if costs else state.rules.auction_min_bid


def _opening(state: State, wanted, kind: str) -> int:
    mode = state.rules.building_auction_opening
    if mode == "auction_min_bid":
        return state.rules.auction_min_bid
    if mode == "lowest_house_price":
        return _lowest(state, wanted, kind)
    floors = [floor(state, n, kind) for n, left in wanted if left and placeable(state, n, kind)]
    return min(floors) if floors else state.rules.auction_min_bid


def _still_contested(state: State, wanted, kind: str) -> bool:
    stock = state.bank_houses if kind == "house" else state.bank_hotels
    keen = [n for n, left in wanted if left and placeable(state, n, kind)]
    return stock >= 1 and len(keen) >= 2


@handles(c.BuildingAuction)
def building_auction(tx: Tx, cmd: c.BuildingAuction) -> None:
    """`auction-building house --wanted Anna=3 Bruno=2`: refused unless the Bank has fewer
    buildings than the players announce they want, and at least two want."""
    state = tx.state
    kind = cmd.kind
    if state.auction:
        raise RuleViolation("an auction is already open", allowed=next_step(state))
    wanted = tuple((n, k) for n, k in cmd.wanted)
    names = [n for n, _ in wanted]
    if len(set(names)) != len(names):
        raise RuleViolation("a player is named twice in --wanted")
    for name, count in wanted:
        check_active(state, name, msg("want a {kind}", kind=msg(kind)))
        no_debts(state, msg("bid for a {kind}", kind=msg(kind)), name)
        if count < 1:
            raise RuleViolation("{name} wants {count}: a want is at least 1",
                                allowed=msg("leave {name} out of --wanted", name=name),
                                name=name, count=count)
        room = room_for(state, name, kind)
        if count > room:
            raise RuleViolation(
                "{name} has room for {room}, not {count}: a building bought at auction goes up at once", rule=cited(state.rules, "shortage", R_SHORT),
                allowed=(msg("--wanted {name}={room}", name=name, room=room) if room else msg("leave {name} out", name=name)),
                name=name, room=counted(kind, room), count=count)
    if len(wanted) < 2:
        raise RuleViolation("a building auction is for two or more players wanting the last {kind}s; say who wants how many", rule=cited(state.rules, "shortage", R_SHORT),
                            allowed=msg("`auction-building {kind} --wanted NAME=N NAME=N ...`, or `build` if only one wants them", kind=kind),
                            kind=msg(kind))
    stock = state.bank_houses if kind == "house" else state.bank_hotels
    total = sum(k for _, k in wanted)
    if stock < 1:
        raise RuleViolation("the Bank has no {kind}s: wait until some are sold back",
                            rule=cited(state.rules, "shortage", R_SHORT),
                            kind=msg(kind))
    if stock >= total:
        raise RuleViolation(
            "the Bank has {stock} and {total} are wanted: no shortage, so no auction; each buys at the deed's price", rule=cited(state.rules, "shortage", R_SHORT),
            allowed=msg("`build PROPERTY` or `build GROUP N`"),
            stock=counted(kind, stock), total=total)
    if not _still_contested(state, wanted, kind):
        raise RuleViolation("fewer than two of them can put a {kind} up now (even building)",
                            rule=cited(state.rules, "shortage", R_SHORT), allowed=msg("`build` the houses that come first"),
                            kind=msg(kind))
    tx.emit("BuildingAuctionOpened", kind=kind, min_bid=_opening(state, wanted, kind),
            step=state.rules.auction_step, resume=state.turn.phase, wanted=dict(wanted))


def check_bid(state: State, bidder: str, amount: int) -> None:
    """What a building auction adds to a bid: the bidder wants one more and has room now, and
    bids at least his opening price."""
    a = state.auction
    left = dict(a.wanted).get(bidder, 0) if a.wanted else None
    if left == 0:
        why = (f"{bidder} did not say before the auctions that they want a {a.kind}"
               if bidder not in dict(a.wanted) else
               f"{bidder} has won every {a.kind} they said they want")
        keen = ", ".join(n for n, k in a.wanted if k)
        raise RuleViolation(why, rule=R_WANTED, allowed=msg("bids from {keen}", keen=keen))
    if not placeable(state, bidder, a.kind):
        raise RuleViolation("{bidder} has no lot where a {kind} could go now", rule=cited(state.rules, "shortage", R_SHORT),
                            allowed=msg("bidders must be able to build it at once"),
                            bidder=bidder, kind=msg(a.kind))
    if state.rules.building_auction_opening != "house_price":
        return
    low = floor(state, bidder, a.kind)
    if amount < low:
        nxt = low if a.high_bidder is None else max(low, a.high_bid + a.step)
        raise RuleViolation(
            "a {kind} on {bidder}'s cheapest lot costs {low} on the deed: {bidder}'s bids start there", rule=cited(state.rules, "shortage", R_SHORT), allowed=msg("bid {nxt} or more", nxt=nxt),
            kind=msg(a.kind), bidder=bidder, low=money(state, low))


def winner_lots(state: State) -> list[int]:
    """Where the highest bidder may put the building: a lot with room for it now, whose house
    price his bid covers when each bids from his own deed's price."""
    a = state.auction
    lots = placeable(state, a.high_bidder, a.kind)
    if state.rules.building_auction_opening == "house_price":
        lots = [p for p in lots if state.edition.space(p).house_cost <= a.high_bid]
    return lots


def hammer_building(tx: Tx, lot: int | None) -> None:
    """The highest bidder puts the building on a lot at once; the next auction opens while the
    Bank still has one and two or more still want one."""
    state = tx.state
    a = state.auction
    if a.high_bidder is None:
        tx.emit("AuctionClosed", property=None, outcome="no bid",
                reason=reason("no_bid_building", kind=a.kind))
        return
    winner = a.high_bidder
    lots = winner_lots(state)
    if lot is None and len(lots) == 1:
        lot = lots[0]
    if lot not in lots:
        names = " or ".join(state.edition.space(p).name for p in lots)
        raise RuleViolation("{winner} wins the {kind} for {high_bid}: say where it goes", rule=cited(state.rules, "shortage", R_SHORT), allowed=msg("`hammer PROPERTY` with {names}", names=names),
                            winner=winner, kind=msg(a.kind), high_bid=money(state, a.high_bid))
    space = state.edition.space(lot)
    hfh = state.rules.houses_for_hotel
    if a.kind == "hotel":
        tx.emit("HotelBuilt", player=winner, property=lot, level=5, bank_houses=hfh,
                bank_hotels=-1, payer=winner, payee=BANK, amount=a.high_bid,
                reason=reason("hotel_won_building_auction", space=space.position))
    else:
        tx.emit("HouseBuilt", player=winner, property=lot, level=state.buildings[lot] + 1,
                bank_houses=-1, bank_hotels=0, payer=winner, payee=BANK, amount=a.high_bid,
                reason=reason("house_won_building_auction", space=space.position))
    tx.emit("AuctionClosed", property=lot, outcome="sold", winner=winner,
            reason=reason("building_auctioned", kind=a.kind, amount=a.high_bid))
    if not a.wanted:  # an auction recorded before wants were announced: one building
        return
    wanted = tuple((n, left - (n == winner)) for n, left in a.wanted)
    after = tx.state
    if _still_contested(after, wanted, a.kind):
        tx.emit("BuildingAuctionOpened", kind=a.kind, min_bid=_opening(after, wanted, a.kind),
                step=a.step, resume=a.resume, wanted=dict(wanted))
