"""The banker through a turn: the dice, the moves of the Speedy die, buying or declining,
the auction, rent, cards, jail, paying a debt, and `undo`.

Each command parses its words, resolves names, calls the book and prints what happened.
"""

from __future__ import annotations

import click

from banco.cli.banker.meant import said
from banco.cli.command_table import english_value
from banco.cli.groups import no_stray_options
from banco.cli.session import (
    deck_key,
    execute,
    pass_session,
    player_name,
    player_option,
    property_position,
    records,
    report,
    space_position,
)
from banco.cli.words.table_lines import turn_line
from banco.ledger.base.errors import UsageError
from banco.ledger.base.numbers import check_dice, is_digits, not_a_number
from banco.ledger.base.numbers import whole as whole_number

# --- the turn -------------------------------------------------------------------------------

@click.command(context_settings={"ignore_unknown_options": True})  # `-1`: a bad number
@click.argument("dice", nargs=-1, required=True, metavar="D1 D2 [S]")
@player_option
@pass_session
@records
def roll(session, dice, player):
    """Record the dice: roll D1 D2.  With the Speedy die (championship, from a player's first
    pass of Via!): roll D1 D2 S, S one of 1 2 3 bus mr (b and m for short)."""
    from banco.ledger.records.commands import Roll

    no_stray_options(dice)
    player_not_a_die(session.state(), player, dice)
    numbers, speedy = parse_dice(dice)
    execute(session, Roll(numbers, player_name(session.state(), player, "in play"), speedy))


def player_not_a_die(state, player: str | None, dice) -> None:
    """`roll --player 1 2`: the option took the first die for a name, leaving one die.  Said
    as what it is, with the line meant, before the dice are counted (`got 1 die` hid it)."""
    if player is None or whole_number(player.strip()) is None:
        return  # (`new` refuses a name of digits: a number names nobody)
    from banco.cli.command_table import ITALIAN_OPTIONS
    from banco.cli.words import i18n

    option = "--player" if i18n.language() == i18n.SOURCE else ITALIAN_OPTIONS["--player"]
    words = [player.strip(), *dice] if len(dice) == 1 else list(dice)  # the die it took
    players = ", ".join(state.active())
    if len(words) not in (2, 3):
        raise UsageError("no player called {player!r}: {option} takes a player's name "
                         "({players}), not a die; the dice come first: `{word} D1 D2`",
                         player=player, option=option, players=players, word=typed_word())
    meant = f"{typed_word()} {' '.join(words)} {option} {state.turn.player}"
    raise UsageError("no player called {player!r}: {option} takes a player's name ({players}), "
                     "not a die; did you mean `{meant}`?", player=player, option=option,
                     players=players, meant=meant).meaning(meant)


def typed_word() -> str:
    """The command's word as typed (`offerta` for `bid`), for a suggestion to copy."""
    ctx = click.get_current_context(silent=True)
    return ctx.info_name if ctx is not None and ctx.info_name else "banco"


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
            from banco.ledger.base.numbers import other_digits

            meant = other_digits(w)
            if meant is not None:  # `tira １ ２`: an input method left on
                raise UsageError("{w!r} is not a valid integer: did you mean {meant}? (type the digits 0-9; a die shows 1 to 6)",
                                 w=w, meant=meant)
            raise UsageError("{w!r} is not a valid integer: a die shows 1 to 6 (roll D1 D2)",
                             w=w)
        numbers.append(number)
    if len(words) == 1 and len(words[0]) == 2 and all(c in "123456" for c in words[0]):
        # `roll 34`: two dice typed without the space between them
        raise UsageError("roll D1 D2: two dice, a space between them; `{w}` is one word: did you mean `{word} {d1} {d2}`?",
                         w=words[0], word=typed_word(), d1=words[0][0], d2=words[0][1]
                         ).meaning(f"{typed_word()} {words[0][0]} {words[0][1]}")
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
    from banco.ledger.records.commands import BusMove

    execute(session, BusMove(spaces, player_name(session.state(), player, "in play")))


@click.command()
@click.argument("words", nargs=-1, required=True, metavar="SPACE")
@player_option
@pass_session
@records
def go(session, words, player):
    """A triple of the Speedy die: go to any SPACE, by name or number, clockwise; passing or
    reaching Via! pays the salary (000 FAQ 36-37)."""
    from banco.ledger.records.commands import GoTo

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
    from banco.ledger.records.commands import Advance

    execute(session, Advance(player_name(session.state(), player, "in play")))


@click.command()
@player_option
@pass_session
@records
def buy(session, player):
    """Buy the property the current player stands on."""
    from banco.ledger.records.commands import Buy

    execute(session, Buy(player_name(session.state(), player, "in play")))


@click.command()
@player_option
@pass_session
@records
def decline(session, player):
    """Decline the property: it goes to auction at once."""
    from banco.ledger.records.commands import Decline

    execute(session, Decline(player_name(session.state(), player, "in play")))


# a negative amount is a bid for the rules to refuse in words, not an unknown option "-5"
@click.command(context_settings={"ignore_unknown_options": True})
@click.argument("bidder")
@click.argument("amount")
@pass_session
@records
def bid(session, bidder, amount):
    """A bid in the open auction: bid PLAYER AMOUNT."""
    from banco.ledger.records.commands import Bid

    number = whole_number(amount.strip())
    if number is None:
        if whole_number(bidder.strip()) is not None:  # `bid 50 bea`: the words swapped
            raise UsageError("the amount comes after the name: `{word} {bidder} {amount}`",
                             word=typed_word(), bidder=amount, amount=bidder
                             ).meaning(said([typed_word(), amount, bidder]))
        raise not_a_number(amount)
    state = session.state()
    from banco.ledger.base.names import fold

    if fold(bidder.strip()) in ("bank", "banca", "the bank", "la banca") \
            and bidder.strip() not in state.seats:
        raise UsageError("the Bank does not bid: the players in play do ({players})",
                         players=", ".join(state.active()))
    if number >= 0:
        execute(session, Bid(player_name(state, bidder, "bidder"), number))
        return
    from banco.ledger.base.errors import RuleViolation
    from banco.ledger.base.text import msg

    try:  # the rules' own refusal, said as what it is: a bid is a positive amount
        execute(session, Bid(player_name(state, bidder, "bidder"), number))
    except RuleViolation as exc:
        raise RuleViolation(msg("a bid is a positive amount: {refusal}", refusal=exc.text),
                            rule=exc.rule, allowed=exc.allowed_text) from None


@click.command()
@click.argument("words", nargs=-1, metavar="[PROPERTY|PLAYER]")
@pass_session
@records
def hammer(session, words):
    """Close the auction: the highest bid wins.  After a building auction, PROPERTY is where
    the winner puts the building (needed only when there is a choice).  A deed nobody bid for
    goes to the richest player (000 FAQ 22); when several are as rich, PLAYER says who."""
    from banco.ledger.records.commands import Hammer

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
    from banco.ledger.records.commands import Claim

    execute(session, Claim(player_name(session.state(), owner, "owner")))


@click.command(context_settings={"ignore_unknown_options": True})  # `-1`: a bad number
@click.argument("deck")
@click.argument("words", nargs=-1, required=True, metavar="CARD... [pay|draw]")
@player_option
@pass_session
@records
def card(session, deck, words, player):
    """The card drawn: card DECK CARD [pay|draw].  CARD is its number or words of its text
    (`card imprevisti terno`); pay/draw answers a card that offers the choice (so does `pay`
    or `draw` alone)."""
    from banco.ledger.records.commands import DrawCard
    from banco.ledger.table.decks import card_by_words

    no_stray_options((deck, *words))
    state = session.state()
    key = deck_key(state.edition, deck)
    words = list(words)
    choice = None
    if len(words) > 1 and english_value(words[-1]) in ("pay", "draw"):
        choice = english_value(words.pop())
    number = card_by_words(state, key, words)
    execute(session, DrawCard(key, number, choice, player_name(state, player, "in play")))


@click.command()
@click.argument("deck")
@click.argument("words", nargs=-1, required=True, metavar="CARD...")
@pass_session
def misdraw(session, deck, words):
    """A card turned by mistake (a Probabilità for an Imprevisti, say): shown to the table and
    put under its own deck without effect (000 FAQ 18).  CARD: its number or words of it."""
    from banco.ledger.records.commands import Misdraw
    from banco.ledger.table.decks import card_by_words

    state = session.state()
    key = deck_key(state.edition, deck)
    execute(session, Misdraw(key, card_by_words(state, key, list(words))))


@click.command()
@click.argument("deck")
@pass_session
def shuffle(session, deck):
    """The physical deck was mixed: banco forgets the order it knew."""
    from banco.ledger.records.commands import Shuffle

    execute(session, Shuffle(deck_key(session.state().edition, deck)))


@click.command("pay-fine")
@player_option
@pass_session
@records
def pay_fine(session, player):
    """Pay the jail fine before rolling."""
    from banco.ledger.records.commands import PayFine

    execute(session, PayFine(player_name(session.state(), player, "in play")))


@click.command("use-card")
@player_option
@pass_session
@records
def use_card(session, player):
    """Use a get-out-of-jail card before rolling."""
    from banco.ledger.records.commands import UseCard

    execute(session, UseCard(player_name(session.state(), player, "in play")))


@click.command()
@click.argument("debtor", required=False)
@click.option("--with", "--con", "deeds", multiple=True, metavar="PROPERTY=PRICE",
              help="Pay partly with a deed free of buildings, at the price the creditor puts on "
                   "it; the rest in cash (vintage, 002 §Varie).  Repeat for several deeds.")
@pass_session
@records
def pay(session, debtor, deeds):
    """Settle a debt once the debtor has the cash (or, in the vintage rules, partly in deeds:
    `pay Carla --with "Viale Vesuvio=13000"`)."""
    from banco.ledger.records.commands import PayDebt, PayInKind

    state = session.state()
    if not deeds and not state.debts and state.turn.phase == "choice":
        # `pay` at a pay-or-draw card, with no debt to settle, is the card's choice (the prompt
        # says `pay or draw`): `card probabilita 11 pay`
        from banco.ledger.records.commands import DrawCard

        deck, number = state.turn.card_choice
        execute(session, DrawCard(deck, number, "pay", player_name(state, debtor, "in play")))
        return
    if not deeds:
        execute(session, PayDebt(player_name(state, debtor, "debtor")))
        say_what_follows(session)
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
    say_what_follows(session)


# facts whose narration already says what the table waits for next
NEXT_SAID = frozenset({"TurnEnded", "ExtraRollDue", "GameEnded"})


def say_what_follows(session) -> None:
    """After a debt paid or a bankruptcy, whose facts leave the turn where it was: what the
    table waits for, as `buy` ends with `Bruno to roll` (the answer ended with the payment,
    and the banker had to look up whose roll it was)."""
    from banco.cli.words.i18n import _
    from banco.cli.words.waiting import claims_words

    outcome = session.outcomes[-1] if session.outcomes else None
    if outcome is None or outcome.refused or outcome.replayed or outcome.state.ended \
            or any(e["type"] in NEXT_SAID for e in outcome.events):
        return
    state, t = outcome.state, outcome.state.turn
    if t.phase == "roll" and not state.debts and claims_words(state) is None:
        click.echo(_("{player} to roll").format(player=t.player))  # as TurnEnded says it
    else:
        click.echo(turn_line(state))


@click.command()
@pass_session
@records
def undo(session):
    """Take back the last command (an EventRetracted fact; nothing is erased)."""
    game = session.game()
    before = session.book.state(game)
    outcome = session.written(session.book.undo(game, **session.write_args(game)))
    if outcome.replayed or outcome.refused:
        report(outcome)
    else:  # what it takes back, in the table's words, not the event types it retracts
        from banco.cli.words.undo_text import undone_line

        for e in outcome.events:
            if e["type"] == "EventRetracted":  # the line it took back is a parameter of its reason
                typed = e["data"]["reason"].get("line")
                click.echo(undone_line(e["data"]["seqs"], typed, before, outcome.state))
    click.echo(turn_line(outcome.state))
