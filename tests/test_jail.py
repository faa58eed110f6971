"""Jail (004 §Prigione, 003 §08, 000 FAQ 16)."""

import pytest
from helpers import (
    Buy,
    PayFine,
    Roll,
    UseCard,
    balanced,
    cash,
    new_table,
    of_type,
    place,
    play,
    types,
)

from banco.ledger.base.errors import RuleViolation


def jailed(tries=0, **kw):
    return place(new_table(), "Anna", 10, in_jail=True, jail_turns=tries, **kw)


def test_a_failed_try_stays_in_jail_and_the_turn_passes():
    t, ev = play(jailed(), Roll((3, 4)))
    assert types(ev) == ["DiceRolled", "JailRollFailed", "TurnEnded"]
    a = t.player("Anna")
    assert a.in_jail and a.position == 10 and a.jail_turns == 1
    assert t.turn.player == "Bruno"


def test_doubles_free_the_player_who_moves_by_them_and_does_not_roll_again():
    t, ev = play(jailed(), Roll((2, 2)))
    assert types(ev)[:3] == ["DiceRolled", "LeftJail", "TokenMoved"]
    assert t.player("Anna").position == 14 and not t.player("Anna").in_jail
    t, ev = play(t, Buy())
    assert types(ev)[-1] == "TurnEnded" and t.turn.player == "Bruno"


def test_after_the_third_failed_try_pay_the_fine_and_move():
    t, ev = play(jailed(tries=2), Roll((1, 2)))
    assert types(ev)[:4] == ["DiceRolled", "JailRollFailed", "FinePaid", "LeftJail"]
    a = t.player("Anna")
    assert a.position == 13 and a.cash == 1450 and not a.in_jail
    assert t.turn.phase == "buy" and balanced(t)


def test_pay_fine_then_doubles_rolls_again():
    t, ev = play(jailed(), PayFine())
    assert types(ev) == ["FinePaid", "LeftJail"] and t.player("Anna").cash == 1450
    t, ev = play(t, Roll((3, 3)))
    assert t.player("Anna").position == 16 and t.turn.phase == "buy"
    t, ev = play(t, Buy())
    assert types(ev)[-1] == "ExtraRollDue"  # 000 FAQ 16


def test_use_card_needs_a_card_and_pay_fine_needs_jail_and_cash():
    with pytest.raises(RuleViolation, match='Anna holds no get-out-of-jail card') as err:
        play(jailed(), UseCard())
    assert "no get-out-of-jail card" in str(err.value)
    with pytest.raises(RuleViolation, match='Anna is not in jail') as err:
        play(new_table(), PayFine())
    assert "not in jail" in str(err.value)
    with pytest.raises(RuleViolation, match='Anna has 10 M; the fine is 50 M'):
        play(cash(jailed(), "Anna", 10), PayFine())


def test_jail_exit_only_before_rolling():
    t = jailed()
    t = t._replace(turn=t.turn._replace(phase="buy", offer=1))
    with pytest.raises(RuleViolation, match='cannot pay the fine now'):
        play(t, PayFine())


def test_just_visiting_is_not_jail():
    t = place(new_table(), "Anna", 7)
    t, ev = play(t, Roll((1, 2)))
    assert t.player("Anna").position == 10 and not t.player("Anna").in_jail


def holding_a_card(tries=2, **kw):
    t = jailed(tries=tries, jail_cards=(("imprevisti", 15),), **kw)
    return t._replace(held_cards={("imprevisti", 15): "Anna"})


def test_forced_out_with_a_card_the_table_waits_for_card_or_fine():
    # 000 FAQ 17: after the third failed try a get-out-of-jail card may replace the 50 M fine.
    t, ev = play(holding_a_card(), Roll((1, 2)))
    assert types(ev) == ["DiceRolled", "JailRollFailed", "JailExitDue"]
    assert of_type(ev, "JailExitDue") == [{"player": "Anna", "fine": 50, "spaces": 3}]
    assert t.turn.phase == "jail_exit" and t.player("Anna").position == 10
    from banco.ledger.table.state import next_step

    assert next_step(t) == ("Anna failed the last try and leaves jail: `use-card` or `pay-fine` "
                            "(50 M), then moves 3 (000 FAQ 17)")
    with pytest.raises(RuleViolation, match="cannot roll now") as err:
        play(t, Roll((4, 4)))
    assert "`use-card` or `pay-fine`" in err.value.allowed
    used, ev = play(t, UseCard())
    assert types(ev)[:3] == ["JailCardUsed", "LeftJail", "TokenMoved"]
    a = used.player("Anna")
    assert a.position == 13 and a.cash == 1500 and not a.in_jail and a.jail_cards == ()
    assert used.turn.phase == "buy" and balanced(used)
    paid, ev = play(t, PayFine())
    a = paid.player("Anna")
    assert types(ev)[:3] == ["FinePaid", "LeftJail", "TokenMoved"]
    assert a.position == 13 and a.cash == 1450 and a.jail_cards == (("imprevisti", 15),)
    assert balanced(paid)


def test_forced_out_onto_a_square_that_asks_nothing_the_turn_passes():
    t, _ = play(holding_a_card(), Roll((4, 6)))  # 10 + 10 = Free Parking (20)
    t, ev = play(t, UseCard())
    assert types(ev)[-1] == "TurnEnded" and t.turn.player == "Bruno"
    assert t.player("Anna").position == 20 and t.turn.phase == "roll"


# Short of the fine after the last try: tests/test_jail_fine.py (issue 32).


def test_without_a_card_the_third_failed_try_pays_at_once():
    t, ev = play(jailed(tries=2), Roll((1, 2)))
    assert "JailExitDue" not in types(ev) and of_type(ev, "FinePaid")[0]["amount"] == 50


def test_the_last_failed_try_is_not_narrated_as_staying_in_jail():
    """The third try without doubles ends the stay (the fine or a card comes next): a
    newcomer read "stays in jail (try 3)" and, on the next line, "leaves jail"."""
    from helpers import new_table

    from banco.cli.words.facts import narrate

    t = new_table()
    last = t.rules.jail_max_attempts
    assert narrate({"type": "JailRollFailed", "data": {"player": "Anna", "attempt": 1}},
                   t) == "  no doubles: Anna stays in jail (try 1)"
    assert narrate({"type": "JailRollFailed", "data": {"player": "Anna", "attempt": last}},
                   t) == (f"  no doubles on the last try ({last}): Anna may stay no longer (the "
                          "fine, or a card)")

def test_the_last_failed_try_says_leaving_jail_once(tmp_path):
    import banco

    with banco.open(str(tmp_path / "j.db"), create=True) as book:
        game = book.execute("new Anna Bruno").game
        for line in ("roll 1 1", "card probabilita 2", "roll 4 6", "roll 1 2", "roll 4 6",
                     "roll 1 2", "roll 6 4"):  # Anna to jail; Bruno to 10, 20, then jail
            assert book.execute(line, game=game).refusal is None, line
        out = book.execute("roll 1 2", game=game)  # Anna's third try
        assert [t for t in (e["type"] for e in out.events)
                if t in ("JailRollFailed", "FinePaid", "LeftJail")] == [
            "JailRollFailed", "FinePaid", "LeftJail"]
        for language, leaves in (("en", "leaves jail"), ("it", "esce di prigione")):
            assert out.say(language).count(leaves) == 1, out.say(language)
