"""The audit's amount rules for buildings: built, sold, sold or built a group at a time,
hotels broken up.
"""

from __future__ import annotations

from banco.ledger.base.text import msg
from banco.ledger.table.state import BANK, State
from banco.projections.audit.amount_basis import expect, owner_problems, sale_value, sides, units

_HALF_PRICE = msg("half their price")
_GROUP_BUILDINGS = msg("the group's buildings")
_BUILDINGS = msg("the buildings")
_HALF_VALUE = msg("half value (000 FAQ 29)")


def built(t: State, d: dict, prev) -> list[str]:
    space = t.edition.space(d["property"])

    def what():
        if d["level"] == 5:
            return msg("a hotel on {space}", space=space.name)
        return msg("a house on {space}", space=space.name)
    out = owner_problems(t, d, what) + sides(d, d["player"], BANK, what)
    a = t.auction
    if a is not None and a.kind in ("house", "hotel"):
        if d["player"] != a.high_bidder:
            out.append(msg("{what} goes to {player} but {bidder} bid highest", what=what(),
                           player=d["player"], bidder=a.high_bidder))
        return out + expect(t, what, d["amount"], a.high_bid,
                            lambda: msg("the building auction's highest bid"))
    return out + expect(t, what, d["amount"], space.house_cost,
                        lambda: msg("the deed's building price"))


def building_sold(t: State, d: dict, prev) -> list[str]:
    space = t.edition.space(d["property"])
    before = t.buildings[d["property"]]
    sold = sale_value(space, t.rules, before) - sale_value(space, t.rules, d["level"])

    def what():
        return msg("buildings sold on {space}", space=space.name)
    return (owner_problems(t, d, what) + sides(d, BANK, d["player"], what)
            + expect(t, what, d["amount"], sold, _HALF_PRICE))


def group_sold(t: State, d: dict, prev) -> list[str]:
    """A group's buildings sold at once: all of them, or down to the levels in `lots`; half
    their price, a hotel broken up paying half value for the houses it does not get back."""
    what = _GROUP_BUILDINGS
    out = sides(d, BANK, d["player"], what)
    levels = {lot["property"]: lot["level"] for lot in d.get("lots", ())}
    total = 0
    for pos in d["properties"]:
        space = t.edition.space(pos)
        if t.owners[pos] != d["player"]:
            out.append(msg("buildings on {space} sold by {player}, who does not own it",
                           space=space.name, player=d["player"]))
        total += (sale_value(space, t.rules, t.buildings[pos])
                  - sale_value(space, t.rules, levels.get(pos, 0)))
    return out + expect(t, what, d["amount"], total, _HALF_PRICE)


def group_built(t: State, d: dict, prev) -> list[str]:
    """Buildings put up evenly across lots in one fact: each new house (or hotel) at the
    deed's building price."""
    what = _BUILDINGS
    out = sides(d, d["player"], BANK, what)
    total = 0
    for lot in d["lots"]:
        pos = lot["property"]
        space = t.edition.space(pos)
        if t.owners[pos] != d["player"]:
            out.append(msg("buildings on {space} put up by {player}, who does not own it",
                           space=space.name, player=d["player"]))
        # a street has a building cost: a None is the TypeError the pure module raises too
        total += ((units(t.rules, lot["level"]) - units(t.rules, t.buildings[pos]))  # type: ignore[operator]
                  * space.house_cost)
    return out + expect(t, what, d["amount"], total, lambda: msg("the deeds' building prices"))


def broken_up(t: State, d: dict, prev) -> list[str]:
    out: list[str] = []
    if len(d["lots"]) != len(d["transfers"]):
        out.append(msg("{lots} hotels broken up but {payments} payments", lots=len(d["lots"]),
                       payments=len(d["transfers"])))
    for lot, tr in zip(d["lots"], d["transfers"], strict=False):
        space = t.edition.space(lot["property"])
        owner = t.owners[lot["property"]]
        def what(space=space):
            return msg("the hotel broken up on {space}", space=space.name)
        if t.buildings[lot["property"]] != 5:
            out.append(msg("{space} has no hotel to break up", space=space.name))
        out += sides(tr, BANK, owner or BANK, what)
        # 000 FAQ 29: half value for the hotel and for every house not received in its place.
        out += expect(t, what, tr["amount"], sale_value(space, t.rules, 5)
                      - sale_value(space, t.rules, lot["level"]),
                      _HALF_VALUE)
    return out
