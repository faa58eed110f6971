"""The fold's checks of a row's fields (ledger/records/bounds.py) held to `fault`, the slow
path that names the field: every field of every type, given each value of a pool of bad ones
(a stranger, a square off the board, a float, a bool, a list, None, the field missing), is
refused by the check exactly when `fault` names it, so a check written out for speed
(`written_out`) can neither let a forged row through nor refuse one `fault` cannot name (the
refusal would say "NoneType: None"); and a row folded from a log with such a field ends in
the named finding, exit 4's words, never a traceback."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from banco.ledger.base.errors import DatabaseError
from banco.ledger.records import bounds as b
from banco.ledger.records.bounds import FIELDS, MISSING, OPTIONAL, Bounds, fault

SEATS = ("Anna", "Bruno")


class Deck:
    cards = [type("Card", (), {"number": n})() for n in range(1, 17)]


DECKS = {"imprevisti": Deck, "probabilita": Deck}

GOOD = {b.PLAYER: "Anna", b.ACCOUNT: "bank", b.SQUARE: 3, b.SQUARE_OR_NONE: None,
        b.SQUARES: [1, 3], b.DICE: [3, 4], b.COUNT: 5, b.DELTA: -1, b.DECK: "imprevisti",
        b.CARD: 16, b.PLAYER_OR_NONE: None, b.PLAYERS: ["Bruno"],
        b.TIME: "2026-11-29T21:00:00Z", b.LOTS: [{"property": 3, "level": 2}],
        b.TRANSFERS: [{"payer": "Anna", "payee": "bank", "amount": 5}],
        b.SIDE: {"properties": [1], "cash": 0, "jail_cards": []},
        b.CARDS: [["imprevisti", 16]], b.DEEDS: [{"property": 3, "price": 60}], b.SEQS: [2]}
BAD = ["Zed", "bank", None, 40, 45, -1, 0, 3.0, True, False, [1], [7, 1], [3, 4, 5, 6], {}, "imprevisti", 99,
       "2026-13-45T99", MISSING]  # the edges: 40 is off the board, the Bank at no seat


def good(type_: str) -> dict:
    return {k: GOOD[kind] for k, kind in FIELDS[type_]}


def with_(data: dict, key: str, value) -> dict:
    data = dict(data)
    if value is MISSING:
        del data[key]
    else:
        data[key] = value
    return data


CASES = [(t, k) for t, spec in FIELDS.items() for k, _ in spec]


@pytest.mark.parametrize("type_", sorted(FIELDS))
def test_a_fact_of_every_type_with_good_fields_fits(type_):
    table = Bounds(SEATS, DECKS)
    assert table.fits(type_, good(type_)) and fault(type_, good(type_), SEATS, DECKS) is None


@pytest.mark.parametrize(("type_", "key"), CASES)
def test_every_field_given_a_bad_value_is_refused_exactly_when_named(type_, key):
    table = Bounds(SEATS, DECKS)
    named = 0
    for value in BAD:
        data = with_(good(type_), key, value)
        found = fault(type_, data, SEATS, DECKS)
        assert table.fits(type_, data) == (found is None), (value, found)
        if found is not None:
            assert found[0] == key, (value, found)
            named += 1
    # every field has some value no command records there (an optional one: not missing)
    assert named >= 1 or (type_, key) in OPTIONAL


FIELD_VALUES = st.sampled_from(BAD + list(GOOD.values()) + ["Bruno", 39, 1, [6, 6]])


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(b.written_out(frozenset(), frozenset(), frozenset(),
                                            frozenset()))),
       st.data())
def test_a_written_out_check_says_what_fault_says_of_any_row(type_, data):
    spec = FIELDS.get(type_, ())
    row = {k: v for k, _ in spec
           if (v := data.draw(FIELD_VALUES, label=k)) is not MISSING}
    table = Bounds(SEATS, DECKS)
    assert table.fits(type_, row) == (fault(type_, row, SEATS, DECKS) is None), row


def test_a_row_out_of_range_is_the_named_finding_of_every_fold():
    from banco.ledger.board.rule_sets import load_rules
    from banco.ledger.rules.decide import start_game
    from banco.ledger.table.state import fold

    log = start_game(list(SEATS), load_rules("classic"), "it")
    for i, e in enumerate(log, 1):
        e["seq"] = i
    row = {"type": "TokenMoved", "seq": len(log) + 1,
           "data": {"player": "Anna", "from": 0, "to": 45, "spaces": 3, "cause": "dice",
                    "passed_go": False}}
    with pytest.raises(DatabaseError, match=r"event \d+ \(TokenMoved\) is no fact the table "
                       r"can take \(its to is 45, which no command records on this table\)"):
        fold([*log, row], 1)


def test_a_refusal_fault_cannot_name_is_still_said_in_words():
    """Were a written-out check to refuse a row `fault` passes, the finding said "NoneType:
    None" (seen once while the checks were written): it says what it knows instead."""
    from banco.ledger.board.rule_sets import load_rules
    from banco.ledger.rules.decide import start_game
    from banco.ledger.table.state import fold, not_foldable

    log = start_game(list(SEATS), load_rules("classic"), "it")
    for i, e in enumerate(log, 1):
        e["seq"] = i
    good = {"type": "TurnEnded", "seq": len(log) + 1, "data": {"player": "Anna", "next": "Bruno"}}
    said = str(not_foldable(fold(log, 1), good, None))
    assert "NoneType" not in said and "a field out of the range banco records" in said
