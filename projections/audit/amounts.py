"""Every money fact against the amount the rules give, worked out again here from the board,
the decks and the rule set's parameters (as GameStarted recorded them), never by asking
`decide`: a fact whose amount no rule gives is money from nowhere, even if the books balance.

`problems(before, event, previous)` looks at one event with the table as it was just before
it.  Each checked event type has one small function in AMOUNT_RULES, in the module for its
kind of money fact (board_amounts, deed_amounts, building_amounts, rent_debt_amounts,
card_amounts; what they share in amount_basis); tests/test_books.py fails when an event type
that moves money, or a card effect of any edition, has none.
"""

from __future__ import annotations

from collections.abc import Callable

from ledger.table.state import State
from projections.audit import (
    board_amounts,
    building_amounts,
    card_amounts,
    deed_amounts,
    referee_checks,
    rent_debt_amounts,
)
from projections.audit.rent_debt_amounts import claim_opened

AMOUNT_RULES: dict[str, Callable[[State, dict, dict | None], list[str]]] = {
    **board_amounts.RULES, **deed_amounts.RULES, **building_amounts.RULES,
    **rent_debt_amounts.RULES, **card_amounts.RULES}
# A referee's correction: no rule gives its amount, the referee does; what makes it a
# correction and not money from nowhere is checked there (projections/audit/referee_checks.py).
# (referee_checks's functions say list[Text], which is a list[str] at run time: mypy's list
# is invariant, and that module is not this one's to change)
AMOUNT_RULES.update(referee_checks.MONEY_CHECKS)  # type: ignore[arg-type]


def problems(before: State, event: dict, previous: dict | None = None,
             card: dict | None = None) -> list[str]:
    """What is wrong with the amounts of `event`, given the table just before it, the event
    just before it (a salary follows the move that passed Via!) and the effect of the card
    drawn this turn, if any (a card may change the rent of the square it sends to)."""
    rule = AMOUNT_RULES.get(event["type"])
    if rule is None:
        return []
    if rule is claim_opened:
        return rule(before, event["data"], previous, card)
    return rule(before, event["data"], previous)
