"""`time-up` (000 FAQ 6, 002 §Conclusione del gioco, 004 timed game) and the short game's end at
the second bankruptcy, through decide and evolve; the recorded time through the CLI."""

import pytest
from freezegun import freeze_time
from helpers import POS, cash, new_table, own, place, play, types

from banco.ledger.base.errors import RuleViolation
from banco.ledger.board.edition import load_edition
from banco.ledger.records import commands as c
from banco.ledger.records.reasons import english
from banco.ledger.rules.decide import decide
from banco.ledger.table.state import BANK, next_step

AT = "2026-04-25T18:30:00.000000Z"

EDITION = load_edition("it")  # a reason's amounts are integers: the edition prints them


def test_championship_time_up_mid_turn_waits_for_the_turn_to_finish():
    t = new_table(("Anna", "Bruno"), rules="championship")
    t, events = play(t, c.Roll((4, 5)))  # Anna -> 9 Viale Vesuvio, for sale: a turn in progress
    t, events = play(t, c.TimeUp(AT))
    assert types(events) == ["TimeRanOut"]
    assert events[0]["data"]["ends"] == "after_turn" and events[0]["data"]["at"] == AT
    assert not t.ended and t.time_up == (AT, "after_turn")
    assert "time is up: the game ends after Anna's turn" in next_step(t)
    t, events = play(t, c.Buy())  # the turn is over: no TurnEnded, the game ends
    assert types(events) == ["PropertyBought", "GameEnded"]
    ended = events[-1]["data"]
    # Anna 1380 + Viale Vesuvio 120 = 1500 = Bruno's 1500: the tie goes to the unmortgaged
    # property (000 §PUNTEGGIO 3), Anna's 120 against none.
    assert (ended["winner"], ended["rule"]) == ("Anna", "000 FAQ 6")
    assert t.ended


def test_championship_doubles_finish_the_turn_and_the_reroll_never_comes():
    # 000 FAQ 11: the re-roll after doubles is a turn of its own.
    t = new_table(("Anna", "Bruno"), rules="championship")
    t, _ = play(t, c.Roll((2, 2)), c.TimeUp(AT))  # Anna -> 4 Tassa Patrimoniale: paid, doubles
    # the tax was paid in the roll's command and the turn ended with ExtraRollDue: at once
    assert t.ended and t.winner == "Bruno"


def test_championship_time_up_between_turns_ends_at_once():
    t = new_table(("Anna", "Bruno"), rules="championship")
    t, events = play(t, c.TimeUp(AT))
    assert types(events) == ["TimeRanOut", "GameEnded"]
    assert events[0]["data"]["ends"] == "at_once"
    assert events[1]["data"]["winner"] is None  # 1500 each: a tie on count and on property
    assert "tie at 1500 M" in english(events[1]["data"]["reason"], EDITION)
    with pytest.raises(RuleViolation, match=r"the game is over \(a tie\).*\(000 FAQ 6\)"):
        decide(t, c.Roll((1, 2)))


def test_vintage_time_up_ends_at_once_whatever_is_in_progress():
    t = new_table(("Anna", "Bruno"), rules="vintage")
    t = t._replace(dealt={"Anna": 7, "Bruno": 7})  # the deals are not the point here
    t, _ = play(t, c.Roll((4, 5)))  # Anna -> 9, for sale
    assert t.turn.phase == "buy"
    t, events = play(t, c.TimeUp(AT))
    assert types(events) == ["TimeRanOut", "GameEnded"]
    assert events[1]["data"]["rule"] == "002 §Conclusione del gioco"
    assert t.owners[POS["Viale Vesuvio"]] is None
    with pytest.raises(RuleViolation, match=r"002 §Conclusione del gioco"):
        decide(t, c.Buy())


def test_time_up_with_a_debt_waits_for_the_debt():
    t = new_table(("Anna", "Bruno"), rules="timed")
    t = t._replace(dealt={"Anna": 2, "Bruno": 2})
    t = cash(own(t, "Bruno", "Vicolo Stretto"), "Anna", 3)
    t, _ = play(t, c.Roll((1, 2)), c.Claim("Bruno"))  # Anna owes Bruno 4, has 3
    assert t.debts and t.turn.player == "Bruno"
    t, events = play(t, c.TimeUp(AT))
    assert types(events) == ["TimeRanOut"] and not t.ended
    assert next_step(t).endswith("time is up: the game ends")
    t, _ = play(t, c.Mortgage(POS["Vicolo Stretto"], "Bruno"))  # Bruno's own: not Anna's debt
    assert not t.ended
    t = own(t, "Anna", "Vicolo Corto")
    t, events = play(t, c.Mortgage(POS["Vicolo Corto"]), c.PayDebt("Anna"))
    assert types(events)[-2:] == ["DebtPaid", "GameEnded"] and t.ended


def test_time_up_is_refused_without_a_time_limit_and_twice():
    t = new_table(("Anna", "Bruno"))
    with pytest.raises(RuleViolation, match=r"the classic rules have no time limit.*"
                                            r"\(004 §Vincitore; 003 §11\)") as err:
        decide(t, c.TimeUp(AT))
    assert "--rules timed" in err.value.allowed
    t = new_table(("Anna", "Bruno"), rules="championship")
    t, _ = play(t, c.Roll((4, 5)), c.TimeUp(AT))
    with pytest.raises(RuleViolation, match=f"time was already up at {AT}"):
        decide(t, c.TimeUp(AT))


def test_the_winner_is_the_richest_by_the_count():
    # Anna: 1500 - 120 + Viale Vesuvio 120 = 1500; Bruno: 1500 - 100 + Bastioni mortgaged 50
    # -> a tie on count; championship breaks it on unmortgaged property (Anna 120, Bruno 0).
    t = new_table(("Anna", "Bruno"), rules="championship")
    t = own(cash(own(cash(t, "Anna", 1380), "Anna", "Viale Vesuvio"), "Bruno", 1450), "Bruno",
            "Bastioni Gran Sasso")
    t = t._replace(mortgaged=frozenset({POS["Bastioni Gran Sasso"]}))
    t, events = play(t, c.TimeUp(AT))
    assert events[-1]["data"]["winner"] == "Anna"
    assert "Anna is the richest with 1500 M" in english(events[-1]["data"]["reason"], EDITION)


def test_the_short_game_ends_at_the_second_bankruptcy():
    t = new_table(("Anna", "Bruno", "Carla", "Dario"), rules="short")
    t = t._replace(dealt={"Anna": 2, "Bruno": 2, "Carla": 2, "Dario": 2})
    t = cash(own(t, "Anna", "Vicolo Stretto"), "Bruno", 3)
    t, _ = play(t, c.Roll((4, 6)))  # Anna -> 10
    t = place(t, "Bruno", 0)
    t, events = play(t, c.Roll((1, 2)), c.Claim("Anna"), c.Bankrupt("Bruno"))
    assert "GameEnded" not in types(events) and not t.ended  # the first: the game goes on
    t = cash(t, "Carla", 2)
    t, events = play(t, c.Roll((1, 2)), c.Claim("Anna"), c.Bankrupt("Carla"))
    assert types(events)[-1] == "GameEnded" and t.ended and t.winner == "Anna"
    assert events[-1]["data"]["rule"] == "004 §Regole del gioco breve"
    assert "bankruptcy number 2 ends the game" in english(events[-1]["data"]["reason"], EDITION)


def test_the_short_games_second_bankruptcy_to_the_bank_holds_no_auction():
    t = new_table(("Anna", "Bruno", "Carla"), rules="short")
    t = t._replace(dealt={"Anna": 2, "Bruno": 2, "Carla": 2}, eliminated=("Carla",))
    t = place(t, "Carla", 0, bankrupt=True, cash=0)  # as if she had gone already
    t = t._replace(bank_paid_out=t.bank_paid_out - 1500)
    t = cash(own(t, "Anna", "Vicolo Corto"), "Anna", 20)
    # 4 Tassa Patrimoniale: 200 owed to the Bank, 20 + a 30 mortgage to raise
    t, events = play(t, c.Roll((1, 3)), c.Bankrupt("Anna"))
    assert "AuctionOpened" not in types(events) and t.ended and t.auction is None
    assert t.winner == "Bruno"


def test_the_time_is_recorded_when_the_banker_says_it(banco):
    import json

    banco("new", "Anna", "Bruno", "--rules", "timed")
    banco("deal", "Anna", "vicolo corto", "vicolo stretto")
    banco("deal", "Bruno", "stazione sud", "stazione ovest")
    banco("roll", "4", "6")  # Anna -> 10
    banco("roll", "1", "2")  # Bruno -> 3 Vicolo Stretto, Anna's: 4
    banco("claim", "Anna")  # both browns: double rent 8; Anna 1508 by the count, Bruno 1492
    with freeze_time("2099-11-29 23:00:00"):  # after the game's start: times go on
        out = banco("time-up").output
    from banco.cli.words.facts import local_time

    at = local_time("2099-11-29T23:00:00.000000Z")  # as `log` shows a time, not the raw UTC
    assert f"time is up at {at}" in out
    assert f"game over: Anna wins (time is up ({at}): Anna is the " \
           "richest with 1508 M)" in out
    log = json.loads(banco("log", "--json").output)
    assert {e["recorded_at"] for e in log[-3:]} == {"2099-11-29T23:00:00.000000Z"}
    state = json.loads(banco("state", "--json").output)
    assert state["time_up"] == {"at": "2099-11-29T23:00:00.000000Z", "ends": "at_once"}


def test_the_bank_is_never_a_winner():
    t = new_table(("Anna", "Bruno"), rules="championship")
    t, events = play(t, c.TimeUp(AT))
    assert events[-1]["data"]["winner"] != BANK


def _rent_opened_by_the_last_turn():
    """Championship: Anna owns Via Accademia (11); time runs out while Bruno's card is pending;
    the card sends him to Via Accademia: the turn is over, and Anna's 10 M rent is still to be
    asked (the unbuilt lot's rent on the deed)."""
    t = own(new_table(("Anna", "Bruno"), rules="championship"), "Anna", "Via Accademia")
    t, _ = play(t, c.Roll((1, 3)))  # Anna -> 4 Tassa Patrimoniale, 200 paid: Bruno's turn
    t, _ = play(t, c.Roll((3, 4)), c.TimeUp(AT))  # Bruno -> 7 Imprevisti: a turn in progress
    t, events = play(t, c.DrawCard("imprevisti", 5))  # "Andate fino a Via Accademia"
    opened = [e["data"] for e in events if e["type"] == "RentClaimOpened"]
    assert opened and opened[0]["amount"] == 10 and opened[0]["owner"] == "Anna"
    return t, events


def test_rent_opened_by_the_last_turn_may_still_be_asked_before_the_game_ends():
    # Found by recording a championship game: the game used to end with the landing, and the
    # rent could never be asked (`claim` refused: the game is over), changing the count.
    t, events = _rent_opened_by_the_last_turn()
    assert not t.ended and "GameEnded" not in types(events)
    assert "time is up: rent may still be asked (`claim OWNER`: Anna)" in next_step(t)
    with pytest.raises(RuleViolation, match="no new turn begins") as err:
        decide(t, c.Roll((1, 2)))  # Anna's roll would close the window: no turn begins now
    assert "`claim OWNER` (Anna)" in err.value.allowed
    cash_before = t.player("Anna").cash
    t, events = play(t, c.Claim("Anna"))
    assert types(events) == ["RentPaid", "GameEnded"]
    assert t.ended and t.player("Anna").cash == cash_before + 10


def test_time_up_again_lets_the_unasked_rent_go_and_ends_the_game():
    t, _ = _rent_opened_by_the_last_turn()
    cash_before = t.player("Anna").cash
    t, events = play(t, c.TimeUp(AT))
    assert types(events) == ["RentClaimLapsed", "GameEnded"]
    assert events[0]["data"]["closed_by"] == "time"
    assert t.ended and t.player("Anna").cash == cash_before
