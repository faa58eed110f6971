"""Older rows read as today's facts: an upcaster per event type and schema version.

A stored row never changes (the chain hashes its text), so a fact written before schema
version 2, with the English sentence older bancos recorded as its reason, is read through the
upcaster of its type and version: the sentence becomes the code and parameters it was written
from (ledger/records/reasons.py), the rest of the data is left as it is.  As eventsourcing's
`upcast_v1_v2`: the row's bytes, and so its hash, stay what they were.

Rows are upcast where facts are read: the book's readings (ledger/book.py), the audit
(projections/audit/), and a reason met on its own (a debt kept in an older snapshot's table,
a reading of the store) through `as_reason`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import cache

from banco.ledger.records.reasons import (
    BID_FOR,
    CARD,
    LOTS,
    MONEY,
    NESTED,
    SAID,
    SQUARE,
    TAX,
    basis_from_prose,
    from_prose,
    from_text,
    is_reason,
)
from banco.ledger.records.upcast_v3 import UPCASTERS_V2

# The schema version today's rows carry (ledger/records/events.py's schemas are of it): an
# older row is read through the upcasters below, one version at a time.
SCHEMA_VERSION = 3

Upcaster = Callable[[dict], dict]


def as_reason(value, bare: str = TAX):
    """A debt's reason as today's facts hold it: an older sentence read into its code, an
    older code's data (a square by name) as data."""
    return _data_v2(from_prose(value, bare) if type(value) is str else value)


def _fields(*names: str, transfers: bool = False, bare: str = SAID) -> Upcaster:
    """The upcaster of a type whose `names` fields were sentences (and, with `transfers`, the
    reasons of its list of transfers).  `bare`: what a sentence no template reads was (a tax
    square's name, for a tax or a debt)."""
    def upcast(data: dict) -> dict:
        out = None
        for name in names:
            value = data.get(name)
            if type(value) is str:
                if out is None:
                    out = dict(data)
                out[name] = from_prose(value, bare)
        if transfers and type(data.get("transfers")) is list:
            moved = [{**t, "reason": from_prose(t["reason"])}
                     if type(t) is dict and type(t.get("reason")) is str else t
                     for t in data["transfers"]]
            if out is None:
                out = dict(data)
            out["transfers"] = moved
        return data if out is None else out

    return upcast


# (type, the version its rows were written with) -> what reads them as the next version.
# Version 1 -> 2: the reason, an English sentence, becomes its code and parameters.
REASONS_V1 = ("SentToJail", "CashIssued", "SalaryPaid", "PropertyBought", "AuctionWon",
              "RentPaid", "CardPayment", "FinePaid", "HouseBuilt", "HotelBuilt", "BuildingSold",
              "BuildingsSold", "BuildingsBuilt", "PropertyMortgaged", "MortgageLifted",
              "MortgageInterestPaid", "DeedsDealt", "AuctionVoided",
              "EstateTransferred", "MortgageReverted", "BankruptcyDeclared", "DebtCancelled",
              "RentNotDue", "GameEnded", "TimeRanOut", "BuildingsReturned", "EventRetracted",
              "SpeedyMoveChosen", "RentClaimRefused", "CashCorrected", "PositionCorrected", "OwnerCorrected")
# A tax's sentence was its square's name, and a debt's may be a tax's.
TAXES_V1 = ("TaxPaid", "DebtIncurred", "DebtPaid", "DebtPaidInKind", "DebtPaidByBank")
UPCASTERS: dict[tuple[str, int], Upcaster] = {
    **{(type_, 1): _fields("reason") for type_ in REASONS_V1},
    **{(type_, 1): _fields("reason", bare=TAX) for type_ in TAXES_V1},
    **{(type_, 1): _fields(transfers=True) for type_ in ("TradeCompleted", "HotelsBrokenUp")},
    ("DiceRolled", 1): _fields("speedy_ignored"),
    ("AuctionClosed", 1): lambda d: _sold(_fields("reason")(d)),
    ("RentClaimOpened", 1): lambda d: {**d, "basis": basis_from_prose(d["basis"])}
    if type(d.get("basis")) is str else d,
    # Version 2 -> 3: a left jail's how, a card's text, a recorded ruling (upcast_v3.py).
    **UPCASTERS_V2,
}


def money_of(text: str):
    """An amount as an edition printed it (`1.200 M`, `$1,500`, `20.000 £`, `500 €`): its
    integer; a text with no such amount is left as it is."""
    m = _AMOUNT.fullmatch(text.strip())
    return int(re.sub(r"\D", "", m.group(1))) if m else text


_AMOUNT = re.compile(r"[^\d\s]*\s?(\d{1,3}(?:[.,]\d{3})*|\d+)\s?[^\d\s]*")


@cache
def _boards() -> tuple[dict, dict]:
    """The squares and decks older bancos named, by the names they wrote: every built-in
    edition's, read from its board file (ledger/records may not import ledger/board: a
    reading of the files, not of the module).  No board names one square two ways: the only
    names on two squares are the card squares' (`Imprevisti`), which no reason names."""
    import tomllib
    from pathlib import Path

    squares: dict[str, int] = {}
    decks: dict[str, str] = {}
    for path in sorted((Path(__file__).parents[1] / "board" / "data" / "editions").glob("*.toml")):
        with open(path, "rb") as f:
            board = tomllib.load(f)
        for pos, space in enumerate(board["spaces"]):
            if space.get("kind") != "card":
                squares.setdefault(space["name"], pos)
        for key, deck in board["decks"].items():
            decks.setdefault(deck["title"], key)
    return squares, decks


def square_of(name: str):
    """The square an older row named (`Parco della Vittoria` -> 39); a name on no board (a
    hand-written row) is left as written."""
    return _boards()[0].get(name, name)


def _data_v2(reason):
    """A reason of schema version 2 as version 3 holds it: its square as its number, a card's
    deck as its key, its amounts, written as the edition printed them, as integers
    (ledger/records/reasons.py SQUARE, MONEY); a reason inside, likewise."""
    if not is_reason(reason):
        return reason
    out = None
    if type(reason.get(SQUARE)) is str and reason[SQUARE] in _boards()[0]:
        out = dict(reason)
        out[SQUARE] = square_of(reason[SQUARE])
    if reason["code"] == CARD and reason.get("deck") in _boards()[1]:
        out = out or dict(reason)
        out["deck"] = _boards()[1][reason["deck"]]
    field = LOTS.get(reason["code"])
    if field is not None and type(reason.get(field)) is str:
        lots = lots_of(field, reason[field])
        if lots is not None:
            out = out or dict(reason)
            out[field] = lots
    if reason["code"] in BID_FOR and type(reason.get("what")) is str:
        what = reason["what"]
        bid_for = ({"kind": what.removeprefix("the ")} if what in ("the house", "the hotel")
                   else {SQUARE: square_of(what)} if what in _boards()[0] else None)
        if bid_for is not None:
            out = {k: v for k, v in (out or reason).items() if k != "what"} | bid_for
    for k in MONEY.get(reason["code"], ()):
        if type(reason.get(k)) is str:
            out = out or dict(reason)
            out[k] = money_of(reason[k])
    for k in NESTED:
        inner = reason.get(k)
        if is_reason(inner):
            new = _data_v2(inner)
            if new is not inner:
                out = out or dict(reason)
                out[k] = new
    return reason if out is None else out


_BUILT = r"a hotel|\d+ houses?"
_PHRASES = {  # a lot as older bancos said it, by the parameter it was said in
    "deeds": (" + ", re.compile(r"(?P<space>.+?) (?P<price>[^\d\s]*\d[\d.,]*(?: [^\d\s]+)?)")),
    "each": (", ", re.compile(r"(?P<space>.+) at (?P<price>.+)")),
    "changes": (", ", re.compile(rf"(?P<space>.+) (?P<from>{_BUILT}) -> (?P<to>{_BUILT})")),
    "what": (", ", re.compile(rf"(?P<level>{_BUILT}) on (?P<space>.+)")),
}


def lots_of(field: str, text: str) -> list | None:
    """A list of lots an older banco said as a phrase (`Vicolo Corto 60 M + Via Roma 260 M`,
    `a hotel on Vicolo Corto, 2 houses on Vicolo Stretto`) as data: each lot's square, its
    price or its buildings' level (5: a hotel).  None where a part reads otherwise (a name on
    no board): the phrase is then kept as written."""
    sep, pattern = _PHRASES[field]
    out = []
    for part in text.split(sep):
        m = pattern.fullmatch(part)
        if m is None or m["space"] not in _boards()[0]:
            return None
        lot = {}
        for k, v in m.groupdict().items():
            lot[k] = (square_of(v) if k == SQUARE else money_of(v) if k == "price"
                      else 5 if v == "a hotel" else int(v.split()[0]))
        if type(lot.get("price", 0)) is not int:
            return None
        out.append(lot)
    return out


def _reasons_v2(data: dict) -> dict:
    """Version 2 -> 3: every reason of a row (its own, a transfer's) with its data as data."""
    out = None
    for name in ("reason", "speedy_ignored"):
        value = data.get(name)
        new = _data_v2(value)
        if new is not value:
            out = out or dict(data)
            out[name] = new
    if type(data.get("transfers")) is list:
        moved = [{**t, "reason": _data_v2(t["reason"])} if type(t) is dict else t
                 for t in data["transfers"]]
        if moved != data["transfers"]:
            out = out or dict(data)
            out["transfers"] = moved
    return data if out is None else out


# Version 2 -> 3: the reasons' data (amounts) as data, for every type a reason is written in.
_REASONS_V2 = {(type_, 2): _reasons_v2 for type_ in
                  {*REASONS_V1, *TAXES_V1, "TradeCompleted", "HotelsBrokenUp", "DiceRolled",
                   "AuctionClosed", "SpeedyMoveChosen"}}
# a type both steps of version 2 -> 3 would read would lose one of them: none does
assert not set(_REASONS_V2) & set(UPCASTERS_V2)
UPCASTERS.update(_REASONS_V2)


def _sold(data: dict) -> dict:
    """A building auction's outcome was "sold to NAME": "sold", and its winner."""
    outcome = data.get("outcome")
    if type(outcome) is str and outcome.startswith("sold to "):
        return {**data, "outcome": "sold", "winner": outcome.removeprefix("sold to ")}
    return data


def upcast(type_: str, version, data):
    """`data` of a row of `type_` written with schema `version`, as today's version reads it
    (the same object when nothing changes).  Data that is not an object is left to the
    schema to refuse."""
    if type(data) is not dict or type(version) is not int:
        return data
    while version < SCHEMA_VERSION:
        step = UPCASTERS.get((type_, version))
        if step is not None:
            data = step(data)
        version += 1
    return data


def kept_reason(type_: str, value) -> dict:
    """A transfer's reason as the read model keeps it (ledger/records/reasons.py as_text: its
    JSON, or an older row's sentence), read as the upcaster of its event type reads it."""
    if type(value) is str and not value.startswith("{"):
        return _data_v2(from_prose(value, TAX if type_ in TAXES_V1 else SAID))
    return _data_v2(from_text(value))  # a version-2 reason's data: its square by name


def upcast_row(row: dict) -> dict:
    """A stored row with its data as today's facts hold it (a copy when it changes: the row
    as read stays as it was, for the chain)."""
    data = row.get("data")
    new = upcast(row["type"], row.get("schema_version"), data)
    return row if new is data else {**row, "data": new}


def upcast_rows(rows: Iterable[dict]) -> list[dict]:
    return [upcast_row(r) for r in rows]
