"""The fold's handlers for what players own: deeds bought and auctioned, buildings, mortgages,
deeds dealt, trades, bankruptcy, and a referee's correction of an owner."""

from __future__ import annotations

from typing import Any

from banco.ledger.table.fold_cards import move_cards, to_bottom
from banco.ledger.table.model import BANK, Auction, State, set_at, set_player, transfer


def _rebuilt(state: State, buildings: list, d: Any) -> State:
    """The lots at their new levels, and the Bank's stock changed by the event's counts."""
    return state._replace(buildings=tuple(buildings),
                          bank_houses=state.bank_houses + d["bank_houses"],
                          bank_hotels=state.bank_hotels + d["bank_hotels"])


def _purchase_offered(state: State, d: Any, seq: Any) -> State:
    return state._replace(turn=state.turn._replace(phase="buy", offer=d["property"]))


def _property_bought(state: State, d: Any, seq: Any) -> State:
    state = transfer(state, d)
    state = state._replace(owners=set_at(state.owners, d["property"], d["player"]))
    return state._replace(turn=state.turn._replace(phase="moving", offer=None))


def _property_declined(state: State, d: Any, seq: Any) -> State:
    return state._replace(turn=state.turn._replace(offer=None))


def _auction_opened(state: State, d: Any, seq: Any) -> State:
    auction = Auction(property=d["property"], min_bid=d["min_bid"], step=d["step"],
                      resume=d.get("resume", "moving"), excluded=tuple(d.get("excluded", ())),
                      seller=d.get("seller"))
    queue = tuple(p for p in state.auction_queue if p != d["property"])
    return state._replace(auction=auction, auction_queue=queue,
                          turn=state.turn._replace(phase="auction"))


def _building_auction_opened(state: State, d: Any, seq: Any) -> State:
    auction = Auction(property=None, min_bid=d["min_bid"], step=d["step"], kind=d["kind"],
                      resume=d["resume"], excluded=tuple(d.get("excluded", ())),
                      wanted=tuple(d.get("wanted", {}).items()))
    return state._replace(auction=auction, turn=state.turn._replace(phase="auction"))


# A bid, a win or a close with no auction open is a log the fold cannot apply: the
# AttributeError on None is what the audit reports for it ("fold: AttributeError: ..."), so
# these three keep it rather than narrow the Optional with an assert.
def _bid_placed(state: State, d: Any, seq: Any) -> State:
    a = state.auction
    # bids first: compiled code evaluates the arguments before the method, so either build
    # names the same missing attribute
    bids = a.bids + 1  # type: ignore[union-attr]
    return state._replace(auction=a._replace(  # type: ignore[union-attr]
        high_bidder=d["player"], high_bid=d["amount"], bids=bids))


def _auction_won(state: State, d: Any, seq: Any) -> State:
    state = transfer(state, d)
    state = state._replace(owners=set_at(state.owners, d["property"], d["player"]))
    resume = state.auction.resume  # type: ignore[union-attr]
    return state._replace(auction=None, turn=state.turn._replace(phase=resume))


def _auction_closed(state: State, d: Any, seq: Any) -> State:
    resume = state.auction.resume  # type: ignore[union-attr]
    return state._replace(auction=None, turn=state.turn._replace(phase=resume))


def _auction_voided(state: State, d: Any, seq: Any) -> State:
    return state._replace(auction=None)


def _building_changed(state: State, d: Any, seq: Any) -> State:
    """HouseBuilt, HotelBuilt, BuildingSold: the level and the bank's stock are in the event."""
    state = transfer(state, d)
    return state._replace(buildings=set_at(state.buildings, d["property"], d["level"]),
                          bank_houses=state.bank_houses + d["bank_houses"],
                          bank_hotels=state.bank_hotels + d["bank_hotels"])


def _buildings_set(state: State, d: Any, seq: Any) -> State:
    """BuildingsSold: a whole group sold (`properties` to 0), or with `lots`, lots sold down
    to their levels; BuildingsBuilt: `lots` built up to theirs.  One payment either way."""
    state = transfer(state, d)
    buildings = list(state.buildings)
    for p in d.get("properties", ()):
        buildings[p] = 0
    for lot in d.get("lots", ()):
        buildings[lot["property"]] = lot["level"]
    return _rebuilt(state, buildings, d)


def _hotels_broken_up(state: State, d: Any, seq: Any) -> State:
    for t in d["transfers"]:
        state = transfer(state, t)
    buildings = list(state.buildings)
    for lot in d["lots"]:
        buildings[lot["property"]] = lot["level"]
    return _rebuilt(state, buildings, d)


def _mortgaged(state: State, d: Any, seq: Any) -> State:
    state = transfer(state, d)
    return state._replace(mortgaged=state.mortgaged | {d["property"]},
                          since_roll=state.since_roll | {d["property"]})


def _mortgage_lifted(state: State, d: Any, seq: Any) -> State:
    """MortgageLifted, and MortgageReverted: a deed mortgaged during the bankrupt's turn
    passes as it was when the turn began, its money back to the Bank (000 FAQ 32)."""
    state = transfer(state, d)
    return state._replace(mortgaged=state.mortgaged - {d["property"]},
                          since_roll=state.since_roll - {d["property"]})


def _deeds_dealt(state: State, d: Any, seq: Any) -> State:
    state = transfer(state, d)
    owners = list(state.owners)
    for p in d["properties"]:
        owners[p] = d["player"]
    dealt = dict(state.dealt)
    dealt[d["player"]] = dealt.get(d["player"], 0) + len(d["properties"])
    return state._replace(owners=tuple(owners), dealt=dealt)


def _buildings_returned(state: State, d: Any, seq: Any) -> State:
    """A bankrupt's buildings go back to the Bank with the rest of his estate, unpaid (002)."""
    buildings = list(state.buildings)
    for p in d["properties"]:
        buildings[p] = 0
    return _rebuilt(state, buildings, d)


def _trade_completed(state: State, d: Any, seq: Any) -> State:
    for t in d["transfers"]:
        state = transfer(state, t)
    owners = list(state.owners)
    for side, receiver in (("a_gives", d["b"]), ("b_gives", d["a"])):
        for p in d[side]["properties"]:
            owners[p] = receiver
    state = state._replace(owners=tuple(owners))
    state = move_cards(state, d["a"], d["b"], d["a_gives"]["jail_cards"])
    return move_cards(state, d["b"], d["a"], d["b_gives"]["jail_cards"])


def _estate_transferred(state: State, d: Any, seq: Any) -> State:
    if d["creditor"] == BANK:  # the bankrupt's jail cards go under their decks (003 §10)
        for deck, number in d["jail_cards"]:
            state = to_bottom(state, deck, number, seq)
    state = transfer(state, d)
    owners = list(state.owners)
    to_bank = d["creditor"] == BANK
    for p in d["properties"]:
        owners[p] = None if to_bank else d["creditor"]
    state = state._replace(owners=tuple(owners))
    if to_bank:  # deeds go back unmortgaged and wait for their auctions (003 §10)
        state = state._replace(mortgaged=state.mortgaged - set(d["properties"]),
                               auction_queue=state.auction_queue + tuple(d["properties"]))
    return move_cards(state, d["debtor"], None if to_bank else d["creditor"], d["jail_cards"])


def _bankruptcy_declared(state: State, d: Any, seq: Any) -> State:
    name = d["player"]
    state = set_player(state, name, bankrupt=True)
    return state._replace(debts=tuple(x for x in state.debts if x.debtor != name),
                          eliminated=state.eliminated + (name,))


def _owner_corrected(state: State, d: Any, seq: Any) -> State:
    pos = d["property"]
    owner = None if d["to"] == BANK else d["to"]
    mortgaged = state.mortgaged | {pos} if d["mortgaged"] else state.mortgaged - {pos}
    return state._replace(owners=set_at(state.owners, pos, owner), mortgaged=mortgaged)


HANDLERS = {
    "PurchaseOffered": _purchase_offered,
    "PropertyBought": _property_bought,
    "PropertyDeclined": _property_declined,
    "AuctionOpened": _auction_opened,
    "BidPlaced": _bid_placed,
    "AuctionWon": _auction_won,
    "AuctionClosed": _auction_closed,
    "BuildingAuctionOpened": _building_auction_opened,
    "HouseBuilt": _building_changed,
    "HotelBuilt": _building_changed,
    "BuildingSold": _building_changed,
    "BuildingsSold": _buildings_set,
    "BuildingsBuilt": _buildings_set,
    "AuctionVoided": _auction_voided,
    "HotelsBrokenUp": _hotels_broken_up,
    "PropertyMortgaged": _mortgaged,
    "MortgageLifted": _mortgage_lifted,
    "TradeCompleted": _trade_completed,
    "EstateTransferred": _estate_transferred,
    "BankruptcyDeclared": _bankruptcy_declared,
    "DeedsDealt": _deeds_dealt,
    "MortgageReverted": _mortgage_lifted,
    "BuildingsReturned": _buildings_returned,
    "OwnerCorrected": _owner_corrected,
}
