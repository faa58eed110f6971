"""The words of what players own, and of the rule sets beyond classic, into typed commands:
buildings, mortgages, bankruptcy, the auction of the last buildings, dealing deeds, the time
limit, a debtor's own auction.  Pure, as cli/lines/turn.py."""

from __future__ import annotations

from banco.cli.lines.names import next_property, player_name, property_position
from banco.cli.lines.vocabulary import ALL_WORDS, english_option_words, english_value
from banco.ledger.base.errors import UsageError
from banco.ledger.base.numbers import is_digits, not_a_number, number_like
from banco.ledger.base.numbers import whole as whole_number
from banco.ledger.records import commands as c


def property_and_count(state, words, allow_all: bool):
    """`via roma 2` or `"Via Roma" all`: a property name, unquoted or not, then a count."""
    words = list(words)
    if not words:
        raise UsageError("name a property")
    count, whole = 1, False
    last = words[-1].lower()
    if len(words) > 1 and whole_number(last) is not None:
        if whole_number(last) < 0:  # no count at all, as `-1` is no level (`build marrone -1`)
            raise UsageError("{text!r} is not a count of buildings: a whole number, 1 or more",
                             text=words[-1])
        count = int(words.pop())  # `0` reaches the rules, which say what may be done
    elif len(words) > 1 and number_like(last):
        raise not_a_number(last)
    elif len(words) > 1 and last in ALL_WORDS and allow_all:
        whole = True
        words.pop()
    return property_position(state, " ".join(words)), count, whole


def _level(text: str, hotel: bool) -> int:
    if english_value(text) == "hotel" and hotel:
        return 5
    if is_digits(text):
        return int(text)
    if hotel:
        raise UsageError("{text!r} is not a level: a number of houses or `hotel`", text=text)
    raise UsageError("{text!r} is not a level: a number of houses", text=text)


def to_level(state, words, hotel: bool):
    """`GROUP N` (a colour group as on the board data: `marrone 4`, `verde hotel`) or
    `PROPERTY... --to N`: the lots and the level; None for the one-step words."""
    from banco.ledger.base.names import fold

    words = english_option_words(words)
    if "--to" in words:
        cut = words.index("--to")
        if cut == 0 or len(words) != cut + 2:
            raise UsageError("PROPERTY... --to N: the lots, then one level")
        lots, i = [], 0
        while i < cut:
            pos, i = next_property(state, words[:cut], i)
            lots.append(pos)
        return tuple(lots), _level(words[-1], hotel)
    groups = {fold(g): lots for g, lots in state.edition.groups.items()}
    if len(words) == 2 and fold(words[0]) in groups:
        return groups[fold(words[0])], _level(words[1], hotel)
    if len(words) == 2 and (is_digits(words[1]) or english_value(words[1]) == "hotel"):
        # a unique prefix names a group as it names a property (`build marr 2`), unless it
        # also begins a property's name (`build soc 1`: the property's refusal says more)
        from banco.ledger.base.names import resolve

        want = fold(words[0])
        named = [g for g in state.edition.groups if fold(g).startswith(want)]
        if named and want and not any(fold(p.name).startswith(want)
                                      for p in state.edition.properties):
            group = resolve(words[0], named, "colour group")  # `ros`: rosa or rosso?
            return state.edition.groups[group], _level(words[1], hotel)
    return None


def build(state, typed: str, language: str, words, player=None):
    target = to_level(state, words, hotel=True)
    if target:
        return c.BuildTo(target[0], target[1], player_name(state, player, "owner"))
    _group_without_level(state, typed, words)
    if len(words) > 1 and english_value(words[-1]) == "hotel":
        # a street: said how build takes a level; a station or a company: the rules say no
        pos, count = _level_after_property(state, typed, words), 1
    else:
        pos, count, _ = property_and_count(state, words, allow_all=False)
    return c.Build(pos, count, player_name(state, player, "owner"))


def _group_without_level(state, typed: str, words) -> None:
    """`build rosso`: a colour group with no level is not an unknown property; say what build
    takes after a group (a name that also begins a property's is the property's)."""
    from banco.ledger.base.names import fold

    want = fold(" ".join(words))
    named = [g for g in state.edition.groups if fold(g) == want] or [
        g for g in state.edition.groups if want and fold(g).startswith(want)]
    if len(named) == 1 and not any(fold(p.name).startswith(want)
                                   for p in state.edition.properties):
        raise UsageError("{group} is a colour group: say how far to build on it, `{word} {group} N` (N houses on each of its properties, 1 to 4) or `{word} {group} hotel`",
                         word=typed, group=named[0])


def _level_after_property(state, typed: str, words) -> int:
    """`build vicolo corto hotel`: a level after a property, which build reads only after a
    colour group or `--to`; said with both ways for this property (its unknown name is said
    as such).  A property that takes no buildings is returned, for the rules to refuse."""
    pos = property_position(state, " ".join(words[:-1]))
    space = next(s for s in state.edition.properties if s.position == pos)
    name, group, level = space.name, space.group, words[-1]
    if group is None or not space.house_cost:
        return pos
    raise UsageError("build takes a colour group and a level (`{word} {group} {level}`), or properties and `--to` (`{word} {name} --to {level}`)",
                     word=typed, group=group, level=level, name=name)


def sell(state, typed: str, language: str, words, player=None):
    from banco.ledger.base.names import fold

    owner = player_name(state, player, "owner")
    words = list(words)
    groups = {fold(g): lots for g, lots in state.edition.groups.items()}
    if len(words) == 2 and fold(words[0]) in groups and words[1].lower() in ALL_WORDS:
        # `sell rosa all` as `sell via accademia all`: the group's every building
        return c.Sell(groups[fold(words[0])][0], 0, True, owner)
    target = to_level(state, words, hotel=False)
    if target:
        return c.SellTo(target[0], target[1], owner)
    pos, count, whole = property_and_count(state, words, allow_all=True)
    if len(words) > 1 and not whole and is_digits(words[-1]):
        # a level after a property, as after a group (`sell rosa 3` is "down to 3 each")
        return c.SellTo((pos,), count, owner)
    return c.Sell(pos, 0 if whole else count, whole, owner)


def _lots(state, words) -> tuple[int, ...]:
    """Properties named one after another, no quotes needed: `via roma corso impero`."""
    words, lots, i = list(words), [], 0
    while i < len(words):
        pos, i = next_property(state, words, i)
        lots.append(pos)
    return tuple(lots)


def break_up(state, typed: str, language: str, words):
    return c.BreakUp(_lots(state, words))


def mortgage(state, typed: str, language: str, words, player=None):
    return c.Mortgage(property_position(state, " ".join(words)),
                      player_name(state, player, "owner"))


def unmortgage(state, typed: str, language: str, words, player=None):
    return c.Unmortgage(property_position(state, " ".join(words)),
                        player_name(state, player, "owner"))


def bankrupt(state, typed: str, language: str, words=()):
    words = english_option_words(words)
    cut = words.index("--lift") if "--lift" in words else len(words)
    head, tail = words[:cut], words[cut + 1:]
    if len(head) > 1:
        raise UsageError("bankrupt [DEBTOR] [--lift PROPERTY...]: {items!r} is not understood",
                         items=' '.join(head[1:]))
    if cut < len(words) and not tail:
        raise UsageError("--lift needs the mortgaged deeds to free")
    return c.Bankrupt(player_name(state, head[0] if head else None, "debtor"), _lots(state, tail))


def auction_building(state, typed: str, language: str, kind: str, wanted=()):
    pairs = []
    for word in english_option_words(wanted):
        if word == "--wanted":
            continue
        name, sep, count = word.partition("=")
        if not sep or not is_digits(count):
            raise UsageError("{word!r}: say who wants how many as NAME=N, e.g. Anna=3",
                             word=word)
        pairs.append((player_name(state, name, "in play"), int(count)))
    return c.BuildingAuction(english_value(kind), tuple(pairs))


def deal(state, typed: str, language: str, player: str, words):
    return c.Deal(player_name(state, player), _lots(state, words))


def time_up(state, typed: str, language: str, now: str | None = None):
    return c.TimeUp(now or "")


def auction_deed(state, typed: str, language: str, words):
    return c.AuctionDeed(property_position(state, " ".join(words)))
