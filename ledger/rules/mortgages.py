"""Mortgages: `mortgage`, `unmortgage`, and the 10% due on a mortgaged deed received (004
§Impegno; 003 §07; 000 FAQ 33)."""

from __future__ import annotations

from banco.ledger.base.errors import RuleViolation
from banco.ledger.base.text import Joined, Text, msg, word
from banco.ledger.board.rule_sets import cited
from banco.ledger.records import commands as c
from banco.ledger.records.reasons import reason
from banco.ledger.rules.decision import Tx, money, no_debts, pay
from banco.ledger.rules.estate import R_MORTGAGE, group_of, name_of, owner_of
from banco.ledger.rules.registry import handles
from banco.ledger.table.state import BANK, State, next_step
from banco.ledger.table.worth import interest, lift_cost, mortgage_of


@handles(c.Mortgage)
def mortgage(tx: Tx, cmd: c.Mortgage) -> None:
    state = tx.state
    pos = cmd.property
    owner = owner_of(state, pos, cmd.player, word("owner's act", "mortgage"))
    space = state.edition.space(pos)
    if pos in state.mortgaged:
        raise RuleViolation("{space} is already mortgaged", rule=cited(state.rules, "mortgage", R_MORTGAGE),
                            space=space.name)
    built = [p for p in group_of(state, pos) if state.buildings[p]] if space.kind == "street" else []
    if built:
        raise RuleViolation(
            "the group of {space} has buildings ({items})",
            rule=cited(state.rules, "mortgage", R_MORTGAGE), allowed=msg("sell them to the Bank first: `sell {space} all`", space=space.name),
            space=space.name, items=', '.join(name_of(state, p) for p in built))
    tx.emit("PropertyMortgaged", player=owner, property=pos, payer=BANK, payee=owner,
            amount=space.mortgage, reason=reason("mortgaged", space=space.position))


def _liftable(state: State, owner: str) -> Text | str:
    """For a refused unmortgage: the owner's mortgaged deeds the cash can free, or what the
    table waits for if none."""
    cash = state.player(owner).cash
    lots = [p for p in sorted(state.mortgaged) if state.owners[p] == owner
            and lift_cost(state, p) <= cash]
    if not lots:
        return next_step(state)
    return Joined([msg("`unmortgage {space}`", space=name_of(state, p)) for p in lots], ", ")


@handles(c.Unmortgage)
def unmortgage(tx: Tx, cmd: c.Unmortgage) -> None:
    state = tx.state
    pos = cmd.property
    owner = owner_of(state, pos, cmd.player, word("owner's act", "lift the mortgage on"))
    no_debts(state, msg("lift a mortgage"), owner)
    space = state.edition.space(pos)
    if pos not in state.mortgaged:
        raise RuleViolation("{space} is not mortgaged", rule=cited(state.rules, "mortgage", R_MORTGAGE),
                            allowed=_liftable(state, owner), space=space.name)
    cost = lift_cost(state, pos)
    cash = state.player(owner).cash
    if cash < cost:
        raise RuleViolation(
            "{owner} has {cash}; lifting the mortgage on {space} costs {cost} ({mortgage} + 10%)", rule=cited(state.rules, "mortgage", R_MORTGAGE),
            allowed=msg("raise {amount} more first", amount=money(state, cost - cash)),
            owner=owner, cash=money(state, cash), space=space.name, cost=money(state, cost),
            mortgage=space.mortgage)
    mortgage = mortgage_of(state, pos)
    tx.emit("MortgageLifted", player=owner, property=pos, payer=owner, payee=BANK, amount=cost,
            reason=reason("mortgage_lifted", space=space.position, mortgage=mortgage,
                          interest=cost - mortgage))


def receive_mortgaged(tx: Tx, receiver: str, deeds, lift=()) -> None:
    """A mortgaged deed that changes hands costs its receiver 10% at once, or the whole
    mortgage plus 10% if he frees it at once (004 §Impegno).  Short of cash: a debt to the
    Bank, which he must raise or go bankrupt for (000 FAQ 33)."""
    state = tx.state
    for pos in deeds:
        if pos not in state.mortgaged:
            continue
        space = state.edition.space(pos)
        if pos in lift:
            pay(tx, "MortgageLifted", receiver, BANK, lift_cost(state, pos),
                reason("freed_on_receiving", space=space.position, mortgage=space.mortgage),
                player=receiver, property=pos)
        else:
            pay(tx, "MortgageInterestPaid", receiver, BANK, interest(state, mortgage_of(state, pos)),
                reason("mortgaged_fee", space=space.position), player=receiver, property=pos)
