"""A banker's commands: what was typed, with names already resolved to canonical ones."""

from __future__ import annotations

from typing import NamedTuple


class Roll(NamedTuple):
    dice: tuple[int, ...]
    player: str | None = None  # --player: check whose turn it is
    speedy: str | None = None  # the Speedy die (000): "1" "2" "3" "bus" "mr", or not thrown


class BusMove(NamedTuple):
    """`move N`: the Bus of the Speedy die, by one numbered die or both (000 FAQ 38)."""
    spaces: int
    player: str | None = None


class GoTo(NamedTuple):
    """`go SPACE`: a triple of the Speedy die takes the token to any space (000 FAQ 36-37)."""
    position: int
    player: str | None = None


class Advance(NamedTuple):
    """`advance`: Mr Monopoly's second move (000 §SVOLGIMENTO 3, FAQ 39-42)."""
    player: str | None = None


class Buy(NamedTuple):
    player: str | None = None


class Decline(NamedTuple):
    player: str | None = None


class Bid(NamedTuple):
    bidder: str
    amount: int


class Hammer(NamedTuple):
    lot: int | None = None  # where the winner of a building auction puts the building
    player: str | None = None  # nobody bid and the richest are tied: the banker says who


class Claim(NamedTuple):
    owner: str


class DrawCard(NamedTuple):
    deck: str
    number: int
    choice: str | None = None  # "pay" or "draw", for a card that offers the choice
    player: str | None = None


class Misdraw(NamedTuple):
    """A card turned by mistake: shown, then under its deck without effect (000 FAQ 18)."""
    deck: str
    number: int


class Shuffle(NamedTuple):
    """The physical deck was mixed: its order is unknown again."""
    deck: str


class PayFine(NamedTuple):
    player: str | None = None


class UseCard(NamedTuple):
    player: str | None = None


class PayDebt(NamedTuple):
    debtor: str | None = None


class Build(NamedTuple):
    property: int
    count: int = 1
    player: str | None = None


class Sell(NamedTuple):
    property: int
    count: int = 1
    whole_group: bool = False  # `sell PROPERTY all`: every building of the group at once
    player: str | None = None


class BuildTo(NamedTuple):
    """`build GROUP N`, `build PROPERTY... --to N`: evenly up to a level, as one fact."""
    properties: tuple[int, ...]
    level: int  # houses, or 5 for a hotel
    player: str | None = None


class SellTo(NamedTuple):
    """`sell GROUP N`, `sell PROPERTY... --to N`: evenly down to a level, as one fact."""
    properties: tuple[int, ...]
    level: int
    player: str | None = None


class BreakUp(NamedTuple):
    properties: tuple[int, ...]  # hotels broken up at the same time (000 FAQ 29)


class Mortgage(NamedTuple):
    property: int
    player: str | None = None


class Unmortgage(NamedTuple):
    property: int
    player: str | None = None


class Items(NamedTuple):
    properties: tuple[int, ...] = ()
    cash: int = 0
    jail_cards: int = 0


class Trade(NamedTuple):
    a: str
    b: str
    a_gives: Items
    b_gives: Items
    lift: tuple[int, ...] = ()  # mortgaged deeds the receiver frees at once


class Bankrupt(NamedTuple):
    debtor: str | None = None
    lift: tuple[int, ...] = ()  # mortgaged deeds the creditor frees at once (004 §Fallimento)


class BuildingAuction(NamedTuple):
    kind: str  # house | hotel
    wanted: tuple[tuple[str, int], ...] = ()  # who wants how many, said before (000 FAQ 30)


class Deal(NamedTuple):
    """Deeds dealt by lot and paid at once, before the first roll (002 §Preparazione; 004 short
    and timed games): the physical deck is shuffled at the table, banco records the deal."""
    player: str
    properties: tuple[int, ...]


class TimeUp(NamedTuple):
    """The agreed time has run out (000 FAQ 6, 002 §Conclusione del gioco, 004 timed game)."""
    at: str  # when, as the banker's clock read it (ISO, UTC): decide reads no clock


class PayInKind(NamedTuple):
    """A debtor pays partly in deeds, each at the price the creditor puts on it (002 §Varie)."""
    deeds: tuple[tuple[int, int], ...]  # (property, price)
    debtor: str | None = None


class AuctionDeed(NamedTuple):
    """A debtor who finds the creditor's price unfair auctions the deed among the others, for
    himself (002 §Varie)."""
    property: int


Command = (Roll | BusMove | GoTo | Advance | Buy | Decline | Bid | Hammer | Claim | DrawCard
           | Misdraw | Shuffle | PayFine | UseCard | PayDebt | Build | Sell | BuildTo | SellTo
           | BreakUp | Mortgage | Unmortgage | Trade | Bankrupt | BuildingAuction
           | Deal | TimeUp | PayInKind | AuctionDeed)


# --- the referee ----------------------------------------------------------------------------
# A referee's words are facts like the banker's (DESIGN.md: a correction never edits the past):
# decided by ledger/rules/referee.py, recorded with the referee's name.

class CorrectCash(NamedTuple):
    player: str
    amount: int  # signed: positive from the Bank to the player, negative back to the Bank
    reason: str
    referee: str


class CorrectPosition(NamedTuple):
    player: str
    position: int
    reason: str
    referee: str


class CorrectOwner(NamedTuple):
    property: int
    owner: str | None  # None: back to the Bank
    reason: str
    referee: str


class RecordRuling(NamedTuple):
    """A ruling kept as a fact: its verdict's code and parameters (ledger/records/verdicts.py),
    the facts it rests on and the sections it cites, never its words.  A command recorded by
    an older banco held the verdict and the whole ruling in English (`verdict` a sentence,
    `text`): decided as the upcaster reads the fact it gave (ledger/records/verdict_prose.py)."""
    kind: str  # rent | auction | bankruptcy | jail
    subject: int  # the seq the ruling is about
    verdict: dict | str  # {"code": ..., params}; an older command's: its English
    referee: str
    evidence: dict | None = None  # seqs, players, amounts, squares the ruling rests on
    rule: str | None = None  # the rulebook sections it cites (`000 FAQ 7; 003 §10`)
    text: str | None = None  # an older command's whole ruling in English


class Seal(NamedTuple):
    """A referee's signature on the game's head (ledger/records/seals.py): worked out by `banco seal`
    from the key file, the head it signs and the game's identity, then decided like any
    command (the table records it as SealRecorded)."""
    seq: int  # the event whose hash is signed: the last before this command
    head: str
    game_uuid: str | None
    public_key: str  # hex, 32 bytes
    signature: str  # hex, 64 bytes
    referee: str


RefereeCommand = CorrectCash | CorrectPosition | CorrectOwner | RecordRuling | Seal
Command = Command | RefereeCommand
