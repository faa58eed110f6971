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

from typing import TYPE_CHECKING

from ledger.base.errors import RuleViolation, UsageError
from ledger.base.text import Fact, Text, either, msg
from ledger.table.state import BANK, Player, State, debt_step, next_step

if TYPE_CHECKING:  # a read (`state`, the shell's prompt) imports this module: keep it light
    from ledger.records import commands as c
    from ledger.rules.decision import Tx

R_SPEEDY = "000 §SVOLGIMENTO 3"
R_THREE_DICE = "000 §SVOLGIMENTO 3; 000 FAQ 34"
R_FIRST_LAP = "000 §SVOLGIMENTO 2; 000 FAQ 35"
R_JAIL_DICE = "000 FAQ 34"
R_JAIL_ENDS = "000 §SVOLGIMENTO 8"
R_TRIPLE = "000 §SVOLGIMENTO 3; 000 FAQ 36-37"
R_BUS = "000 FAQ 38"
R_MR = "000 §SVOLGIMENTO 3; 000 FAQ 39"
R_MR_ORDER = "000 FAQ 42"

NUMBERS = {"1": 1, "2": 2, "3": 3}


def face_value(face: str | None) -> int:
    """What a face adds to the move and to a utility's throw: its number; the Bus and Mr
    Monopoly count as zero (000 §SOCIETÀ)."""
    return NUMBERS.get(face, 0)


def throw_value(turn) -> int:
    """The throw a utility's rent multiplies: the numbered dice plus the Speedy die's number,
    the Bus and Mr Monopoly counting zero (000 §SOCIETÀ, "incluso il Dado Speedy"); after Mr
    Monopoly's move the same throw ("il valore dei dadi che avete lanciato immediatamente
    prima del movimento").  A Bus that moved by one die still multiplies the whole throw: the
    seed speaks of the throw, not of the die chosen."""
    return sum(turn.dice[:2]) + face_value(turn.speedy)


def check_face(state: State, player: Player, face: str | None) -> None:
    """Refuse a roll with the wrong number of dice for the rule set and the player."""
    if face is None:
        if state.rules.speedy_die and player.passed_go and not player.in_jail:
            raise RuleViolation(
                "{player} has passed Via!: the two dice and the Speedy die are thrown together", rule=R_THREE_DICE,
                allowed=msg("`roll D1 D2 S` with S the Speedy die: 1 2 3 bus mr"),
                player=player.name)
        return
    if not state.rules.speedy_die:
        raise RuleViolation(
            "the {rules} rules roll two dice; a third die, the Speedy die, is the championship's ({R_SPEEDY})", rule="004 §Svolgimento del gioco",
            allowed=msg("`roll D1 D2`"),
            rules=state.rules.name, R_SPEEDY=R_SPEEDY)
    from ledger.records.events import SPEEDY_FACES

    if face not in SPEEDY_FACES:
        raise UsageError("the Speedy die shows 1, 2, 3, bus or mr, not {face!r}: roll D1 D2 S",
                         face=face)


def ignored_because(state: State, player: Player, face: str | None) -> str | None:
    """Why a Speedy die thrown with the numbered dice does not count, or None if it does."""
    if face is None:
        return None
    if player.in_jail:
        return f"in jail only the numbered dice count ({R_JAIL_DICE})"
    if not player.passed_go:
        return f"{player.name} has not passed Via! yet ({R_FIRST_LAP})"
    return None


def is_triple(dice: tuple, face: str | None) -> bool:
    return face in NUMBERS and dice[0] == dice[1] == NUMBERS[face]


def bus_choices(dice: tuple) -> list[int]:
    """One die or both (000 FAQ 38): 5 and 6 give 5, 6 or 11; 3 and 3 give 3 or 6."""
    return sorted({dice[0], dice[1], dice[0] + dice[1]})


def choices_of(turn) -> list[int]:
    """The moves the Bus allows while the table waits for `move N` (phase `move`), else none."""
    return bus_choices(turn.dice) if turn.phase == "move" else []


def _listing(values: list) -> Text:
    return either([v if isinstance(v, Text) else str(v) for v in values])


def mr_monopoly_target(state: State, name: str) -> tuple[int | None, str]:
    """Where Mr Monopoly's second move goes, and why (000 §SVOLGIMENTO 3, FAQ 39): forward to
    the first property nobody owns; if none, to the nearest one where rent would be owed (not
    mortgaged, not the player's own); if none, nowhere."""
    space = state.edition.space
    start = state.player(name).position
    ahead = [p for p in ((start + k) % 40 for k in range(1, 40)) if space(p).is_property]
    for p in ahead:
        if state.owners[p] is None:
            return p, f"to {space(p).name}, the next free property ({R_SPEEDY})"
    for p in ahead:
        owner = state.owners[p]
        if owner != name and p not in state.mortgaged:
            return p, (f"to {space(p).name}, {owner}'s: no property is free and it is the "
                       f"nearest where rent is owed (000 FAQ 39)")
    return None, ("no property is free and no rent is owed anywhere: the token stays "
                  "(000 FAQ 39)")


def speedy_step(state: State) -> Text:
    """What the table waits for in the phases the Speedy die opens, in the banker's words."""
    t = state.turn
    if t.phase == "move":
        ways = _listing([msg("`move {n}`", n=n) for n in choices_of(t)])
        return msg("{player} takes the Bus, by one die or both: {ways} ({rule})",
                   player=t.player, ways=ways, rule=R_BUS)
    if t.phase == "go":
        return msg("{player} threw a triple: `go SPACE` to any space, by name or number, "
                   "clockwise; passing or reaching Via! pays {salary} ({rule})", player=t.player,
                   salary=state.edition.money(state.rules.go_salary), rule=R_TRIPLE)
    _, why = mr_monopoly_target(state, t.player)
    return msg("{player}'s Mr Monopoly move: `advance` ({why}); trades and building may come "
               "first (000 FAQ 41)", player=t.player, why=Fact(why))


# --- the commands that answer the Speedy die -------------------------------------------------

def _need(state: State, phase: str, refusal: str, rule: str) -> None:
    if state.turn.phase != phase:
        raise RuleViolation(refusal, rule=rule, allowed=next_step(state))


def bus_move(tx: Tx, cmd: c.BusMove) -> None:
    from ledger.rules.decide import _continue, _land, _move
    from ledger.rules.decision import check_turn

    state = tx.state
    check_turn(state, cmd.player, msg("move"))
    _need(state, "move", "no Bus move is waiting: `move N` follows a roll whose Speedy die "
          "shows the Bus", R_BUS)
    t = state.turn
    choices = choices_of(t)
    if cmd.spaces not in choices:
        raise RuleViolation(
            "the Bus moves {player} by one die or both: {listing}, not {spaces}", rule=R_BUS,
            allowed=_listing([msg("`move {n}`", n=n) for n in choices]),
            player=t.player, listing=_listing(choices), spaces=cmd.spaces)
    which = "both dice" if cmd.spaces == sum(t.dice[:2]) else "one die"
    start = state.current.position
    to = (start + cmd.spaces) % 40
    tx.emit("SpeedyMoveChosen", player=t.player, move="bus", to=to, spaces=cmd.spaces,
            reason=f"the Bus: {cmd.spaces}, {which} ({R_BUS})")
    _land(tx, t.player, _move(tx, t.player, to, cmd.spaces, "bus", salary=True))
    _continue(tx)


def go_to(tx: Tx, cmd: c.GoTo) -> None:
    from ledger.rules.decide import _continue, _land, _move
    from ledger.rules.decision import check_turn

    state = tx.state
    check_turn(state, cmd.player, msg("go"))
    _need(state, "go", "no triple is waiting: `go SPACE` follows three equal dice",
          R_TRIPLE)
    if not 0 <= cmd.position < 40:
        raise UsageError("the board's spaces are 0 to 39, not {position}",
                         position=cmd.position)
    name = state.turn.player
    start = state.current.position
    # Clockwise; the space he stands on is a whole round, and pays Via! (000 FAQ 37).
    spaces = (cmd.position - start) % 40 or 40
    tx.emit("SpeedyMoveChosen", player=name, move="triple", to=cmd.position, spaces=spaces,
            reason=f"a triple: any space, clockwise ({R_TRIPLE})")
    _land(tx, name, _move(tx, name, cmd.position, spaces, "triple", salary=True))
    _continue(tx)  # the turn ends there, doubles or not (000 FAQ 36)


def advance(tx: Tx, cmd: c.Advance) -> None:
    from ledger.rules.decide import _continue, _land, _move
    from ledger.rules.decision import check_turn

    state = tx.state
    check_turn(state, cmd.player, msg("advance"))
    _need(state, "advance", "no Mr Monopoly move is waiting: `advance` follows a roll whose "
          "Speedy die shows Mr Monopoly, once the first square is done", R_MR)
    name = state.turn.player
    for d in state.debts:
        if d.debtor == name:
            # Two squares, two moments: the first is settled before the second (000 FAQ 42).
            creditor = msg("the Bank") if d.creditor == BANK else d.creditor
            raise RuleViolation(
                "{name} owes {amount} to {creditor} ({reason}) from the first square: it is settled before Mr Monopoly's move", rule=R_MR_ORDER,
                allowed=debt_step(state, name),
                name=name, amount=state.edition.money(d.amount), creditor=creditor, reason=Fact(d.reason))
    start = state.current.position
    target, why = mr_monopoly_target(state, name)
    if target is None:
        tx.emit("SpeedyMoveChosen", player=name, move="mr_monopoly", to=start, spaces=0,
                reason=why)
        _continue(tx)
        return
    spaces = (target - start) % 40
    tx.emit("SpeedyMoveChosen", player=name, move="mr_monopoly", to=target, spaces=spaces,
            reason=why)
    # Forward, so passing Via! pays as any move forward does (000 FAQ 13; twice in one turn is
    # allowed, §PASSARE DUE VOLTE DAL VIA).
    _land(tx, name, _move(tx, name, target, spaces, "mr_monopoly", salary=True))
    _continue(tx)
