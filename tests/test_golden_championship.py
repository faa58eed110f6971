"""The recorded championship game (seed 000, the 2015 rules) replays to exactly the table and log
on file, and figures worked out by hand from the deeds, the transcript and the seed anchor it.

fixtures/championship-4p.banco comes from `python tests/tools/record_game.py --rules
championship --seed 982`: four players, the Speedy die from each first pass of Via! with every
face (a triple to any space, and one as the third doubles), Mr Monopoly with no free property
left, rent claims at once, while the next dice are on the table (FAQ 8) and too late, a deed
nobody bids for (FAQ 22), trades, building, mortgages, a bankruptcy in the start-of-turn state
(FAQ 32), and the time running out during a turn (FAQ 6): three players left, the score sheet
and the points decide.

A golden test never regenerates itself.  After a deliberate rule change, regenerate with

    python tests/tools/regolden.py championship-4p

and review the diff of fixtures/ like any other change; the figures below must still hold.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
NAME = "championship-4p"
FROZEN = "2026-11-29 21:00:00"


def replay(db: str):
    """Run the transcript into `db`; return a function calling banco there for JSON."""
    from click.testing import CliRunner
    from freezegun import freeze_time

    from banco.cli.main import cli

    runner = CliRunner()
    with freeze_time(FROZEN):
        result = runner.invoke(cli, ["--db", db, "run", "-q", str(FIXTURES / f"{NAME}.banco")])
    assert result.exit_code == 0, result.output

    def call(*args):
        return json.loads(text(*args))

    def text(*args):
        r = runner.invoke(cli, ["--db", db, *args])
        assert r.exit_code == 0, r.output
        return r.output

    call.text = text
    return call


def documents(call) -> dict:
    """What is kept on file: the final table, and the log without the game's identity (a new
    uuid each time the game is recorded)."""
    log = [{"seq": e["seq"], "type": e["type"],
            "data": {k: v for k, v in e["data"].items() if k != "game_uuid"}}
           for e in call("log", "--json")]
    return {"state": call("state", "--json"), "events": log}


class Game:
    """The replayed game, read once: its log and final table, and the table at any event."""

    def __init__(self, call):
        self.call = call
        self.log = call("log", "--json")
        self.state = call("state", "--json")
        self.by_seq = {e["seq"]: e for e in self.log}

    def of_type(self, type_: str) -> list[dict]:
        return [e for e in self.log if e["type"] == type_]

    def at(self, seq: int) -> dict:
        return self.call("state", "--json", "--at", str(seq))

    def cash_at(self, seq: int) -> dict[str, int]:
        return {p["name"]: p["cash"] for p in self.at(seq)["players"]}

    def roll_before(self, seq: int) -> dict:
        return next(e for e in reversed(self.log[:seq]) if e["type"] == "DiceRolled")


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> Game:
    return Game(replay(str(tmp_path_factory.mktemp("championship") / "g.db")))


def test_the_transcript_is_a_championship_table():
    lines = [ln for ln in (FIXTURES / f"{NAME}.banco").read_text(encoding="utf-8").splitlines()
             if ln.strip() and not ln.startswith("#")]
    assert lines[0] == "new Anna Bruno Carla Dario --rules championship --edition it"
    words = {ln.lstrip("! ").split()[0] for ln in lines}
    assert {"roll", "buy", "decline", "bid", "hammer", "claim", "card", "move", "go", "advance",
            "trade", "build", "sell", "mortgage", "unmortgage", "pay", "pay-fine", "bankrupt",
            "time-up"} <= words
    assert [ln.split()[:2] for ln in lines if ln.startswith("!")] == [["!", "claim"]]
    assert lines[-3:] == ["time-up  # Bruno finishes the turn, then the game ends (000 FAQ 6)",
                          "claim Bruno", "move 8"]


def test_the_replay_matches_the_files(game):
    docs = documents(game.call)
    on_file = {kind: json.loads((FIXTURES / f"{NAME}.{kind}.json").read_text(encoding="utf-8"))
               for kind in ("state", "events")}
    assert docs["state"] == on_file["state"], "see python tests/tools/regolden.py"
    assert docs["events"] == on_file["events"], "see python tests/tools/regolden.py"


def test_the_audit_is_clean(game):
    report = game.call("audit", "--json")
    assert report["ok"] and [g["events"] for g in report["games"]] == [len(game.log)]


def test_money_is_conserved(game):
    from banco.ledger.records.events import transfers_of

    balance = {p["name"]: 0 for p in game.state["players"]}
    for e in game.log:
        for t in transfers_of(e):
            if t["payer"] in balance:
                balance[t["payer"]] -= t["amount"]
            if t["payee"] in balance:
                balance[t["payee"]] += t["amount"]
    assert balance == {p["name"]: p["cash"] for p in game.state["players"]}


# --- the Speedy die (000 §SVOLGIMENTO 2-3, 7-8, FAQ 34-39) -----------------------------------

def test_every_player_throws_the_speedy_die_from_his_first_pass_of_via(game):
    """000 §SVOLGIMENTO 2-3: two dice until the first pass of Via!, three after it; in jail
    only the numbered dice (FAQ 34)."""
    passed: set[str] = set()
    threw: set[str] = set()
    for e in game.log:
        d = e["data"]
        if e["type"] == "TokenMoved" and d["passed_go"]:
            passed.add(d["player"])
        elif e["type"] == "DiceRolled" and "speedy" in d:
            assert d["player"] in passed, e
            threw.add(d["player"])
        elif e["type"] == "DiceRolled" and d["player"] in passed:
            table = game.at(e["seq"] - 1)
            assert next(p for p in table["players"] if p["name"] == d["player"])["in_jail"], e
    assert threw == {"Anna", "Bruno", "Carla", "Dario"}


def test_every_face_of_the_speedy_die(game):
    """Every face counted at least once: 1 (13 times), 2 (15), 3 (7), the Bus (11), Mr
    Monopoly (21).  Mr Monopoly moves 20 times, not 21: Bruno's 6+3 takes him to In Prigione!
    (30), and in jail the Speedy die is lost (000 §SVOLGIMENTO 8)."""
    counted = [e for e in game.of_type("DiceRolled")
               if "speedy" in e["data"] and "speedy_ignored" not in e["data"]]
    faces = Counter(e["data"]["speedy"] for e in counted)
    assert faces == {"1": 13, "2": 15, "3": 7, "bus": 11, "mr": 21}
    moves = Counter(e["data"]["move"] for e in game.of_type("SpeedyMoveChosen"))
    assert moves == {"mr_monopoly": 20, "bus": 11, "triple": 1}
    jailed = [e for e in counted if e["data"]["speedy"] == "mr"
              and game.by_seq[e["seq"] + 2]["type"] == "SentToJail"]
    assert [(e["data"]["player"], e["data"]["dice"]) for e in jailed] == [("Bruno", [6, 3])]
    assert game.by_seq[jailed[0]["seq"] + 3]["type"] == "TurnEnded"


def test_the_bus_by_each_die_and_by_both(game):
    """000 FAQ 38: one numbered die or the two together.  Anna's 5+4: `move 5`, the first
    die; Carla's 5+6: `move 6`, the second; Carla's 4+3: `move 7`, both.  With doubles (Carla's
    5+5, Bruno's 4+4) one die and the other are the same move."""
    moves = []
    for e in game.of_type("SpeedyMoveChosen"):
        if e["data"]["move"] == "bus":
            roll = game.roll_before(e["seq"])["data"]
            moves.append((roll["player"], tuple(roll["dice"]), e["data"]["spaces"]))
    assert moves == [
        ("Carla", (4, 3), 7), ("Bruno", (4, 3), 7), ("Carla", (5, 5), 5), ("Anna", (5, 4), 5),
        ("Anna", (5, 6), 11), ("Bruno", (5, 2), 5), ("Dario", (2, 3), 2), ("Anna", (5, 6), 11),
        ("Anna", (6, 4), 10), ("Carla", (5, 6), 6), ("Bruno", (4, 4), 8)]
    assert all(n in (d1, d2, d1 + d2) for _, (d1, d2), n in moves)


def test_a_triple_goes_anywhere_and_a_triple_as_third_doubles_goes_to_jail(game):
    """Bruno throws 1+1 and a Speedy 1, a triple: `go Via!`, clockwise from where he stands,
    reaching Via! pays 200 and the turn ends there, no second roll for the doubles (000 FAQ
    36-37).  Carla throws 5+5 (Bus), 3+3 and then 3+3 with a Speedy 3: a triple, but the
    third doubles in a row, so jail and the Speedy die does not count (§SVOLGIMENTO 7-8)."""
    go = next(e for e in game.of_type("SpeedyMoveChosen") if e["data"]["move"] == "triple")
    assert (go["data"]["player"], go["data"]["to"]) == ("Bruno", 0)
    roll = game.roll_before(go["seq"])["data"]
    assert (roll["dice"], roll["speedy"], roll["extra_roll"]) == ([1, 1], "1", False)
    after = game.log[go["seq"]:go["seq"] + 3]  # seq n is log[n - 1]
    assert [e["type"] for e in after] == ["TokenMoved", "SalaryPaid", "TurnEnded"]
    assert after[1]["data"]["amount"] == 200 and after[2]["data"]["next"] == "Carla"

    third = [e for e in game.of_type("DiceRolled") if e["data"]["in_row"] == 3]
    assert len(third) == 1
    d = third[0]["data"]
    assert (d["player"], d["dice"], d["speedy"]) == ("Carla", [3, 3], "3")
    assert d["speedy_ignored"]["code"] == "speedy_third_doubles"
    before = [e["data"] for e in game.of_type("DiceRolled") if e["seq"] < third[0]["seq"]][-2:]
    assert [(x["player"], x["dice"], x["in_row"]) for x in before] == [
        ("Carla", [5, 5], 1), ("Carla", [3, 3], 2)]
    sent = game.by_seq[third[0]["seq"] + 1]
    assert sent["type"] == "SentToJail" and sent["data"]["player"] == "Carla"
    assert not any(e["type"] in ("TokenMoved", "SpeedyMoveDue")
                   for e in game.log[third[0]["seq"]:third[0]["seq"] + 3])


def test_a_speedy_utility_rent_by_hand(game):
    """000 §SOCIETÀ: a utility's rent is "a seconda del tiro di dado usato per arrivarci sopra
    (incluso il Dado Speedy)".  Anna, on Parcheggio Gratuito (20), throws 4+2 and a Speedy 2:
    4 + 2 + 2 = 8 to Società Acqua Potabile (28).  Dario owns both utilities: 10 x 8 = 80 (the
    numbered dice alone would make 60).  Dario asks before Carla, two seats after Anna, rolls
    and is paid at once: Anna 1337 - 80 = 1257, Dario 475 + 80 = 555."""
    opened = next(e for e in game.of_type("RentClaimOpened")
                  if e["data"]["property"] == 28 and e["data"]["payer"] == "Anna")
    roll = game.roll_before(opened["seq"])["data"]
    assert (roll["player"], roll["dice"], roll["speedy"]) == ("Anna", [4, 2], "2")
    moved = game.by_seq[opened["data"]["landed_seq"]]["data"]
    assert (moved["from"], moved["to"], moved["spaces"]) == (20, 28, 8)
    d = opened["data"]
    assert (d["owner"], d["amount"], d["closer"]) == ("Dario", 80, "Carla")
    paid = next(e for e in game.of_type("RentPaid") if e["data"]["opened_seq"] == opened["seq"])
    assert (paid["data"]["payer"], paid["data"]["payee"], paid["data"]["amount"]) == (
        "Anna", "Dario", 80)
    before, after = game.cash_at(paid["seq"] - 1), game.cash_at(paid["seq"])
    assert (before["Anna"], before["Dario"]) == (1337, 475)
    assert (after["Anna"], after["Dario"]) == (1257, 555)


def test_mr_monopoly_with_no_free_property_goes_to_the_nearest_rent_by_hand(game):
    """Carla, on Corso Magellano (23), throws 3+3 and Mr Monopoly: 6 to Piazza Giulio Cesare
    (29), Anna's with a house, 120 (000 §SVOLGIMENTO 3: the numbered dice first, and the
    square's business).  Then `advance`: all 28 deeds are owned, so not "the next free
    property" but the nearest one where she would owe rent (FAQ 39): In Prigione! (30) is no
    deed, Via Roma (31) is her own, Corso Impero (32) is Bruno's and not mortgaged: there, 3
    spaces on, and 26 of rent (Bruno does not hold the green group)."""
    moves = [e for e in game.of_type("SpeedyMoveChosen") if e["data"]["move"] == "mr_monopoly"]
    first = next(e for e in moves if e["data"]["reason"]["code"] == "mr_nearest_rent")
    d = first["data"]
    assert (d["player"], d["to"], d["spaces"]) == ("Carla", 32, 3)
    assert d["reason"] == {"code": "mr_nearest_rent", "space": 32, "owner": "Bruno"}
    roll = game.roll_before(first["seq"])["data"]
    assert (roll["dice"], roll["speedy"]) == ([3, 3], "mr")
    table = game.at(first["seq"] - 1)
    owner = {p["position"]: p["owner"] for p in table["properties"]}
    assert None not in owner.values() and len(owner) == 28
    assert (owner[29], owner[31], owner[32]) == ("Anna", "Carla", "Bruno")
    assert next(p for p in table["players"] if p["name"] == "Carla")["position"] == 29
    rents = [(e["data"]["owner"], e["data"]["property"], e["data"]["amount"])
             for e in game.log[first["seq"] - 12:first["seq"] + 3]
             if e["type"] == "RentClaimOpened"]
    assert rents == [("Anna", 29, 120), ("Bruno", 32, 26)]
    # earlier Mr Monopoly moves went to free deeds, as long as there were any
    assert all(e["data"]["reason"]["code"] == "mr_next_free" for e in moves
               if e["seq"] < first["seq"])


# --- rent claims (000 FAQ 7-8) -----------------------------------------------------------------

def test_a_claim_made_while_the_next_dice_are_on_the_table_is_paid_after_that_turn(game):
    """000 FAQ 8.  Anna, on Via Marco Polo (21), throws 2+1 and Mr Monopoly: 3 to Largo
    Colombo (24), Carla's, unbuilt: 20; then on to Piazza Giulio Cesare, the next free deed,
    which she buys.  Bruno throws 5+2 and the Bus; with his dice on the table Carla asks Anna
    for the 20: the claim waits.  Bruno moves 5 to Parcheggio Gratuito (20); his turn is over,
    and then Anna pays Carla 20, before the turn passes to Carla."""
    deferred = game.of_type("RentClaimDeferred")
    first = deferred[0]
    d = first["data"]
    assert (d["owner"], d["payer"], d["property"], d["amount"], d["settles_after"]) == (
        "Carla", "Anna", 24, 20, "Bruno")
    dice = game.roll_before(first["seq"])["data"]
    assert (dice["player"], dice["dice"], dice["speedy"]) == ("Bruno", [5, 2], "bus")
    opened = game.by_seq[d["opened_seq"]]["data"]
    assert opened["basis"] == {"code": "rent_unbuilt"}
    paid = next(e for e in game.of_type("RentPaid") if e["data"]["opened_seq"] == d["opened_seq"])
    between = [e["type"] for e in game.log[first["seq"]:paid["seq"] + 1]]
    assert between == ["CommandRecorded", "SpeedyMoveChosen", "TokenMoved", "RentPaid",
                       "TurnEnded"]
    assert game.by_seq[paid["seq"] - 1]["data"] == {
        "cause": "bus", "from": 15, "passed_go": False, "player": "Bruno", "spaces": 5, "to": 20}
    before, after = game.cash_at(first["seq"]), game.cash_at(paid["seq"])
    assert (before["Anna"] - after["Anna"], after["Carla"] - before["Carla"]) == (20, 20)
    # Every claim that waited is settled as that turn ends, and no sooner: paid, or, when the
    # payer's cash is short, his debt (Anna's 550 on Viale Monterosa, raised by selling houses).
    settle = ("RentPaid", "RentClaimLapsed", "DebtIncurred")
    for e in deferred:
        d = e["data"]
        done = next(x for x in game.log[e["seq"]:] if x["type"] in ("RentPaid", "RentClaimLapsed")
                    and x["data"]["opened_seq"] == d["opened_seq"])
        if done["type"] == "RentClaimLapsed":
            debt = game.by_seq[done["seq"] - 1]["data"]
            assert done["data"]["closed_by"] == "debt"
            assert (debt["debtor"], debt["creditor"], debt["amount"]) == (
                d["payer"], d["owner"], d["amount"])
        rolls = {x["data"]["player"] for x in game.log[e["seq"]:done["seq"]]
                 if x["type"] == "DiceRolled"}
        assert rolls <= {d["settles_after"]}
        rest = game.log[done["seq"]:]
        end = next(x for x in rest if x["type"] not in settle)
        assert end["type"] in ("TurnEnded", "ExtraRollDue", "GameEnded"), end
        assert end["data"].get("player", d["settles_after"]) == d["settles_after"]
    assert any(x["type"] == "RentClaimLapsed" and x["data"]["closed_by"] == "debt"
               and x["data"]["opened_seq"] in {e["data"]["opened_seq"] for e in deferred}
               for x in game.log)


def test_a_claim_asked_too_late_is_refused_and_recorded(game):
    """000 FAQ 7: until the second player after the payer rolls.  Anna lands on Bruno's Via
    Accademia (20 of rent); Bruno's roll and Carla's follow, and Carla's closes the window:
    Bruno asks after it, is refused, and the refusal is on the log."""
    refused = game.of_type("RentClaimRefused")
    assert len(refused) == 1
    r = refused[0]["data"]
    assert (r["owner"], r["payer"], r["property"], r["amount"], r["closer"]) == (
        "Bruno", "Anna", 11, 20, "Carla")
    assert r["rule"] == "000 FAQ 7"
    lapse = game.by_seq[r["lapsed_seq"]]
    assert lapse["type"] == "RentClaimLapsed" and lapse["data"]["closed_by"] == "Carla"
    rolls = [e["data"]["player"] for e in game.of_type("DiceRolled")
             if r["landed_seq"] < e["seq"] < r["lapsed_seq"] + 2]
    assert rolls[-1] == "Carla" and "Bruno" in rolls  # the next player's roll did not close it
    assert not any(e["data"]["opened_seq"] == r["opened_seq"] for e in game.of_type("RentPaid"))


# --- auctions, trades, the bankruptcy ----------------------------------------------------------

def test_auctions_open_at_1_and_a_deed_nobody_bids_for_goes_to_the_richest(game):
    """000 §COMPRARE I CONTRATTI: auctions from 1 M; FAQ 22: nobody bid for Viale dei Giardini
    (Bruno's Mr Monopoly took him there and he declined), so the banker gives it to the player
    with the most cash at 1 M: Anna, 936 against Bruno's 496, Carla's 217 and Dario's 143."""
    assert {e["data"]["min_bid"] for e in game.of_type("AuctionOpened")} == {1}
    richest = [e for e in game.of_type("AuctionWon")
               if e["data"]["reason"] == {"code": "no_bid_richest", "space": 37,
                                          "rule": "000 FAQ 22"}]
    assert len(richest) == 1
    d = richest[0]["data"]
    assert (d["player"], d["property"], d["amount"]) == ("Anna", 37, 1)
    assert game.cash_at(richest[0]["seq"] - 1) == {"Anna": 936, "Bruno": 496, "Carla": 217,
                                                   "Dario": 143}
    assert any(e["data"]["amount"] > 1 for e in game.of_type("AuctionWon"))


def test_trades_in_a_turn_involve_the_player_whose_turn_it_is(game):
    """000 FAQ 26 (and FAQ 41, between Mr Monopoly's two moves): during a turn a trade is made
    with the active player; between turns anyone trades.  The game has both."""
    kinds = set()
    for e in game.of_type("TradeCompleted"):
        before = game.at(e["seq"] - 1)  # after the command's record, before its fact
        turn = before["turn"]
        if turn["phase"] != "roll":
            assert turn["player"] in (e["data"]["a"], e["data"]["b"]), e
            kinds.add(turn["phase"])
        else:
            kinds.add("between turns")
    assert {"advance", "between turns"} <= kinds


def test_a_bankruptcy_in_the_start_of_turn_state_by_hand(game):
    """000 FAQ 32.  Dario, on Imprevisti (36), throws 3+6 and Mr Monopoly: 9 past Via! (200) to
    Stazione Sud (5), Anna's but mortgaged, no rent; then on to the nearest rent (no deed is
    free): Bastioni Gran Sasso (6), Bruno's, with a hotel: 550.  Bruno asks before anyone
    else has rolled.  Dario has 269 in cash; Società Elettrica and Società Acqua Potabile are
    mortgaged already, and mortgaging Via Verdi, Corso Raffaello and Piazza Dante brings 90 +
    90 + 100 = 280: 549 < 550.  He mortgages them anyway, and goes bankrupt to Bruno.  They
    pass as they were when his turn began: unmortgaged, the 280 back to the Bank; Bruno gets
    269 in cash, the five deeds, and pays 10% on the two that were mortgaged before the turn:
    75 -> 8 each (rounded up)."""
    declared = game.of_type("BankruptcyDeclared")
    assert len(declared) == 1
    d = declared[0]["data"]
    assert d == {"player": "Dario", "creditor": "Bruno",
                 "reason": {"code": "owed_could_raise", "owed": 550, "can": 549}}
    debt = [e["data"] for e in game.of_type("DebtIncurred") if e["data"]["debtor"] == "Dario"][-1]
    assert (debt["creditor"], debt["amount"]) == ("Bruno", 550)
    reverted = [(e["data"]["property"], e["data"]["amount"], e["data"]["payee"])
                for e in game.of_type("MortgageReverted")]
    assert reverted == [(16, 90, "bank"), (18, 90, "bank"), (19, 100, "bank")]
    estate = next(e for e in game.of_type("EstateTransferred"))["data"]
    assert (estate["payer"], estate["payee"], estate["amount"]) == ("Dario", "Bruno", 269)
    assert sorted(estate["properties"]) == [12, 16, 18, 19, 28]
    fees = [(e["data"]["property"], e["data"]["amount"]) for e in game.of_type(
        "MortgageInterestPaid") if e["seq"] > declared[0]["seq"] and e["data"]["payer"] == "Bruno"]
    assert fees[:2] == [(12, 8), (28, 8)]
    after = {p["position"]: p for p in game.at(declared[0]["seq"] + 2)["properties"]}
    assert [after[p]["mortgaged"] for p in (16, 18, 19)] == [False, False, False]
    assert [(after[p]["owner"], after[p]["mortgaged"]) for p in (12, 28)] == [
        ("Bruno", True), ("Bruno", True)]


# --- the end: time-up, the score sheet, the points ---------------------------------------------

def test_the_time_runs_out_during_a_turn_which_finishes_then_the_game_ends(game):
    """000 FAQ 6: "il giocatore attivo finisce il proprio turno; dopodiché il gioco è
    concluso".  Bruno has thrown 4+4 and the Bus when the time is up; Bruno asks Anna for the
    rents of her Mr Monopoly turn (Corso Raffaello 28 and Piazza Dante 32, the orange group
    now his, doubled), with his own dice on the table (FAQ 8); he moves 8 to his own Corso
    Magellano, the rents are paid, and the game ends: no second roll for the doubles (FAQ
    11: that would be a new turn)."""
    up = game.of_type("TimeRanOut")
    assert len(up) == 1
    assert (up[0]["data"]["ends"], up[0]["data"]["rule"]) == ("after_turn", "000 FAQ 6")
    assert game.at(up[0]["seq"])["turn"]["player"] == "Bruno"
    tail = [e for e in game.log[up[0]["seq"]:] if e["type"] != "CommandRecorded"]
    assert [e["type"] for e in tail] == [
        "RentClaimDeferred", "RentClaimDeferred", "SpeedyMoveChosen", "TokenMoved", "RentPaid",
        "RentPaid", "GameEnded"]
    assert [(e["data"]["payer"], e["data"]["amount"]) for e in tail if e["type"] == "RentPaid"] == [
        ("Anna", 28), ("Anna", 32)]
    assert tail[3]["data"]["to"] == 23
    end = tail[-1]["data"]
    assert (end["winner"], end["rule"]) == ("Bruno", "000 FAQ 6")
    assert game.state["ended"] and game.state["pending"]["rent"] == []
    assert len([p for p in game.state["players"] if not p["bankrupt"]]) == 3


def test_the_score_sheet_and_the_points_by_hand(game):
    """000 §PUNTEGGIO: cash + each deed's box on the sheet, here its price (half if mortgaged)
    and its buildings at cost, a hotel as five buildings (ledger/table/score.py); three players left:
    22, 12, 6, and the bankrupt Dario 0.

    Bruno: 498 in cash.  Azzurro with hotels: Bastioni Gran Sasso 100 + 5 x 50 = 350, Viale
    Monterosa 350, Viale Vesuvio 120 + 250 = 370: 1070.  Rosa with hotels: Via Accademia 140 +
    5 x 100 = 640, Corso Ateneo 640, Piazza Università 160 + 500 = 660: 1940.  Società,
    mortgaged: 75 + 75 = 150.  Arancione: Via Verdi 180 + 100, Corso Raffaello 180, Piazza
    Dante 200: 660.  Rosso: Via Marco Polo 220 + 150, Corso Magellano 220 + 150, Largo Colombo
    240: 980.  Verde: Via Roma 300 + 200, Corso Impero 300, Largo Augusto 320 + 200: 1320.  Blu:
    Viale dei Giardini 350 + 200, Parco della Vittoria 400: 950.  498 + 1070 + 1940 + 150 + 660
    + 980 + 1320 + 950 = 7568.
    Carla: 969 + Vicolo Corto 60 + Vicolo Stretto 60 + 50 + Stazione Ovest 200 = 1339.
    Anna: 80 + three mortgaged stations 3 x 100 + Viale Costantino mortgaged 130 + Viale
    Traiano 260 + Piazza Giulio Cesare 280 = 1050."""
    rows = game.call("standings", "--json")
    assert [(r["rank"], r["name"], r["status"], r["cash"], r["score"], r["points"])
            for r in rows] == [
        (1, "Bruno", "winner", 498, 7568, 22),
        (2, "Carla", "in play", 969, 1339, 12),
        (3, "Anna", "in play", 80, 1050, 6),
        (4, "Dario", "bankrupt", 0, 0, 0)]
    # `banco standings` shows them too: each row ends with the score and the points
    text = game.call.text("standings")
    rows = [ln.split() for ln in text.splitlines()[1:] if ln.strip()[:1].isdigit()]
    assert [(r[1], r[-2], r[-1]) for r in rows] == [
        ("Bruno", "7568", "22"), ("Carla", "1339", "12"), ("Anna", "1050", "6"),
        ("Dario", "0", "0")]
    assert f"banco/1/{len(game.log)}/" in text  # the head line for the score sheet
    props = {p["position"]: p for p in game.state["properties"]}
    hotels = sorted(p for p, x in props.items() if x["hotel"])
    assert hotels == [6, 8, 9, 11, 13, 14]
    assert sorted(p for p, x in props.items() if x["mortgaged"]) == [5, 12, 25, 26, 28, 35]
