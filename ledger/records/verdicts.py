"""A referee's verdict as data: a code and its parameters, and its words from one table.

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

VERDICTS' English is the catalogs' msgid (N_ and NN_ mark it for tests/tools/catalogs.py).
"""

from __future__ import annotations

from banco.ledger.base.text import Fact, Joined, Text


def N_(message: str) -> str:  # a message marked for the catalogs, said later
    return message


def NN_(singular: str, plural: str) -> tuple[str, str]:
    return singular, plural


SAID = "said"  # an older ruling's verdict no template reads (its English, kept marked)
FACT = "fact"  # a fact's data inside a verdict, said by the sayer of its kind
JOINED = "joined"  # phrases said one after the other
MONEY = "money"  # an amount, said as the game's edition prints it

VERDICTS: dict[str, str | tuple[str, str]] = {
    # rent (projections/referee/rent_claims.py)
    "rent_taken_back": N_("no rent was owed: the landing was taken back by the undo at event "
                          "{seq}"),
    "rent_paid": N_("paid in time: {payer} paid {owner} {amount} at event {seq}"),
    "rent_debt": N_("claimed in time; {payer} owes it as a debt (event {seq}, {rule})"),
    "rent_bankruptcy": N_("never collected: a bankruptcy ended the claim at event {seq}"),
    "rent_refused": N_("too late: the window closed when {player} rolled (event {seq}); the "
                       "claim at event {late} was rightly refused and {owner} lost the rent"),
    "rent_lapsed": N_("lapsed unclaimed: {owner} did not ask before {player} rolled (event "
                      "{seq}); the rent is lost"),
    "rent_open": N_("still open: {owner} may claim {amount} until {closer} rolls"),
    "rent_auto": N_("paid at the landing: {amount} (no claim window)"),
    "rent_not_due": N_("no rent was due"),
    "claim_at": N_("a claim made {when} was {answer}"),
    "after_event": N_("after event {seq}"),
    "at_time": N_("at {time} (after event {seq})"),
    "claim_taken_back": N_("about a landing that was taken back: nothing to claim"),
    "claim_early_batch": N_("too early: the landing (event {landed}) was not yet recorded whole; "
                            "the window opened at event {seq}"),
    "claim_early": N_("too early: nothing was owed before the landing (event {seq})"),
    "claim_after_paid": N_("after the rent was paid (event {seq}): nothing more is owed"),
    "claim_after_debt": N_("after the claim became a debt (event {seq})"),
    "claim_after_bankruptcy": N_("after the bankruptcy that ended the claim (event {seq})"),
    "claim_too_late": N_("TOO LATE: {player} had rolled (the roll recorded from event {seq}), "
                         "which closed the window"),
    "claim_in_time": N_("IN TIME: the window was open from event {seq} {until}"),
    "until_roll_at": N_("until {closer}'s roll (recorded from event {seq})"),
    "until_roll": N_("until {closer} rolls"),
    # auctions (projections/referee/auctions.py)
    "auction_open_lead": N_("the auction is still open: {player} leads at {amount}"),
    "auction_open": N_("the auction is still open, without a bid"),
    "auction_won": N_("won by {player} for {amount}, paid to the Bank at event {seq}"),
    "auction_richest": N_("no bid: {player}, the player with the most cash ({cash}), took it "
                          "at the opening price {amount} (event {seq}, {rule})"),
    "auction_richest_tied": N_("no bid: {player} took it at the opening price {amount}, the "
                               "banker choosing among the richest ({names}, {cash} each) "
                               "(event {seq}, {rule})"),
    "auction_no_bid": N_("no bid: {what} stays with the Bank"),
    "auction_no_bid_building": N_("no bid: the {kind} stays with the Bank"),
    "auction_built": N_("won by {player} for {amount}, built on {space} at event {seq}"),
    "auction_game_ended": N_("the game ended at event {seq} before the hammer"),
    "auction_voided": NN_(" (after {n} voided auction: {players} could not pay)",
                          " (after {n} voided auctions: {players} could not pay)"),
    "a_building": N_("a {kind}"),
    "house": N_("house"),
    "hotel": N_("hotel"),
    "deed": N_("deed"),
    # bankruptcies (projections/referee/bankruptcies.py)
    "bankrupt": N_("{player} was bankrupt to {creditor}: owed {owed}, could raise only {can}"),
    "bankrupt_avoidable": N_("{player} was declared bankrupt to {creditor} but could have "
                             "raised {can} against {owed} owed"),
    "the_bank": N_("the Bank"),
    # jail (projections/referee/jail_stays.py)
    "jail_still": NN_("{player} is still in jail after {n} failed try",
                      "{player} is still in jail after {n} failed tries"),
    "jail_left": NN_("{player} left jail by {way} at event {seq}, after {n} failed try",
                     "{player} left jail by {way} at event {seq}, after {n} failed tries"),
}


class Verdict(Text):
    """A message of VERDICTS: a Text (its English, said in any language) that knows its code,
    so that it is recorded as data."""

    __slots__ = ("code",)

    def __new__(cls, code: str, params: dict):
        words = VERDICTS[code]
        if isinstance(words, tuple):
            self = super().__new__(cls, words[0], words[1], params["n"], params)
        else:
            self = super().__new__(cls, words, None, None, params)
        self.code = code
        return self


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
    if code in VERDICTS:
        said = {k: words(v, money) if type(v) in (dict, list) else v for k, v in params.items()}
        try:
            Verdict(code, said).render()
        except (KeyError, IndexError, ValueError):
            return code  # a row whose parameters the words do not fit: its code, not a crash
        return Verdict(code, said)
    return str(params.get("text", code))  # SAID, or a code this banco does not know
