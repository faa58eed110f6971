"""The banker through a turn: the dice, the moves of the Speedy die, buying or declining,
the auction, rent, cards, jail, paying a debt, and `undo`.

Each word's click command is made from the one table of words (cli/lines/vocabulary.py) by
cli/banker/adapter.py: its words go to the parser's builder (cli/lines/turn.py), the command
to the library (cli/session.py's record).  Here: each word's help, its docstring.
"""

from __future__ import annotations

from banco.cli.banker.adapter import table_command

# --- the turn -------------------------------------------------------------------------------


@table_command("roll")
def roll():
    """Record the dice: roll D1 D2.  With the Speedy die (championship, from a player's first
    pass of Via!): roll D1 D2 S, S one of 1 2 3 bus mr (b and m for short)."""


@table_command("move")
def move():
    """The Bus of the Speedy die: move by one numbered die or both (000 FAQ 38), e.g. after
    `roll 2 6 bus`, `move 2`, `move 6` or `move 8`."""


@table_command("go")
def go():
    """A triple of the Speedy die: go to any SPACE, by name or number, clockwise; passing or
    reaching Via! pays the salary (000 FAQ 36-37)."""


@table_command("advance")
def advance():
    """Mr Monopoly's second move: to the next free property; if none, the nearest where rent
    is owed; if none, stay (000 §SVOLGIMENTO 3, FAQ 39)."""


@table_command("buy")
def buy():
    """Buy the property the current player stands on."""


@table_command("decline")
def decline():
    """Decline the property: it goes to auction at once."""


@table_command("bid")
def bid():
    """A bid in the open auction: bid PLAYER AMOUNT."""


@table_command("hammer")
def hammer():
    """Close the auction: the highest bid wins.  After a building auction, PROPERTY is where
    the winner puts the building (needed only when there is a choice).  A deed nobody bid for
    goes to the richest player (000 FAQ 22); when several are as rich, PLAYER says who."""


@table_command("claim")
def claim():
    """The owner asks for rent: claim OWNER."""


@table_command("card")
def card():
    """The card drawn: card DECK CARD [pay|draw].  CARD is its number or words of its text
    (`card imprevisti terno`); pay/draw answers a card that offers the choice (so does `pay`
    or `draw` alone)."""


@table_command("misdraw")
def misdraw():
    """A card turned by mistake (a Probabilità for an Imprevisti, say): shown to the table and
    put under its own deck without effect (000 FAQ 18).  CARD: its number or words of it."""


@table_command("shuffle")
def shuffle():
    """The physical deck was mixed: banco forgets the order it knew."""


@table_command("pay-fine")
def pay_fine():
    """Pay the jail fine before rolling."""


@table_command("use-card")
def use_card():
    """Use a get-out-of-jail card before rolling."""


@table_command("pay")
def pay():
    """Settle a debt once the debtor has the cash (or, in the vintage rules, partly in deeds:
    `pay Carla --with "Viale Vesuvio=13000"`)."""


@table_command("undo")
def undo():
    """Take back the last command (an EventRetracted fact; nothing is erased)."""
