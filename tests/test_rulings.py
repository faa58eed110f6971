"""`ruling rent|auction|bankruptcy|jail SEQ`: the facts, the rule set's parameters, the rule
cited and the verdict, from the log alone; `--record --referee` keeps it in the chain."""

import json

import pytest
from games import lines, record

from ledger.book import Book
from ledger.errors import UsageError
from projections import rulings
from projections.moments import parse_moment


@pytest.fixture(scope="module")
def four(tmp_path_factory):
    return record(str(tmp_path_factory.mktemp("rulings") / "4p.db"), "classic-4p")


@pytest.fixture(scope="module")
def end(tmp_path_factory):
    return record(str(tmp_path_factory.mktemp("rulings") / "end.db"), "classic-to-the-end")


def events_of(db, game=1):
    book = Book(db)
    try:
        return book.events(game)
    finally:
        book.close()


# --- rent -----------------------------------------------------------------------------------

def test_a_late_claim_is_ruled_too_late_naming_the_roll_that_closed_the_window(four):
    r = rulings.rent(events_of(four), 79, game_id=1)
    assert r.verdict == ("too late: the window closed when Bruno rolled (event 74); the claim at "
                         "event 79 was rightly refused and Dario lost the rent")
    assert r.rule == "004 §Soggiorno nella proprietà di qualcuno; 003 §04"
    f = r.facts
    assert (f["payer"], f["owner"], f["property"], f["amount"]) == ("Anna", "Dario",
                                                                     "Via Accademia", 10)
    assert (f["landed_seq"], f["opened_seq"], f["window_closed_at"], f["closed_seq"]) == (70, 71,
                                                                                          73, 74)
    assert f["seats"] == ["Anna", "Bruno"] and f["claim_window"] == 1
    assert f["late_claims"] == [79] and f["basis"] == "unbuilt lot"
    # the same ruling whichever of its events is asked about
    for seq in (69, 70, 71, 74):
        assert rulings.rent(events_of(four), seq, game_id=1).verdict == r.verdict


def test_the_verdict_for_a_claim_at_a_given_moment(four):
    events = events_of(four)
    in_time = rulings.rent(events, 71, parse_moment("72"), game_id=1)
    assert in_time.verdict == ("a claim made after event 72 was IN TIME: the window was open "
                               "from event 71 until Bruno's roll (recorded from event 73)")
    late = rulings.rent(events, 71, parse_moment("73"), game_id=1)
    assert "TOO LATE: Bruno had rolled (the roll recorded from event 73)" in late.verdict
    early = rulings.rent(events, 71, parse_moment("68"), game_id=1)
    assert "too early: nothing was owed before the landing (event 70)" in early.verdict


def test_a_paid_rent(four):
    r = rulings.rent(events_of(four), 39, game_id=1)
    assert r.verdict == "paid in time: Dario paid Anna 25 M at event 39"
    assert r.facts["basis"] == "1 station(s) owned: 25" and r.facts["paid_seq"] == 39
    after = rulings.rent(events_of(four), 36, parse_moment("40"), game_id=1)
    assert "after the rent was paid (event 39)" in after.verdict


def test_an_event_that_is_not_about_rent_is_a_usage_error_with_the_nearest(four):
    with pytest.raises(UsageError, match=r"event 8 \(DiceRolled\) is not a landing on another "
                                         r"player's deed nor a rent claim.*nearest: 36, 39"):
        rulings.rent(events_of(four), 8, game_id=1)


TWO_SEATS = 'extends = "classic"\nclaim_window = 2\n'


@pytest.fixture
def two_seats(tmp_path):
    rules = tmp_path / "two.toml"
    rules.write_text(TWO_SEATS, encoding="utf-8")
    db = str(tmp_path / "w.db")
    lines(db, f"new Anna Bruno Carla Dario --rules {rules}", "roll 1 4", "buy",  # Stazione Sud
          "roll 2 3",  # Bruno lands on Anna's station: closed by Dario's roll, two seats on
          "roll 1 2", "buy")  # Carla's roll does not close it
    return db


def test_a_two_seat_window_lists_the_seats_and_cites_the_championship(two_seats):
    events = events_of(two_seats)
    opened = next(e["seq"] for e in events if e["type"] == "RentClaimOpened")
    r = rulings.rent(events, opened, game_id=1)
    assert r.facts["seats"] == ["Bruno", "Carla", "Dario"] and r.facts["closer"] == "Dario"
    assert r.verdict == "still open: Anna may claim 25 M until Dario rolls"
    assert r.rule == "000 §PAGARE LA RENDITA; 000 FAQ 7-8"
    assert "Bruno (payer) -> Carla -> Dario (whose roll closes it)" in r.text()


def test_a_two_seat_window_closes_at_the_second_roll(two_seats):
    lines(two_seats, "roll 4 5")  # Dario
    events = events_of(two_seats)
    opened = next(e["seq"] for e in events if e["type"] == "RentClaimOpened")
    carla = next(e["seq"] for e in events if e["type"] == "DiceRolled"
                 and e["data"]["player"] == "Carla")
    dario = next(e["seq"] for e in events if e["type"] == "DiceRolled"
                 and e["data"]["player"] == "Dario")
    assert "IN TIME" in rulings.rent(events, opened, parse_moment(str(carla)), game_id=1).verdict
    late = rulings.rent(events, opened, parse_moment(str(dario)), game_id=1)
    assert "TOO LATE: Dario had rolled" in late.verdict
    assert late.facts["outcome"].startswith("lapsed unclaimed: Anna did not ask before Dario")


# --- auctions -------------------------------------------------------------------------------

def test_an_auction_with_its_bids_in_order(end):
    r = rulings.auction(events_of(end), 40, game_id=1)
    assert r.verdict == "won by Anna for 55 M, paid to the Bank at event 49"
    [a] = r.facts["auctions"]
    assert a["why"] == "declined" and a["min_bid"] == 1
    assert [(b["player"], b["amount"]) for b in a["bids"]] == [
        ("Bruno", 20), ("Carla", 40), ("Dario", 45), ("Anna", 55)]
    assert "Dario declined to buy it: the Bank auctions it at once (003 §02)" in r.text()


def test_an_unpaid_winning_bid_and_the_re_auction(tmp_path):
    db = str(tmp_path / "v.db")
    lines(db, "new Anna Bruno", "roll 1 5", "buy",  # Anna: Bastioni Gran Sasso (rent 6)
          "roll 3 3",  # Bruno lands on it (doubles): Anna may claim until she rolls
          "roll 1 2", "decline",  # Bruno's extra roll: Vicolo Stretto, declined
          "bid Bruno 1500",  # all his cash
          "claim Anna",  # ... then pays the rent: 1494 left
          "hammer",  # void: a new auction without Bruno
          "bid Anna 30", "hammer")
    events = events_of(db)
    voided = next(e["seq"] for e in events if e["type"] == "AuctionVoided")
    r = rulings.auction(events, voided, game_id=1)
    first, second = r.facts["auctions"]
    assert first["outcome"] == "AuctionVoided" and second["why"] == "re-auction"
    assert second["excluded"] == ["Bruno"]
    assert r.verdict == ("won by Anna for 30 M, paid to the Bank at event "
                         f"{events[-2]['seq']} (after 1 voided auction: Bruno could not pay)")
    assert "000 §COMPRARE I CONTRATTI" in r.rule
    # asked about the re-auction's bid, the same chain
    assert rulings.auction(events, events[-4]["seq"], game_id=1).verdict == r.verdict


def test_an_auction_without_a_bid(tmp_path):
    db = str(tmp_path / "n.db")
    lines(db, "new Anna Bruno", "roll 1 2", "decline", "hammer")
    events = events_of(db)
    r = rulings.auction(events, events[-1]["seq"], game_id=1)
    assert r.verdict == "no bid: Vicolo Stretto stays with the Bank"
    assert r.facts["no_bid"] == "bank_keeps" and r.facts["auctions"][0]["bids"] == []


# --- bankruptcy -----------------------------------------------------------------------------

def test_a_bankruptcy_to_a_player_with_its_valuation_and_what_passed(end):
    r = rulings.bankruptcy(events_of(end), 1042, game_id=1)
    f = r.facts
    assert (f["player"], f["creditor"], f["owed"], f["could_raise"]) == ("Carla", "Dario", 1000,
                                                                         617)
    assert f["unavoidable"] and r.verdict == ("Carla was bankrupt to Dario: owed 1000 M, could "
                                              "raise only 617 M")
    assert sum(v["amount"] for v in f["valuation"]) == 617
    assert "10% on receiving mortgaged Viale Vesuvio (000 FAQ 33)" in r.text()
    assert r.rule == "003 §10; 004 §Fallimento; 000 FAQ 33"
    assert f["start_of_turn_rule"] is False
    assert "the championship's start-of-turn rule, 000 FAQ 32, is not part of them" in r.text()
    # asked about the estate handed over, or about the debt that led to it: the same ruling
    assert rulings.bankruptcy(events_of(end), 1041, game_id=1).verdict == r.verdict
    debt = f["debts"][0]["seq"]
    assert rulings.bankruptcy(events_of(end), debt, game_id=1).verdict == r.verdict


def test_a_bankruptcy_to_the_bank_auctions_the_deeds(end):
    r = rulings.bankruptcy(events_of(end), 1161, game_id=1)
    assert r.facts["creditor"] == "bank" and r.facts["could_raise"] == 89
    assert "the Bank auctions the deeds one by one, first Viale Monterosa (003 §10)" in r.text()


def test_the_start_of_turn_rule_when_a_rule_set_has_it(end, monkeypatch):
    """000 FAQ 32 belongs to the championship rule set, still to come: a rule set that has the
    field gets the start-of-turn reasoning (a field every rule set has stands in for it)."""
    monkeypatch.setattr(rulings, "START_OF_TURN_FIELD", "rent")  # truthy: "claim"
    r = rulings.bankruptcy(events_of(end), 1042, game_id=1)
    assert r.facts["start_of_turn_rule"] is True
    # Carla went bankrupt during Dario's turn, so the rule does not apply to her
    assert "applies to a bankruptcy to a player during the debtor's own turn: not this one" \
        in r.text()


# --- jail -----------------------------------------------------------------------------------

def test_jail_by_three_doubles_a_failed_try_and_out_by_doubles(tmp_path):
    db = str(tmp_path / "j.db")
    lines(db, "new Anna Bruno", "roll 2 2", "roll 3 3", "roll 4 4",  # third double: jail
          "roll 1 2", "buy",  # Bruno
          "roll 1 2",  # Anna: try 1 fails
          "roll 1 5", "buy",  # Bruno
          "roll 3 3")  # Anna: doubles, out, no extra roll
    events = events_of(db)
    sent = next(e["seq"] for e in events if e["type"] == "SentToJail")
    r = rulings.jail(events, sent, game_id=1)
    assert r.facts["tries"][0]["dice"] == [1, 2] and r.facts["how"] == "doubles"
    assert r.verdict.startswith("Anna left jail by doubles at event") and "after 1 failed try" \
        in r.verdict
    assert "doubles 3 times in a row" in r.text() and "(3+3, no extra roll)" in r.text()
    assert r.rule == "004 §Prigione; 003 §08"


def test_jail_left_by_the_fine(end):
    r = rulings.jail(events_of(end), 136, game_id=1)
    assert r.verdict == "Dario left jail by fine at event 136, after 0 failed tries"
    assert r.facts["sent_seq"] == 111 and r.facts["jail_fine"] == 50


# --- the command line -----------------------------------------------------------------------

def test_a_disputed_claim_from_ruling_to_the_recorded_ruling(tmp_path, four, banco):
    import shutil

    db = str(tmp_path / "d.db")
    shutil.copy(four, db)
    shown = banco("--db", db, "ruling", "rent", "79").output
    assert shown.splitlines()[-2].startswith("verdict: too late")
    out = banco("--db", db, "ruling", "rent", "79", "--record", "--referee", "Rita").output
    assert "recorded as event 637 (RulingRecorded), referee Rita" in out
    log = banco("--db", db, "log", "--tail", "2").output
    assert "ruling on event 79 (rent) by referee Rita: too late" in log
    assert "> ruling rent 79 --record --referee Rita" in log  # the line as typed
    doc = json.loads(banco("--db", db, "show", "637", "--json").output)
    assert doc["event"]["data"]["subject_seq"] == 79 and doc["event"]["actor"] == "referee:Rita"
    assert doc["event"]["data"]["text"] == shown.rstrip("\n")
    assert banco("--db", db, "audit").exit_code == 0


def test_ruling_usage(four, banco):
    assert "--record needs --referee" in banco("--db", four, "ruling", "rent", "79", "--record",
                                               code=2).output
    assert "--referee goes with --record" in banco("--db", four, "ruling", "jail", "79",
                                                   "--referee", "R", code=2).output
    assert "has nothing to do with jail" in banco("--db", four, "ruling", "jail", "79",
                                                  code=2).output
    doc = json.loads(banco("--db", four, "ruling", "rent", "79", "--claim-at", "72",
                           "--json").output)
    assert doc["kind"] == "rent" and doc["subject_seq"] == 79 and doc["recorded_seq"] is None
    assert doc["facts"]["claim_at"] == 72 and doc["verdict"].startswith("a claim made after")


def test_a_ruling_can_be_recorded_after_the_game_ended(tmp_path, end, banco):
    import shutil

    db = str(tmp_path / "e.db")
    shutil.copy(end, db)
    out = banco("--db", db, "ruling", "bankruptcy", "1537", "--record", "--referee", "Rita")
    assert "recorded as event 1540 (RulingRecorded)" in out.output  # 1539: its command
