"""What every rule module shares: the events of one command, and the standard refusals."""

from __future__ import annotations

from .errors import RuleViolation
from .state import BANK, State, debt_step, evolve, next_step

R_TURN = "004 §Svolgimento del gioco"
R_DEBT = "003 §10"


class Tx:
    """Events of one command, each applied as it is emitted so later rules see its effect.
    `states`: the table after each of them (the audit checks every event against the table
    it leaves, and need not fold again what decide has folded)."""

    def __init__(self, state: State):
        self.state = state
        self.events: list[dict] = []
        self.states: list[State] = []

    def emit(self, type_: str, **data) -> None:
        event = {"type": type_, "data": data}
        self.state = evolve(self.state, event)
        self.events.append(event)
        self.states.append(self.state)


def money(state: State, amount: int) -> str:
    return state.edition.money(amount)


def check_turn(state: State, player: str | None, action: str) -> None:
    if player is not None and player != state.turn.player:
        raise RuleViolation(f"it is {state.turn.player}'s turn, not {player}'s, to {action}",
                            rule=R_TURN, allowed=f"{state.turn.player} may {action}")


def need_phase(state: State, phase: str, action: str) -> None:
    if state.turn.phase != phase:
        raise RuleViolation(f"cannot {action} now", rule=R_TURN, allowed=next_step(state))


def no_debts(state: State, action: str, who: str | None = None) -> None:
    for d in state.debts:
        if who is None or d.debtor == who:
            creditor = "the Bank" if d.creditor == BANK else d.creditor
            raise RuleViolation(
                f"cannot {action}: {d.debtor} owes {money(state, d.amount)} to {creditor} "
                f"({d.reason})", rule=R_DEBT, allowed=debt_step(state, d.debtor))


def check_active(state: State, name: str, role: str) -> None:
    if name not in state.index:
        raise RuleViolation(f"{name} is not at this table", allowed=", ".join(state.active()))
    if state.player(name).bankrupt:
        raise RuleViolation(f"{name} is bankrupt and out of the game; cannot {role}")


def pay(tx: Tx, type_: str, payer: str, payee: str, amount: int, reason: str, **extra) -> bool:
    """Move money, or record a debt when the payer's cash is short (003 §10)."""
    if amount <= 0:
        return True
    if payer != BANK and tx.state.player(payer).cash < amount:
        tx.emit("DebtIncurred", debtor=payer, creditor=payee, amount=amount, reason=reason)
        return False
    tx.emit(type_, payer=payer, payee=payee, amount=amount, reason=reason, **extra)
    return True
