"""Rent: amounts from the deeds, the claim and its window (004 §Fermarsi nella proprietà di qualcun altro, 003 §04)."""

import pytest
from helpers import (
    POS,
    Buy,
    Claim,
    PayDebt,
    Roll,
    balanced,
    build,
    cash,
    mortgage,
    new_table,
    of_type,
    own,
    place,
    play,
    turn_of,
    types,
)

from banco.ledger.base.errors import RuleViolation
from banco.ledger.rules.movement import rent_for, seat_after


def land(t, player, target, dice=None):
    """Put `player` a roll away from `target` and roll there (dice must not be doubles)."""
    dice = dice or (1, 2)
    t = place(turn_of(t, player), player, (target - sum(dice)) % 40)
    return play(t, Roll(dice))


@pytest.mark.parametrize("level,rent", [(0, 8), (1, 20), (2, 60), (3, 180), (4, 320), (5, 450)])
def test_street_rent_follows_the_deed(level, rent):
    t = own(new_table(), "Bruno", "Vicolo Corto", "Vicolo Stretto")
    t = build(build(t, "Vicolo Stretto", level), "Vicolo Corto", min(level, 4))
    amount, _ = rent_for(t, POS["Vicolo Stretto"], 7)
    assert amount == rent


def test_lone_lot_pays_base_rent_and_a_complete_group_doubles_it():
    t = own(new_table(), "Bruno", "Via Roma", "Corso Impero")
    assert rent_for(t, POS["Via Roma"], 7)[0] == 26
    t = own(t, "Bruno", "Largo Augusto")
    assert rent_for(t, POS["Via Roma"], 7) == (52, {"code": "rent_double", "rent": 26})
    assert rent_for(t, POS["Largo Augusto"], 7)[0] == 56


def test_mortgaged_lot_cancels_double_rent_in_classic_but_not_in_quick():
    for rules, expected in (("classic", 35), ("quick", 70)):
        t = own(new_table(rules=rules), "Bruno", "Viale dei Giardini", "Parco della Vittoria")
        t = mortgage(t, "Parco della Vittoria")
        assert rent_for(t, POS["Viale dei Giardini"], 7)[0] == expected


@pytest.mark.parametrize("count,rent", [(1, 25), (2, 50), (3, 100), (4, 200)])
def test_stations_25_50_100_200(count, rent):
    stations = ["Stazione Sud", "Stazione Ovest", "Stazione Nord", "Stazione Est"][:count]
    t = own(new_table(), "Bruno", *stations)
    assert rent_for(t, POS["Stazione Sud"], 7)[0] == rent


def test_utilities_four_or_ten_times_the_dice_that_moved_the_player():
    t = own(new_table(), "Bruno", "Società Elettrica")
    t, ev = land(t, "Anna", POS["Società Elettrica"], dice=(5, 6))
    assert of_type(ev, "RentClaimOpened")[0]["amount"] == 44
    t = own(new_table(), "Bruno", "Società Elettrica", "Società Acqua Potabile")
    t, ev = land(t, "Anna", POS["Società Acqua Potabile"], dice=(6, 3))
    assert of_type(ev, "RentClaimOpened")[0]["amount"] == 90


def test_landing_opens_a_claim_and_the_owner_collects_it():
    t = own(new_table(), "Carla", "Vicolo Stretto")
    t, ev = land(t, "Anna", POS["Vicolo Stretto"])
    opened = of_type(ev, "RentClaimOpened")[0]
    # events 1-5 deal the game; 6 is the roll, 7 the landing the claim points at
    assert opened == {"payer": "Anna", "owner": "Carla", "property": 3, "amount": 4,
                      "basis": {"code": "rent_unbuilt"}, "closer": "Bruno", "landed_seq": 7}
    assert t.player("Anna").cash == 1500  # rent is not automatic
    t, ev = play(t, Claim("Carla"))
    assert of_type(ev, "RentPaid")[0]["amount"] == 4
    assert t.player("Anna").cash == 1496 and t.player("Carla").cash == 1504
    assert t.claims == () and balanced(t)


def test_claim_is_refused_once_the_next_player_has_rolled_and_the_refusal_is_evidence():
    t = own(new_table(), "Carla", "Piazza Dante")
    t, ev = land(t, "Anna", POS["Piazza Dante"])
    assert t.turn.player == "Bruno"
    t, ev = play(t, Roll((1, 2)))  # Bruno rolls: the window closes
    lapsed = of_type(ev, "RentClaimLapsed")
    assert lapsed and lapsed[0]["closed_by"] == "Bruno"
    with pytest.raises(RuleViolation, match='is too late: Anna landed at event 7') as err:
        play(t, Claim("Carla"))
    refusal = err.value
    assert "too late" in refusal.message and "003 §04" in refusal.rule
    assert [e["type"] for e in refusal.record] == ["RentClaimRefused"]
    evidence = refusal.record[0]["data"]
    assert evidence["payer"] == "Anna" and evidence["amount"] == 16 and evidence["closer"] == "Bruno"
    assert evidence["opened_seq"] < evidence["lapsed_seq"]
    assert evidence["landed_seq"] == evidence["opened_seq"] - 1  # the TokenMoved before it
    assert f"Anna landed at event {evidence['landed_seq']} and" in refusal.message


def test_stored_evidence_points_at_the_landing(tmp_path):
    """Through the store: the seqs in the log, not the decider's, are what a referee reads."""
    from banco.ledger.book import Book
    from banco.ledger.records import commands as c

    book = Book(str(tmp_path / "e.db"))
    now = "2026-11-29T10:00:00.000000Z"
    game = book.new_game(["Anna", "Bruno", "Carla"], now=now)
    # Anna buys Vicolo Stretto, Bruno lands on it, Carla's roll closes the window
    for cmd in (c.Roll((1, 2)), c.Buy(), c.Roll((1, 2)), c.Roll((2, 3))):
        book.execute(game, cmd, now=now)
    refused = book.execute(game, c.Claim("Anna"), now=now)
    log = {e["seq"]: e for e in book.events(game)}
    opened = next(e for e in log.values() if e["type"] == "RentClaimOpened")
    landing = log[opened["data"]["landed_seq"]]
    assert landing["type"] == "TokenMoved" and landing["data"]["player"] == "Bruno"
    assert landing["data"]["to"] == 3 and landing["seq"] < opened["seq"]
    record = refused.events[-1]  # after its CommandRecorded
    assert record["type"] == "RentClaimRefused"
    assert record["data"]["landed_seq"] == landing["seq"]
    assert f"Bruno landed at event {landing['seq']} and" in str(refused.refused)
    book.close()


def test_the_payers_own_extra_roll_does_not_close_the_window():
    t = own(new_table(), "Carla", "Vicolo Corto")
    t = place(t, "Anna", 39)
    t, ev = play(t, Roll((1, 1)))  # doubles onto Vicolo Corto (via Via!)
    assert types(ev)[-1] == "ExtraRollDue"
    t, ev = play(t, Roll((1, 2)))  # Anna again: still open
    assert "RentClaimLapsed" not in types(ev) and len(t.claims) == 1
    t, ev = play(t, Claim("Carla"))
    assert of_type(ev, "RentPaid")[0]["amount"] == 2


def test_claim_while_owner_is_in_jail_is_collected():
    t = own(new_table(), "Bruno", "Vicolo Corto")
    t = place(t, "Bruno", 10, in_jail=True)
    t, _ = land(t, "Anna", POS["Vicolo Corto"])
    t, ev = play(t, Claim("Bruno"))
    assert of_type(ev, "RentPaid")[0]["payee"] == "Bruno"


def test_no_rent_on_a_mortgaged_lot():
    t = mortgage(own(new_table(), "Bruno", "Vicolo Corto"), "Vicolo Corto")
    t, ev = land(t, "Anna", POS["Vicolo Corto"])
    assert "RentClaimOpened" not in types(ev) and of_type(ev, "RentNotDue")
    with pytest.raises(RuleViolation, match='no rent is owed to Bruno') as err:
        play(t, Claim("Bruno"))
    assert err.value.record == []  # nothing was owed: nothing to record


def test_own_property_owes_nothing():
    t = own(new_table(), "Anna", "Vicolo Stretto")
    t, ev = land(t, "Anna", POS["Vicolo Stretto"])
    assert types(ev) == ["DiceRolled", "TokenMoved", "TurnEnded"]


def test_window_closer_skips_bankrupt_players():
    t = new_table()
    i = t.index["Bruno"]
    t = t._replace(players=t.players[:i] + (t.players[i]._replace(bankrupt=True),) + t.players[i + 1:])
    assert seat_after(t, "Anna", 1) == "Carla"
    assert seat_after(t, "Dario", 1) == "Anna"


def test_rent_beyond_cash_becomes_a_debt_that_blocks_the_table():
    t = own(new_table(), "Bruno", "Parco della Vittoria")
    t = build(t, "Parco della Vittoria", 5)
    t, _ = land(t, "Anna", POS["Parco della Vittoria"])
    t = cash(t, "Anna", 1000)
    t, ev = play(t, Claim("Bruno"))
    assert of_type(ev, "DebtIncurred")[0] == {"debtor": "Anna", "creditor": "Bruno",
                                              "amount": 2000, "reason": {
                                                  "code": "rent", "space": POS["Parco della Vittoria"]}}
    assert t.claims == () and len(t.debts) == 1
    with pytest.raises(RuleViolation, match='cannot roll: Anna owes 2000 M to Bruno') as err:
        play(t, Roll((1, 2)))
    assert "owes 2000 M to Bruno" in str(err.value)
    with pytest.raises(RuleViolation, match='Anna has 1000 M and owes 2000 M to Bruno') as err:
        play(t, PayDebt())
    assert err.value.allowed == ("Anna owes 2000 M to Bruno (rent on Parco della Vittoria) and "
                                 "can raise only 1000 M: `bankrupt Anna`")
    t = cash(t, "Anna", 2100)
    t, ev = play(t, PayDebt())
    assert t.player("Anna").cash == 100 and t.player("Bruno").cash == 3500
    assert t.debts == () and balanced(t)


def test_auto_rent_house_rule_pays_on_landing(tmp_path):
    house = tmp_path / "house.toml"
    house.write_text('extends = "classic"\nname = "house"\nrent = "auto"\n')
    t = own(new_table(("Anna", "Bruno"), rules=str(house)), "Bruno", "Vicolo Stretto")
    t, ev = land(t, "Anna", 3)
    assert of_type(ev, "RentPaid")[0]["amount"] == 4 and t.player("Anna").cash == 1496


def test_buying_then_rent_from_a_second_player_end_to_end():
    t, _ = play(new_table(), Roll((1, 2)), Buy())  # Anna buys Vicolo Stretto
    t, ev = play(t, Roll((2, 1)))  # Bruno lands on it
    assert of_type(ev, "RentClaimOpened")[0]["closer"] == "Carla"
    t, _ = play(t, Claim("Anna"))
    assert t.player("Anna").cash == 1444 and t.player("Bruno").cash == 1496


# --- late claims: judged against the owner's last landing, recorded once (003 §04) -----------

def _late(rules=None):
    """Anna lands on Carla's Piazza Dante (16) and Bruno's roll closes the window."""
    t = own(new_table(), "Carla", "Piazza Dante", "Stazione Nord", "Vicolo Corto")
    if rules is not None:
        t = t._replace(rules=rules)
    t, _ = land(t, "Anna", POS["Piazza Dante"])
    t, _ = play(t, Roll((1, 2)))
    return t


def _refused(t, cmd):
    """The refusal, and the table with its evidence recorded as the book would."""
    from banco.ledger.table.state import evolve

    with pytest.raises(RuleViolation) as err:
        play(t, cmd)
    for e in err.value.record or ():
        t = evolve(t, {**e, "seq": t.seq + 1})
    return err.value, t


def test_a_repeated_late_claim_is_refused_without_more_evidence():
    first, t = _refused(_late(), Claim("Carla"))
    assert [e["type"] for e in first.record] == ["RentClaimRefused"]
    again, t = _refused(t, Claim("Carla"))
    assert not again.record and "003 §04" in again.rule
    assert again.message.startswith(f"already recorded as refused (event {t.seq}): Carla's "
                                    "claim for 16 M rent on Piazza Dante from Anna is too late")


def test_a_claim_after_a_landing_that_owed_nothing_is_not_tied_to_an_older_one():
    # Dario lands on Carla's mortgaged Stazione Nord (RentNotDue): the claim that follows is
    # judged against that landing, not Anna's lapsed one on Piazza Dante.
    t, ev = land(mortgage(_late(), "Stazione Nord"), "Dario", POS["Stazione Nord"])
    assert types(ev)[-1] in ("RentNotDue", "TurnEnded") and of_type(ev, "RentNotDue")
    refusal, _ = _refused(t, Claim("Carla"))
    assert not refusal.record
    assert ("no rent is owed to Carla: the last landing on Carla's deeds, Dario's on Stazione "
            "Nord at event" in refusal.message and "owed nothing (the lot is mortgaged" in
            refusal.message)


def test_a_paid_landing_retires_an_older_lapsed_one():
    t, _ = land(_late(), "Dario", POS["Vicolo Corto"])
    t, ev = play(t, Claim("Carla"))
    assert of_type(ev, "RentPaid")[0]["amount"] == 2
    refusal, _ = _refused(t, Claim("Carla"))
    assert not refusal.record and "no rent is owed to Carla" in refusal.message
    # somebody landed, and paid: not "nobody has landed"
    assert ("since the window last closed, nobody has landed on an unmortgaged property of "
            "Carla's without paying") in refusal.message


def test_a_game_recorded_before_keeps_its_late_claims_as_played():
    # A GameStarted without late_claims: every repeat recorded its evidence again, and a claim
    # answered from the last lapsed landing; such a log re-derives as it was recorded.
    from banco.ledger.board.rule_sets import RuleSet

    rules = new_table().rules
    old = RuleSet.from_params({k: v for k, v in rules.params().items() if k != "late_claims"})
    first, t = _refused(_late(old), Claim("Carla"))
    again, t = _refused(t, Claim("Carla"))
    assert [e["data"]["opened_seq"] for e in first.record + again.record] == [
        first.record[0]["data"]["opened_seq"]] * 2
    t, _ = land(mortgage(t, "Stazione Nord"), "Dario", POS["Stazione Nord"])
    stray, _ = _refused(t, Claim("Carla"))
    assert stray.record[0]["data"]["property"] == POS["Piazza Dante"]
