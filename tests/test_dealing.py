"""Deeds dealt by lot and paid at once before the first roll (002 §Preparazione; 004 short and
timed games), through decide and evolve."""

import pytest
from helpers import POS, new_table, play, types

from banco.ledger.base.errors import RuleViolation
from banco.ledger.records import commands as c
from banco.ledger.rules.decide import decide
from banco.ledger.table.state import dealing_left, next_step
from banco.projections.audit.checks import table_problems


def deal(player, *names):
    return c.Deal(player, tuple(POS[n] for n in names))


def test_a_deal_is_paid_to_the_bank_at_the_deeds_prices():
    t = new_table(("Anna", "Bruno"), rules="short")
    t, events = play(t, deal("Anna", "Vicolo Corto", "Stazione Sud"))
    assert types(events) == ["DeedsDealt"]
    d = events[0]["data"]
    assert (d["payer"], d["payee"], d["amount"]) == ("Anna", "bank", 60 + 200)
    assert t.player("Anna").cash == 1500 - 260
    assert t.owners[POS["Vicolo Corto"]] == t.owners[POS["Stazione Sud"]] == "Anna"
    assert t.dealt == {"Anna": 2} and dealing_left(t) == [("Bruno", 2)]
    assert not table_problems(t)


def test_nothing_but_deal_until_every_player_has_his_deeds():
    t = new_table(("Anna", "Bruno"), rules="vintage")
    for cmd in (c.Roll((4, 5)), c.TimeUp("2026-01-01T20:00:00Z"), c.Mortgage(POS["Via Roma"])):
        with pytest.raises(RuleViolation, match=r"dealt and paid before the game begins "
                                                r"\(002 §Preparazione\)"):
            decide(t, cmd)
    t, _ = play(t, deal("Anna", "Vicolo Corto", "Vicolo Stretto", "Stazione Sud",
                        "Bastioni Gran Sasso", "Viale Monterosa", "Viale Vesuvio", "Via Accademia"))
    with pytest.raises(RuleViolation, match="still to deal: Bruno 7"):
        decide(t, c.Roll((4, 5)))
    assert next_step(t).startswith("deal the deeds before the first roll (still to deal: Bruno 7)")
    t, _ = play(t, deal("Bruno", "Corso Ateneo", "Piazza Università", "Via Verdi",
                        "Corso Raffaello", "Piazza Dante", "Via Marco Polo", "Via Roma"))
    assert dealing_left(t) == [] and next_step(t) == "Anna to `roll D1 D2`"
    t, events = play(t, c.Roll((4, 5)))
    assert "DiceRolled" in types(events)


@pytest.mark.parametrize("cmd,words", [
    (deal("Anna", "Vicolo Corto", "Vicolo Stretto", "Stazione Sud"), "2 more, not 3"),
    (deal("Anna", "Vicolo Corto", "Vicolo Corto"), "Vicolo Corto is named twice"),
    (deal("Anna", "Stazione Sud"), "Stazione Sud has already been dealt to Bruno"),
])
def test_a_deal_too_many_twice_or_already_dealt_is_refused(cmd, words):
    t = new_table(("Anna", "Bruno"), rules="short")
    t, _ = play(t, deal("Bruno", "Stazione Sud"))
    with pytest.raises(RuleViolation, match=rf"{words}.*\(004 §Regole del gioco breve\)"):
        decide(t, cmd)


def test_a_player_dealt_in_full_is_dealt_no_more():
    t = new_table(("Anna", "Bruno"), rules="timed")
    t, _ = play(t, deal("Anna", "Vicolo Corto"), deal("Anna", "Vicolo Stretto"))  # two lines
    with pytest.raises(RuleViolation, match=r"Anna has been dealt all 2 deeds \(004 §Gioco con "
                                            r"limite di tempo\)"):
        decide(t, deal("Anna", "Via Roma"))


def test_deeds_that_cost_more_than_the_cash_are_refused():
    from helpers import cash

    t = cash(new_table(("Anna", "Bruno"), rules="short"), "Anna", 500)
    with pytest.raises(RuleViolation, match="Anna has 500 M and the deeds cost 750 M"):
        decide(t, deal("Anna", "Parco della Vittoria", "Viale dei Giardini"))


def test_a_rule_set_that_deals_nothing_refuses_deal():
    t = new_table(("Anna", "Bruno"))
    with pytest.raises(RuleViolation, match=r"the classic rules deal no deeds.*004 §Acquisto"):
        decide(t, deal("Anna", "Vicolo Corto"))
    assert dealing_left(t) == []
