"""The Speedy die of the championship rules (seed 000 §SVOLGIMENTO 2-3, 7-8, §SOCIETÀ, FAQ
34-42): what a roll's third die means, and the moves it leaves to the banker.

A rule set turns it on with `speedy_die = true`.  From a player's first pass of Via! the two
numbered dice and the Speedy die are thrown together (`roll D1 D2 S`):

- `1` `2` `3`: added to the move;
- `bus`: the table waits for `move N`, N one die or both (phase `move`, FAQ 38);
- `mr`: move by the numbered dice and do the square; then the table waits for `advance`
  (phase `advance`): to the next free property, else the nearest one where rent is owed, else
  nowhere (FAQ 39);
- three equal dice: the table waits for `go SPACE` (phase `go`), any space clockwise, and the
  turn ends there (FAQ 36-37), unless the triple is the third double: jail.

Before the first pass, in jail, and on a third double the Speedy die does not count (FAQ 34-35,
§SVOLGIMENTO 8); doubles are the numbered dice's (§SVOLGIMENTO 7).
"""

from __future__ import annotations

from banco.ledger.base.errors import RuleViolation, UsageError
from banco.ledger.base.text import Fact, Text, msg
from banco.ledger.board.rule_sets import shown
from banco.ledger.records import commands as c
from banco.ledger.records.reasons import reason
from banco.ledger.rules.decision import Tx, check_turn
from banco.ledger.rules.movement import continue_turn, land, move_token
from banco.ledger.rules.registry import handles
from banco.ledger.table.model import BANK, Player, State
from banco.ledger.table.speedy_die import (
    NUMBERS,
    R_BUS,
    R_SPEEDY,
    R_TRIPLE,
    choices_of,
    listing,
    mr_monopoly_target,
)
from banco.ledger.table.steps import debt_step, next_step

R_THREE_DICE = "000 §SVOLGIMENTO 3; 000 FAQ 34"
R_FIRST_LAP = "000 §SVOLGIMENTO 2; 000 FAQ 35"
R_JAIL_DICE = "000 FAQ 34"
R_JAIL_ENDS = "000 §SVOLGIMENTO 8"
R_MR = "000 §SVOLGIMENTO 3; 000 FAQ 39"
R_MR_ORDER = "000 FAQ 42"


def check_face(state: State, player: Player, face: str | None) -> None:
    """Refuse a roll with the wrong number of dice for the rule set and the player."""
    if face is None:
        if state.rules.speedy_die and player.passed_go and not player.in_jail:
            raise RuleViolation(
                "{player} has passed Via!: the two dice and the Speedy die are thrown together", rule=R_THREE_DICE,
                allowed=msg("`roll D1 D2 S` with S the Speedy die: 1 2 3 bus mr"),
                player=player.name)
        return
    from banco.ledger.records.events import SPEEDY_FACES

    if not state.rules.speedy_die and face not in SPEEDY_FACES and not face.isdigit():
        # `roll 1 2 buy`: no die of any kind (`roll 3 4 5` is a third die: the rule below)
        raise UsageError("`roll` takes two dice under the {rules} rules, not a third word "
                         "{face!r}: `roll D1 D2`, one command a line", rules=shown(state.rules),
                         face=face)
    if not state.rules.speedy_die:
        raise RuleViolation(
            "the {rules} rules roll two dice; a third die, the Speedy die, is the championship's ({R_SPEEDY})", rule="004 §Svolgimento del gioco",
            allowed=msg("`roll D1 D2`"),
            rules=shown(state.rules), R_SPEEDY=R_SPEEDY)
    if face not in SPEEDY_FACES:
        raise UsageError("the Speedy die shows 1, 2, 3, bus or mr, not {face!r}: roll D1 D2 S",
                         face=face)


def ignored_because(state: State, player: Player, face: str | None) -> dict | None:
    """Why a Speedy die thrown with the numbered dice does not count, or None if it does."""
    if face is None:
        return None
    if player.in_jail:
        return reason("speedy_in_jail", rule=R_JAIL_DICE)
    if not player.passed_go:
        return reason("speedy_before_go", player=player.name, rule=R_FIRST_LAP)
    return None


def is_triple(dice: tuple, face: str | None) -> bool:
    return face in NUMBERS and dice[0] == dice[1] == NUMBERS[face]


# --- the commands that answer the Speedy die -------------------------------------------------

def _need(state: State, player: str | None, action: Text, phase: str, refusal: str,
          rule: str) -> None:
    """The player's turn, and the phase his command answers."""
    check_turn(state, player, action)
    if state.turn.phase != phase:
        raise RuleViolation(refusal, rule=rule, allowed=next_step(state))


@handles(c.BusMove)
def bus_move(tx: Tx, cmd: c.BusMove) -> None:
    state = tx.state
    _need(state, cmd.player, msg("move"), "move",
          "no Bus move is waiting: `move N` follows a roll whose Speedy die shows the Bus", R_BUS)
    t = state.turn
    choices = choices_of(t)
    if cmd.spaces not in choices:
        raise RuleViolation(
            "the Bus moves {player} by one die or both: {listing}, not {spaces}", rule=R_BUS,
            allowed=listing([msg("`move {n}`", n=n) for n in choices]),
            player=t.player, listing=listing(choices), spaces=cmd.spaces)
    start = state.current.position
    to = (start + cmd.spaces) % 40
    tx.emit("SpeedyMoveChosen", player=t.player, move="bus", to=to, spaces=cmd.spaces,
            reason=reason("bus_both" if cmd.spaces == sum(t.dice[:2]) else "bus_one",
                          n=cmd.spaces, rule=R_BUS))
    land(tx, t.player, move_token(tx, t.player, to, cmd.spaces, "bus", salary=True))
    continue_turn(tx)


@handles(c.GoTo)
def go_to(tx: Tx, cmd: c.GoTo) -> None:
    state = tx.state
    _need(state, cmd.player, msg("go"), "go",
          "no triple is waiting: `go SPACE` follows three equal dice", R_TRIPLE)
    if not 0 <= cmd.position < 40:
        raise UsageError("the board's spaces are 0 to 39, not {position}",
                         position=cmd.position)
    name = state.turn.player
    start = state.current.position
    # Clockwise; the space he stands on is a whole round, and pays Via! (000 FAQ 37).
    spaces = (cmd.position - start) % 40 or 40
    tx.emit("SpeedyMoveChosen", player=name, move="triple", to=cmd.position, spaces=spaces,
            reason=reason("triple", rule=R_TRIPLE))
    land(tx, name, move_token(tx, name, cmd.position, spaces, "triple", salary=True))
    continue_turn(tx)  # the turn ends there, doubles or not (000 FAQ 36)


@handles(c.Advance)
def advance(tx: Tx, cmd: c.Advance) -> None:
    state = tx.state
    _need(state, cmd.player, msg("advance"), "advance",
          "no Mr Monopoly move is waiting: `advance` follows a roll whose Speedy die shows Mr "
          "Monopoly, once the first square is done", R_MR)
    name = state.turn.player
    for d in state.debts:
        if d.debtor == name:
            # Two squares, two moments: the first is settled before the second (000 FAQ 42).
            creditor = msg("the Bank") if d.creditor == BANK else d.creditor
            raise RuleViolation(
                "{name} owes {amount} to {creditor} ({reason}) from the first square: it is settled before Mr Monopoly's move", rule=R_MR_ORDER,
                allowed=debt_step(state, name),
                name=name, amount=state.edition.money(d.amount), creditor=creditor, reason=Fact(d.reason, edition=state.edition))
    start = state.current.position
    target, why = mr_monopoly_target(state, name)
    if target is None:
        tx.emit("SpeedyMoveChosen", player=name, move="mr_monopoly", to=start, spaces=0,
                reason=why)
        continue_turn(tx)
        return
    spaces = (target - start) % 40
    tx.emit("SpeedyMoveChosen", player=name, move="mr_monopoly", to=target, spaces=spaces,
            reason=why)
    # Forward, so passing Via! pays as any move forward does (000 FAQ 13; twice in one turn is
    # allowed, §PASSARE DUE VOLTE DAL VIA).
    land(tx, name, move_token(tx, name, target, spaces, "mr_monopoly", salary=True))
    continue_turn(tx)
