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


@pytest.fixture(scope="module")
def replay(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("golden") / "g.db")
    runner = CliRunner()
    with freeze_time("2026-11-29 21:00:00"):
        result = runner.invoke(cli, ["--db", db, "run", "-q", str(TRANSCRIPT)])
    assert result.exit_code == 0, result.output

    def call(*args):
        r = runner.invoke(cli, ["--db", db, *args])
        assert r.exit_code == 0, r.output
        return json.loads(r.output)

    return call


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


def test_final_table_matches_the_golden_file(replay):
    state = replay("state", "--json")
    assert state == golden("classic-4p.state.json", state)


def test_event_log_matches_the_golden_file(replay):
    log = [{"seq": e["seq"], "type": e["type"], "data": e["data"]} for e in replay("log", "--json")]
    assert log == golden("classic-4p.events.json", log)


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


def test_money_is_conserved_and_every_transfer_adds_up(replay):
    state = replay("state", "--json")
    log = replay("log", "--json")
    balance = {p["name"]: 0 for p in state["players"]}
    for e in log:
        d = e["data"]
        if "payer" in d and "amount" in d and e["type"] not in ("RentClaimRefused",
                                                                 "RentClaimOpened",
                                                                 "RentClaimLapsed",
                                                                 "RentNotDue"):
            if d["payer"] in balance:
                balance[d["payer"]] -= d["amount"]
            if d["payee"] in balance:
                balance[d["payee"]] += d["amount"]
    assert balance == {p["name"]: p["cash"] for p in state["players"]}


def test_audit_is_clean(replay):
    report = replay("audit", "--json")
    assert report["ok"] and report["events"] == len(replay("log", "--json"))
