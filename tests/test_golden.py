"""The recorded classic games in fixtures/ replay to exactly the table and log on file, and a
few figures of each, worked out by hand from the deeds and the transcript, anchor them.

The test never writes the files it compares with.  After a deliberate rule change, regenerate
them with `python tests/tools/regolden.py` and review `git diff fixtures/` like any other change;
the hand-worked anchors below must still hold (or be worked out again, by hand).
"""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from freezegun import freeze_time

from banco.cli.main import cli

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


def golden(name):
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


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
    assert state == golden(f"{name}.state.json"), "see tests/tools/regolden.py"


def _without_identity(data: dict) -> dict:
    # a game's uuid is new each time it is recorded: everything else must be the same
    return {k: v for k, v in data.items() if k != "game_uuid"}


def test_event_log_matches_the_golden_file(game):
    """The facts as data: the log of the game recorded today is the golden log's facts (written
    as today's schema by tests/tools/regolden.py: no upcaster between)."""
    name, call = game
    log = [{"seq": e["seq"], "type": e["type"], "data": _without_identity(e["data"])}
           for e in call("log", "--json")]
    assert log == golden(f"{name}.events.json"), "see tests/tools/regolden.py"


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
    from banco.ledger.records.events import transfers_of

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
    assert report["ok"] and report["games"][0]["events"] == len(call("log", "--json"))


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


def test_the_last_bankruptcy_charges_the_winner_ten_percent_by_hand(to_the_end):
    """Dario goes bankrupt to Bruno, the last player left, with nine of his ten deeds
    mortgaged (Corso Impero is not).  Bruno pays 10% of each mortgage, rounded up (004
    §Fallimento): Vicolo Corto 3, Vicolo Stretto 3, Piazza Università 8, Via Verdi 9, Piazza
    Dante 10, Stazione Nord 10, Viale Traiano 13, Via Roma 15, Stazione Est 10 = 81, so his
    2711 after the estate ends the game as 2630."""
    log = to_the_end("log", "--json")
    declared = [e for e in log if e["type"] == "BankruptcyDeclared"][-1]
    fees = [(e["data"]["property"], e["data"]["amount"]) for e in log[declared["seq"]:]
            if e["type"] == "MortgageInterestPaid"]
    assert fees == [(1, 3), (3, 3), (14, 8), (16, 9), (19, 10), (25, 10), (27, 13), (31, 15),
                    (35, 10)]
    at = to_the_end("state", "--json", "--at", str(declared["seq"]))
    assert next(p["cash"] for p in at["players"] if p["name"] == "Bruno") == 2711
    final = to_the_end("state", "--json")
    assert next(p["cash"] for p in final["players"] if p["name"] == "Bruno") == 2711 - 81
    assert log[-1]["type"] == "GameEnded" and log[-1]["data"]["winner"] == "Bruno"


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


# --- figures worked out by hand ------------------------------------------------------------------

def test_four_players_first_round_by_hand(replay):
    """Transcript lines 5-13: Anna rolls 3+2 onto Stazione Sud (5) and buys it for 200; Dario
    rolls 1+4 onto it and Anna claims: one station owned, the deed's first rent, 25.  So Anna
    has 1500 - 200 + 25 = 1325 and Dario 1500 - 25 = 1475."""
    log = replay("log", "--json")
    rent = next(e for e in log if e["type"] == "RentPaid")
    assert (rent["data"]["payer"], rent["data"]["payee"], rent["data"]["amount"]) == (
        "Dario", "Anna", 25)
    cash = {p["name"]: p["cash"] for p in replay("state", "--json", "--at", str(rent["seq"]))["players"]}
    assert (cash["Anna"], cash["Dario"]) == (1325, 1475)


def test_four_players_two_salaries_in_one_move_by_hand(replay):
    """Bruno's first lap, from the transcript: 1+1 to Probabilità (2), card 4 "ricavate 50";
    3+5 to 10; 1+5 to Via Verdi (16), bought 180; 2+3 to Via Marco Polo (21), bought 220; 5+6
    to Corso Impero (32), bought 300; 3+4 to Parco della Vittoria (39), bought 400; 3+5 past
    Via! (200) onto Imprevisti (7), card 2 "Andate avanti sino al Via!" (200 again, 004: twice
    in one move).  He paid no rent on the way: 1500 + 50 - 180 - 220 - 300 - 400 + 200 + 200
    = 850, on Via!, after exactly two salaries."""
    log = replay("log", "--json")
    salaries = [e for e in log if e["type"] == "SalaryPaid" and e["data"]["payee"] == "Bruno"]
    assert [e["data"]["amount"] for e in salaries[:2]] == [200, 200]
    # the same roll: moved, drew (the card's command is recorded first), moved
    assert salaries[1]["seq"] - salaries[0]["seq"] == 5
    bruno = next(p for p in replay("state", "--json", "--at", str(salaries[1]["seq"]))["players"]
                 if p["name"] == "Bruno")
    assert (bruno["cash"], bruno["position"]) == (850, 0)


def test_to_the_end_rent_on_built_lots_by_hand(to_the_end):
    """The deeds, as printed (the same figures as the US board's Park Place, Boardwalk and
    Baltic Avenue): Viale dei Giardini with 2 houses 500, with 3 houses 1100, with a hotel
    1500; Parco della Vittoria with a hotel 2000; Vicolo Stretto with a hotel 450 (each the
    deed's row, not doubled: buildings stand)."""
    log = to_the_end("log", "--json")
    from banco.ledger.records.reasons import english

    opened = {(e["data"]["property"], english(e["data"]["basis"])): e["data"]["amount"]
              for e in log if e["type"] == "RentClaimOpened"}
    assert opened[(37, "2 house(s)")] == 500
    assert opened[(37, "3 house(s)")] == 1100
    assert opened[(37, "hotel")] == 1500
    assert opened[(39, "hotel")] == 2000
    assert opened[(3, "hotel")] == 450
    paid = [e["data"] for e in log if e["type"] == "RentPaid" and e["data"]["property"] == 37]
    assert [(x["payer"], x["payee"], x["amount"]) for x in paid] == [
        ("Carla", "Bruno", 500), ("Anna", "Bruno", 1100)]


def test_to_the_end_a_bankruptcy_to_a_player_by_hand(to_the_end):
    """Carla lands on Bruno's hotel on Parco della Vittoria: 2000.  She has 174 in cash (she
    mortgaged Largo Colombo, 120, to pay the fine of her last try in jail before moving: 004
    §Prigione), and of her six deeds only Piazza Giulio Cesare (280) and Largo Augusto (320)
    are not yet mortgaged: 174 + 140 + 160 = 474 < 2000, so she is bankrupt to Bruno, who
    gets her 174 and her deeds, and pays 10% (rounded up) at once on the four that come
    mortgaged: Stazione Ovest 100 -> 10, Corso Raffaello 90 -> 9, Corso Magellano 110 -> 11,
    Largo Colombo 120 -> 12."""
    log = to_the_end("log", "--json")
    declared = next(e for e in log if e["type"] == "BankruptcyDeclared"
                    and e["data"]["player"] == "Carla")
    assert declared["data"] == {"player": "Carla", "creditor": "Bruno",
                                "reason": {"code": "owed_could_raise", "owed": 2000,
                                           "can": 474}}
    estate = log[declared["seq"] - 2]
    assert estate["type"] == "EstateTransferred"
    assert (estate["data"]["payer"], estate["data"]["payee"], estate["data"]["amount"]) == (
        "Carla", "Bruno", 174)
    assert sorted(estate["data"]["properties"]) == [15, 18, 23, 24, 29, 34]
    fees = [(e["data"]["property"], e["data"]["amount"]) for e in log[declared["seq"]:]
            [:4] if e["type"] == "MortgageInterestPaid"]
    assert fees == [(15, 10), (18, 9), (23, 11), (24, 12)]
