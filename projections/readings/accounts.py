"""Read models over a game's log: an account's statement, a deed's history, the standings.

Pure functions of the events (retracted ones left out), so a referee gets the same answer
from a live table, an export or a replay.  The statement and the history take the events as
they come and give their rows as they go: a long game's are read a chunk at a time
(`Book.checked`), with the seqs its undos took back given beforehand (`gone`), so neither
holds the game.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from banco.ledger.base.text import Fact, msg
from banco.ledger.records.events import transfers_of
from banco.ledger.table.state import BANK, State, retracted_seqs
from banco.ledger.table.worth import deeds_of


def effective(events: Iterable[dict], gone: set[int] | None = None) -> Iterator[dict]:
    """The events no undo took back.  `gone`: the seqs taken back (a retraction comes after
    what it retracts, so a stream needs them beforehand: `SQLiteStore.retracted_seqs`); None
    finds them in `events`, which must then be a list."""
    if gone is None:
        gone = retracted_seqs(events)
    return (e for e in events if e["seq"] not in gone)


def statement(events: Iterable[dict], account: str,
              gone: set[int] | None = None) -> Iterator[dict]:
    """Every transfer in or out of `account` (a player, or `bank`), with a running balance,
    row by row.  The bank's balance is what it has taken in, net: it starts at zero and goes
    negative as it pays out (the bank never runs out, 004)."""
    balance = 0
    for e in effective(events, gone):
        for t in transfers_of(e):
            if account not in (t["payer"], t["payee"]) or t["payer"] == t["payee"]:
                continue
            incoming = t["payee"] == account
            amount = t["amount"] if incoming else -t["amount"]
            balance += amount
            other = t["payer"] if incoming else t["payee"]
            yield {"seq": e["seq"], "type": e["type"], "counterparty": other,
                   "amount": amount, "reason": seen_by(t["reason"], account, other),
                   "balance": balance}


def seen_by(reason, account: str, other: str):
    """A transfer's reason as the statement of `account` says it.  A trade's names the payer's
    other side (`trade with {player}`, ledger/rules/trade.py): on the payee's own statement
    that is the payee himself ("Carla: trade with Carla", the last trial), so there it names
    the other side of this statement.  The fact is left as recorded."""
    if type(reason) is dict and reason.get("code") == "trade" and reason.get("player") == account:
        return {**reason, "player": other}
    return reason


def history(events: Iterable[dict], position: int,
            gone: set[int] | None = None, edition=None) -> Iterator[dict]:
    """What happened to one deed, row by row: who owned it when, mortgages, buildings,
    auctions; `edition`, the game's, names the squares its reasons hold."""
    # an amount as the edition's box prints it (`60 M`, `6.000 £`): a bare 60 read as a count
    cash = edition.money if edition is not None else str
    owner = None
    bids = 0  # the bids in the deed's auction now open: none, and the hammer gives it away
    for e in effective(events, gone):
        t, d = e["type"], e["data"]
        note = None
        if t == "AuctionOpened" and d["property"] == position:
            bids = 0
        elif t == "BidPlaced" and d["property"] == position:
            bids += 1
        if t == "PropertyBought" and d["property"] == position:
            owner = d["player"]
            note = msg("{owner} bought it for {amount}", owner=owner, amount=cash(d["amount"]))
        elif t == "AuctionWon" and d["property"] == position:
            owner = d["player"]
            note = (msg("{owner} won it at auction for {amount}", owner=owner, amount=cash(d["amount"]))
                    if bids else
                    # 000 FAQ 22: nobody bid; `ruling auction SEQ` shows the cash behind it
                    msg("nobody bid: the deed went to {owner}, the player with the most cash, "
                        "at the opening price {amount} (000 FAQ 22)", owner=owner,
                        amount=cash(d["amount"])))
        elif t == "TradeCompleted":
            for side, receiver in (("a_gives", d["b"]), ("b_gives", d["a"])):
                if position in d[side]["properties"]:
                    note = msg("traded from {owner} to {receiver}", owner=owner,
                               receiver=receiver)
                    owner = receiver
        elif t == "EstateTransferred" and position in d["properties"]:
            receiver = None if d["creditor"] == BANK else d["creditor"]
            note = (msg("{debtor}'s bankruptcy: to the Bank, mortgage cancelled",
                        debtor=d["debtor"]) if receiver is None else
                    msg("{debtor}'s bankruptcy: to {receiver}", debtor=d["debtor"],
                        receiver=receiver))
            owner = receiver
        elif t == "PropertyDeclined" and d["property"] == position:
            note = msg("{player} declined it", player=d["player"])
        elif t == "AuctionClosed" and d["property"] == position and d["outcome"] == "no bid":
            note = msg("auction without a bid: stays with the Bank")
        elif t in ("PropertyMortgaged", "MortgageLifted", "MortgageInterestPaid", "HouseBuilt",
                   "HotelBuilt", "BuildingSold", "MortgageReverted") and d["property"] == position:
            note = msg("{reason} ({amount})", reason=Fact(d["reason"], edition=edition), amount=cash(d["amount"]))
        elif t == "HotelsBrokenUp":
            for lot, tr in zip(d["lots"], d["transfers"], strict=True):
                if lot["property"] == position:
                    note = msg("{reason} ({amount})", reason=Fact(tr["reason"], edition=edition),
                               amount=cash(tr["amount"]))
        elif t in ("BuildingsBuilt", "BuildingsSold") and any(
                lot["property"] == position for lot in d.get("lots", ())):
            note = msg("{reason} ({amount} for the lots together)", reason=Fact(d["reason"], edition=edition),
                       amount=cash(d["amount"]))
        elif t == "BuildingsSold" and position in d["properties"]:
            note = msg("buildings sold with the group's: {reason}", reason=Fact(d["reason"], edition=edition))
        elif t == "BuildingsReturned" and position in d["properties"]:
            # a bankrupt's buildings back to the Bank, unpaid (002 §Fallimento)
            note = Fact(d["reason"], edition=edition)
        # the deed's other changes of hands (the fold's too: the story ends with the table's
        # owner, which `history` holds it to)
        elif t == "DeedsDealt" and position in d["properties"]:
            owner = d["player"]
            note = msg("{reason} ({amount})", reason=Fact(d["reason"], edition=edition),
                       amount=cash(d["amount"]))
        elif t == "DebtPaidInKind" and any(x["property"] == position for x in d["deeds"]):
            owner = d["payee"]
            note = msg("{reason} ({amount})", reason=Fact(d["reason"], edition=edition),
                       amount=cash(d["amount"]))
        elif t == "OwnerCorrected" and d["property"] == position:
            owner = None if d["to"] == BANK else d["to"]
            note = Fact(d["reason"], edition=edition)
        if note:
            yield {"seq": e["seq"], "type": t, "owner": owner, "note": note}


def deed_held(events: Iterable[dict], position: int, gone: set[int] | None = None
              ) -> tuple[str | None, bool, int]:
    """Where one deed ends after `events`: (owner, None for the Bank; mortgaged; level, 0-4
    houses, 5 a hotel), as the fold (ledger/table/fold_estate.py) leaves it.  What a
    history shows, held to the table: a history read from the events that name the deed (the
    read model's mentions) must end where the table does, or a row was lost."""
    owner, mortgaged, level = None, False, 0
    for e in effective(events, gone):
        t, d = e["type"], e["data"]
        if t in ("PropertyBought", "AuctionWon") and d["property"] == position:
            owner = d["player"]
        elif t == "DeedsDealt" and position in d["properties"]:
            owner = d["player"]
        elif t == "DebtPaidInKind" and any(x["property"] == position for x in d["deeds"]):
            owner = d["payee"]
        elif t == "TradeCompleted":
            for side, receiver in (("a_gives", d["b"]), ("b_gives", d["a"])):
                if position in d[side]["properties"]:
                    owner = receiver
        elif t == "EstateTransferred" and position in d["properties"]:
            owner = None if d["creditor"] == BANK else d["creditor"]
            # to the Bank unmortgaged, to wait for its auction (003 §10)
            mortgaged = mortgaged and owner is not None
        elif t == "OwnerCorrected" and d["property"] == position:
            owner, mortgaged = (None if d["to"] == BANK else d["to"]), bool(d["mortgaged"])
        elif t == "PropertyMortgaged" and d["property"] == position:
            mortgaged = True
        elif t in ("MortgageLifted", "MortgageReverted") and d["property"] == position:
            mortgaged = False
        elif t in ("HouseBuilt", "HotelBuilt", "BuildingSold") and d["property"] == position:
            level = d["level"]
        elif t in ("BuildingsSold", "BuildingsBuilt", "HotelsBrokenUp", "BuildingsReturned"):
            if position in d.get("properties", ()):
                level = 0
            for lot in d.get("lots", ()):
                if lot["property"] == position:
                    level = lot["level"]
    return owner, mortgaged, level


def standings(state: State) -> list[dict]:
    """Players still in, richest first (cash + deeds + buildings at cost; the rule set's
    tie-break, 000 §PUNTEGGIO; players equal on both share a rank), then the bankrupt, last out
    first.  `score`: the score sheet's
    total where the rule set keeps one (championship), else null; `points`: tournament points
    once the game is over, where the rule set gives them, else null."""
    from banco.ledger.table.score import places, points

    pts = points(state)
    sheet = state.rules.score_sheet
    out = []
    for place in places(state):
        p = state.player(place.name)
        out.append({"name": p.name, "status": "winner" if state.winner == p.name else "in play",
                    "cash": p.cash, "net_worth": place.count,
                    "deeds": len(deeds_of(state, p.name)),
                    "score": place.count if sheet else None,
                    "points": pts.get(p.name) if pts is not None else None,
                    "rank": place.place})  # tied players share a rank (score.places)
    for name in reversed(state.eliminated):
        out.append({"name": name, "status": "bankrupt", "cash": 0, "net_worth": 0, "deeds": 0,
                    "score": 0 if sheet else None,
                    "points": 0 if pts is not None else None})
    for rank, row in enumerate(out, start=1):
        row.setdefault("rank", rank)  # the bankrupt: by when they went out
    return out
