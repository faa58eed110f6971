"""A banker's commands: what was typed, with names already resolved to canonical ones."""

from __future__ import annotations

from typing import NamedTuple


class Roll(NamedTuple):
    dice: tuple[int, ...]
    player: str | None = None  # --player: check whose turn it is


class Buy(NamedTuple):
    player: str | None = None


class Decline(NamedTuple):
    player: str | None = None


class Bid(NamedTuple):
    bidder: str
    amount: int


class Hammer(NamedTuple):
    pass


class Claim(NamedTuple):
    owner: str


class DrawCard(NamedTuple):
    deck: str
    number: int
    choice: str | None = None  # "pay" or "draw", for a card that offers the choice
    player: str | None = None


class PayFine(NamedTuple):
    player: str | None = None


class UseCard(NamedTuple):
    player: str | None = None


class PayDebt(NamedTuple):
    debtor: str | None = None


Command = (Roll | Buy | Decline | Bid | Hammer | Claim | DrawCard | PayFine | UseCard
           | PayDebt)
