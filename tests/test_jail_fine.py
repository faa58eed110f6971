"""The fine of the last failed try is paid before the token moves: "pagare $50 prima di poter
muovere" (004 §Prigione; 000 §PRIGIONE, 003 §08).  Short of it, the fine is a debt (003 §10)
and the token waits in jail until it is paid, or the player goes bankrupt (issue 32: he moved,
drew a card that paid him and escaped the bankruptcy).  Games recorded before keep the order
they were played in (the rule set's fine_before_move, absent from their GameStarted)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from helpers import (
    POS,
    Bankrupt,
    Items,
    Mortgage,
    PayDebt,
    PayFine,
    Roll,
    Trade,
    UseCard,
    balanced,
    cash,
    mortgage,
    new_table,
    of_type,
    owe,
    own,
    place,
    play,
    types,
)

from banco.ledger.base.errors import RuleViolation
from banco.ledger.base.text import render
from banco.ledger.board.rule_sets import RuleSet
from banco.ledger.table.state import next_step

BANCO = Path(sys.executable).parent / "banco"
ENV = {"BANCO_FIXED_TIME": "2026-11-29T21:00:00Z", "BANCO_LANG": "en"}


def jailed(tries=2, **kw):
    return place(new_table(), "Anna", 10, in_jail=True, jail_turns=tries, **kw)


def short(state, amount=20):
    return cash(state, "Anna", amount)


def old_order(state):
    """The table of a game recorded before the rule: its GameStarted had no fine_before_move."""
    params = {k: v for k, v in state.rules.params().items() if k != "fine_before_move"}
    return state._replace(rules=RuleSet.from_params(params))


def with_card(state):
    state = place(state, "Anna", 10, jail_cards=(("imprevisti", 15),))
    return state._replace(held_cards={("imprevisti", 15): "Anna"})


def test_short_of_the_fine_the_token_waits_for_the_debt():
    t = own(short(jailed()), "Anna", "Vicolo Corto")
    t, ev = play(t, Roll((1, 2)))
    assert types(ev) == ["DiceRolled", "JailRollFailed", "DebtIncurred", "JailExitDue"]
    assert of_type(ev, "DebtIncurred")[0]["amount"] == 50
    a = t.player("Anna")
    assert a.in_jail and a.position == 10 and t.turn.phase == "jail_exit"
    step = render(next_step(t))
    assert step.endswith("then Anna leaves jail and moves 3 (004 §Prigione)"), step
    with pytest.raises(RuleViolation, match="cannot roll now"):
        play(t, Roll((4, 4)))
    with pytest.raises(RuleViolation, match="cannot pay the fine: Anna owes 50 M"):
        play(t, PayFine())
    t, _ = play(t, Mortgage(POS["Vicolo Corto"]))  # 30 M: 50 M in hand
    for pays in (PayDebt("Anna"), PayFine()):  # either settles the fine, then the move
        out, ev = play(t, pays)
        assert types(ev)[:3] == ["DebtPaid", "LeftJail", "TokenMoved"], types(ev)
        a = out.player("Anna")
        assert a.position == 13 and not a.in_jail and a.cash == 0 and not out.debts
        assert balanced(out)


def test_nothing_to_raise_the_player_goes_bankrupt_before_moving():
    t, ev = play(short(jailed(), 41), Roll((3, 4)))  # 10 + 7: Probabilità, never reached
    assert "TokenMoved" not in types(ev) and t.player("Anna").position == 10
    assert "`bankrupt Anna`" in render(next_step(t))
    t, ev = play(t, Bankrupt("Anna"))
    assert "TokenMoved" not in types(ev) and "CardDrawRequired" not in types(ev)
    assert t.player("Anna").bankrupt and t.turn.player == "Bruno" and t.turn.phase == "roll"
    assert balanced(t)


def test_a_card_in_hand_and_pay_fine_short_of_it_the_debt_comes_before_the_move():
    t, ev = play(short(with_card(jailed())), Roll((1, 2)))
    assert types(ev) == ["DiceRolled", "JailRollFailed", "JailExitDue"]
    t, ev = play(t, PayFine())
    assert types(ev) == ["DebtIncurred"] and t.player("Anna").in_jail
    assert t.player("Anna").position == 10 and t.turn.phase == "jail_exit"
    t = cash(t, "Anna", 60)
    t, ev = play(t, PayDebt())
    assert types(ev)[:3] == ["DebtPaid", "LeftJail", "TokenMoved"]
    assert t.player("Anna").position == 13 and t.player("Anna").cash == 10


def test_a_card_stands_for_the_fine_owed_as_for_the_fine_000_faq_17():
    """Issue 32's note: with the fine a debt, `use-card` was refused.  000 FAQ 17 lets the card
    stand for the fine after the third try ("puoi risparmiare il pagamento di 50 M"), 004
    §Prigione frees with a card bought from another player: the debt goes, the token moves."""
    t, _ = play(short(with_card(jailed())), Roll((1, 2)))
    t, _ = play(t, PayFine())  # 20 M: the fine is a debt
    step = render(next_step(t))
    assert "; or Anna uses a get-out-of-jail card for the fine (`use-card`, 000 FAQ 17)" in step
    t, ev = play(t, UseCard())
    assert types(ev)[:4] == ["JailCardUsed", "DebtCancelled", "LeftJail", "TokenMoved"]
    cancelled = of_type(ev, "DebtCancelled")[0]
    assert (cancelled["amount"], cancelled["creditor"]) == (50, "bank")
    assert cancelled["reason"] == {"code": "jail_card_for_fine",
                                   "rule": "000 FAQ 17; 004 §Prigione; 003 §08"}
    a = t.player("Anna")
    assert (a.position, a.cash, a.in_jail, a.jail_cards, t.debts) == (13, 20, False, (), ())
    assert balanced(t)


def test_a_card_bought_while_the_fine_is_owed_frees_the_prisoner_004_prigione():
    t = place(short(jailed()), "Bruno", 5, jail_cards=(("imprevisti", 15),))
    t = t._replace(held_cards={("imprevisti", 15): "Bruno"})
    t, ev = play(t, Roll((1, 2)))
    assert types(ev)[-2:] == ["DebtIncurred", "JailExitDue"]
    t, _ = play(t, Trade("Anna", "Bruno", Items(cash=10), Items(jail_cards=1)))
    t, ev = play(t, UseCard())
    assert "DebtCancelled" in types(ev) and t.player("Anna").position == 13
    assert (t.player("Anna").cash, t.debts) == (10, ())


def test_a_second_debt_in_the_wait_holds_the_move_until_it_is_paid():
    """Issue 32's note: a debt arising while the fine was being settled did not hold the
    move: paying the fine moved the token with another debt still owed at the table, though no
    roll is made while one is (004 §Prigione; 003 §10).  The fine is settled last."""
    t, _ = play(short(with_card(jailed()), 80), Roll((1, 2)))
    t, _ = play(t, PayFine())  # 80 M: the fine paid, and the token moved
    assert t.player("Anna").position == 13  # (with nothing else owed)
    t, _ = play(short(jailed()), Roll((1, 2)))  # the fine owed, the token waits
    t = owe(cash(t, "Anna", 70), "Dario", "Bruno", 100)  # Bruno's rent claimed of Dario
    for refused in (PayDebt("Anna"), PayFine()):
        with pytest.raises(RuleViolation, match="cannot pay the fine: Dario owes 100 M to "
                                                "Bruno .rent.*Anna's token leaves jail only "
                                                "once nothing else is owed"):
            play(t, refused)
    t = cash(t, "Dario", 150)
    t, ev = play(t, PayDebt())  # any debtor: the fine last, so Dario's first
    assert types(ev) == ["DebtPaid"] and t.player("Anna").position == 10
    t, ev = play(t, PayDebt())
    assert types(ev)[:3] == ["DebtPaid", "LeftJail", "TokenMoved"]
    # the prisoner's own second debt likewise: `pay Anna` settles it first, the fine last
    t, _ = play(short(jailed()), Roll((1, 2)))
    t = owe(cash(t, "Anna", 70), "Anna", "Bruno", 10)
    t, ev = play(t, PayDebt("Anna"))
    assert types(ev) == ["DebtPaid"] and of_type(ev, "DebtPaid")[0]["payee"] == "Bruno"
    t, ev = play(t, PayDebt("Anna"))
    assert types(ev)[:3] == ["DebtPaid", "LeftJail", "TokenMoved"]
    assert (t.player("Anna").cash, t.player("Anna").position, t.debts) == (10, 13, ())
    assert balanced(t)


def test_a_debt_born_of_settling_the_fine_holds_the_move_and_its_auction_too():
    """The second debt as a table meets it: Anna, short of the fine, auctions her mortgaged
    deed (002 §Varie's way, here a house rule); Bruno wins it and cannot pay the 10% on it
    (000 FAQ 33).  The fine waits for his debt, and for the auction of his deeds after his
    bankruptcy: paid during it, the token stayed in jail and `pay-fine` charged it again."""
    from banco.ledger.records import commands as c

    t = new_table()
    t = t._replace(rules=RuleSet.from_params({**t.rules.params(), "pay_in_kind": True}))
    t = mortgage(own(short(place(t, "Anna", 10, in_jail=True, jail_turns=2)), "Anna",
                     "Parco della Vittoria"), "Parco della Vittoria")
    t, _ = play(cash(t, "Bruno", 60), Roll((1, 2)))  # the fine owed
    t, _ = play(t, c.AuctionDeed(POS["Parco della Vittoria"]), c.Bid("Bruno", 55))
    t, ev = play(t, c.Hammer())
    assert types(ev) == ["AuctionWon", "DebtIncurred"] and t.player("Anna").cash == 75
    with pytest.raises(RuleViolation, match="cannot pay the fine: Bruno owes 20 M"):
        play(t, PayDebt("Anna"))
    t, _ = play(t, Bankrupt("Bruno"))  # to the Bank: his deed auctioned
    with pytest.raises(RuleViolation, match="cannot pay the fine while an auction is open"):
        play(t, PayDebt("Anna"))
    t, _ = play(t, c.Bid("Carla", 10), c.Hammer())
    t, ev = play(t, PayDebt("Anna"))
    assert types(ev)[:3] == ["DebtPaid", "LeftJail", "TokenMoved"]
    assert (t.player("Anna").cash, t.player("Anna").position, t.debts) == (25, 13, ())
    assert balanced(t)


def test_with_the_card_the_move_waits_for_the_table_s_debts_too():
    t, _ = play(short(with_card(jailed())), Roll((1, 2)))  # the choice: card or fine
    t = owe(t, "Dario", "Bruno", 100)
    for refused, action in ((UseCard(), "use a card"), (PayFine(), "pay the fine")):
        with pytest.raises(RuleViolation, match=f"cannot {action}: Dario owes 100 M"):
            play(t, refused)


def test_with_the_fine_in_hand_nothing_changes():
    t, ev = play(jailed(), Roll((1, 2)))
    assert types(ev)[:4] == ["DiceRolled", "JailRollFailed", "FinePaid", "LeftJail"]
    assert t.player("Anna").position == 13


def test_a_game_recorded_before_the_rule_replays_as_it_was_played():
    assert RuleSet.from_params({k: v for k, v in new_table().rules.params().items()
                                if k != "fine_before_move"}).fine_before_move is False
    t, ev = play(old_order(short(jailed())), Roll((1, 2)))
    assert types(ev)[:4] == ["DiceRolled", "JailRollFailed", "DebtIncurred", "LeftJail"]
    assert t.player("Anna").position == 13
    t, _ = play(old_order(short(with_card(jailed()))), Roll((1, 2)))
    t, ev = play(t, PayFine())
    assert of_type(ev, "DebtIncurred")[0]["amount"] == 50
    assert t.player("Anna").position == 13 and not t.player("Anna").in_jail


ISSUE_32 = """\
deal Anna 'vicolo corto'
deal Bruno 'vicolo stretto'
trade Anna Bruno --give 'vicolo corto' --get 1
roll 1 1
card probabilita 2
roll 3 4 --player Bruno
card imprevisti 11
roll 1 2 --player Anna
roll 4 6 --player Bruno
card probabilita 5
roll 1 3 --player Anna
roll 1 2 --player Bruno
roll 3 4 --player Anna
"""


def banco(*args, code=0):
    import os

    done = subprocess.run([str(BANCO), *map(str, args)], capture_output=True, text=True,
                          env={**os.environ, **ENV}, timeout=300)
    assert done.returncode == code, (args, done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    return done


@pytest.mark.skipif(not BANCO.exists(), reason="banco is not installed in this venv")
def test_issue_32_the_prisoner_with_41_m_goes_bankrupt_and_draws_no_card(tmp_path):
    rules = tmp_path / "house.toml"
    rules.write_text('extends = "classic"\ndeeds_dealt = 1\nstarting_cash = 100\n')
    lines = tmp_path / "t.banco"
    lines.write_text(ISSUE_32)
    db = str(tmp_path / "t.db")
    banco("--db", db, "new", "Anna", "Bruno", "--rules", rules)
    out = banco("--db", db, "run", lines).stdout
    assert "Anna moves to" not in out.split("roll 3 4 --player Anna")[-1]
    refused = banco("--db", db, "card", "probabilita", "5", code=1)
    assert "`bankrupt Anna`" in refused.stdout + refused.stderr
    out = banco("--db", db, "bankrupt", "Anna").stdout
    assert "game over: Bruno wins" in out
    assert "commands re-derived" in banco("--db", db, "audit").stdout


OLD = Path(__file__).parent / "data" / "old-jail-fine.jsonl"


def test_a_game_recorded_in_the_old_order_imports_audited(tmp_path):
    """tests/data/old-jail-fine.jsonl: the transcript above recorded by banco before issue 32
    (Anna moved with the fine a debt, drew Probabilità 15, 200 M, and then paid it).  Its
    GameStarted has no fine_before_move: the audit re-derives it in the order it was played."""
    import json

    from click.testing import CliRunner

    from banco.cli.main import cli

    db = str(tmp_path / "old.db")
    result = CliRunner().invoke(cli, ["--db", db, "import", str(OLD)])
    assert result.exit_code == 0, result.output
    assert "63 events, chain intact, audit passed" in result.output
    log = json.loads(CliRunner().invoke(cli, ["--db", db, "log", "--json"]).output)
    assert "fine_before_move" not in log[1]["data"]["rules"]
    assert [e["type"] for e in log[48:53]] == [
        "JailRollFailed", "DebtIncurred", "LeftJail", "TokenMoved", "CardDrawRequired"]


@pytest.mark.skipif(not BANCO.exists(), reason="banco is not installed in this venv")
def test_raised_and_paid_the_token_moves_and_the_ruling_says_so(tmp_path):
    """Anna keeps Vicolo Corto (no trade): 40 M at the last try, a debt of 50 M; she mortgages
    it (30 M), `pay Anna` settles the fine, and only then she leaves jail and moves 7."""
    rules = tmp_path / "house.toml"
    rules.write_text('extends = "classic"\ndeeds_dealt = 1\nstarting_cash = 100\n')
    lines = tmp_path / "t.banco"
    lines.write_text("".join(x + "\n" for x in ISSUE_32.splitlines() if not x.startswith("trade")))
    db = str(tmp_path / "t.db")
    banco("--db", db, "new", "Anna", "Bruno", "--rules", rules)
    banco("--db", db, "run", "-q", lines)
    banco("--db", db, "mortgage", "vicolo corto")
    out = banco("--db", db, "pay", "Anna").stdout
    assert out.index("leaves jail") < out.index("Anna moves to Probabilità (17)")
    ruling = banco("--db", db, "ruling", "jail", "47").stdout
    assert "pays the fine before moving by that roll (004 §Prigione" in ruling
    assert "left at event 54: fine after the last try (50 M at event 53)" in ruling
    banco("--db", db, "audit")
