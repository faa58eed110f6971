"""The fold's handlers for money owed and paid: plain transfers, rent claims and their
lapsing, and debts."""

from __future__ import annotations

from typing import Any

from banco.ledger.records.upcast import as_reason
from banco.ledger.table.model import Claim, Debt, State, transfer


def _money(state: State, d: Any, seq: Any) -> State:
    return transfer(state, d)


def _debt_paid_in_kind(state: State, d: Any, seq: Any) -> State:
    state = transfer(state, d)
    owners = list(state.owners)
    for deed in d["deeds"]:
        owners[deed["property"]] = d["payee"]
    return state._replace(owners=tuple(owners),
                          debts=tuple(x for x in state.debts if x.seq != d["debt_seq"]))


def _claim_deferred(state: State, d: Any, seq: Any) -> State:
    claims = tuple(c._replace(made_seq=seq, settle_after=d["settles_after"])
                   if c.opened_seq == d["opened_seq"] else c for c in state.claims)
    return state._replace(claims=claims)


def _claim_opened(state: State, d: Any, seq: Any) -> State:
    # Logs written before landed_seq point at the claim itself, as banco did then.
    claim = Claim(payer=d["payer"], owner=d["owner"], property=d["property"], amount=d["amount"],
                  opened_seq=seq, closer=d["closer"], basis=d["basis"],
                  landed_seq=d.get("landed_seq", seq))
    return state._replace(claims=state.claims + (claim,))


def _claim_lapsed(state: State, d: Any, seq: Any) -> State:
    keep: list[Claim] = []
    gone: list[Claim] = []
    for c in state.claims:
        (gone if c.opened_seq == d["opened_seq"] else keep).append(c)
    if state.rules.late_claims == "last_landing":
        return _last_landing(state._replace(claims=tuple(keep)), gone, seq,
                             late=d["closed_by"] not in ("debt", "bankruptcy"))
    # A late claim is answered from the owner's last lapsed claim (ledger/rules/claims.py): only that
    # one is kept, so the table stays the same size however long the game.
    owners = {c.owner for c in gone}
    lapsed = tuple(c for c in state.lapsed if c.owner not in owners)
    return state._replace(claims=tuple(keep),
                          lapsed=lapsed + tuple(c._replace(lapsed_seq=seq) for c in gone))


def _last_landing(state, ended, seq, late: bool):
    """`late_claims = "last_landing"`: `lapsed` keeps, per owner, his most recent landing that
    a claim can no longer settle, and a late claim is judged against it (ledger/rules/claims.py):
    a claim whose window closed (the evidence of a late claim), or a landing that owed nothing
    (opened_seq 0).  A claim settled (paid, become a debt, ended by a bankruptcy) is no late
    claim: it only retires an older landing of the same owner's."""
    lapsed = list(state.lapsed)
    for c in ended:
        mine = [x for x in lapsed if x.owner == c.owner]
        if mine and mine[0].landed_seq > c.landed_seq:
            continue  # the owner's landing on record is the more recent one
        lapsed = [x for x in lapsed if x.owner != c.owner]
        if late:
            lapsed.append(c._replace(lapsed_seq=seq))
    return state._replace(lapsed=tuple(lapsed))


def _rent_paid(state: State, d: Any, seq: Any) -> State:
    state = transfer(state, d)
    if state.rules.late_claims == "last_landing" and d["opened_seq"]:
        paid = [c for c in state.claims if c.opened_seq == d["opened_seq"]]
        state = _last_landing(state, paid, seq, late=False)
    return state._replace(claims=tuple(c for c in state.claims
                                       if c.opened_seq != d["opened_seq"]))


def _rent_not_due(state: State, d: Any, seq: Any) -> State:
    """A landing that owed nothing (a mortgaged deed): the owner's most recent landing, so a
    claim after it is refused as owing nothing, not tied to an older lapsed one."""
    if state.rules.late_claims != "last_landing":
        return state
    landing = Claim(payer=d["payer"], owner=d["owner"], property=d["property"], amount=0,
                    opened_seq=0, closer="", basis=d["reason"], lapsed_seq=seq, landed_seq=seq)
    return _last_landing(state, [landing], seq, late=True)


def _claim_refused(state: State, d: Any, seq: Any) -> State:
    """The evidence of a late claim is recorded once: its landing remembers where (made_seq)."""
    if state.rules.late_claims != "last_landing":
        return state
    return state._replace(lapsed=tuple(
        c._replace(made_seq=seq) if (c.owner, c.opened_seq) == (d["owner"], d["opened_seq"])
        else c for c in state.lapsed))


def _debt_incurred(state: State, d: Any, seq: Any) -> State:
    debt = Debt(debtor=d["debtor"], creditor=d["creditor"], amount=d["amount"],
                reason=as_reason(d["reason"]), seq=seq)  # an older row's sentence as its code
    return state._replace(debts=state.debts + (debt,))


def _debt_paid(state: State, d: Any, seq: Any) -> State:
    state = transfer(state, d)
    return state._replace(debts=tuple(x for x in state.debts if x.seq != d["debt_seq"]))


def _debt_cancelled(state: State, d: Any, seq: Any) -> State:
    return state._replace(debts=tuple(x for x in state.debts if x.seq != d["debt_seq"]))


HANDLERS = {
    "CashIssued": _money,
    "SalaryPaid": _money,
    "RentClaimOpened": _claim_opened,
    "RentClaimLapsed": _claim_lapsed,
    "RentPaid": _rent_paid,
    "RentClaimRefused": _claim_refused,
    "RentNotDue": _rent_not_due,
    "TaxPaid": _money,
    "CardPayment": _money,
    "FinePaid": _money,
    "DebtIncurred": _debt_incurred,
    "DebtPaid": _debt_paid,
    "MortgageInterestPaid": _money,
    "DebtCancelled": _debt_cancelled,
    "RentClaimDeferred": _claim_deferred,
    "DebtPaidByBank": _debt_paid,
    "DebtPaidInKind": _debt_paid_in_kind,
    "CashCorrected": _money,
}
