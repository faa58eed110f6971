"""A referee's ruling on a rent claim: was the rent due, claimed in time, paid, refused or
lapsed, and by whose roll the claim window closed.
"""

from __future__ import annotations

from banco.ledger.base.errors import UsageError
from banco.ledger.base.text import Fact, Joined, Text, msg
from banco.ledger.board.rule_sets import shown
from banco.ledger.records.verdicts import verdict
from banco.ledger.rules.claims import R_RENT as R_RENT_CLASSIC
from banco.ledger.rules.decision import debt_rule
from banco.ledger.table.state import State
from banco.projections.referee.moments import Moment, local_time
from banco.projections.referee.ruling_log import Log, Ruling, log_of, money, nearby, space_name

# The rules' own citation where decide does not cite it (one place to rename a heading)
R_RENT_TWO = "000 §PAGARE LA RENDITA; 000 FAQ 7-8"


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


def _ordinal(n: int) -> Text:
    return {1: msg("next"), 2: msg("second"), 3: msg("third")}.get(n) or msg("{n}th", n=n)



RENT_EVENTS = {"RentClaimOpened", "RentPaid", "RentClaimRefused", "RentClaimLapsed", "RentNotDue",
               "RentClaimDeferred"}
# What becomes of a claim: the only facts that carry its opened_seq and say so.
RENT_OUTCOMES = {"RentPaid", "RentClaimRefused", "RentClaimLapsed"}


def _claim_of(log: Log, seq: int) -> tuple[str, int]:
    """What a seq points at: ("claim", opened_seq), ("auto", RentPaid seq) or ("not due",
    RentNotDue seq)."""
    e = log.at(seq)
    t, d = e["type"], e["data"]
    if t == "RentClaimOpened":
        return "claim", seq
    if t in ("RentClaimRefused", "RentClaimLapsed", "RentClaimDeferred") or (
            t == "RentPaid" and d["opened_seq"]):
        return "claim", d["opened_seq"]
    if t == "RentPaid":
        return "auto", seq
    if t == "RentNotDue":
        return "not due", seq
    if t == "TokenMoved":
        # a landing: the move whose own rent fact follows it in its command (the same payer,
        # the same square). Any other event of that command (the dice, the turn's end, a later
        # move) is not a landing, even beside one: the ruling would be about another event
        for x in log.batch(seq):
            xd = x["data"]
            if (x["seq"] > seq and x["type"] in ("RentClaimOpened", "RentPaid", "RentNotDue")
                    and xd.get("payer") == d["player"] and xd.get("property") == d["to"]):
                return _claim_of(log, x["seq"])
    if t == "DebtIncurred" and d["reason"].get("code") == "rent":
        # a rent owed as a debt: its claim's outcome, recorded beside it
        for x in log.batch(seq):
            if (x["type"] in RENT_OUTCOMES and x["data"].get("payer") == d["debtor"]
                    and x["data"].get("property") == d["reason"].get("space")):
                return _claim_of(log, x["seq"])
    raise UsageError(
        "event {seq} ({turn}) is not a landing on another player's deed nor a rent claim: `ruling rent` takes the seq of a landing on another player's deed, or of a rent claim opened, deferred, paid, refused or lapsed, a rent owed as a debt, or a rent not due ({nearby})",
        seq=seq, turn=t, nearby=nearby(log, RENT_EVENTS, seq))


def rent(events: list[dict] | Log, seq: int, claim_at: Moment | None = None,
         game_id: int | None = None) -> Ruling:
    log = log_of(events, game_id)
    what, at = _claim_of(log, seq)
    if what != "claim":
        return _rent_without_claim(log, seq, what, at)
    c = log.at(at)
    d = c["data"]
    st = log.table(at)
    rules = st.rules
    payer, owner, prop, amount = d["payer"], d["owner"], d["property"], d["amount"]
    place = space_name(st, prop)
    lines = [msg("rent ruling on event {seq} (rules {rules}, edition {edition})", seq=seq,
                 rules=shown(rules), edition=st.edition.name)]
    lines.append(msg("owed: {payer} owed {owner} {amount} for a stay on {space} ({basis})",
                     payer=payer, owner=owner, amount=money(st, amount), space=place,
                     basis=Fact(d["basis"], "basis", edition=st.edition)))
    batch = log.batch(at)
    landing = [x for x in batch if x["type"] == "TokenMoved" and x["seq"] < at
               and x["data"]["player"] == payer]
    dice = [x for x in batch if x["type"] in ("DiceRolled", "CardDrawn") and x["seq"] < at]
    how = ""
    if dice and dice[-1]["type"] == "DiceRolled":
        rolled = dice[-1]["data"]
        shown_dice = "+".join(map(str, rolled["dice"]))
        if "speedy" in rolled:  # the Speedy die moves the token too (its face as typed)
            face = {"mr": msg("Mr Monopoly"), "bus": msg("the Bus")}.get(rolled["speedy"],
                                                                           rolled["speedy"])
            shown_dice = msg("{dice}, Speedy die {face}", dice=shown_dice, face=face)
        how = msg("{payer} rolled {dice} at event {seq} and ", payer=payer, dice=shown_dice,
                  seq=dice[-1]["seq"])
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
                     "do not close it): {chain}", rules=shown(rules), ordinal=_ordinal(window),
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
    paid = lapsed = deferred = None
    closed_at = None
    for x in log.effective(RENT_OUTCOMES | {"RentClaimDeferred"}, after=at):
        xd = x["data"]
        if xd.get("opened_seq") != at:
            continue
        said = log.line(x["seq"])
        said = f" (`{said}`)" if said else ""
        if x["type"] == "RentClaimDeferred":
            # 000 FAQ 8: asked while another player's dice were on the table, the rent is
            # paid once that turn is over; the payment that follows is the settling
            deferred = x
            facts["deferred_seq"] = x["seq"]
            lines.append(msg("claimed: {owner} asked at event {seq}{said}, while {player}'s "
                             "turn was in progress: paid when that turn is over ({rule})",
                             owner=owner, seq=x["seq"], said=said, player=xd["settles_after"],
                             rule=xd.get("rule") or "000 FAQ 8"))
        elif x["type"] == "RentPaid" and deferred is not None:
            paid = x
            lines.append(msg("settled: {payer} paid {amount} at event {seq}{said}, "
                             "{player}'s turn over", payer=payer, amount=money(st, xd["amount"]),
                             seq=x["seq"], said=said,
                             player=deferred["data"]["settles_after"]))
        elif x["type"] == "RentPaid":
            paid = x
            lines.append(msg("claimed: {owner} asked at event {seq}{said} and {payer} paid "
                             "{amount}", owner=owner, seq=x["seq"], said=said, payer=payer,
                             amount=money(st, xd["amount"])))
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
                if deferred is not None:  # the settling of a deferred claim (000 FAQ 8)
                    lines.append(msg("settled: at event {seq}{said}, {player}'s turn over, "
                                     "{payer} could not pay in cash: a debt from event {debt}",
                                     seq=x["seq"], said=said, payer=payer,
                                     player=deferred["data"]["settles_after"],
                                     debt=debt["seq"] if debt else x["seq"]))
                    continue
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
        outcome = verdict("rent_taken_back",
                          seq=facts["taken_back_by"])
    elif paid is not None:
        facts["paid_seq"] = paid["seq"]
        outcome = verdict("rent_paid", payer=payer,
                      owner=owner, amount=money(st, amount), seq=paid["seq"])
    elif lapsed is not None and lapsed["data"]["closed_by"] == "debt":
        outcome = verdict("rent_debt",
                      payer=payer, seq=facts.get("debt_seq") or lapsed["seq"],
                      rule=debt_rule(st))
    elif lapsed is not None and lapsed["data"]["closed_by"] == "bankruptcy":
        outcome = verdict("rent_bankruptcy",
                      seq=lapsed["seq"])
    elif lapsed is not None:
        by = lapsed["data"]["closed_by"]
        if facts["late_claims"]:
            outcome = verdict("rent_refused",
                          player=by, seq=lapsed["seq"], late=facts["late_claims"][0],
                          owner=owner)
        else:
            outcome = verdict("rent_lapsed", owner=owner, player=by, seq=lapsed["seq"])
    else:
        outcome = verdict("rent_open", owner=owner,
                      amount=money(st, amount), closer=closer)
        lines.append(msg("open: nobody has claimed it and {closer} has not rolled yet",
                         closer=closer))
    facts["outcome"] = outcome
    ruled = outcome
    if claim_at is not None:
        m = log.seq_at(claim_at)
        facts["claim_at"] = m
        when = (verdict("after_event", seq=m) if claim_at.seq is not None
                else verdict("at_time", time=claim_at.text, seq=m))
        answer = _claim_verdict(m, at, landed, closed_at, paid, lapsed, closer, facts)
        facts["claim_at_verdict"] = answer
        # the rent as the log stands is evidence here, not a second verdict: the verdict is
        # the answer to the question asked (a claim at that moment), and what --record records
        lines.append(msg("as the log stands: {outcome}", outcome=outcome))
        ruled = verdict("claim_at", when=when, answer=answer)
    rule = claim_rule(rules)
    if lapsed is not None and lapsed["data"]["closed_by"] == "debt":
        rule = f"{rule}; {debt_rule(st)}"
    return Ruling("rent", seq, ruled, lines, rule, facts)


def _claim_verdict(m, opened, landed, closed_at, paid, lapsed, closer, facts) -> Text:
    if facts["taken_back_by"]:
        return verdict("claim_taken_back")
    if m < opened:
        if m >= landed:  # after the landing's event, within its command: not yet recorded
            return verdict("claim_early_batch", landed=landed, seq=opened)
        return verdict("claim_early", seq=landed)
    if paid is not None and m >= paid["seq"]:
        return verdict("claim_after_paid",
                   seq=paid["seq"])
    if lapsed is not None and m >= lapsed["seq"] and lapsed["data"]["closed_by"] == "debt":
        return verdict("claim_after_debt", seq=lapsed["seq"])
    if lapsed is not None and m >= lapsed["seq"] and lapsed["data"]["closed_by"] == "bankruptcy":
        return verdict("claim_after_bankruptcy", seq=lapsed["seq"])
    if closed_at is not None and m >= closed_at:
        return verdict("claim_too_late", player=lapsed["data"]["closed_by"], seq=closed_at)
    until = (verdict("until_roll_at", closer=closer, seq=closed_at) if closed_at
             else verdict("until_roll", closer=closer))
    return verdict("claim_in_time", seq=opened, until=until)


def _rent_without_claim(log: Log, seq: int, what: str, at: int) -> Ruling:
    e = log.at(at)
    d = e["data"]
    st = log.table(at)
    place = space_name(st, d["property"])
    lines = [msg("rent ruling on event {seq} (rules {rules})", seq=seq, rules=shown(st.rules))]
    if what == "auto":
        lines.append(msg("{payer} paid {payee} {amount} on {space} at event {at}: the {rules} "
                         "rules collect rent at the landing (rent = \"auto\"), so there is no "
                         "claim to make or to lose", payer=d["payer"], payee=d["payee"],
                         amount=money(st, d["amount"]), space=place, at=at,
                         rules=shown(st.rules)))
        ruled = verdict("rent_auto",
                      amount=money(st, d["amount"]))
    else:
        lines.append(msg("{payer} stopped on {space}, {owner}'s, at event {at}: {reason}",
                         payer=d["payer"], space=place, owner=d["owner"], at=at,
                         reason=Fact(d["reason"], edition=st.edition)))
        ruled = verdict("rent_not_due")
    return Ruling("rent", seq, ruled, lines, claim_rule(st.rules),
                  {"payer": d["payer"], "property": place, "event": at, "kind": what})
