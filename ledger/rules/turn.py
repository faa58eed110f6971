"""The roll and the jail: `roll`, the tries for doubles, `pay-fine` and `use-card` (004
§Stesso numero di punti su entrambi i dadi, §Prigione; 003 §01, §08)."""

from __future__ import annotations

from banco.ledger.base.errors import RuleViolation
from banco.ledger.base.numbers import check_dice
from banco.ledger.base.text import Fact, msg
from banco.ledger.board.rule_sets import cited
from banco.ledger.records import commands as c
from banco.ledger.records.reasons import reason
from banco.ledger.rules.card_effects import throw_for_rent
from banco.ledger.rules.claims import lapse_claims
from banco.ledger.rules.decision import Tx, check_turn, money, need_phase, no_debts, pay
from banco.ledger.rules.ending import no_new_turn
from banco.ledger.rules.movement import continue_turn, land, move_token
from banco.ledger.rules.registry import handles
from banco.ledger.rules.speedy import R_JAIL_ENDS, check_face, ignored_because, is_triple
from banco.ledger.table.speedy_die import bus_choices, face_value
from banco.ledger.table.state import BANK, debt_step, fine_owed, fine_reason, next_step

R_DOUBLES = "004 §Stesso numero di punti su entrambi i dadi; 003 §01"
R_JAIL = "004 §Prigione; 003 §08"
# After the last failed try a card stands for the fine, owed or not: "Sì. In questo modo puoi
# risparmiare il pagamento di 50 M" (000 FAQ 17); 004 §Prigione frees with a card bought from
# another player, 003 §08 with a card, as ways out beside the fine.
R_CARD_FOR_FINE = "000 FAQ 17; 004 §Prigione; 003 §08"
# The last try's move waits for every debt at the table, as a roll does: "pagare $50 prima di
# poter muovere" (004 §Prigione), and what is owed is raised before play goes on (003 §10).
R_MOVE_WAITS = "004 §Prigione; 003 §10"


# The words a refusal names its action by, made once: the commands an audit re-derives by
# the hundred thousand check them on every call, refused or not.
_ROLL = msg("roll")


@handles(c.Roll)
def _roll(tx: Tx, cmd: c.Roll) -> None:
    state = tx.state
    dice = tuple(cmd.dice)
    check_dice(dice)  # two dice, 1 to 6: a slip of the keyboard whatever the table waits for
    check_turn(state, cmd.player, _ROLL)
    if state.turn.phase == "throw":  # a card's fresh throw for a utility's rent
        return throw_for_rent(tx, cmd)
    need_phase(state, "roll", _ROLL)
    no_debts(state, _ROLL)
    no_new_turn(state)
    name = state.turn.player
    player = state.current
    check_face(state, player, cmd.speedy)
    # The Speedy die as thrown, and why it does not count when it does not (000 FAQ 34-35).
    speedy = {} if cmd.speedy is None else {"speedy": cmd.speedy}
    ignored = ignored_because(state, player, cmd.speedy)
    if ignored:
        speedy["speedy_ignored"] = ignored
    face = None if ignored else cmd.speedy
    doubles = dice[0] == dice[1]  # the numbered dice only (000 §SVOLGIMENTO 7)
    total = dice[0] + dice[1]
    lapse_claims(tx, name)
    if player.in_jail:
        _roll_in_jail(tx, name, dice, doubles, total, speedy)
        return
    in_row = state.turn.doubles + 1 if doubles else 0
    if in_row >= state.rules.doubles_to_jail:
        # A triple after two doubles is the third double too (000 FAQ 36): jail, and no Bus
        # or Mr Monopoly after it (000 §SVOLGIMENTO 8).
        if face is not None:
            speedy["speedy_ignored"] = reason("speedy_third_doubles", player=name, rule=R_JAIL_ENDS)
        tx.emit("DiceRolled", player=name, dice=list(dice), doubles=True, in_row=in_row,
                extra_roll=False, **speedy)
        tx.emit("SentToJail", player=name,
                reason=reason("third_doubles", n=in_row, rule=R_DOUBLES))
        continue_turn(tx)
        return
    if is_triple(dice, face):
        # Any space, and the turn ends there: no second roll for the doubles (000 FAQ 36).
        tx.emit("DiceRolled", player=name, dice=list(dice), doubles=True, in_row=in_row,
                extra_roll=False, **speedy)
        tx.emit("SpeedyMoveDue", player=name, move="triple", choices=[])
        return
    tx.emit("DiceRolled", player=name, dice=list(dice), doubles=doubles, in_row=in_row,
            extra_roll=doubles, **speedy)
    if face == "bus":  # one die or both: the table waits for `move N` (000 FAQ 38)
        tx.emit("SpeedyMoveDue", player=name, move="bus", choices=bus_choices(dice))
        return
    total += face_value(face)  # 1 2 3 are added; Mr Monopoly moves by the dice first
    land(tx, name, move_token(tx, name, (player.position + total) % 40, total, "dice", salary=True))
    continue_turn(tx)


def _roll_in_jail(tx: Tx, name: str, dice, doubles: bool, total: int, speedy: dict) -> None:
    state = tx.state
    player = state.player(name)
    if doubles:
        # 004 §Prigione: doubles free the player, who moves by that roll; 000 FAQ 16 (004 and
        # 003 silent): he does not roll again.
        tx.emit("DiceRolled", player=name, dice=list(dice), doubles=True, in_row=0,
                extra_roll=False, **speedy)
        tx.emit("LeftJail", player=name, how={"code": "doubles"})
    else:
        attempt = player.jail_turns + 1
        tx.emit("DiceRolled", player=name, dice=list(dice), doubles=False, in_row=0,
                extra_roll=False, **speedy)
        tx.emit("JailRollFailed", player=name, attempt=attempt)
        if attempt < state.rules.jail_max_attempts:
            continue_turn(tx)
            return
        if player.jail_cards:
            # 000 FAQ 17: a card may stand for the fine; the prisoner chooses, the table waits.
            tx.emit("JailExitDue", player=name, fine=state.rules.jail_fine, spaces=total)
            return
        fine = state.rules.jail_fine
        if state.rules.fine_before_move and player.cash < fine:
            # "pagare $50 prima di poter muovere" (004 §Prigione; 000 §PRIGIONE): short of it,
            # the fine is a debt to raise (003 §10) and the token waits in jail until it is
            # paid, or the player goes bankrupt; nothing met on the way can pay it.
            pay(tx, "FinePaid", name, BANK, fine, fine_reason(attempt))
            tx.emit("JailExitDue", player=name, fine=fine, spaces=total)
            return
        # 003 §08: after the third failed try, pay the fine and move by that roll.
        pay(tx, "FinePaid", name, BANK, fine, fine_reason(attempt))
        tx.emit("LeftJail", player=name, how={"code": "fine_after_last_try"})
    land(tx, name, move_token(tx, name, (player.position + total) % 40, total, "dice", salary=True))
    continue_turn(tx)


def leave_after_fine(tx: Tx, name: str) -> None:
    """The fine of the last try is paid (`pay-fine`, or `pay` of its debt): out of jail, and
    the token moves by that roll (004 §Prigione)."""
    tx.emit("LeftJail", player=name, how={"code": "fine_after_last_try"})
    _forced_out(tx, name)


def fine_in_wait(state):
    """The last try's fine, a debt, while the token waits for it (fine_owed), an auction
    opened in that wait included (a bankrupt's deeds, a debtor's deed: 002 §Varie)."""
    auction = state.auction
    if auction is None or auction.resume != "jail_exit":
        return fine_owed(state)
    return fine_owed(state._replace(turn=state.turn._replace(phase="jail_exit")))


def nothing_else_owed(state, action, fine=None) -> None:
    """The token of the last failed try moves only when no debt is owed at the table (but
    `fine`, the one being settled): as no roll is made while one is (decision.no_debts), or
    money met on the way could pay it (issue 32's note)."""
    for d in state.debts:
        if fine is None or d.seq != fine.seq:
            creditor = msg("the Bank") if d.creditor == BANK else d.creditor
            raise RuleViolation(
                "cannot {action}: {debtor} owes {amount} to {creditor} ({reason}), and "
                "{player}'s token leaves jail only once nothing else is owed", rule=R_MOVE_WAITS,
                allowed=debt_step(state, d.debtor), action=action, debtor=d.debtor,
                amount=money(state, d.amount), creditor=creditor, reason=Fact(d.reason),
                player=state.turn.player)


def _forced_out(tx: Tx, name: str) -> None:
    """After the choice of the last failed try (000 FAQ 17): move by that roll."""
    total = sum(tx.state.turn.dice[:2])
    position = tx.state.player(name).position
    land(tx, name, move_token(tx, name, (position + total) % 40, total, "dice", salary=True))
    continue_turn(tx)


def _jail_exit_check(tx: Tx, player: str | None, action: str):
    state = tx.state
    check_turn(state, player, action)
    if state.turn.phase != "jail_exit":
        need_phase(state, "roll", action)
    p = state.current
    if not p.in_jail:
        raise RuleViolation("{player} is not in jail", rule=cited(state.rules, "jail", R_JAIL), allowed=next_step(state),
                            player=p.name)
    return p


@handles(c.PayFine)
def _pay_fine(tx: Tx, cmd: c.PayFine) -> None:
    state = tx.state
    p = _jail_exit_check(tx, cmd.player, msg("pay the fine"))
    fine = state.rules.jail_fine
    if state.turn.phase == "jail_exit" and state.rules.fine_before_move:
        nothing_else_owed(state, msg("pay the fine"), fine_owed(state))
        _pay_the_last_fine(tx, p)
        return
    if state.turn.phase == "jail_exit":
        # How banco played it before issue 32, kept for the games it recorded (the rule set's
        # fine_before_move): short of cash, a debt, and the token moved at once.
        pay(tx, "FinePaid", p.name, BANK, fine, fine_reason(p.jail_turns))
        leave_after_fine(tx, p.name)
        return
    no_debts(state, msg("pay the fine"), p.name)
    if p.cash < fine:
        other = msg("`use-card`, or ") if p.jail_cards else ""
        raise RuleViolation("{player} has {cash}; the fine is {fine}",
                            rule=cited(state.rules, "jail", R_JAIL),
                            allowed=msg("{other}`roll D1 D2` to try for doubles", other=other),
                            player=p.name, cash=money(state, p.cash), fine=money(state, fine))
    tx.emit("FinePaid", payer=p.name, payee=BANK, amount=fine, reason=reason("jail_fine"))
    tx.emit("LeftJail", player=p.name, how={"code": "fine"})


def _pay_the_last_fine(tx: Tx, p) -> None:
    """`pay-fine` after the last failed try: the fine, or the debt it became, is paid before
    the token moves (004 §Prigione "pagare $50 prima di poter muovere", 000 §PRIGIONE)."""
    state = tx.state
    owed = fine_owed(state)
    if owed is None:
        if not pay(tx, "FinePaid", p.name, BANK, state.rules.jail_fine,
                   fine_reason(p.jail_turns)):
            return  # a debt now (003 §10): the token waits for it
    elif p.cash < owed.amount:
        no_debts(state, msg("pay the fine"), p.name)
    else:
        tx.emit("DebtPaid", payer=p.name, payee=BANK, amount=owed.amount, reason=owed.reason,
                debt_seq=owed.seq)
    leave_after_fine(tx, p.name)


@handles(c.UseCard)
def _use_card(tx: Tx, cmd: c.UseCard) -> None:
    state = tx.state
    p = _jail_exit_check(tx, cmd.player, msg("use a card"))
    if not p.jail_cards:
        fine = msg("`pay-fine`, or ") if p.cash >= state.rules.jail_fine else ""
        raise RuleViolation("{player} holds no get-out-of-jail card", rule=cited(state.rules, "jail", R_JAIL),
                            allowed=msg("{fine}`roll D1 D2` to try for doubles", fine=fine),
                            player=p.name)
    owed = fine_owed(state)
    if state.turn.phase == "jail_exit" and state.rules.fine_before_move:
        nothing_else_owed(state, msg("use a card"), owed)
    deck, number = p.jail_cards[0]
    tx.emit("JailCardUsed", player=p.name, deck=deck, number=number)
    # 003 §09: the card goes back to the bottom of its deck.
    if owed is not None:  # the fine a debt already: the card stands for it all the same
        tx.emit("DebtCancelled", debtor=p.name, creditor=BANK, amount=owed.amount,
                reason=reason("jail_card_for_fine", rule=R_CARD_FOR_FINE), debt_seq=owed.seq)
    if state.turn.phase == "jail_exit":
        tx.emit("LeftJail", player=p.name, how={"code": "card_after_last_try"})
        _forced_out(tx, p.name)
        return
    tx.emit("LeftJail", player=p.name, how={"code": "card"})
