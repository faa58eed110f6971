"""The recorded classic game in fixtures/ replays to exactly the table and log on file.

To re-record after a deliberate rule change: run this file with BANCO_REGOLDEN=1 and review the
diff of fixtures/ like any other change.
"""

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from freezegun import freeze_time

from cli.main import cli

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
TRANSCRIPT = FIXTURES / "classic-4p.banco"
GAMES = ("classic-4p", "classic-to-the-end")


def _replay(tmp_path_factory, name):
    db = str(tmp_path_factory.mktemp("golden") / "g.db")
    runner = CliRunner()
    with freeze_time("2026-11-29 21:00:00"):
        result = runner.invoke(cli, ["--db", db, "run", "-q", str(FIXTURES / f"{name}.banco")])
    assert result.exit_code == 0, result.output

    def call(*args):
        r = runner.invoke(cli, ["--db", db, *args])
        assert r.exit_code == 0, r.output
        return json.loads(r.output)

    return call


@pytest.fixture(scope="module", params=GAMES)
def game(request, tmp_path_factory):
    return request.param, _replay(tmp_path_factory, request.param)


@pytest.fixture(scope="module")
def replay(tmp_path_factory):
    return _replay(tmp_path_factory, "classic-4p")


@pytest.fixture(scope="module")
def to_the_end(tmp_path_factory):
    return _replay(tmp_path_factory, "classic-to-the-end")


def golden(name, value):
    path = FIXTURES / name
    if os.environ.get("BANCO_REGOLDEN"):
        path.write_text(json.dumps(value, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return json.loads(path.read_text(encoding="utf-8"))


def test_transcript_is_a_real_game():
    lines = [ln for ln in TRANSCRIPT.read_text(encoding="utf-8").splitlines()
             if ln.strip() and not ln.startswith("#")]
    assert len(lines) >= 150
    words = {ln.lstrip("! ").split()[0] for ln in lines}
    assert {"new", "roll", "buy", "decline", "bid", "hammer", "claim", "card"} <= words
    assert any(ln.startswith("! claim") for ln in lines)


def test_final_table_matches_the_golden_file(game):
    name, call = game
    state = call("state", "--json")
    assert state == golden(f"{name}.state.json", state)


def _without_identity(data: dict) -> dict:
    # a game's uuid is new each time it is recorded: everything else must be the same
    return {k: v for k, v in data.items() if k != "game_uuid"}


def test_event_log_matches_the_golden_file(game):
    name, call = game
    log = [{"seq": e["seq"], "type": e["type"], "data": _without_identity(e["data"])}
           for e in call("log", "--json")]
    assert log == golden(f"{name}.events.json", log)


def test_the_game_has_every_kind_of_table_action(replay):
    kinds = {e["type"] for e in replay("log", "--json")}
    assert {"AuctionWon", "RentPaid", "RentClaimRefused", "CardDrawn", "SentToJail",
            "LeftJail", "ExtraRollDue", "JailCardKept", "SalaryPaid"} <= kinds


def test_the_late_claim_is_refused_with_its_evidence(replay):
    log = replay("log", "--json")
    refused = [e for e in log if e["type"] == "RentClaimRefused"]
    assert len(refused) == 1
    r = refused[0]["data"]
    by_seq = {e["seq"]: e for e in log}
    landing = by_seq[r["opened_seq"]]
    assert landing["type"] == "RentClaimOpened" and landing["data"]["payer"] == r["payer"]
    lapse = by_seq[r["lapsed_seq"]]
    assert lapse["type"] == "RentClaimLapsed" and lapse["data"]["closed_by"] == r["closer"]
    # the roll that closed the window is the closer's, right after the lapse
    assert by_seq[r["lapsed_seq"] + 1]["type"] == "DiceRolled"
    assert by_seq[r["lapsed_seq"] + 1]["data"]["player"] == r["closer"]


def test_money_is_conserved_and_every_transfer_adds_up(game):
    from ledger.events import transfers_of

    _, call = game
    state = call("state", "--json")
    balance = {p["name"]: 0 for p in state["players"]}
    for e in call("log", "--json"):
        for t in transfers_of(e):
            if t["payer"] in balance:
                balance[t["payer"]] -= t["amount"]
            if t["payee"] in balance:
                balance[t["payee"]] += t["amount"]
    assert balance == {p["name"]: p["cash"] for p in state["players"]}
    # and each player's statement ends on the cash the table shows
    for p in state["players"]:
        rows = call("statement", p["name"], "--json")
        assert rows[-1]["balance"] == p["cash"]


def test_audit_is_clean(game):
    _, call = game
    report = call("audit", "--json")
    assert report["ok"] and report["events"] == len(call("log", "--json"))


def test_the_game_is_played_to_the_last_player(to_the_end):
    state = to_the_end("state", "--json")
    assert state["ended"] and state["winner"] == "Bruno"
    assert [p["bankrupt"] for p in state["players"]] == [True, False, True, True]
    standings = to_the_end("standings", "--json")
    assert [(s["rank"], s["name"], s["status"]) for s in standings] == [
        (1, "Bruno", "winner"), (2, "Dario", "bankrupt"), (3, "Anna", "bankrupt"),
        (4, "Carla", "bankrupt")]
    words = {ln.split()[0] for ln in (FIXTURES / "classic-to-the-end.banco").read_text(
        encoding="utf-8").splitlines() if ln and not ln.startswith("#")}
    assert {"build", "trade", "mortgage", "bankrupt", "hammer", "claim"} <= words


def test_a_bankruptcy_to_a_player_hands_over_a_mortgaged_deed_for_its_ten_percent(to_the_end):
    log = to_the_end("log", "--json")
    board = {s["position"]: s for s in to_the_end("board", "--json")}
    found = 0
    for e in log:
        d = e["data"]
        if e["type"] == "EstateTransferred" and d["creditor"] != "bank":
            fees = [x for x in log[e["seq"]:e["seq"] + 8] if x["type"] == "MortgageInterestPaid"]
            for fee in fees:
                pos = fee["data"]["property"]
                assert pos in d["properties"] and fee["data"]["payer"] == d["creditor"]
                assert fee["data"]["amount"] == -(-board[pos]["mortgage"] // 10)  # 10%, rounded up
                found += 1
    assert found


def test_a_bankruptcy_to_the_bank_auctions_the_deeds_one_by_one(to_the_end):
    log = to_the_end("log", "--json")
    declared = [e for e in log if e["type"] == "BankruptcyDeclared"
                and e["data"]["creditor"] == "bank"]
    assert declared
    seq = declared[0]["seq"]
    estate = next(e for e in reversed(log[:seq]) if e["type"] == "EstateTransferred")
    deeds = estate["data"]["properties"]
    opened = [e["data"]["property"] for e in log[seq:] if e["type"] == "AuctionOpened"][:len(deeds)]
    assert opened == deeds  # each deed, in order, once
    # the deeds came back unmortgaged: whoever won them holds them free
    state = to_the_end("state", "--json", "--at", str(seq))
    assert all(p["owner"] is None and not p["mortgaged"]
               for p in state["properties"] if p["position"] in deeds)
