"""What a fact read back from a log can hold: the ranges a command could have recorded.

The schemas (ledger/records/events.py) are marshmallow's, loaded where a row crosses a
boundary that pays for them (an append, the audit); a reading folds rows as they are.  A row
edited and its chain recomputed over it (issue 32) then reached the table with a square 45, a
turn passed to a player who is not at it, a card no deck holds, and a reading died later in
a lookup.  This is the fold's cheap check of the fields that name something on the table:
each is read once per row, with no schema, against the table the row is folded onto (its
seats, its decks).  The audit keeps its own pass (marshmallow's schemas, each command
decided again); a test holds this table to the schemas' ranges (tests/test_fact_bounds.py).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from datetime import datetime
from operator import itemgetter
from typing import Any

from banco.ledger.base.text import Text, msg

BANK = "bank"  # the Bank's account, as every transfer names it (ledger/table/model.py)

# The kinds of field, each a range a command's fact keeps to.
PLAYER = 1  # a seat of the table
ACCOUNT = 2  # a seat, or the Bank
SQUARE = 3  # a square of the board, 0 to 39
SQUARE_OR_NONE = 4  # a building auction has no deed
SQUARES = 5  # a list of squares
DICE = 6  # a list of faces, 1 to 6
COUNT = 7  # an integer >= 0 (money, seqs, levels, attempts)
DELTA = 8  # an integer of any sign (the Bank's houses a sale takes back)
DECK = 9  # a deck of the edition
PLAYER_OR_NONE = 10  # a game ended with no winner; an auction with no seller
PLAYERS = 11  # a list of seats
TIME = 12  # an ISO time
LOTS = 13  # [{property, level[, player]}]
TRANSFERS = 14  # [{payer, payee, amount}]
SIDE = 15  # a trade's side: {properties, cash, jail_cards}
CARDS = 16  # [[deck, number]]
DEEDS = 17  # [{property, price}]
CARD = 18  # a card's number, one its deck holds (the row's `deck`)
SEQS = 19  # a list of seqs, each >= 1

_TRANSFER = (("payer", ACCOUNT), ("payee", ACCOUNT), ("amount", COUNT))
_CLAIM = (("owner", PLAYER), ("payer", PLAYER), ("property", SQUARE), ("amount", COUNT))
_OWNED = (("player", PLAYER), ("property", SQUARE))
_CARD = (("deck", DECK), ("number", CARD))

# The fields of each type that name something on the table.  A type not here names nothing the
# table looks up (CommandRecorded, RulingRecorded, SealRecorded): folded as it is.
FIELDS: dict[str, tuple] = {
    "CashIssued": _TRANSFER,
    "DiceRolled": (("player", PLAYER), ("dice", DICE), ("in_row", COUNT)),
    "SpeedyMoveDue": (("player", PLAYER),),
    "SpeedyMoveChosen": (("player", PLAYER), ("to", SQUARE), ("spaces", COUNT)),
    "TokenMoved": (("player", PLAYER), ("from", SQUARE), ("to", SQUARE)),
    "SalaryPaid": _TRANSFER,
    "PurchaseOffered": (*_OWNED, ("price", COUNT)),
    "PropertyBought": (*_TRANSFER, *_OWNED),
    "PropertyDeclined": _OWNED,
    "AuctionOpened": (("property", SQUARE), ("min_bid", COUNT), ("step", COUNT),
                      ("seller", PLAYER_OR_NONE), ("excluded", PLAYERS)),
    "AuctionVoided": (("player", PLAYER), ("property", SQUARE_OR_NONE), ("amount", COUNT)),
    "BidPlaced": (("player", PLAYER), ("property", SQUARE_OR_NONE), ("amount", COUNT)),
    "AuctionWon": (*_TRANSFER, *_OWNED),
    "AuctionClosed": (("property", SQUARE_OR_NONE), ("winner", PLAYER_OR_NONE)),
    "BuildingAuctionOpened": (("min_bid", COUNT), ("step", COUNT), ("excluded", PLAYERS)),
    "HouseBuilt": (*_TRANSFER, *_OWNED, ("level", COUNT), ("bank_houses", DELTA),
                   ("bank_hotels", DELTA)),
    "HotelBuilt": (*_TRANSFER, *_OWNED, ("level", COUNT), ("bank_houses", DELTA),
                   ("bank_hotels", DELTA)),
    "BuildingSold": (*_TRANSFER, *_OWNED, ("level", COUNT), ("bank_houses", DELTA),
                     ("bank_hotels", DELTA)),
    "BuildingsSold": (*_TRANSFER, ("player", PLAYER), ("properties", SQUARES), ("lots", LOTS),
                      ("bank_houses", DELTA), ("bank_hotels", DELTA)),
    "BuildingsBuilt": (*_TRANSFER, ("player", PLAYER), ("lots", LOTS), ("bank_houses", DELTA),
                       ("bank_hotels", DELTA)),
    "HotelsBrokenUp": (("lots", LOTS), ("bank_houses", DELTA), ("bank_hotels", DELTA),
                       ("transfers", TRANSFERS)),
    "PropertyMortgaged": (*_TRANSFER, *_OWNED),
    "MortgageLifted": (*_TRANSFER, *_OWNED),
    "MortgageInterestPaid": (*_TRANSFER, *_OWNED),
    "MortgageReverted": (*_TRANSFER, *_OWNED),
    "TradeCompleted": (("a", PLAYER), ("b", PLAYER), ("a_gives", SIDE), ("b_gives", SIDE),
                       ("transfers", TRANSFERS)),
    "EstateTransferred": (*_TRANSFER, ("debtor", PLAYER), ("creditor", ACCOUNT),
                          ("properties", SQUARES), ("jail_cards", CARDS)),
    "BankruptcyDeclared": (("player", PLAYER), ("creditor", ACCOUNT)),
    "DebtCancelled": (("debtor", PLAYER), ("creditor", ACCOUNT), ("amount", COUNT),
                      ("debt_seq", COUNT)),
    "RentClaimOpened": (*_CLAIM, ("closer", PLAYER)),
    "RentClaimLapsed": (*_CLAIM, ("opened_seq", COUNT)),
    "RentPaid": (*_TRANSFER, ("property", SQUARE), ("opened_seq", COUNT)),
    "RentClaimRefused": (*_CLAIM, ("opened_seq", COUNT), ("lapsed_seq", COUNT)),
    "RentClaimDeferred": (*_CLAIM, ("opened_seq", COUNT), ("settles_after", PLAYER)),
    "RentNotDue": (("payer", PLAYER), ("owner", PLAYER), ("property", SQUARE)),
    "TaxPaid": _TRANSFER,
    "CardDrawRequired": (("player", PLAYER), ("deck", DECK)),
    "CardDrawn": (("player", PLAYER), *_CARD),
    "CardChoiceRequired": (("player", PLAYER), *_CARD),
    "CardMisdrawn": _CARD,
    "DeckShuffled": (("deck", DECK),),
    "CardPayment": (*_TRANSFER, *_CARD),
    "CardThrowRequired": (*_OWNED, ("owner", PLAYER), ("multiplier", COUNT), *_CARD,
                          ("landed_seq", COUNT)),
    "CardDiceThrown": (("player", PLAYER), ("dice", DICE), ("property", SQUARE)),
    "JailCardKept": (("player", PLAYER), *_CARD),
    "JailCardUsed": (("player", PLAYER), *_CARD),
    "SentToJail": (("player", PLAYER),),
    "JailRollFailed": (("player", PLAYER), ("attempt", COUNT)),
    "LeftJail": (("player", PLAYER),),
    "FinePaid": _TRANSFER,
    "DebtIncurred": (("debtor", PLAYER), ("creditor", ACCOUNT), ("amount", COUNT)),
    "DebtPaid": (*_TRANSFER, ("debt_seq", COUNT)),
    "ExtraRollDue": (("player", PLAYER), ("in_row", COUNT)),
    "JailExitDue": (("player", PLAYER), ("fine", COUNT), ("spaces", COUNT)),
    "TurnEnded": (("player", PLAYER), ("next", PLAYER)),
    "GameEnded": (("winner", PLAYER_OR_NONE),),
    "DeedsDealt": (*_TRANSFER, ("player", PLAYER), ("properties", SQUARES)),
    "TimeRanOut": (("at", TIME),),
    "BuildingsReturned": (("player", PLAYER), ("properties", SQUARES), ("bank_houses", COUNT),
                          ("bank_hotels", COUNT)),
    "DebtPaidByBank": (*_TRANSFER, ("debtor", PLAYER), ("debt_seq", COUNT)),
    "DebtPaidInKind": (*_TRANSFER, ("debt_seq", COUNT), ("deeds", DEEDS)),
    "EventRetracted": (("seqs", SEQS),),
    "CashCorrected": (("player", PLAYER), ("payer", ACCOUNT), ("payee", ACCOUNT),
                      ("amount", COUNT)),
    "PositionCorrected": (("player", PLAYER), ("from", SQUARE), ("to", SQUARE)),
    "OwnerCorrected": (("property", SQUARE), ("from", ACCOUNT), ("to", ACCOUNT)),
}
# Optional fields (older logs lack them): absent is no fault, None is one unless allowed.
OPTIONAL = frozenset({("AuctionOpened", "seller"), ("AuctionOpened", "excluded"),
                      ("AuctionClosed", "winner"), ("BuildingAuctionOpened", "excluded"),
                      ("BuildingsSold", "lots"),
                      # required by the schema; the fold reads a row without it (`d.get`)
                      ("CardThrowRequired", "landed_seq")})

MISSING = object()  # a field the row does not have
_LISTS = (list, tuple)  # rows folded as an append wrote them hold tuples, read back lists


def _is_time(v: Any) -> bool:
    try:
        datetime.fromisoformat(v.replace("Z", "+00:00"))
    except (AttributeError, TypeError, ValueError):
        return False
    return True


_BOARD = frozenset(range(40))
_FACES = frozenset(range(1, 7))
_INT = frozenset({int})  # a bool or a float hashes as an int does: its type is looked at too
_INTS = _INT.issuperset
def _ints(values: tuple) -> bool:
    return _INT.issuperset(map(type, values))


def _squares(values: tuple) -> bool:
    return _BOARD.issuperset(values) and _INT.issuperset(map(type, values))


def _counts(values: tuple) -> bool:
    return _INT.issuperset(map(type, values)) and min(values) >= 0


def _square(v: Any) -> bool:
    return type(v) is int and 0 <= v <= 39


def _count(v: Any) -> bool:
    return type(v) is int and v >= 0


def _delta(v: Any) -> bool:
    return type(v) is int


def _dice(v: Any) -> bool:
    return type(v) in _LISTS and 1 <= len(v) <= 3 and _FACES.issuperset(v) \
        and _INT.issuperset(map(type, v))


def _joined(steps: list) -> Callable[[dict], bool]:
    """One closure of a few (getter, test) steps: the fold calls one function a row."""
    if len(steps) == 1:
        (g1, t1), = steps
        return lambda d: t1(g1(d))
    if len(steps) == 2:
        (g1, t1), (g2, t2) = steps
        return lambda d: t1(g1(d)) and t2(g2(d))
    if len(steps) == 3:
        (g1, t1), (g2, t2), (g3, t3) = steps
        return lambda d: t1(g1(d)) and t2(g2(d)) and t3(g3(d))
    return lambda d: all(t(g(d)) for g, t in steps)


def written_out(seats: frozenset, accounts: frozenset, decks: frozenset,
                cards: frozenset) -> dict[str, Callable[[dict], bool]]:
    """The checks of the types most rows are (a game's dice, moves, turns, rents, salaries,
    cards), written out: each field's test inline, one Python frame a row, where the generic
    plan calls a test per kind (tests/test_fact_bounds_written.py holds each to
    `fault`, field by field).  `seats`, `accounts`, `decks`: the names a field may hold;
    `cards`: (deck, number) of every card of the edition."""

    def transfer(d: dict) -> bool:  # _TRANSFER
        return d["payer"] in accounts and d["payee"] in accounts \
            and type(a := d["amount"]) is int and a >= 0

    def owned(d: dict) -> bool:  # _TRANSFER and _OWNED
        return d["payer"] in accounts and d["payee"] in accounts \
            and type(a := d["amount"]) is int and a >= 0 and d["player"] in seats \
            and type(p := d["property"]) is int and 0 <= p <= 39

    def claim(d: dict) -> bool:  # _CLAIM
        return d["owner"] in seats and d["payer"] in seats \
            and type(p := d["property"]) is int and 0 <= p <= 39 \
            and type(a := d["amount"]) is int and a >= 0

    def card(d: dict) -> bool:  # _CARD
        return (d["deck"], n := d["number"]) in cards and type(n) is int

    def dice_rolled(d: dict) -> bool:
        v = d["dice"]
        if type(v) in _LISTS and len(v) == 2:  # two dice: each face's test inline
            a, b = v
            faces = type(a) is type(b) is int and 0 < a < 7 and 0 < b < 7
        else:
            faces = _dice(v)
        return faces and d["player"] in seats and type(n := d["in_row"]) is int and n >= 0

    def token_moved(d: dict) -> bool:
        return d["player"] in seats and type(f := d["from"]) is int and 0 <= f <= 39 \
            and type(t := d["to"]) is int and 0 <= t <= 39

    def turn_ended(d: dict) -> bool:
        return d["player"] in seats and d["next"] in seats

    def player(d: dict) -> bool:
        return d["player"] in seats

    def counted(key: str) -> Callable[[dict], bool]:  # a player and one count
        def check(d: dict) -> bool:
            return d["player"] in seats and type(n := d[key]) is int and n >= 0
        return check

    def claim_opened(d: dict) -> bool:
        return claim(d) and d["closer"] in seats

    def claim_lapsed(d: dict) -> bool:
        return claim(d) and type(s := d["opened_seq"]) is int and s >= 0

    def rent_paid(d: dict) -> bool:
        return transfer(d) and type(p := d["property"]) is int and 0 <= p <= 39 \
            and type(s := d["opened_seq"]) is int and s >= 0

    def purchase_offered(d: dict) -> bool:
        return d["player"] in seats and type(p := d["property"]) is int and 0 <= p <= 39 \
            and type(n := d["price"]) is int and n >= 0

    def declined(d: dict) -> bool:
        return d["player"] in seats and type(p := d["property"]) is int and 0 <= p <= 39

    def bid_placed(d: dict) -> bool:
        return d["player"] in seats \
            and ((p := d["property"]) is None or type(p) is int and 0 <= p <= 39) \
            and type(a := d["amount"]) is int and a >= 0

    def building(d: dict) -> bool:  # a house or a hotel built or sold
        return owned(d) and type(n := d["level"]) is int and n >= 0 \
            and type(d["bank_houses"]) is int and type(d["bank_hotels"]) is int

    return {
        "DiceRolled": dice_rolled, "TokenMoved": token_moved, "TurnEnded": turn_ended,
        "ExtraRollDue": counted("in_row"), "JailRollFailed": counted("attempt"),
        "SentToJail": player, "LeftJail": player,
        "RentClaimOpened": claim_opened, "RentClaimLapsed": claim_lapsed, "RentPaid": rent_paid,
        "CashIssued": transfer, "SalaryPaid": transfer, "TaxPaid": transfer,
        "FinePaid": transfer,
        "CardDrawRequired": lambda d: d["player"] in seats and d["deck"] in decks,
        "CardDrawn": lambda d: d["player"] in seats and card(d),
        "CardPayment": lambda d: transfer(d) and card(d),
        "PurchaseOffered": purchase_offered, "PropertyDeclined": declined,
        "PropertyBought": owned, "AuctionWon": owned, "PropertyMortgaged": owned,
        "MortgageLifted": owned, "MortgageInterestPaid": owned, "BidPlaced": bid_placed,
        "HouseBuilt": building, "HotelBuilt": building, "BuildingSold": building,
        "CommandRecorded": _is_dict,
    }


class Bounds:
    """The ranges of one table's facts: its seats and its decks.  A fold asks it of every row
    it folds, so each type's check is made once a table, one closure of C-level set tests
    over the row's values taken at once (the fold's speed: tests/test_fact_bounds.py)."""

    __slots__ = ("accounts", "decks", "plans", "seats")

    def __init__(self, seats: Iterable[str], decks: Mapping) -> None:
        self.seats = frozenset(seats)
        self.accounts = self.seats | {BANK}
        self.decks = decks
        # the most frequent types' checks written out; the others' made when first asked
        self.plans: dict[str, Callable[[dict], bool]] = written_out(
            self.seats, self.accounts, frozenset(decks),
            frozenset((k, c.number) for k, deck in decks.items() for c in deck.cards))

    @classmethod
    def of(cls, seats: tuple[str, ...], decks: Mapping) -> Bounds:
        """The Bounds of a game's seats and decks, built once: a server catching up a few
        rows (ledger/held_tables.py fold_onto) asked for a new one every time, its written-out
        checks and the set of every card made again.  A Bounds is only read (its `plans`
        filled once a type, the same closure whoever fills it), so one serves every fold of
        those seats and decks; keyed by the decks' identity, the decks themselves kept so
        that an id is never taken for another's."""
        key = (tuple(seats), id(decks))
        found = _MADE.get(key)
        if found is None or found.decks is not decks:
            if len(_MADE) >= 64:  # a process serving many games: the oldest made again
                _MADE.clear()
            found = _MADE[key] = cls(seats, decks)
        return found

    def plan(self, type_: str) -> Callable[[dict], bool]:
        """A type's check: its fields' values taken by kind and tested together; the fields
        of other kinds (cards, lots, optional ones) one by one after them."""
        spec = FIELDS.get(type_)
        if spec is None:  # a type that names nothing on the table
            plan = self.plans[type_] = _is_dict
            return plan
        # kind -> (the test of one value, the test of a tuple of them): C's where there is one
        tests = {PLAYER: (self.seats.__contains__, self.seats.issuperset),
                 ACCOUNT: (self.accounts.__contains__, self.accounts.issuperset),
                 SQUARE: (_square, _squares), COUNT: (_count, _counts), DELTA: (_delta, _ints),
                 DICE: (_dice, None)}
        steps = []
        for kind, (one, many) in tests.items():
            keys = [k for k, kk in spec if kk is kind and (type_, k) not in OPTIONAL]
            if len(keys) == 1 or (keys and many is None):
                steps.extend((itemgetter(k), one) for k in keys)
            elif keys:
                steps.append((itemgetter(*keys), many))
        rest = tuple((k, kind) for k, kind in spec
                     if kind not in tests or (type_, k) in OPTIONAL)
        if rest:
            steps.append((_identity, lambda d: fault(type_, d, self.seats, self.decks) is None))
        plan = self.plans[type_] = _joined(steps)
        return plan

    def fits(self, type_: str, data: Any) -> bool:
        """Whether every field of a row's data is in its range (False: `fault` names it)."""
        plan = self.plans.get(type_) if type(type_) is str else _never
        try:
            return (plan or self.plan(type_))(data)
        except (AttributeError, KeyError, TypeError, ValueError):  # a field lacking, a list
            return False

    def fault(self, type_: str, data: Any) -> tuple[str, Any] | None:
        """(field, value) of the first field no command could have recorded, or None."""
        if self.fits(type_, data):
            return None
        return fault(type_, data, self.seats, self.decks)


_MADE: dict[tuple, Bounds] = {}


def _never(data: Any) -> bool:  # a type that is no string: no fact at all
    return False


def _is_dict(data: Any) -> bool:
    return type(data) is dict


def _identity(data: Any) -> Any:
    return data


def fault(type_: str, data: Any, seats: Collection, decks: Mapping) -> tuple[str, Any] | None:
    """(field, value) of the first field of a row's data that no command could have recorded
    on this table, or None: `Bounds.fault`'s slow path, which names the field.  `seats`: the
    table's players; `decks`: the edition's decks (a key -> deck whose `cards` have a
    `number`).  A field this table does not know is the schema's (the audit's) to judge."""
    spec = FIELDS.get(type_)
    if spec is None:
        return None if type(data) is dict else ("data", data)
    if type(data) is not dict:
        return "data", data
    for key, kind in spec:
        v = data.get(key, MISSING)
        if v is MISSING:
            if (type_, key) in OPTIONAL:
                continue
            return key, v
        if not _fits(v, kind, seats, decks, data):
            return key, v
    return None


def _fits(v: Any, kind: Any, seats: Collection, decks: Mapping, data: dict) -> bool:  # noqa: C901
    if kind is DICE:
        return _dice(v)
    if kind is PLAYER:
        return type(v) is str and v in seats
    if kind is ACCOUNT:
        return type(v) is str and (v == BANK or v in seats)
    if kind is SQUARE:
        return type(v) is int and 0 <= v <= 39
    if kind is COUNT:
        return type(v) is int and v >= 0
    if kind is DELTA:
        return type(v) is int
    if kind is DECK:
        return type(v) is str and v in decks
    if kind is CARD:
        deck = decks.get(data.get("deck")) if type(data.get("deck")) is str else None
        return type(v) is int and deck is not None and any(c.number == v for c in deck.cards)
    if kind is SQUARE_OR_NONE:
        return v is None or _square(v)
    if kind is PLAYER_OR_NONE:
        return v is None or (type(v) is str and v in seats)
    if kind is SQUARES:
        return type(v) in _LISTS and all(_square(x) for x in v)
    if kind is PLAYERS:
        return type(v) in _LISTS and all(type(x) is str and x in seats for x in v)
    if kind is TIME:
        return _is_time(v)
    if kind is LOTS:
        return type(v) in _LISTS and all(
            type(x) is dict and _square(x.get("property")) and _count(x.get("level"))
            and ("player" not in x or (type(x["player"]) is str and x["player"] in seats))
            for x in v)
    if kind is TRANSFERS:
        return type(v) in _LISTS and all(
            type(t) is dict and all(_fits(t.get(k, MISSING), kk, seats, decks, t)
                                    for k, kk in _TRANSFER) for t in v)
    if kind is SIDE:
        return type(v) is dict and _fits(v.get("properties", MISSING), SQUARES, seats, decks, v) \
            and _count(v.get("cash")) and _fits(v.get("jail_cards", MISSING), CARDS, seats,
                                                decks, v)
    if kind is CARDS:
        return type(v) in _LISTS and all(
            type(c) in _LISTS and len(c) == 2
            and _fits(c[1], CARD, seats, decks, {"deck": c[0]}) for c in v)
    if kind is DEEDS:
        return type(v) in _LISTS and all(
            type(x) is dict and _square(x.get("property")) and _count(x.get("price")) for x in v)
    if kind is SEQS:
        return type(v) in _LISTS and all(type(x) is int and x >= 1 for x in v)
    raise AssertionError(f"no such kind of field: {kind!r}")


def shown(value: Any) -> str:
    """A field's value as a refusal names it: short, whatever it is."""
    return "missing" if value is MISSING else repr(value)[:60]


def why(field: str, value: Any, seats: Collection) -> Text:
    """Why a field is no fact the table can take, for the fold's refusal."""
    if type(value) is str and field != "data" and value not in seats and value != BANK:
        return msg("its {field} names {name}, who is not at the table", field=field,
                   name=shown(value))
    return msg("its {field} is {value}, which no command records on this table", field=field,
               value=shown(value))
