"""Trades between players: `trade` (003 §06; 004 §Proprietà in vendita, §Note di gioco; 002
§Varie; 000 FAQ 31)."""

from __future__ import annotations

from banco.ledger.base.errors import RuleViolation
from banco.ledger.base.text import msg, plural, word
from banco.ledger.board.rule_sets import cited
from banco.ledger.records import commands as c
from banco.ledger.records.reasons import reason
from banco.ledger.rules.decision import Tx, check_active, money
from banco.ledger.rules.estate import R_FEE, R_GIFT, R_TRADE, group_of, name_of
from banco.ledger.rules.mortgages import receive_mortgaged
from banco.ledger.rules.registry import handles
from banco.ledger.table.state import State, turn_in_progress
from banco.ledger.table.worth import interest, lift_cost, mortgage_of


def _check_items(state: State, giver: str, items: c.Items) -> None:
    p = state.player(giver)
    for pos in items.properties:
        space = state.edition.space(pos)
        if state.owners[pos] != giver:
            owner = state.owners[pos]
            raise RuleViolation(msg("{giver} does not own {space} ({owner} does)", giver=giver,
                                    space=space.name, owner=owner) if owner else
                                msg("{giver} does not own {space}", giver=giver, space=space.name),
                                rule=cited(state.rules, "trade", R_TRADE), allowed=msg("only what the players hold now"))
        if space.kind == "street":
            built = [q for q in group_of(state, pos) if state.buildings[q]]
            if built:
                raise RuleViolation(
                    "{space}'s group has buildings: sell them to the Bank before trading",
                    rule=cited(state.rules, "trade", R_TRADE), allowed=msg("`sell {space} all` first", space=space.name),
                    space=space.name)
    if items.cash < 0:
        raise RuleViolation("cash in a trade is a whole positive amount")
    if items.cash > p.cash:
        raise RuleViolation("{giver} has {cash}, not {cash2}: no loans, no promises", rule=cited(state.rules, "loan", "003 §06"),
                            giver=giver, cash=money(state, p.cash), cash2=items.cash)
    if items.jail_cards > len(p.jail_cards):
        # the count agreeing with its noun (italian2), and a trade that is allowed (cliwords)
        allowed = (plural("the trade with at most {n} `jail-card` from {giver}",
                          "the trade with at most {n} `jail-card` from {giver}",
                          len(p.jail_cards), giver=giver) if p.jail_cards
                   else msg("the trade without `jail-card` from {giver}", giver=giver))
        raise RuleViolation(plural("{giver} holds {n} get-out-of-jail card",
                                   "{giver} holds {n} get-out-of-jail cards", len(p.jail_cards),
                                   giver=giver), rule=cited(state.rules, "trade", R_TRADE), allowed=allowed)
    if len(set(items.properties)) != len(items.properties):
        raise RuleViolation("a deed is named twice in the trade")


def _gives(items: c.Items) -> bool:
    return bool(items.properties or items.cash or items.jail_cards)


def _check_gift(state: State, cmd: c.Trade) -> None:
    """No gifts and no loans (003 §06, 004 Note di gioco, 002 Varie): money that comes back
    later, or a deed for nothing, is a loan or a gift whatever the players call it."""
    if _gives(cmd.a_gives) and _gives(cmd.b_gives):
        if state.rules.trades_cash_for_cash or any((
                cmd.a_gives.properties, cmd.a_gives.jail_cards, cmd.b_gives.properties,
                cmd.b_gives.jail_cards)):
            return
        # cash for cash sells nothing: the difference is a gift, the rest a loan returned
        raise RuleViolation(
            "{a} and {b} would swap cash for cash: players may not give or lend each other "
            "money; a trade's cash is the price of a deed or a get-out-of-jail card",
            rule=cited(state.rules, "gift", R_GIFT),
            allowed=msg("a deed or a get-out-of-jail card on one side: `trade {a} {b} --give "
                        "PROPERTY --get AMOUNT`", a=cmd.a, b=cmd.b),
            a=cmd.a, b=cmd.b)
    giver, taker = (cmd.a, cmd.b) if _gives(cmd.a_gives) else (cmd.b, cmd.a)
    items = cmd.a_gives if giver == cmd.a else cmd.b_gives
    what = [name_of(state, p) for p in items.properties]
    if items.cash:
        what.append(money(state, items.cash))
    if items.jail_cards:
        what.append(f"{items.jail_cards} get-out-of-jail card(s)")
    # the option as typed in the banker's language (`--ricevi`, `--dai`: cli/command_table.py)
    side = word("trade option", "--get") if giver == cmd.a else word("trade option", "--give")
    raise RuleViolation(
        "{giver} would give {items} and {taker} nothing: players may not give or lend each other anything; a trade has something on both sides", rule=cited(state.rules, "gift", R_GIFT),
        allowed=msg("{taker} gives something back: `trade {a} {b} ... {word} ITEM`", taker=taker, a=cmd.a, b=cmd.b, word=side),
        giver=giver, items=', '.join(what), taker=taker)


def _check_when_and_who(state: State, cmd: c.Trade) -> None:
    """000 FAQ 31: no trades once two players are left in a preliminary game; FAQ 26: during a
    turn (000 FAQ 11: from the roll to the end of what the square asks) a trade must involve
    the active player; between turns anyone may trade."""
    rules = state.rules
    if not rules.trades_two_left and not state.final and len(state.active()) == 2:
        raise RuleViolation("only two players are left: in a preliminary game they trade no "
                            "more", rule="000 FAQ 31",
                            allowed=msg("trades with two players left are for a final or semi-final "
                                    "(`new ... --final`)"))
    active = state.turn.player
    if (rules.trades_in_turn == "active_player" and turn_in_progress(state)
            and active not in (cmd.a, cmd.b)):
        raise RuleViolation("{active}'s turn is in progress: a trade made now must involve {active}", rule="000 FAQ 26",
                            allowed=msg("a trade with {active}; {a} and {b} may agree it once {active}'s turn is over", active=active, a=cmd.a, b=cmd.b),
                            active=active)


def _check_jail_card_price(state: State, cmd: c.Trade) -> None:
    """000 FAQ 21: a get-out-of-jail card sells for at most 50 M.  Checked where the price is
    plain: a side that gives only jail cards, for cash.  (A card swapped for a deed, or sold
    together with deeds, has no price of its own to check.)"""
    cap = state.rules.jail_card_max_price
    if not cap:
        return
    for seller, sold, paid in ((cmd.a, cmd.a_gives, cmd.b_gives), (cmd.b, cmd.b_gives, cmd.a_gives)):
        if sold.jail_cards and not sold.properties and not sold.cash:
            most = cap * sold.jail_cards
            if paid.cash > most:
                raise RuleViolation(
                    plural("{seller} sells {n} get-out-of-jail card for {cash}: at most {cap} each",
                           "{seller} sells {n} get-out-of-jail cards for {cash}: at most {cap} each",
                           sold.jail_cards, seller=seller, cash=money(state, paid.cash),
                           cap=money(state, cap)),
                    rule="000 FAQ 21", allowed=msg("a price of {most} or less", most=money(state, most)))


@handles(c.Trade)
def trade(tx: Tx, cmd: c.Trade) -> None:
    state = tx.state
    if cmd.a == cmd.b:
        raise RuleViolation("{a} cannot trade with themselves",
                            a=cmd.a)
    for n in (cmd.a, cmd.b):
        check_active(state, n, msg("trade"))
    if state.auction and state.auction.kind != "deed":
        raise RuleViolation("no trades during a building auction", rule="000 FAQ 25",
                            allowed=msg("after the hammer"))
    if not any((cmd.a_gives.properties, cmd.a_gives.cash, cmd.a_gives.jail_cards,
                cmd.b_gives.properties, cmd.b_gives.cash, cmd.b_gives.jail_cards)):
        raise RuleViolation("an empty trade records nothing",
                            allowed=msg("trade A B --give ITEM... --get ITEM..."))
    _check_when_and_who(state, cmd)  # whether any trade may be made now, before its items
    _check_items(state, cmd.a, cmd.a_gives)
    _check_items(state, cmd.b, cmd.b_gives)
    _check_gift(state, cmd)
    _check_jail_card_price(state, cmd)
    received = {cmd.b: cmd.a_gives.properties, cmd.a: cmd.b_gives.properties}
    every = set(cmd.a_gives.properties) | set(cmd.b_gives.properties)
    for pos in cmd.lift:
        if pos not in every or pos not in state.mortgaged:
            raise RuleViolation("--lift names {name}, which is not a mortgaged deed changing hands in this trade", rule=cited(state.rules, "fee", R_FEE),
                                name=name_of(state, pos))
    # The receiver must be able to pay the fees with his cash after the trade.
    for receiver, deeds in received.items():
        other = cmd.b if receiver == cmd.a else cmd.a
        gives = cmd.a_gives if receiver == cmd.a else cmd.b_gives
        gets = cmd.b_gives if receiver == cmd.a else cmd.a_gives
        after = state.player(receiver).cash - gives.cash + gets.cash
        fees = sum(lift_cost(state, p) if p in cmd.lift else
                   interest(state, mortgage_of(state, p))
                   for p in deeds if p in state.mortgaged)
        if fees > after:
            raise RuleViolation(
                "{receiver} could not pay the {fees} due on the mortgaged deeds received from {other} ({after} after the trade)", rule=cited(state.rules, "fee", R_FEE),
                receiver=receiver, fees=money(state, fees), other=other, after=money(state, after))
    a_cards = [list(x) for x in state.player(cmd.a).jail_cards[:cmd.a_gives.jail_cards]]
    b_cards = [list(x) for x in state.player(cmd.b).jail_cards[:cmd.b_gives.jail_cards]]
    transfers = []
    if cmd.a_gives.cash:
        transfers.append({"payer": cmd.a, "payee": cmd.b, "amount": cmd.a_gives.cash,
                          "reason": reason("trade", player=cmd.b)})
    if cmd.b_gives.cash:
        transfers.append({"payer": cmd.b, "payee": cmd.a, "amount": cmd.b_gives.cash,
                          "reason": reason("trade", player=cmd.a)})
    tx.emit("TradeCompleted", a=cmd.a, b=cmd.b,
            a_gives={"properties": list(cmd.a_gives.properties), "cash": cmd.a_gives.cash,
                     "jail_cards": a_cards},
            b_gives={"properties": list(cmd.b_gives.properties), "cash": cmd.b_gives.cash,
                     "jail_cards": b_cards},
            transfers=transfers)
    receive_mortgaged(tx, cmd.b, cmd.a_gives.properties, cmd.lift)
    receive_mortgaged(tx, cmd.a, cmd.b_gives.properties, cmd.lift)
