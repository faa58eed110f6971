"""A referee's verdict as data: a code and its parameters (what a verdict is); its words are
the edge's (cli/words/verdicts.py).

A ruling (projections/referee/) ends in a verdict.  RulingRecorded keeps it as
`{"code": "rent_paid", "payer": "Bruno", "owner": "Anna", "seq": 41, "amount": {"code":
"money", "amount": 22}}`,
never as the sentence (DESIGN.md, "Events are facts"); `words(data)` gives the message back,
a Text said in the caller's language where it is shown (cli/words/fact_lines.py).  A
parameter may be a phrase itself (`when`, `answer`, `what`): a code of this table too, nested;
a fact's own data (how a player left jail) is `{"code": "fact", "kind": ..., "value": ...}`,
said by its sayer (ledger/base/text.py's Fact).  Seqs and counts are integers, and so is an
amount, said as the game's edition prints it (an older ruling's, read from its English, is the
text it was: `45 M`).

A Verdict is a Text whose words the edge gives (`say_with`, called when cli/words is
imported, as cli/words/reasons.py gives a reason's): its English is `str()`, any language by
`render`.  Without the words (the ledger used alone) a verdict is said as its code.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from banco.ledger.base.text import Fact, Joined, Text

SAID = "said"  # an older ruling's verdict no template reads (its English, kept marked)
FACT = "fact"  # a fact's data inside a verdict, said by the sayer of its kind
JOINED = "joined"  # phrases said one after the other
MONEY = "money"  # an amount, said as the game's edition prints it

# Each code and the parameters its words name (cli/words/verdicts.py holds a template for each,
# with these names: tests/test_upcast_v3.py holds the two to each other).  `n`: a count that
# chooses the singular or the plural.
CODES: dict[str, tuple[str, ...]] = {
    # rent (projections/referee/rent_claims.py)
    "rent_taken_back": ("seq",),
    "rent_paid": ("payer", "owner", "amount", "seq"),
    "rent_debt": ("payer", "seq", "rule"),
    "rent_bankruptcy": ("seq",),
    "rent_refused": ("player", "seq", "late", "owner"),
    "rent_lapsed": ("owner", "player", "seq"),
    "rent_open": ("owner", "amount", "closer"),
    "rent_auto": ("amount",),
    "rent_not_due": (),
    "claim_at": ("when", "answer"),
    "after_event": ("seq",),
    "at_time": ("time", "seq"),
    "claim_taken_back": (),
    "claim_early_batch": ("landed", "seq"),
    "claim_early": ("seq",),
    "claim_after_paid": ("seq",),
    "claim_after_debt": ("seq",),
    "claim_after_bankruptcy": ("seq",),
    "claim_too_late": ("player", "seq"),
    "claim_in_time": ("seq", "until"),
    "until_roll_at": ("closer", "seq"),
    "until_roll": ("closer",),
    # auctions (projections/referee/auctions.py)
    "auction_open_lead": ("player", "amount"),
    "auction_open": (),
    "auction_won": ("player", "amount", "seq"),
    "auction_richest": ("player", "cash", "amount", "seq", "rule"),
    "auction_richest_tied": ("player", "amount", "names", "cash", "seq", "rule"),
    "auction_no_bid": ("what",),
    "auction_no_bid_building": ("kind",),
    "auction_built": ("player", "amount", "space", "seq"),
    "auction_game_ended": ("seq",),
    "auction_voided": ("n", "players"),
    "a_building": ("kind",),
    "house": (),
    "hotel": (),
    "deed": (),
    # bankruptcies (projections/referee/bankruptcies.py)
    "bankrupt": ("player", "creditor", "owed", "can"),
    "bankrupt_avoidable": ("player", "creditor", "can", "owed"),
    "the_bank": (),
    # jail (projections/referee/jail_stays.py)
    "jail_still": ("player", "n"),
    "jail_left": ("player", "way", "seq", "n"),
}

Sayer = Callable[[str, dict, Any], str]  # (code, parameters, translations or None) -> words
_SAYER: list[Sayer] = []


def say_with(sayer: Sayer) -> None:
    """The edge's words for every verdict (cli/words/verdicts.py), given once."""
    _SAYER[:] = [sayer]


def _said(code: str, params: dict, tr=None) -> str:
    if not _SAYER:
        return code
    return _SAYER[0](code, params, tr)


class Verdict(Text):
    """A verdict of CODES with its parameters: a Text (its English, said in any language by
    the edge's words) that knows its code, so that it is recorded as data.  KeyError or
    IndexError where the words do not fit the parameters."""

    __slots__ = ("code",)

    def __new__(cls, code: str, params: dict):
        if code not in CODES:
            raise KeyError(code)
        self = str.__new__(cls, _said(code, params))
        self.template, self.plural, self.n, self.params = str.__str__(self), None, None, params
        self.code = code
        return self

    def render(self, tr=None) -> str:
        return str.__str__(self) if tr is None else _said(self.code, self.params, tr)


class Amount(Text):
    """An amount inside a verdict: its integer, said as the edition prints it (`45 M`, in
    every language), recorded as `{"code": "money", "amount": 45}`."""

    __slots__ = ("amount",)

    def __new__(cls, amount: int, said: str):
        self = str.__new__(cls, said)
        self.template, self.plural, self.n, self.params = said, None, None, {}
        self.amount = amount
        return self

    def render(self, tr=None) -> str:
        return str.__str__(self)


def verdict(code: str, **params) -> Verdict:
    """The message of `code` with its parameters (a phrase of this table may be one)."""
    return Verdict(code, params)


def as_data(value):
    """A verdict (or any of its parameters) as the data RulingRecorded keeps: codes and
    parameters, lists and plain values; JSON's lists for tuples, so that the fact a command
    gives and the fact read back compare equal."""
    if isinstance(value, Verdict):
        return {"code": value.code, **{k: as_data(v) for k, v in value.params.items()}}
    if isinstance(value, Fact):
        return {"code": FACT, "kind": value.kind, "value": as_data(value.value)}
    if isinstance(value, Amount):
        return {"code": MONEY, "amount": value.amount}
    if isinstance(value, Joined):
        return {"code": JOINED, "items": [as_data(i) for i in value.items],
                "sep": as_data(value.sep)}
    if isinstance(value, Text):  # no code of its own: kept as said (a test keeps them coded)
        return {"code": SAID, "text": str(value)}
    if isinstance(value, dict):
        return {k: as_data(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [as_data(v) for v in value]
    return value


_DROP = object()


def evidence(facts: dict) -> dict:
    """What a ruling rests on (its `facts`) as data: seqs, players, amounts, squares, codes;
    a phrase with no code of its own (the words of a step) is left out, not kept as English."""
    def plain(value):
        if isinstance(value, (Verdict, Fact, Joined, Amount)):
            return as_data(value)
        if isinstance(value, Text):
            return _DROP
        if isinstance(value, dict):
            return {k: v for k, v in ((k, plain(v)) for k, v in value.items()) if v is not _DROP}
        if isinstance(value, (list, tuple)):
            return [v for v in map(plain, value) if v is not _DROP]
        return value

    return plain(facts)


def words(data, money=None) -> Text | str:
    """A verdict's data as its message (a Text: English as str(), any language by render);
    `money` formats an amount as the game's edition does (without it: the bare number)."""
    if type(data) is list:
        return ", ".join(str(words(v, money)) for v in data)
    if type(data) is not dict or type(data.get("code")) is not str:
        return data if isinstance(data, str) else str(data)
    code = data["code"]
    params = {k: v for k, v in data.items() if k != "code"}
    if code == MONEY and type(params.get("amount")) is int:
        amount = params["amount"]
        return Amount(amount, money(amount) if money else str(amount))
    if code == FACT:
        return Fact(params.get("value"), str(params.get("kind", "reason")))
    if code == JOINED:
        return Joined([words(i, money) for i in params.get("items", ())],
                      words(params.get("sep", ""), money))
    if code in CODES:
        said = {k: words(v, money) if type(v) in (dict, list) else v for k, v in params.items()}
        try:
            return Verdict(code, said)
        except (KeyError, IndexError, ValueError):
            return code  # a row whose parameters the words do not fit: its code, not a crash
    return str(params.get("text", code))  # SAID, or a code this banco does not know
