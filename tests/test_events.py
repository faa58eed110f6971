"""Every event type has a strict schema; every fold handler has a type, and the reverse."""

import pytest

from banco.ledger.records.events import (
    EVENT_TYPES,
    MONEY_EVENTS,
    SCHEMA_VERSION,
    InvalidEvent,
    schemas,
    validate,
)
from banco.ledger.table.state import HANDLERS

GOOD_TAX = {"payer": "Anna", "payee": "bank", "amount": 200,
            "reason": {"code": "tax", "space": 4}}


def test_types_schemas_and_handlers_agree():
    assert set(EVENT_TYPES) == set(schemas()) == set(HANDLERS)


def test_money_events_all_carry_payer_payee_amount_reason():
    for t in MONEY_EVENTS:
        assert {"payer", "payee", "amount", "reason"} <= set(schemas()[t].fields), t


def test_a_good_event_passes():
    validate("TaxPaid", GOOD_TAX)


@pytest.mark.parametrize("bad,field", [
    ({**GOOD_TAX, "amount": 5.5}, "amount"),  # the default Integer would truncate this to 5
    ({**GOOD_TAX, "amount": "200"}, "amount"),
    ({**GOOD_TAX, "amount": True}, "amount"),
    ({**GOOD_TAX, "amount": -1}, "amount"),
    ({**GOOD_TAX, "extra": 1}, "extra"),
    ({k: v for k, v in GOOD_TAX.items() if k != "payer"}, "payer"),
])
def test_bad_events_are_rejected_naming_the_field(bad, field):
    with pytest.raises(InvalidEvent, match=field) as err:
        validate("TaxPaid", bad)
    assert field in str(err.value) and "TaxPaid" in str(err.value)


def test_unknown_type_and_version_are_rejected():
    with pytest.raises(InvalidEvent, match="unknown event type"):
        validate("MoneyFromNowhere", GOOD_TAX)
    with pytest.raises(InvalidEvent, match="schema version 99"):
        validate("TaxPaid", GOOD_TAX, 99)
    # 2: reasons are codes (ledger/records/reasons.py); 3: a left jail's how, a card drawn, a
    # recorded ruling are data (ledger/records/upcast_v3.py)
    assert SCHEMA_VERSION == 3


def test_dice_and_positions_are_bounded():
    with pytest.raises(InvalidEvent, match="'dice'"):
        validate("DiceRolled", {"player": "A", "dice": [7, 1], "doubles": False, "in_row": 0,
                                "extra_roll": False})
    with pytest.raises(InvalidEvent, match="'to'"):
        validate("TokenMoved", {"player": "A", "from": 0, "to": 40, "spaces": 40,
                                "cause": "dice", "passed_go": False})
    with pytest.raises(InvalidEvent, match="'doubles'"):
        validate("DiceRolled", {"player": "A", "dice": [1, 1], "doubles": "yes", "in_row": 0,
                                "extra_roll": False})


def test_the_book_refuses_to_append_an_invalid_event(tmp_path):
    from banco.ledger.book import Book

    book = Book(str(tmp_path / "b.db"))
    with pytest.raises(InvalidEvent, match='Not a valid integer'):
        book._append(1, 0, [{"type": "TaxPaid", "data": {**GOOD_TAX, "amount": 1.5}}],
                     now="2026-01-01T00:00:00.000000Z", actor="t", command_id="x")
    assert book.store.read(1) == []
