"""A referee's ruling on a stay in jail: how the player got there, the tries, and how he left."""

from __future__ import annotations

from banco.ledger.base.errors import UsageError
from banco.ledger.base.text import Fact, Joined, msg
from banco.ledger.board.rule_sets import cited
from banco.ledger.board.rule_sets import shown as shown_rules
from banco.ledger.records.verdicts import verdict
from banco.ledger.rules.decision import debt_rule
from banco.ledger.rules.turn import R_JAIL
from banco.projections.referee.ruling_log import Log, Ruling, log_of, money, nearby, space_name

JAIL_EVENTS = {"SentToJail", "JailRollFailed", "LeftJail", "JailCardUsed", "FinePaid"}
# What a stay is made of, and what ends one.
JAIL_STAY = JAIL_EVENTS | {"BankruptcyDeclared", "DebtPaid"}


def jail(events: list[dict] | Log, seq: int, game_id: int | None = None) -> Ruling:
    log = log_of(events, game_id)
    e = log.at(seq)
    player = e["data"].get("player") or e["data"].get("payer")
    if e["type"] not in JAIL_EVENTS:
        hit = next((x for x in log.batch(seq) if x["type"] in JAIL_EVENTS), None)
        if hit is None:
            raise UsageError("event {seq} ({type}) has nothing to do with jail: `ruling jail` takes the seq of a player sent to jail, a failed try or a way out ({nearby})",
                             seq=seq, type=e['type'], nearby=nearby(log, {'SentToJail'}, seq))
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
                 rules=shown_rules(rules), player=player)]
    cause = [x for x in log.batch(sent["seq"]) if x["seq"] < sent["seq"]]
    rolled = [x for x in cause if x["type"] == "DiceRolled"]
    card = [x for x in cause if x["type"] == "CardDrawn"]
    how = Fact(sent["data"]["reason"], edition=st.edition)
    if card:  # the card's words are the edition's (a fact holds its deck and number)
        drawn = card[-1]["data"]
        text = st.edition.decks[drawn["deck"]].cards[drawn["number"] - 1].text
        how = Joined([how, msg(" (drawn at event {seq}: {text})", seq=card[-1]["seq"],
                               text=text)], "")
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
        elif x["type"] == "FinePaid" or (x["type"] == "DebtPaid" and _a_jail_fine(d)):
            fine = x  # paid at once, or the debt it became paid before the move (004 §Prigione)
        elif x["type"] == "JailCardUsed":
            used = x
        elif x["type"] == "LeftJail":
            left = x
            break
        elif x["type"] in ("SentToJail", "BankruptcyDeclared"):
            break
    for x, dice in tries:
        shown = "+".join(map(str, dice["data"]["dice"])) if dice else "?"
        # the last allowed try does not stay: the fine is paid and the roll moves him (003 §08)
        last = x["data"]["attempt"] >= rules.jail_max_attempts
        said = dict(attempt=x["data"]["attempt"], dice=shown,
                    seq=dice["seq"] if dice else x["seq"])
        lines.append(msg("try {attempt}: rolled {dice} at event {seq}: no doubles, the last try: "
                         "the fine, then that roll moves the player", **said) if last else
                     msg("try {attempt}: rolled {dice} at event {seq}: no doubles, stays",
                         **said))
    # what the last failed try costs: the fine, a debt when the cash is short (the rule set's
    # debt section), or a get-out-of-jail card in its place (000 FAQ 17); then that roll moves
    # the player either way
    if rules.fine_before_move:
        lines.append(msg("the {rules} rules: out by paying {fine} before rolling, by a "
                         "get-out-of-jail card, or by doubles; after {tries} failed tries the "
                         "player pays the fine before moving by that roll ({jail_rule}; short "
                         "of cash, a debt settled first, {debt_rule}) or gives a "
                         "get-out-of-jail card instead (000 FAQ 17)",
                         rules=shown_rules(rules), fine=money(st, rules.jail_fine),
                         tries=rules.jail_max_attempts, debt_rule=debt_rule(st),
                         jail_rule=cited(rules, "jail", R_JAIL)))
    else:  # a game recorded before issue 32: the token moved with the fine a debt
        lines.append(msg("the {rules} rules: out by paying {fine} before rolling, by a "
                         "get-out-of-jail card, or by doubles; after {tries} failed tries the player pays "
                         "the fine (a debt if the cash is short, {debt_rule}) or gives a "
                         "get-out-of-jail card instead (000 FAQ 17), and moves by that roll",
                         rules=shown_rules(rules), fine=money(st, rules.jail_fine),
                         tries=rules.jail_max_attempts, debt_rule=debt_rule(st)))
    if left is None:
        ruled = verdict("jail_still", n=len(tries), player=player)
    else:
        way = Fact(left["data"]["how"], "how")
        detail = ""
        if used is not None:
            detail = msg(" ({deck} {number}, back under its deck)", deck=used["data"]["deck"],
                         number=used["data"]["number"])
        elif fine is not None:
            detail = msg(" ({amount} at event {seq})", amount=money(st, fine["data"]["amount"]),
                         seq=fine["seq"])
        elif left["data"]["how"].get("code") == "doubles":
            dice = next((y for y in log.batch(left["seq"]) if y["type"] == "DiceRolled"), None)
            if dice:
                detail = msg(" ({dice}, no extra roll)",
                             dice="+".join(map(str, dice["data"]["dice"])))
        moved = next((y for y in log.batch(left["seq"])
                      if y["type"] == "TokenMoved" and y["seq"] > left["seq"]), None)
        after = (msg(", then moved to {space}", space=space_name(st, moved["data"]["to"])) if moved
                 else "")
        lines.append(msg("left at event {seq}: {way}{detail}{after}", seq=left["seq"], way=way,
                         detail=detail, after=after))
        ruled = verdict("jail_left", n=len(tries), player=player, way=way, seq=left["seq"])
    facts = {"player": player, "sent_seq": sent["seq"], "reason": sent["data"]["reason"],
             "tries": [{"seq": x["seq"], "attempt": x["data"]["attempt"],
                        "dice": dice["data"]["dice"] if dice else None} for x, dice in tries],
             "left_seq": left["seq"] if left else None,
             "how": left["data"]["how"] if left else None,
             "jail_fine": rules.jail_fine, "max_attempts": rules.jail_max_attempts}
    return Ruling("jail", seq, ruled, lines, cited(rules, "jail", R_JAIL), facts)


def _a_jail_fine(d: dict) -> bool:
    """A debt paid for the jail fine: its reason's code (an older row's sentence, as read)."""
    why = d.get("reason")
    code = why.get("code", "") if isinstance(why, dict) else str(why or "")
    return code.startswith(("jail_fine", "jail fine"))
