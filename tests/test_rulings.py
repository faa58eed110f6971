"""`ruling rent|auction|bankruptcy|jail SEQ`: the facts, the rule set's parameters, the rule
cited and the verdict, from the log alone; `--record --referee` keeps it in the chain."""

import json

import pytest
from games import batch, lines, record, seqs

from banco.ledger.base.errors import UsageError
from banco.ledger.board.edition import load_edition
from banco.ledger.book import Book
from banco.projections.referee import bankruptcies, rulings
from banco.projections.referee.moments import parse_moment

NAMES = {s.position: s.name for s in load_edition("it").spaces}


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

def late_claim(events):
    """The fixture's disputed claim: its refusal, and the facts the ruling must name."""
    refused = seqs(events, "RentClaimRefused")[0]
    d = events[refused - 1]["data"]
    opened = d["opened_seq"]
    landed = seqs(events[:opened], "TokenMoved", player=d["payer"])[-1]
    lapsed = seqs(events, "RentClaimLapsed", opened_seq=opened)[0]
    roll = batch(events, lapsed)[0]["seq"]  # the closing roll's command begins here
    return refused, d, opened, landed, lapsed, roll


def test_a_late_claim_is_ruled_too_late_naming_the_roll_that_closed_the_window(four):
    events = events_of(four)
    refused, d, opened, landed, lapsed, roll = late_claim(events)
    r = rulings.rent(events, refused, game_id=1)
    assert (d["owner"], d["payer"]) == ("Dario", "Anna")
    assert r.verdict == (f"too late: the window closed when Bruno rolled (event {lapsed}); the "
                         f"claim at event {refused} was rightly refused and Dario lost the rent")
    from banco.ledger.rules.claims import R_RENT

    assert r.rule == R_RENT
    f = r.facts
    assert (f["payer"], f["owner"], f["property"], f["amount"]) == ("Anna", "Dario",
                                                                     "Via Accademia", 10)
    assert (f["landed_seq"], f["opened_seq"], f["window_closed_at"], f["closed_seq"]) == (
        landed, opened, roll, lapsed)
    assert f["seats"] == ["Anna", "Bruno"] and f["claim_window"] == 1
    assert f["late_claims"] == [refused] and f["basis"] == {"code": "rent_unbuilt"}
    # the same ruling whichever of its events is asked about
    for seq in (landed, opened, lapsed):
        assert rulings.rent(events, seq, game_id=1).verdict == r.verdict
    with pytest.raises(UsageError, match=r"\(DiceRolled\) is not a landing"):
        rulings.rent(events, landed - 1, game_id=1)  # the roll beside it is not the landing


def test_the_verdict_for_a_claim_at_a_given_moment(four):
    events = events_of(four)
    refused, d, opened, landed, lapsed, roll = late_claim(events)
    in_time = rulings.rent(events, opened, parse_moment(str(roll - 1)), game_id=1)
    assert in_time.verdict == (f"a claim made after event {roll - 1} was IN TIME: the window "
                               f"was open from event {opened} until Bruno's roll (recorded "
                               f"from event {roll})")
    late = rulings.rent(events, opened, parse_moment(str(roll)), game_id=1)
    assert f"TOO LATE: Bruno had rolled (the roll recorded from event {roll})" in late.verdict
    early = rulings.rent(events, opened, parse_moment(str(landed - 3)), game_id=1)
    assert f"too early: nothing was owed before the landing (event {landed})" in early.verdict
    # after the landing's event but inside its command (a referee's trial: "a claim made after
    # event 643 was too early: nothing was owed before the landing (event 643)")
    assert opened > landed
    mid = rulings.rent(events, opened, parse_moment(str(landed)), game_id=1)
    assert (f"too early: the landing (event {landed}) was not yet recorded whole; the "
            f"window opened at event {opened}") in mid.verdict


def test_a_paid_rent(four):
    events = events_of(four)
    paid = seqs(events, "RentPaid")[0]
    d = events[paid - 1]["data"]
    r = rulings.rent(events, paid, game_id=1)
    assert r.verdict == (f"paid in time: {d['payer']} paid Anna 25 M at event {paid}")
    assert r.facts["basis"] == {"code": "rent_stations", "n": 1, "rent": 25}
    assert r.facts["paid_seq"] == paid
    after = rulings.rent(events, d["opened_seq"], parse_moment(str(paid + 1)), game_id=1)
    assert f"after the rent was paid (event {paid})" in after.verdict


def test_a_claim_deferred_while_the_dice_are_on_the_table_is_ruled_with_its_settling(
        tmp_path_factory):
    """A trial: `ruling rent` on a RentClaimDeferred (000 FAQ 8) was "not a rent claim", and
    on the claim's later settling said the owner "asked" there.  Now the ask, the wait for the
    turn in progress and the settling (paid, or a debt) are each said at their own event; the
    landing's roll shows the Speedy die that moved the token too."""
    events = events_of(record(str(tmp_path_factory.mktemp("ch") / "ch.db"), "championship-4p"))
    for deferred in seqs(events, "RentClaimDeferred"):
        d = events[deferred - 1]["data"]
        settled = [e for e in events[deferred:] if e["type"] in ("RentPaid", "RentClaimLapsed")
                   and e["data"]["opened_seq"] == d["opened_seq"]][0]
        for asked in (deferred, settled["seq"], d["opened_seq"]):
            text = rulings.rent(events, asked, game_id=1).text()
            assert (f"claimed: {d['owner']} asked at event {deferred} (`claim {d['owner']}"
                    in text), text
            assert (f"while {d['settles_after']}'s turn was in progress: paid when that turn "
                    "is over (000 FAQ 8)") in text
            assert f"settled: {d['payer']} paid" in text or "settled: at event" in text
            assert f"asked at event {settled['seq']}" not in text
            # a championship roll moves by two dice and the Speedy die (or Mr Monopoly's move)
            assert ", Speedy die " in text or "moved to" in text and "(`advance" in text, text
            assert "Speedy die mr " not in text
    one = seqs(events, "RentClaimDeferred")[0]
    paid = [e for e in events[one:] if e["type"] == "RentPaid"
            and e["data"]["opened_seq"] == events[one - 1]["data"]["opened_seq"]][0]
    assert (f"verdict: paid in time: {paid['data']['payer']} paid {paid['data']['payee']} "
            f"{paid['data']['amount']} M at event {paid['seq']}") in rulings.rent(
                events, one, game_id=1).text()


def test_an_event_that_is_not_about_rent_is_a_usage_error_with_the_nearest(four):
    events = events_of(four)
    first = seqs(events, "RentClaimOpened")[0]
    with pytest.raises(UsageError, match=r"event 8 \(DiceRolled\) is not a landing on another "
                                         rf"player's deed nor a rent claim.*nearest: {first}, "):
        rulings.rent(events, 8, game_id=1)


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
    events = events_of(end)
    # the fixture's first declined deed that drew several bids
    opened = next(o for o in seqs(events, "AuctionOpened")
                  if any(e["type"] == "PropertyDeclined" for e in batch(events, o))
                  and len(seqs(events[o:o + 20], "BidPlaced")) >= 2)
    won = next(s for s in seqs(events, "AuctionWon") if s > opened)
    bids = [(e["data"]["player"], e["data"]["amount"]) for e in events[opened:won]
            if e["type"] == "BidPlaced"]
    w = events[won - 1]["data"]
    decliner = next(e["data"]["player"] for e in batch(events, opened)
                    if e["type"] == "PropertyDeclined")
    r = rulings.auction(events, opened + 1, game_id=1)
    assert r.verdict == f"won by {w['player']} for {w['amount']} M, paid to the Bank at event {won}"
    [a] = r.facts["auctions"]
    assert a["why"] == "declined" and a["min_bid"] == 1 and len(bids) >= 2
    assert [(b["player"], b["amount"]) for b in a["bids"]] == bids
    assert (w["player"], w["amount"]) == bids[-1]
    assert f"{decliner} declined to buy it: the Bank auctions it at once (003 §02)" in r.text()


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
    rules = tmp_path / "keep.toml"  # the deed stays with the Bank when nobody bids
    rules.write_text('extends = "classic"\nauction_no_bid = "bank_keeps"\n', encoding="utf-8")
    db = str(tmp_path / "n.db")
    lines(db, f"new Anna Bruno --rules {rules}", "roll 1 2", "decline", "hammer")
    events = events_of(db)
    r = rulings.auction(events, events[-1]["seq"], game_id=1)
    assert r.verdict == "no bid: Vicolo Stretto stays with the Bank"
    assert r.facts["no_bid"] == "bank_keeps" and r.facts["auctions"][0]["bids"] == []


# --- bankruptcy -----------------------------------------------------------------------------

def declared(events, to_bank: bool) -> tuple[int, dict, int, int]:
    """The fixture's first bankruptcy to a player (or to the Bank), with what decide recorded
    of it: owed and could raise."""
    seq = next(s for s in seqs(events, "BankruptcyDeclared")
               if (events[s - 1]["data"]["creditor"] == "bank") == to_bank)
    d = events[seq - 1]["data"]
    assert d["reason"]["code"] == "owed_could_raise"
    owed, can = (d["reason"][k] for k in ("owed", "can"))  # integers since schema 3
    return seq, d, owed, can


def test_a_bankruptcy_to_a_player_with_its_valuation_and_what_passed(end):
    events = events_of(end)
    seq, d, owed, can = declared(events, to_bank=False)
    r = rulings.bankruptcy(events, seq, game_id=1)
    f = r.facts
    # the ruling's own valuation agrees with what the rules worked out at the time
    assert (f["player"], f["creditor"], f["owed"], f["could_raise"]) == (d["player"],
                                                                         d["creditor"], owed, can)
    assert f["unavoidable"] and r.verdict == (f"{d['player']} was bankrupt to {d['creditor']}: "
                                              f"owed {owed} M, could raise only {can} M")
    assert sum(v["amount"] for v in f["valuation"]) == can
    fees = [e for e in batch(events, seq) if e["type"] == "MortgageInterestPaid"]
    assert fees  # the fixture's creditor receives mortgaged deeds
    name = NAMES[fees[0]["data"]["property"]]
    assert f"10% on receiving mortgaged {name} (000 FAQ 33)" in r.text()
    assert r.rule.endswith("000 FAQ 33")
    assert f["start_of_turn_rule"] is False
    assert "the championship's start-of-turn rule, 000 FAQ 32, is not part of them" in r.text()
    # asked about the estate handed over, or about the debt that led to it: the same ruling
    estate = seqs(events, "EstateTransferred", debtor=d["player"])[0]
    assert rulings.bankruptcy(events, estate, game_id=1).verdict == r.verdict
    debt = f["debts"][0]["seq"]
    assert rulings.bankruptcy(events, debt, game_id=1).verdict == r.verdict


def test_a_debt_paid_before_a_bankruptcy_led_to_none(end):
    """A debt the debtor paid: the ruling once answered with his next bankruptcy, hundreds of
    events later and for another debt; now it says the debt was settled and names that one."""
    events = events_of(end)
    for debt in seqs(events, "DebtIncurred"):
        d = events[debt - 1]["data"]
        went = next((s for s in seqs(events, "BankruptcyDeclared") if s > debt
                     and events[s - 1]["data"]["player"] == d["debtor"]), None)
        if went is None:
            continue
        try:
            r = rulings.bankruptcy(events, debt, game_id=1)
        except UsageError as exc:  # paid meanwhile: no bankruptcy of its own
            assert f"event {debt}'s debt ({d['debtor']} owed" in str(exc)
            assert f"was settled before {d['debtor']} went bankrupt at event {went}" in str(exc)
            assert f"`ruling bankruptcy {went}`" in str(exc)
        else:  # still owed when he went: the debt is among the ruling's
            assert debt in [dd["seq"] for dd in r.facts["debts"]]
    # the fixture has both kinds (Anna's rent of event 795 was paid at 804; she went at 1500)
    with pytest.raises(UsageError, match="was settled before Anna went bankrupt"):
        rulings.bankruptcy(events, 795, game_id=1)


def test_a_bankruptcy_to_the_bank_auctions_the_deeds(end):
    events = events_of(end)
    seq, d, owed, can = declared(events, to_bank=True)
    r = rulings.bankruptcy(events, seq, game_id=1)
    assert r.facts["creditor"] == "bank" and r.facts["could_raise"] == can
    first = next(e for e in batch(events, seq) if e["type"] == "AuctionOpened")
    name = NAMES[first["data"]["property"]]
    assert f"the Bank auctions the deeds one by one, first {name} (003 §10)" in r.text()


def test_the_start_of_turn_rule_when_a_rule_set_has_it(end, monkeypatch):
    """000 FAQ 32 belongs to the championship rule set, still to come: a rule set that has the
    field gets the start-of-turn reasoning (a field every rule set has stands in for it)."""
    monkeypatch.setattr(bankruptcies, "START_OF_TURN_FIELD", "rent")  # truthy: "claim"
    events = events_of(end)
    seq, d, _, _ = declared(events, to_bank=False)
    r = rulings.bankruptcy(events, seq, game_id=1)
    assert r.facts["start_of_turn_rule"] is True
    before = state_before(end, seq)
    if before.turn.player == d["player"]:
        assert "000 FAQ 32" in r.rule
    else:  # bankrupt during another player's turn: the rule does not apply to him
        assert "applies to a bankruptcy to a player during the debtor's own turn: not this " \
               "one" in r.text()


def state_before(db, seq):
    book = Book(db)
    try:
        events = book.events(1)
        return book.state(1, batch(events, seq)[0]["seq"] - 1)
    finally:
        book.close()


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
    assert r.facts["tries"][0]["dice"] == [1, 2] and r.facts["how"] == {"code": "doubles"}
    assert r.verdict.startswith("Anna left jail by doubles at event") and "after 1 failed try" \
        in r.verdict
    assert "doubles 3 times in a row" in r.text() and "(3+3, no extra roll)" in r.text()
    assert r.rule == "004 §Prigione; 003 §08"


def test_jail_left_by_the_fine(end):
    events = events_of(end)
    left = seqs(events, "LeftJail", how={"code": "fine"})[0]
    who = events[left - 1]["data"]["player"]
    sent = seqs(events[:left], "SentToJail", player=who)[-1]
    tries = len([s for s in seqs(events, "JailRollFailed", player=who) if sent < s < left])
    r = rulings.jail(events, left, game_id=1)
    assert r.verdict == (f"{who} left jail by fine at event {left}, after {tries} failed "
                         f"tr{'y' if tries == 1 else 'ies'}")
    assert r.facts["sent_seq"] == sent and r.facts["jail_fine"] == 50


def test_the_last_failed_try_is_not_said_to_stay(end):
    """A referee's trial: "try 3: ... no doubles, stays" where the log has the fine paid and
    the token moved by that roll (003 §08)."""
    events = events_of(end)
    left = next(s for s in seqs(events, "LeftJail") if events[s - 1]["data"]["how"]
                == {"code": "fine_after_last_try"})
    who = events[left - 1]["data"]["player"]
    sent = seqs(events[:left], "SentToJail", player=who)[-1]
    text = rulings.jail(events, sent, game_id=1).text()
    assert "try 3: rolled" in text and "try 2: rolled" in text
    line3 = next(line for line in text.splitlines() if line.startswith("try 3:"))
    assert line3.endswith("no doubles, the last try: the fine, then that roll moves the player")
    assert next(line for line in text.splitlines() if line.startswith("try 2:")).endswith(
        "no doubles, stays")
    # what the last try costs, whole: the fine or its debt before the move, or a card instead
    assert ("after 3 failed tries the player pays the fine before moving by that roll (004 "
            "§Prigione; 003 §08; short of cash, a debt settled first, 003 §10) or gives a "
            "get-out-of-jail card instead (000 FAQ 17)") in text


# --- the command line -----------------------------------------------------------------------

def test_a_disputed_claim_from_ruling_to_the_recorded_ruling(tmp_path, four, banco):
    import shutil

    db = str(tmp_path / "d.db")
    shutil.copy(four, db)
    refused = late_claim(events_of(db))[0]
    last = events_of(db)[-1]["seq"]
    shown = banco("--db", db, "ruling", "rent", str(refused)).output
    assert shown.splitlines()[-2].startswith("verdict: too late")
    out = banco("--db", db, "ruling", "rent", str(refused), "--record", "--referee",
                "Rita").output
    assert f"recorded as event {last + 2} (RulingRecorded), referee Rita" in out
    log = banco("--db", db, "log", "--tail", "2").output
    assert f"ruling on event {refused} (rent) by referee Rita: too late" in log
    assert f"> ruling rent {refused} --record --referee Rita" in log  # the line as typed
    doc = json.loads(banco("--db", db, "show", str(last + 2), "--json").output)
    assert doc["event"]["data"]["subject_seq"] == refused
    assert doc["event"]["actor"] == "referee:Rita"
    # the verdict a code, the evidence data, no sentence (DESIGN.md, "Events are facts")
    data = doc["event"]["data"]
    assert "text" not in data and data["verdict"]["code"] == "rent_refused"
    assert data["verdict"]["late"] == refused and data["evidence"]["late_claims"] == [refused]
    assert data["rule"] == shown.splitlines()[-1].removeprefix("rule: ")
    assert "said" not in json.dumps(data)  # every phrase of it has a code
    assert banco("--db", db, "audit").exit_code == 0
    # said in the reader's language, from the data
    log_it = banco("--db", db, "--lang", "it", "log", "--tail", "2").output
    assert "troppo tardi" in log_it.lower(), log_it


def test_the_same_ruling_given_to_the_book_twice_is_one_fact(tmp_path, four):
    """Book.execute itself answers the same ruling (referee, kind, event, verdict as data) as
    recorded, whoever calls it: not only the command line and the library."""
    import shutil

    from banco.cli.ruling_log import ruling_command
    from banco.ledger.book import Book

    db = str(tmp_path / "same.db")
    shutil.copy(four, db)
    refused = late_claim(events_of(db))[0]
    book = Book(db)
    try:
        command = ruling_command(book, 1, "rent", refused, None, "Rita")
        first = book.execute(1, command, now="2026-12-01T20:00:00Z", actor="referee:Rita")
        kept = next(e for e in first.events if e["type"] == "RulingRecorded")
        last = book.store.last_seq(1)
        again = book.execute(1, command, now="2026-12-01T20:01:00Z", expect=last - 1)
        assert again.replayed and again.refused is None  # before --expect, as a retry is
        assert [e["seq"] for e in again.events] == [kept["seq"]]
        assert book.store.last_seq(1) == last  # nothing appended
        other = ruling_command(book, 1, "rent", refused, None, "Ugo")  # another referee
        assert not book.execute(1, other, now="2026-12-01T20:02:00Z").replayed
    finally:
        book.close()


def test_ruling_usage(four, banco):
    refused, _, opened, *_ = late_claim(events_of(four))
    r = str(refused)
    assert "--record needs --referee" in banco("--db", four, "ruling", "rent", r, "--record",
                                               code=2).output
    assert "--referee goes with --record" in banco("--db", four, "ruling", "jail", r,
                                                   "--referee", "R", code=2).output
    assert "has nothing to do with jail" in banco("--db", four, "ruling", "jail", r,
                                                  code=2).output
    doc = json.loads(banco("--db", four, "ruling", "rent", r, "--claim-at", str(opened + 1),
                           "--json").output)
    assert doc["kind"] == "rent" and doc["subject_seq"] == refused
    assert doc["recorded_seq"] is None and doc["facts"]["claim_at"] == opened + 1
    assert doc["verdict"].startswith("a claim made after")


def test_a_ruling_can_be_recorded_after_the_game_ended(tmp_path, end, banco):
    import shutil

    db = str(tmp_path / "e.db")
    shutil.copy(end, db)
    events = events_of(db)
    last = seqs(events, "BankruptcyDeclared")[-1]
    assert events[-1]["type"] == "GameEnded"
    out = banco("--db", db, "ruling", "bankruptcy", str(last), "--record", "--referee", "Rita")
    n = events[-1]["seq"]
    assert f"recorded as event {n + 2} (RulingRecorded)" in out.output  # {n + 1}: its command


def test_a_ruling_takes_a_time_as_state_at_does(banco, monkeypatch):
    """`ruling rent TIME`: the event recorded last at or before TIME (projections/referee/moments.py),
    ruled as by its seq; a recorded ruling names that seq."""
    for minute, line in enumerate(("new Anna Bruno", "roll 1 2", "buy", "roll 1 2",
                                   "claim Anna")):
        monkeypatch.setenv("BANCO_FIXED_TIME", f"2026-11-30T21:{minute:02d}:00Z")
        banco(*line.split())
    monkeypatch.delenv("BANCO_FIXED_TIME")
    events = events_of(banco.db)
    paid = max(e["seq"] for e in events if e["recorded_at"] < "2026-11-30T21:05")
    by_seq = banco("ruling", "rent", str(paid), "--json").output
    by_time = banco("ruling", "rent", "2026-11-30T21:04:30Z", "--json").output
    assert json.loads(by_time)["subject_seq"] == paid and by_time == by_seq
    # the roll's last event (its TurnEnded) is not one `ruling rent` takes: refused, by a
    # time as by its seq
    assert "(TurnEnded) is not a landing" in banco("ruling", "rent", "2026-11-30T21:03Z",
                                                   code=2).output
    out = banco("ruling", "rent", "2026-11-30T21:04Z", "--record", "--referee", "Rita").output
    assert "recorded as event" in out
    assert events_of(banco.db)[-1]["data"]["subject_seq"] == paid
    err = banco("ruling", "jail", "yesterday", code=2).output
    assert "'yesterday' is neither an event number nor a time" in err


def _crafted_bankruptcy(table, command) -> str:
    """The bankruptcy ruling's text for a scene set directly on a two-player table (tests/
    test_estate.py): only the batch's lines mean anything, the log before it is just the deal."""
    from helpers import play

    from banco.ledger.board.rule_sets import load_rules
    from banco.ledger.rules.decide import start_game

    ruleset = load_rules("classic")
    events = start_game(["Anna", "Bruno"], ruleset, ruleset.edition)
    for i, e in enumerate(events, start=1):
        e.update(seq=i, command_id=1)
    _, after = play(table, command)
    for i, e in enumerate(after, start=len(events) + 1):
        e.update(seq=i, command_id=2)
    seq = next(e["seq"] for e in after if e["type"] == "BankruptcyDeclared")
    return rulings.bankruptcy(events + after, seq, game_id=1).text()


def test_a_written_off_ten_percent_names_the_bank_as_the_creditor():
    # The last player left cannot raise the 10%: the Bank's claim is written off
    from estate_tables import last_bankruptcy
    from helpers import Bankrupt

    text = _crafted_bankruptcy(last_bankruptcy(bruno_cash=0, anna_cash=0), Bankrupt())
    assert "Bruno's debt of 18 M to the Bank cancelled (Bruno is the last player left" in text
    assert "game over, Bruno wins" in text


def test_a_mortgage_freed_with_the_estate_is_in_the_bankruptcy_ruling():
    # --lift at the bankruptcy: the 193 (175 + 18) Bruno pays to free Viale dei Giardini
    from estate_tables import last_bankruptcy
    from helpers import POS, Bankrupt

    text = _crafted_bankruptcy(last_bankruptcy(), Bankrupt("Anna", (POS["Viale dei Giardini"],)))
    assert ("Bruno pays the Bank 193 M to free mortgaged Viale dei Giardini at once, the "
            "mortgage + 10% (004 §Fallimento)") in text


def test_a_ruling_in_a_file_of_several_games_says_which_game_it_rules_on(tmp_path, banco):
    """A trial: in a file of three games `ruling rent 661` quietly used game 3, and its error
    named no game.  With more than one game and no --game, the game is said first, on stderr;
    with --game, or one game, or --json, nothing more."""
    db = str(tmp_path / "two.db")
    lines(db, "new Anna Bruno", "roll 1 2", "decline", "hammer Anna")
    lines(db, "new Carla Dario", "roll 1 2")
    r = banco("--db", db, "ruling", "rent", "5", code=2)
    assert "(ruling on game 2: the latest unfinished, else the last; `--game N` for " in r.output
    r = banco("--db", db, "--game", "1", "ruling", "auction", "11")
    assert "ruling on game" not in r.output and "auction ruling on event 11" in r.output
    assert "ruling on game" not in banco("--db", db, "--game", "1", "ruling", "auction", "11",
                                         "--json").output



# --- a ruling as a fact ---------------------------------------------------------------------

RULED = {"rent": ("RentClaimOpened", "RentPaid", "RentClaimLapsed"),
         "auction": ("AuctionOpened", "AuctionWon"), "bankruptcy": ("BankruptcyDeclared",),
         "jail": ("SentToJail", "LeftJail")}


@pytest.mark.parametrize("kind", sorted(RULED))
def test_what_a_recorded_ruling_keeps_is_data_and_says_the_verdict_again(end, kind):
    """RulingRecorded keeps the verdict's code and the evidence, no sentence; the verdict
    said from that data is the ruling's own, in English and in Italian."""
    from banco.cli.words.i18n import catalog
    from banco.ledger.records.verdicts import words

    events = events_of(end)
    book = Book(end)
    try:
        money = book.state(1).edition.money  # amounts are kept as integers
    finally:
        book.close()
    subjects = [s for t in RULED[kind] for s in seqs(events, t)[:4]]
    assert subjects
    for seq in subjects:
        found = rulings.KINDS[kind](events, seq, game_id=1)
        kept = json.loads(json.dumps(found.recorded()))  # as the row holds it
        assert '"said"' not in json.dumps(kept), (seq, kept)
        assert kept["rule"] == found.rule and kept["evidence"]
        again = words(kept["verdict"], money)
        assert str(again) == str(found.verdict)
        assert again.render(catalog("it")) == found.verdict.render(catalog("it"))
