"""A referee's rulings, reasoned from the log alone: rent claims, auctions, bankruptcies, jail.

Each ruling is a pure function of a game's events and the seq it is asked about.  It gathers
the facts that bear on the question (with their seqs, so anyone can check them with `banco show
SEQ`), the rule set's parameters that decide it and the rulebook sections that say so, and ends
in a verdict.  Events an undo took back are left out of the reasoning and named as such.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ledger.decide import R_AUCTION, R_JAIL, R_UNPAID
from ledger.decide import R_RENT as R_RENT_CLASSIC
from ledger.errors import UsageError
from ledger.estate import R_BANKRUPT
from ledger.estate import R_SHORT as R_SHORTAGE
from ledger.state import BANK, State, fold, retracted_seqs
from ledger.worth import building_sale_value, deeds_of

from .moments import Moment, local_time, seq_at

# The rules' own citations where decide cites them (one place to rename a heading); these
# are the ones only a ruling needs.
R_RENT_TWO = "000 §PAGARE LA RENDITA; 000 FAQ 7-8"
R_NO_BID = "000 FAQ 22"
R_TURN_START = "000 FAQ 32"
R_FEE = "000 FAQ 33"
# The RuleSet field a rule set sets to hand a bankrupt's deeds over as they were when his turn
# began (000 FAQ 32, championship).  Read if the rule set has it; absent means "as they stand".
START_OF_TURN_FIELD = "bankruptcy_start_of_turn"


@dataclass
class Ruling:
    kind: str
    subject: int
    verdict: str
    lines: list[str]
    rule: str
    facts: dict = field(default_factory=dict)

    def text(self) -> str:
        return "\n".join([*self.lines, f"verdict: {self.verdict}", f"rule: {self.rule}"])

    def document(self) -> dict:
        return {"kind": self.kind, "subject_seq": self.subject, "verdict": self.verdict,
                "reasons": self.lines, "rule": self.rule, "facts": self.facts}


def claim_rule(rules) -> str:
    """Where the rule set's claim window comes from: one seat is 004/003's "before the next
    player rolls", two is the championship's (000 FAQ 7)."""
    return R_RENT_TWO if rules.claim_window >= 2 else R_RENT_CLASSIC


def seats_between(state: State, payer: str, n: int) -> list[str]:
    """The players in play after `payer`, in seating order, up to the one whose roll closes a
    window of `n` seats (the bankrupt are skipped, as ledger.decide.seat_after does)."""
    out, i = [], state.index[payer]
    while len(out) < n:
        i = (i + 1) % len(state.seats)
        if not state.players[i].bankrupt:
            out.append(state.seats[i])
        if state.seats[i] == payer:
            break
    return out


class Log:
    """A game's rows with the lookups rulings need: an event by seq, the rows of its command,
    what an undo took back, and the table after any event."""

    def __init__(self, events: list[dict], game_id: int | None = None):
        self.events = events
        self.game_id = game_id
        self.by_seq = {e["seq"]: e for e in events}
        self.gone = retracted_seqs(events)
        self.undone_by = {s: e["seq"] for e in events if e["type"] == "EventRetracted"
                          for s in e["data"]["seqs"]}
        self._tables: dict[int, State] = {}

    def at(self, seq: int) -> dict:
        e = self.by_seq.get(seq)
        if e is None:
            last = self.events[-1]["seq"] if self.events else 0
            raise UsageError("the game has events 1 to {last}; there is no event {seq}",
                             last=last, seq=seq)
        return e

    def batch(self, seq: int) -> list[dict]:
        cid = self.at(seq)["command_id"]
        i = self.events.index(self.at(seq))
        lo = i
        while lo > 0 and self.events[lo - 1]["command_id"] == cid:
            lo -= 1
        hi = i
        while hi + 1 < len(self.events) and self.events[hi + 1]["command_id"] == cid:
            hi += 1
        return self.events[lo:hi + 1]

    def effective(self, after: int = 0, until: int | None = None) -> list[dict]:
        return [e for e in self.events if e["seq"] > after and e["seq"] not in self.gone
                and (until is None or e["seq"] <= until)]

    def table(self, seq: int) -> State:
        """The table after event `seq`, as it was then (later undos not yet applied)."""
        if seq not in self._tables:
            self._tables[seq] = fold([e for e in self.events if e["seq"] <= seq], self.game_id)
        return self._tables[seq]

    def before(self, seq: int) -> State:
        """The table just before the command that wrote event `seq`."""
        first = self.batch(seq)[0]["seq"]
        return self.table(max(first - 1, self._start()))

    def _start(self) -> int:
        return next(e["seq"] for e in self.events if e["type"] == "GameStarted")

    def line(self, seq: int) -> str | None:
        head = self.batch(seq)[0]
        return head["data"]["line"] if head["type"] == "CommandRecorded" else None

    def when(self, seq: int) -> str:
        return self.at(seq)["recorded_at"]

    def taken_back(self, seq: int) -> str:
        by = self.undone_by.get(seq)
        return f" (taken back by the undo at event {by})" if by else ""


def _ordinal(n: int) -> str:
    return {1: "next", 2: "second", 3: "third"}.get(n, f"{n}th")


def _money(state: State, amount: int) -> str:
    return state.edition.money(amount)


def _name(state: State, pos: int) -> str:
    return state.edition.space(pos).name


def _who(name: str) -> str:
    return "the Bank" if name == BANK else name


def _nearby(log: Log, types: set[str], seq: int) -> str:
    seqs = [e["seq"] for e in log.events if e["type"] in types]
    if not seqs:
        return "this game has none"
    near = sorted(seqs, key=lambda s: abs(s - seq))[:6]
    return "the nearest: " + ", ".join(map(str, sorted(near)))


# --- rent -----------------------------------------------------------------------------------

RENT_EVENTS = {"RentClaimOpened", "RentPaid", "RentClaimRefused", "RentClaimLapsed", "RentNotDue"}


def _claim_of(log: Log, seq: int) -> tuple[str, int]:
    """What a seq points at: ("claim", opened_seq), ("auto", RentPaid seq) or ("not due",
    RentNotDue seq)."""
    e = log.at(seq)
    t, d = e["type"], e["data"]
    if t == "RentClaimOpened":
        return "claim", seq
    if t in ("RentClaimRefused", "RentClaimLapsed") or (t == "RentPaid" and d["opened_seq"]):
        return "claim", d["opened_seq"]
    if t == "RentPaid":
        return "auto", seq
    if t == "RentNotDue":
        return "not due", seq
    batch = [x for x in log.batch(seq) if x["type"] in RENT_EVENTS | {"DebtIncurred"}]
    later = [x for x in batch if x["seq"] >= seq] or batch
    for x in later:
        if x["type"] in RENT_EVENTS:
            return _claim_of(log, x["seq"])
    raise UsageError(
        "event {seq} ({turn}) is not a landing on another player's deed nor a rent claim: `ruling rent` takes the seq of a landing, a claim opened, a rent paid or a refused late claim ({nearby})",
        seq=seq, turn=t, nearby=_nearby(log, RENT_EVENTS, seq))


def rent(events: list[dict], seq: int, claim_at: Moment | None = None,
         game_id: int | None = None) -> Ruling:
    log = Log(events, game_id)
    what, at = _claim_of(log, seq)
    if what != "claim":
        return _rent_without_claim(log, seq, what, at)
    c = log.at(at)
    d = c["data"]
    st = log.table(at)
    rules = st.rules
    payer, owner, prop, amount = d["payer"], d["owner"], d["property"], d["amount"]
    place = _name(st, prop)
    lines = [f"rent ruling on event {seq} (rules {rules.name}, edition {st.edition.name})"]
    lines.append(f"owed: {payer} owed {owner} {_money(st, amount)} for a stay on {place} "
                 f"({d['basis']})")
    batch = log.batch(at)
    landing = [x for x in batch if x["type"] == "TokenMoved" and x["seq"] < at
               and x["data"]["player"] == payer]
    dice = [x for x in batch if x["type"] in ("DiceRolled", "CardDrawn") and x["seq"] < at]
    how = ""
    if dice and dice[-1]["type"] == "DiceRolled":
        how = f"{payer} rolled {'+'.join(map(str, dice[-1]['data']['dice']))} at event " \
              f"{dice[-1]['seq']} and "
    elif dice:
        how = f"{payer} drew {dice[-1]['data']['deck']} {dice[-1]['data']['number']} at event " \
              f"{dice[-1]['seq']} and "
    landed = landing[-1]["seq"] if landing else d.get("landed_seq", at)
    line = log.line(at)
    lines.append(f"landing: {how}moved to {place} at event {landed}"
                 + (f" (`{line}`)" if line else "")
                 + f"; the window opened with the claim at event {at}, "
                 f"{local_time(log.when(at))}{log.taken_back(at)}")
    window = rules.claim_window
    between = seats_between(st, payer, window)
    closer = d["closer"]
    chain = " -> ".join([f"{payer} (payer)", *between[:-1], f"{between[-1]} (whose roll closes it)"]) \
        if between else payer
    lines.append(f"window: under the {rules.name} rules the owner must ask before the "
                 f"{_ordinal(window)} player after the payer rolls (the payer's own extra "
                 f"rolls after doubles do not close it): {chain}")
    if between and between[-1] != closer:
        lines.append(f"  (recorded closer: {closer}; seats changed by a bankruptcy since)")
    facts = {"payer": payer, "owner": owner, "property": place, "position": prop,
             "amount": amount, "basis": d["basis"], "landed_seq": landed, "opened_seq": at,
             "claim_window": window, "seats": [payer, *between], "closer": closer,
             "paid_seq": None, "closed_seq": None, "closed_by": None, "window_closed_at": None,
             "late_claims": [], "taken_back_by": log.undone_by.get(at)}
    # What happened to the claim, from the facts still in force, in the order it happened.
    paid = lapsed = None
    closed_at = None
    for x in log.effective(after=at):
        xd = x["data"]
        if xd.get("opened_seq") != at:
            continue
        said = log.line(x["seq"])
        said = f" (`{said}`)" if said else ""
        if x["type"] == "RentPaid":
            paid = x
            lines.append(f"claimed: {owner} asked at event {x['seq']}{said} and {payer} paid "
                         f"{_money(st, xd['amount'])}")
        elif x["type"] == "RentClaimRefused":
            facts["late_claims"].append(x["seq"])
            lines.append(f"late claim: {owner} asked at event {x['seq']}{said}, "
                         f"{local_time(x['recorded_at'])}: refused, and the refusal recorded")
        elif x["type"] == "RentClaimLapsed":
            lapsed = x
            by = xd["closed_by"]
            facts["closed_seq"], facts["closed_by"] = x["seq"], by
            if by == "debt":
                debt = next((y for y in log.batch(x["seq"]) if y["type"] == "DebtIncurred"), None)
                facts["debt_seq"] = debt["seq"] if debt else None
                lines.append(f"claimed: {owner} asked at event {x['seq']}{said}; {payer} could "
                             "not pay in cash" + (f": a debt from event {debt['seq']}" if debt
                                                  else ""))
            elif by == "bankruptcy":
                lines.append(f"closed: the bankruptcy at event {x['seq']}{said} ended the claim")
            else:
                roll = log.batch(x["seq"])
                closed_at = roll[0]["seq"]
                facts["window_closed_at"] = closed_at
                rolled = next((y for y in roll if y["type"] == "DiceRolled"), None)
                dice = f" {'+'.join(map(str, rolled['data']['dice']))}" if rolled else ""
                lines.append(f"closed: {by} rolled{dice}{said}, recorded from event "
                             f"{closed_at}, {local_time(x['recorded_at'])}: the window shut "
                             f"(event {x['seq']})")
    if facts["taken_back_by"]:
        outcome = (f"no rent was owed: the landing was taken back by the undo at event "
                   f"{facts['taken_back_by']}")
    elif paid is not None:
        facts["paid_seq"] = paid["seq"]
        outcome = f"paid in time: {payer} paid {owner} {_money(st, amount)} at event {paid['seq']}"
    elif lapsed is not None and lapsed["data"]["closed_by"] == "debt":
        outcome = (f"claimed in time; {payer} owes it as a debt (event "
                   f"{facts.get('debt_seq') or lapsed['seq']}, 003 §10)")
    elif lapsed is not None and lapsed["data"]["closed_by"] == "bankruptcy":
        outcome = f"never collected: a bankruptcy ended the claim at event {lapsed['seq']}"
    elif lapsed is not None:
        by = lapsed["data"]["closed_by"]
        if facts["late_claims"]:
            outcome = (f"too late: the window closed when {by} rolled (event {lapsed['seq']}); the "
                       f"claim at event {facts['late_claims'][0]} was rightly refused and "
                       f"{owner} lost the rent")
        else:
            outcome = (f"lapsed unclaimed: {owner} did not ask before {by} rolled (event "
                       f"{lapsed['seq']}); the rent is lost")
    else:
        outcome = f"still open: {owner} may claim {_money(st, amount)} until {closer} rolls"
        lines.append(f"open: nobody has claimed it and {closer} has not rolled yet")
    facts["outcome"] = outcome
    verdict = outcome
    if claim_at is not None:
        m = seq_at(events, claim_at)
        facts["claim_at"] = m
        when = (f"after event {m}" if claim_at.seq is not None
                else f"at {claim_at.text} (after event {m})")
        answer = _claim_verdict(m, at, landed, closed_at, paid, lapsed, closer, facts)
        facts["claim_at_verdict"] = answer
        lines.append(f"outcome: {outcome}")
        verdict = f"a claim made {when} was {answer}"
    return Ruling("rent", seq, verdict, lines, claim_rule(rules), facts)


def _claim_verdict(m, opened, landed, closed_at, paid, lapsed, closer, facts) -> str:
    if facts["taken_back_by"]:
        return "about a landing that was taken back: nothing to claim"
    if m < opened:
        return f"too early: nothing was owed before the landing (event {landed})"
    if paid is not None and m >= paid["seq"]:
        return f"after the rent was paid (event {paid['seq']}): nothing more is owed"
    if lapsed is not None and m >= lapsed["seq"] and lapsed["data"]["closed_by"] == "debt":
        return f"after the claim became a debt (event {lapsed['seq']})"
    if lapsed is not None and m >= lapsed["seq"] and lapsed["data"]["closed_by"] == "bankruptcy":
        return f"after the bankruptcy that ended the claim (event {lapsed['seq']})"
    if closed_at is not None and m >= closed_at:
        return (f"TOO LATE: {lapsed['data']['closed_by']} had rolled (the roll recorded from "
                f"event {closed_at}), which closed the window")
    until = (f"until {closer}'s roll (recorded from event {closed_at})" if closed_at
             else f"until {closer} rolls")
    return f"IN TIME: the window was open from event {opened} {until}"


def _rent_without_claim(log: Log, seq: int, what: str, at: int) -> Ruling:
    e = log.at(at)
    d = e["data"]
    st = log.table(at)
    place = _name(st, d["property"])
    lines = [f"rent ruling on event {seq} (rules {st.rules.name})"]
    if what == "auto":
        lines.append(f"{d['payer']} paid {d['payee']} {_money(st, d['amount'])} on {place} at "
                     f"event {at}: the {st.rules.name} rules collect rent at the landing "
                     "(rent = \"auto\"), so there is no claim to make or to lose")
        verdict = f"paid at the landing: {_money(st, d['amount'])} (no claim window)"
    else:
        lines.append(f"{d['payer']} stopped on {place}, {d['owner']}'s, at event {at}: "
                     f"{d['reason']}")
        verdict = "no rent was due"
    return Ruling("rent", seq, verdict, lines, claim_rule(st.rules),
                  {"payer": d["payer"], "property": place, "event": at, "kind": what})


# --- auctions -------------------------------------------------------------------------------

OPENERS = ("AuctionOpened", "BuildingAuctionOpened")
CLOSERS = ("AuctionWon", "AuctionClosed", "AuctionVoided")
AUCTION_EVENTS = {*OPENERS, *CLOSERS, "BidPlaced", "PropertyDeclined"}


def _auctions(log: Log) -> list[dict]:
    """Every auction of the game, from the facts in force: what, why, bids, how it ended."""
    out: list[dict] = []
    current = None
    estate_to_bank: dict[int, str] = {}
    for e in log.effective():
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


def auction(events: list[dict], seq: int, game_id: int | None = None) -> Ruling:
    log = Log(events, game_id)
    found = _auctions(log)
    e = log.at(seq)
    chosen = None
    for i, a in enumerate(found):
        last = a["closed"] or (events[-1]["seq"])
        if a["opened"] <= seq <= last:
            chosen = i
    if chosen is None:  # the command that opened or closed it (the offer, the hammer)
        batch = {x["seq"] for x in log.batch(seq)}
        chosen = next((i for i, a in enumerate(found)
                       if a["opened"] in batch or a["closed"] in batch), None)
    if chosen is None:
        raise UsageError("event {seq} ({type}) is not part of an auction: `ruling auction` takes the seq of a declined offer, an auction opened, a bid or its close ({nearby})",
                         seq=seq, type=e['type'], nearby=_nearby(log, set(OPENERS), seq))
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
    what = (_name(st, chain[0]["property"]) if chain[0]["kind"] == "deed"
            else f"a {chain[0]['kind']}")
    lines = [f"auction ruling on event {seq} (rules {rules.name}): {what}"]
    rule = {R_AUCTION}
    verdict = ""
    docs = []
    for n, a in enumerate(chain, start=1):
        label = f"auction {n} of {len(chain)}" if len(chain) > 1 else "auction"
        why = {"declined": f"{a['decliner']} declined to buy it: the Bank auctions it at once (003 §02)",
               "re-auction": f"the winner before could not pay: a new auction without "
                             f"{', '.join(a['excluded'])} ({R_UNPAID})",
               "shortage": f"more players wanted the last {a['kind']}s than the Bank had "
                           f"({R_SHORTAGE})",
               "bankruptcy": f"{a['debtor']} went bankrupt to the Bank: his deeds are "
                             "auctioned one by one (003 §10)",
               "opened": "opened"}[a["why"]]
        if a["why"] == "re-auction":
            rule.add(R_UNPAID)
        if a["why"] == "shortage":
            rule.add(R_SHORTAGE)
        lines.append(f"{label}: opened at event {a['opened']}: {why}; bids from "
                     f"{_money(st, a['min_bid'])}, rising by at least {a['step']}")
        if not a["bids"]:
            lines.append("  bids: none")
        for b in a["bids"]:
            lines.append(f"  bid: {b['data']['player']} {_money(st, b['data']['amount'])} at "
                         f"event {b['seq']}")
        undone = [x for x in events if x["type"] == "BidPlaced" and x["seq"] in log.gone
                  and a["opened"] < x["seq"] < (a["closed"] or x["seq"] + 1)]
        for b in undone:
            lines.append(f"  (a bid of {b['data']['player']} for "
                         f"{_money(st, b['data']['amount'])} at event {b['seq']} was taken back "
                         f"by the undo at event {log.undone_by[b['seq']]})")
        end = a["end"]
        out, ed = a["outcome"], end["data"] if end else {}
        if out is None:
            result = "still open"
            lead = a["bids"][-1]["data"] if a["bids"] else None
            verdict = (f"the auction is still open: {lead['player']} leads at "
                       f"{_money(st, lead['amount'])}" if lead
                       else "the auction is still open, without a bid")
        elif out == "AuctionWon":
            if a["bids"]:
                result = (f"won by {ed['player']} for {_money(st, ed['amount'])}, paid to the "
                          f"Bank at event {end['seq']}")
            else:
                rule.add(R_NO_BID)
                result = (f"no bid: {ed['player']} took it at the opening price "
                          f"{_money(st, ed['amount'])} (event {end['seq']}, {R_NO_BID})")
            verdict = result
        elif out == "AuctionClosed":
            result = f"closed without a bid at event {end['seq']}: {ed['reason']}"
            verdict = (f"no bid: {what} stays with the Bank" if a["kind"] == "deed"
                       else f"no bid: the {a['kind']} stays with the Bank")
        elif out == "AuctionVoided":
            rule.add(R_UNPAID)
            result = f"voided at event {end['seq']}: {ed['reason']}"
        elif out in ("HouseBuilt", "HotelBuilt"):
            result = (f"won by {ed['player']} for {_money(st, ed['amount'])}, built on "
                      f"{_name(st, ed['property'])} at event {end['seq']}")
            verdict = result
        else:
            result = f"the game ended at event {end['seq']} before the hammer"
            verdict = result
        lines.append(f"  result: {result}")
        docs.append({"opened": a["opened"], "why": a["why"], "min_bid": a["min_bid"],
                     "step": a["step"], "excluded": a["excluded"],
                     "bids": [{"seq": b["seq"], "player": b["data"]["player"],
                               "amount": b["data"]["amount"]} for b in a["bids"]],
                     "outcome": out, "closed": a["closed"], "result": result})
    if len(chain) > 1:
        voided = [a for a in chain if a["outcome"] == "AuctionVoided"]
        verdict += (f" (after {len(voided)} voided auction{'s' if len(voided) > 1 else ''}: "
                    f"{', '.join(a['end']['data']['player'] for a in voided)} could not pay)")
    facts = {"what": what, "auctions": docs, "auction_min_bid": rules.auction_min_bid,
             "auction_step": rules.auction_step, "no_bid": rules.auction_no_bid}
    return Ruling("auction", seq, verdict, lines, "; ".join(sorted(rule)), facts)


# --- bankruptcy -----------------------------------------------------------------------------

BANKRUPTCY_EVENTS = {"BankruptcyDeclared", "EstateTransferred", "DebtCancelled", "BuildingsSold"}


def _turn_start(log: Log, seq: int, player: str) -> int:
    """The seq at which `player`'s turn in progress at event `seq` began (the TurnEnded that
    passed him the dice, or the game's start)."""
    start = log._start()
    for e in log.effective(until=seq):
        if e["type"] == "TurnEnded" and e["data"]["next"] == player:
            start = e["seq"]
    return start


def bankruptcy(events: list[dict], seq: int, game_id: int | None = None) -> Ruling:
    log = Log(events, game_id)
    e = log.at(seq)
    declared = None
    if e["type"] == "BankruptcyDeclared":
        declared = e
    else:
        declared = next((x for x in log.batch(seq) if x["type"] == "BankruptcyDeclared"), None)
        if declared is None and e["type"] == "DebtIncurred":
            declared = next((x for x in log.effective(after=seq)
                             if x["type"] == "BankruptcyDeclared"
                             and x["data"]["player"] == e["data"]["debtor"]), None)
    if declared is None:
        raise UsageError("event {seq} ({type}) is not part of a bankruptcy: `ruling bankruptcy` takes the seq of a bankruptcy, the estate handed over, or the debt that led to it ({nearby})",
                         seq=seq, type=e['type'], nearby=_nearby(log, {'BankruptcyDeclared'}, seq))
    name, creditor = declared["data"]["player"], declared["data"]["creditor"]
    before = log.before(declared["seq"])
    st = before
    rules = st.rules
    lines = [f"bankruptcy ruling on event {seq} (rules {rules.name}): {name}, bankrupt to "
             f"{_who(creditor)} at event {declared['seq']}{log.taken_back(declared['seq'])}"]
    debts = [dd for dd in before.debts if dd.debtor == name]
    owed = sum(dd.amount for dd in debts)
    for dd in debts:
        lines.append(f"debt: {_money(st, dd.amount)} to {_who(dd.creditor)} from event "
                     f"{dd.seq} ({dd.reason})")
    p = before.player(name)
    parts = [("cash", p.cash)]
    for pos in deeds_of(before, name):
        sale = building_sale_value(before, pos)
        if sale:
            parts.append((f"buildings on {_name(st, pos)} at half price", sale))
        if pos not in before.mortgaged:
            parts.append((f"mortgage of {_name(st, pos)}", st.edition.space(pos).mortgage))
    can = sum(v for _, v in parts)
    lines.append(f"valuation before the bankruptcy: {name} could raise {_money(st, can)} = "
                 + " + ".join(f"{v} ({k})" for k, v in parts if v or k == "cash"))
    unavoidable = can < owed
    lines.append(f"owed {_money(st, owed)}, could raise {_money(st, can)}: "
                 + ("bankruptcy was unavoidable" if unavoidable else
                    "NOT unavoidable: the debts could have been raised"))
    batch = [x for x in log.batch(declared["seq"]) if x["seq"] not in log.gone]
    passed = []
    for x in batch:
        t, d = x["type"], x["data"]
        if t == "BuildingsSold":
            passed.append(f"event {x['seq']}: buildings back to the Bank for "
                          f"{_money(st, d['amount'])} ({d['reason']})")
        elif t == "EstateTransferred":
            deeds = ", ".join(_name(st, pos) + (" (mortgaged)" if pos in before.mortgaged else "")
                              for pos in d["properties"]) or "no deeds"
            cards = f", {len(d['jail_cards'])} get-out-of-jail card(s)" if d["jail_cards"] else ""
            passed.append(f"event {x['seq']}: to {_who(d['creditor'])}: {_money(st, d['amount'])} "
                          f"in cash, {deeds}{cards}")
        elif t == "DebtCancelled":
            passed.append(f"event {x['seq']}: {d['debtor']}'s debt of "
                          f"{_money(st, d['amount'])} to {name} cancelled ({d['reason']})")
        elif t == "RentClaimLapsed":
            passed.append(f"event {x['seq']}: the open rent claim of {d['owner']} on "
                          f"{d['payer']} ended")
        elif t == "MortgageInterestPaid":
            passed.append(f"event {x['seq']}: {d['payer']} pays the Bank "
                          f"{_money(st, d['amount'])}, 10% on receiving mortgaged "
                          f"{_name(st, d['property'])} ({R_FEE})")
        elif t == "DebtIncurred":
            passed.append(f"event {x['seq']}: {d['debtor']} owes {_money(st, d['amount'])} to "
                          f"{_who(d['creditor'])} ({d['reason']}, {R_FEE})")
        elif t == "AuctionOpened":
            passed.append(f"event {x['seq']}: the Bank auctions the deeds one by one, first "
                          f"{_name(st, d['property'])} (003 §10)")
        elif t == "GameEnded":
            passed.append(f"event {x['seq']}: game over, {d['winner']} wins")
    lines.extend("passed: " + s for s in passed)
    rule = [R_BANKRUPT]
    if any(x["type"] in ("MortgageInterestPaid",) for x in batch) or \
            any(x["type"] == "DebtIncurred" for x in batch):
        rule.append(R_FEE)
    # 000 FAQ 32: bankrupt to a player during his own turn, the deeds pass as they were when
    # his turn began.  Which deeds he mortgaged since then says what that changes.
    start_rule = bool(getattr(rules, START_OF_TURN_FIELD, False))
    his_turn = before.turn.player == name
    start = _turn_start(log, declared["seq"], before.turn.player)
    mortgaged_since = [x for x in log.effective(after=start, until=declared["seq"])
                       if x["type"] == "PropertyMortgaged" and x["data"]["player"] == name]
    at_start = log.table(start)
    lines.append(f"start of the turn: {before.turn.player}'s turn began at event {start}; "
                 f"{name} had {_money(st, at_start.player(name).cash)} in cash and "
                 f"{len(deeds_of(at_start, name))} deed(s), "
                 f"{sum(1 for q in deeds_of(at_start, name) if q in at_start.mortgaged)} mortgaged")
    if mortgaged_since:
        lines.append("mortgaged during that turn: " + ", ".join(
            f"{_name(st, x['data']['property'])} (event {x['seq']})" for x in mortgaged_since))
    if start_rule and his_turn and creditor != BANK:
        rule.append(R_TURN_START)
        lines.append(f"the {rules.name} rules hand the deeds over as they were when the turn "
                     f"began ({R_TURN_START})"
                     + (": the deeds mortgaged during the turn pass unmortgaged" if mortgaged_since
                        else ": nothing was mortgaged during the turn, so nothing changes"))
    elif start_rule:
        lines.append(f"the start-of-turn rule ({R_TURN_START}) applies to a bankruptcy to a "
                     "player during the debtor's own turn: not this one")
    else:
        lines.append(f"the {rules.name} rules hand the estate over as it stands (the "
                     f"championship's start-of-turn rule, {R_TURN_START}, is not part of them)")
    verdict = (f"{name} was bankrupt to {_who(creditor)}: owed {_money(st, owed)}, could raise "
               f"only {_money(st, can)}" if unavoidable else
               f"{name} was declared bankrupt to {_who(creditor)} but could have raised "
               f"{_money(st, can)} against {_money(st, owed)} owed")
    facts = {"player": name, "creditor": creditor, "declared_seq": declared["seq"],
             "debts": [{"seq": dd.seq, "creditor": dd.creditor, "amount": dd.amount,
                        "reason": dd.reason} for dd in debts],
             "owed": owed, "could_raise": can, "valuation": [{"what": k, "amount": v}
                                                             for k, v in parts],
             "unavoidable": unavoidable, "passed": passed, "turn_start_seq": start,
             "mortgaged_during_turn": [x["seq"] for x in mortgaged_since],
             "start_of_turn_rule": start_rule}
    return Ruling("bankruptcy", seq, verdict, lines, "; ".join(rule), facts)


# --- jail -----------------------------------------------------------------------------------

JAIL_EVENTS = {"SentToJail", "JailRollFailed", "LeftJail", "JailCardUsed", "FinePaid"}


def jail(events: list[dict], seq: int, game_id: int | None = None) -> Ruling:
    log = Log(events, game_id)
    e = log.at(seq)
    player = e["data"].get("player") or e["data"].get("payer")
    if e["type"] not in JAIL_EVENTS:
        hit = next((x for x in log.batch(seq) if x["type"] in JAIL_EVENTS), None)
        if hit is None:
            raise UsageError("event {seq} ({type}) has nothing to do with jail: `ruling jail` takes the seq of a player sent to jail, a failed try or how he left ({nearby})",
                             seq=seq, type=e['type'], nearby=_nearby(log, {'SentToJail'}, seq))
        e, player = hit, hit["data"].get("player") or hit["data"].get("payer")
    # The stay: the last SentToJail of this player at or before the event, to the LeftJail
    # after it.
    sent = None
    for x in log.effective(until=e["seq"]):
        if x["type"] == "SentToJail" and x["data"]["player"] == player:
            sent = x
    if sent is None:
        raise UsageError("{player} had not been sent to jail by event {seq}",
                         player=player, seq=e['seq'])
    st = log.table(sent["seq"])
    rules = st.rules
    lines = [f"jail ruling on event {seq} (rules {rules.name}): {player}"]
    cause = [x for x in log.batch(sent["seq"]) if x["seq"] < sent["seq"]]
    rolled = [x for x in cause if x["type"] == "DiceRolled"]
    card = [x for x in cause if x["type"] == "CardDrawn"]
    how = sent["data"]["reason"]
    if card:
        how += f" (drawn at event {card[-1]['seq']}: {card[-1]['data']['text']})"
    elif rolled and rolled[-1]["data"]["doubles"]:
        how += f" (the roll at event {rolled[-1]['seq']}: {'+'.join(map(str, rolled[-1]['data']['dice']))})"
    lines.append(f"sent to jail at event {sent['seq']}: {how}")
    tries, left, fine, used = [], None, None, None
    for x in log.effective(after=sent["seq"]):
        d = x["data"]
        if d.get("player") != player and d.get("payer") != player:
            continue
        if x["type"] == "JailRollFailed":
            dice = next((y for y in log.batch(x["seq"]) if y["type"] == "DiceRolled"), None)
            tries.append((x, dice))
        elif x["type"] == "FinePaid":
            fine = x
        elif x["type"] == "JailCardUsed":
            used = x
        elif x["type"] == "LeftJail":
            left = x
            break
        elif x["type"] in ("SentToJail", "BankruptcyDeclared"):
            break
    for x, dice in tries:
        shown = "+".join(map(str, dice["data"]["dice"])) if dice else "?"
        lines.append(f"try {x['data']['attempt']}: rolled {shown} at event "
                     f"{dice['seq'] if dice else x['seq']}: no doubles, stays")
    lines.append(f"the {rules.name} rules: out by paying {_money(st, rules.jail_fine)} before "
                 f"rolling, by a get-out-of-jail card, or by doubles; after "
                 f"{rules.jail_max_attempts} failed tries he pays and moves by that roll")
    if left is None:
        verdict = (f"{player} is still in jail after {len(tries)} failed "
                   f"tr{'y' if len(tries) == 1 else 'ies'}")
    else:
        way = left["data"]["how"]
        detail = ""
        if used is not None:
            detail = f" ({used['data']['deck']} {used['data']['number']}, back under its deck)"
        elif fine is not None:
            detail = f" ({_money(st, fine['data']['amount'])} at event {fine['seq']})"
        elif way == "doubles":
            dice = next((y for y in log.batch(left["seq"]) if y["type"] == "DiceRolled"), None)
            if dice:
                detail = f" ({'+'.join(map(str, dice['data']['dice']))}, no extra roll)"
        moved = next((y for y in log.batch(left["seq"])
                      if y["type"] == "TokenMoved" and y["seq"] > left["seq"]), None)
        after = f", then moved to {_name(st, moved['data']['to'])}" if moved else ""
        lines.append(f"left at event {left['seq']}: {way}{detail}{after}")
        verdict = f"{player} left jail by {way} at event {left['seq']}, after {len(tries)} failed " \
                  f"tr{'y' if len(tries) == 1 else 'ies'}"
    facts = {"player": player, "sent_seq": sent["seq"], "reason": sent["data"]["reason"],
             "tries": [{"seq": x["seq"], "attempt": x["data"]["attempt"],
                        "dice": dice["data"]["dice"] if dice else None} for x, dice in tries],
             "left_seq": left["seq"] if left else None,
             "how": left["data"]["how"] if left else None,
             "jail_fine": rules.jail_fine, "max_attempts": rules.jail_max_attempts}
    return Ruling("jail", seq, verdict, lines, R_JAIL, facts)


KINDS = {"rent": rent, "auction": auction, "bankruptcy": bankruptcy, "jail": jail}
