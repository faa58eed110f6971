"""The compiled event checks (ledger/records/event_checks.py) say yes exactly when marshmallow's schemas
(ledger/records/events.py, the schemas of record) do: on every event of the recorded games, and on
random damage done to them."""

import copy
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from banco.ledger.records.event_checks import checks, source
from banco.ledger.records.events import InvalidEvent, schemas, validate

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
RECORDED = [e for path in sorted(FIXTURES.glob("*.events.json"))
            for e in json.loads(path.read_text(encoding="utf-8"))]


def marshmallow_says(type_: str, data) -> bool:
    try:
        validate(type_, data)
    except InvalidEvent:
        return False
    return True


def test_every_type_has_a_check():
    assert set(checks()) == set(schemas())


def test_every_recorded_event_passes_both():
    assert len({e["type"] for e in RECORDED}) > 30
    for e in RECORDED:
        assert checks()[e["type"]](e["data"]), e
        assert marshmallow_says(e["type"], e["data"]), e


def test_the_referee_and_speedy_facts_pass_both():
    # types the recorded games do not hold, written as decide writes them
    samples = {
        "CashCorrected": {"player": "Anna", "payer": "bank", "payee": "Anna", "amount": 50,
                          "reason": "referee Marta: miscounted", "referee": "Marta"},
        "SpeedyMoveDue": {"player": "Anna", "move": "bus", "choices": [3, 4, 7]},
        "BuildingsBuilt": {"player": "Anna", "lots": [{"property": 1, "level": 1}],
                           "payer": "Anna", "payee": "bank", "amount": 50, "reason": "built",
                           "bank_houses": -1, "bank_hotels": 0},
        "BuildingAuctionOpened": {"kind": "house", "min_bid": 1, "step": 1, "resume": "roll",
                                  "excluded": [], "wanted": {"Anna": 2}},
    }
    for type_, data in samples.items():
        assert checks()[type_](data) and marshmallow_says(type_, data), type_
        assert not checks()[type_]({**data, "extra": 1})


# Damage to a recorded event: any JSON value put anywhere, a key taken out or added.
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 45) | st.floats(allow_nan=False)
    # the bounds the schemas draw: spaces 0-39, dice 1-6, moves up to 12 or 40, levels 0-5
    | st.sampled_from([-1, 0, 1, 2, 4, 5, 6, 7, 11, 12, 13, 39, 40, 41])
    | st.text(max_size=3) | st.sampled_from(["bus", "house", "mr", "", "Anna",
                                             "1b4e28ba-2fa1-11d2-883f-0016d3cca427"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner,
                                                                max_size=3),
    max_leaves=6)


def _paths(value, path=()):
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, (*path, i))


def _damage(data, path, how, value):
    out = copy.deepcopy(data)
    if not path:
        return value if how == "replace" else out
    parent = out
    for step in path[:-1]:
        parent = parent[step]
    key = path[-1]
    if how == "replace":
        parent[key] = value
    elif how == "drop":
        del parent[key]
    elif isinstance(parent, dict):
        parent[f"x{len(parent)}"] = value  # a key the schema does not know
    else:
        parent.append(value)
    return out


@settings(max_examples=2500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, len(RECORDED) - 1), st.integers(0, 50),
       st.sampled_from(["replace", "drop", "add"]), json_values)
def test_damaged_events_get_the_same_answer_from_both(i, which, how, value):
    event = RECORDED[i]
    paths = list(_paths(event["data"]))
    path = paths[which % len(paths)]
    data = _damage(event["data"], path, how, value)
    assert checks()[event["type"]](data) == marshmallow_says(event["type"], data), \
        (event["type"], path, how, value)


def test_bad_values_marshmallow_has_corners_for():
    check = checks()["DiceRolled"]
    good = {"player": "A", "dice": [3, 4], "doubles": False, "in_row": 0, "extra_roll": False}
    for data, expected in (
            ({**good, "in_row": True}, False),  # a strict Integer takes no boolean
            ({**good, "doubles": 0}, True),  # truthy={True}, falsy={False} takes 1 and 0
            ({**good, "doubles": [0]}, False),  # an unhashable value is invalid, not a crash
            ({**good, "dice": [3, 4.0]}, False),
            ({**good, "speedy": "bus"}, True), ({**good, "speedy": "tram"}, False),
            ({**good, "player": None}, False), ({**good, "player": ""}, False)):
        assert check(data) is expected == marshmallow_says("DiceRolled", data), data


def test_a_field_the_compiler_does_not_know_is_refused_when_checks_are_built():
    from marshmallow import RAISE, Schema
    from marshmallow import fields as f

    schema = Schema.from_dict({"rate": f.Float(required=True)})(unknown=RAISE)
    with pytest.raises(NotImplementedError, match="Float"):
        source(schema)


def test_every_field_of_every_recorded_shape_at_its_bounds():
    """Each place a recorded event holds a number or a text, set to the values the schemas
    bound (and a few that no field takes): both agree on every one."""
    seen = set()
    tried = 0
    for e in RECORDED:
        for path in _paths(e["data"]):
            value = e["data"]
            for step in path:
                value = value[step]
            key = (e["type"], tuple("#" if isinstance(p, int) else p for p in path))
            if key in seen or isinstance(value, (dict, list)) or not path:
                continue
            seen.add(key)
            for bad in (-1, 0, 1, 2, 5, 6, 7, 12, 13, 39, 40, 41, True, None, "", "x", "bus",
                        [], {}):
                data = _damage(e["data"], path, "replace", bad)
                tried += 1
                assert checks()[e["type"]](data) == marshmallow_says(e["type"], data), \
                    (e["type"], path, bad)
    assert tried > 2000

