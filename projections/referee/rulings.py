"""A referee's rulings, reasoned from the log alone: rent claims, auctions, bankruptcies, jail.

Each ruling is a pure function of a game's events and the seq it is asked about.  It gathers
the facts that bear on the question (with their seqs, so anyone can check them with `banco show
SEQ`), the rule set's parameters that decide it and the rulebook sections that say so, and ends
in a verdict.  Events an undo took back are left out of the reasoning and named as such.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import dataclass, field

from ledger.base.errors import UsageError
from ledger.base.text import Fact, Joined, Text, msg, plural, render
from ledger.rules.auction import R_AUCTION, R_UNPAID
from ledger.rules.claims import R_RENT as R_RENT_CLASSIC
from ledger.rules.estate import R_BANKRUPT
from ledger.rules.estate import R_SHORT as R_SHORTAGE
from ledger.rules.turn import R_JAIL
from ledger.table.state import BANK, State, fold, retracted_seqs
from ledger.table.worth import building_sale_value, deeds_of
from projections.referee.moments import Moment, local_time, seq_at

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

    def text(self, tr=None) -> str:
        """The ruling in words: English (as recorded) without `tr`, else in its language."""
        return "\n".join([*(render(line, tr) for line in self.lines),
                          render(msg("verdict: {verdict}", verdict=self.verdict), tr),
                          render(msg("rule: {rule}", rule=self.rule), tr)])

    def document(self) -> dict:
        return _plain({"kind": self.kind, "subject_seq": self.subject, "verdict": self.verdict,
                       "reasons": self.lines, "rule": self.rule, "facts": self.facts})


def _plain(value):
    """A document holds plain English strings (a Text is its English sentence)."""
    if isinstance(value, Text):
        return str(value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def claim_rule(rules) -> str:
    """Where the rule set's claim window comes from: one seat is 004/003's "before the next
    player rolls", two is the championship's (000 FAQ 7)."""
    return R_RENT_TWO if rules.claim_window >= 2 else R_RENT_CLASSIC


def seats_between(state: State, payer: str, n: int) -> list[str]:
    """The players in play after `payer`, in seating order, up to the one whose roll closes a
    window of `n` seats (the bankrupt are skipped, as ledger.rules.decide.seat_after does)."""
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
    what an undo took back, the rows of some types in a stretch, and the table after any
    event.  This one holds the whole log in a list; cli/referee/ruling_log.py's reads a long game's
    book for each lookup (the same answers, in bounded memory)."""

    def __init__(self, events: list[dict], game_id: int | None = None):
        self.events = events
        self.game_id = game_id
        self.by_seq = {e["seq"]: e for e in events}
        self.gone = retracted_seqs(events)
        self.undone_by = {s: e["seq"] for e in events if e["type"] == "EventRetracted"
                          for s in e["data"]["seqs"]}
        self._tables: dict[int, State] = {}

    @property
    def last_seq(self) -> int:
        return self.events[-1]["seq"] if self.events else 0

    def at(self, seq: int) -> dict:
        e = self.by_seq.get(seq)
        if e is None:
            raise UsageError("the game has events 1 to {last}; there is no event {seq}",
                             last=self.last_seq, seq=seq)
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

    def effective(self, types: Collection[str], after: int = 0,
                  until: int | None = None) -> Iterator[dict]:
        """The rows of these types after `after` up to `until` that no undo took back."""
        return (e for e in self.events if e["seq"] > after and e["seq"] not in self.gone
                and (until is None or e["seq"] <= until) and e["type"] in types)

    def last_effective(self, types: Collection[str], until: int, where) -> dict | None:
        """The last row of these types up to `until`, in force, for which `where(row)`."""
        found = None
        for e in self.effective(types, until=until):
            if where(e):
                found = e
        return found

    def nearest(self, types: Collection[str], seq: int) -> list[int]:
        """The seqs of the (at most six) rows of these types nearest to `seq`, in order."""
        seqs = [e["seq"] for e in self.events if e["type"] in types]
        return sorted(sorted(seqs, key=lambda s: abs(s - seq))[:6])

    def seq_at(self, moment: Moment) -> int:
        return seq_at(self.events, moment)

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
        return msg(" (taken back by the undo at event {seq})", seq=by) if by else ""


def _log(events: list[dict] | Log, game_id: int | None) -> Log:
    """A ruling reads a Log: the whole log given as a list is wrapped in one."""
    return events if not isinstance(events, list) else Log(events, game_id)


def _ordinal(n: int) -> Text:
    return {1: msg("next"), 2: msg("second"), 3: msg("third")}.get(n) or msg("{n}th", n=n)


def _money(state: State, amount: int) -> str:
    return state.edition.money(amount)


def _name(state: State, pos: int) -> str:
    return state.edition.space(pos).name


def _who(name: str) -> Text | str:
    return msg("the Bank") if name == BANK else name


def _nearby(log: Log, types: set[str], seq: int) -> str:
    near = log.nearest(types, seq)
    if not near:
        return msg("this game has none")
    return msg("the nearest: {seqs}", seqs=", ".join(map(str, near)))


# --- rent -----------------------------------------------------------------------------------

RENT_EVENTS = {"RentClaimOpened", "RentPaid", "RentClaimRefused", "RentClaimLapsed", "RentNotDue"}
# What becomes of a claim: the only facts that carry its opened_seq and say so.
RENT_OUTCOMES = {"RentPaid", "RentClaimRefused", "RentClaimLapsed"}


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


def rent(events: list[dict] | Log, seq: int, claim_at: Moment | None = None,
         game_id: int | None = None) -> Ruling:
    log = _log(events, game_id)
    what, at = _claim_of(log, seq)
    if what != "claim":
        return _rent_without_claim(log, seq, what, at)
    c = log.at(at)
    d = c["data"]
    st = log.table(at)
    rules = st.rules
    payer, owner, prop, amount = d["payer"], d["owner"], d["property"], d["amount"]
    place = _name(st, prop)
    lines = [msg("rent ruling on event {seq} (rules {rules}, edition {edition})", seq=seq,
                 rules=rules.name, edition=st.edition.name)]
    lines.append(msg("owed: {payer} owed {owner} {amount} for a stay on {space} ({basis})",
                     payer=payer, owner=owner, amount=_money(st, amount), space=place,
                     basis=Fact(d["basis"], "basis")))
    batch = log.batch(at)
    landing = [x for x in batch if x["type"] == "TokenMoved" and x["seq"] < at
               and x["data"]["player"] == payer]
    dice = [x for x in batch if x["type"] in ("DiceRolled", "CardDrawn") and x["seq"] < at]
    how = ""
    if dice and dice[-1]["type"] == "DiceRolled":
        how = msg("{payer} rolled {dice} at event {seq} and ", payer=payer,
                  dice="+".join(map(str, dice[-1]["data"]["dice"])), seq=dice[-1]["seq"])
    elif dice:
        how = msg("{payer} drew {deck} {number} at event {seq} and ", payer=payer,
                  deck=dice[-1]["data"]["deck"], number=dice[-1]["data"]["number"],
                  seq=dice[-1]["seq"])
    landed = landing[-1]["seq"] if landing else d.get("landed_seq", at)
    line = log.line(at)
    lines.append(msg("landing: {how}moved to {space} at event {landed}{line}; the window "
                     "opened with the claim at event {at}, {time}{taken_back}", how=how,
                     space=place, landed=landed, line=" (`" + line + "`)" if line else "", at=at,
                     time=local_time(log.when(at)), taken_back=log.taken_back(at)))
    window = rules.claim_window
    between = seats_between(st, payer, window)
    closer = d["closer"]
    chain = Joined([msg("{player} (payer)", player=payer), *between[:-1],
                    msg("{player} (whose roll closes it)", player=between[-1])], " -> ") \
        if between else payer
    lines.append(msg("window: under the {rules} rules the owner must ask before the {ordinal} "
                     "player after the payer rolls (the payer's own extra rolls after doubles "
                     "do not close it): {chain}", rules=rules.name, ordinal=_ordinal(window),
                     chain=chain))
    if between and between[-1] != closer:
        lines.append(msg("  (recorded closer: {closer}; seats changed by a bankruptcy since)",
                         closer=closer))
    facts = {"payer": payer, "owner": owner, "property": place, "position": prop,
             "amount": amount, "basis": d["basis"], "landed_seq": landed, "opened_seq": at,
             "claim_window": window, "seats": [payer, *between], "closer": closer,
             "paid_seq": None, "closed_seq": None, "closed_by": None, "window_closed_at": None,
             "late_claims": [], "taken_back_by": log.undone_by.get(at)}
    # What happened to the claim, from the facts still in force, in the order it happened.
    paid = lapsed = None
    closed_at = None
    for x in log.effective(RENT_OUTCOMES, after=at):
        xd = x["data"]
        if xd.get("opened_seq") != at:
            continue
        said = log.line(x["seq"])
        said = f" (`{said}`)" if said else ""
        if x["type"] == "RentPaid":
            paid = x
            lines.append(msg("claimed: {owner} asked at event {seq}{said} and {payer} paid "
                             "{amount}", owner=owner, seq=x["seq"], said=said, payer=payer,
                             amount=_money(st, xd["amount"])))
        elif x["type"] == "RentClaimRefused":
            facts["late_claims"].append(x["seq"])
            lines.append(msg("late claim: {owner} asked at event {seq}{said}, {time}: refused, "
                             "and the refusal recorded", owner=owner, seq=x["seq"], said=said,
                             time=local_time(x["recorded_at"])))
        elif x["type"] == "RentClaimLapsed":
            lapsed = x
            by = xd["closed_by"]
            facts["closed_seq"], facts["closed_by"] = x["seq"], by
            if by == "debt":
                debt = next((y for y in log.batch(x["seq"]) if y["type"] == "DebtIncurred"), None)
                facts["debt_seq"] = debt["seq"] if debt else None
                lines.append(
                    msg("claimed: {owner} asked at event {seq}{said}; {payer} could not pay in "
                        "cash: a debt from event {debt}", owner=owner, seq=x["seq"], said=said,
                        payer=payer, debt=debt["seq"]) if debt else
                    msg("claimed: {owner} asked at event {seq}{said}; {payer} could not pay in "
                        "cash", owner=owner, seq=x["seq"], said=said, payer=payer))
            elif by == "bankruptcy":
                lines.append(msg("closed: the bankruptcy at event {seq}{said} ended the claim",
                                 seq=x["seq"], said=said))
            else:
                roll = log.batch(x["seq"])
                closed_at = roll[0]["seq"]
                facts["window_closed_at"] = closed_at
                rolled = next((y for y in roll if y["type"] == "DiceRolled"), None)
                dice = f" {'+'.join(map(str, rolled['data']['dice']))}" if rolled else ""
                lines.append(msg("closed: {player} rolled{dice}{said}, recorded from event "
                                 "{closed_at}, {time}: the window shut (event {seq})",
                                 player=by, dice=dice, said=said, closed_at=closed_at,
                                 time=local_time(x["recorded_at"]), seq=x["seq"]))
    if facts["taken_back_by"]:
        outcome = msg("no rent was owed: the landing was taken back by the undo at event {seq}",
                      seq=facts["taken_back_by"])
    elif paid is not None:
        facts["paid_seq"] = paid["seq"]
        outcome = msg("paid in time: {payer} paid {owner} {amount} at event {seq}", payer=payer,
                      owner=owner, amount=_money(st, amount), seq=paid["seq"])
    elif lapsed is not None and lapsed["data"]["closed_by"] == "debt":
        outcome = msg("claimed in time; {payer} owes it as a debt (event {seq}, 003 §10)",
                      payer=payer, seq=facts.get("debt_seq") or lapsed["seq"])
    elif lapsed is not None and lapsed["data"]["closed_by"] == "bankruptcy":
        outcome = msg("never collected: a bankruptcy ended the claim at event {seq}",
                      seq=lapsed["seq"])
    elif lapsed is not None:
        by = lapsed["data"]["closed_by"]
        if facts["late_claims"]:
            outcome = msg("too late: the window closed when {player} rolled (event {seq}); the "
                          "claim at event {late} was rightly refused and {owner} lost the rent",
                          player=by, seq=lapsed["seq"], late=facts["late_claims"][0],
                          owner=owner)
        else:
            outcome = msg("lapsed unclaimed: {owner} did not ask before {player} rolled (event "
                          "{seq}); the rent is lost", owner=owner, player=by, seq=lapsed["seq"])
    else:
        outcome = msg("still open: {owner} may claim {amount} until {closer} rolls", owner=owner,
                      amount=_money(st, amount), closer=closer)
        lines.append(msg("open: nobody has claimed it and {closer} has not rolled yet",
                         closer=closer))
    facts["outcome"] = outcome
    verdict = outcome
    if claim_at is not None:
        m = log.seq_at(claim_at)
        facts["claim_at"] = m
        when = (msg("after event {seq}", seq=m) if claim_at.seq is not None
                else msg("at {time} (after event {seq})", time=claim_at.text, seq=m))
        answer = _claim_verdict(m, at, landed, closed_at, paid, lapsed, closer, facts)
        facts["claim_at_verdict"] = answer
        lines.append(msg("outcome: {outcome}", outcome=outcome))
        verdict = msg("a claim made {when} was {answer}", when=when, answer=answer)
    return Ruling("rent", seq, verdict, lines, claim_rule(rules), facts)


def _claim_verdict(m, opened, landed, closed_at, paid, lapsed, closer, facts) -> Text:
    if facts["taken_back_by"]:
        return msg("about a landing that was taken back: nothing to claim")
    if m < opened:
        return msg("too early: nothing was owed before the landing (event {seq})", seq=landed)
    if paid is not None and m >= paid["seq"]:
        return msg("after the rent was paid (event {seq}): nothing more is owed",
                   seq=paid["seq"])
    if lapsed is not None and m >= lapsed["seq"] and lapsed["data"]["closed_by"] == "debt":
        return msg("after the claim became a debt (event {seq})", seq=lapsed["seq"])
    if lapsed is not None and m >= lapsed["seq"] and lapsed["data"]["closed_by"] == "bankruptcy":
        return msg("after the bankruptcy that ended the claim (event {seq})", seq=lapsed["seq"])
    if closed_at is not None and m >= closed_at:
        return msg("TOO LATE: {player} had rolled (the roll recorded from event {seq}), which "
                   "closed the window", player=lapsed["data"]["closed_by"], seq=closed_at)
    until = (msg("until {closer}'s roll (recorded from event {seq})", closer=closer,
                 seq=closed_at) if closed_at
             else msg("until {closer} rolls", closer=closer))
    return msg("IN TIME: the window was open from event {seq} {until}", seq=opened, until=until)


def _rent_without_claim(log: Log, seq: int, what: str, at: int) -> Ruling:
    e = log.at(at)
    d = e["data"]
    st = log.table(at)
    place = _name(st, d["property"])
    lines = [msg("rent ruling on event {seq} (rules {rules})", seq=seq, rules=st.rules.name)]
    if what == "auto":
        lines.append(msg("{payer} paid {payee} {amount} on {space} at event {at}: the {rules} "
                         "rules collect rent at the landing (rent = \"auto\"), so there is no "
                         "claim to make or to lose", payer=d["payer"], payee=d["payee"],
                         amount=_money(st, d["amount"]), space=place, at=at,
                         rules=st.rules.name))
        verdict = msg("paid at the landing: {amount} (no claim window)",
                      amount=_money(st, d["amount"]))
    else:
        lines.append(msg("{payer} stopped on {space}, {owner}'s, at event {at}: {reason}",
                         payer=d["payer"], space=place, owner=d["owner"], at=at,
                         reason=Fact(d["reason"])))
        verdict = msg("no rent was due")
    return Ruling("rent", seq, verdict, lines, claim_rule(st.rules),
                  {"payer": d["payer"], "property": place, "event": at, "kind": what})


# --- auctions -------------------------------------------------------------------------------

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
    return {"house": msg("house"), "hotel": msg("hotel"), "deed": msg("deed")}.get(kind, kind)


def auction(events: list[dict] | Log, seq: int, game_id: int | None = None) -> Ruling:
    log = _log(events, game_id)
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
            else msg("a {kind}", kind=_kind(chain[0]["kind"])))
    lines = [msg("auction ruling on event {seq} (rules {rules}): {what}", seq=seq,
                 rules=rules.name, what=what)]
    rule = {R_AUCTION}
    verdict = ""
    docs = []
    for n, a in enumerate(chain, start=1):
        label = (msg("auction {n} of {count}", n=n, count=len(chain)) if len(chain) > 1
                 else msg("auction"))
        why = {"declined": lambda a=a: msg("{player} declined to buy it: the Bank auctions it at "
                                           "once (003 §02)", player=a["decliner"]),
               "re-auction": lambda a=a: msg("the winner before could not pay: a new auction "
                                             "without {players} ({rule})",
                                             players=", ".join(a["excluded"]), rule=R_UNPAID),
               "shortage": lambda a=a: msg("more players wanted the last {kind}s than the Bank "
                                           "had ({rule})", kind=_kind(a["kind"]),
                                           rule=R_SHORTAGE),
               "bankruptcy": lambda a=a: msg("{player} went bankrupt to the Bank: his deeds are "
                                             "auctioned one by one (003 §10)",
                                             player=a["debtor"]),
               "opened": lambda a=a: msg("opened")}[a["why"]]()
        if a["why"] == "re-auction":
            rule.add(R_UNPAID)
        if a["why"] == "shortage":
            rule.add(R_SHORTAGE)
        lines.append(msg("{label}: opened at event {seq}: {why}; bids from {amount}, rising by "
                         "at least {step}", label=label, seq=a["opened"], why=why,
                         amount=_money(st, a["min_bid"]), step=a["step"]))
        if not a["bids"]:
            lines.append(msg("  bids: none"))
        for b in a["bids"]:
            lines.append(msg("  bid: {player} {amount} at event {seq}",
                             player=b["data"]["player"], amount=_money(st, b["data"]["amount"]),
                             seq=b["seq"]))
        undone = [x for x in (log.at(g) for g in sorted(log.gone)
                              if a["opened"] < g < (a["closed"] or g + 1))
                  if x["type"] == "BidPlaced"]
        for b in undone:
            lines.append(msg("  (a bid of {player} for {amount} at event {seq} was taken back "
                             "by the undo at event {undo})", player=b["data"]["player"],
                             amount=_money(st, b["data"]["amount"]), seq=b["seq"],
                             undo=log.undone_by[b["seq"]]))
        end = a["end"]
        out, ed = a["outcome"], end["data"] if end else {}
        if out is None:
            result = msg("still open")
            lead = a["bids"][-1]["data"] if a["bids"] else None
            verdict = (msg("the auction is still open: {player} leads at {amount}",
                           player=lead["player"], amount=_money(st, lead["amount"])) if lead
                       else msg("the auction is still open, without a bid"))
        elif out == "AuctionWon":
            if a["bids"]:
                result = msg("won by {player} for {amount}, paid to the Bank at event {seq}",
                             player=ed["player"], amount=_money(st, ed["amount"]),
                             seq=end["seq"])
            else:
                rule.add(R_NO_BID)
                result = msg("no bid: {player} took it at the opening price {amount} (event "
                             "{seq}, {rule})", player=ed["player"],
                             amount=_money(st, ed["amount"]), seq=end["seq"], rule=R_NO_BID)
            verdict = result
        elif out == "AuctionClosed":
            result = msg("closed without a bid at event {seq}: {reason}", seq=end["seq"],
                         reason=Fact(ed["reason"]))
            verdict = (msg("no bid: {what} stays with the Bank", what=what) if a["kind"] == "deed"
                       else msg("no bid: the {kind} stays with the Bank", kind=_kind(a["kind"])))
        elif out == "AuctionVoided":
            rule.add(R_UNPAID)
            result = msg("voided at event {seq}: {reason}", seq=end["seq"],
                         reason=Fact(ed["reason"]))
        elif out in ("HouseBuilt", "HotelBuilt"):
            result = msg("won by {player} for {amount}, built on {space} at event {seq}",
                         player=ed["player"], amount=_money(st, ed["amount"]),
                         space=_name(st, ed["property"]), seq=end["seq"])
            verdict = result
        else:
            result = msg("the game ended at event {seq} before the hammer", seq=end["seq"])
            verdict = result
        lines.append(msg("  result: {result}", result=result))
        docs.append({"opened": a["opened"], "why": a["why"], "min_bid": a["min_bid"],
                     "step": a["step"], "excluded": a["excluded"],
                     "bids": [{"seq": b["seq"], "player": b["data"]["player"],
                               "amount": b["data"]["amount"]} for b in a["bids"]],
                     "outcome": out, "closed": a["closed"], "result": result})
    if len(chain) > 1:
        voided = [a for a in chain if a["outcome"] == "AuctionVoided"]
        verdict = Joined([verdict, plural(
            " (after {n} voided auction: {players} could not pay)",
            " (after {n} voided auctions: {players} could not pay)", len(voided),
            players=", ".join(a["end"]["data"]["player"] for a in voided))], "")
    facts = {"what": what, "auctions": docs, "auction_min_bid": rules.auction_min_bid,
             "auction_step": rules.auction_step, "no_bid": rules.auction_no_bid}
    return Ruling("auction", seq, verdict, lines, "; ".join(sorted(rule)), facts)


# --- bankruptcy -----------------------------------------------------------------------------

BANKRUPTCY_EVENTS = {"BankruptcyDeclared", "EstateTransferred", "DebtCancelled", "BuildingsSold"}


def _turn_start(log: Log, seq: int, player: str) -> int:
    """The seq at which `player`'s turn in progress at event `seq` began (the TurnEnded that
    passed him the dice, or the game's start)."""
    passed = log.last_effective({"TurnEnded"}, seq, lambda e: e["data"]["next"] == player)
    return log._start() if passed is None else passed["seq"]


def bankruptcy(events: list[dict] | Log, seq: int, game_id: int | None = None) -> Ruling:
    log = _log(events, game_id)
    e = log.at(seq)
    declared = None
    if e["type"] == "BankruptcyDeclared":
        declared = e
    else:
        declared = next((x for x in log.batch(seq) if x["type"] == "BankruptcyDeclared"), None)
        if declared is None and e["type"] == "DebtIncurred":
            declared = next((x for x in log.effective({"BankruptcyDeclared"}, after=seq)
                             if x["data"]["player"] == e["data"]["debtor"]), None)
    if declared is None:
        raise UsageError("event {seq} ({type}) is not part of a bankruptcy: `ruling bankruptcy` takes the seq of a bankruptcy, the estate handed over, or the debt that led to it ({nearby})",
                         seq=seq, type=e['type'], nearby=_nearby(log, {'BankruptcyDeclared'}, seq))
    name, creditor = declared["data"]["player"], declared["data"]["creditor"]
    before = log.before(declared["seq"])
    st = before
    rules = st.rules
    lines = [msg("bankruptcy ruling on event {seq} (rules {rules}): {player}, bankrupt to "
                 "{creditor} at event {declared}{taken_back}", seq=seq, rules=rules.name,
                 player=name, creditor=_who(creditor), declared=declared["seq"],
                 taken_back=log.taken_back(declared["seq"]))]
    debts = [dd for dd in before.debts if dd.debtor == name]
    owed = sum(dd.amount for dd in debts)
    for dd in debts:
        lines.append(msg("debt: {amount} to {creditor} from event {seq} ({reason})",
                         amount=_money(st, dd.amount), creditor=_who(dd.creditor), seq=dd.seq,
                         reason=Fact(dd.reason)))
    p = before.player(name)
    parts = [(msg("cash"), p.cash)]
    for pos in deeds_of(before, name):
        sale = building_sale_value(before, pos)
        if sale:
            parts.append((msg("buildings on {space} at half price", space=_name(st, pos)), sale))
        if pos not in before.mortgaged:
            parts.append((msg("mortgage of {space}", space=_name(st, pos)),
                          st.edition.space(pos).mortgage))
    can = sum(v for _, v in parts)
    lines.append(msg("valuation before the bankruptcy: {player} could raise {amount} = {parts}",
                     player=name, amount=_money(st, can),
                     parts=Joined([msg("{amount} ({what})", amount=v, what=k)
                                   for k, v in parts if v or k == "cash"], " + ")))
    unavoidable = can < owed
    lines.append(msg("owed {owed}, could raise {can}: bankruptcy was unavoidable",
                     owed=_money(st, owed), can=_money(st, can)) if unavoidable else
                 msg("owed {owed}, could raise {can}: NOT unavoidable: the debts could have "
                     "been raised", owed=_money(st, owed), can=_money(st, can)))
    batch = [x for x in log.batch(declared["seq"]) if x["seq"] not in log.gone]
    passed = []
    for x in batch:
        t, d = x["type"], x["data"]
        if t == "BuildingsSold":
            passed.append(msg("event {seq}: buildings back to the Bank for {amount} ({reason})",
                              seq=x["seq"], amount=_money(st, d["amount"]),
                              reason=Fact(d["reason"])))
        elif t == "EstateTransferred":
            deeds = Joined([msg("{space} (mortgaged)", space=_name(st, pos))
                            if pos in before.mortgaged else _name(st, pos)
                            for pos in d["properties"]], ", ") or msg("no deeds")
            cards = (plural(", {n} get-out-of-jail card", ", {n} get-out-of-jail cards",
                            len(d["jail_cards"]))
                     if d["jail_cards"] else "")
            passed.append(msg("event {seq}: to {creditor}: {amount} in cash, {deeds}{cards}",
                              seq=x["seq"], creditor=_who(d["creditor"]),
                              amount=_money(st, d["amount"]), deeds=deeds, cards=cards))
        elif t == "DebtCancelled":
            passed.append(msg("event {seq}: {debtor}'s debt of {amount} to {player} cancelled "
                              "({reason})", seq=x["seq"], debtor=d["debtor"],
                              amount=_money(st, d["amount"]), player=_who(d["creditor"]),
                              reason=Fact(d["reason"])))
        elif t == "RentClaimLapsed":
            passed.append(msg("event {seq}: the open rent claim of {owner} on {payer} ended",
                              seq=x["seq"], owner=d["owner"], payer=d["payer"]))
        elif t == "MortgageInterestPaid":
            passed.append(msg("event {seq}: {payer} pays the Bank {amount}, 10% on receiving "
                              "mortgaged {space} ({rule})", seq=x["seq"], payer=d["payer"],
                              amount=_money(st, d["amount"]),
                              space=_name(st, d["property"]), rule=R_FEE))
        elif t == "MortgageLifted":
            passed.append(msg("event {seq}: {payer} pays the Bank {amount} to free mortgaged "
                              "{space} at once, the mortgage + 10% (004 §Fallimento)",
                              seq=x["seq"], payer=d["payer"], amount=_money(st, d["amount"]),
                              space=_name(st, d["property"])))
        elif t == "DebtIncurred":
            passed.append(msg("event {seq}: {debtor} owes {amount} to {creditor} ({reason}, "
                              "{rule})", seq=x["seq"], debtor=d["debtor"],
                              amount=_money(st, d["amount"]), creditor=_who(d["creditor"]),
                              reason=Fact(d["reason"]), rule=R_FEE))
        elif t == "AuctionOpened":
            passed.append(msg("event {seq}: the Bank auctions the deeds one by one, first "
                              "{space} (003 §10)", seq=x["seq"],
                              space=_name(st, d["property"])))
        elif t == "GameEnded":
            passed.append(msg("event {seq}: game over, {player} wins", seq=x["seq"],
                              player=d["winner"]))
    lines.extend(msg("passed: {what}", what=s) for s in passed)
    rule = [R_BANKRUPT]
    if any(x["type"] in ("MortgageInterestPaid",) for x in batch) or \
            any(x["type"] == "DebtIncurred" for x in batch):
        rule.append(R_FEE)
    # 000 FAQ 32: bankrupt to a player during his own turn, the deeds pass as they were when
    # his turn began.  Which deeds he mortgaged since then says what that changes.
    start_rule = bool(getattr(rules, START_OF_TURN_FIELD, False))
    his_turn = before.turn.player == name
    start = _turn_start(log, declared["seq"], before.turn.player)
    mortgaged_since = [x for x in log.effective({"PropertyMortgaged"}, after=start,
                                                until=declared["seq"])
                       if x["data"]["player"] == name]
    at_start = log.table(start)
    lines.append(plural("start of the turn: {turn}'s turn began at event {seq}; {player} had "
                        "{cash} in cash and {n} deed, {mortgaged} mortgaged",
                        "start of the turn: {turn}'s turn began at event {seq}; {player} had "
                        "{cash} in cash and {n} deeds, {mortgaged} mortgaged",
                        len(deeds_of(at_start, name)),
                        turn=before.turn.player, seq=start, player=name,
                        cash=_money(st, at_start.player(name).cash),
                        mortgaged=sum(1 for q in deeds_of(at_start, name)
                                      if q in at_start.mortgaged)))
    if mortgaged_since:
        lines.append(msg("mortgaged during that turn: {deeds}", deeds=Joined(
            [msg("{space} (event {seq})", space=_name(st, x["data"]["property"]), seq=x["seq"])
             for x in mortgaged_since], ", ")))
    if start_rule and his_turn and creditor != BANK:
        rule.append(R_TURN_START)
        lines.append(msg("the {rules} rules hand the deeds over as they were when the turn "
                         "began ({rule}): the deeds mortgaged during the turn pass unmortgaged",
                         rules=rules.name, rule=R_TURN_START) if mortgaged_since else
                     msg("the {rules} rules hand the deeds over as they were when the turn "
                         "began ({rule}): nothing was mortgaged during the turn, so nothing "
                         "changes", rules=rules.name, rule=R_TURN_START))
    elif start_rule:
        lines.append(msg("the start-of-turn rule ({rule}) applies to a bankruptcy to a player "
                         "during the debtor's own turn: not this one", rule=R_TURN_START))
    else:
        lines.append(msg("the {rules} rules hand the estate over as it stands (the "
                         "championship's start-of-turn rule, {rule}, is not part of them)",
                         rules=rules.name, rule=R_TURN_START))
    verdict = (msg("{player} was bankrupt to {creditor}: owed {owed}, could raise only {can}",
                   player=name, creditor=_who(creditor), owed=_money(st, owed),
                   can=_money(st, can)) if unavoidable else
               msg("{player} was declared bankrupt to {creditor} but could have raised {can} "
                   "against {owed} owed", player=name, creditor=_who(creditor),
                   can=_money(st, can), owed=_money(st, owed)))
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
# What a stay is made of, and what ends one.
JAIL_STAY = JAIL_EVENTS | {"BankruptcyDeclared"}


def jail(events: list[dict] | Log, seq: int, game_id: int | None = None) -> Ruling:
    log = _log(events, game_id)
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
    sent = log.last_effective({"SentToJail"}, e["seq"], lambda x: x["data"]["player"] == player)
    if sent is None:
        raise UsageError("{player} had not been sent to jail by event {seq}",
                         player=player, seq=e['seq'])
    st = log.table(sent["seq"])
    rules = st.rules
    lines = [msg("jail ruling on event {seq} (rules {rules}): {player}", seq=seq,
                 rules=rules.name, player=player)]
    cause = [x for x in log.batch(sent["seq"]) if x["seq"] < sent["seq"]]
    rolled = [x for x in cause if x["type"] == "DiceRolled"]
    card = [x for x in cause if x["type"] == "CardDrawn"]
    how = Fact(sent["data"]["reason"])
    if card:
        how = Joined([how, msg(" (drawn at event {seq}: {text})", seq=card[-1]["seq"],
                               text=card[-1]["data"]["text"])], "")
    elif rolled and rolled[-1]["data"]["doubles"]:
        how = Joined([how, msg(" (the roll at event {seq}: {dice})", seq=rolled[-1]["seq"],
                               dice="+".join(map(str, rolled[-1]["data"]["dice"])))], "")
    lines.append(msg("sent to jail at event {seq}: {how}", seq=sent["seq"], how=how))
    tries, left, fine, used = [], None, None, None
    for x in log.effective(JAIL_STAY, after=sent["seq"]):
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
        lines.append(msg("try {attempt}: rolled {dice} at event {seq}: no doubles, stays",
                         attempt=x["data"]["attempt"], dice=shown,
                         seq=dice["seq"] if dice else x["seq"]))
    lines.append(msg("the {rules} rules: out by paying {fine} before rolling, by a "
                     "get-out-of-jail card, or by doubles; after {tries} failed tries he pays "
                     "and moves by that roll", rules=rules.name,
                     fine=_money(st, rules.jail_fine), tries=rules.jail_max_attempts))
    if left is None:
        verdict = plural("{player} is still in jail after {n} failed try",
                         "{player} is still in jail after {n} failed tries", len(tries),
                         player=player)
    else:
        way = Fact(left["data"]["how"], "how")
        detail = ""
        if used is not None:
            detail = msg(" ({deck} {number}, back under its deck)", deck=used["data"]["deck"],
                         number=used["data"]["number"])
        elif fine is not None:
            detail = msg(" ({amount} at event {seq})", amount=_money(st, fine["data"]["amount"]),
                         seq=fine["seq"])
        elif way == "doubles":
            dice = next((y for y in log.batch(left["seq"]) if y["type"] == "DiceRolled"), None)
            if dice:
                detail = msg(" ({dice}, no extra roll)",
                             dice="+".join(map(str, dice["data"]["dice"])))
        moved = next((y for y in log.batch(left["seq"])
                      if y["type"] == "TokenMoved" and y["seq"] > left["seq"]), None)
        after = (msg(", then moved to {space}", space=_name(st, moved["data"]["to"])) if moved
                 else "")
        lines.append(msg("left at event {seq}: {way}{detail}{after}", seq=left["seq"], way=way,
                         detail=detail, after=after))
        verdict = plural("{player} left jail by {way} at event {seq}, after {n} failed try",
                         "{player} left jail by {way} at event {seq}, after {n} failed tries",
                         len(tries), player=player, way=way, seq=left["seq"])
    facts = {"player": player, "sent_seq": sent["seq"], "reason": sent["data"]["reason"],
             "tries": [{"seq": x["seq"], "attempt": x["data"]["attempt"],
                        "dice": dice["data"]["dice"] if dice else None} for x, dice in tries],
             "left_seq": left["seq"] if left else None,
             "how": left["data"]["how"] if left else None,
             "jail_fine": rules.jail_fine, "max_attempts": rules.jail_max_attempts}
    return Ruling("jail", seq, verdict, lines, R_JAIL, facts)


KINDS = {"rent": rent, "auction": auction, "bankruptcy": bankruptcy, "jail": jail}
