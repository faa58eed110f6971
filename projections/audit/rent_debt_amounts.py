"""The audit's amount rules for rent and debts: a rent claim and its payment, a debt paid (by
the debtor, by the Bank, in kind), an estate handed over.
"""

from __future__ import annotations

from collections.abc import Callable

from banco.ledger.base.text import Text, msg
from banco.ledger.board.rule_sets import shown
from banco.ledger.table.state import BANK, State
from banco.projections.audit.amount_basis import expect, rent_due, sides

_AT_LANDING = msg("the deed for the table at the landing")


def claim_opened(t: State, d: dict, prev, card: dict | None = None) -> list[str]:
    """The rent the deed gives for the table at the landing; a card that sent the player there
    may change it (`card` is the effect of the card drawn this turn, if any): twice the rent of
    the nearest railroad, or a multiple of a fresh throw of the dice for a utility."""
    space = t.edition.space(d["property"])
    out: list[str] = []
    if t.owners[d["property"]] != d["owner"]:
        out.append(msg("rent on {space} claimed for {owner}, who does not own it",
                       space=space.name, owner=d["owner"]))
    if d["payer"] in t.index and t.player(d["payer"]).position != d["property"]:
        out.append(msg("rent on {space} asked of {player}, who is not on it", space=space.name,
                       player=d["payer"]))
    want = rent_due(t, d["property"])
    why: Text | Callable[[], Text] = _AT_LANDING
    if card and card.get("kind") == "advance_to_nearest":
        if prev and prev["type"] == "CardDiceThrown" and "dice_multiplier" in card:
            throw = sum(prev["data"]["dice"])
            want = card["dice_multiplier"] * throw

            def fresh_throw() -> Text:
                return msg("{times} x the fresh throw of {throw} (the card's text)",
                           times=card["dice_multiplier"], throw=throw)
            why = fresh_throw
        elif "rent_multiplier" in card:
            want = rent_due(t, d["property"]) * card["rent_multiplier"]

            def multiplied() -> Text:
                return msg("the deed's rent x {times} (the card's text)",
                           times=card["rent_multiplier"])
            why = multiplied
    return out + expect(t, lambda: msg("the rent on {space}", space=space.name), d["amount"],
                        want, why)


def rent_paid(t: State, d: dict, prev) -> list[str]:
    space = t.edition.space(d["property"])

    def what():
        return msg("the rent on {space}", space=space.name)
    if d["opened_seq"] == 0:  # rent = "auto": paid at the landing, no claim
        if t.rules.rent != "auto":
            return [msg("rent on {space} paid without a claim under {rules} rules",
                        space=space.name, rules=shown(t.rules))]
        return (sides(d, d["payer"], t.owners[d["property"]] or BANK, what)
                + expect(t, what, d["amount"], rent_due(t, d["property"]), _AT_LANDING))
    claim = next((c for c in t.claims if c.opened_seq == d["opened_seq"]), None)
    if claim is None:
        return [msg("rent on {space} paid for a claim (event {seq}) that is not open",
                    space=space.name, seq=d["opened_seq"])]
    out = sides(d, claim.payer, claim.owner, what)
    if claim.property != d["property"]:
        out.append(msg("rent paid on {space} for a claim on {other}", space=space.name,
                       other=t.edition.space(claim.property).name))
    return out + expect(t, what, d["amount"], claim.amount,
                        lambda: msg("the claim opened at event {seq}", seq=claim.opened_seq))


def _debt_of(debt):
    return lambda: msg("the debt of event {seq}", seq=debt.seq)


def debt_paid(t: State, d: dict, prev) -> list[str]:
    debt = next((x for x in t.debts if x.seq == d["debt_seq"]), None)
    if debt is None:
        return [msg("a debt paid that is not owed (event {seq})", seq=d["debt_seq"])]
    return (sides(d, debt.debtor, debt.creditor, _debt_of(debt))
            + expect(t, _debt_of(debt), d["amount"], debt.amount,
                     lambda: msg("the debt as incurred")))


def estate(t: State, d: dict, prev) -> list[str]:
    out = sides(d, d["debtor"], d["creditor"],
                lambda: msg("{player}'s estate", player=d["debtor"]))
    if d["debtor"] not in t.index:
        return out
    return out + expect(t, lambda: msg("the cash in {player}'s estate", player=d["debtor"]),
                        d["amount"], t.player(d["debtor"]).cash,
                        lambda: msg("all the debtor's cash (004 §Fallimento)"))


def debt_paid_by_bank(t: State, d: dict, prev) -> list[str]:
    """A vintage bankrupt's creditors are paid in full by the Bank (002 §Fallimento)."""
    debt = next((x for x in t.debts if x.seq == d["debt_seq"]), None)
    if debt is None:
        return [msg("the Bank pays a debt that is not owed (event {seq})", seq=d["debt_seq"])]
    out = sides(d, BANK, debt.creditor, _debt_of(debt))
    if debt.debtor != d["debtor"]:
        out.append(msg("the debt of event {seq} is {debtor}'s, not {player}'s", seq=debt.seq,
                       debtor=debt.debtor, player=d["debtor"]))
    return out + expect(t, lambda: msg("the Bank's payment of the debt of event {seq}",
                                        seq=debt.seq),
                         d["amount"], debt.amount,
                         lambda: msg("the debt in full (002 §Fallimento)"))


def debt_paid_in_kind(t: State, d: dict, prev) -> list[str]:
    """Part of a debt paid in deeds at the creditor's prices, the rest in cash (002 §Varie)."""
    debt = next((x for x in t.debts if x.seq == d["debt_seq"]), None)
    if debt is None:
        return [msg("a debt paid in kind that is not owed (event {seq})", seq=d["debt_seq"])]
    out = sides(d, debt.debtor, debt.creditor, _debt_of(debt))
    for deed in d["deeds"]:
        if t.owners[deed["property"]] != debt.debtor:
            out.append(msg("{space} given for a debt by {player}, who does not own it",
                           space=t.edition.space(deed["property"]).name, player=debt.debtor))
    deeds = sum(x["price"] for x in d["deeds"])
    return out + expect(t, lambda: msg("the cash part of the debt of event {seq}",
                                        seq=debt.seq),
                         d["amount"], debt.amount - deeds,
                         lambda: msg("the debt less the creditor's prices for the deeds"))
