"""A deed for sale and its auction: `buy`, `decline`, `bid`, `hammer` (004 §Acquisto di
proprietà; 003 §02-§03; 000 §COMPRARE I CONTRATTI, FAQ 22); a building auction's bids and hammer
are ledger/rules/shortage.py's."""

from __future__ import annotations

from banco.ledger.base.errors import RuleViolation
from banco.ledger.base.text import Joined, msg
from banco.ledger.board.rule_sets import cited, shown
from banco.ledger.records import commands as c
from banco.ledger.records.reasons import reason
from banco.ledger.rules.decision import Tx, check_active, check_turn, money, need_phase, no_debts
from banco.ledger.rules.mortgages import receive_mortgaged
from banco.ledger.rules.movement import after_auctions, continue_turn
from banco.ledger.rules.registry import handles
from banco.ledger.rules.shortage import check_bid, hammer_building, winner_lots
from banco.ledger.table.state import BANK, State, hammer_step, richest_bidders

R_BUY = "004 §Acquisto di proprietà"
R_AUCTION = "004 §Acquisto di proprietà; 003 §03"
R_BID_CASH = "003 §03; 004 §Note di gioco"  # a bid past the cash in hand
R_UNPAID = "000 §COMPRARE I CONTRATTI"
R_NO_BID = "000 FAQ 22"


def _offer_check(tx: Tx, player: str | None, action: str) -> int:
    state = tx.state
    check_turn(state, player, action)
    need_phase(state, "buy", action)
    offer = state.turn.offer
    assert offer is not None  # phase "buy" names the deed offered
    return offer


# The words a refusal names its action by, made once: an audit re-derives these commands
# by the thousand, refused or not.
_BUY = msg("buy")
_BID = msg("bid")


@handles(c.Buy)
def _buy(tx: Tx, cmd: c.Buy) -> None:
    state = tx.state
    pos = _offer_check(tx, cmd.player, _BUY)
    space = state.edition.space(pos)
    name = state.turn.player
    no_debts(state, _BUY, name)
    cash = state.current.cash
    assert space.price is not None  # a deed on offer has a price
    if cash < space.price:
        raise RuleViolation(
            "{name} has {cash} in cash and {space} costs {price}",
            rule=cited(state.rules, "buy", R_BUY), allowed=msg("`decline`: {space} then goes to auction, where {name} may bid too", space=space.name, name=name),
            name=name, cash=money(state, cash), space=space.name, price=money(state, space.price))
    tx.emit("PropertyBought", player=name, property=pos, payer=name, payee=BANK,
            amount=space.price, reason=reason("bought", space=space.position))
    continue_turn(tx)


@handles(c.Decline)
def _decline(tx: Tx, cmd: c.Decline) -> None:
    state = tx.state
    pos = _offer_check(tx, cmd.player, msg("decline"))
    tx.emit("PropertyDeclined", player=state.turn.player, property=pos)
    # 003 §02: a declined property goes to auction at once; it is not optional.
    tx.emit("AuctionOpened", property=pos, min_bid=state.rules.auction_min_bid,
            step=state.rules.auction_step)


@handles(c.Bid)
def _bid(tx: Tx, cmd: c.Bid) -> None:
    state = tx.state
    need_phase(state, "auction", _BID)
    check_active(state, cmd.bidder, _BID)
    a = state.auction
    assert a is not None  # phase "auction"
    if cmd.bidder == a.seller:
        assert a.property is not None  # a seller's auction is a deed's
        raise RuleViolation("{bidder} is selling {space}: the deed goes to one of the other players", rule="002 §Varie",
                            allowed=msg("another player's bid, or `hammer`"),
                            bidder=cmd.bidder, space=state.edition.space(a.property).name)
    no_debts(state, _BID, cmd.bidder)
    if cmd.bidder in a.excluded:
        raise RuleViolation("{bidder} won this auction and could not pay: kept out of the new one", rule=R_UNPAID,
                            bidder=cmd.bidder)
    if a.kind == "deed":
        assert a.property is not None  # a deed's auction names its deed
        name = state.edition.space(a.property).name
    else:
        name = f"the {a.kind}"
        check_bid(state, cmd.bidder, cmd.amount)
    if a.high_bidder is None:
        lowest = a.min_bid
        if cmd.amount < lowest:
            raise RuleViolation("bids for {name} open at {lowest}; {amount} is too low",
                                rule=cited(state.rules, "auction", R_AUCTION),
                                allowed=msg("bid {lowest} or more", lowest=lowest),
                                name=name, lowest=money(state, lowest), amount=cmd.amount)
    else:
        lowest = a.high_bid + a.step
        if cmd.amount < lowest:
            raise RuleViolation(
                "{high_bidder} already bids {high_bid} for {name}; a bid must raise by at least {step}", rule=cited(state.rules, "auction", R_AUCTION),
                allowed=msg("bid {lowest} or more", lowest=lowest),
                high_bidder=a.high_bidder, high_bid=money(state, a.high_bid), name=name,
                step=a.step)
    cash = state.player(cmd.bidder).cash
    if cmd.amount > cash and not bids_past_cash(state):
        # The winner pays the Bank (003 §03), and no player borrows (004 §Note di gioco): a
        # bid is paid from cash in hand.  003 §06 is the trades between players' section.
        raise RuleViolation("{bidder} has {cash} in cash and cannot bid {amount}",
                            rule=cited(state.rules, "loan", R_BID_CASH),
                            allowed=(msg("bid at most {cash}", cash=cash) if cash >= lowest else msg("{bidder} cannot outbid {amount} with {cash}: another bidder, or `hammer`", bidder=cmd.bidder, amount=money(state, lowest - 1), cash=money(state, cash))),
                            bidder=cmd.bidder, cash=money(state, cash), amount=cmd.amount)
    tx.emit("BidPlaced", player=cmd.bidder, property=a.property, amount=cmd.amount)


def bids_past_cash(state: State) -> bool:
    """000 §COMPRARE I CONTRATTI: "Se un giocatore vince un asta, ma non può pagare, il
    banchiere cancella l'asta e ne indice un'altra": a bid may go past the cash in hand (the
    winner mortgages or sells to pay before the hammer), and the hammer voids it if he has not
    the cash then.  Elsewhere a bid is paid from cash in hand (003 §03; 004 §Note di gioco)."""
    return state.rules.source == "000"


def _winner_cannot_take_it(state: State) -> dict | None:
    """Why the highest bidder cannot have what he won, if he cannot: he has no longer the cash
    (000 §COMPRARE I CONTRATTI), or, for a building, no longer a lot where his bid would put it
    (he mortgaged or sold since he bid; 000 §PENURIA DI EDIFICI: only players with room bid)."""
    a = state.auction
    assert a is not None  # phase "auction"
    if not a.high_bidder:
        return None
    what = ({"space": a.property} if a.kind == "deed" and a.property is not None
            else {"kind": a.kind})  # a deed by its square, else the building
    cash = state.player(a.high_bidder).cash
    if cash < a.high_bid:
        return reason("cannot_pay_bid", player=a.high_bidder, bid=a.high_bid, **what,
                      cash=cash)
    if a.kind != "deed":
        if not winner_lots(state):
            return reason("no_lot_for_bid", player=a.high_bidder, **what)
    return None


@handles(c.Hammer)
def _hammer(tx: Tx, cmd: c.Hammer) -> None:
    state = tx.state
    need_phase(state, "auction", msg("close the auction"))
    a = state.auction
    assert a is not None  # phase "auction"
    why = _winner_cannot_take_it(state)
    if why:
        # 000 §COMPRARE I CONTRATTI: the auction is cancelled and a new one held without him.
        tx.emit("AuctionVoided", player=a.high_bidder, property=a.property, amount=a.high_bid,
                reason=reason("auction_voided", why=why, player=a.high_bidder, rule=R_UNPAID))
        excluded = list(a.excluded) + [a.high_bidder]
        if a.kind == "deed":
            seller = {"seller": a.seller} if a.seller else {}
            tx.emit("AuctionOpened", property=a.property, min_bid=a.min_bid, step=a.step,
                    resume=a.resume, excluded=excluded, **seller)
        else:
            tx.emit("BuildingAuctionOpened", kind=a.kind, min_bid=a.min_bid, step=a.step,
                    resume=a.resume, excluded=excluded, wanted=dict(a.wanted))
        return
    if a.kind != "deed":
        if cmd.player is not None:
            raise RuleViolation("`hammer PLAYER` is for a deed nobody bid for", rule=R_NO_BID,
                                allowed=msg("`hammer` or `hammer PROPERTY`"))
        hammer_building(tx, cmd.lot)
        return
    if cmd.lot is not None:
        raise RuleViolation("`hammer PROPERTY` is for building auctions",
                            allowed=hammer_step(state))
    assert a.property is not None  # a deed's auction names its deed
    space = state.edition.space(a.property)
    if a.high_bidder is not None:
        if cmd.player is not None:
            raise RuleViolation("{high_bidder} bid {high_bid}: the highest bid wins", rule=cited(state.rules, "auction", R_AUCTION), allowed=msg("`hammer`"),
                                high_bidder=a.high_bidder, high_bid=money(state, a.high_bid))
        if a.seller:  # a debtor's own deed: the price is his (002 §Varie)
            tx.emit("AuctionWon", player=a.high_bidder, property=a.property,
                    payer=a.high_bidder, payee=a.seller, amount=a.high_bid,
                    reason=reason("won_sellers_auction", space=space.position, seller=a.seller))
            receive_mortgaged(tx, a.high_bidder, [a.property])
        else:
            tx.emit("AuctionWon", player=a.high_bidder, property=a.property,
                    payer=a.high_bidder, payee=BANK, amount=a.high_bid,
                    reason=reason("won_auction", space=space.position))
    elif a.seller:
        if cmd.player is not None:
            raise RuleViolation("nobody bid: {space} stays with {seller}",
                                rule="002 §Varie", allowed=msg("`hammer`"),
                                space=space.name, seller=a.seller)
        tx.emit("AuctionClosed", property=a.property, outcome="no bid",
                reason=reason("no_bid_seller_keeps", space=space.position, seller=a.seller))
    elif state.rules.auction_no_bid == "richest":
        _no_bid_to_the_richest(tx, cmd.player)
    else:
        if cmd.player is not None:
            raise RuleViolation("nobody bid: under the {rules} rules {space} stays with the Bank", allowed=msg("`hammer`"),
                                rules=shown(state.rules), space=space.name)
        tx.emit("AuctionClosed", property=a.property, outcome="no bid",
                reason=reason("no_bid_bank_keeps"))
    if tx.state.auction_queue:  # a bankrupt's deeds, one by one (003 §10)
        tx.emit("AuctionOpened", property=tx.state.auction_queue[0], min_bid=a.min_bid,
                step=a.step, resume=a.resume)
    elif a.resume == "moving":
        after_auctions(tx)


def _no_bid_to_the_richest(tx: Tx, chosen: str | None) -> None:
    """000 FAQ 22: nobody bid, so the banker gives the deed to the player with the most cash
    at the opening bid.  The FAQ does not break a tie: the banker does (`hammer PLAYER`)."""
    state = tx.state
    a = state.auction
    assert a is not None and a.property is not None  # a deed's auction (_hammer)
    space = state.edition.space(a.property)
    tied = richest_bidders(state)
    if not tied:
        if chosen is not None:
            raise RuleViolation("nobody can pay {min_bid} for {space}",
                                rule=R_NO_BID, allowed=msg("`hammer`"),
                                min_bid=money(state, a.min_bid), space=space.name)
        tx.emit("AuctionClosed", property=a.property, outcome="no bid",
                reason=reason("no_bid_nobody_pays", amount=a.min_bid,
                              rule=R_NO_BID))
        return
    if chosen is None and len(tied) == 1:
        chosen = tied[0]
    if chosen not in tied:
        cash = money(state, state.player(tied[0]).cash)
        ask = Joined([msg("`hammer {name}`", name=n) for n in tied], msg(" or "))
        price = money(state, a.min_bid)
        if len(tied) > 1:
            raise RuleViolation(
                "nobody bid for {space}: it goes to the richest player at {price}, and {names} "
                "and {last} have {cash} each; the banker says who", space=space.name,
                price=price, names=", ".join(tied[:-1]), last=tied[-1], cash=cash,
                rule=R_NO_BID, allowed=ask)
        raise RuleViolation(
            "nobody bid for {space}: it goes to the richest player at {price}, and {player} has "
            "the most cash ({cash})", space=space.name, price=price, player=tied[0], cash=cash,
            rule=R_NO_BID, allowed=ask)
    tx.emit("AuctionWon", player=chosen, property=a.property, payer=chosen, payee=BANK,
            amount=a.min_bid,
            reason=reason("no_bid_richest_tied" if len(tied) > 1 else "no_bid_richest",
                          space=space.position, rule=R_NO_BID))
