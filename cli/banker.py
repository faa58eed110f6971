"""The banker's words: setting up, the turn, what players own, corrections, and the table.

Each command parses its words, resolves names, calls the book and prints what happened.
"""

from __future__ import annotations

import click

from ledger.errors import UsageError

from .session import (
    deck_key,
    dump,
    execute,
    json_option,
    next_property,
    pass_session,
    player_name,
    player_option,
    property_position,
    property_words,
    report,
    turn_line,
)

# --- setting up -----------------------------------------------------------------------------


@click.command()
@click.argument("players", nargs=-1, required=True)
@click.option("--rules", default="classic", show_default=True,
              help="classic, quick, or a TOML file that extends one.")
@click.option("--edition", default="it", show_default=True, help="Board and decks.")
@click.option("--first", default=None, help="Who rolls first (default: the first name).")
@pass_session
def new(session, players, rules, edition, first):
    """Start a game: PLAYERS in seating order."""
    if first is not None:
        from ledger.names import resolve

        first = resolve(first, list(players), "player")
    game = session.book.new_game(list(players), rules=rules, edition=edition, first_player=first,
                                 now=session.now(), actor=session.actor)
    session.use_game(game)
    state = session.book.state(game)
    cur = state.edition.currency
    click.echo(f"game {game}: {', '.join(players)} with {state.rules.starting_cash} {cur} each; "
               f"rules {state.rules.name}, edition {state.edition.name}")
    click.echo(f"{state.turn.player} to roll")


# --- the turn -------------------------------------------------------------------------------

@click.command()
@click.argument("dice", nargs=-1, type=int, required=True)
@player_option
@pass_session
def roll(session, dice, player):
    """Record the dice: roll D1 D2."""
    from ledger.commands import Roll

    execute(session, Roll(tuple(dice), player_name(session.state(), player)))


@click.command()
@player_option
@pass_session
def buy(session, player):
    """Buy the property the current player stands on."""
    from ledger.commands import Buy

    execute(session, Buy(player_name(session.state(), player)))


@click.command()
@player_option
@pass_session
def decline(session, player):
    """Decline the property: it goes to auction at once."""
    from ledger.commands import Decline

    execute(session, Decline(player_name(session.state(), player)))


@click.command()
@click.argument("bidder")
@click.argument("amount", type=int)
@pass_session
def bid(session, bidder, amount):
    """A bid in the open auction: bid PLAYER AMOUNT."""
    from ledger.commands import Bid

    execute(session, Bid(player_name(session.state(), bidder), amount))


@click.command()
@click.argument("words", nargs=-1, metavar="[PROPERTY|PLAYER]")
@pass_session
def hammer(session, words):
    """Close the auction: the highest bid wins.  After a building auction, PROPERTY is where
    the winner puts the building (needed only when there is a choice).  A deed nobody bid for
    goes to the richest player (000 FAQ 22); when several are as rich, PLAYER says who."""
    from ledger.commands import Hammer

    state = session.state()
    if not words:
        execute(session, Hammer())
    elif state.auction is not None and state.auction.kind == "deed":
        execute(session, Hammer(player=player_name(state, " ".join(words))))
    else:
        execute(session, Hammer(property_position(state, " ".join(words))))


@click.command()
@click.argument("owner")
@pass_session
def claim(session, owner):
    """The owner asks for rent: claim OWNER."""
    from ledger.commands import Claim

    execute(session, Claim(player_name(session.state(), owner)))


@click.command()
@click.argument("deck")
@click.argument("words", nargs=-1, required=True, metavar="CARD... [pay|draw]")
@player_option
@pass_session
def card(session, deck, words, player):
    """The card drawn: card DECK CARD [pay|draw].  CARD is its number or words of its text
    (`card imprevisti terno`); pay/draw answers a card that offers the choice."""
    from ledger.commands import DrawCard
    from ledger.decks import card_by_words

    state = session.state()
    key = deck_key(state.edition, deck)
    words = list(words)
    choice = None
    if len(words) > 1 and words[-1].lower() in ("pay", "draw"):
        choice = words.pop().lower()
    number = card_by_words(state, key, words)
    execute(session, DrawCard(key, number, choice, player_name(state, player)))


@click.command()
@click.argument("deck")
@click.argument("words", nargs=-1, required=True, metavar="CARD...")
@pass_session
def misdraw(session, deck, words):
    """A card turned by mistake (a Probabilità for an Imprevisti, say): shown to the table and
    put under its own deck without effect (000 FAQ 18).  CARD: its number or words of it."""
    from ledger.commands import Misdraw
    from ledger.decks import card_by_words

    state = session.state()
    key = deck_key(state.edition, deck)
    execute(session, Misdraw(key, card_by_words(state, key, list(words))))


@click.command()
@click.argument("deck")
@pass_session
def shuffle(session, deck):
    """The physical deck was mixed: banco forgets the order it knew."""
    from ledger.commands import Shuffle

    execute(session, Shuffle(deck_key(session.state().edition, deck)))


@click.command("pay-fine")
@player_option
@pass_session
def pay_fine(session, player):
    """Pay the jail fine before rolling."""
    from ledger.commands import PayFine

    execute(session, PayFine(player_name(session.state(), player)))


@click.command("use-card")
@player_option
@pass_session
def use_card(session, player):
    """Use a get-out-of-jail card before rolling."""
    from ledger.commands import UseCard

    execute(session, UseCard(player_name(session.state(), player)))


@click.command()
@click.argument("debtor", required=False)
@pass_session
def pay(session, debtor):
    """Settle a debt once the debtor has the cash."""
    from ledger.commands import PayDebt

    execute(session, PayDebt(player_name(session.state(), debtor)))


# --- what players own -----------------------------------------------------------------------

def _property_and_count(state, words, allow_all: bool):
    """`via roma 2` or `"Via Roma" all`: a property name, unquoted or not, then a count."""
    words = list(words)
    if not words:
        raise UsageError("name a property")
    count, whole = 1, False
    last = words[-1].lower()
    if len(words) > 1 and last.isdigit():
        count = int(words.pop())
    elif len(words) > 1 and last == "all" and allow_all:
        whole = True
        words.pop()
    return property_position(state, " ".join(words)), count, whole


def _level(text: str, hotel: bool) -> int:
    if text.lower() == "hotel" and hotel:
        return 5
    if text.isdigit():
        return int(text)
    raise UsageError(f"{text!r} is not a level: a number of houses"
                     + (" or `hotel`" if hotel else ""))


def _to_level(state, words, hotel: bool):
    """`GROUP N` (a colour group as on the board data: `marrone 4`, `verde hotel`) or
    `PROPERTY... --to N`: the lots and the level; None for the one-step words."""
    from ledger.names import fold

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
    return None


@click.command(context_settings={"ignore_unknown_options": True})
@property_words
@player_option
@pass_session
def build(session, words, player):
    """build PROPERTY [COUNT]: COUNT houses (then a hotel) on PROPERTY, one at a time.
    build GROUP N, build PROPERTY... --to N: evenly up to N houses (or `hotel`) in one fact,
    e.g. `build marrone 4`, `build verde hotel`."""
    from ledger.commands import Build, BuildTo

    state = session.state()
    target = _to_level(state, words, hotel=True)
    if target:
        execute(session, BuildTo(target[0], target[1], player_name(state, player)))
        return
    pos, count, _ = _property_and_count(state, words, allow_all=False)
    execute(session, Build(pos, count, player_name(state, player)))


@click.command(context_settings={"ignore_unknown_options": True})
@property_words
@player_option
@pass_session
def sell(session, words, player):
    """sell PROPERTY [COUNT|all]: buildings back to the Bank at half price; `all` sells every
    building of the property's colour group at once.  sell GROUP N, sell PROPERTY... --to N:
    evenly down to N houses in one fact."""
    from ledger.commands import Sell, SellTo

    state = session.state()
    target = _to_level(state, words, hotel=False)
    if target:
        execute(session, SellTo(target[0], target[1], player_name(state, player)))
        return
    pos, count, whole = _property_and_count(state, words, allow_all=True)
    execute(session, Sell(pos, 0 if whole else count, whole, player_name(state, player)))


@click.command("break-up")
@click.argument("words", nargs=-1, required=True, metavar="PROPERTY...")
@pass_session
def break_up(session, words):
    """Several hotels broken up at once while houses are short: the Bank's houses are shared
    equally, the rest paid at half value (000 FAQ 29)."""
    from ledger.commands import BreakUp

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
def mortgage(session, words, player):
    """Mortgage PROPERTY: the Bank pays its mortgage value."""
    from ledger.commands import Mortgage

    state = session.state()
    execute(session, Mortgage(property_position(state, " ".join(words)),
                              player_name(state, player)))


@click.command()
@property_words
@player_option
@pass_session
def unmortgage(session, words, player):
    """Lift the mortgage on PROPERTY: its mortgage value plus 10%."""
    from ledger.commands import Unmortgage

    state = session.state()
    execute(session, Unmortgage(property_position(state, " ".join(words)),
                                player_name(state, player)))


def parse_trade(state, words: list[str]):
    """`A B --give ITEM... --get ITEM... [--lift PROPERTY...]` into a Trade command."""
    from ledger.commands import Items, Trade

    if len(words) < 2:
        raise UsageError("trade A B --give ITEM... --get ITEM...  (ITEM: a property, an "
                         "amount of cash, or jail-card)")
    a, b = player_name(state, words[0]), player_name(state, words[1])
    sections = {"--give": [], "--get": [], "--lift": []}
    current = None
    for w in words[2:]:
        if w in sections:
            current = w
        elif current is None:
            raise UsageError(f"{w!r}: say --give or --get before the items")
        else:
            sections[current].append(w)

    def items(words):
        props, cash, cards = [], 0, 0
        i = 0
        while i < len(words):
            w = words[i]
            if w.isdigit():
                cash += int(w)
                i += 1
            elif w.lower() in ("jail-card", "jail", "card"):
                cards += 1
                i += 1
            else:
                pos, i = next_property(state, words, i)
                props.append(pos)
        return Items(tuple(props), cash, cards)

    return Trade(a, b, items(sections["--give"]), items(sections["--get"]),
                 tuple(property_position(state, w) for w in sections["--lift"]))


@click.command(context_settings={"ignore_unknown_options": True})
@click.argument("words", nargs=-1, type=click.UNPROCESSED)
@pass_session
def trade(session, words):
    """A deal between two players: trade A B --give ITEM... --get ITEM... [--lift PROPERTY...].

    --give items go from A to B, --get items from B to A.  An ITEM is a property, a whole
    amount of cash, or `jail-card`.  --lift frees a mortgaged deed received (mortgage + 10%)
    instead of paying only the 10%.
    """
    state = session.state()
    execute(session, parse_trade(state, list(words)))


@click.command(context_settings={"ignore_unknown_options": True})
@click.argument("words", nargs=-1, type=click.UNPROCESSED, metavar="[DEBTOR] [--lift PROPERTY...]")
@pass_session
def bankrupt(session, words):
    """Declare bankruptcy for a debt that cannot be raised.  --lift: the creditor frees the
    mortgaged deeds named at once (mortgage + 10%) instead of paying only the 10%."""
    from ledger.commands import Bankrupt

    state = session.state()
    words = list(words)
    cut = words.index("--lift") if "--lift" in words else len(words)
    head, tail = words[:cut], words[cut + 1:]
    if len(head) > 1:
        raise UsageError(f"bankrupt [DEBTOR] [--lift PROPERTY...]: {' '.join(head[1:])!r} is "
                         "not understood")
    if cut < len(words) and not tail:
        raise UsageError("--lift needs the mortgaged deeds to free")
    lots, i = [], 0
    while i < len(tail):
        pos, i = next_property(state, tail, i)
        lots.append(pos)
    execute(session, Bankrupt(player_name(state, head[0] if head else None), tuple(lots)))


@click.command("auction-building", context_settings={"ignore_unknown_options": True})
@click.argument("kind", type=click.Choice(["house", "hotel"]))
@click.argument("wanted", nargs=-1, type=click.UNPROCESSED, metavar="--wanted NAME=N...")
@pass_session
def auction_building(session, kind, wanted):
    """Auction the last houses (hotels) when the Bank has fewer than the players want: each
    says first how many (000 FAQ 30), e.g. `auction-building house --wanted Anna=3 Bruno=2`.
    One building per auction; the next opens while two or more still want one."""
    from ledger.commands import BuildingAuction

    state = session.state()
    pairs = []
    for word in wanted:
        if word == "--wanted":
            continue
        name, sep, count = word.partition("=")
        if not sep or not count.isdigit():
            raise UsageError(f"{word!r}: say who wants how many as NAME=N, e.g. Anna=3")
        pairs.append((player_name(state, name), int(count)))
    execute(session, BuildingAuction(kind, tuple(pairs)))


@click.command()
@pass_session
def undo(session):
    """Take back the last command (an EventRetracted fact; nothing is erased)."""
    outcome = session.book.undo(session.game(), now=session.now(), actor=session.actor)
    report(outcome)
    click.echo(turn_line(outcome.state))


# --- the table ------------------------------------------------------------------------------

@click.command()
@click.option("--at", type=int, default=None, help="The table as it was after event SEQ.")
@json_option
@pass_session
def state(session, at, as_json):
    """The table: cash, positions, deeds, whose turn, what is pending."""
    from cli.render import state_document, state_text

    st = session.book.state(session.game(), at)
    if as_json:
        dump(state_document(st))
    else:
        click.echo(state_text(st))
        if at is None:
            click.echo(turn_line(st))


def _edition(session):
    from ledger.edition import load_edition

    try:
        return session.state().edition
    except UsageError:
        return load_edition("it")


@click.command()
@json_option
@pass_session
def board(session, as_json):
    """The 40 spaces with prices, rents, house costs and mortgage values."""
    from cli.render import board_document

    doc = board_document(_edition(session))
    if as_json:
        dump(doc)
        return
    for s in doc:
        extra = ""
        if s["price"]:
            extra = f"price {s['price']:>3}  mortgage {s['mortgage']:>3}  rents {s['rents']}"
            if s["house_cost"]:
                extra += f"  house {s['house_cost']}"
        click.echo(f"{s['position']:>2}  {s['name']:<24}{s['kind']:<10}{extra}")


@click.command()
@click.argument("deck", required=False)
@json_option
@pass_session
def cards(session, deck, as_json):
    """The card decks and what each card does."""
    from cli.render import cards_document

    edition = _edition(session)
    key = deck_key(edition, deck) if deck else None
    doc = cards_document(edition, key)
    if as_json:
        dump(doc)
        return
    for c in doc:
        click.echo(f"{c['deck']:<12}{c['number']:>3}  {c['text']}")


# --- many lines -----------------------------------------------------------------------------

def execute_line(session, line: str) -> int:
    """Run one transcript/shell line; return its exit code.  `#` starts a comment."""
    import shlex

    from cli.main import cli

    try:
        args = shlex.split(line, comments=True)
    except ValueError as exc:
        click.echo(f"error: {exc}", err=True)
        return 2
    if not args:
        return 0
    if args[0] in ("shell", "run"):
        click.echo(f"error: `{args[0]}` cannot be nested", err=True)
        return 2
    try:
        result = cli.main(args=args, prog_name="banco", standalone_mode=False, obj=session)
    except click.exceptions.UsageError as exc:
        exc.show()
        return 2
    except click.exceptions.Abort:
        return 1
    except SystemExit as exc:
        return int(exc.code or 0)
    return result if isinstance(result, int) else 0


@click.command()
@click.argument("transcript", type=click.File("r", encoding="utf-8"))
@click.option("--quiet", "-q", is_flag=True, help="Only report the end or the refused line.")
@pass_session
def run(session, transcript, quiet):
    """Run a transcript of banco lines; stop at the first refused one.

    A line starting with `!` is expected to be refused (a late claim, say): its refusal is
    recorded and the run goes on; if it is accepted instead, the run stops.
    """
    import contextlib
    import io
    import sys

    done = 0
    for number, raw in enumerate(transcript, start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        expect_refusal = line.startswith("!")
        if expect_refusal:
            line = line[1:].strip()
        if not quiet:
            click.echo(f"> {line}")
        sink = io.StringIO()
        with contextlib.redirect_stdout(sink) if quiet else contextlib.nullcontext():
            code = execute_line(session, line)
        if expect_refusal and code == 1:
            done += 1
            continue
        if code != 0 or expect_refusal:
            what = "was accepted but was expected to be refused" if expect_refusal else "was refused"
            click.echo(f"{transcript.name}:{number}: `{line}` {what}; stopped after "
                       f"{done} line(s)", err=True)
            sys.exit(1 if code in (0, 1) else code)
        done += 1
    click.echo(f"{transcript.name}: {done} line(s) done")


@click.command()
@pass_session
def shell(session):
    """An interactive prompt: the same words without `banco`, with name completion."""
    from cli.shell import BancoShell

    BancoShell(session).cmdloop()
