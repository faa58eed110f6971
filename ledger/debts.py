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

from . import commands as c
from .decision import Tx, money
from .errors import RuleViolation
from .state import BANK, State, debt_step

R_KIND = "002 §Varie"


def _allowed(state: State, what: str) -> None:
    if not state.rules.pay_in_kind:
        raise RuleViolation(
            f"the {state.rules.name} rules have no {what}: a deed given for a debt is a trade "
            "the creditor agrees to", rule="000 FAQ 10; 003 §10",
            allowed="`trade DEBTOR CREDITOR --give PROPERTY --get ...`, or raise the cash")


def _unbuilt(state: State, pos: int, owner: str) -> str:
    space = state.edition.space(pos)
    if state.owners[pos] != owner:
        raise RuleViolation(f"{space.name} is not {owner}'s", rule=R_KIND,
                            allowed="the debtor's own deeds")
    if space.kind == "street":
        built = [p for p in state.edition.groups[space.group] if state.buildings[p]]
        if built:
            raise RuleViolation(
                f"{space.name}'s group has buildings: only deeds free of buildings "
                "(\"libere da costruzioni\") go for a debt", rule=R_KIND,
                allowed=f"`sell {space.name} all` first")
    return space.name


def pay_in_kind(tx: Tx, cmd: c.PayInKind) -> None:
    state = tx.state
    _allowed(state, "paying in deeds")
    debts = [d for d in state.debts if cmd.debtor is None or d.debtor == cmd.debtor]
    if not debts:
        raise RuleViolation("there is no debt to settle" if cmd.debtor is None
                            else f"{cmd.debtor} owes nothing", rule=R_KIND)
    d = debts[0]
    if d.creditor == BANK:
        raise RuleViolation(f"{d.debtor} owes the Bank, which buys no deeds (000 FAQ 20)",
                            rule=R_KIND, allowed=debt_step(state, d.debtor))
    seen = set()
    names = []
    for pos, price in cmd.deeds:
        if pos in seen:
            raise RuleViolation(f"{state.edition.space(pos).name} is named twice", rule=R_KIND)
        seen.add(pos)
        names.append(_unbuilt(state, pos, d.debtor))
        if price < 1:
            raise RuleViolation(f"{state.edition.space(pos).name} at {price}: a deed goes for a "
                                "price of at least 1", rule=R_KIND)
    worth = sum(price for _, price in cmd.deeds)
    if worth > d.amount:
        raise RuleViolation(
            f"the deeds at {money(state, worth)} are worth more than the debt of "
            f"{money(state, d.amount)}: a deed goes for the debt, not for change", rule=R_KIND,
            allowed="lower prices, fewer deeds, or a `trade` for the difference")
    cash_part = d.amount - worth
    cash = state.player(d.debtor).cash
    if cash_part > cash:
        raise RuleViolation(
            f"{d.debtor} owes {money(state, d.amount)}: the deeds cover {money(state, worth)} and "
            f"{money(state, cash_part)} must be paid in cash, but {d.debtor} has "
            f"{money(state, cash)}", rule=R_KIND,
            allowed=f"raise {money(state, cash_part - cash)} more first (`sell`, `mortgage`), "
                    f"or more deeds")
    each = ", ".join(f"{n} at {money(state, p)}" for n, (_, p) in zip(names, cmd.deeds,
                                                                       strict=True))
    tx.emit("DebtPaidInKind", payer=d.debtor, payee=d.creditor, amount=cash_part,
            debt_seq=d.seq, deeds=[{"property": pos, "price": price} for pos, price in cmd.deeds],
            reason=f"{d.reason}: {money(state, cash_part)} in cash and {each}, the creditor's "
                   f"prices ({R_KIND})")
    from .estate import receive_mortgaged

    receive_mortgaged(tx, d.creditor, [pos for pos, _ in cmd.deeds])


def auction_deed(tx: Tx, cmd: c.AuctionDeed) -> None:
    state = tx.state
    _allowed(state, "auction of a debtor's deed")
    owner = state.owners[cmd.property]
    name = state.edition.space(cmd.property).name
    if owner is None:
        raise RuleViolation(f"{name} belongs to the Bank", rule=R_KIND,
                            allowed="a debtor's own deed")
    if not any(d.debtor == owner for d in state.debts):
        raise RuleViolation(f"{owner} owes nothing: auctioning a deed is a debtor's way to "
                            "raise the money", rule=R_KIND,
                            allowed=f"{owner} may sell it in a `trade`")
    _unbuilt(state, cmd.property, owner)
    if state.auction:
        raise RuleViolation("an auction is already open", rule=R_KIND,
                            allowed="the hammer first")
    tx.emit("AuctionOpened", property=cmd.property, min_bid=state.rules.auction_min_bid,
            step=state.rules.auction_step, resume=state.turn.phase, seller=owner)
