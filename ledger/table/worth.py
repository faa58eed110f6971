"""What things are worth: mortgage interest, building sale values, what a debtor can still raise,
and a player's net worth.  Pure functions over the table; light enough for every read."""

from __future__ import annotations

from banco.ledger.table.model import State


def interest(state: State, mortgage: int) -> int:
    """The 10% on a mortgage, as a whole amount: the rule set says which way it rounds
    (classic: up, so 175 -> 18 and 75 -> 8)."""
    pct = state.rules.mortgage_interest_percent
    whole, rest = divmod(mortgage * pct, 100)
    if rest and state.rules.interest_rounding == "up":
        whole += 1
    return whole


def mortgage_of(state: State, position: int) -> int:
    """A deed's mortgage value.  Every deed has a price, so a mortgage: None (a square that is
    no deed) here is a bug upstream, not a table's state."""
    m = state.edition.space(position).mortgage
    assert m is not None, f"square {position} is no deed"
    return m


def price_of(state: State, position: int) -> int:
    """A deed's price (see mortgage_of)."""
    price = state.edition.space(position).price
    assert price is not None, f"square {position} is no deed"
    return price


def house_cost_of(state: State, position: int) -> int:
    """What a house costs on a street (see mortgage_of: only streets are built on)."""
    cost = state.edition.space(position).house_cost
    assert cost is not None, f"square {position} is no street"
    return cost


def lift_cost(state: State, position: int) -> int:
    m = mortgage_of(state, position)
    return m + interest(state, m)


def building_sale_value(state: State, position: int, level: int | None = None) -> int:
    """What the bank pays for all the buildings on a lot: half their cost (004 §Proprietà in
    vendita); a hotel counts as the hotel plus the houses it replaced."""
    level = state.buildings[position] if level is None else level
    cost = state.edition.space(position).house_cost or 0
    if level == 5:
        return (1 + state.rules.houses_for_hotel) * half_price(cost)
    return level * half_price(cost)


def half_price(cost: int) -> int:
    """What the Bank pays back for one building: half its price (004 §Proprietà in vendita),
    rounded down to the whole unit.  Per building, so that selling houses one at a time or a
    group's at once pays the same (a 125 € house: 62 each, 124 for two, never 125)."""
    return cost // 2


def deeds_of(state: State, name: str) -> list[int]:
    return [p for p, owner in enumerate(state.owners) if owner == name]


def raisable(state: State, name: str) -> int:
    """Cash plus what selling every building and mortgaging every deed would bring."""
    p = state.player(name)
    total = p.cash
    for pos in deeds_of(state, name):
        total += building_sale_value(state, pos)
        if pos not in state.mortgaged:
            total += mortgage_of(state, pos)
    return total


def net_worth(state: State, name: str) -> int:
    """Cash + deeds at price (mortgaged at half) + buildings at cost (004, short and timed game)."""
    p = state.player(name)
    total = p.cash
    for pos in deeds_of(state, name):
        space = state.edition.space(pos)
        price = price_of(state, pos)
        total += price // 2 if pos in state.mortgaged else price
        level = state.buildings[pos]
        houses = state.rules.houses_for_hotel + 1 if level == 5 else level
        total += houses * (space.house_cost or 0)
    return total
