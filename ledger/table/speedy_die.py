"""What the Speedy die of the championship rules (seed 000 §SVOLGIMENTO 2-3, §SOCIETÀ, FAQ 36-39)
means for the table: the value of a throw, the Bus's choices, Mr Monopoly's target, and what
the table waits for in the phases the die opens.  A read (`state`, the shell's prompt) needs
these; the commands that answer the die are ledger/rules/speedy.py's."""

from __future__ import annotations

from banco.ledger.base.text import Fact, Text, either, msg
from banco.ledger.records.reasons import reason
from banco.ledger.table.model import State

R_SPEEDY = "000 §SVOLGIMENTO 3"
R_TRIPLE = "000 §SVOLGIMENTO 3; 000 FAQ 36-37"
R_BUS = "000 FAQ 38"
NUMBERS = {"1": 1, "2": 2, "3": 3}


def face_value(face: str | None) -> int:
    """What a face adds to the move and to a utility's throw: its number; the Bus and Mr
    Monopoly count as zero (000 §SOCIETÀ)."""
    return NUMBERS.get(face, 0) if face is not None else 0


def throw_value(turn) -> int:
    """The throw a utility's rent multiplies: the numbered dice plus the Speedy die's number,
    the Bus and Mr Monopoly counting zero (000 §SOCIETÀ, "incluso il Dado Speedy"); after Mr
    Monopoly's move the same throw ("il valore dei dadi che avete lanciato immediatamente
    prima del movimento").  A Bus that moved by one die still multiplies the whole throw: the
    seed speaks of the throw, not of the die chosen."""
    return sum(turn.dice[:2]) + face_value(turn.speedy)


def bus_choices(dice: tuple) -> list[int]:
    """One die or both (000 FAQ 38): 5 and 6 give 5, 6 or 11; 3 and 3 give 3 or 6."""
    return sorted({dice[0], dice[1], dice[0] + dice[1]})


def choices_of(turn) -> list[int]:
    """The moves the Bus allows while the table waits for `move N` (phase `move`), else none."""
    return bus_choices(turn.dice) if turn.phase == "move" else []


def listing(values: list) -> Text:
    return either([v if isinstance(v, Text) else str(v) for v in values])


def mr_monopoly_target(state: State, name: str) -> tuple[int | None, dict]:
    """Where Mr Monopoly's second move goes, and why (000 §SVOLGIMENTO 3, FAQ 39): forward to
    the first property nobody owns; if none, to the nearest one where rent would be owed (not
    mortgaged, not the player's own); if none, nowhere."""
    space = state.edition.space
    start = state.player(name).position
    ahead = [p for p in ((start + k) % 40 for k in range(1, 40)) if space(p).is_property]
    for p in ahead:
        if state.owners[p] is None:
            return p, reason("mr_next_free", space=p, rule=R_SPEEDY)
    for p in ahead:
        owner = state.owners[p]
        if owner != name and p not in state.mortgaged:
            return p, reason("mr_nearest_rent", space=p, owner=owner)
    return None, reason("mr_stays")


def speedy_step(state: State) -> Text:
    """What the table waits for in the phases the Speedy die opens, in the banker's words."""
    t = state.turn
    if t.phase == "move":
        ways = listing([msg("`move {n}`", n=n) for n in choices_of(t)])
        return msg("{player} takes the Bus, by one die or both: {ways} ({rule})",
                   player=t.player, ways=ways, rule=R_BUS)
    if t.phase == "go":
        return msg("{player} threw a triple: `go SPACE` to any space, by name or number, "
                   "clockwise; passing or reaching Via! pays {salary} ({rule})", player=t.player,
                   salary=state.edition.money(state.rules.go_salary), rule=R_TRIPLE)
    _, why = mr_monopoly_target(state, t.player)
    return msg("{player}'s Mr Monopoly move: `advance` ({why}); trades and building may come "
               "first (000 FAQ 41)", player=t.player, why=Fact(why, edition=state.edition))
