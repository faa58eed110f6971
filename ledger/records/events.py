"""One strict marshmallow schema per event type.

Unknown fields are rejected, money is `Integer(strict=True)` (the default would silently turn
5.5 into 5), and each type has a schema version that is written on every row so old logs stay
readable.  marshmallow is imported only when an event is appended or audited, never to read.
"""

from __future__ import annotations

from functools import cache
from typing import Any

# 2: reasons are codes with parameters (ledger/records/reasons.py), no longer English sentences;
# 3: the amounts inside a reason are integers and its squares numbers, a list of lots data; how
# a player left jail is a code, a card drawn has no text, a ruling is its verdict's code and its
# evidence (ledger/records/upcast_v3.py).  Older rows are read through their upcasters
# (ledger/records/upcast.py, which holds the version).
from banco.ledger.records.upcast import SCHEMA_VERSION

SPEEDY_FACES = ("1", "2", "3", "bus", "mr")  # the Speedy die as banco records it (000)
SPEEDY_MOVES = ("bus", "triple", "mr_monopoly")
JAIL_WAYS = ("doubles", "fine", "card", "fine_after_last_try", "card_after_last_try")


def _specs():
    from marshmallow import RAISE, Schema
    from marshmallow import fields as f
    from marshmallow import validate as v

    def money():
        return f.Integer(strict=True, required=True, validate=v.Range(min=0))

    def count(lo=0, hi=None):
        return f.Integer(strict=True, required=True, validate=v.Range(min=lo, max=hi))

    def name():
        return f.String(required=True, validate=v.Length(min=1))

    def text():
        return f.String(required=True)

    def pos():
        return count(0, 39)

    def flag():
        return f.Boolean(required=True, truthy={True}, falsy={False})

    def has_code(d):
        return isinstance(d.get("code"), str) and bool(d["code"])

    def why():  # a reason: a code and its parameters (ledger/records/reasons.py)
        return f.Dict(keys=f.String(), required=True, validate=has_code)

    def transfer(**more):
        return {"payer": name(), "payee": name(), "amount": money(), "reason": why(), **more}

    def transfer_said(**more):  # a transfer whose reason is still a sentence (not yet a code)
        return {**transfer(**more), "reason": text()}

    def level():
        return count(0, 5)

    def delta():
        return f.Integer(strict=True, required=True)

    def side():
        return f.Nested(Schema.from_dict({
            "properties": f.List(pos(), required=True), "cash": money(),
            "jail_cards": f.List(f.Tuple((name(), count(1))), required=True)})(unknown=RAISE),
            required=True)

    def speedy_move():
        return f.String(required=True, validate=v.OneOf(SPEEDY_MOVES))

    card = {"deck": name(), "number": count(1)}
    lot = Schema.from_dict({"property": pos(), "level": level()})(unknown=RAISE)
    claim = {"owner": name(), "payer": name(), "property": pos(), "amount": money()}
    return {
        # `game_uuid`: the game's identity wherever its log goes (games before it have none).
        "GameStarted": {"players": f.List(f.String(), required=True), "rules": f.Dict(required=True),
                        "edition": name(), "first_player": name(), "game_uuid": f.UUID(),
                        # a championship final or semi-final (000 FAQ 31); absent: preliminary
                        "final": f.Boolean(truthy={True}, falsy={False})},
        # The first fact of every command's batch: the words as typed and the parsed command
        # (ledger/records/command_codec.py), null for `new` and `undo`, which have no command object.
        "CommandRecorded": {"line": f.String(required=True, allow_none=True),
                            "command": f.Dict(required=True, allow_none=True)},
        "CashIssued": transfer(),
        # `speedy`: the Speedy die's face when thrown (000 §SVOLGIMENTO 3); `speedy_ignored`:
        # why it does not count (before the first pass of Via!, in jail, a third double).
        "DiceRolled": {"player": name(), "dice": f.List(count(1, 6), required=True),
                       "doubles": flag(), "in_row": count(), "extra_roll": flag(),
                       "speedy": f.String(validate=v.OneOf(SPEEDY_FACES)),
                       "speedy_ignored": f.Dict(keys=f.String(), validate=has_code)},
        # What the Speedy die leaves the table waiting for, and the move then made.
        "SpeedyMoveDue": {"player": name(), "move": speedy_move(),
                          "choices": f.List(count(1, 12), required=True)},
        "SpeedyMoveChosen": {"player": name(), "move": speedy_move(), "to": pos(),
                             "spaces": count(0, 40), "reason": why()},
        "TokenMoved": {"player": name(), "from": pos(), "to": pos(),
                       "spaces": f.Integer(strict=True, required=True), "cause": name(),
                       "passed_go": flag()},
        "SalaryPaid": transfer(),
        "PurchaseOffered": {"player": name(), "property": pos(), "price": money()},
        "PropertyBought": transfer(player=name(), property=pos()),
        "PropertyDeclined": {"player": name(), "property": pos()},
        # `resume` came with bankruptcy auctions; logs written before it stay readable.
        "AuctionOpened": {"property": pos(), "min_bid": money(), "step": count(1),
                          "resume": f.String(), "excluded": f.List(f.String()),
                          # a debtor's own deed, sold to the others for him (002 §Varie)
                          "seller": f.String(validate=v.Length(min=1))},
        "AuctionVoided": {"player": name(),
                          "property": f.Integer(strict=True, required=True, allow_none=True,
                                                validate=v.Range(min=0, max=39)),
                          "amount": money(), "reason": why()},
        "BidPlaced": {"player": name(),
                      "property": f.Integer(strict=True, required=True, allow_none=True,
                                            validate=v.Range(min=0, max=39)),
                      "amount": money()},
        "AuctionWon": transfer(player=name(), property=pos()),
        "AuctionClosed": {"property": f.Integer(strict=True, required=True, allow_none=True,
                                                validate=v.Range(min=0, max=39)),
                          # "no bid", or "sold" to the winner of a building auction
                          "outcome": f.String(required=True, validate=v.OneOf(("no bid", "sold"))),
                          "winner": f.String(validate=v.Length(min=1)), "reason": why()},
        "BuildingAuctionOpened": {"kind": f.String(required=True,
                                                   validate=v.OneOf(("house", "hotel"))),
                                  "min_bid": money(), "step": count(1), "resume": text(),
                                  "excluded": f.List(f.String()),
                                  # who wants how many more (000 FAQ 30); older logs lack it
                                  "wanted": f.Dict(keys=f.String(), values=count())},
        "HouseBuilt": transfer(player=name(), property=pos(), level=level(),
                               bank_houses=delta(), bank_hotels=delta()),
        "HotelBuilt": transfer(player=name(), property=pos(), level=level(),
                               bank_houses=delta(), bank_hotels=delta()),
        "BuildingSold": transfer(player=name(), property=pos(), level=level(),
                                 bank_houses=delta(), bank_hotels=delta()),
        # `lots` (levels other than 0) came with `sell GROUP N`; a hotel sold down to houses
        # takes houses from the Bank, so bank_houses may be negative.
        "BuildingsSold": transfer(player=name(), properties=f.List(pos(), required=True),
                                  lots=f.List(f.Nested(lot)), bank_houses=delta(),
                                  bank_hotels=count()),
        "BuildingsBuilt": transfer(player=name(), lots=f.List(f.Nested(lot), required=True,
                                                             validate=v.Length(min=1)),
                                   bank_houses=delta(), bank_hotels=delta()),
        "HotelsBrokenUp": {
            "lots": f.List(f.Nested(Schema.from_dict({"property": pos(), "player": name(),
                                                      "level": level()})(unknown=RAISE)),
                           required=True),
            "bank_houses": delta(), "bank_hotels": count(1),
            "transfers": f.List(f.Nested(Schema.from_dict(transfer())(unknown=RAISE)),
                                required=True)},
        "PropertyMortgaged": transfer(player=name(), property=pos()),
        "MortgageLifted": transfer(player=name(), property=pos()),
        "MortgageInterestPaid": transfer(player=name(), property=pos()),
        "TradeCompleted": {"a": name(), "b": name(), "a_gives": side(), "b_gives": side(),
                           "transfers": f.List(f.Nested(Schema.from_dict(transfer())(unknown=RAISE)),
                                               required=True)},
        "EstateTransferred": transfer(debtor=name(), creditor=name(),
                                      properties=f.List(pos(), required=True),
                                      jail_cards=f.List(f.Tuple((name(), count(1))),
                                                        required=True),
                                      # the buildings pass with the deeds (004 short game)
                                      buildings=f.Boolean(truthy={True}, falsy={False})),
        "BankruptcyDeclared": {"player": name(), "creditor": name(), "reason": why()},
        "DebtCancelled": {"debtor": name(), "creditor": name(), "amount": money(),
                          "reason": why(), "debt_seq": count(1)},
        # landed_seq (the TokenMoved of the landing) came later: older logs lack it.
        "RentClaimOpened": {**claim, "basis": why(), "closer": name(),
                            "landed_seq": f.Integer(strict=True, validate=v.Range(min=1))},
        "RentClaimLapsed": {**claim, "opened_seq": count(1), "closed_by": name()},
        "RentPaid": transfer(property=pos(), opened_seq=count()),
        "RentClaimRefused": {**claim, "opened_seq": count(1), "lapsed_seq": count(1),
                             "landed_seq": f.Integer(strict=True, validate=v.Range(min=1)),
                             "closer": name(), "rule": text(), "reason": why()},
        "RentNotDue": {"payer": name(), "owner": name(), "property": pos(), "reason": why()},
        "TaxPaid": transfer(),
        "CardDrawRequired": {"player": name(), "deck": name()},
        "CardDrawn": {"player": name(), **card},  # its words: the edition's card table
        "CardChoiceRequired": {"player": name(), **card},
        "CardMisdrawn": {**card},
        "DeckShuffled": {"deck": name()},
        "CardPayment": transfer(**card),
        "CardThrowRequired": {"player": name(), "property": pos(), "owner": name(),
                              "multiplier": count(1), **card, "landed_seq": count(1)},
        "CardDiceThrown": {"player": name(), "dice": f.List(count(1, 6), required=True),
                           "property": pos()},
        "JailCardKept": {"player": name(), **card},
        "JailCardUsed": {"player": name(), **card},
        "SentToJail": {"player": name(), "reason": why()},
        "JailRollFailed": {"player": name(), "attempt": count(1)},
        # how: {"code": doubles | fine | card | fine_after_last_try | card_after_last_try}
        "LeftJail": {"player": name(), "how": f.Dict(keys=f.String(), required=True,
                                                     validate=lambda d: d.get("code") in JAIL_WAYS)},
        "FinePaid": transfer(),
        "DebtIncurred": {"debtor": name(), "creditor": name(), "amount": money(),
                         "reason": why()},
        "DebtPaid": transfer(debt_seq=count(1)),
        "ExtraRollDue": {"player": name(), "in_row": count(1)},
        "JailExitDue": {"player": name(), "fine": money(), "spaces": count(2, 12)},
        "TurnEnded": {"player": name(), "next": name()},
        "GameEnded": {"winner": f.String(allow_none=True, required=True), "reason": why(),
                      "rule": f.String()},  # the section that ended it; older logs lack it
        # The rule sets beyond classic (ledger/board/data/rules/*.toml).
        "DeedsDealt": transfer(player=name(), properties=f.List(pos(), required=True,
                                                                 validate=v.Length(min=1))),
        "TimeRanOut": {"at": text(), "ends": f.String(required=True,
                                                      validate=v.OneOf(("at_once", "after_turn"))),
                       "rule": text(), "reason": why()},
        "RentClaimDeferred": {**claim, "opened_seq": count(1), "settles_after": name(),
                              "rule": text()},
        "MortgageReverted": transfer(player=name(), property=pos()),
        "BuildingsReturned": {"player": name(), "properties": f.List(pos(), required=True),
                              "bank_houses": count(), "bank_hotels": count(), "reason": why()},
        "DebtPaidByBank": transfer(debtor=name(), debt_seq=count(1)),
        "DebtPaidInKind": transfer(debt_seq=count(1), deeds=f.List(f.Nested(Schema.from_dict(
            {"property": pos(), "price": count(1)})(unknown=RAISE)), required=True,
            validate=v.Length(min=1))),
        "EventRetracted": {"seqs": f.List(count(1), required=True), "command_id": text(),
                           "reason": why()},
    }


EVENT_TYPES: tuple[str, ...] = ("GameStarted", "CashIssued", "DiceRolled", "TokenMoved", "SalaryPaid",
               "PurchaseOffered", "PropertyBought", "PropertyDeclined", "AuctionOpened",
               "BidPlaced", "AuctionWon", "AuctionClosed", "RentClaimOpened", "RentClaimLapsed",
               "RentPaid", "RentClaimRefused", "RentNotDue", "TaxPaid", "CardDrawRequired",
               "CardDrawn", "CardChoiceRequired", "CardPayment", "JailCardKept", "JailCardUsed",
               "SentToJail", "JailRollFailed", "LeftJail", "FinePaid", "DebtIncurred", "DebtPaid",
               "ExtraRollDue", "TurnEnded", "GameEnded", "EventRetracted",
               "BuildingAuctionOpened", "HouseBuilt", "HotelBuilt", "BuildingSold",
               "PropertyMortgaged", "MortgageLifted", "MortgageInterestPaid", "TradeCompleted",
               "EstateTransferred", "BankruptcyDeclared", "DebtCancelled", "BuildingsSold",
               "AuctionVoided", "HotelsBrokenUp", "CardThrowRequired", "CardDiceThrown",
               "CommandRecorded", "JailExitDue", "CardMisdrawn", "DeckShuffled",
               "BuildingsBuilt", "SpeedyMoveDue", "SpeedyMoveChosen", "DeedsDealt",
               "TimeRanOut", "RentClaimDeferred", "MortgageReverted", "BuildingsReturned",
               "DebtPaidByBank", "DebtPaidInKind")

# Events that move money: each carries payer, payee, amount and reason (a trade carries a list
# of such transfers), and nothing else moves money.
MONEY_EVENTS = frozenset({"CashIssued", "SalaryPaid", "PropertyBought", "AuctionWon", "RentPaid",
                          "TaxPaid", "CardPayment", "FinePaid", "DebtPaid", "HouseBuilt",
                          "HotelBuilt", "BuildingSold", "BuildingsSold", "BuildingsBuilt",
                          "PropertyMortgaged", "MortgageLifted",
                          "MortgageInterestPaid", "EstateTransferred", "DeedsDealt",
                          "MortgageReverted", "DebtPaidByBank", "DebtPaidInKind"})


# A referee's facts (ledger/rules/referee.py): a ruling kept as evidence, and corrections of the
# table.  CashCorrected is a transfer of its own kind, to or from the Bank: an audit checks it
# as a referee's decision (named, with a reason), not against a rule's figure.
REFEREE_EVENTS = ("RulingRecorded", "CashCorrected", "PositionCorrected", "OwnerCorrected",
                  "SealRecorded")
EVENT_TYPES = EVENT_TYPES + REFEREE_EVENTS
MONEY_EVENTS = MONEY_EVENTS | {"CashCorrected"}
RULING_KINDS = ("rent", "auction", "bankruptcy", "jail")


def _referee_specs():
    from marshmallow import fields as f
    from marshmallow import validate as v

    def name():
        return f.String(required=True, validate=v.Length(min=1))

    def words():  # a referee's reason: code `referee`, his own words never blank
        return f.Dict(keys=f.String(), required=True, validate=lambda d: d.get("code") == "referee"
                      and isinstance(d.get("said"), str) and bool(d["said"].strip()))

    def pos():
        return f.Integer(strict=True, required=True, validate=v.Range(min=0, max=39))

    return {
        "RulingRecorded": {"kind": f.String(required=True, validate=v.OneOf(RULING_KINDS)),
                           "subject_seq": f.Integer(strict=True, required=True,
                                                    validate=v.Range(min=1)),
                           # the verdict's code and parameters (ledger/records/verdicts.py), the
                           # facts it rests on, the rulebook sections it cites
                           "verdict": f.Dict(keys=f.String(), required=True,
                                             validate=lambda d: isinstance(d.get("code"), str)),
                           "evidence": f.Dict(keys=f.String(), required=True),
                           "rule": f.String(required=True), "referee": name()},
        "CashCorrected": {"player": name(), "payer": name(), "payee": name(),
                          "amount": f.Integer(strict=True, required=True,
                                              validate=v.Range(min=1)),
                          "reason": words(), "referee": name()},
        "PositionCorrected": {"player": name(), "from": pos(), "to": pos(),
                              "left_jail": f.Boolean(required=True, truthy={True},
                                                     falsy={False}),
                              "reason": words(), "referee": name()},
        "OwnerCorrected": {"property": pos(), "from": name(), "to": name(),
                           "mortgaged": f.Boolean(required=True, truthy={True}, falsy={False}),
                           "reason": words(), "referee": name()},
        # A referee's Ed25519 signature on the head at event `seq` (ledger/records/seals.py), hex.
        "SealRecorded": {"seq": f.Integer(strict=True, required=True, validate=v.Range(min=1)),
                         "head": f.String(required=True, validate=v.Length(equal=64)),
                         "public_key": f.String(required=True, validate=v.Length(equal=64)),
                         "fingerprint": f.String(required=True, validate=v.Length(equal=16)),
                         "signature": f.String(required=True, validate=v.Length(equal=128)),
                         "referee": name()},
    }


# A field named by a Python keyword: its attribute on the typed record.
ATTRIBUTES = {"from": "from_"}


@cache
def records() -> dict[str, type]:
    """The typed record of each event type: a NamedTuple (as the commands of
    ledger/records/commands.py are) made from the very definition its schema is made from, so
    the two cannot drift: its fields in order, the optional ones last, defaulting to None."""
    from collections import namedtuple

    out = {}
    for type_, spec in {**_specs(), **_referee_specs()}.items():
        required = [k for k, field in spec.items() if field.required]
        optional = [k for k, field in spec.items() if not field.required]
        cls = namedtuple(type_, [ATTRIBUTES.get(k, k) for k in required + optional],  # type: ignore[misc]
                         defaults=[None] * len(optional))
        cls.__doc__ = f"The fact {type_} (ledger/records/events.py); `fact(record)` gives its data."
        cls.optional = frozenset(ATTRIBUTES.get(k, k) for k in optional)
        out[type_] = cls
    return out


_KEYS = {attr: key for key, attr in ATTRIBUTES.items()}


def record(event: dict):
    """A fact ({"type", "data"}) as its typed record; TypeError names a field it does not have."""
    cls = records()[event["type"]]
    return cls(**{ATTRIBUTES.get(k, k): v for k, v in event["data"].items()})


def fact(rec) -> dict:
    """A typed record as the fact's data: an optional field left unset is left out."""
    optional = type(rec).optional
    return {_KEYS.get(k, k): v for k, v in zip(rec._fields, rec, strict=True)
            if v is not None or k not in optional}


def transfers_of(event: dict) -> list[dict]:
    """The money movements of an event: [{payer, payee, amount, reason}], possibly empty."""
    t, d = event["type"], event["data"]
    if type(d) is not dict:  # a damaged row (issue 32): no money moves; the audit names it
        return []
    if t in MONEY_EVENTS:
        return [d]
    return list(d.get("transfers", ()))  # a trade, a shared hotel break-up


@cache
def _all_specs() -> dict:
    return {**_specs(), **_referee_specs()}


@cache
def schema_of(type_: str):
    """The schema of one type, built when first asked for: a write builds the few it appends,
    not all of them (a cold command's time)."""
    from marshmallow import RAISE, Schema

    spec = _all_specs().get(type_)
    if spec is None:
        return None
    return Schema.from_dict(spec, name=f"{type_}Schema")(unknown=RAISE)


def schemas() -> dict:
    return {type_: schema_of(type_) for type_ in _all_specs()}


class InvalidEvent(ValueError):
    pass


def validate(type_: Any, data: Any, version: Any = SCHEMA_VERSION) -> None:
    """Raise InvalidEvent naming the type and the bad fields.  The three are as read
    from a file, which may be damaged: any value (None, a list, a string version), each refused
    here with the reason.  Today's version only: an older row is held to it as its upcaster
    reads it (ledger/records/upcast.py; the audit's rows, projections/audit/rows.py)."""
    schema = schema_of(type_) if type(type_) is str else None  # a file may hold any value
    if schema is None:
        raise InvalidEvent(f"unknown event type {type_!r}")
    if version != SCHEMA_VERSION or type(version) is not int:
        raise InvalidEvent(f"{type_}: schema version {version} is not known (this banco reads "
                           f"versions 1 to {SCHEMA_VERSION})")
    shape = None
    if type(data) is dict and _shape_judged(type_):
        shape = (type_, *[(k, type(v)) for k, v in data.items()])
        if shape in _PASSED:
            return
    try:
        schema.load(data)
    except _validation_error() as exc:
        raise InvalidEvent(f"{type_}: {exc.messages}") from None
    if shape is not None:
        if len(_PASSED) > 4096:
            _PASSED.clear()
        _PASSED.add(shape)


# marshmallow's verdicts on data whose every field it judges by the value's type alone (a
# String or a Dict with no validator: CommandRecorded's line and command), kept by the data's
# keys and their values' types, in order: data of a shape that passed passes again, so each
# of the audit's CommandRecorded rows (every other text a command's, its schema the costliest
# step of the audit) is not loaded again.  Only passes are kept: a failure is always said by
# marshmallow itself.
_PASSED: set = set()


@cache
def _shape_judged(type_: str) -> bool:
    """Whether marshmallow's verdict on this type's data depends on its keys and the types of
    their values only."""
    from marshmallow import fields as f

    schema = schema_of(type_)
    return bool(schema.fields) and not schema._hooks and all(
        type(field) in (f.String, f.Dict) and not field.validators and not field.dump_only
        and getattr(field, "key_field", None) is None
        and getattr(field, "value_field", None) is None
        for field in schema.fields.values())


@cache
def _validation_error() -> type:
    from marshmallow import ValidationError

    return ValidationError
