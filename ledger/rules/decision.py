"""What every rule module shares: the events of one command, and the standard refusals."""

from __future__ import annotations

from banco.ledger.base.errors import RuleViolation
from banco.ledger.base.text import Fact, msg
from banco.ledger.table.state import BANK, HANDLERS, State, debt_step, next_step, with_seq

R_TURN = "004 §Svolgimento del gioco"
R_DEBT = "003 §10"


def turn_rule(state: State) -> str:
    """Where the order of a turn is written: the rule set's own rulebook (the championship's
    000 §SVOLGIMENTO DEL GIOCO), else the classic rules'."""
    from banco.ledger.board.rule_sets import cited

    return cited(state.rules, "turn", R_TURN)


def debt_rule(state: State) -> str:
    """Where a debt that waits to be paid is written: the rule set's own rulebook (000
    §SVOLGIMENTO 5), else the classic rules' (003 §10)."""
    from banco.ledger.board.rule_sets import cited

    return cited(state.rules, "debt", R_DEBT)


class Tx:
    """Events of one command, each applied as it is emitted so later rules see its effect.
    `states`: the table after each of them (the audit checks every event against the table
    it leaves, and need not fold again what decide has folded).

    `seq` is the last event's seq.  The table's own `seq` field is set only when asked
    (`done`), not after every event: the fold's handlers are given each event's seq, no rule
    reads the field (a rule asks `tx.seq`), and decide_tx's callers read it on no table
    (about 3% of the audit when it was set after every event, 0.8% once a command)."""

    def __init__(self, state: State, seq: int | None = None):
        self.state = state
        self.seq = state.seq if seq is None else seq
        self.events: list[dict] = []
        self.states: list[State] = []

    def emit(self, type_: str, **data) -> None:
        # evolve(state, event), inlined: the event has no seq yet, it is the next one
        self.seq = seq = self.seq + 1
        self.state = state = HANDLERS[type_](self.state, data, seq)
        self.events.append({"type": type_, "data": data})
        self.states.append(state)

    def done(self) -> State:
        """The table after the command, its seq the last event's (the last of `states` too)."""
        if self.state.seq != self.seq:
            self.state = with_seq(self.state, self.seq)
            if self.states:
                self.states[-1] = self.state
        return self.state


def money(state: State, amount: int) -> str:
    return state.edition.money(amount)


def check_turn(state: State, player: str | None, action: str) -> None:
    if player is not None and player != state.turn.player:
        raise RuleViolation("it is {player}'s turn, not {player2}'s, to {action}",
                            rule=turn_rule(state), allowed=next_step(state),
                            player=state.turn.player, player2=player, action=action)


def need_phase(state: State, phase: str, action: str) -> None:
    if state.turn.phase != phase:
        raise RuleViolation("cannot {action} now", rule=turn_rule(state), allowed=next_step(state),
                            action=action)


def no_debts(state: State, action: str, who: str | None = None) -> None:
    for d in state.debts:
        if who is None or d.debtor == who:
            creditor = msg("the Bank") if d.creditor == BANK else d.creditor
            raise RuleViolation(
                "cannot {action}: {debtor} owes {amount} to {creditor} ({reason})", rule=debt_rule(state), allowed=debt_step(state, d.debtor),
                action=action, debtor=d.debtor, amount=money(state, d.amount), creditor=creditor,
                reason=Fact(d.reason, edition=state.edition))


def check_active(state: State, name: str, role: str) -> None:
    if name not in state.index:
        raise RuleViolation("{name} is not at this table", allowed=", ".join(state.active()),
                            name=name)
    if state.player(name).bankrupt:
        raise RuleViolation("{name} is bankrupt and out of the game; cannot {role}",
                            allowed=next_step(state), name=name, role=role)


def pay(tx: Tx, type_: str, payer: str, payee: str, amount: int, reason: str, **extra) -> bool:
    """Move money, or record a debt when the payer's cash is short (003 §10)."""
    if amount <= 0:
        return True
    if payer != BANK and tx.state.player(payer).cash < amount:
        tx.emit("DebtIncurred", debtor=payer, creditor=payee, amount=amount, reason=reason)
        return False
    tx.emit(type_, payer=payer, payee=payee, amount=amount, reason=reason, **extra)
    return True
