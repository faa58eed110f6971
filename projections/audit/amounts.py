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

from banco.ledger.table.state import State
from banco.projections.audit import referee_checks
from banco.projections.audit.board_amounts import cash_issued, fine, moved, salary, tax
from banco.projections.audit.building_amounts import (
    broken_up,
    building_sold,
    built,
    group_built,
    group_sold,
)
from banco.projections.audit.card_amounts import card_payment
from banco.projections.audit.deed_amounts import (
    auction_opened,
    auction_won,
    bid,
    bought,
    deeds_dealt,
    interest_paid,
    lifted,
    mortgage_reverted,
    mortgaged,
    trade,
)
from banco.projections.audit.rent_debt_amounts import (
    claim_opened,
    debt_paid,
    debt_paid_by_bank,
    debt_paid_in_kind,
    estate,
    rent_paid,
)

AMOUNT_RULES: dict[str, Callable[[State, dict, dict | None], list[str]]] = {
    "CashIssued": cash_issued,
    "SalaryPaid": salary,
    "TaxPaid": tax,
    "FinePaid": fine,
    "TokenMoved": moved,
    "PropertyBought": bought,
    "AuctionOpened": auction_opened,
    "BidPlaced": bid,
    "AuctionWon": auction_won,
    "PropertyMortgaged": mortgaged,
    "MortgageLifted": lifted,
    "MortgageInterestPaid": interest_paid,
    "HouseBuilt": built,
    "HotelBuilt": built,
    "BuildingSold": building_sold,
    "BuildingsSold": group_sold,
    "BuildingsBuilt": group_built,
    "HotelsBrokenUp": broken_up,
    "RentClaimOpened": claim_opened,
    "RentPaid": rent_paid,
    "DebtPaid": debt_paid,
    "EstateTransferred": estate,
    "TradeCompleted": trade,
    "CardPayment": card_payment,
    "DeedsDealt": deeds_dealt,
    "MortgageReverted": mortgage_reverted,
    "DebtPaidByBank": debt_paid_by_bank,
    "DebtPaidInKind": debt_paid_in_kind,
}
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
