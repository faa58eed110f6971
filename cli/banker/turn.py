"""The banker through a turn: the dice, the moves of the Speedy die, buying or declining,
the auction, rent, cards, jail, paying a debt, and `undo`.

Thin click adapters: each hands its words to the parser's builder (cli/lines/turn.py), which
reads them into a typed command, and the command to cli/session.py's execute, which prints
what the book did.
"""

from __future__ import annotations

import click

from cli.groups import no_stray_options
from cli.lines import turn as lines
from cli.session import parsed as run
from cli.session import pass_session, player_option, records

# --- the turn -------------------------------------------------------------------------------

@click.command(context_settings={"ignore_unknown_options": True})  # `-1`: a bad number
@click.argument("dice", nargs=-1, required=True, metavar="D1 D2 [S]")
@player_option
@pass_session
@records
def roll(session, dice, player):
    """Record the dice: roll D1 D2.  With the Speedy die (championship, from a player's first
    pass of Via!): roll D1 D2 S, S one of 1 2 3 bus mr (b and m for short)."""
    no_stray_options(dice)
    run(session, lines.roll, dice=dice, player=player)


@click.command(context_settings={"ignore_unknown_options": True})  # `move -3`: the rules say no
@click.argument("spaces", type=int)
@player_option
@pass_session
@records
def move(session, spaces, player):
    """The Bus of the Speedy die: move by one numbered die or both (000 FAQ 38), e.g. after
    `roll 2 6 bus`, `move 2`, `move 6` or `move 8`."""
    run(session, lines.move, spaces=spaces, player=player)


@click.command()
@click.argument("words", nargs=-1, required=True, metavar="SPACE")
@player_option
@pass_session
@records
def go(session, words, player):
    """A triple of the Speedy die: go to any SPACE, by name or number, clockwise; passing or
    reaching Via! pays the salary (000 FAQ 36-37)."""
    run(session, lines.go, words=words, player=player)


@click.command()
@player_option
@pass_session
@records
def advance(session, player):
    """Mr Monopoly's second move: to the next free property; if none, the nearest where rent
    is owed; if none, stay (000 §SVOLGIMENTO 3, FAQ 39)."""
    run(session, lines.advance, player=player)


@click.command()
@player_option
@pass_session
@records
def buy(session, player):
    """Buy the property the current player stands on."""
    run(session, lines.buy, player=player)


@click.command()
@player_option
@pass_session
@records
def decline(session, player):
    """Decline the property: it goes to auction at once."""
    run(session, lines.decline, player=player)


# a negative amount is a bid for the rules to refuse in words, not an unknown option "-5"
@click.command(context_settings={"ignore_unknown_options": True})
@click.argument("bidder")
@click.argument("amount")
@pass_session
@records
def bid(session, bidder, amount):
    """A bid in the open auction: bid PLAYER AMOUNT."""
    run(session, lines.bid, bidder=bidder, amount=amount)


@click.command()
@click.argument("words", nargs=-1, metavar="[PROPERTY|PLAYER]")
@pass_session
@records
def hammer(session, words):
    """Close the auction: the highest bid wins.  After a building auction, PROPERTY is where
    the winner puts the building (needed only when there is a choice).  A deed nobody bid for
    goes to the richest player (000 FAQ 22); when several are as rich, PLAYER says who."""
    run(session, lines.hammer, words=words)


@click.command()
@click.argument("owner")
@pass_session
@records
def claim(session, owner):
    """The owner asks for rent: claim OWNER."""
    run(session, lines.claim, owner=owner)


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
    no_stray_options((deck, *words))
    run(session, lines.card, deck=deck, words=words, player=player)


@click.command()
@click.argument("deck")
@click.argument("words", nargs=-1, required=True, metavar="CARD...")
@pass_session
def misdraw(session, deck, words):
    """A card turned by mistake (a Probabilità for an Imprevisti, say): shown to the table and
    put under its own deck without effect (000 FAQ 18).  CARD: its number or words of it."""
    run(session, lines.misdraw, deck=deck, words=words)


@click.command()
@click.argument("deck")
@pass_session
def shuffle(session, deck):
    """The physical deck was mixed: banco forgets the order it knew."""
    run(session, lines.shuffle, deck=deck)


@click.command("pay-fine")
@player_option
@pass_session
@records
def pay_fine(session, player):
    """Pay the jail fine before rolling."""
    run(session, lines.pay_fine, player=player)


@click.command("use-card")
@player_option
@pass_session
@records
def use_card(session, player):
    """Use a get-out-of-jail card before rolling."""
    run(session, lines.use_card, player=player)


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
    run(session, lines.pay, debtor=debtor, deeds=deeds)


@click.command()
@pass_session
@records
def undo(session):
    """Take back the last command (an EventRetracted fact; nothing is erased)."""
    run(session, lines.undo)
