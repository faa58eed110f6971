"""The count at the end of a game, the places it gives, and the championship's points.

Every rulebook that ends a game before one player is left counts the same way: cash, each
deed at its price (half if mortgaged), each house at its cost and each hotel at its cost with
the houses it replaced (002 §Conclusione del gioco; 004 short game 1-5, timed game; 000
§PUNTEGGIO).  The 2015 championship's score sheet has a box per property for "unbuilt",
"houses", "hotel" and "mortgaged" (000 §PUNTEGGIO 1); its printed figures were not found, so
banco fills the boxes by that same count: price, price + houses at cost, price + hotel and its
four houses at cost, half the price.  Pure functions over the table.
"""

from __future__ import annotations

from typing import NamedTuple

from banco.ledger.table.model import State
from banco.ledger.table.worth import deeds_of, net_worth


class Place(NamedTuple):
    place: int  # 1 for the first; players tied on everything share a place
    name: str
    count: int  # cash + property, as above
    tie_break: int  # what breaks a tie of the count (000: unmortgaged property), else 0


def property_value(state: State, pos: int) -> int:
    """One deed's box on the sheet: price (half mortgaged) + its buildings at cost."""
    space = state.edition.space(pos)
    value = space.price // 2 if pos in state.mortgaged else space.price
    level = state.buildings[pos]
    houses = state.rules.houses_for_hotel + 1 if level == 5 else level
    return value + houses * (space.house_cost or 0)


def unmortgaged_value(state: State, name: str) -> int:
    """000 §PUNTEGGIO 3: "vince il giocatore che possiede il valore di proprietà non ipotecato
    più alto": the sheet's value of his unmortgaged deeds (buildings included)."""
    return sum(property_value(state, p) for p in deeds_of(state, name) if p not in state.mortgaged)


def _tie_break(state: State, name: str) -> int:
    if state.rules.tie_break == "unmortgaged_property":
        return unmortgaged_value(state, name)
    return 0


def places(state: State) -> list[Place]:
    """The players still in, best first: by the count, then the rule set's tie-break; players
    equal on both share a place (listed by name)."""
    keyed = sorted(((net_worth(state, p.name), _tie_break(state, p.name), p.name)
                    for p in state.players if not p.bankrupt),
                   key=lambda k: (-k[0], -k[1], k[2]))
    out: list[Place] = []
    for i, (count, tie, name) in enumerate(keyed):
        same = out and (out[-1].count, out[-1].tie_break) == (count, tie)
        out.append(Place(out[-1].place if same else i + 1, name, count, tie))
    return out


def winner(state: State) -> str | None:
    """The one player in first place, or None when first place is shared."""
    ranked = places(state)
    first = [p for p in ranked if p.place == 1]
    return first[0].name if len(first) == 1 else None


def points(state: State) -> dict[str, int] | None:
    """Tournament points once the game is over (000 §PUNTEGGIO, "Punti Classifica del
    torneo"): by place among the players left, the bankrupt none; None where the rule set
    gives no points or the game goes on.  Players sharing a place each get that place's
    points (the table does not say; a shared place is the better one for each)."""
    table = state.rules.tournament_points
    if not table or not state.ended:
        return None
    ranked = places(state)
    row = table.get(str(len(ranked)), [])
    out = {p.name: (row[p.place - 1] if p.place - 1 < len(row) else 0) for p in ranked}
    out.update({name: 0 for name in state.eliminated})
    return out
