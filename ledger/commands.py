"""A banker's commands: what was typed, with names already resolved to canonical ones."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Roll:
    dice: tuple[int, ...]
    player: str | None = None  # --player: check whose turn it is


@dataclass(frozen=True)
class Buy:
    player: str | None = None


@dataclass(frozen=True)
class Decline:
    player: str | None = None


@dataclass(frozen=True)
class Bid:
    bidder: str
    amount: int


@dataclass(frozen=True)
class Hammer:
    pass


@dataclass(frozen=True)
class Claim:
    owner: str


@dataclass(frozen=True)
class DrawCard:
    deck: str
    number: int
    choice: str | None = None  # "pay" or "draw", for a card that offers the choice
    player: str | None = None


@dataclass(frozen=True)
class PayFine:
    player: str | None = None


@dataclass(frozen=True)
class UseCard:
    player: str | None = None


@dataclass(frozen=True)
class PayDebt:
    debtor: str | None = None


Command = Roll | Buy | Decline | Bid | Hammer | Claim | DrawCard | PayFine | UseCard | PayDebt
