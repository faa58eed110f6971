"""The banker and what players own: buildings, mortgages, trades, bankruptcy, the auction of
the last buildings."""

from __future__ import annotations

import click

from banco.cli.banker.turn import say_what_follows, typed_word
from banco.cli.command_table import ALL_WORDS, english_options, english_value
from banco.cli.session import (
    execute,
    next_property,
    pass_session,
    player_name,
    player_option,
    property_position,
    property_words,
    records,
)
from banco.cli.trade_line import parse_trade
from banco.ledger.base.errors import UsageError
from banco.ledger.base.numbers import is_digits, not_a_number, number_like
from banco.ledger.base.numbers import whole as whole_number

# --- what players own -----------------------------------------------------------------------

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

    words = english_options(words)
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


@click.command(context_settings={"ignore_unknown_options": True})
@property_words
@player_option
@pass_session
@records
def build(session, words, player):
    """build PROPERTY [COUNT]: COUNT houses (then a hotel) on PROPERTY, one at a time.
    build GROUP N, build PROPERTY... --to N: evenly up to N houses (or `hotel`) in one fact,
    e.g. `build marrone 4`, `build verde hotel`."""
    from banco.ledger.records.commands import Build, BuildTo

    state = session.state()
    target = to_level(state, words, hotel=True)
    if target:
        execute(session, BuildTo(target[0], target[1],
                                 player_name(state, player, "owner")))
        return
    _group_without_level(state, words)
    if len(words) > 1 and english_value(words[-1]) == "hotel":
        # a street: said how build takes a level; a station or a company: the rules say no
        pos, count = _level_after_property(state, words), 1
    else:
        pos, count, _ = property_and_count(state, words, allow_all=False)
    execute(session, Build(pos, count, player_name(state, player, "owner")))


def _group_without_level(state, words) -> None:
    """`build rosso`: a colour group with no level is not an unknown property; say what build
    takes after a group (a name that also begins a property's is the property's)."""
    from banco.ledger.base.names import fold

    want = fold(" ".join(words))
    named = [g for g in state.edition.groups if fold(g) == want] or [
        g for g in state.edition.groups if want and fold(g).startswith(want)]
    if len(named) == 1 and not any(fold(p.name).startswith(want)
                                   for p in state.edition.properties):
        raise UsageError("{group} is a colour group: say how far to build on it, `{word} {group} N` (N houses on each of its properties, 1 to 4) or `{word} {group} hotel`",
                         word=typed_word(), group=named[0])


def _level_after_property(state, words) -> int:
    """`build vicolo corto hotel`: a level after a property, which build reads only after a
    colour group or `--to`; said with both ways for this property (its unknown name is said
    as such).  A property that takes no buildings is returned, for the rules to refuse."""
    pos = property_position(state, " ".join(words[:-1]))
    space = next(s for s in state.edition.properties if s.position == pos)
    name, group, level = space.name, space.group, words[-1]
    if group is None or not space.house_cost:
        return pos
    raise UsageError("build takes a colour group and a level (`{word} {group} {level}`), or properties and `--to` (`{word} {name} --to {level}`)",
                     word=typed_word(), group=group, level=level, name=name)


@click.command(context_settings={"ignore_unknown_options": True})
@property_words
@player_option
@pass_session
@records
def sell(session, words, player):
    """sell PROPERTY|GROUP [N|all]: buildings back to the Bank at half price.  N is a level,
    the same after a property or a colour group: down to N houses each (`sell rosa 3`, `sell
    via accademia 1`); no N: one building off the property; `all`: every building of the
    colour group at once.  sell PROPERTY... --to N: those lots evenly down to N."""
    from banco.ledger.base.names import fold
    from banco.ledger.records.commands import Sell, SellTo

    state = session.state()
    owner = player_name(state, player, "owner")
    words = list(words)
    groups = {fold(g): lots for g, lots in state.edition.groups.items()}
    if len(words) == 2 and fold(words[0]) in groups and words[1].lower() in ALL_WORDS:
        # `sell rosa all` as `sell via accademia all`: the group's every building
        execute(session, Sell(groups[fold(words[0])][0], 0, True, owner))
        return
    target = to_level(state, words, hotel=False)
    if target:
        execute(session, SellTo(target[0], target[1], owner))
        return
    pos, count, whole = property_and_count(state, words, allow_all=True)
    if len(words) > 1 and not whole and is_digits(words[-1]):
        # a level after a property, as after a group (`sell rosa 3` is "down to 3 each")
        execute(session, SellTo((pos,), count, owner))
        return
    execute(session, Sell(pos, 0 if whole else count, whole, owner))


@click.command("break-up")
@click.argument("words", nargs=-1, required=True, metavar="PROPERTY...")
@pass_session
@records
def break_up(session, words):
    """Several hotels broken up at once while houses are short: the Bank's houses are shared
    equally, the rest paid at half value (000 FAQ 29)."""
    from banco.ledger.records.commands import BreakUp

    state = session.state()
    words, lots, i = list(words), [], 0
    while i < len(words):
        pos, i = next_property(state, words, i)
        lots.append(pos)
    execute(session, BreakUp(tuple(lots)))


@click.command()
@property_words
@player_option
@pass_session
@records
def mortgage(session, words, player):
    """Mortgage PROPERTY: the Bank pays its mortgage value."""
    from banco.ledger.records.commands import Mortgage

    _on_deed(session, Mortgage, words, player)


@click.command()
@property_words
@player_option
@pass_session
@records
def unmortgage(session, words, player):
    """Lift the mortgage on PROPERTY: its mortgage value plus 10%."""
    from banco.ledger.records.commands import Unmortgage

    _on_deed(session, Unmortgage, words, player)


def _on_deed(session, command, words, player) -> None:
    """A command on one deed by its owner (mortgage, unmortgage): PROPERTY [--player]."""
    state = session.state()
    execute(session, command(property_position(state, " ".join(words)),
                             player_name(state, player, "owner")))


@click.command(context_settings={"ignore_unknown_options": True})
@click.argument("words", nargs=-1, type=click.UNPROCESSED)
@pass_session
@records
def trade(session, words):
    """A deal between two players: trade A B --give ITEM... --get ITEM... [--lift PROPERTY...].

    --give items go from A to B, --get items from B to A.  An ITEM is a property (no quotes
    needed), a whole amount of cash, or `jail-card` (one card; twice for two).  --lift frees a mortgaged deed received (mortgage + 10%)
    instead of paying only the 10%.
    """
    state = session.state()
    execute(session, parse_trade(state, list(words)))


@click.command(context_settings={"ignore_unknown_options": True})
@click.argument("words", nargs=-1, type=click.UNPROCESSED, metavar="[DEBTOR] [--lift PROPERTY...]")
@pass_session
@records
def bankrupt(session, words):
    """Declare bankruptcy for a debt that cannot be raised.  --lift: the creditor frees the
    mortgaged deeds named at once (mortgage + 10%) instead of paying only the 10%."""
    from banco.ledger.records.commands import Bankrupt

    state = session.state()
    words = english_options(words)
    cut = words.index("--lift") if "--lift" in words else len(words)
    head, tail = words[:cut], words[cut + 1:]
    if len(head) > 1:
        raise UsageError("bankrupt [DEBTOR] [--lift PROPERTY...]: {items!r} is not understood",
                         items=' '.join(head[1:]))
    if cut < len(words) and not tail:
        raise UsageError("--lift needs the mortgaged deeds to free")
    lots, i = [], 0
    while i < len(tail):
        pos, i = next_property(state, tail, i)
        lots.append(pos)
    execute(session, Bankrupt(player_name(state, head[0] if head else None, "debtor"),
                              tuple(lots)))
    say_what_follows(session)


@click.command("auction-building", context_settings={"ignore_unknown_options": True})
@click.argument("kind", type=click.Choice(["house", "hotel", "casa", "albergo"]))
@click.argument("wanted", nargs=-1, type=click.UNPROCESSED, metavar="--wanted NAME=N...")
@pass_session
@records
def auction_building(session, kind, wanted):
    """Auction the last houses (hotels) when the Bank has fewer than the players want: each
    says first how many (000 FAQ 30), e.g. `auction-building house --wanted Anna=3 Bruno=2`.
    One building per auction; the next opens while two or more still want one."""
    from banco.ledger.records.commands import BuildingAuction

    state = session.state()
    pairs = []
    for word in english_options(wanted):
        if word == "--wanted":
            continue
        name, sep, count = word.partition("=")
        if not sep or not is_digits(count):
            raise UsageError("{word!r}: say who wants how many as NAME=N, e.g. Anna=3",
                             word=word)
        pairs.append((player_name(state, name, "in play"), int(count)))
    execute(session, BuildingAuction(english_value(kind), tuple(pairs)))
