"""Houses and hotels: `build`, `build-to`, `sell`, `sell-to`, `break-up` (004 §A casa,
§Alberghi, §Proprietà in vendita; 003 §05, §07; 000 FAQ 25-30)."""

from __future__ import annotations

from banco.ledger.base.errors import RuleViolation
from banco.ledger.base.text import Fact, Joined, Text, both, counted, either, msg, word
from banco.ledger.board.rule_sets import cited
from banco.ledger.records import commands as c
from banco.ledger.records.reasons import reason
from banco.ledger.rules.decision import Tx, check_active, money, no_debts
from banco.ledger.rules.estate import (
    R_BUILD,
    R_HOTEL,
    R_SELL,
    R_SHORT,
    even,
    group_of,
    level_words,
    levels_after,
    name_of,
    owner_of,
)
from banco.ledger.rules.registry import handles
from banco.ledger.table.state import BANK, State, next_step
from banco.ledger.table.worth import building_sale_value, half_price, house_cost_of


def _check_can_build(state: State, pos: int, owner: str) -> None:
    space = state.edition.space(pos)
    if space.kind != "street":
        raise RuleViolation("{space} is a {what}: only streets take houses", rule=cited(state.rules, "build", R_BUILD),
                            space=space.name,
                            what='station' if space.kind == 'station' else 'utility')
    group = group_of(state, pos)
    missing = [p for p in group if state.owners[p] != owner]
    if missing:
        raise RuleViolation(
            "{owner} does not own the whole group of {space}: {items} missing", rule=cited(state.rules, "build", R_BUILD),
            allowed=msg("build only on a complete colour group"),
            owner=owner, space=space.name, items=', '.join(name_of(state, p) for p in missing))
    mortgaged = [p for p in group if p in state.mortgaged]
    if mortgaged:
        raise RuleViolation(
            "{items} is mortgaged: no building on its group",
            rule=cited(state.rules, "build", R_BUILD), allowed=msg("`unmortgage {name}` first", name=name_of(state, mortgaged[0])),
            items=', '.join(name_of(state, p) for p in mortgaged))


def _build_one(tx: Tx, pos: int, owner: str) -> None:
    state = tx.state
    space = state.edition.space(pos)
    hfh = state.rules.houses_for_hotel
    level = state.buildings[pos]
    cost = house_cost_of(state, pos)  # _check_can_build: a street
    cash = state.player(owner).cash
    if level == 5:
        raise RuleViolation("{space} already has a hotel: at most one, and no houses beside it",
                            rule=cited(state.rules, "hotel", R_HOTEL),
                            allowed=buildable(state, owner, pos), space=space.name)
    hotel = level == hfh
    new = 5 if hotel else level + 1
    levels = levels_after(state, pos, new)
    if not even(levels):
        low = min(group_of(state, pos), key=lambda p: state.buildings[p])
        # every lot at the group's lowest level may take the next building, not only the first
        lows = [name_of(state, p) for p in group_of(state, pos)
                if state.buildings[p] == state.buildings[low]]
        raise RuleViolation(
            "uneven building: {space} would have {describe} while {name} has {describe2}", rule=cited(state.rules, "build", R_BUILD),
            allowed=msg("build on {name} first", name=either(lows)),
            space=space.name, describe=level_words(new), name=name_of(state, low),
            describe2=level_words(state.buildings[low]))
    if hotel and state.bank_hotels < 1:
        raise RuleViolation("the Bank has no hotels left: wait until one is sold back",
                            rule=cited(state.rules, "shortage", R_SHORT))
    if not hotel and state.bank_houses < 1:
        raise RuleViolation("the Bank has no houses left: wait until some are sold back",
                            rule=cited(state.rules, "shortage", R_SHORT))
    if cash < cost:
        raise RuleViolation("{owner} has {cash}; a {what} on {space} costs {cost}", rule=cited(state.rules, "build", R_BUILD),
                            allowed=msg("raise {amount} more first, e.g. by mortgaging a deed of another group (`mortgage PROPERTY`)", amount=money(state, cost - cash)),
                            owner=owner, cash=money(state, cash),
                            what='hotel' if hotel else 'house', space=space.name,
                            cost=money(state, cost))
    if hotel:
        tx.emit("HotelBuilt", player=owner, property=pos, level=5, bank_houses=hfh,
                bank_hotels=-1, payer=owner, payee=BANK, amount=cost,
                reason=reason("hotel_on", space=space.position, n=hfh))
    else:
        tx.emit("HouseBuilt", player=owner, property=pos, level=new, bank_houses=-1,
                bank_hotels=0, payer=owner, payee=BANK, amount=cost,
                reason=reason("house_on", n=new, space=space.position))


# The words a refusal names its action by, made once: an audit re-derives these commands
# by the thousand, refused or not.
_BUILD = msg("build")
_BUILD_ON = word("owner's act", "build on")


@handles(c.Build)
def build(tx: Tx, cmd: c.Build) -> None:
    """Houses, then a hotel, on one lot.  When: at any time and in any number the cash and the
    Bank's stock allow, on anyone's turn, in jail too (004 §A casa of the Disney rules, "in
    qualsiasi momento e in qualsiasi quantità"; 003 §05; 000 §COSTRUIRE CASE).  The first
    copy of 004 §A casa says "only just before your turn, at most 3 a turn"; classic does not
    follow that lone sentence, which the same seed contradicts."""
    state = tx.state
    owner = owner_of(state, cmd.property, cmd.player, _BUILD_ON)
    check_active(state, owner, _BUILD)
    no_debts(state, _BUILD, owner)
    if state.auction and state.auction.kind != "deed":
        raise RuleViolation("a building auction is open: buildings go to the highest bidder",
                            rule=cited(state.rules, "shortage", R_SHORT), allowed=next_step(state))
    if cmd.count < 1:
        # one building, tried on a copy: what would stop it says more than "at least one"
        _check_can_build(state, cmd.property, owner)
        _build_one(Tx(state), cmd.property, owner)
        raise RuleViolation("build at least one building",
                            allowed=msg("`build {space}`", space=name_of(state, cmd.property)))
    _check_can_build(state, cmd.property, owner)
    level = state.buildings[cmd.property]
    room = state.rules.houses_for_hotel + 1 - _effective(state, level)
    if 0 < room < cmd.count:
        # said before the cash: `build parco 999999999999999` was refused for one house's price
        raise RuleViolation("{space} has {describe}: {count} more would go past a hotel, at most "
                            "{room}", rule=cited(state.rules, "hotel", R_HOTEL),
                            allowed=msg("`build {space} {room}`", space=name_of(state, cmd.property),
                                        room=room),
                            space=name_of(state, cmd.property), describe=level_words(level),
                            count=cmd.count, room=room)
    if cmd.count > 1:  # the level asked, not the first step that fails on the way to it
        reached = _effective(state, state.buildings[cmd.property]) + cmd.count
        if reached <= state.rules.houses_for_hotel + 1:
            _even_at(state, (cmd.property,), _level(state, reached), count=True)
    for _ in range(cmd.count):
        _build_one(tx, cmd.property, owner)


def _level(state: State, effective: int) -> int:
    """The building level of an effective one: a hotel's is one above the houses it needs."""
    return 5 if effective == state.rules.houses_for_hotel + 1 else effective


def _even_at(state: State, lots: tuple[int, ...], target: int, count: bool = False) -> None:
    """Refuses a build of several steps whose end leaves a group uneven, said for the level
    asked (step by step, `build Vicolo Corto --to hotel` on 2/2 was refused for `4 houses`,
    the first step that failed), with what may be built now and the group's even build.
    count: the build was asked as a number of buildings on one lot (`build PROPERTY N`)."""
    for group in dict.fromkeys(group_of(state, pos) for pos in lots):
        asked = [p for p in group if p in lots]
        others = [p for p in group if p not in lots]
        if not others:
            continue
        low = min(_effective(state, state.buildings[p]) for p in others)
        if _effective(state, target) - low <= 1:
            continue
        lows = [name_of(state, p) for p in others
                if _effective(state, state.buildings[p]) == low]
        reach = low + 1  # the most the asked lots may have now: some houses, never a hotel
        now = min(_effective(state, state.buildings[p]) for p in asked)
        names = [name_of(state, p) for p in asked]
        colour = state.edition.space(asked[0]).group
        # the group named as the reader calls it ("brown", not the key "marrone", on an
        # English page); the line keeps the key, the word `build` takes
        named = Fact({"group": colour}, "group", state.edition)
        evenly = (msg("the whole {name} group evenly, `build {group} hotel`", name=named,
                      group=colour) if target == 5 else
                  msg("the whole {name} group evenly, `build {group} {n}`", name=named,
                      group=colour, n=target))
        if reach <= now:
            first = msg("build on {name} first", name=either(lows))
        elif count:
            first = msg("`build {name} {n}` now, up to {describe}", name=names[0],
                        n=reach - now, describe=level_words(reach))
        else:
            first = msg("`build {items} --to {n}` now", items=Joined(names, " "), n=reach)
        low_pos = next(p for p in others if _effective(state, state.buildings[p]) == low)
        params = dict(describe=level_words(target), name=name_of(state, low_pos),
                      describe2=level_words(state.buildings[low_pos]))
        message = (msg("uneven building: {space} would have {describe} while {name} has "
                       "{describe2}", space=names[0], **params) if len(names) == 1 else
                   msg("uneven building: {items} would have {describe} each while {name} has "
                       "{describe2}", items=both(names), **params))
        raise RuleViolation(message, rule=cited(state.rules, "build", R_BUILD),
                            allowed=msg("{now}; or {evenly}", now=first, evenly=evenly))


def _effective(state: State, level: int) -> int:
    """A hotel is one level above the houses it needs (003 §05)."""
    return state.rules.houses_for_hotel + 1 if level == 5 else level


def _owner_of_all(state: State, lots, player: str | None, action: Text, apart: Text) -> str:
    """The one owner of `lots`; else refused, `apart` saying the command one owner at a time
    (its word inside its sentence, so that Italian says `costruisci`, not `build`)."""
    owners = {owner_of(state, pos, player, action) for pos in lots}
    if len(owners) > 1:
        raise RuleViolation("those deeds belong to {items}: one owner's buildings at a time",
                            allowed=apart, items=Joined(sorted(owners), msg(" and ")))
    return owners.pop()


def _steps(tx: Tx, lots, target: int, step, pick_low: bool) -> Tx:
    """Single steps on a scratch copy of the table, lowest (or highest) lot first: every
    check of the one-building words applies at every step; the steps become one fact."""
    scratch = Tx(tx.state, tx.seq)
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


def _changes(state: State, lots: list[dict]) -> list[dict]:
    """Each lot's buildings before and after, as a reason holds them (its square, levels)."""
    return [{"space": x["property"], "from": state.buildings[x["property"]], "to": x["level"]}
            for x in lots]


@handles(c.BuildTo)
def build_to(tx: Tx, cmd: c.BuildTo) -> None:
    """Build evenly up to a level across lots of a group, as ONE fact (BuildingsBuilt): the
    lots, their new levels, the Bank's stock change and one payment.  2/1/1 to 4/4/4 is one
    line.  The houses go where even building puts them, one at a time (003 §05)."""
    state = tx.state
    lots = tuple(dict.fromkeys(cmd.properties))
    target, hfh = cmd.level, state.rules.houses_for_hotel
    if not (1 <= target <= hfh or target == 5):
        raise RuleViolation("build to 1-{hfh} houses or a hotel, not {target}", rule=cited(state.rules, "build", R_BUILD),
                            hfh=hfh, target=target)
    owner = _owner_of_all(state, lots, cmd.player, _BUILD_ON,
                          msg("`build` each owner's lots apart"))
    check_active(state, owner, _BUILD)
    no_debts(state, _BUILD, owner)
    if state.auction and state.auction.kind != "deed":
        raise RuleViolation("a building auction is open: buildings go to the highest bidder",
                            rule=cited(state.rules, "shortage", R_SHORT), allowed=next_step(state))
    for pos in lots:
        _check_can_build(state, pos, owner)
        if _effective(state, state.buildings[pos]) > _effective(state, target):
            raise RuleViolation(
                "{name} has {describe}, more than {describe2}", rule=cited(state.rules, "build", R_BUILD),
                allowed=msg("`sell {name} --to {what}`", name=name_of(state, pos), what='hotel' if target == 5 else target),
                name=name_of(state, pos), describe=level_words(state.buildings[pos]),
                describe2=level_words(target))
    units = {p: _effective(state, target) - _effective(state, state.buildings[p]) for p in lots}
    if not any(units.values()):
        raise RuleViolation("nothing to build: {items} already at {describe}", rule=cited(state.rules, "build", R_BUILD),
                            allowed=buildable(state, owner, lots[0]),
                            items=', '.join(name_of(state, p) for p in lots),
                            describe=level_words(target))
    _even_at(state, lots, target)
    cost = sum(n * house_cost_of(state, p) for p, n in units.items())
    cash = state.player(owner).cash
    if cash < cost:
        raise RuleViolation("{owner} has {cash}; building to {describe} costs {cost}", rule=cited(state.rules, "build", R_BUILD),
                            allowed=msg("raise {amount} more, or build less", amount=money(state, cost - cash)),
                            owner=owner, cash=money(state, cash), describe=level_words(target),
                            cost=money(state, cost))
    # The houses must all be in the Bank at once: a hotel needs its lot's houses first.
    houses = sum(max(0, min(target, hfh) - state.buildings[p]) for p in lots
                 if state.buildings[p] != 5)
    hotels = sum(1 for p in lots if target == 5 and state.buildings[p] != 5)
    if houses > state.bank_houses or hotels > state.bank_hotels:
        need = dict(describe=level_words(target), houses=counted("house", houses),
                    hotels=counted("hotel", hotels),
                    bank_houses=counted("house", state.bank_houses),
                    bank_hotels=counted("hotel", state.bank_hotels))
        raise RuleViolation(
            msg("building to {describe} needs {houses} and {hotels} from the Bank, which has "
                "{bank_houses} and {bank_hotels}", **need)
            if hotels else
            msg("building to {describe} needs {houses} from the Bank, which has {bank_houses} "
                "and {bank_hotels}", **need), rule=cited(state.rules, "shortage", R_SHORT),
            allowed=msg("build less, or `auction-building house --wanted NAME=N ...` when "
                    "several players want the last ones"))
    scratch = _steps(tx, lots, target, lambda s, pos: _build_one(s, pos, owner), pick_low=True)
    changed, houses, hotels, amount = _collapse(tx, scratch, lots)
    tx.emit("BuildingsBuilt", player=owner, lots=changed, bank_houses=houses, bank_hotels=hotels,
            payer=owner, payee=BANK, amount=amount,
            reason=reason("built_evenly", changes=_changes(state, changed)))


@handles(c.SellTo)
def sell_to(tx: Tx, cmd: c.SellTo) -> None:
    """Sell evenly down to a level across lots of a group, as ONE fact (BuildingsSold with
    the lots' new levels): half price, hotels broken up as the single words would (000 FAQ
    29 when houses are short)."""
    state = tx.state
    lots = tuple(dict.fromkeys(cmd.properties))
    target, hfh = cmd.level, state.rules.houses_for_hotel
    if not (0 <= target <= hfh):
        raise RuleViolation("sell down to 0-{hfh} houses, not {target}", rule=cited(state.rules, "sell", R_SELL),
                            hfh=hfh, target=target)
    owner = _owner_of_all(state, lots, cmd.player, word("owner's act", "sell buildings of"),
                          msg("`sell` each owner's lots apart"))
    for pos in lots:
        if _effective(state, state.buildings[pos]) < target:
            raise RuleViolation(
                "{name} has {describe}, fewer than {describe2}", rule=cited(state.rules, "sell", R_SELL),
                allowed=msg("`build {name} --to {target}`", name=name_of(state, pos), target=target),
                name=name_of(state, pos), describe=level_words(state.buildings[pos]),
                describe2=level_words(target))
    if all(state.buildings[p] == target for p in lots):
        raise RuleViolation("nothing to sell: {items} already at {describe}", rule=cited(state.rules, "sell", R_SELL),
                            allowed=sellable(state, owner, lots[0]),
                            items=', '.join(name_of(state, p) for p in lots),
                            describe=level_words(target))
    group = group_of(state, lots[0])
    if target == 0 and set(lots) >= {p for p in group if state.buildings[p]}:
        sell_group(tx, group, owner)  # everything at once, even while houses are short
        return
    scratch = _steps(tx, lots, target, lambda s, pos: _sell_one(s, pos, owner), pick_low=False)
    changed, houses, hotels, amount = _collapse(tx, scratch, lots)
    tx.emit("BuildingsSold", player=owner, properties=[x["property"] for x in changed],
            lots=changed, bank_houses=houses, bank_hotels=hotels, payer=BANK, payee=owner,
            amount=amount, reason=reason("sold_evenly", changes=_changes(state, changed)))


@handles(c.Sell)
def sell(tx: Tx, cmd: c.Sell) -> None:
    state = tx.state
    owner = owner_of(state, cmd.property, cmd.player, word("owner's act", "sell buildings of"))
    group = group_of(state, cmd.property)
    if cmd.whole_group:
        if not any(state.buildings[p] for p in group):
            raise RuleViolation("no buildings on the group of {name}",
                                rule=cited(state.rules, "sell", R_SELL),
                                allowed=sellable(state, owner, cmd.property),
                                name=name_of(state, cmd.property))
        sell_group(tx, group, owner)
        return
    if cmd.count < 1:
        raise RuleViolation("sell at least one building", allowed=sellable(state, owner))
    for _ in range(cmd.count):
        _sell_one(tx, cmd.property, owner)


def sell_group(tx: Tx, group, owner: str) -> None:
    """Every building of a group back to the Bank at half price, as one fact: sold lot by lot
    the group would be uneven in between (and a hotel may not break up when houses are short)."""
    state = tx.state
    built = [p for p in group if state.buildings[p]]
    hotels = sum(1 for p in built if state.buildings[p] == 5)
    houses = sum(state.buildings[p] for p in built if state.buildings[p] < 5)
    amount = sum(building_sale_value(state, p) for p in built)
    what = [{"space": p, "level": state.buildings[p]} for p in built]
    tx.emit("BuildingsSold", player=owner, properties=built, bank_houses=houses,
            bank_hotels=hotels, payer=BANK, payee=owner, amount=amount,
            reason=reason("sold_at_half", what=what))


def _sell_one(tx: Tx, pos: int, owner: str) -> None:
    state = tx.state
    space = state.edition.space(pos)
    level = state.buildings[pos]
    half = half_price(space.house_cost) if space.house_cost else 0
    hfh = state.rules.houses_for_hotel
    if level == 0:
        raise RuleViolation("{space} has no buildings to sell", rule=cited(state.rules, "sell", R_SELL),
                            allowed=sellable(state, owner, pos), space=space.name)
    if level == 5:
        # One hotel at a time, back into houses (003 §07: selling is building in reverse).
        # 004 §Proprietà in vendita says the group's hotels "devono" (must) be sold together
        # in one copy and "possono" (may) in the other: classic takes "may" (`sell X all`).
        if state.auction and state.auction.kind == "house":
            raise RuleViolation("houses are being auctioned: builders come before a hotel "
                                "break-up", rule="000 FAQ 28", allowed=msg("wait for the hammer"))
        back = min(hfh, state.bank_houses)  # 000 FAQ 29: half value for houses not received
        new = back
        if not even(levels_after(state, pos, new)):
            raise RuleViolation(
                "the Bank has only {bank_houses}: breaking up the hotel on {space} would leave the group uneven", rule=cited(state.rules, "shortage", R_SHORT),
                allowed=msg("`sell {space} all` sells every building of the group at once", space=space.name),
                bank_houses=counted("house", state.bank_houses), space=space.name)
        amount = half + (hfh - back) * half
        tx.emit("BuildingSold", player=owner, property=pos, level=new, bank_houses=-back,
                bank_hotels=1, payer=BANK, payee=owner, amount=amount,
                reason=reason("hotel_sold_paid", space=space.position, n=back, m=hfh - back)
                if back < hfh else reason("hotel_sold", space=space.position, n=back))
        return
    new = level - 1
    if not even(levels_after(state, pos, new)):
        high = max(group_of(state, pos), key=lambda p: state.buildings[p])
        raise RuleViolation(
            "uneven selling: {space} would have {describe} while {name} has {describe2}", rule=cited(state.rules, "sell", R_SELL),
            allowed=msg("sell on {name} first", name=name_of(state, high)),
            space=space.name, describe=level_words(new), name=name_of(state, high),
            describe2=level_words(state.buildings[high]))
    tx.emit("BuildingSold", player=owner, property=pos, level=new, bank_houses=1, bank_hotels=0,
            payer=BANK, payee=owner, amount=half,
            reason=reason("sold_house", space=space.position))


@handles(c.BreakUp)
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
                                name=name_of(state, pos))
    if state.auction and state.auction.kind == "house":
        raise RuleViolation("houses are being auctioned: builders come before a hotel break-up",
                            rule="000 FAQ 28", allowed=msg("wait for the hammer"))
    hfh = state.rules.houses_for_hotel
    each = min(hfh, state.bank_houses // len(lots))
    changed = {pos: each for pos in lots}
    for pos in lots:
        levels = [changed.get(p, state.buildings[p]) for p in group_of(state, pos)]
        levels = [hfh + 1 if lv == 5 else lv for lv in levels]
        if not even(levels):
            raise RuleViolation(
                "with {each} each, the group of {name} would be uneven",
                rule=cited(state.rules, "shortage", "000 FAQ 29; 003 §07"),
                allowed=msg("`sell {name} all` sells every building of the group", name=name_of(state, pos)),
                each=counted("house", each), name=name_of(state, pos))
    transfers, broken = [], []
    for pos in lots:
        space = state.edition.space(pos)
        half = half_price(house_cost_of(state, pos))
        owner = state.owners[pos]
        amount = half + (hfh - each) * half
        broken.append({"property": pos, "player": owner, "level": each})
        transfers.append({"payer": BANK, "payee": owner, "amount": amount,
                          "reason": reason("hotel_broken_up_paid", space=space.position, n=each,
                                           m=hfh - each) if each < hfh
                          else reason("hotel_broken_up", space=space.position, n=each)})
    tx.emit("HotelsBrokenUp", lots=broken, bank_houses=-each * len(lots),
            bank_hotels=len(lots), transfers=transfers)


def sellable(state: State, owner: str, pos: int | None = None) -> Text | str:
    """For a refused sale: the owner's lots a building can be sold from (each tried on a copy:
    selling evens down, 003 §07, and a hotel needs the houses it breaks into).  If none, and
    the deed asked about (`pos`) stands on a group without buildings: what raises cash on it
    instead, since the Bank buys back buildings, never deeds (004 §Proprietà in vendita);
    else what the table waits for."""
    lots = []
    for p in range(len(state.buildings)):
        if state.buildings[p] and state.owners[p] == owner:
            try:
                _sell_one(Tx(state), p, owner)
            except RuleViolation:
                continue
            lots.append(p)
    if lots:
        return Joined([msg("`sell {space}`", space=name_of(state, p)) for p in lots], ", ")
    if pos is None or any(state.buildings[p] for p in group_of(state, pos)):
        return next_step(state)
    if pos in state.mortgaged:
        return msg("the Bank buys back buildings, never deeds (004 §Proprietà in vendita); a "
                   "mortgaged deed is sold only to a player, in a `trade`")
    return msg("the Bank buys back buildings, never deeds (004 §Proprietà in vendita): for "
               "cash, `mortgage {space}` (004 §Impegno), or sell it to a player in a `trade`",
               space=name_of(state, pos))


def buildable(state: State, owner: str, pos: int) -> Text:
    """For a refused build on a lot built to the full (`pos`): the owner's lots where one more house
    or a hotel may go now (each tried on a copy: even building, the Bank's stock, the cash),
    or that a hotel is a lot's last building (004 §Alberghi)."""
    lots = []
    for p in range(len(state.buildings)):
        if state.owners[p] != owner or state.edition.space(p).kind != "street" \
                or state.buildings[p] == 5:
            continue
        try:
            _check_can_build(state, p, owner)
            _build_one(Tx(state), p, owner)
        except RuleViolation:
            continue
        lots.append(p)
    if lots:
        return Joined([msg("`build {space}`", space=name_of(state, p)) for p in lots], ", ")
    return msg("no more building on {space}: a hotel is a lot's last (004 §Alberghi), and no "
               "other lot of {owner}'s may take one now", space=name_of(state, pos), owner=owner)
