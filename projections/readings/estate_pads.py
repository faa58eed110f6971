"""The banker's estate pads (`banco serve`): what each player could build, sell, mortgage, lift
and trade now, read from the table so that the page offers only what makes sense and never
works a rule out in JavaScript.  The rules still decide every line the page sends
(ledger/rules/buildings.py, mortgages.py, trade.py): this is the offer, not the verdict.

Pure and JSON-able; the levels are the rule set's (`houses_for_hotel`: 4 classic, 3 in the
short game), the money the edition's.  A level is said as the line says it: `3`, `hotel`, and
`all` for selling a group's every building.
"""

from __future__ import annotations

from banco.ledger.table.state import State
from banco.ledger.table.worth import deeds_of, house_cost_of, lift_cost, mortgage_of
from banco.projections.readings.report import GROUP_COLOURS

HOTEL = 5  # a lot's level with a hotel (ledger/table/state.py's buildings)


def estate(state: State) -> dict:
    """Each player in the game, with what the pads offer him: `build` and `sell` by colour
    group and level, the deeds he may `mortgage`, the mortgaged ones to `unmortgage`, and what
    a `trade` may take from him (deeds, jail cards, cash)."""
    return {"players": [player_pads(state, p.name) for p in state.players if not p.bankrupt]}


def player_pads(state: State, name: str) -> dict:
    debtor = any(d.debtor == name for d in state.debts)
    cash = state.player(name).cash
    money = state.edition.money
    deeds = deeds_of(state, name)
    free = [pos for pos in deeds if not built_group(state, pos)]
    return {
        "name": name,
        "build": [] if debtor else build_groups(state, name),
        "sell": sell_groups(state, name),
        "mortgage": [{"name": space_name(state, pos), "amount": mortgage_of(state, pos),
                      "amount_text": money(mortgage_of(state, pos))}
                     for pos in free if pos not in state.mortgaged],
        "unmortgage": [{"name": space_name(state, pos), "cost": lift_cost(state, pos),
                        "cost_text": money(lift_cost(state, pos)),
                        "affordable": not debtor and lift_cost(state, pos) <= cash}
                       for pos in deeds if pos in state.mortgaged],
        "trade": {"deeds": [{"name": space_name(state, pos), "mortgaged": pos in state.mortgaged}
                            for pos in free],
                  "jail_cards": len(state.player(name).jail_cards), "cash": cash},
    }


def space_name(state: State, pos: int) -> str:
    return state.edition.space(pos).name


def built_group(state: State, pos: int) -> bool:
    """Whether a deed's colour group has buildings (no mortgage, no trade then)."""
    space = state.edition.space(pos)
    if space.kind != "street" or space.group is None:
        return False
    return any(state.buildings[p] for p in state.edition.groups[space.group])


def effective(state: State, level: int) -> int:
    """A hotel is one level above the houses it needs (003 §05)."""
    return state.rules.houses_for_hotel + 1 if level == HOTEL else level


def level_word(level: int) -> str:
    return "hotel" if level == HOTEL else str(level)


def whole_groups(state: State, name: str):
    """The colour groups of streets `name` owns whole: (group, its lots)."""
    for group, lots in state.edition.groups.items():
        if all(state.edition.space(p).kind == "street" and state.edition.space(p).house_cost
               and state.owners[p] == name for p in lots):
            yield group, lots


def _group(state: State, group: str, lots) -> dict:
    return {"group": group, "colour": GROUP_COLOURS.get(min(lots), "#ccc"),
            "lots": [{"name": space_name(state, p), "level": state.buildings[p]} for p in lots]}


def build_groups(state: State, name: str) -> list[dict]:
    """The groups `name` may build on now (owned whole, none mortgaged, no building auction
    open), each with the levels `build GROUP N` could reach: above what every lot has, paid
    from his cash, the houses and hotels in the Bank."""
    if state.auction is not None and state.auction.kind != "deed":
        return []
    hfh = state.rules.houses_for_hotel
    cash = state.player(name).cash
    out = []
    for group, lots in whole_groups(state, name):
        if any(p in state.mortgaged for p in lots):
            continue
        levels = []
        for target in [*range(1, hfh + 1), HOTEL]:
            now = [state.buildings[p] for p in lots]
            if max(effective(state, lv) for lv in now) > effective(state, target) \
                    or all(lv == target for lv in now):
                continue
            cost = sum((effective(state, target) - effective(state, state.buildings[p]))
                       * house_cost_of(state, p) for p in lots)
            houses = sum(max(0, min(target, hfh) - lv) for lv in now if lv != HOTEL)
            hotels = sum(1 for lv in now if target == HOTEL and lv != HOTEL)
            if cost <= cash and houses <= state.bank_houses and hotels <= state.bank_hotels:
                levels.append({"level": level_word(target), "cost": cost,
                               "cost_text": state.edition.money(cost)})
        if levels:
            out.append({**_group(state, group, lots), "levels": levels})
    return out


def one_more(state: State, name: str) -> list[str]:
    """The streets `name` could put one more building on now (`build PROPERTY`): on a group he
    owns whole with none mortgaged, a lot at the group's lowest level (building evenly, 003
    §05), paid from his cash, the house or hotel in the Bank.  What the shell's Tab offers
    after `build` besides the groups: a house may fit where a whole level does not."""
    if state.auction is not None and state.auction.kind != "deed" or any(
            d.debtor == name for d in state.debts):
        return []
    hfh, cash, out = state.rules.houses_for_hotel, state.player(name).cash, []
    for _group_name, lots in whole_groups(state, name):
        if any(p in state.mortgaged for p in lots):
            continue
        lowest = min(effective(state, state.buildings[p]) for p in lots)
        for p in lots:
            level = state.buildings[p]
            if level == HOTEL or effective(state, level) != lowest \
                    or house_cost_of(state, p) > cash:
                continue
            if (state.bank_hotels if level == hfh else state.bank_houses) > 0:
                out.append(space_name(state, p))
    return out


def sell_groups(state: State, name: str) -> list[dict]:
    """The groups with `name`'s buildings, each with the levels `sell GROUP N` could go down
    to: at most what the lowest lot has (N is a level, "down to N each"), `all` for none."""
    hfh = state.rules.houses_for_hotel
    out = []
    for group, lots in whole_groups(state, name):
        now = [state.buildings[p] for p in lots]
        if not any(now):
            continue
        top = min(hfh, min(effective(state, lv) for lv in now))
        levels = [{"level": "all" if t == 0 else str(t)} for t in range(top, -1, -1)
                  if not all(lv == t for lv in now)]
        out.append({**_group(state, group, lots), "levels": levels})
    return out

