"""The recorded vintage and short games in fixtures/ replay to exactly the table and log on file,
anchored by figures worked out by hand from the seeds (002, 004 "Regole del gioco breve").

A golden test never regenerates itself.  After a deliberate rule change, regenerate with

    python tests/tools/regolden.py vintage-to-a-bankruptcy short-to-the-end

and review the diff of fixtures/ like any other change.  The transcripts come from
tests/tools/record_game.py --rules vintage / --rules short.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
GAMES = ("vintage-to-a-bankruptcy", "short-to-the-end")
FROZEN = "2026-11-29 21:00:00"


def replay(db: str, name: str):
    """Run the transcript into `db`; return a function calling banco there for JSON."""
    from click.testing import CliRunner
    from freezegun import freeze_time

    from banco.cli.main import cli

    runner = CliRunner()
    with freeze_time(FROZEN):
        result = runner.invoke(cli, ["--db", db, "run", "-q", str(FIXTURES / f"{name}.banco")])
    assert result.exit_code == 0, result.output

    def call(*args):
        r = runner.invoke(cli, ["--db", db, *args])
        assert r.exit_code == 0, r.output
        return json.loads(r.output)

    return call


def documents(call) -> dict:
    """What is kept on file: the final table, and the log without the game's identity (a new
    uuid each time the game is recorded)."""
    log = [{"seq": e["seq"], "type": e["type"],
            "data": {k: v for k, v in e["data"].items() if k != "game_uuid"}}
           for e in call("log", "--json")]
    return {"state": call("state", "--json"), "events": log}


def on_file(name: str, kind: str):
    return json.loads((FIXTURES / f"{name}.{kind}.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module", params=GAMES)
def game(request, tmp_path_factory):
    name = request.param
    return name, replay(str(tmp_path_factory.mktemp("golden") / "g.db"), name)


@pytest.fixture(scope="module")
def vintage(tmp_path_factory):
    return replay(str(tmp_path_factory.mktemp("vintage") / "g.db"), GAMES[0])


@pytest.fixture(scope="module")
def short(tmp_path_factory):
    return replay(str(tmp_path_factory.mktemp("short") / "g.db"), GAMES[1])


def test_the_replay_matches_the_files(game):
    name, call = game
    docs = documents(call)
    assert docs["state"] == on_file(name, "state")
    assert docs["events"] == on_file(name, "events")  # facts with facts, today's schema
    assert call("audit", "--json")["ok"]


def of_type(log, type_):
    return [e for e in log if e["type"] == type_]


def test_vintage_capital_and_deals_by_hand(vintage):
    log = vintage("log", "--json")
    # 002 §Preparazione: four players, 250.000 £ each and five deeds each, paid at once.
    assert {e["data"]["amount"] for e in of_type(log, "CashIssued")} == {250_000}
    anna = of_type(log, "DeedsDealt")[0]["data"]
    # Corso Magellano 22.000 + Viale dei Giardini 35.000 + Vicolo Corto 6.000 + Piazza Dante
    # 20.000 + Stazione Est 20.000 = 103.000
    assert (anna["player"], anna["amount"], len(anna["properties"])) == ("Anna", 103_000, 5)
    assert len(of_type(log, "DeedsDealt")) == 4


def test_vintage_bankruptcy_is_paid_by_the_bank_in_full(vintage):
    log = vintage("log", "--json")
    declared = of_type(log, "BankruptcyDeclared")
    assert len(declared) == 1
    d = declared[0]["data"]
    assert (d["player"], d["creditor"]) == ("Dario", "Bruno")
    # Viale dei Giardini with 4 houses: 1.300 M on the M deed, 130.000 £ in lire
    debt = of_type(log, "DebtIncurred")[-1]["data"]
    assert (debt["debtor"], debt["creditor"], debt["amount"]) == ("Dario", "Bruno", 130_000)
    paid = of_type(log, "DebtPaidByBank")[0]["data"]
    assert (paid["payer"], paid["payee"], paid["amount"]) == ("bank", "Bruno", 130_000)
    returned = of_type(log, "BuildingsReturned")[0]["data"]  # one house on each of two lots
    assert (returned["bank_houses"], returned["bank_hotels"]) == (2, 0)
    estate = of_type(log, "EstateTransferred")[0]["data"]
    assert estate["creditor"] == "bank"
    # the land auctioned among the players left, one deed at a time
    after = [e for e in log if e["seq"] > declared[0]["seq"]]
    assert [e["data"]["property"] for e in of_type(after, "AuctionWon")] == estate["properties"]
    state = vintage("state", "--json")
    assert not state["ended"] and state["pending"]["auction"] is None


def test_short_game_by_hand(short):
    log = short("log", "--json")
    anna = of_type(log, "DeedsDealt")[0]["data"]
    assert (anna["player"], anna["amount"]) == ("Anna", 140 + 200)  # Corso Ateneo, Stazione Sud
    # 004 short game 2: a hotel after three houses, the three going back to the Bank
    assert {e["data"]["bank_houses"] for e in of_type(log, "HotelBuilt")} == {3}
    # 004 short game 3: the second bankruptcy ends the game
    declared = of_type(log, "BankruptcyDeclared")
    assert [d["data"]["player"] for d in declared] == ["Dario", "Bruno"]
    assert log[-1]["type"] == "GameEnded" and log[-1]["data"]["winner"] == "Anna"
    assert log[-1]["data"]["rule"] == "004 §Regole del gioco breve"
    # Bruno's hotels pass to his creditor with his deeds: the `bankrupt` command sells nothing
    estate = of_type(log, "EstateTransferred")[-1]["data"]
    assert estate["buildings"] is True and estate["creditor"] == "Anna"
    end = declared[-1]["seq"]
    start = max(e["seq"] for e in log if e["type"] == "CommandRecorded" and e["seq"] < end)
    command = [e for e in log if start < e["seq"] <= end]
    assert [e["type"] for e in command] == ["EstateTransferred", "BankruptcyDeclared"]
    state = short("state", "--json")
    blue = {p["name"]: p for p in state["properties"] if p["position"] in (37, 39)}
    assert all(p["owner"] == "Anna" and p["hotel"] for p in blue.values())
    # Carla: 211 in cash and six mortgaged deeds at half their price: Stazione Ovest 100,
    # Via Accademia 70, Via Marco Polo 110, Corso Magellano 110, Largo Colombo 120, Viale
    # Costantino 130 = 851
    rows = short("standings", "--json")
    assert [(r["name"], r["status"]) for r in rows] == [
        ("Anna", "winner"), ("Carla", "in play"), ("Bruno", "bankrupt"), ("Dario", "bankrupt")]
    assert rows[1]["net_worth"] == 851
