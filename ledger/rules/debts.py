"""A debtor's ways out beyond cash, in the vintage rules (002 §Varie): "può pagarlo parte in
buoni e parte in proprietà (libere da costruzioni). Le proprietà verranno valutate al prezzo
che il creditore vorrà pagarle. Nel caso che tale prezzo non fosse giudicato equo dal debitore,
questi potrà mettere all'asta le proprietà tra gli altri giocatori e affidarle ai migliori
offerenti."

- `pay DEBTOR --with PROPERTY=PRICE ...`: the deeds at the creditor's prices, the rest in cash,
  the whole debt settled at once (one DebtPaidInKind fact);
- `auction-deed PROPERTY`: the debtor's deed auctioned among the other players; the winner
  pays the debtor, who then pays his debt with `pay`.
"""

from __future__ import annotations

from banco.ledger.base.errors import RuleViolation
from banco.ledger.base.text import msg
from banco.ledger.board.rule_sets import shown
from banco.ledger.records import commands as c
from banco.ledger.records.reasons import reason
from banco.ledger.rules.bankruptcy import debts_or_next
from banco.ledger.rules.decision import Tx, debt_rule, money
from banco.ledger.rules.mortgages import receive_mortgaged
from banco.ledger.rules.registry import handles
from banco.ledger.rules.turn import R_MOVE_WAITS, fine_in_wait, leave_after_fine, nothing_else_owed
from banco.ledger.table.state import BANK, State, debt_step, hammer_step

R_KIND = "002 §Varie"


def _allowed(state: State, what: str) -> None:
    if not state.rules.pay_in_kind:
        raise RuleViolation(
            "the {rules} rules have no {what}: a deed given for a debt is a trade the creditor agrees to", rule="000 FAQ 10; 003 §10",
            allowed=msg("`trade DEBTOR CREDITOR --give PROPERTY --get ...`, or raise the cash"),
            rules=shown(state.rules), what=what)


def _unbuilt(state: State, pos: int, owner: str) -> str:
    space = state.edition.space(pos)
    if state.owners[pos] != owner:
        raise RuleViolation("{space} is not {owner}'s", rule=R_KIND,
                            allowed=msg("the debtor's own deeds"),
                            space=space.name, owner=owner)
    if space.kind == "street":
        assert space.group is not None  # every street is in a colour group
        built = [p for p in state.edition.groups[space.group] if state.buildings[p]]
        if built:
            raise RuleViolation(
                "{space}'s group has buildings: only deeds free of buildings (\"libere da costruzioni\") go for a debt", rule=R_KIND,
                allowed=msg("`sell {space} all` first", space=space.name),
                space=space.name)
    return space.name


@handles(c.PayInKind)
def pay_in_kind(tx: Tx, cmd: c.PayInKind) -> None:
    state = tx.state
    _allowed(state, "paying in deeds")
    debts = [d for d in state.debts if cmd.debtor is None or d.debtor == cmd.debtor]
    if not debts:
        raise RuleViolation((msg("there is no debt to settle") if cmd.debtor is None else msg("{debtor} owes nothing", debtor=cmd.debtor)), rule=R_KIND)
    d = debts[0]
    if d.creditor == BANK:
        raise RuleViolation("{debtor} owes the Bank, which buys no deeds (000 FAQ 20)",
                            rule=R_KIND, allowed=debt_step(state, d.debtor),
                            debtor=d.debtor)
    seen = set()
    names = []
    for pos, price in cmd.deeds:
        if pos in seen:
            raise RuleViolation("{space} is named twice", rule=R_KIND,
                                space=state.edition.space(pos).name)
        seen.add(pos)
        names.append(_unbuilt(state, pos, d.debtor))
        if price < 1:
            raise RuleViolation("{space} at {price}: a deed goes for a price of at least 1", rule=R_KIND,
                                space=state.edition.space(pos).name, price=price)
    worth = sum(price for _, price in cmd.deeds)
    if worth > d.amount:
        raise RuleViolation(
            "the deeds at {worth} are worth more than the debt of {amount}: a deed goes for the debt, not for change", rule=R_KIND,
            allowed=msg("lower prices, fewer deeds, or a `trade` for the difference"),
            worth=money(state, worth), amount=money(state, d.amount))
    cash_part = d.amount - worth
    cash = state.player(d.debtor).cash
    if cash_part > cash:
        raise RuleViolation(
            "{debtor} owes {amount}: the deeds cover {worth} and {cash_part} must be paid in cash, but {debtor} has {cash}", rule=R_KIND,
            allowed=msg("raise {amount} more first (`sell`, `mortgage`), or more deeds", amount=money(state, cash_part - cash)),
            debtor=d.debtor, amount=money(state, d.amount), worth=money(state, worth),
            cash_part=money(state, cash_part), cash=money(state, cash))
    each = [{"space": pos, "price": price} for pos, price in cmd.deeds]
    tx.emit("DebtPaidInKind", payer=d.debtor, payee=d.creditor, amount=cash_part,
            debt_seq=d.seq, deeds=[{"property": pos, "price": price} for pos, price in cmd.deeds],
            reason=reason("paid_in_kind", reason=d.reason, cash=cash_part,
                          each=each, rule=R_KIND))
    receive_mortgaged(tx, d.creditor, [pos for pos, _ in cmd.deeds])


@handles(c.AuctionDeed)
def auction_deed(tx: Tx, cmd: c.AuctionDeed) -> None:
    state = tx.state
    _allowed(state, "auction of a debtor's deed")
    owner = state.owners[cmd.property]
    name = state.edition.space(cmd.property).name
    if owner is None:
        raise RuleViolation("{name} belongs to the Bank", rule=R_KIND,
                            allowed=msg("a debtor's own deed"),
                            name=name)
    if not any(d.debtor == owner for d in state.debts):
        raise RuleViolation("{owner} owes nothing: auctioning a deed is a debtor's way to raise the money", rule=R_KIND,
                            allowed=msg("{owner} may sell it in a `trade`", owner=owner),
                            owner=owner)
    _unbuilt(state, cmd.property, owner)
    if state.auction:
        raise RuleViolation("an auction is already open", rule=R_KIND,
                            allowed=msg("the hammer first"))
    tx.emit("AuctionOpened", property=cmd.property, min_bid=state.rules.auction_min_bid,
            step=state.rules.auction_step, resume=state.turn.phase, seller=owner)


@handles(c.PayDebt)
def pay_debt(tx: Tx, cmd: c.PayDebt) -> None:
    state = tx.state
    debts = [d for d in state.debts if cmd.debtor is None or d.debtor == cmd.debtor]
    if not debts:
        raise RuleViolation(msg("there is no debt to settle") if cmd.debtor is None else msg("{debtor} owes nothing", debtor=cmd.debtor),
                            allowed=debts_or_next(state))
    fine = fine_in_wait(state)
    # the last try's fine paid last: its payment moves the token, which waits for the rest
    d = next((x for x in debts if fine is None or x.seq != fine.seq), debts[0])
    if fine is not None and fine.seq == d.seq and state.rules.fine_before_move:
        nothing_else_owed(state, msg("pay the fine"), fine)
        if state.auction is not None:  # paid now, the token would not move after it
            raise RuleViolation("cannot pay the fine while an auction is open: {player}'s "
                                "token moves once it is paid", rule=R_MOVE_WAITS,
                                allowed=hammer_step(state), player=d.debtor)
    cash = state.player(d.debtor).cash
    if cash < d.amount:
        creditor = msg("the Bank") if d.creditor == BANK else d.creditor
        raise RuleViolation(
            "{debtor} has {cash} and owes {amount} to {creditor}",
            rule=debt_rule(state), allowed=debt_step(state, d.debtor),
            debtor=d.debtor, cash=money(state, cash), amount=money(state, d.amount),
            creditor=creditor)
    tx.emit("DebtPaid", payer=d.debtor, payee=d.creditor, amount=d.amount, reason=d.reason,
            debt_seq=d.seq)
    if fine is not None and fine.seq == d.seq:  # the fine paid, the token moves (004 §Prigione)
        leave_after_fine(tx, d.debtor)
