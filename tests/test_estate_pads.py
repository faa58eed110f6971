"""The banker's estate pads (issue 18): what projections/readings/estate_pads.py offers each
player to build, sell, mortgage, lift and trade, and what the next undo would take back
(projections/readings/screen.py's undo_target), read from tables recorded by the shell.  The
pads in a browser: tests/test_phones_browser.py."""

from __future__ import annotations

import shutil

import pytest
from games import lines, record
from phones_tables import table

from banco.ledger.board.rule_sets import load_rules
from banco.ledger.book import Book
from banco.projections.readings.estate_pads import estate
from banco.projections.readings.screen import undo_target

# Carla takes Piazza Giulio Cesare from Anna for 100 M: the giallo group is hers, whole
TRADE = "trade Anna Carla --give Piazza Giulio Cesare --get 100"


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    return record(str(tmp_path_factory.mktemp("estate") / "game.db"), "classic-4p")


@pytest.fixture
def db(recorded, tmp_path):
    path = str(tmp_path / "game.db")
    shutil.copy(recorded, path)
    return path


def pads(state, name: str) -> dict:
    return next(p for p in estate(state)["players"] if p["name"] == name)


def test_only_a_group_owned_whole_is_offered_for_building_at_levels_the_cash_pays(db):
    assert all(not p["build"] and not p["sell"] for p in estate(table(db))["players"])
    lines(db, TRADE)
    state = table(db)
    carla = pads(state, "Carla")
    assert state.player("Carla").cash == 1233
    [giallo] = carla["build"]
    assert giallo["group"] == "giallo"
    assert [lot["name"] for lot in giallo["lots"]] == ["Viale Costantino", "Viale Traiano",
                                                       "Piazza Giulio Cesare"]
    # 150 M a house: three houses a level; 1350 M for 3 each is past her 1233 M
    assert [(lv["level"], lv["cost"], lv["cost_text"]) for lv in giallo["levels"]] == [
        ("1", 450, "450 M"), ("2", 900, "900 M")]
    assert pads(state, "Anna")["build"] == []


def test_a_built_group_sells_down_by_level_and_is_neither_mortgaged_nor_traded(db):
    lines(db, TRADE, "build giallo 2")
    state = table(db)
    carla = pads(state, "Carla")
    [giallo] = carla["sell"]
    assert [lv["level"] for lv in giallo["levels"]] == ["1", "all"]  # down to 1 each, or none
    assert carla["build"] == []  # 333 M left, and a third house on each costs 450 M
    deeds = {d["name"] for d in carla["mortgage"]}
    assert deeds == {"Bastioni Gran Sasso", "Piazza Università"}
    assert {d["name"] for d in carla["trade"]["deeds"]} == deeds
    lines(db, "sell giallo 1", "build Viale Traiano")  # uneven: 1 2 1
    [giallo] = pads(table(db), "Carla")["sell"]
    assert [lv["level"] for lv in giallo["levels"]] == ["1", "all"]  # not 2: a lot has 1


def test_mortgaged_deeds_are_offered_to_lift_with_their_cost_and_block_building(db):
    lines(db, TRADE, "mortgage Viale Traiano")
    carla = pads(table(db), "Carla")
    assert carla["build"] == []  # a mortgaged lot: no building on its group
    assert carla["unmortgage"] == [{"name": "Viale Traiano", "cost": 143, "cost_text": "143 M",
                                    "affordable": True}]
    assert "Viale Traiano" not in {d["name"] for d in carla["mortgage"]}
    assert {"name": "Viale Traiano", "mortgaged": True} in carla["trade"]["deeds"]
    assert pads(table(db), "Anna")["trade"]["jail_cards"] == 1


def test_the_levels_are_the_rule_sets(db):
    """Three houses before a hotel in the short game (`houses_for_hotel`), four in the
    classic: the levels offered come from the rule set's data, not from its name."""
    lines(db, TRADE)
    state = table(db)
    rich = state._replace(players=tuple(p._replace(cash=10_000) for p in state.players))
    classic = [lv["level"] for lv in pads(rich, "Carla")["build"][0]["levels"]]
    assert classic == ["1", "2", "3", "4", "hotel"]
    short = rich._replace(rules=load_rules("short"))
    assert short.rules.houses_for_hotel == 3
    assert [lv["level"] for lv in pads(short, "Carla")["build"][0]["levels"]] == [
        "1", "2", "3", "hotel"]


def test_undo_target_names_the_last_command_in_force_and_the_table_it_leaves(db):
    lines(db, TRADE, "build giallo 2", "undo")
    book = Book(db, create=False)
    try:
        target = undo_target(book.backwards(1, book.store.last_seq(1) + 1))
        assert target["line"] == TRADE  # the build was taken back: the trade is next
        before = book.state(1, at=target["before"])
        assert before.player("Carla").cash == 1333
        assert "Piazza Giulio Cesare" not in {
            before.edition.space(p).name for p, o in enumerate(before.owners) if o == "Carla"}
    finally:
        book.close()
    assert "nothing to undo" in str(undo_target([]).text)  # no rows: the book's refusal


def test_a_tie_for_a_deed_nobody_bid_for_is_the_bankers_to_break(db):
    """000 FAQ 22 (classic's auction_no_bid = richest): the richest takes the deed at the
    opening bid; two with the same cash, the banker names one, and the page offers each."""
    from banco.ledger.table.steps import hammer_choices

    lines(db, "roll 2 4", "decline")  # Anna declines Corso Ateneo: nobody has bid
    state = table(db)
    assert hammer_choices(state) == []  # Carla alone is the richest: `hammer` says it
    top = state.player("Carla").cash
    tied = state._replace(players=tuple(p._replace(cash=top) if p.name == "Anna" else p
                                        for p in state.players))
    assert hammer_choices(tied) == ["Anna", "Carla"]
    bank = tied._replace(rules=tied.rules._replace(auction_no_bid="bank_keeps"))
    assert hammer_choices(bank) == []  # the rule set's data says where it goes
    lines(db, "bid Bruno 10")
    assert hammer_choices(table(db)) == []
