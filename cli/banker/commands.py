"""The banker's words: setting up, the turn, what players own, corrections, and the table.

Each command parses its words, resolves names, calls the book and prints what happened.
"""

from __future__ import annotations

import click

from cli.session import (
    deck_key,
    dump,
    execute,
    json_option,
    last_line,
    next_property,
    pass_session,
    player_name,
    player_option,
    property_position,
    property_words,
    records,
    report,
    space_position,
    turn_line,
)
from cli.words import i18n
from cli.words.i18n import _
from ledger.base.errors import UsageError
from ledger.base.numbers import check_dice, is_digits, not_a_number, number_like
from ledger.base.numbers import whole as whole_number

# --- setting up -----------------------------------------------------------------------------


def _reproducible_uuid(session, players, rules, edition) -> str | None:
    """Under BANCO_FIXED_TIME (a reproducible recording: tests, README's examples, never a real
    table) a game's identity follows from what is recorded, so that the same transcript gives
    the same history, hashes included; otherwise None: a new random identity."""
    import os

    fixed = os.environ.get("BANCO_FIXED_TIME")
    if not fixed:
        return None
    import uuid

    number = len(session.book.games()) + 1
    seed = f"banco:{fixed}:{number}:{' '.join(players)}:{rules}:{edition}"
    return str(uuid.uuid5(uuid.NAMESPACE_URL, seed))


@click.command()
@click.argument("players", nargs=-1, required=True)
@click.option("--rules", default="classic", show_default=True,
              help="classic, quick, championship, vintage, euro, short, timed, or a TOML file "
                   "that extends one.")
@click.option("--edition", default=None,
              help="Board and decks: it, it-lire, it-euro, disney, us (default: the rule set's "
                   "own: it-lire for vintage, it-euro for euro, else it).")
@click.option("--final", is_flag=True,
              help="A championship final or semi-final: trades go on with two players left "
                   "(000 FAQ 31 is for preliminary games).")
@click.option("--first", default=None, help="Who rolls first (default: the first name).")
@click.option("--uuid", "game_uuid", default=None, metavar="UUID",
              help="The game's identity (default: a new one); to re-record a game under the "
                   "identity it already has elsewhere.")
@pass_session
@records(expect=False)
def new(session, players, rules, edition, first, game_uuid, final):
    """Start a game: PLAYERS in seating order."""
    if first is not None:
        from ledger.base.names import resolve

        first = resolve(first, list(players), "player")
    session.create = True
    left = _unfinished(session)
    if game_uuid is None:
        game_uuid = _reproducible_uuid(session, players, rules, edition)
    args = session.write_args(0)
    del args["expect"]
    outcome = session.written(session.book.start(
        list(players), rules=rules, edition=edition, first_player=first, game_uuid=game_uuid,
        final=final, **args))
    game = outcome.game_id
    session.use_game(game)
    if outcome.replayed:
        click.echo(_("already recorded (game {game} was started by this command): nothing new "
                     "was appended").format(game=game))
    state = session.book.state(game)
    from ledger.board.rule_sets import starting_cash

    cash = state.edition.money(starting_cash(state.rules, len(state.seats)))
    click.echo(_("game {game}: {players} with {cash} each; rules {rules}, edition "
                 "{edition}").format(game=game, players=", ".join(players), cash=cash,
                                     rules=state.rules.name, edition=state.edition.name)
               + (_(", a final") if state.final else ""))
    for mismatch in state.edition.rules_mismatches(state.rules):  # a house-rules file's choice
        click.echo(_("warning: {message}").format(message=mismatch), err=True)
    if state.dealt or state.rules.deeds_dealt or state.rules.deeds_dealt_by_players:
        click.echo(turn_line(state))
    else:
        click.echo(_("{player} to roll").format(player=state.turn.player))
    if left is not None and left["game_id"] != game:
        # a tournament keeps several games in one file: `new` starts this one all the same,
        # but the banker who typed it by mistake must know where the other went
        back = (_("`game {game}` goes back to it") if session.in_shell
                else _("`--game {game}` goes back to it"))
        click.echo(_("warning: {message}").format(message=_(
            "game {game} ({players}) is left unfinished; {back}").format(
                game=left["game_id"], players=", ".join(left["players"]),
                back=back.format(game=left["game_id"]))), err=True)


def _unfinished(session) -> dict | None:
    """The unfinished game the commands addressed before `new` (None in a new file)."""
    import os

    from ledger.base.errors import BancoError

    if not os.path.exists(session.db):
        return None
    try:
        game = session.book.store.game(session.game())
    except BancoError:
        return None
    return game if game is not None and not game["ended"] else None


# --- the turn -------------------------------------------------------------------------------

@click.command(context_settings={"ignore_unknown_options": True})  # `-1`: a bad number
@click.argument("dice", nargs=-1, required=True, metavar="D1 D2 [S]")
@player_option
@pass_session
@records
def roll(session, dice, player):
    """Record the dice: roll D1 D2.  With the Speedy die (championship, from a player's first
    pass of Via!): roll D1 D2 S, S one of 1 2 3 bus mr (b and m for short)."""
    from ledger.records.commands import Roll

    no_stray_options(dice)
    numbers, speedy = parse_dice(dice)
    execute(session, Roll(numbers, player_name(session.state(), player, "in play"), speedy))


def _typed_word() -> str:
    """The command's word as typed (`offerta` for `bid`), for a suggestion to copy."""
    ctx = click.get_current_context(silent=True)
    return ctx.info_name if ctx is not None and ctx.info_name else "banco"


def no_stray_options(words) -> None:
    """A word taking unknown options as words (so that `-1` reaches the rules as a number)
    still says `--playr` is no option, with click's suggestion, rather than a bad die."""
    for w in words:
        if w.startswith("--"):
            ctx = click.get_current_context()
            import difflib

            name = w.split("=", 1)[0]
            known = [o for p in ctx.command.params for o in getattr(p, "opts", ())
                     if o.startswith("--")]
            raise click.NoSuchOption(name, possibilities=difflib.get_close_matches(name, known),
                                     ctx=ctx)


SPEEDY_WORDS = {"1": "1", "2": "2", "3": "3", "bus": "bus", "b": "bus", "mr": "mr", "m": "mr"}


def parse_dice(words) -> tuple[tuple[int, ...], str | None]:
    """`4 3` or `4 3 bus`: the numbered dice, and the Speedy die's face if a third is given
    (the rule set decides whether it may be).

    What no rule set accepts is a usage error (exit 2): one die or four, a word or a number
    no die shows.  Whether a third die, the Speedy die, may be thrown is the rule set's
    (a refusal, exit 1, from decide)."""
    words = list(words)
    numbered = words[:2] if len(words) == 3 else words
    numbers = []
    for w in numbered:
        number = whole_number(w)
        if number is None:
            raise UsageError("{w!r} is not a valid integer: a die shows 1 to 6 (roll D1 D2)",
                             w=w)
        numbers.append(number)
    if len(words) == 1 and len(words[0]) == 2 and all(c in "123456" for c in words[0]):
        # `roll 34`: two dice typed without the space between them
        raise UsageError("roll D1 D2: two dice, a space between them; `{w}` is one word: did you mean `{word} {d1} {d2}`?",
                         w=words[0], word=_typed_word(), d1=words[0][0], d2=words[0][1])
    check_dice(tuple(numbers))
    speedy = None
    if len(words) == 3:  # `b` and `m` for short; any other face is for decide to judge, after
        face = words[2].lower()  # whether the rule set throws a Speedy die at all (exit 1)
        speedy = SPEEDY_WORDS.get(face, face)
    return tuple(numbers), speedy


@click.command(context_settings={"ignore_unknown_options": True})  # `move -3`: the rules say no
@click.argument("spaces", type=int)
@player_option
@pass_session
@records
def move(session, spaces, player):
    """The Bus of the Speedy die: move by one numbered die or both (000 FAQ 38), e.g. after
    `roll 2 6 bus`, `move 2`, `move 6` or `move 8`."""
    from ledger.records.commands import BusMove

    execute(session, BusMove(spaces, player_name(session.state(), player, "in play")))


@click.command()
@click.argument("words", nargs=-1, required=True, metavar="SPACE")
@player_option
@pass_session
@records
def go(session, words, player):
    """A triple of the Speedy die: go to any SPACE, by name or number, clockwise; passing or
    reaching Via! pays the salary (000 FAQ 36-37)."""
    from ledger.records.commands import GoTo

    state = session.state()
    execute(session, GoTo(space_position(state, " ".join(words)),
                          player_name(state, player, "in play")))


@click.command()
@player_option
@pass_session
@records
def advance(session, player):
    """Mr Monopoly's second move: to the next free property; if none, the nearest where rent
    is owed; if none, stay (000 §SVOLGIMENTO 3, FAQ 39)."""
    from ledger.records.commands import Advance

    execute(session, Advance(player_name(session.state(), player, "in play")))


@click.command()
@player_option
@pass_session
@records
def buy(session, player):
    """Buy the property the current player stands on."""
    from ledger.records.commands import Buy

    execute(session, Buy(player_name(session.state(), player, "in play")))


@click.command()
@player_option
@pass_session
@records
def decline(session, player):
    """Decline the property: it goes to auction at once."""
    from ledger.records.commands import Decline

    execute(session, Decline(player_name(session.state(), player, "in play")))


# a negative amount is a bid for the rules to refuse in words, not an unknown option "-5"
@click.command(context_settings={"ignore_unknown_options": True})
@click.argument("bidder")
@click.argument("amount")
@pass_session
@records
def bid(session, bidder, amount):
    """A bid in the open auction: bid PLAYER AMOUNT."""
    from ledger.records.commands import Bid

    number = whole_number(amount.strip())
    if number is None:
        if whole_number(bidder.strip()) is not None:  # `bid 50 bea`: the words swapped
            raise UsageError("the amount comes after the name: `{word} {bidder} {amount}`",
                             word=_typed_word(), bidder=amount, amount=bidder)
        raise not_a_number(amount)
    execute(session, Bid(player_name(session.state(), bidder, "bidder"), number))


@click.command()
@click.argument("words", nargs=-1, metavar="[PROPERTY|PLAYER]")
@pass_session
@records
def hammer(session, words):
    """Close the auction: the highest bid wins.  After a building auction, PROPERTY is where
    the winner puts the building (needed only when there is a choice).  A deed nobody bid for
    goes to the richest player (000 FAQ 22); when several are as rich, PLAYER says who."""
    from ledger.records.commands import Hammer

    state = session.state()
    if not words or state.auction is None:  # no auction: the rules say so, not the board
        execute(session, Hammer())
    elif state.auction.kind == "deed":
        execute(session, Hammer(player=player_name(state, " ".join(words), "bidder")))
    else:
        execute(session, Hammer(property_position(state, " ".join(words))))


@click.command()
@click.argument("owner")
@pass_session
@records
def claim(session, owner):
    """The owner asks for rent: claim OWNER."""
    from ledger.records.commands import Claim

    execute(session, Claim(player_name(session.state(), owner, "owner")))


@click.command(context_settings={"ignore_unknown_options": True})  # `-1`: a bad number
@click.argument("deck")
@click.argument("words", nargs=-1, required=True, metavar="CARD... [pay|draw]")
@player_option
@pass_session
@records
def card(session, deck, words, player):
    """The card drawn: card DECK CARD [pay|draw].  CARD is its number or words of its text
    (`card imprevisti terno`); pay/draw answers a card that offers the choice."""
    from ledger.records.commands import DrawCard
    from ledger.table.decks import card_by_words

    no_stray_options((deck, *words))
    state = session.state()
    key = deck_key(state.edition, deck)
    words = list(words)
    choice = None
    if len(words) > 1 and words[-1].lower() in ("pay", "draw"):
        choice = words.pop().lower()
    number = card_by_words(state, key, words)
    execute(session, DrawCard(key, number, choice, player_name(state, player, "in play")))


@click.command()
@click.argument("deck")
@click.argument("words", nargs=-1, required=True, metavar="CARD...")
@pass_session
def misdraw(session, deck, words):
    """A card turned by mistake (a Probabilità for an Imprevisti, say): shown to the table and
    put under its own deck without effect (000 FAQ 18).  CARD: its number or words of it."""
    from ledger.records.commands import Misdraw
    from ledger.table.decks import card_by_words

    state = session.state()
    key = deck_key(state.edition, deck)
    execute(session, Misdraw(key, card_by_words(state, key, list(words))))


@click.command()
@click.argument("deck")
@pass_session
def shuffle(session, deck):
    """The physical deck was mixed: banco forgets the order it knew."""
    from ledger.records.commands import Shuffle

    execute(session, Shuffle(deck_key(session.state().edition, deck)))


@click.command("pay-fine")
@player_option
@pass_session
@records
def pay_fine(session, player):
    """Pay the jail fine before rolling."""
    from ledger.records.commands import PayFine

    execute(session, PayFine(player_name(session.state(), player, "in play")))


@click.command("use-card")
@player_option
@pass_session
@records
def use_card(session, player):
    """Use a get-out-of-jail card before rolling."""
    from ledger.records.commands import UseCard

    execute(session, UseCard(player_name(session.state(), player, "in play")))


@click.command()
@click.argument("debtor", required=False)
@click.option("--with", "deeds", multiple=True, metavar="PROPERTY=PRICE",
              help="Pay partly with a deed free of buildings, at the price the creditor puts on "
                   "it; the rest in cash (vintage, 002 §Varie).  Repeat for several deeds.")
@pass_session
@records
def pay(session, debtor, deeds):
    """Settle a debt once the debtor has the cash (or, in the vintage rules, partly in deeds:
    `pay Carla --with "Viale Vesuvio=13000"`)."""
    from ledger.records.commands import PayDebt, PayInKind

    state = session.state()
    if not deeds:
        execute(session, PayDebt(player_name(state, debtor, "debtor")))
        return
    priced = []
    for item in deeds:
        name, sep, price = item.rpartition("=")
        price = price.strip().replace(".", "").replace(",", "")  # 13.000 as the lire print it
        if not sep or not name.strip() or not is_digits(price):
            raise UsageError("--with {item!r}: say a deed and its price as PROPERTY=PRICE, e.g. --with \"Viale Vesuvio=13000\"",
                             item=item)
        priced.append((property_position(state, name.strip()), int(price)))
    execute(session, PayInKind(tuple(priced), player_name(state, debtor, "debtor")))


# --- what players own -----------------------------------------------------------------------

def _property_and_count(state, words, allow_all: bool):
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
    elif len(words) > 1 and last == "all" and allow_all:
        whole = True
        words.pop()
    return property_position(state, " ".join(words)), count, whole


def _level(text: str, hotel: bool) -> int:
    if text.lower() == "hotel" and hotel:
        return 5
    if is_digits(text):
        return int(text)
    if hotel:
        raise UsageError("{text!r} is not a level: a number of houses or `hotel`", text=text)
    raise UsageError("{text!r} is not a level: a number of houses", text=text)


def _to_level(state, words, hotel: bool):
    """`GROUP N` (a colour group as on the board data: `marrone 4`, `verde hotel`) or
    `PROPERTY... --to N`: the lots and the level; None for the one-step words."""
    from ledger.base.names import fold

    words = list(words)
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
    if len(words) == 2 and (is_digits(words[1]) or words[1].lower() == "hotel"):
        # a unique prefix names a group as it names a property (`build marr 2`), unless it
        # also begins a property's name (`build soc 1`: the property's refusal says more)
        from ledger.base.names import resolve

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
    from ledger.records.commands import Build, BuildTo

    state = session.state()
    target = _to_level(state, words, hotel=True)
    if target:
        execute(session, BuildTo(target[0], target[1],
                                 player_name(state, player, "owner")))
        return
    if len(words) > 1 and words[-1].lower() == "hotel":
        # a street: said how build takes a level; a station or a company: the rules say no
        pos, count = _level_after_property(state, words), 1
    else:
        pos, count, _ = _property_and_count(state, words, allow_all=False)
    execute(session, Build(pos, count, player_name(state, player, "owner")))


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
                     word=_typed_word(), group=group, level=level, name=name)


@click.command(context_settings={"ignore_unknown_options": True})
@property_words
@player_option
@pass_session
@records
def sell(session, words, player):
    """sell PROPERTY [COUNT|all]: buildings back to the Bank at half price; `all` sells every
    building of the property's colour group at once.  sell GROUP N, sell PROPERTY... --to N:
    evenly down to N houses in one fact."""
    from ledger.records.commands import Sell, SellTo

    state = session.state()
    target = _to_level(state, words, hotel=False)
    if target:
        execute(session, SellTo(target[0], target[1],
                                player_name(state, player, "owner")))
        return
    pos, count, whole = _property_and_count(state, words, allow_all=True)
    execute(session, Sell(pos, 0 if whole else count, whole,
                          player_name(state, player, "owner")))


@click.command("break-up")
@click.argument("words", nargs=-1, required=True, metavar="PROPERTY...")
@pass_session
@records
def break_up(session, words):
    """Several hotels broken up at once while houses are short: the Bank's houses are shared
    equally, the rest paid at half value (000 FAQ 29)."""
    from ledger.records.commands import BreakUp

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
    from ledger.records.commands import Mortgage

    state = session.state()
    execute(session, Mortgage(property_position(state, " ".join(words)),
                              player_name(state, player, "owner")))


@click.command()
@property_words
@player_option
@pass_session
@records
def unmortgage(session, words, player):
    """Lift the mortgage on PROPERTY: its mortgage value plus 10%."""
    from ledger.records.commands import Unmortgage

    state = session.state()
    execute(session, Unmortgage(property_position(state, " ".join(words)),
                                player_name(state, player, "owner")))


JAIL_CARD = "jail-card"


def _trade_items(state, words: list[str]):
    """`vicolo corto 150 jail-card` into Items.  A property name runs until a number or
    `jail-card`, so names need no quotes.  `jail-card` is one card (`jail card` too); write it
    twice to give both.  A small number just before it (`2 jail-card`) could mean two cards or
    2 M and a card, so it is refused rather than guessed."""
    from ledger.base.names import resolve_all
    from ledger.records.commands import Items

    by_name = {s.name: s.position for s in state.edition.properties}
    props: list[int] = []
    cash = cards = 0
    run: list[str] = []
    amounts: list[str] = []

    def flush():
        props.extend(by_name[n] for n in resolve_all(run, list(by_name), "property"))
        run.clear()

    i = 0
    while i < len(words):
        w = words[i]
        low = w.lower()
        two = " ".join(words[i:i + 2]).lower()
        if number_like(w):
            raise not_a_number(w)
        if w.startswith("-") and is_digits(w[1:]):
            # cash goes one way: what B pays is on B's side (`--get 100`), never a minus
            raise UsageError("{w} is not an amount to give: cash in a trade is a whole amount "
                             "on the side of who pays it (`--give 100` or `--get 100`)", w=w)
        if is_digits(w):
            flush()
            nxt = words[i + 1].lower() if i + 1 < len(words) else ""
            if int(w) <= 2 and nxt.startswith("jail"):
                raise UsageError("`{w} {words}`: is that {w} M and a card, or {w} cards? Write `{JAIL_CARD}` once per card (`{JAIL_CARD} {JAIL_CARD}` for two) and put the cash after it",
                                 w=w, words=words[i + 1], JAIL_CARD=JAIL_CARD)
            if amounts:
                # `--give 10 --give 20`: a slip or a second thought more often than 30 M meant;
                # money is never guessed, so the banker writes the one amount
                raise UsageError("two amounts of cash on one side of the trade, {first} and {second}: write one amount (`{total}` if both are meant)",
                                 first=amounts[0], second=w, total=int(amounts[0]) + int(w))
            amounts.append(w)
            cash += int(w)
            i += 1
        elif low == JAIL_CARD or two == "jail card":
            flush()
            cards += 1
            i += 1 if low == JAIL_CARD else 2
        elif low == "jail-cards" or two == "jail cards":
            raise UsageError("write `{JAIL_CARD}` once per card (`{JAIL_CARD} {JAIL_CARD}` for two)",
                             JAIL_CARD=JAIL_CARD)
        else:
            run.append(w)
            i += 1
    flush()
    return Items(tuple(props), cash, cards)


def parse_trade(state, words: list[str]):
    """`A B --give ITEM... --get ITEM... [--lift PROPERTY...]` into a Trade command."""
    from ledger.base.names import resolve_all
    from ledger.records.commands import Trade

    if len(words) < 2:
        raise UsageError("trade A B --give ITEM... --get ITEM...  (ITEM: a property, an amount of cash, or {JAIL_CARD})",
                         JAIL_CARD=JAIL_CARD)
    a = player_name(state, words[0], "in play")
    b = player_name(state, words[1], "other", but=a)
    sections = {"--give": [], "--get": [], "--lift": []}
    current = None
    for w in words[2:]:
        if w in sections:
            current = w
        elif current is None:
            raise UsageError("{w!r}: say --give or --get before the items",
                             w=w)
        else:
            sections[current].append(w)
    by_name = {s.name: s.position for s in state.edition.properties}
    lift = tuple(by_name[n] for n in resolve_all(sections["--lift"], list(by_name), "property"))
    return Trade(a, b, _trade_items(state, sections["--give"]),
                 _trade_items(state, sections["--get"]), lift)


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
    from ledger.records.commands import Bankrupt

    state = session.state()
    words = list(words)
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


@click.command("auction-building", context_settings={"ignore_unknown_options": True})
@click.argument("kind", type=click.Choice(["house", "hotel"]))
@click.argument("wanted", nargs=-1, type=click.UNPROCESSED, metavar="--wanted NAME=N...")
@pass_session
@records
def auction_building(session, kind, wanted):
    """Auction the last houses (hotels) when the Bank has fewer than the players want: each
    says first how many (000 FAQ 30), e.g. `auction-building house --wanted Anna=3 Bruno=2`.
    One building per auction; the next opens while two or more still want one."""
    from ledger.records.commands import BuildingAuction

    state = session.state()
    pairs = []
    for word in wanted:
        if word == "--wanted":
            continue
        name, sep, count = word.partition("=")
        if not sep or not is_digits(count):
            raise UsageError("{word!r}: say who wants how many as NAME=N, e.g. Anna=3",
                             word=word)
        pairs.append((player_name(state, name, "in play"), int(count)))
    execute(session, BuildingAuction(kind, tuple(pairs)))


@click.command()
@pass_session
@records
def undo(session):
    """Take back the last command (an EventRetracted fact; nothing is erased)."""
    game = session.game()
    outcome = session.written(session.book.undo(game, **session.write_args(game)))
    report(outcome)
    click.echo(turn_line(outcome.state))


# --- the table ------------------------------------------------------------------------------

@click.command()
@click.option("--at", "when", default=None, metavar="SEQ|TIME",
              help="The table as it was after event SEQ, or after the last event recorded at "
                   "or before TIME (as `log` prints it, or ISO 8601 with a zone).  TIME runs to "
                   "the end of its last figure: `2026-11-30 16:28` takes in 16:28:59, "
                   "`2026-11-30 16:28:00` only that second, `2026-11-30` the whole day.")
@json_option
@pass_session
def state(session, when, as_json):
    """The table: cash, positions, deeds by colour group, whose turn, what is pending, and
    what the table waits for next.  With --at, it also says which of the events shown a later
    undo took back, and when SEQ falls inside a command."""
    from cli.words.render import state_document, state_text

    at = moment = None
    if when is not None:
        from projections.referee.moments import parse_moment, seq_at

        if number_like(when.strip()):  # `--at ５７`: what int() reads, the banker did not type
            raise not_a_number(when.strip())
        moment = parse_moment(when)
        # the rows read from the file as they are needed: a long game is never held whole
        at = seq_at(_rows(session), moment)
    st = session.book.state(session.game(), at)
    if as_json:
        doc = state_document(st)
        if at is not None:  # what the text's notes say, for a script
            doc["moment"] = _moment_document(session, at)
        dump(doc)
        return
    click.echo(state_text(st))
    end = None
    if moment is not None and moment.seq is None:
        click.echo(_("(the table after event {at}, the last recorded by {moment})").format(
            at=at, moment=moment.text))
    if at is not None:
        notes, end = _moment_notes(session, at)
        for note in notes:
            click.echo(note)
    if end is not None:
        click.echo(_("next: the command goes on to event {end} (`state --at {end}` shows where "
                     "it ended)").format(end=end))
    else:
        click.echo(turn_line(st))
        if at is None:
            last = last_line(session.book, st.game_id)
            if last:
                click.echo(last)
            if st.ended:
                from cli.session import finished_line

                click.echo(finished_line(session.book, st.game_id) or "")


def _rows(session):
    rows = session.book.store.rows_view(session.game())
    if not rows:
        raise UsageError("no game {game} in this database", game=session.game())
    return rows


def _moment_notes(session, at: int):
    """moment_notes from the few rows they need: the undos (by the type index) and the
    command `at` falls inside (by the command-id index)."""
    from cli.words.render import moment_notes

    store, game = session.book.store, session.game()
    return moment_notes(_rows(session), at, store.read_type(game, "EventRetracted"),
                        lambda cid: store.command_events(game, cid))


def _moment_document(session, at: int) -> dict:
    """The table after event `at`: the events in it a later undo took back (with the undo's
    seq), and the last event of the command `at` falls inside (None: between commands)."""
    from cli.words.render import taken_back

    undos = session.book.store.read_type(session.game(), "EventRetracted")
    later = [{"seq": seq, "by": undo} for seq, undo in sorted(taken_back(undos).items())
             if seq <= at < undo]
    _, end = _moment_notes(session, at)
    return {"at": at, "taken_back_later": later, "inside_command_until": end}


def _edition(session):
    from ledger.base.errors import NoDatabase
    from ledger.board.edition import load_edition

    try:
        return session.state().edition
    except (UsageError, NoDatabase):  # no game, or no database yet: the default board
        return load_edition("it")


@click.command()
@json_option
@pass_session
def board(session, as_json):
    """The 40 spaces: prices, rents, house costs, mortgage values, taxes, the Via! salary and
    the jail fine (the current game's rule set, or classic when there is no game)."""
    from cli.words.render import board_document, board_text
    from ledger.base.errors import NoDatabase

    try:
        st = session.state()
        edition, rules = st.edition, st.rules
    except (UsageError, NoDatabase):  # no game, or no database yet: the default board
        from ledger.board.rule_sets import load_rules

        edition, rules = _edition(session), load_rules("classic")
    if as_json:
        dump(board_document(edition, rules))
    else:
        click.echo(f"{edition.title} ({edition.name})")
        notes = (edition.notes_it if edition.notes_it and i18n.language() == "it"
                 else edition.notes)
        if notes:
            click.echo(notes)
        click.echo(board_text(edition, rules))


@click.command()
@click.argument("deck", required=False)
@json_option
@pass_session
def cards(session, deck, as_json):
    """The card decks and what each card does."""
    from cli.words.render import cards_document

    edition = _edition(session)
    key = deck_key(edition, deck) if deck else None
    doc = cards_document(edition, key)
    if as_json:
        dump(doc)
        return
    for c in doc:
        click.echo(f"{c['deck']:<12}{c['number']:>3}  {c['text']}")


# --- many lines -----------------------------------------------------------------------------

@click.command()
# utf-8-sig: a transcript saved by an editor that starts it with a BOM reads as any other
@click.argument("transcript", type=click.File("r", encoding="utf-8-sig"))
@click.option("--quiet", "-q", is_flag=True, help="Only report the end or the refused line.")
@click.option("--resume", is_flag=True,
              help="Continue the game this transcript recorded; fail if none of it is recorded "
                   "(a plain run resumes too, or starts afresh when nothing is recorded).")
@click.option("--fresh", is_flag=True,
              help="Record the transcript again from its first line, as a new game.")
@click.option("--dry-run", is_flag=True,
              help="Check the transcript on a copy of the database; write nothing.")
@pass_session
def run(session, transcript, quiet, resume, fresh, dry_run):
    """Run a transcript of banco lines; stop at the first refused one.

    A line starting with `!` is expected to be refused (a late claim, say): its refusal is
    recorded and the run goes on; if it is accepted instead, it is recorded and the run stops,
    exit 2 (`undo` takes it back, or remove the `!` if the table was right).

    Each line gets a command id chained from the file's name and every line before it, so a
    transcript re-run after a crash, or after fixing the line it stopped at, skips what is
    already recorded and goes on in the same game.
    """
    from cli.banker.transcript import run_transcript

    if resume and fresh:
        raise UsageError("--resume and --fresh contradict each other: choose one")
    try:
        text = transcript.read()
    except UnicodeDecodeError as exc:
        raise UsageError("{transcript} is not a transcript: it is not UTF-8 text (byte {start}); a transcript has one banco line a line",
                         transcript=transcript.name, start=exc.start) from None
    run_transcript(session, transcript.name, text, quiet=quiet, resume=resume,
                   fresh=fresh, dry_run=dry_run)


@click.command()
@pass_session
def shell(session):
    """An interactive prompt: the same words without `banco`, with name completion.

    The prompt shows the game (`#2`) and what its table waits for; `help` lists the words;
    Ctrl-C clears the line (twice, or Ctrl-D, leaves); the history is kept in $XDG_DATA_HOME/banco/history
    (~/.local/share/banco/history; env BANCO_HISTORY moves it, empty turns it off).
    """
    import sys

    from cli.banker.shell import BancoShell, history_path

    # History only for lines a person types: a transcript piped in stays out of it.
    BancoShell(session, history=history_path() if sys.stdin.isatty() else None).cmdloop()
