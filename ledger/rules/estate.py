"""Rules for what players own: houses and hotels, mortgages, trades, debts and bankruptcy.

Classic rules (seed 004, 003 §05-§10), with the championship's precise answers (seed 000 FAQ
25-33) where the classic text is silent.
"""

from __future__ import annotations

from ledger.base.errors import RuleViolation
from ledger.base.text import Joined, Text, both, counted, either, msg, plural, word
from ledger.board.rule_sets import cited
from ledger.records import commands as c
from ledger.rules.decision import Tx, check_active, money, no_debts, pay
from ledger.table.state import BANK, State, debt_step, next_step, turn_in_progress
from ledger.table.worth import (
    building_sale_value,
    deeds_of,
    half_price,
    house_cost_of,
    interest,
    lift_cost,
    mortgage_of,
    raisable,
)

R_BUILD = "004 §A casa; 003 §05"
R_HOTEL = "004 §Alberghi; 003 §05"
R_SHORT = "004 §Mancanza di edifici; 000 FAQ 28-30"
R_SELL = "004 §Proprietà in vendita; 003 §07"
R_MORTGAGE = "004 §Impegno; 003 §07"
R_TRADE = "003 §06; 004 §Proprietà in vendita"
R_BANKRUPT = "003 §10; 004 §Fallimento"
R_FEE = "004 §Impegno; 000 FAQ 33"
R_GIFT = "003 §06; 004 §Note di gioco; 002 §Varie"
R_VINTAGE = "002 §Fallimento"
R_SHORT_GAME = "004 §Regole del gioco breve"


# --- helpers --------------------------------------------------------------------------------

def _name(state: State, pos: int) -> str:
    return state.edition.space(pos).name


def _group(state: State, pos: int) -> tuple[int, ...]:
    group = state.edition.space(pos).group
    assert group is not None  # asked of deeds, and every deed is in a group
    return state.edition.groups[group]


def _owner(state: State, pos: int, player: str | None, action: Text) -> str:
    space = state.edition.space(pos)
    owner = state.owners[pos]
    if owner is None:
        raise RuleViolation("{space} belongs to the Bank; nobody can {action} it",
                            allowed=msg("a deed's owner can {action} it", action=action),
                            space=space.name, action=action)
    if player is not None and player != owner:
        raise RuleViolation("{space} belongs to {owner}, not {player}",
                            allowed=msg("{owner} may {action} it", owner=owner, action=action),
                            space=space.name, owner=owner, player=player)
    return owner


def _levels_after(state: State, pos: int, level: int) -> list[int]:
    """The group's building levels if `pos` had `level`, a hotel counted as one level above
    the houses it needs (4 classic, 3 in the short game): 003 §05, even building, hotel last."""
    hotel = state.rules.houses_for_hotel + 1
    return [hotel if lv == 5 else lv
            for lv in (level if p == pos else state.buildings[p] for p in _group(state, pos))]


def _even(levels: list[int]) -> bool:
    return max(levels) - min(levels) <= 1


def buildable_lots(state: State, player: str, kind: str) -> list[int]:
    """Lots where `player` could legally put one more house (kind house) or a hotel."""
    hfh = state.rules.houses_for_hotel
    out = []
    for pos in deeds_of(state, player):
        space = state.edition.space(pos)
        if space.kind != "street":
            continue
        group = _group(state, pos)
        if any(state.owners[p] != player or p in state.mortgaged for p in group):
            continue
        level = state.buildings[pos]
        if kind == "house" and level < hfh and _even(_levels_after(state, pos, level + 1)):
            out.append(pos)
        if kind == "hotel" and level == hfh and _even(_levels_after(state, pos, 5)):
            out.append(pos)
    return out


# --- building -------------------------------------------------------------------------------

def _check_can_build(state: State, pos: int, owner: str) -> None:
    space = state.edition.space(pos)
    if space.kind != "street":
        raise RuleViolation("{space} is a {what}: only streets take houses", rule=R_BUILD,
                            space=space.name,
                            what='station' if space.kind == 'station' else 'utility')
    group = _group(state, pos)
    missing = [p for p in group if state.owners[p] != owner]
    if missing:
        raise RuleViolation(
            "{owner} does not own the whole group of {space}: {items} missing", rule=R_BUILD,
            allowed=msg("build only on a complete colour group"),
            owner=owner, space=space.name, items=', '.join(_name(state, p) for p in missing))
    mortgaged = [p for p in group if p in state.mortgaged]
    if mortgaged:
        raise RuleViolation(
            "{items} is mortgaged: no building on its group",
            rule=R_BUILD, allowed=msg("`unmortgage {name}` first", name=_name(state, mortgaged[0])),
            items=', '.join(_name(state, p) for p in mortgaged))


def _build_one(tx: Tx, pos: int, owner: str) -> None:
    state = tx.state
    space = state.edition.space(pos)
    hfh = state.rules.houses_for_hotel
    level = state.buildings[pos]
    cost = house_cost_of(state, pos)  # _check_can_build: a street
    cash = state.player(owner).cash
    if level == 5:
        raise RuleViolation("{space} already has a hotel: at most one, and no houses beside it",
                            rule=R_HOTEL,
                            space=space.name)
    hotel = level == hfh
    new = 5 if hotel else level + 1
    levels = _levels_after(state, pos, new)
    if not _even(levels):
        low = min(_group(state, pos), key=lambda p: state.buildings[p])
        raise RuleViolation(
            "uneven building: {space} would have {describe} while {name} has {describe2}", rule=R_BUILD,
            allowed=msg("build on {name} first", name=_name(state, low)),
            space=space.name, describe=_describe(new), name=_name(state, low),
            describe2=_describe(state.buildings[low]))
    if hotel and state.bank_hotels < 1:
        raise RuleViolation("the Bank has no hotels left: wait until one is sold back",
                            rule=R_SHORT)
    if not hotel and state.bank_houses < 1:
        raise RuleViolation("the Bank has no houses left: wait until some are sold back",
                            rule=R_SHORT)
    if cash < cost:
        raise RuleViolation("{owner} has {cash}; a {what} on {space} costs {cost}", rule=R_BUILD,
                            owner=owner, cash=money(state, cash),
                            what='hotel' if hotel else 'house', space=space.name,
                            cost=money(state, cost))
    if hotel:
        tx.emit("HotelBuilt", player=owner, property=pos, level=5, bank_houses=hfh,
                bank_hotels=-1, payer=owner, payee=BANK, amount=cost,
                reason=f"hotel on {space.name} ({hfh} houses back to the Bank)")
    else:
        tx.emit("HouseBuilt", player=owner, property=pos, level=new, bank_houses=-1,
                bank_hotels=0, payer=owner, payee=BANK, amount=cost,
                reason=f"house {new} on {space.name}")


def _describe(level: int) -> Text:
    return msg("a hotel") if level == 5 else plural("{n} house", "{n} houses", level)


def build(tx: Tx, cmd: c.Build) -> None:
    """Houses, then a hotel, on one lot.  When: at any time and in any number the cash and the
    Bank's stock allow, on anyone's turn, in jail too (004 §A casa of the Disney rules, "in
    qualsiasi momento e in qualsiasi quantità"; 003 §05; 000 §COSTRUIRE CASE).  The first
    copy of 004 §A casa says "only just before your turn, at most 3 a turn"; classic does not
    follow that lone sentence, which the same seed contradicts."""
    state = tx.state
    owner = _owner(state, cmd.property, cmd.player, word("owner's act", "build on"))
    check_active(state, owner, msg("build"))
    no_debts(state, msg("build"), owner)
    if state.auction and state.auction.kind != "deed":
        raise RuleViolation("a building auction is open: buildings go to the highest bidder",
                            rule=R_SHORT, allowed=next_step(state))
    if cmd.count < 1:
        # one building, tried on a copy: what would stop it says more than "at least one"
        _check_can_build(state, cmd.property, owner)
        _build_one(Tx(state), cmd.property, owner)
        raise RuleViolation("build at least one building",
                            allowed=msg("`build {space}`", space=_name(state, cmd.property)))
    _check_can_build(state, cmd.property, owner)
    for _ in range(cmd.count):
        _build_one(tx, cmd.property, owner)


def _effective(state: State, level: int) -> int:
    """A hotel is one level above the houses it needs (003 §05)."""
    return state.rules.houses_for_hotel + 1 if level == 5 else level


def _owner_of_all(state: State, lots, player: str | None, action: Text) -> str:
    owners = {_owner(state, pos, player, action) for pos in lots}
    if len(owners) > 1:
        raise RuleViolation("those deeds belong to {items}: one owner's buildings at a time", allowed=msg("`{split}` each owner's lots apart", split=action.split()[0]),
                            items=' and '.join(sorted(owners)))
    return owners.pop()


def _steps(tx: Tx, lots, target: int, step, pick_low: bool) -> Tx:
    """Single steps on a scratch copy of the table, lowest (or highest) lot first: every
    check of the one-building words applies at every step; the steps become one fact."""
    scratch = Tx(tx.state)
    while True:
        state = scratch.state
        todo = [p for p in lots if (state.buildings[p] < target if pick_low
                                    else state.buildings[p] > target)]
        if not todo:
            return scratch
        eff = {p: _effective(state, state.buildings[p]) for p in todo}
        pos = (min if pick_low else max)(todo, key=lambda p: (eff[p], p if pick_low else -p))
        step(scratch, pos)


def _collapse(tx: Tx, scratch: Tx, lots) -> tuple[list[dict], int, int, int]:
    before, after = tx.state, scratch.state
    changed = [{"property": p, "level": after.buildings[p]} for p in lots
               if after.buildings[p] != before.buildings[p]]
    amount = sum(e["data"]["amount"] for e in scratch.events)
    return (changed, after.bank_houses - before.bank_houses,
            after.bank_hotels - before.bank_hotels, amount)


def _changes_text(state: State, lots: list[dict]) -> str:
    return ", ".join(f"{_name(state, x['property'])} {_describe(state.buildings[x['property']])}"
                     f" -> {_describe(x['level'])}" for x in lots)


def build_to(tx: Tx, cmd: c.BuildTo) -> None:
    """Build evenly up to a level across lots of a group, as ONE fact (BuildingsBuilt): the
    lots, their new levels, the Bank's stock change and one payment.  2/1/1 to 4/4/4 is one
    line.  The houses go where even building puts them, one at a time (003 §05)."""
    state = tx.state
    lots = tuple(dict.fromkeys(cmd.properties))
    target, hfh = cmd.level, state.rules.houses_for_hotel
    if not (1 <= target <= hfh or target == 5):
        raise RuleViolation("build to 1-{hfh} houses or a hotel, not {target}", rule=R_BUILD,
                            hfh=hfh, target=target)
    owner = _owner_of_all(state, lots, cmd.player, word("owner's act", "build on"))
    check_active(state, owner, msg("build"))
    no_debts(state, msg("build"), owner)
    if state.auction and state.auction.kind != "deed":
        raise RuleViolation("a building auction is open: buildings go to the highest bidder",
                            rule=R_SHORT, allowed=next_step(state))
    for pos in lots:
        _check_can_build(state, pos, owner)
        if _effective(state, state.buildings[pos]) > _effective(state, target):
            raise RuleViolation(
                "{name} has {describe}, more than {describe2}", rule=R_BUILD,
                allowed=msg("`sell {name} --to {what}`", name=_name(state, pos), what='hotel' if target == 5 else target),
                name=_name(state, pos), describe=_describe(state.buildings[pos]),
                describe2=_describe(target))
    units = {p: _effective(state, target) - _effective(state, state.buildings[p]) for p in lots}
    if not any(units.values()):
        raise RuleViolation("nothing to build: {items} already at {describe}", rule=R_BUILD,
                            items=', '.join(_name(state, p) for p in lots),
                            describe=_describe(target))
    cost = sum(n * house_cost_of(state, p) for p, n in units.items())
    cash = state.player(owner).cash
    if cash < cost:
        raise RuleViolation("{owner} has {cash}; building to {describe} costs {cost}", rule=R_BUILD,
                            allowed=msg("raise {amount} more, or build less", amount=money(state, cost - cash)),
                            owner=owner, cash=money(state, cash), describe=_describe(target),
                            cost=money(state, cost))
    # The houses must all be in the Bank at once: a hotel needs its lot's houses first.
    houses = sum(max(0, min(target, hfh) - state.buildings[p]) for p in lots
                 if state.buildings[p] != 5)
    hotels = sum(1 for p in lots if target == 5 and state.buildings[p] != 5)
    if houses > state.bank_houses or hotels > state.bank_hotels:
        need = dict(describe=_describe(target), houses=counted("house", houses),
                    hotels=counted("hotel", hotels),
                    bank_houses=counted("house", state.bank_houses),
                    bank_hotels=counted("hotel", state.bank_hotels))
        raise RuleViolation(
            msg("building to {describe} needs {houses} and {hotels} from the Bank, which has "
                "{bank_houses} and {bank_hotels}", **need)
            if hotels else
            msg("building to {describe} needs {houses} from the Bank, which has {bank_houses} "
                "and {bank_hotels}", **need), rule=R_SHORT,
            allowed=msg("build less, or `auction-building house --wanted NAME=N ...` when "
                    "several players want the last ones"))
    scratch = _steps(tx, lots, target, lambda s, pos: _build_one(s, pos, owner), pick_low=True)
    changed, houses, hotels, amount = _collapse(tx, scratch, lots)
    tx.emit("BuildingsBuilt", player=owner, lots=changed, bank_houses=houses, bank_hotels=hotels,
            payer=owner, payee=BANK, amount=amount,
            reason=f"built evenly: {_changes_text(state, changed)}")


def sell_to(tx: Tx, cmd: c.SellTo) -> None:
    """Sell evenly down to a level across lots of a group, as ONE fact (BuildingsSold with
    the lots' new levels): half price, hotels broken up as the single words would (000 FAQ
    29 when houses are short)."""
    state = tx.state
    lots = tuple(dict.fromkeys(cmd.properties))
    target, hfh = cmd.level, state.rules.houses_for_hotel
    if not (0 <= target <= hfh):
        raise RuleViolation("sell down to 0-{hfh} houses, not {target}", rule=R_SELL,
                            hfh=hfh, target=target)
    owner = _owner_of_all(state, lots, cmd.player, word("owner's act", "sell buildings of"))
    for pos in lots:
        if _effective(state, state.buildings[pos]) < target:
            raise RuleViolation(
                "{name} has {describe}, fewer than {describe2}", rule=R_SELL,
                allowed=msg("`build {name} --to {target}`", name=_name(state, pos), target=target),
                name=_name(state, pos), describe=_describe(state.buildings[pos]),
                describe2=_describe(target))
    if all(state.buildings[p] == target for p in lots):
        raise RuleViolation("nothing to sell: {items} already at {describe}", rule=R_SELL,
                            items=', '.join(_name(state, p) for p in lots),
                            describe=_describe(target))
    group = _group(state, lots[0])
    if target == 0 and set(lots) >= {p for p in group if state.buildings[p]}:
        _sell_group(tx, group, owner)  # everything at once, even while houses are short
        return
    scratch = _steps(tx, lots, target, lambda s, pos: _sell_one(s, pos, owner), pick_low=False)
    changed, houses, hotels, amount = _collapse(tx, scratch, lots)
    tx.emit("BuildingsSold", player=owner, properties=[x["property"] for x in changed],
            lots=changed, bank_houses=houses, bank_hotels=hotels, payer=BANK, payee=owner,
            amount=amount, reason=f"sold evenly at half price: {_changes_text(state, changed)}")


def sell(tx: Tx, cmd: c.Sell) -> None:
    state = tx.state
    owner = _owner(state, cmd.property, cmd.player, word("owner's act", "sell buildings of"))
    group = _group(state, cmd.property)
    if cmd.whole_group:
        if not any(state.buildings[p] for p in group):
            raise RuleViolation("no buildings on the group of {name}",
                                rule=R_SELL,
                                name=_name(state, cmd.property))
        _sell_group(tx, group, owner)
        return
    if cmd.count < 1:
        raise RuleViolation("sell at least one building", allowed=_sellable(state, owner))
    for _ in range(cmd.count):
        _sell_one(tx, cmd.property, owner)


def _sell_group(tx: Tx, group, owner: str) -> None:
    """Every building of a group back to the Bank at half price, as one fact: sold lot by lot
    the group would be uneven in between (and a hotel may not break up when houses are short)."""
    state = tx.state
    built = [p for p in group if state.buildings[p]]
    hotels = sum(1 for p in built if state.buildings[p] == 5)
    houses = sum(state.buildings[p] for p in built if state.buildings[p] < 5)
    amount = sum(building_sale_value(state, p) for p in built)
    what = ", ".join(f"{_describe(state.buildings[p])} on {_name(state, p)}" for p in built)
    tx.emit("BuildingsSold", player=owner, properties=built, bank_houses=houses,
            bank_hotels=hotels, payer=BANK, payee=owner, amount=amount,
            reason=f"sold {what} at half price")


def _sell_one(tx: Tx, pos: int, owner: str) -> None:
    state = tx.state
    space = state.edition.space(pos)
    level = state.buildings[pos]
    half = half_price(space.house_cost) if space.house_cost else 0
    hfh = state.rules.houses_for_hotel
    if level == 0:
        raise RuleViolation("{space} has no buildings to sell", rule=R_SELL,
                            allowed=_sellable(state, owner), space=space.name)
    if level == 5:
        # One hotel at a time, back into houses (003 §07: selling is building in reverse).
        # 004 §Proprietà in vendita says the group's hotels "devono" (must) be sold together
        # in one copy and "possono" (may) in the other: classic takes "may" (`sell X all`).
        if state.auction and state.auction.kind == "house":
            raise RuleViolation("houses are being auctioned: builders come before a hotel "
                                "break-up", rule="000 FAQ 28", allowed=msg("wait for the hammer"))
        back = min(hfh, state.bank_houses)  # 000 FAQ 29: half value for houses not received
        new = back
        if not _even(_levels_after(state, pos, new)):
            raise RuleViolation(
                "the Bank has only {bank_houses}: breaking up the hotel on {space} would leave the group uneven", rule=R_SHORT,
                allowed=msg("`sell {space} all` sells every building of the group at once", space=space.name),
                bank_houses=counted("house", state.bank_houses), space=space.name)
        amount = half + (hfh - back) * half
        tx.emit("BuildingSold", player=owner, property=pos, level=new, bank_houses=-back,
                bank_hotels=1, payer=BANK, payee=owner, amount=amount,
                reason=f"hotel on {space.name} sold: {back} house(s) back on the lot"
                       + (f", {hfh - back} paid at half value" if back < hfh else ""))
        return
    new = level - 1
    if not _even(_levels_after(state, pos, new)):
        high = max(_group(state, pos), key=lambda p: state.buildings[p])
        raise RuleViolation(
            "uneven selling: {space} would have {describe} while {name} has {describe2}", rule=R_SELL,
            allowed=msg("sell on {name} first", name=_name(state, high)),
            space=space.name, describe=_describe(new), name=_name(state, high),
            describe2=_describe(state.buildings[high]))
    tx.emit("BuildingSold", player=owner, property=pos, level=new, bank_houses=1, bank_hotels=0,
            payer=BANK, payee=owner, amount=half,
            reason=f"sold a house on {space.name} at half price")


def break_up(tx: Tx, cmd: c.BreakUp) -> None:
    """Several hotels broken up at once while houses are short: the Bank's houses are shared
    equally, what cannot be shared stays with the Bank, and each owner is paid half value for
    the houses he did not receive (000 FAQ 29).  One fact, so no group is uneven in between."""
    state = tx.state
    lots = list(dict.fromkeys(cmd.properties))
    if len(lots) < 2:
        raise RuleViolation("a shared break-up is for two or more hotels", rule="000 FAQ 29",
                            allowed=msg("`sell PROPERTY` breaks up one hotel"))
    for pos in lots:
        if state.buildings[pos] != 5:
            raise RuleViolation("{name} has no hotel", rule="000 FAQ 29",
                                name=_name(state, pos))
    if state.auction and state.auction.kind == "house":
        raise RuleViolation("houses are being auctioned: builders come before a hotel break-up",
                            rule="000 FAQ 28", allowed=msg("wait for the hammer"))
    hfh = state.rules.houses_for_hotel
    each = min(hfh, state.bank_houses // len(lots))
    changed = {pos: each for pos in lots}
    for pos in lots:
        levels = [changed.get(p, state.buildings[p]) for p in _group(state, pos)]
        levels = [hfh + 1 if lv == 5 else lv for lv in levels]
        if not _even(levels):
            raise RuleViolation(
                "with {each} each, the group of {name} would be uneven",
                rule="000 FAQ 29; 003 §07",
                allowed=msg("`sell {name} all` sells every building of the group", name=_name(state, pos)),
                each=counted("house", each), name=_name(state, pos))
    transfers, broken = [], []
    for pos in lots:
        space = state.edition.space(pos)
        half = half_price(house_cost_of(state, pos))
        owner = state.owners[pos]
        amount = half + (hfh - each) * half
        broken.append({"property": pos, "player": owner, "level": each})
        transfers.append({"payer": BANK, "payee": owner, "amount": amount,
                          "reason": f"hotel on {space.name} broken up into {each} house(s)"
                                    + (f", {hfh - each} paid at half value" if each < hfh else "")})
    tx.emit("HotelsBrokenUp", lots=broken, bank_houses=-each * len(lots),
            bank_hotels=len(lots), transfers=transfers)


# --- mortgages ------------------------------------------------------------------------------

def mortgage(tx: Tx, cmd: c.Mortgage) -> None:
    state = tx.state
    pos = cmd.property
    owner = _owner(state, pos, cmd.player, word("owner's act", "mortgage"))
    space = state.edition.space(pos)
    if pos in state.mortgaged:
        raise RuleViolation("{space} is already mortgaged", rule=R_MORTGAGE,
                            space=space.name)
    built = [p for p in _group(state, pos) if state.buildings[p]] if space.kind == "street" else []
    if built:
        raise RuleViolation(
            "the group of {space} has buildings ({items})",
            rule=R_MORTGAGE, allowed=msg("sell them to the Bank first: `sell {space} all`", space=space.name),
            space=space.name, items=', '.join(_name(state, p) for p in built))
    tx.emit("PropertyMortgaged", player=owner, property=pos, payer=BANK, payee=owner,
            amount=space.mortgage, reason=f"mortgaged {space.name}")


def _sellable(state: State, owner: str) -> Text | str:
    """For a refused sale: the owner's lots a building can be sold from (each tried on a copy:
    selling evens down, 003 §07, and a hotel needs the houses it breaks into), or what the
    table waits for if none."""
    lots = []
    for p in range(len(state.buildings)):
        if state.buildings[p] and state.owners[p] == owner:
            try:
                _sell_one(Tx(state), p, owner)
            except RuleViolation:
                continue
            lots.append(p)
    if not lots:
        return next_step(state)
    return Joined([msg("`sell {space}`", space=_name(state, p)) for p in lots], ", ")


def _liftable(state: State, owner: str) -> Text | str:
    """For a refused unmortgage: the owner's mortgaged deeds the cash can free, or what the
    table waits for if none."""
    cash = state.player(owner).cash
    lots = [p for p in sorted(state.mortgaged) if state.owners[p] == owner
            and lift_cost(state, p) <= cash]
    if not lots:
        return next_step(state)
    return Joined([msg("`unmortgage {space}`", space=_name(state, p)) for p in lots], ", ")


def unmortgage(tx: Tx, cmd: c.Unmortgage) -> None:
    state = tx.state
    pos = cmd.property
    owner = _owner(state, pos, cmd.player, word("owner's act", "lift the mortgage on"))
    no_debts(state, msg("lift a mortgage"), owner)
    space = state.edition.space(pos)
    if pos not in state.mortgaged:
        raise RuleViolation("{space} is not mortgaged", rule=R_MORTGAGE,
                            allowed=_liftable(state, owner), space=space.name)
    cost = lift_cost(state, pos)
    cash = state.player(owner).cash
    if cash < cost:
        raise RuleViolation(
            "{owner} has {cash}; lifting the mortgage on {space} costs {cost} ({mortgage} + 10%)", rule=R_MORTGAGE,
            owner=owner, cash=money(state, cash), space=space.name, cost=money(state, cost),
            mortgage=space.mortgage)
    mortgage = mortgage_of(state, pos)
    tx.emit("MortgageLifted", player=owner, property=pos, payer=owner, payee=BANK, amount=cost,
            reason=f"lifted the mortgage on {space.name}: {mortgage} + "
                   f"{cost - mortgage} interest")


def receive_mortgaged(tx: Tx, receiver: str, deeds, lift=()) -> None:
    """A mortgaged deed that changes hands costs its receiver 10% at once, or the whole
    mortgage plus 10% if he frees it at once (004 §Impegno).  Short of cash: a debt to the
    Bank, which he must raise or go bankrupt for (000 FAQ 33)."""
    state = tx.state
    for pos in deeds:
        if pos not in state.mortgaged:
            continue
        space = state.edition.space(pos)
        if pos in lift:
            pay(tx, "MortgageLifted", receiver, BANK, lift_cost(state, pos),
                f"freed {space.name} on receiving it: {space.mortgage} + 10%",
                player=receiver, property=pos)
        else:
            pay(tx, "MortgageInterestPaid", receiver, BANK, interest(state, mortgage_of(state, pos)),
                f"10% on receiving the mortgaged {space.name}", player=receiver, property=pos)


# --- trades ---------------------------------------------------------------------------------

def _check_items(state: State, giver: str, items: c.Items) -> None:
    p = state.player(giver)
    for pos in items.properties:
        space = state.edition.space(pos)
        if state.owners[pos] != giver:
            owner = state.owners[pos]
            raise RuleViolation(msg("{giver} does not own {space} ({owner} does)", giver=giver,
                                    space=space.name, owner=owner) if owner else
                                msg("{giver} does not own {space}", giver=giver, space=space.name),
                                rule=R_TRADE, allowed=msg("only what the players hold now"))
        if space.kind == "street":
            built = [q for q in _group(state, pos) if state.buildings[q]]
            if built:
                raise RuleViolation(
                    "{space}'s group has buildings: sell them to the Bank before trading",
                    rule=R_TRADE, allowed=msg("`sell {space} all` first", space=space.name),
                    space=space.name)
    if items.cash < 0:
        raise RuleViolation("cash in a trade is a whole positive amount")
    if items.cash > p.cash:
        raise RuleViolation("{giver} has {cash}, not {cash2}: no loans, no promises", rule="003 §06",
                            giver=giver, cash=money(state, p.cash), cash2=items.cash)
    if items.jail_cards > len(p.jail_cards):
        # the count agreeing with its noun (italian2), and a trade that is allowed (cliwords)
        allowed = (plural("the trade with at most {n} `jail-card` from {giver}",
                          "the trade with at most {n} `jail-card` from {giver}",
                          len(p.jail_cards), giver=giver) if p.jail_cards
                   else msg("the trade without `jail-card` from {giver}", giver=giver))
        raise RuleViolation(plural("{giver} holds {n} get-out-of-jail card",
                                   "{giver} holds {n} get-out-of-jail cards", len(p.jail_cards),
                                   giver=giver), rule=R_TRADE, allowed=allowed)
    if len(set(items.properties)) != len(items.properties):
        raise RuleViolation("a deed is named twice in the trade")


def _gives(items: c.Items) -> bool:
    return bool(items.properties or items.cash or items.jail_cards)


def _check_gift(state: State, cmd: c.Trade) -> None:
    """No gifts and no loans (003 §06, 004 Note di gioco, 002 Varie): money that comes back
    later, or a deed for nothing, is a loan or a gift whatever the players call it."""
    if _gives(cmd.a_gives) and _gives(cmd.b_gives):
        return
    giver, taker = (cmd.a, cmd.b) if _gives(cmd.a_gives) else (cmd.b, cmd.a)
    items = cmd.a_gives if giver == cmd.a else cmd.b_gives
    what = [_name(state, p) for p in items.properties]
    if items.cash:
        what.append(money(state, items.cash))
    if items.jail_cards:
        what.append(f"{items.jail_cards} get-out-of-jail card(s)")
    word = "--get" if giver == cmd.a else "--give"
    raise RuleViolation(
        "{giver} would give {items} and {taker} nothing: players may not give or lend each other anything; a trade has something on both sides", rule=R_GIFT,
        allowed=msg("{taker} gives something back: `trade {a} {b} ... {word} ITEM`", taker=taker, a=cmd.a, b=cmd.b, word=word),
        giver=giver, items=', '.join(what), taker=taker)


def _check_when_and_who(state: State, cmd: c.Trade) -> None:
    """000 FAQ 31: no trades once two players are left in a preliminary game; FAQ 26: during a
    turn (000 FAQ 11: from the roll to the end of what the square asks) a trade must involve
    the active player; between turns anyone may trade."""
    rules = state.rules
    if not rules.trades_two_left and not state.final and len(state.active()) == 2:
        raise RuleViolation("only two players are left: in a preliminary game they trade no "
                            "more", rule="000 FAQ 31",
                            allowed=msg("trades with two players left are for a final or semi-final "
                                    "(`new ... --final`)"))
    active = state.turn.player
    if (rules.trades_in_turn == "active_player" and turn_in_progress(state)
            and active not in (cmd.a, cmd.b)):
        raise RuleViolation("{active}'s turn is in progress: a trade made now must involve {active}", rule="000 FAQ 26",
                            allowed=msg("a trade with {active}; {a} and {b} may agree it once {active}'s turn is over", active=active, a=cmd.a, b=cmd.b),
                            active=active)


def _check_jail_card_price(state: State, cmd: c.Trade) -> None:
    """000 FAQ 21: a get-out-of-jail card sells for at most 50 M.  Checked where the price is
    plain: a side that gives only jail cards, for cash.  (A card swapped for a deed, or sold
    together with deeds, has no price of its own to check.)"""
    cap = state.rules.jail_card_max_price
    if not cap:
        return
    for seller, sold, paid in ((cmd.a, cmd.a_gives, cmd.b_gives), (cmd.b, cmd.b_gives, cmd.a_gives)):
        if sold.jail_cards and not sold.properties and not sold.cash:
            most = cap * sold.jail_cards
            if paid.cash > most:
                raise RuleViolation(
                    plural("{seller} sells {n} get-out-of-jail card for {cash}: at most {cap} each",
                           "{seller} sells {n} get-out-of-jail cards for {cash}: at most {cap} each",
                           sold.jail_cards, seller=seller, cash=money(state, paid.cash),
                           cap=money(state, cap)),
                    rule="000 FAQ 21", allowed=msg("a price of {most} or less", most=money(state, most)))


def trade(tx: Tx, cmd: c.Trade) -> None:
    state = tx.state
    if cmd.a == cmd.b:
        raise RuleViolation("{a} cannot trade with themselves",
                            a=cmd.a)
    for n in (cmd.a, cmd.b):
        check_active(state, n, msg("trade"))
    if state.auction and state.auction.kind != "deed":
        raise RuleViolation("no trades during a building auction", rule="000 FAQ 25",
                            allowed=msg("after the hammer"))
    if not any((cmd.a_gives.properties, cmd.a_gives.cash, cmd.a_gives.jail_cards,
                cmd.b_gives.properties, cmd.b_gives.cash, cmd.b_gives.jail_cards)):
        raise RuleViolation("an empty trade records nothing",
                            allowed=msg("trade A B --give ITEM... --get ITEM..."))
    _check_when_and_who(state, cmd)  # whether any trade may be made now, before its items
    _check_items(state, cmd.a, cmd.a_gives)
    _check_items(state, cmd.b, cmd.b_gives)
    _check_gift(state, cmd)
    _check_jail_card_price(state, cmd)
    received = {cmd.b: cmd.a_gives.properties, cmd.a: cmd.b_gives.properties}
    every = set(cmd.a_gives.properties) | set(cmd.b_gives.properties)
    for pos in cmd.lift:
        if pos not in every or pos not in state.mortgaged:
            raise RuleViolation("--lift names {name}, which is not a mortgaged deed changing hands in this trade", rule=R_FEE,
                                name=_name(state, pos))
    # The receiver must be able to pay the fees with his cash after the trade.
    for receiver, deeds in received.items():
        other = cmd.b if receiver == cmd.a else cmd.a
        gives = cmd.a_gives if receiver == cmd.a else cmd.b_gives
        gets = cmd.b_gives if receiver == cmd.a else cmd.a_gives
        after = state.player(receiver).cash - gives.cash + gets.cash
        fees = sum(lift_cost(state, p) if p in cmd.lift else
                   interest(state, mortgage_of(state, p))
                   for p in deeds if p in state.mortgaged)
        if fees > after:
            raise RuleViolation(
                "{receiver} could not pay the {fees} due on the mortgaged deeds received from {other} ({after} after the trade)", rule=R_FEE,
                receiver=receiver, fees=money(state, fees), other=other, after=money(state, after))
    a_cards = [list(x) for x in state.player(cmd.a).jail_cards[:cmd.a_gives.jail_cards]]
    b_cards = [list(x) for x in state.player(cmd.b).jail_cards[:cmd.b_gives.jail_cards]]
    transfers = []
    if cmd.a_gives.cash:
        transfers.append({"payer": cmd.a, "payee": cmd.b, "amount": cmd.a_gives.cash,
                          "reason": f"trade with {cmd.b}"})
    if cmd.b_gives.cash:
        transfers.append({"payer": cmd.b, "payee": cmd.a, "amount": cmd.b_gives.cash,
                          "reason": f"trade with {cmd.a}"})
    tx.emit("TradeCompleted", a=cmd.a, b=cmd.b,
            a_gives={"properties": list(cmd.a_gives.properties), "cash": cmd.a_gives.cash,
                     "jail_cards": a_cards},
            b_gives={"properties": list(cmd.b_gives.properties), "cash": cmd.b_gives.cash,
                     "jail_cards": b_cards},
            transfers=transfers)
    receive_mortgaged(tx, cmd.b, cmd.a_gives.properties, cmd.lift)
    receive_mortgaged(tx, cmd.a, cmd.b_gives.properties, cmd.lift)


# --- bankruptcy -----------------------------------------------------------------------------

def _check_lift(state: State, debtor: str, creditor: str, lift) -> None:
    """The creditor of a bankrupt may free a mortgaged deed he receives at once, for the
    mortgage + 10% (004 §Fallimento, 003 §10), with the cash he has once the estate is his."""
    if not lift:
        return
    if creditor == BANK:
        raise RuleViolation("--lift is for a player who receives a bankrupt's deeds: the Bank "
                            "takes them back and cancels their mortgages", rule=R_BANKRUPT,
                            allowed=msg("`bankrupt {debtor}`", debtor=debtor))
    mortgaged = [p for p in deeds_of(state, debtor) if p in state.mortgaged]
    for pos in lift:
        if pos not in mortgaged:
            names = ", ".join(_name(state, p) for p in mortgaged) or "none"
            raise RuleViolation("--lift names {name}, which is not a mortgaged deed of {debtor}'s", rule=R_BANKRUPT,
                                allowed=msg("--lift among {debtor}'s mortgaged deeds: {names}", debtor=debtor, names=names),
                                name=_name(state, pos), debtor=debtor)
    if len(set(lift)) != len(lift):
        raise RuleViolation("--lift names a deed twice")
    # What the creditor will hold: his cash, the debtor's, and the debtor's buildings at half.
    cash = (state.player(creditor).cash + state.player(debtor).cash
            + sum(building_sale_value(state, p) for p in deeds_of(state, debtor)))
    due = sum(lift_cost(state, p) if p in lift else interest(state, mortgage_of(state, p))
              for p in mortgaged)
    if due > cash:
        raise RuleViolation(
            "{creditor} would have {cash} once {debtor}'s estate is his, and freeing {items} with 10% on the other mortgaged deeds costs {due}", rule=R_BANKRUPT,
            allowed=msg("lift fewer deeds: the others cost only their 10% now"),
            creditor=creditor, cash=money(state, cash), debtor=debtor,
            items=', '.join(_name(state, p) for p in lift), due=money(state, due))


def debts_or_next(state: State) -> Text | str:
    """For a command that needs a debt where there is none (`pay`, `bankrupt dario`): what
    each player in debt must do, or else what the table waits for."""
    debtors = sorted({d.debtor for d in state.debts})
    if debtors:
        return Joined([debt_step(state, d) for d in debtors])
    return next_step(state)


def bankrupt(tx: Tx, cmd: c.Bankrupt, after_auctions) -> None:
    state = tx.state
    debtors = sorted({d.debtor for d in state.debts})
    if cmd.debtor is None:
        if len(debtors) != 1:
            if not debtors:  # the next step, not `bankrupt X`, which would be refused too
                raise RuleViolation("nobody is in debt", allowed=next_step(state))
            raise RuleViolation("say who: {items} owe money", items=both(debtors),
                                allowed=either(["`bankrupt " + d + "`" for d in debtors]))
        name = debtors[0]
    else:
        name = cmd.debtor
    debts = [d for d in state.debts if d.debtor == name]
    if not debts:
        raise RuleViolation("{name} owes nothing: bankruptcy comes only from a debt that cannot be paid", rule=R_BANKRUPT,
                            allowed=debts_or_next(state), name=name)
    if state.auction:
        raise RuleViolation("an auction is open: the bankruptcy waits for the hammer",
                            allowed=next_step(state))
    owed = sum(d.amount for d in debts)
    can = raisable(state, name)
    if can >= owed:
        raise RuleViolation(
            "{name} owes {owed} and can pay it: {can} with the cash, the buildings sold and the deeds mortgaged", rule=R_BANKRUPT,
            allowed=debt_step(state, name),
            name=name, owed=money(state, owed), can=money(state, can))
    creditor = debts[0].creditor
    estate = state.rules.bankruptcy_estate
    # Who takes the estate: the creditor, or the Bank (always, in 002: it pays the creditors)
    receiver = BANK if estate == "bank_pays_creditors" else creditor
    _check_lift(state, name, receiver, cmd.lift)
    was_current = state.turn.player == name
    resume = "moving" if was_current else state.turn.phase
    with_buildings = estate == "all_to_creditor" and receiver != BANK
    if estate == "bank_pays_creditors":
        _return_buildings(tx, name)
    elif not with_buildings:
        # Buildings go back to the Bank at half price first (004 §Fallimento).
        # in board order: a set of names iterates in an order that changes from one process
        # to the next (PYTHONHASHSEED), and so did these sales' order in the log
        for group in dict.fromkeys(state.edition.space(p).group for p in deeds_of(state, name)):
            assert group is not None  # every deed is in a group
            lots = state.edition.groups[group]
            if any(tx.state.buildings[p] for p in lots):
                _sell_group(tx, lots, name)
    if state.rules.bankruptcy_start_of_turn and receiver != BANK:
        _as_when_the_turn_began(tx, name)
    state = tx.state
    deeds = deeds_of(state, name)
    player = state.player(name)
    extra = {"buildings": True} if with_buildings and any(state.buildings[p] for p in deeds) else {}
    tx.emit("EstateTransferred", debtor=name, creditor=receiver, properties=deeds,
            jail_cards=[list(x) for x in player.jail_cards], payer=name, payee=receiver,
            amount=player.cash,
            reason=f"bankruptcy of {name}: everything to "
                   + ("the Bank" if receiver == BANK else receiver)
                   + (f", buildings included ({cited(state.rules, 'estate', R_SHORT_GAME)})"
                      if extra else "")
                   + (f", which pays the creditors in full ({cited(state.rules, 'estate', R_VINTAGE)})"
                      if estate == "bank_pays_creditors" else ""),
            **extra)
    if estate == "bank_pays_creditors":
        for d in [d for d in tx.state.debts if d.debtor == name and d.creditor != BANK]:
            tx.emit("DebtPaidByBank", payer=BANK, payee=d.creditor, amount=d.amount,
                    debtor=name, debt_seq=d.seq,
                    reason=f"the Bank pays {name}'s debt in full ({d.reason}; 002 §Fallimento)")
    for claim in tx.state.claims:
        if name in (claim.payer, claim.owner):
            tx.emit("RentClaimLapsed", owner=claim.owner, payer=claim.payer,
                    property=claim.property, amount=claim.amount, opened_seq=claim.opened_seq,
                    closed_by="bankruptcy")
    for d in tx.state.debts:
        if d.creditor == name:  # nothing is owed to a player who is out of the game
            tx.emit("DebtCancelled", debtor=d.debtor, creditor=name, amount=d.amount,
                    reason=f"{name} went bankrupt", debt_seq=d.seq)
    tx.emit("BankruptcyDeclared", player=name, creditor=creditor,
            reason=f"owed {money(state, owed)}, could raise {money(state, can)}")
    last = len(tx.state.active()) == 1
    if receiver != BANK and (not last or state.rules.final_estate_interest):
        # The creditor "deve immediatamente pagare il 10% alla Banca" (004 §Fallimento, 003
        # §10), and cannot refuse the deeds (000 FAQ 33): at the bankruptcy that ends the game
        # too, whose final cash the count and the tie-breaks read (000 §PUNTEGGIO 3).  A game
        # recorded by an older banco, which skipped it there, replays as it was played.
        receive_mortgaged(tx, receiver, [p for p in deeds if p in state.mortgaged], cmd.lift)
    from ledger.rules.ending import maybe_end

    if last:
        _last_player_owes(tx, receiver)
        maybe_end(tx)  # at once, or once the last player has paid the Bank its 10%
        return
    if maybe_end(tx):  # the short game's second bankruptcy (004 short game 3)
        return
    if tx.state.auction_queue:
        first = tx.state.auction_queue[0]
        tx.emit("AuctionOpened", property=first, min_bid=state.rules.auction_min_bid,
                step=state.rules.auction_step, resume=resume)
        return
    if was_current:
        after_auctions(tx)


def _last_player_owes(tx: Tx, winner: str) -> None:
    """The last player left has won (003 §11; 002 §Fallimento: "Quando il penultimo giocatore
    è fallito, l'ultimo giocatore rimasto vince la partita"), and owes the Bank the 10% on the
    mortgaged deeds he received.  Short of cash, he raises it as any debtor does (003 §10) and
    the game ends when it is paid.  If even all he has cannot raise it, going bankrupt to the
    Bank (000 FAQ 33) would leave a game with no winner: the part he cannot pay is written off,
    recorded as such, and the game ends."""
    state = tx.state
    debts = [d for d in state.debts if d.debtor == winner]
    if not debts or raisable(state, winner) >= sum(d.amount for d in debts):
        return
    for d in debts:
        tx.emit("DebtCancelled", debtor=winner, creditor=d.creditor, amount=d.amount,
                reason=f"{winner} is the last player left and cannot raise it: the game is won "
                       f"(003 §11), no bankruptcy follows", debt_seq=d.seq)


def _return_buildings(tx: Tx, name: str) -> None:
    """002 §Fallimento: "tutto quanto egli possiede passa alla Banca": the buildings too,
    unpaid, and the land is auctioned without them."""
    state = tx.state
    built = [p for p in deeds_of(state, name) if state.buildings[p]]
    if not built:
        return
    hotels = sum(1 for p in built if state.buildings[p] == 5)
    houses = sum(state.buildings[p] for p in built if state.buildings[p] < 5)
    what = ", ".join(f"{_describe(state.buildings[p])} on {_name(state, p)}" for p in built)
    tx.emit("BuildingsReturned", player=name, properties=built, bank_houses=houses,
            bank_hotels=hotels, reason=f"{what}: back to the Bank with {name}'s estate "
                                       f"(002 §Fallimento)")


def _as_when_the_turn_began(tx: Tx, name: str) -> None:
    """000 FAQ 32: a player bankrupt to another during his turn hands over his deeds "nello
    stato in cui si trovavano all'inizio del tuo turno".  His turn began with his last roll and
    lasts until someone else rolls (FAQ 11: a doubles re-roll is a turn of its own).  A deed he
    mortgaged since then passes unmortgaged, and the money it brought goes back to the Bank
    (else the Bank's loan would vanish), as far as his cash reaches."""
    state = tx.state
    if not state.last_roll or state.last_roll[0] != name:
        return
    for pos in sorted(state.since_roll):
        state = tx.state
        if state.owners[pos] != name or pos not in state.mortgaged:
            continue
        space = state.edition.space(pos)
        mortgage = mortgage_of(state, pos)
        back = min(mortgage, state.player(name).cash)
        short = "" if back == mortgage else f"; {name} has only {money(state, back)} left"
        tx.emit("MortgageReverted", player=name, property=pos, payer=name, payee=BANK,
                amount=back,
                reason=f"{space.name} was mortgaged during {name}'s turn: it passes as it was "
                       f"when the turn began, and its {money(state, mortgage)} goes back "
                       f"to the Bank (000 FAQ 32){short}")
