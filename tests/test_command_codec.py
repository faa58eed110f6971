"""Every command class round-trips through CommandRecorded's JSON, found by reading
ledger/records/commands.py rather than from a list (new command classes are covered as they come)."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from banco.ledger.records import commands as c
from banco.ledger.records.command_codec import CommandDecodeError, command_classes, decode, encode
from banco.ledger.store.canonical import canonical_json


def test_the_classes_are_read_from_the_commands_module():
    found = command_classes()
    named = {name for name, obj in vars(c).items()
             if isinstance(obj, type) and issubclass(obj, tuple) and hasattr(obj, "_fields")}
    assert set(found) == named
    assert {"Roll", "Buy", "Trade", "Items", "BreakUp", "BuildingAuction"} <= set(found)


@pytest.mark.parametrize("name", sorted(command_classes()))
def test_every_command_class_round_trips(name):
    cls = command_classes()[name]

    @settings(max_examples=40, deadline=None)
    @given(st.from_type(cls))
    def round_trip(command):
        doc = json.loads(canonical_json(encode(command)))  # as stored, and read back
        assert doc["kind"] == name
        back = decode(doc)
        assert back == command and type(back) is cls
        assert canonical_json(encode(back)) == canonical_json(encode(command))

    round_trip()


def test_a_trade_keeps_its_nested_items_as_objects():
    trade = c.Trade("Anna", "Bruno", c.Items((1, 3), 50, 1), c.Items(cash=20), lift=(3,))
    doc = encode(trade)
    assert doc == {"kind": "Trade", "fields": {
        "a": "Anna", "b": "Bruno",
        "a_gives": {"kind": "Items", "fields": {"properties": [1, 3], "cash": 50,
                                                "jail_cards": 1}},
        "b_gives": {"kind": "Items", "fields": {"properties": [], "cash": 20, "jail_cards": 0}},
        "lift": [3]}}
    back = decode(doc)
    assert back == trade and isinstance(back.a_gives, c.Items)
    assert isinstance(back.a_gives.properties, tuple)


def test_a_field_called_kind_is_a_field_like_any_other():
    doc = encode(c.BuildingAuction("hotel"))
    assert doc == {"kind": "BuildingAuction", "fields": {"kind": "hotel", "wanted": []}}
    assert decode(doc) == c.BuildingAuction("hotel")


def test_a_roll_comes_back_with_a_tuple_of_dice():
    back = decode({"kind": "Roll", "fields": {"dice": [3, 4], "player": None}})
    assert back == c.Roll((3, 4)) and isinstance(back.dice, tuple)


@pytest.mark.parametrize("doc,says", [
    ({"kind": "Teleport", "fields": {"to": 3}}, "not one this banco knows"),
    ({"kind": "Roll", "fields": {"dice": [1, 2], "speed": 3}}, "Roll has no field speed"),
    ({"kind": "Roll", "dice": [1, 2]}, "not a recorded command"),
])
def test_what_is_not_a_command_is_named(doc, says):
    with pytest.raises(CommandDecodeError, match=says):
        decode(doc)


def test_a_command_holding_a_float_is_refused():
    with pytest.raises(TypeError, match="integers"):
        encode(c.Bid("Anna", 10.5))
