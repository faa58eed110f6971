"""The issue-3 words through CliRunner: build, sell, mortgage, trade, bankrupt, and the
statement, history and standings read models."""

import csv
import io
import json
import os

import pytest


def doc(result):
    return json.loads(result.output)


@pytest.fixture
def marrone(banco):
    """Anna buys Vicolo Stretto; nobody bids for Via Accademia and Società Elettrica, which go
    to Bruno, the richest player, at 1 M each (000 FAQ 22)."""
    banco("new", "Anna", "Bruno")
    banco("roll", "1", "2")  # Anna: Vicolo Stretto
    banco("buy")
    banco("roll", "6", "5")  # Bruno: Stazione...? 11 = Via Accademia
    banco("decline")
    assert "Bruno pays 1 M to the Bank: nobody bid for Via Accademia" in banco("hammer").output
    banco("roll", "4", "5")  # Anna: 3 + 9 = 12 Società Elettrica
    banco("decline")
    banco("hammer")
    return banco


def test_property_names_by_prefix_and_suggestions(marrone):
    r = marrone("build", "vicolo c", code=1)  # resolves Vicolo Corto; Anna lacks the group
    assert "belongs to the Bank" in r.output
    r = marrone("mortgage", "Vicolo Strett")
    assert "Anna pays" not in r.output and "the Bank pays 30 M to Anna" in r.output
    r = marrone("mortgage", "vicolo", code=2)
    assert "ambiguous" in r.output and "Vicolo Corto" in r.output
    r = marrone("mortgage", "Parco dela Vitoria", code=2)
    assert "did you mean 'Parco della Vittoria'" in r.output


def test_trade_build_sell_mortgage_through_the_cli(marrone):
    r = marrone("trade", "Bruno", "Anna", "--give", "vicolo s", code=1)
    assert "Bruno does not own Vicolo Stretto (Anna does)" in r.output
    r = marrone("trade", "Anna", "Bruno", "--get", "100", "jail-card", code=1)
    assert "holds 0 get-out-of-jail" in r.output
    # Bruno buys Vicolo Corto from nobody: give Anna the group by a state she reaches in play
    r = marrone("trade", "Anna", "Bruno", "--give", "vicolo stretto", "--get", "200")
    assert "trade: Anna gives Vicolo Stretto; Bruno gives 200 M" in r.output
    d = doc(marrone("state", "--json"))
    assert d["properties"][1]["owner"] == "Bruno"
    assert [p["cash"] for p in d["players"]] == [1640, 1298]
    r = marrone("build", "vicolo stretto", code=1)
    assert "does not own the whole group" in r.output and "Vicolo Corto missing" in r.output


def test_statement_history_standings(marrone):
    marrone("trade", "Anna", "Bruno", "--give", "vicolo stretto", "--get", "200")
    rows = doc(marrone("statement", "anna", "--json"))
    assert rows[0] == {"seq": 3, "type": "CashIssued", "counterparty": "bank", "amount": 1500,
                       "reason": {"code": "starting_cash"}, "balance": 1500}
    assert rows[-1]["balance"] == doc(marrone("state", "--json"))["players"][0]["cash"]
    assert rows[-1]["type"] == "TradeCompleted" and rows[-1]["amount"] == 200
    # Bruno paid Anna: her statement names him, not herself (the fact says "trade with Anna",
    # from the payer's side; the last trial read "Bruno  trade with Anna" on Anna's own)
    assert rows[-1]["counterparty"] == "Bruno"
    assert rows[-1]["reason"] == {"code": "trade", "player": "Bruno"}
    assert marrone("statement", "anna").output.splitlines()[-2].endswith("trade with Bruno")
    assert marrone("statement", "bruno").output.splitlines()[-2].endswith("trade with Anna")
    log = doc(marrone("log", "--json"))
    from banco.projections.readings.accounts import statement  # the log's path, no read model

    assert list(statement(log, "Anna"))[-1]["reason"] == {"code": "trade", "player": "Bruno"}
    out = marrone("statement", "anna", "--csv").output
    table = list(csv.DictReader(io.StringIO(out)))
    assert table[1]["reason"] == "bought Vicolo Stretto" and table[1]["amount"] == "-60"
    bank = doc(marrone("statement", "bank", "--json"))
    assert bank[-1]["balance"] == -(1500 * 2) + 60 + 1 + 1
    hist = doc(marrone("history", "vicolo stretto", "--json"))
    assert [h["owner"] for h in hist] == ["Anna", "Bruno"]
    assert "traded from Anna to Bruno" in hist[-1]["note"]
    assert "declined it" in marrone("history", "via accademia").output
    st = doc(marrone("standings", "--json"))
    assert [(s["rank"], s["name"]) for s in st] == [(1, "Bruno"), (2, "Anna")]
    assert st[0]["net_worth"] == 1298 + 60 + 140 + 150 and st[1]["net_worth"] == 1640


def test_debt_bankruptcy_and_game_over(banco):
    banco("new", "Anna", "Bruno")
    banco("roll", "1", "3")  # Anna: Tassa Patrimoniale 200
    banco("roll", "1", "2")  # Bruno: Vicolo Stretto
    banco("buy")
    # Anna cannot be bankrupt without a debt
    r = banco("bankrupt", code=1)
    assert "nobody is in debt" in r.output
    d = doc(banco("state", "--json"))
    assert d["pending"]["debt"] is None


def test_property_names_need_no_quotes(marrone):
    r = marrone("mortgage", "vicolo", "stretto")
    assert "the Bank pays 30 M to Anna: mortgaged Vicolo Stretto" in r.output
    r = marrone("sell", "vicolo", "stretto", "lots", code=2)
    assert "no property called 'vicolo stretto lots'" in r.output
    assert "Vicolo Stretto" in marrone("history", "vicolo", "stretto").output


def test_trade_items_need_no_quotes(marrone):
    r = marrone("trade", "Anna", "Bruno", "--give", "vicolo", "stretto", "10", "--get", "250")
    assert "Anna gives Vicolo Stretto, 10 M; Bruno gives 250 M" in r.output
    r = marrone("trade", "Anna", "Bruno", "--give", "vicolo", "strano", code=2)
    # the whole misspelt name is judged, so the hint is the close spelling, not "ambiguous"
    assert "no property called 'vicolo strano': did you mean 'Vicolo Stretto'" in r.output


def test_sell_all_needs_buildings(marrone):
    r = marrone("sell", "vicolo stretto", "all", code=1)
    assert "no buildings" in r.output


def test_auction_building_and_hammer_need_the_right_moment(marrone):
    r = marrone("auction-building", "house", code=1)
    assert "two or more players wanting the last houses" in r.output
    r = marrone("auction-building", "house", "--wanted", "anna=1", "bruno=2", code=1)
    assert "Anna has room for 0 houses, not 1" in r.output  # names resolved, counts read
    r = marrone("auction-building", "house", "--wanted", "Anna:1", code=2)
    assert "say who wants how many as NAME=N" in r.output
    r = marrone("hammer", "vicolo stretto", code=1)
    assert "cannot close the auction now" in r.output


def test_break_up_names_several_hotels_without_quotes(marrone):
    r = marrone("break-up", "vicolo", "stretto", "via", "accademia", code=1)
    assert "Vicolo Stretto has no hotel" in r.output
    r = marrone("break-up", "vicolo", "stretto", code=1)
    assert "two or more hotels" in r.output


@pytest.mark.parametrize("names,words", [
    (["bank", "Anna"], "player name 'bank' refused: that is the Bank's name"),
    (["Anna", "La Banca"], "player name 'La Banca' refused"),
    (["", "Anna"], "a name cannot be empty"),
    (["Anna", "Anná"], "'Anna' and 'Anná' are the same to banco"),
])
def test_new_refuses_a_bad_name_with_exit_2_and_starts_no_game(banco, names, words):
    result = banco("new", *names, code=2)
    assert words in result.output and "Traceback" not in result.output
    assert not os.path.exists(banco.db)  # refused before anything was written


def test_bankrupt_takes_lift_with_unquoted_names(banco, tmp_path):
    rules = tmp_path / "poor.toml"
    rules.write_text('extends = "classic"\nstarting_cash = 100\n')
    banco("new", "Anna", "Bruno", "--rules", str(rules))
    out = banco("roll", "1", "3").output  # Tassa Patrimoniale: 200 with 100 in cash
    assert "Anna cannot pay 200 M to the Bank" in out
    r = banco("bankrupt", "anna", "--lift", "vicolo", "corto", code=1)
    assert "--lift is for a player who receives a bankrupt's deeds" in r.output
    assert "'bruno' is not understood" in banco("bankrupt", "anna", "bruno", code=2).output
    assert "--lift needs the mortgaged deeds" in banco("bankrupt", "--lift", code=2).output
    assert "Anna is bankrupt to the Bank" in banco("bankrupt").output


@pytest.fixture
def browns(banco):
    """Anna owns both brown streets (house 50): Probabilità 13 sends her back to Vicolo Corto."""
    banco("new", "Anna", "Bruno")
    banco("roll", "1", "1")  # Probabilità
    banco("card", "probabilita", "ritornate")
    banco("buy")  # Vicolo Corto, 60
    banco("roll", "1", "1")  # doubles again: Vicolo Stretto
    banco("buy")
    banco("roll", "2", "3")  # Viale Monterosa: nobody bids, Bruno (richest) takes it at 1
    banco("decline")
    banco("hammer")
    return banco


def test_a_group_without_a_level_is_told_what_build_takes(browns):
    """`build marrone` is no unknown property: the group needs a level, said in both ways."""
    r = browns("build", "marrone", code=2)
    assert "no property called" not in r.output
    assert ("marrone is a colour group: say how far to build on it, `build marrone N` (N houses "
            "on each of its properties, 1 to 4) or `build marrone hotel`") in r.output
    assert "`build marrone N`" in browns("build", "marr", code=2).output  # a unique prefix
    r = browns("--lang", "it", "costruisci", "marrone", code=2)
    assert "`costruisci marrone albergo`" in r.output and "gruppo di colore" in r.output
    # a word that begins a property's name is still that property's (`vicolo`: two of them)
    assert "ambiguous" in browns("build", "vicolo", code=2).output
    assert doc(browns("state", "--json"))["bank"] == {"houses": 32, "hotels": 12}  # none built


def test_build_and_sell_a_group_evenly_in_one_line(browns):
    r = browns("build", "marrone", "2")
    assert r.output == ("  Anna pays 200 M to the Bank: built evenly: Vicolo Corto 0 houses -> "
                        "2 houses, Vicolo Stretto 0 houses -> 2 houses\n")
    r = browns("build", "vicolo", "corto", "vicolo", "stretto", "--to", "hotel")
    assert "Anna pays 300 M to the Bank: built evenly: Vicolo Corto 2 houses -> a hotel" in r.output
    d = doc(browns("state", "--json"))
    assert d["bank"] == {"houses": 32, "hotels": 10} and d["players"][0]["cash"] == 1380 - 500
    r = browns("sell", "marrone", "1")
    assert "the Bank pays 200 M to Anna: sold evenly at half price" in r.output
    assert doc(browns("state", "--json"))["bank"] == {"houses": 30, "hotels": 12}
    assert "is not a level" in browns("build", "marrone", "tre", code=2).output
    r = browns("build", "vicolo corto", "--to", "3", code=1)
    assert "uneven building" in r.output
    log = doc(browns("log", "--json"))
    facts = [e["type"] for e in log if e["type"] != "CommandRecorded"]
    assert facts[-3:] == ["BuildingsBuilt", "BuildingsBuilt", "BuildingsSold"]
    hist = doc(browns("history", "vicolo corto", "--json"))
    assert "built evenly" in hist[-2]["note"] and "sold evenly" in hist[-1]["note"]
