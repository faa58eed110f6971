"""The count at the end, the places and the championship's tournament points (ledger/table/score.py,
000 §PUNTEGGIO), and `standings --json`'s score and points."""

import json

import pytest
from helpers import POS, build, cash, mortgage, new_table, own, place

from banco.ledger.table.score import places, points, property_value, unmortgaged_value, winner
from banco.projections.readings.accounts import standings

SIX = ("Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio")


def test_a_deeds_box_is_its_price_half_mortgaged_and_its_buildings_at_cost():
    t = own(new_table(rules="championship"), "Anna", "Vicolo Corto", "Vicolo Stretto",
            "Via Roma", "Stazione Sud")
    t = build(build(t, "Vicolo Corto", 3), "Vicolo Stretto", 5)
    t = mortgage(t, "Stazione Sud")
    assert property_value(t, POS["Vicolo Corto"]) == 60 + 3 * 50
    assert property_value(t, POS["Vicolo Stretto"]) == 60 + 5 * 50  # hotel + its 4 houses
    assert property_value(t, POS["Via Roma"]) == 300
    assert property_value(t, POS["Stazione Sud"]) == 100
    assert unmortgaged_value(t, "Anna") == 210 + 310 + 300
    short = own(new_table(rules="short"), "Anna", "Vicolo Stretto")
    assert property_value(build(short, "Vicolo Stretto", 5), POS["Vicolo Stretto"]) == 60 + 4 * 50


def ended(t):
    return t._replace(ended=True)


@pytest.mark.parametrize("left,expected", [
    (1, [28]), (2, [25, 14]), (3, [22, 12, 6]), (4, [19, 10, 5, 3]), (5, [16, 8, 4, 2, 1]),
    (6, [13, 6, 3, 1, 1, 0]),
])
def test_points_by_place_and_players_left(left, expected):
    t = new_table(SIX, rules="championship")
    for i, name in enumerate(SIX):  # Anna richest, then Bruno ...
        t = cash(t, name, 2000 - 100 * i)
    gone = SIX[left:]
    for name in gone:
        t = cash(place(t, name, 0, bankrupt=True), name, 0)
    t = ended(t._replace(eliminated=gone))
    pts = points(t)
    assert [pts[n] for n in SIX[:left]] == expected
    assert all(pts[n] == 0 for n in gone)  # the bankrupt: none


def test_the_tie_break_is_the_unmortgaged_property_then_a_shared_place():
    t = new_table(("Anna", "Bruno", "Carla"), rules="championship")
    t = own(cash(t, "Anna", 1440), "Anna", "Vicolo Corto")  # 1500, 60 unmortgaged
    t = mortgage(own(cash(t, "Bruno", 1470), "Bruno", "Vicolo Stretto"), "Vicolo Stretto")
    ranked = places(t)  # Carla 1500 (0 property), Anna 1500 (60), Bruno 1500 (0, mortgaged)
    assert [(p.place, p.name, p.count, p.tie_break) for p in ranked] == [
        (1, "Anna", 1500, 60), (2, "Bruno", 1500, 0), (2, "Carla", 1500, 0)]
    assert winner(t) == "Anna"
    pts = points(ended(t))
    assert pts == {"Anna": 22, "Bruno": 12, "Carla": 12}  # the shared second place
    classic = new_table(("Anna", "Bruno"))
    assert winner(classic) is None and points(ended(classic)) is None  # no tie-break, no points


def test_points_only_once_the_game_is_over():
    t = new_table(("Anna", "Bruno"), rules="championship")
    assert points(t) is None
    rows = standings(t)
    assert [(r["score"], r["points"]) for r in rows] == [(1500, None), (1500, None)]
    assert [(r["score"], r["points"]) for r in standings(new_table(("Anna", "Bruno")))] == [
        (None, None), (None, None)]


def test_standings_json_and_text_carry_score_and_points(banco):
    banco("new", "Anna", "Bruno", "Carla", "--rules", "championship")
    banco("roll", "1", "2")
    banco("buy")  # Anna 1440 + 60
    banco("time-up")
    rows = json.loads(banco("standings", "--json").output)
    assert [(r["name"], r["score"], r["points"]) for r in rows] == [
        ("Anna", 1500, 22), ("Bruno", 1500, 12), ("Carla", 1500, 12)]
    text = banco("standings").output
    assert "score" in text.splitlines()[0] and "points" in text.splitlines()[0]
    assert text.splitlines()[1].split()[-2:] == ["1500", "22"]


def test_standings_json_carries_the_head_line_it_was_read_at(banco):
    """The text of a finished game ends with its head line; the JSON carries it on every row,
    for a game in play too (the head the standings were read at)."""
    banco("new", "Anna", "Bruno", "--rules", "championship")
    banco("roll", "1", "2")
    banco("buy")
    last = json.loads(banco("log", "--json").output)[-1]
    rows = json.loads(banco("standings", "--json").output)
    assert {r["head_line"] for r in rows} == {f"banco/1/{last['seq']}/{last['hash'][:12]}"}
    banco("time-up")
    last = json.loads(banco("log", "--json").output)[-1]
    line = f"banco/1/{last['seq']}/{last['hash'][:12]}"
    assert line in banco("standings").output
    assert [r["head_line"] for r in json.loads(banco("standings", "--json").output)] == [line] * 2
