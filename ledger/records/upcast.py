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

from collections.abc import Callable, Iterable

from banco.ledger.records.reasons import SAID, TAX, basis_from_prose, from_prose, from_text
from banco.ledger.records.upcast_v3 import UPCASTERS_V2

# The schema version today's rows carry (ledger/records/events.py's schemas are of it): an
# older row is read through the upcasters below, one version at a time.
SCHEMA_VERSION = 3

Upcaster = Callable[[dict], dict]


def as_reason(value, bare: str = TAX):
    """A debt's reason as today's facts hold it: an older sentence read into its code."""
    return from_prose(value, bare) if type(value) is str else value


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
        return from_prose(value, TAX if type_ in TAXES_V1 else SAID)
    return from_text(value)


def upcast_row(row: dict) -> dict:
    """A stored row with its data as today's facts hold it (a copy when it changes: the row
    as read stays as it was, for the chain)."""
    data = row.get("data")
    new = upcast(row["type"], row.get("schema_version"), data)
    return row if new is data else {**row, "data": new}


def upcast_rows(rows: Iterable[dict]) -> list[dict]:
    return [upcast_row(r) for r in rows]
