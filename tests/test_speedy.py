"""The Speedy die (seed 000 §SVOLGIMENTO 2-3, 7-8, §SOCIETÀ, FAQ 34-42) through decide/evolve:
every branch of the roll, the Bus, Mr Monopoly and the triple, and every refusal on its
citation.  Board figures are the `it` edition's."""

import pytest
from helpers import (
    POS,
    Buy,
    Claim,
    Decline,
    Hammer,
    Mortgage,
    PayDebt,
    Roll,
    Trade,
    balanced,
    cash,
    mortgage,
    new_table,
    of_type,
    own,
    place,
    play,
    types,
)

from banco.ledger.base.errors import RuleViolation, UsageError
from banco.ledger.board.rule_sets import RuleSet, load_rules
from banco.ledger.records import commands as c
from banco.ledger.records.reasons import english
from banco.ledger.rules.decide import decide
from banco.ledger.table.speedy_die import choices_of, mr_monopoly_target, throw_value
from banco.ledger.table.state import evolve, fold, next_step

Move, Go, Advance = c.BusMove, c.GoTo, c.Advance
ALL = [s.name for s in new_table().edition.properties]


def champ(players=("Anna", "Bruno", "Carla", "Dario")):
    return new_table(players, rules="championship")


def lapped(t, name="Anna", at=0, **changes):
    """A player who has passed Via! once: from now on he throws the Speedy die too."""
    return place(t, name, at, passed_go=True, **changes)


def refused(t, cmd, match):
    """The command is refused on `match` (the rule cited) and decides nothing."""
    with pytest.raises(RuleViolation, match=match):
        decide(t, cmd)


# --- the rule set ---------------------------------------------------------------------------

def test_only_the_championship_has_the_speedy_die():
    assert load_rules("championship").speedy_die is True
    assert load_rules("classic").speedy_die is False and load_rules("quick").speedy_die is False
    # a game recorded before the parameter existed was played without the Speedy die
    old = {k: v for k, v in load_rules("classic").params().items() if k != "speedy_die"}
    assert RuleSet.from_params(old).speedy_die is False


def test_classic_refuses_a_third_die_naming_the_championship():
    t = lapped(new_table(), at=5)
    refused(t, Roll((3, 4), speedy="2"), r"championship's \(000 §SVOLGIMENTO 3; 004 §Svolgimento del gioco\)")
    refused(t, Roll((3, 4), speedy="bus"), r"roll two dice.*004 §Svolgimento del gioco")


def test_after_the_first_pass_the_three_dice_are_thrown_together():
    t = lapped(champ(), at=5)
    refused(t, Roll((3, 4)), r"thrown together \(000 §SVOLGIMENTO 3; 000 FAQ 34\)")
    with pytest.raises(UsageError, match="1, 2, 3, bus or mr"):
        decide(t, Roll((3, 4), speedy="6"))


# --- before the first pass of Via!, in jail: the Speedy die is ignored -----------------------

def test_before_the_first_pass_a_third_die_is_ignored_and_the_roll_says_why():
    t, ev = play(champ(), Roll((1, 2), speedy="3"))
    rolled = of_type(ev, "DiceRolled")[0]
    assert rolled["speedy"] == "3" and "000 FAQ 35" in english(rolled["speedy_ignored"])
    assert t.player("Anna").position == 3 and t.turn.speedy is None
    t, _ = play(champ(), Roll((1, 2)))  # two dice are right too
    assert t.player("Anna").position == 3


@pytest.mark.parametrize("face", ["bus", "mr", "2"])
def test_before_the_first_pass_no_bus_no_mr_monopoly_no_triple(face):
    t, ev = play(champ(), Roll((2, 2), speedy=face))  # 4: Tassa Patrimoniale, doubles
    assert "SpeedyMoveDue" not in types(ev)
    assert t.player("Anna").position == 4 and types(ev)[-1] == "ExtraRollDue"


def test_passing_via_once_brings_the_speedy_die_in():
    t = place(champ(), "Anna", 36)
    assert not t.player("Anna").passed_go
    t, ev = play(t, Roll((2, 3)), Buy())  # 36 + 5 = 41 -> Vicolo Corto, salary
    assert t.player("Anna").passed_go and of_type(ev, "SalaryPaid")[0]["amount"] == 200
    assert next_step(t) == "Bruno to `roll D1 D2`"  # he has not passed Via!
    t = t._replace(turn=t.turn._replace(player="Anna"))
    assert "Anna to `roll D1 D2 S`" in next_step(t)
    t = place(t, "Anna", 10, in_jail=True)
    assert "`roll D1 D2` to try for doubles" in next_step(t)


def test_in_jail_only_the_numbered_dice_count():
    t = lapped(champ(), at=10, in_jail=True)
    t, ev = play(t, Roll((1, 2), speedy="3"))
    rolled = of_type(ev, "DiceRolled")[0]
    assert "000 FAQ 34" in english(rolled["speedy_ignored"])
    assert types(ev)[-2:] == ["JailRollFailed", "TurnEnded"]
    assert t.player("Anna").position == 10
    # doubles free her and she moves by them alone: no Mr Monopoly (000 FAQ 34, 16)
    t = lapped(champ(), at=10, in_jail=True)
    t, ev = play(t, Roll((2, 2), speedy="mr"))
    assert t.player("Anna").position == 14 and "SpeedyMoveDue" not in types(ev)
    t, ev = play(t, Buy())
    assert types(ev)[-1] == "TurnEnded"
    # in jail two dice are the right throw
    t = lapped(champ(), at=10, in_jail=True)
    t, ev = play(t, Roll((1, 2)))
    assert "JailRollFailed" in types(ev)


def test_forced_out_after_the_third_try_moves_by_the_numbered_dice():
    t = lapped(champ(), at=10, in_jail=True, jail_turns=2)
    t, ev = play(t, Roll((1, 2), speedy="3"))  # fine, then 10 + 3 = 13
    assert of_type(ev, "FinePaid")[0]["amount"] == 50
    assert t.player("Anna").position == 13 and t.turn.phase == "buy"


# --- 1 2 3: added to the move -------------------------------------------------------------

def test_a_number_is_added_to_the_move_and_passes_via():
    t, ev = play(lapped(champ(), at=36), Roll((2, 3), speedy="3"))  # 36 + 8 = 44 -> 4
    assert t.player("Anna").position == 4
    assert of_type(ev, "TokenMoved")[0]["spaces"] == 8
    assert [e["amount"] for e in of_type(ev, "SalaryPaid")] == [200]
    assert of_type(ev, "TaxPaid")[0]["amount"] == 200
    assert balanced(t)


def test_doubles_are_the_numbered_dice_only():
    t, ev = play(lapped(champ(), at=0), Roll((3, 4), speedy="3"))
    assert of_type(ev, "DiceRolled")[0]["doubles"] is False and types(ev)[-1] != "ExtraRollDue"
    t, ev = play(lapped(champ(), at=0), Roll((2, 2), speedy="1"))  # 5, Stazione Sud
    assert of_type(ev, "DiceRolled")[0]["doubles"] is True
    t, ev = play(t, Buy())
    assert types(ev)[-1] == "ExtraRollDue" and t.turn.doubles == 1
    assert (t.turn.speedy, t.turn.dice) == (None, ())


def test_utility_rent_multiplies_the_throw_with_the_speedy_number():
    # 000 §SOCIETÀ: "incluso il Dado Speedy": 7 + 2 + 1 + 2 = 12, 4 x (2 + 1 + 2) = 20
    t = own(lapped(champ(), at=7), "Bruno", "Società Elettrica")
    t, ev = play(t, Roll((2, 1), speedy="2"))
    claim = of_type(ev, "RentClaimOpened")[0]
    assert claim["amount"] == 20 and claim["basis"] == {"code": "rent_utilities", "n": 1,
                                                        "factor": 4, "dice": 5}


def test_throw_value_counts_bus_and_mr_monopoly_as_zero():
    t = champ()
    for face, value in (("1", 8), ("3", 10), ("bus", 7), ("mr", 7), (None, 7)):
        assert throw_value(t.turn._replace(dice=(3, 4), speedy=face)) == value


# --- the Bus -------------------------------------------------------------------------------

def test_the_bus_waits_for_one_die_or_both():
    t, ev = play(lapped(champ(), at=1), Roll((5, 6), speedy="bus"))
    assert types(ev) == ["DiceRolled", "SpeedyMoveDue"]
    assert t.turn.phase == "move" and choices_of(t.turn) == [5, 6, 11]
    assert t.player("Anna").position == 1
    assert "`move 5`, `move 6` or `move 11`" in next_step(t)
    t2, ev = play(t, Move(6))  # 7 Imprevisti
    assert english(of_type(ev, "SpeedyMoveChosen")[0]["reason"]).startswith("the Bus: 6, one die")
    assert t2.player("Anna").position == 7 and t2.turn.phase == "card"
    t3, ev = play(t, Move(11))
    assert english(of_type(ev, "SpeedyMoveChosen")[0]["reason"]).startswith("the Bus: 11, both dice")
    assert of_type(ev, "TokenMoved")[0]["cause"] == "bus"


def test_the_bus_refuses_any_other_move_naming_the_choices():
    t, _ = play(lapped(champ(), at=1), Roll((5, 6), speedy="bus"))
    for n in (4, 12, 0, 1):
        refused(t, Move(n), rf"one die or both: 5, 6 or 11, not {n} \(000 FAQ 38\)")
    refused(t, Move(5, player="Bruno"), r"Anna's turn, not Bruno's")
    refused(t, Roll((1, 2), speedy="1"), "cannot roll now")
    refused(t, Go(3), r"no triple is waiting.*000 FAQ 36-37")
    refused(t, Advance(), r"no Mr Monopoly move is waiting.*000 §SVOLGIMENTO 3")


def test_move_without_a_bus_is_refused():
    refused(lapped(champ(), at=1), Move(5), r"no Bus move is waiting.*\(000 FAQ 38\)")
    refused(new_table(), Move(5), r"\(000 FAQ 38\)")


def test_a_bus_on_doubles_offers_two_moves_and_the_doubles_roll_again():
    t, ev = play(lapped(champ(), at=1), Roll((3, 3), speedy="bus"))
    assert choices_of(t.turn) == [3, 6]
    refused(t, Move(9), r"3 or 6, not 9")
    t, ev = play(t, Move(3))  # 1 + 3 = 4 Tassa Patrimoniale
    assert t.player("Anna").position == 4 and of_type(ev, "TaxPaid")[0]["amount"] == 200
    assert types(ev)[-1] == "ExtraRollDue" and t.turn.doubles == 1


def test_the_bus_passes_via_and_pays_the_salary():
    t, _ = play(lapped(champ(), at=35), Roll((4, 6), speedy="bus"))
    t, ev = play(t, Move(6))  # 35 + 6 = 41 -> 1 Vicolo Corto
    assert t.player("Anna").position == 1
    assert [e["reason"] for e in of_type(ev, "SalaryPaid")] == [{"code": "passed_go"}]


def test_a_bus_to_a_utility_by_one_die_pays_on_the_whole_throw():
    # 000 §SOCIETÀ: "il tiro di dado" with the Bus counting zero: 4 x (5 + 6) = 44 even when
    # the Bus took only the 5 (banco's reading: the seed speaks of the throw).
    t = own(lapped(champ(), at=7), "Bruno", "Società Elettrica")
    t, _ = play(t, Roll((5, 6), speedy="bus"))
    t, ev = play(t, Move(5))
    assert of_type(ev, "RentClaimOpened")[0]["amount"] == 44


# --- Mr Monopoly ---------------------------------------------------------------------------

def test_mr_monopoly_does_the_first_square_then_waits_for_advance():
    t, ev = play(lapped(champ(), at=1), Roll((3, 4), speedy="mr"))  # 8 Viale Monterosa
    assert types(ev)[-1] == "PurchaseOffered" and t.turn.phase == "buy"
    t, ev = play(t, Buy())
    assert types(ev)[-1] == "SpeedyMoveDue" and t.turn.phase == "advance"
    assert "`advance` (to Viale Vesuvio, the next free property" in next_step(t)
    t, ev = play(t, Advance())
    assert t.player("Anna").position == 9 and t.turn.phase == "buy"
    assert of_type(ev, "TokenMoved")[0]["cause"] == "mr_monopoly"
    t, ev = play(t, Decline(), c.Bid("Carla", 5), Hammer())
    assert types(ev)[-1] == "TurnEnded" and t.turn.player == "Bruno"  # the second move ends it
    assert t.owners[9] == "Carla"


def test_mr_monopoly_after_an_auction_of_the_first_square():
    t, _ = play(lapped(champ(), at=1), Roll((3, 4), speedy="mr"), Decline(),
                c.Bid("Dario", 40), Hammer())
    assert t.owners[8] == "Dario" and t.turn.phase == "advance"
    t, _ = play(t, Advance())
    assert t.player("Anna").position == 9


def test_mr_monopoly_skips_owned_properties_and_passes_via_for_the_salary():
    # Anna at 35 rolls 1 2 mr -> 38 Tassa di Lusso (100); every property from 39 to the
    # first free one, Vicolo Corto, is taken: she passes Via! on the way (000 FAQ 13).
    t = own(lapped(champ(), at=35), "Bruno", "Parco della Vittoria")
    t, ev = play(t, Roll((1, 2), speedy="mr"))
    assert of_type(ev, "TaxPaid")[0]["amount"] == 100 and t.turn.phase == "advance"
    t, ev = play(t, Advance())
    assert t.player("Anna").position == 1
    assert of_type(ev, "TokenMoved")[0] == {"player": "Anna", "from": 38, "to": 1, "spaces": 3,
                                            "cause": "mr_monopoly", "passed_go": True}
    assert of_type(ev, "SalaryPaid")[0]["amount"] == 200
    assert t.player("Anna").cash == 1500 - 100 + 200 and balanced(t)


def full(t, owner="Bruno", but=()):
    """Every property owned: Anna's where named in `but`, else `owner`'s."""
    t = own(t, owner, *[n for n in ALL if n not in but])
    return own(t, "Anna", *but)


def test_with_nothing_free_mr_monopoly_goes_to_the_nearest_rent_and_skips_mortgages():
    # 000 FAQ 39: not the player's own, not mortgaged; the utility's rent is on the roll just
    # before the move (000 §SOCIETÀ NB): Anna at 1 rolls 3 4 mr -> 8, her own.
    t = full(lapped(champ(), at=1), but=("Viale Monterosa", "Viale Vesuvio"))
    t = mortgage(t, "Via Accademia")
    t, ev = play(t, Roll((3, 4), speedy="mr"))
    assert types(ev)[-1] == "SpeedyMoveDue"
    assert mr_monopoly_target(t, "Anna")[0] == POS["Società Elettrica"]
    t, ev = play(t, Advance())
    chosen = of_type(ev, "SpeedyMoveChosen")[0]
    assert chosen["to"] == 12 and "000 FAQ 39" in english(chosen["reason"])
    claim = of_type(ev, "RentClaimOpened")[0]
    assert (claim["owner"], claim["amount"]) == ("Bruno", 70)  # both utilities: 10 x 7
    assert types(ev)[-1] == "TurnEnded"


def test_mr_monopoly_stays_when_no_rent_is_owed_anywhere():
    t = full(lapped(champ(), at=1), but=("Viale Monterosa",))
    t = mortgage(t, *[n for n in ALL if n != "Viale Monterosa"])
    t, _ = play(t, Roll((3, 4), speedy="mr"))
    t, ev = play(t, Advance())
    assert types(ev) == ["SpeedyMoveChosen", "TurnEnded"]
    chosen = of_type(ev, "SpeedyMoveChosen")[0]
    assert (chosen["to"], chosen["spaces"]) == (8, 0) and "stays" in english(chosen["reason"])
    assert t.player("Anna").position == 8


def test_two_rents_in_one_turn_are_two_claims_paid_in_order():
    # 000 FAQ 42: Anna at 1 with 40 rolls 1 3 mr -> 5 Stazione Sud (Carla's, 25), then on to
    # Via Accademia (Bruno's whole pink group, 2 x 10 = 20).
    t = full(lapped(champ(), at=1), but=("Viale Monterosa", "Viale Vesuvio",
                                          "Bastioni Gran Sasso", "Vicolo Corto"))
    t = own(t, "Carla", "Stazione Sud")
    t = cash(t, "Anna", 40)
    t, _ = play(t, Roll((1, 3), speedy="mr"), Advance())
    assert [(cl.owner, cl.amount) for cl in t.claims] == [("Carla", 25), ("Bruno", 20)]
    t, ev = play(t, Claim("Carla"), Claim("Bruno"))
    assert t.player("Anna").cash == 15
    assert [(d.creditor, d.amount) for d in t.debts] == [("Bruno", 20)]
    t, _ = play(t, Mortgage(POS["Vicolo Corto"]), PayDebt())
    assert t.player("Anna").cash == 25 and t.player("Bruno").cash == 1520 and balanced(t)


def test_a_debt_of_the_first_square_is_settled_before_mr_monopoly_moves():
    # Anna at 1 with 180 rolls 1 2 mr -> 4 Tassa Patrimoniale, 200: a debt to the Bank.
    t = cash(own(lapped(champ(), at=1), "Anna", "Vicolo Corto"), "Anna", 180)
    t, _ = play(t, Roll((1, 2), speedy="mr"))
    assert t.turn.phase == "advance" and t.debts
    refused(t, Advance(), r"settled before Mr Monopoly's move \(000 FAQ 42\)")
    t, _ = play(t, Mortgage(POS["Vicolo Corto"]), PayDebt(), Advance())
    assert t.player("Anna").position == 5  # Stazione Sud, free
    assert t.player("Anna").cash == 180 + 30 - 200


def test_trades_and_mortgages_between_the_two_moves_change_where_mr_monopoly_goes():
    # 000 FAQ 41: Anna at 1 rolls 3 4 mr -> 8 Viale Monterosa, hers; nothing is free, and
    # the nearest rent is Bruno's Viale Vesuvio (9).  She buys it from him, and he mortgages
    # Via Accademia (11): Mr Monopoly then goes on to Società Elettrica (12).
    t = full(lapped(champ(), at=1), but=("Viale Monterosa",))
    t, _ = play(t, Roll((3, 4), speedy="mr"))
    assert mr_monopoly_target(t, "Anna")[0] == 9
    t, _ = play(t, Trade("Anna", "Bruno", c.Items(cash=10), c.Items((POS["Viale Vesuvio"],))),
                Mortgage(POS["Via Accademia"]))
    assert t.turn.phase == "advance"
    assert "`advance` (to Società Elettrica, Bruno's" in next_step(t)
    t, ev = play(t, Advance())
    assert t.player("Anna").position == 12 and of_type(ev, "RentClaimOpened")[0]["amount"] == 70


def test_jail_on_the_first_square_loses_mr_monopoly():
    # 000 §SVOLGIMENTO 8: Anna at 25 rolls 2 3 mr -> 30, straight to jail; the turn ends.
    t, ev = play(lapped(champ(), at=25), Roll((2, 3), speedy="mr"))
    assert types(ev)[-2:] == ["SentToJail", "TurnEnded"] and "SpeedyMoveDue" not in types(ev)
    refused(t, Advance(), r"no Mr Monopoly move is waiting.*000 §SVOLGIMENTO 3")


def test_mr_monopoly_on_doubles_then_rolls_again():
    t, _ = play(lapped(champ(), at=1), Roll((2, 2), speedy="mr"))  # 5 Stazione Sud
    t, ev = play(t, Buy())
    assert types(ev)[-1] == "SpeedyMoveDue"
    t, ev = play(t, Advance())  # 6 Bastioni Gran Sasso
    t, ev = play(t, Buy())
    assert types(ev)[-1] == "ExtraRollDue" and t.turn.phase == "roll" and t.turn.doubles == 1
    assert t.turn.speedy is None


def test_advance_is_refused_when_no_mr_monopoly_waits():
    refused(lapped(champ(), at=1), Advance(), r"no Mr Monopoly move is waiting")
    t, _ = play(lapped(champ(), at=1), Roll((3, 4), speedy="mr"))  # a purchase first
    refused(t, Advance(), r"no Mr Monopoly move.*once the first square is done")


# --- triples -------------------------------------------------------------------------------

@pytest.mark.parametrize("target, spaces, salary", [(3, 2, 0), (1, 40, 200), (0, 39, 200),
                                                    (39, 38, 0)])
def test_a_triple_goes_anywhere_clockwise_and_ends_the_turn(target, spaces, salary):
    t, ev = play(lapped(champ(), at=1), Roll((2, 2), speedy="2"))
    assert types(ev) == ["DiceRolled", "SpeedyMoveDue"] and t.turn.phase == "go"
    assert of_type(ev, "DiceRolled")[0]["extra_roll"] is False
    t, ev = play(t, Go(target))
    moved = of_type(ev, "TokenMoved")[0]
    assert (moved["to"], moved["spaces"], moved["cause"]) == (target, spaces, "triple")
    assert sum(e["amount"] for e in of_type(ev, "SalaryPaid")) == salary
    if t.turn.phase == "buy":
        t, ev = play(t, Buy())
    assert types(ev)[-1] == "TurnEnded" and t.turn.player == "Bruno"


def test_a_triple_to_go_to_jail_goes_to_jail():
    t, _ = play(lapped(champ(), at=1), Roll((1, 1), speedy="1"))
    t, ev = play(t, Go(30))
    assert t.player("Anna").in_jail and types(ev)[-1] == "TurnEnded"


def test_a_triple_after_two_doubles_is_the_third_double():
    t = lapped(champ(), at=1)
    t = t._replace(turn=t.turn._replace(doubles=2))
    t, ev = play(t, Roll((3, 3), speedy="3"))
    assert types(ev) == ["DiceRolled", "SentToJail", "TurnEnded"]
    assert "000 §SVOLGIMENTO 8" in english(of_type(ev, "DiceRolled")[0]["speedy_ignored"])
    refused(t, Go(20), r"no triple is waiting")


def test_a_triple_as_the_second_double_still_ends_the_turn():
    t = lapped(champ(), at=1)
    t = t._replace(turn=t.turn._replace(doubles=1))
    t, ev = play(t, Roll((1, 1), speedy="1"), Go(20))
    assert types(ev)[-1] == "TurnEnded"


def test_the_third_double_loses_the_bus_too():
    t = lapped(champ(), at=1)
    t = t._replace(turn=t.turn._replace(doubles=2))
    t, ev = play(t, Roll((4, 4), speedy="bus"))
    assert types(ev) == ["DiceRolled", "SentToJail", "TurnEnded"]


def test_go_refusals():
    refused(lapped(champ(), at=1), Go(3), r"no triple is waiting.*000 §SVOLGIMENTO 3")
    t, _ = play(lapped(champ(), at=1), Roll((2, 2), speedy="2"))
    refused(t, Go(3, player="Carla"), "Anna's turn, not Carla's")
    refused(t, Move(4), "no Bus move is waiting")
    with pytest.raises(UsageError, match="0 to 39"):
        decide(t, Go(40))


# --- the fold -------------------------------------------------------------------------------

def test_the_log_replays_to_the_live_table():
    from banco.ledger.rules.decide import start_game

    log = start_game(["Anna", "Bruno"], load_rules("championship"), "it")
    for i, e in enumerate(log, 1):
        e["seq"] = i
    t = fold(log, 1)
    script = [Roll((5, 6)), Buy(), Roll((2, 3)), Buy(), Roll((4, 6)), Buy(), Roll((3, 4)), Buy(),
              Roll((4, 6)), Buy(), Roll((3, 5)), Roll((4, 6)), Buy(), Roll((2, 3)), Buy(),
              Roll((2, 2), speedy="2"), Go(13), Buy(), Roll((1, 2)), Buy(),
              Roll((5, 6), speedy="bus"), Move(5), Buy(), Roll((1, 2)),
              Roll((3, 4), speedy="mr"), Advance(), Buy()]
    for cmd in script:
        for e in decide(t, cmd):
            e["seq"] = len(log) + 1
            t = evolve(t, e)
            log.append(e)
    assert fold(log, 1) == t and balanced(t)
    assert t.player("Anna").passed_go and not t.player("Bruno").passed_go


def test_a_bankruptcy_on_the_first_square_ends_the_turn_without_mr_monopoly():
    # Anna at 1 with 50 and nothing to sell rolls 1 2 mr -> 4 Tassa Patrimoniale, 200.
    t = cash(lapped(champ(), at=1), "Anna", 50)
    t, _ = play(t, Roll((1, 2), speedy="mr"))
    assert t.turn.phase == "advance" and t.debts
    t, ev = play(t, c.Bankrupt("Anna"))
    assert types(ev)[-1] == "TurnEnded" and t.turn.player == "Bruno"
    assert t.turn.phase == "roll" and t.player("Anna").bankrupt and balanced(t)


def test_a_cards_fresh_throw_for_a_utility_is_two_dice_even_with_the_speedy_die():
    # 004 §Fermati al campo delle imprese di servizi: the card's throw is the numbered dice.
    t = own(lapped(champ(), at=12), "Bruno", "Società Elettrica")
    t = t._replace(turn=t.turn._replace(phase="throw", card_throw=(10, 5)))
    refused(t, Roll((1, 2), speedy="1"), r"two dice, each 1 to 6, got 1 2 1")
    t, ev = play(t, Roll((1, 2)))
    assert of_type(ev, "RentClaimOpened")[0]["amount"] == 30
