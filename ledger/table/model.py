"""The table as a value: the named tuples a fold step copies, and the few changes every
handler of the fold makes (a player's fields, a transfer, one square)."""

from __future__ import annotations

from typing import NamedTuple

from banco.ledger.board.edition import Edition
from banco.ledger.board.rule_sets import RuleSet

BANK = "bank"


class Player(NamedTuple):
    name: str
    cash: int = 0
    position: int = 0
    in_jail: bool = False
    jail_turns: int = 0
    jail_cards: tuple = ()  # ((deck, number), ...)
    bankrupt: bool = False
    passed_go: bool = False  # has passed Via! at least once: rolls the Speedy die (000 FAQ 34)


class Claim(NamedTuple):
    payer: str
    owner: str
    property: int
    amount: int
    opened_seq: int
    closer: str  # whose roll closes the window
    basis: str  # how the amount was worked out, for the referee
    lapsed_seq: int = 0
    landed_seq: int = 0  # the TokenMoved that landed the payer: the evidence of the claim
    made_seq: int = 0  # claimed while another roll's turn was in progress: paid after it
    settle_after: str = ""  # whose turn must end first (000 FAQ 8)


class Auction(NamedTuple):
    property: int | None  # the deed, or None for a building auction
    min_bid: int
    step: int
    high_bidder: str | None = None
    high_bid: int = 0
    bids: int = 0
    kind: str = "deed"  # deed | house | hotel
    resume: str = "moving"  # the turn's phase once the auctions are over
    excluded: tuple = ()  # winners who could not pay, kept out of the new auction (000)
    wanted: tuple = ()  # building auctions: ((player, still wanted), ...) (000 FAQ 30)
    seller: str | None = None  # a debtor auctioning his own deed: the winner pays him (002)


class Debt(NamedTuple):
    debtor: str
    creditor: str
    amount: int
    reason: dict  # a code and its parameters (ledger/records/reasons.py)
    seq: int


class DeckOrder(NamedTuple):
    """What the table knows of a card deck's order (003 §09: a drawn card goes to the bottom).

    Since the deck was last mixed, the cards never seen lie on top in an order nobody knows;
    under them, in the order they went there, the cards put back at the bottom.  Once every
    card has been seen the whole order is known.  Held jail cards are in neither part."""
    unseen: frozenset  # numbers on top, order unknown
    known: tuple = ()  # ((number, seq at which it went to the bottom), ...), top to bottom


class Turn(NamedTuple):
    player: str
    # roll | buy | auction | card | choice | throw | jail_exit | over, and with the Speedy die
    # (000 §SVOLGIMENTO 3): move (a Bus: `move N`), go (a triple: `go SPACE`), advance (Mr
    # Monopoly's second move: `advance`)
    phase: str = "roll"
    doubles: int = 0  # doubles in a row this turn
    dice: tuple = ()
    extra_roll: bool = False
    offer: int | None = None  # property offered for purchase
    card_deck: str | None = None  # deck the player must draw from
    card_choice: tuple | None = None  # (deck, number) of a "pay or draw" card awaiting the choice
    card_throw: tuple | None = None  # phase "throw": (multiplier, landed seq): the rent is
    # that many times a fresh throw, and the claim points at that landing
    # The Speedy die's face while it counts for this roll: "mr" until Mr Monopoly's move is
    # made (then None: the move is used, the throw it leaves counts the Speedy die as zero).
    speedy: str | None = None


class State(NamedTuple):
    game_id: int
    seq: int
    rules: RuleSet
    edition: Edition
    seats: tuple  # player names in seating order
    # name -> seat (never changes after GameStarted).  The field shadows tuple.index, which
    # nothing calls on a State: mypy objects to the override, the runtime value is the field.
    index: dict  # type: ignore[assignment]
    players: tuple
    owners: tuple  # 40 entries: owner name or None
    mortgaged: frozenset
    buildings: tuple  # 40 entries: 0-4 houses, 5 = hotel
    bank_houses: int
    bank_hotels: int
    turn: Turn
    claims: tuple  # open rent claims
    lapsed: tuple  # claims whose window closed, kept as evidence
    auction: Auction | None
    debts: tuple
    held_cards: dict  # (deck, number) -> holder
    bank_paid_out: int  # net money the bank has paid to players
    ended: bool = False
    winner: str | None = None
    auction_queue: tuple = ()  # deeds of a player bankrupt to the bank, auctioned one by one
    eliminated: tuple = ()  # bankrupt players, in the order they went out
    decks: dict = {}  # deck name -> DeckOrder
    dealt: dict = {}  # name -> deeds dealt before the first roll (002, 004 short and timed)
    final: bool = False  # a championship final or semi-final (000 FAQ 31 does not apply)
    time_up: tuple = ()  # (at, how the game ends): the time limit ran out (000 FAQ 6, 002)
    end_rule: str = ""  # the section that ended the game, for the refusals after it
    last_roll: tuple = ()  # (player, seq) of the last DiceRolled: whose turn it has been
    since_roll: frozenset = frozenset()  # deeds mortgaged since then (000 FAQ 32)

    def player(self, name: str) -> Player:
        return self.players[self.index[name]]

    @property
    def current(self) -> Player:
        return self.players[self.index[self.turn.player]]

    def active(self) -> list[str]:
        return [p.name for p in self.players if not p.bankrupt]


def _fast_replace(cls):
    """A `_replace` for a named tuple that copies by position: the fold spends most of its
    time here, and the generic one calls a Python-level pop for every field."""
    positions = {f: i for i, f in enumerate(cls._fields)}
    new = tuple.__new__

    def _replace(self, **changes):
        values = list(self)
        for key, value in changes.items():
            values[positions[key]] = value
        return new(cls, values)

    cls._replace = _replace


for _cls in (State, Player, Turn):
    _fast_replace(_cls)


def with_seq(state: State, seq: int) -> State:
    """`state._replace(seq=seq)`, the one change made after every event of a command: by
    position, without the keyword dict and the loop."""
    values = list(state)
    values[1] = seq
    return _new_tuple(State, values)


_new_tuple = tuple.__new__


def set_player(state: State, name: str, **changes) -> State:
    i = state.index[name]
    players = state.players
    new = players[i]._replace(**changes)
    return state._replace(players=players[:i] + (new,) + players[i + 1:])


def transfer(state: State, d: dict) -> State:
    # One _replace per transfer: the fold's hot path (DESIGN.md: >= 200,000 events/s).
    payer, payee, amount = d["payer"], d["payee"], d["amount"]
    players = state.players
    index = state.index
    paid_out = state.bank_paid_out
    # The copies by position (Player's cash is its field 1), without _replace's keywords
    if payer == BANK:
        paid_out += amount
    else:
        i = index[payer]
        p = list(players[i])
        p[1] -= amount
        players = players[:i] + (_new_tuple(Player, p),) + players[i + 1:]
    if payee == BANK:
        paid_out -= amount
    else:
        i = index[payee]
        p = list(players[i])
        p[1] += amount
        players = players[:i] + (_new_tuple(Player, p),) + players[i + 1:]
    values = list(state)
    values[_PLAYERS], values[_PAID_OUT] = players, paid_out
    return _new_tuple(State, values)


_PLAYERS, _PAID_OUT = State._fields.index("players"), State._fields.index("bank_paid_out")
assert Player._fields[1] == "cash"


def set_at(t: tuple, i: int, value) -> tuple:
    return t[:i] + (value,) + t[i + 1:]
