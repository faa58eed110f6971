"""A referee's ruling on a bankruptcy: what was owed, what could have been raised, and where
the estate went.
"""

from __future__ import annotations

from banco.ledger.base.errors import UsageError
from banco.ledger.base.text import Fact, Joined, Text, msg, plural
from banco.ledger.board.rule_sets import cited, shown
from banco.ledger.records.verdicts import verdict
from banco.ledger.rules.estate import R_BANKRUPT
from banco.ledger.table.state import BANK
from banco.ledger.table.worth import building_sale_value, deeds_of
from banco.projections.referee.ruling_log import (
    Log,
    Ruling,
    estate_rule,
    log_of,
    money,
    nearby,
    space_name,
)

# The rules' own citations where decide does not cite them (one place to rename a heading)
R_TURN_START = "000 FAQ 32"
R_FEE = "000 FAQ 33"
R_LIFTED = "004 §Fallimento"  # a mortgaged deed received from a bankrupt, freed at once
# The RuleSet field a rule set sets to hand a bankrupt's deeds over as they were when his turn
# began (000 FAQ 32, championship).  Read if the rule set has it; absent means "as they stand".
START_OF_TURN_FIELD = "bankruptcy_start_of_turn"


def _who(name: str) -> Text | str:
    return verdict("the_bank") if name == BANK else name


BANKRUPTCY_EVENTS = {"BankruptcyDeclared", "EstateTransferred", "DebtCancelled", "BuildingsSold"}


def _turn_start(log: Log, seq: int, player: str) -> int:
    """The seq at which `player`'s turn in progress at event `seq` began (the TurnEnded that
    passed him the dice, or the game's start)."""
    passed = log.last_effective({"TurnEnded"}, seq, lambda e: e["data"]["next"] == player)
    return log._start() if passed is None else passed["seq"]


def bankruptcy(events: list[dict] | Log, seq: int, game_id: int | None = None) -> Ruling:
    log = log_of(events, game_id)
    e = log.at(seq)
    declared = None
    if e["type"] == "BankruptcyDeclared":
        declared = e
    else:
        declared = next((x for x in log.batch(seq) if x["type"] == "BankruptcyDeclared"), None)
        if declared is None and e["type"] == "DebtIncurred":
            declared = next((x for x in log.effective({"BankruptcyDeclared"}, after=seq)
                             if x["data"]["player"] == e["data"]["debtor"]), None)
            # the debtor's next bankruptcy is this debt's only if it was still owed then: a
            # debt paid meanwhile led to none (a later one is another debt's)
            if declared is not None and not any(
                    dd.seq == seq for dd in log.before(declared["seq"]).debts):
                d = e["data"]
                raise UsageError("event {seq}'s debt ({debtor} owed {creditor} {amount}) was settled before {debtor} went bankrupt at event {declared}: it led to no bankruptcy; `ruling bankruptcy {declared}` rules on that one",
                                 seq=seq, debtor=d["debtor"], creditor=_who(d["creditor"]),
                                 amount=money(log.before(seq), d["amount"]),
                                 declared=declared["seq"])
    if declared is None:
        raise UsageError("event {seq} ({type}) is not part of a bankruptcy: `ruling bankruptcy` takes the seq of a bankruptcy, the estate handed over, or the debt that led to it ({nearby})",
                         seq=seq, type=e['type'], nearby=nearby(log, {'BankruptcyDeclared'}, seq))
    name, creditor = declared["data"]["player"], declared["data"]["creditor"]
    before = log.before(declared["seq"])
    st = before
    rules = st.rules
    fee = cited(rules, "fee", R_FEE)  # 10% on a mortgaged deed received (000 FAQ 33)
    lines = [msg("bankruptcy ruling on event {seq} (rules {rules}): {player}, bankrupt to "
                 "{creditor} at event {declared}{taken_back}", seq=seq, rules=shown(rules),
                 player=name, creditor=_who(creditor), declared=declared["seq"],
                 taken_back=log.taken_back(declared["seq"]))]
    debts = [dd for dd in before.debts if dd.debtor == name]
    owed = sum(dd.amount for dd in debts)
    for dd in debts:
        lines.append(msg("debt: {amount} to {creditor} from event {seq} ({reason})",
                         amount=money(st, dd.amount), creditor=_who(dd.creditor), seq=dd.seq,
                         reason=Fact(dd.reason, edition=st.edition)))
    p = before.player(name)
    # each part as words and as data (what kind of part, its square): a recorded ruling
    # keeps the data, never the words
    parts = [(msg("cash"), p.cash)]
    sources: list[dict] = [{"kind": "cash"}]
    for pos in deeds_of(before, name):
        sale = building_sale_value(before, pos)
        if sale:
            parts.append((msg("buildings on {space} at half price", space=space_name(st, pos)),
                          sale))
            sources.append({"kind": "buildings", "property": pos})
        if pos not in before.mortgaged:
            parts.append((msg("mortgage of {space}", space=space_name(st, pos)),
                          st.edition.space(pos).mortgage))
            sources.append({"kind": "mortgage", "property": pos})
    can = sum(v for _, v in parts)
    lines.append(msg("valuation before the bankruptcy: {player} could raise {amount} = {parts}",
                     player=name, amount=money(st, can),
                     parts=Joined([msg("{amount} ({what})", amount=v, what=k)
                                   for k, v in parts if v or k == "cash"], " + ")))
    unavoidable = can < owed
    lines.append(msg("owed {owed}, could raise {can}: bankruptcy was unavoidable",
                     owed=money(st, owed), can=money(st, can)) if unavoidable else
                 msg("owed {owed}, could raise {can}: NOT unavoidable: the debts could have "
                     "been raised", owed=money(st, owed), can=money(st, can)))
    batch = [x for x in log.batch(declared["seq"]) if x["seq"] not in log.gone]
    passed = []
    for x in batch:
        t, d = x["type"], x["data"]
        if t == "BuildingsSold":
            passed.append(msg("event {seq}: buildings back to the Bank for {amount} ({reason})",
                              seq=x["seq"], amount=money(st, d["amount"]),
                              reason=Fact(d["reason"], edition=st.edition)))
        elif t == "EstateTransferred":
            deeds = Joined([msg("{space} (mortgaged)", space=space_name(st, pos))
                            if pos in before.mortgaged else space_name(st, pos)
                            for pos in d["properties"]], ", ") or msg("no deeds")
            cards = (plural(", {n} get-out-of-jail card", ", {n} get-out-of-jail cards",
                            len(d["jail_cards"]))
                     if d["jail_cards"] else "")
            passed.append(msg("event {seq}: to {creditor}: {amount} in cash, {deeds}{cards}",
                              seq=x["seq"], creditor=_who(d["creditor"]),
                              amount=money(st, d["amount"]), deeds=deeds, cards=cards))
        elif t == "DebtCancelled":
            passed.append(msg("event {seq}: {debtor}'s debt of {amount} to {player} cancelled "
                              "({reason})", seq=x["seq"], debtor=d["debtor"],
                              amount=money(st, d["amount"]), player=_who(d["creditor"]),
                              reason=Fact(d["reason"], edition=st.edition)))
        elif t == "RentClaimLapsed":
            passed.append(msg("event {seq}: the open rent claim of {owner} on {payer} ended",
                              seq=x["seq"], owner=d["owner"], payer=d["payer"]))
        elif t == "MortgageInterestPaid":
            passed.append(msg("event {seq}: {payer} pays the Bank {amount}, 10% on receiving "
                              "mortgaged {space} ({rule})", seq=x["seq"], payer=d["payer"],
                              amount=money(st, d["amount"]),
                              space=space_name(st, d["property"]), rule=fee))
        elif t == "MortgageLifted":
            passed.append(msg("event {seq}: {payer} pays the Bank {amount} to free mortgaged "
                              "{space} at once, the mortgage + 10% ({rule})",
                              seq=x["seq"], payer=d["payer"], amount=money(st, d["amount"]),
                              space=space_name(st, d["property"]),
                              rule=cited(rules, "fee", R_LIFTED)))
        elif t == "DebtIncurred":
            passed.append(msg("event {seq}: {debtor} owes {amount} to {creditor} ({reason}, "
                              "{rule})", seq=x["seq"], debtor=d["debtor"],
                              amount=money(st, d["amount"]), creditor=_who(d["creditor"]),
                              reason=Fact(d["reason"], edition=st.edition), rule=fee))
        elif t == "AuctionOpened":
            passed.append(msg("event {seq}: the Bank auctions the deeds one by one, first "
                              "{space} ({rule})", seq=x["seq"],
                              space=space_name(st, d["property"]), rule=estate_rule(rules)))
        elif t == "GameEnded":
            passed.append(msg("event {seq}: game over, {player} wins", seq=x["seq"],
                              player=d["winner"]))
    lines.extend(msg("passed: {what}", what=s) for s in passed)
    rule = [cited(rules, "bankrupt", R_BANKRUPT)]
    if estate_rule(rules) not in rule[0]:  # where the deeds went (002 §Fallimento)
        rule.append(estate_rule(rules))
    if any(x["type"] in ("MortgageInterestPaid",) for x in batch) or \
            any(x["type"] == "DebtIncurred" for x in batch):
        rule.append(fee)
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
                        cash=money(st, at_start.player(name).cash),
                        mortgaged=sum(1 for q in deeds_of(at_start, name)
                                      if q in at_start.mortgaged)))
    if mortgaged_since:
        lines.append(msg("mortgaged during that turn: {deeds}", deeds=Joined(
            [msg("{space} (event {seq})", space=space_name(st, x["data"]["property"]), seq=x["seq"])
             for x in mortgaged_since], ", ")))
    if start_rule and his_turn and creditor != BANK:
        rule.append(R_TURN_START)
        lines.append(msg("the {rules} rules hand the deeds over as they were when the turn "
                         "began ({rule}): the deeds mortgaged during the turn pass unmortgaged",
                         rules=shown(rules), rule=R_TURN_START) if mortgaged_since else
                     msg("the {rules} rules hand the deeds over as they were when the turn "
                         "began ({rule}): nothing was mortgaged during the turn, so nothing "
                         "changes", rules=shown(rules), rule=R_TURN_START))
    elif start_rule:
        lines.append(msg("the start-of-turn rule ({rule}) applies to a bankruptcy to a player "
                         "during the debtor's own turn: not this one", rule=R_TURN_START))
    else:
        lines.append(msg("the {rules} rules hand the estate over as it stands (the "
                         "championship's start-of-turn rule, {rule}, is not part of them)",
                         rules=shown(rules), rule=R_TURN_START))
    ruled = (verdict("bankrupt", player=name, creditor=_who(creditor), owed=money(st, owed),
                     can=money(st, can)) if unavoidable else
             verdict("bankrupt_avoidable", player=name, creditor=_who(creditor),
                     can=money(st, can), owed=money(st, owed)))
    facts = {"player": name, "creditor": creditor, "declared_seq": declared["seq"],
             "debts": [{"seq": dd.seq, "creditor": dd.creditor, "amount": dd.amount,
                        "reason": dd.reason} for dd in debts],
             "owed": owed, "could_raise": can, "valuation": [{"what": k, **source, "amount": v}
                                                             for (k, v), source
                                                             in zip(parts, sources, strict=True)],
             "unavoidable": unavoidable, "passed": passed, "turn_start_seq": start,
             "mortgaged_during_turn": [x["seq"] for x in mortgaged_since],
             "start_of_turn_rule": start_rule}
    return Ruling("bankruptcy", seq, ruled, lines, "; ".join(rule), facts)
