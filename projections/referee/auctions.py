"""A referee's ruling on an auction: who could bid, the bids in order, how it closed and why."""

from __future__ import annotations

from banco.ledger.base.errors import UsageError
from banco.ledger.base.text import Fact, Joined, Text, msg
from banco.ledger.board.rule_sets import cited, shown
from banco.ledger.records.verdicts import verdict
from banco.ledger.rules.auction import R_AUCTION, R_UNPAID
from banco.ledger.rules.estate import R_SHORT as R_SHORTAGE
from banco.ledger.table.state import BANK, richest_bidders
from banco.projections.referee.ruling_log import (
    Log,
    Ruling,
    estate_rule,
    log_of,
    money,
    nearby,
    space_name,
)

# The rules' own citation where decide does not cite it (one place to rename a heading)
R_NO_BID = "000 FAQ 22"
R_DECLINED = "003 §02"  # a deed the lander declines is auctioned at once


OPENERS = ("AuctionOpened", "BuildingAuctionOpened")
CLOSERS = ("AuctionWon", "AuctionClosed", "AuctionVoided")
AUCTION_EVENTS = {*OPENERS, *CLOSERS, "BidPlaced", "PropertyDeclined"}
# The facts that open, bid on or end an auction, and the bankruptcies that send deeds to one.
AUCTION_READS = {*OPENERS, *CLOSERS, "BidPlaced", "GameEnded", "HouseBuilt", "HotelBuilt",
                 "EstateTransferred"}


def _auctions(log: Log) -> list[dict]:
    """Every auction of the game, from the facts in force: what, why, bids, how it ended."""
    out: list[dict] = []
    current = None
    estate_to_bank: dict[int, str] = {}
    for e in log.effective(AUCTION_READS):
        t, d = e["type"], e["data"]
        if t == "EstateTransferred" and d["creditor"] == BANK:
            for p in d["properties"]:
                estate_to_bank[p] = d["debtor"]
        if t in OPENERS:
            batch = [x for x in log.batch(e["seq"]) if x["seq"] < e["seq"]]
            why = "opened"
            if any(x["type"] == "AuctionVoided" for x in batch):
                why = "re-auction"
            elif t == "BuildingAuctionOpened":
                why = "shortage"
            elif any(x["type"] == "PropertyDeclined" and x["data"]["property"] == d["property"]
                     for x in batch):
                why = "declined"
            elif d["property"] in estate_to_bank:
                why = "bankruptcy"
            current = {"opened": e["seq"], "type": t, "property": d.get("property"),
                       "kind": d.get("kind", "deed"), "min_bid": d["min_bid"], "step": d["step"],
                       "excluded": list(d.get("excluded", ())), "why": why,
                       "decliner": next((x["data"]["player"] for x in batch
                                         if x["type"] == "PropertyDeclined"), None),
                       "debtor": estate_to_bank.get(d.get("property")),
                       "bids": [], "outcome": None, "closed": None, "end": None}
            out.append(current)
        elif current is not None and t == "BidPlaced":
            current["bids"].append(e)
        elif current is not None and t in CLOSERS:
            current["outcome"], current["closed"], current["end"] = t, e["seq"], e
            current = None
        elif current is not None and t == "GameEnded":
            current["outcome"], current["closed"], current["end"] = t, e["seq"], e
            current = None
        elif current is not None and t in ("HouseBuilt", "HotelBuilt") \
                and current["type"] == "BuildingAuctionOpened":
            current["outcome"], current["closed"], current["end"] = t, e["seq"], e
            current = None
    return out


def _kind(kind: str) -> Text | str:
    """A building auction's kind, as the messages say it."""
    return verdict(kind) if kind in ("house", "hotel", "deed") else kind


def _cash_at_hammer(log: Log, hammer: int) -> tuple[Joined, dict[str, int], list[str]]:
    """The cash of each player in play when a deed nobody bid for was hammered: what made one
    of them "the player with the most cash" (000 FAQ 22), and who could not take it (kept out,
    in debt, short of the opening bid: ledger.table.state.richest_bidders)."""
    st = log.before(hammer)
    a = st.auction
    debtors = {d.debtor for d in st.debts}
    tied = richest_bidders(st) if a is not None else []
    purses: list[Text] = []
    cash: dict[str, int] = {}
    for p in sorted((p for p in st.players if not p.bankrupt), key=lambda p: -p.cash):
        cash[p.name] = p.cash
        amount = money(st, p.cash)
        if a is not None and p.name in a.excluded:
            purses.append(msg("{player} {cash} (kept out: could not pay a winning bid)",
                              player=p.name, cash=amount))
        elif p.name in debtors:
            purses.append(msg("{player} {cash} (in debt: could not take it)", player=p.name,
                              cash=amount))
        elif a is not None and p.cash < a.min_bid:
            purses.append(msg("{player} {cash} (less than the opening bid)", player=p.name,
                              cash=amount))
        else:
            purses.append(msg("{player} {cash}", player=p.name, cash=amount))
    return Joined(purses, ", "), cash, tied


def auction(events: list[dict] | Log, seq: int, game_id: int | None = None) -> Ruling:
    log = log_of(events, game_id)
    found = _auctions(log)
    e = log.at(seq)
    chosen = None
    for i, a in enumerate(found):
        last = a["closed"] or log.last_seq
        if a["opened"] <= seq <= last:
            chosen = i
    if chosen is None:  # the command that opened or closed it (the offer, the hammer)
        batch = {x["seq"] for x in log.batch(seq)}
        chosen = next((i for i, a in enumerate(found)
                       if a["opened"] in batch or a["closed"] in batch), None)
    if chosen is None:
        raise UsageError("event {seq} ({type}) is not part of an auction: `ruling auction` takes the seq of a declined offer, an auction opened, a bid or its close ({nearby})",
                         seq=seq, type=e['type'], nearby=nearby(log, set(OPENERS), seq))
    # An unpaid winning bid voids the auction and opens another: rule on the whole chain.
    first = chosen
    while first > 0 and found[first - 1]["outcome"] == "AuctionVoided" \
            and found[first]["why"] == "re-auction":
        first -= 1
    last = chosen
    while found[last]["outcome"] == "AuctionVoided" and last + 1 < len(found) \
            and found[last + 1]["why"] == "re-auction":
        last += 1
    chain = found[first:last + 1]
    st = log.table(chain[0]["opened"])
    rules = st.rules
    what = (space_name(st, chain[0]["property"]) if chain[0]["kind"] == "deed"
            else verdict("a_building", kind=_kind(chain[0]["kind"])))
    lines = [msg("auction ruling on event {seq} (rules {rules}): {what}", seq=seq,
                 rules=shown(rules), what=what)]
    rule = {cited(rules, "auction", R_AUCTION)}
    ruled: Text | str = ""
    docs = []
    docs_cash: dict[int, dict[str, int]] = {}
    for n, a in enumerate(chain, start=1):
        label = (msg("auction {n} of {count}", n=n, count=len(chain)) if len(chain) > 1
                 else msg("auction"))
        why = {"declined": lambda a=a: msg("{player} declined to buy it: the Bank auctions it at "
                                           "once ({rule})", player=a["decliner"],
                                           rule=cited(rules, "auction", R_DECLINED)),
               "re-auction": lambda a=a: msg("the winner before could not pay: a new auction "
                                             "without {players} ({rule})",
                                             players=", ".join(a["excluded"]), rule=R_UNPAID),
               "shortage": lambda a=a: msg("more players wanted the last {kind}s than the Bank "
                                           "had ({rule})", kind=_kind(a["kind"]),
                                           rule=cited(rules, "shortage", R_SHORTAGE)),
               "bankruptcy": lambda a=a: msg("{player} went bankrupt to the Bank: their deeds "
                                             "are auctioned one by one ({rule})",
                                             player=a["debtor"], rule=estate_rule(rules)),
               "opened": lambda a=a: msg("opened")}[a["why"]]()
        if a["why"] == "re-auction":
            rule.add(R_UNPAID)
        if a["why"] == "shortage":
            rule.add(cited(rules, "shortage", R_SHORTAGE))
        if a["why"] == "bankruptcy":
            rule.add(estate_rule(rules))
        lines.append(msg("{label}: opened at event {seq}: {why}; bids from {amount}, rising by "
                         "at least {step}", label=label, seq=a["opened"], why=why,
                         amount=money(st, a["min_bid"]), step=a["step"]))
        if not a["bids"]:
            lines.append(msg("  bids: none"))
        for b in a["bids"]:
            lines.append(msg("  bid: {player} {amount} at event {seq}",
                             player=b["data"]["player"], amount=money(st, b["data"]["amount"]),
                             seq=b["seq"]))
        undone = [x for x in (log.at(g) for g in sorted(log.gone)
                              if a["opened"] < g < (a["closed"] or g + 1))
                  if x["type"] == "BidPlaced"]
        for b in undone:
            lines.append(msg("  (a bid of {player} for {amount} at event {seq} was taken back "
                             "by the undo at event {undo})", player=b["data"]["player"],
                             amount=money(st, b["data"]["amount"]), seq=b["seq"],
                             undo=log.undone_by[b["seq"]]))
        end = a["end"]
        out, ed = a["outcome"], end["data"] if end else {}
        if out is None:
            result = msg("still open")
            lead = a["bids"][-1]["data"] if a["bids"] else None
            ruled = (verdict("auction_open_lead", player=lead["player"],
                             amount=money(st, lead["amount"])) if lead
                     else verdict("auction_open"))
        elif out == "AuctionWon":
            if a["bids"]:
                result = verdict("auction_won", player=ed["player"],
                                 amount=money(st, ed["amount"]), seq=end["seq"])
            else:
                rule.add(R_NO_BID)
                purses, cash, tied = _cash_at_hammer(log, end["seq"])
                lines.append(msg("  cash when the hammer fell (nobody bid: the player with the "
                                 "most cash takes it, {rule}): {purses}", rule=R_NO_BID,
                                 purses=purses))
                result = (verdict("auction_richest", player=ed["player"],
                                  cash=money(st, cash[ed["player"]]),
                                  amount=money(st, ed["amount"]), seq=end["seq"], rule=R_NO_BID)
                          if len(tied) < 2 else
                          verdict("auction_richest_tied", player=ed["player"],
                                  names=", ".join(tied), cash=money(st, cash[ed["player"]]),
                                  amount=money(st, ed["amount"]), seq=end["seq"], rule=R_NO_BID))
                docs_cash[a["opened"]] = cash
            ruled = result
        elif out == "AuctionClosed":
            result = msg("closed without a bid at event {seq}: {reason}", seq=end["seq"],
                         reason=Fact(ed["reason"], edition=st.edition))
            ruled = (verdict("auction_no_bid", what=what) if a["kind"] == "deed"
                     else verdict("auction_no_bid_building", kind=_kind(a["kind"])))
        elif out == "AuctionVoided":
            rule.add(R_UNPAID)
            result = msg("voided at event {seq}: {reason}", seq=end["seq"],
                         reason=Fact(ed["reason"], edition=st.edition))
        elif out in ("HouseBuilt", "HotelBuilt"):
            result = verdict("auction_built", player=ed["player"],
                             amount=money(st, ed["amount"]),
                             space=space_name(st, ed["property"]), seq=end["seq"])
            ruled = result
        else:
            result = verdict("auction_game_ended", seq=end["seq"])
            ruled = result
        lines.append(msg("  result: {result}", result=result))
        docs.append({"opened": a["opened"], "why": a["why"], "min_bid": a["min_bid"],
                     "step": a["step"], "excluded": a["excluded"],
                     "bids": [{"seq": b["seq"], "player": b["data"]["player"],
                               "amount": b["data"]["amount"]} for b in a["bids"]],
                     "outcome": out, "closed": a["closed"], "result": result,
                     **({"cash_at_hammer": docs_cash[a["opened"]]}
                        if a["opened"] in docs_cash else {})})
    if len(chain) > 1:
        voided = [a for a in chain if a["outcome"] == "AuctionVoided"]
        ruled = Joined([ruled, verdict(
            "auction_voided", n=len(voided),
            players=", ".join(a["end"]["data"]["player"] for a in voided))], "")
    facts = {"what": what, "auctions": docs, "auction_min_bid": rules.auction_min_bid,
             "auction_step": rules.auction_step, "no_bid": rules.auction_no_bid}
    return Ruling("auction", seq, ruled, lines, "; ".join(sorted(rule)), facts)
