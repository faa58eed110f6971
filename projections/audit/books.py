"""The books, kept the way an accountant keeps them: every money movement is an entry from one
account to another, and the checks are pure functions over the entries and the folded table.

A total of all cash cannot catch a wrong transfer (a transfer moves both sides together), so
each account is checked on its own: every payer and payee is the Bank or a seated player, never
both sides of one transfer; no seat answers to the Bank's name; each player's statement comes
to his cash on the table and the Bank's to what it has issued net, after every event; starting
cash is issued once to each seat, before play.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar, NamedTuple

from banco.ledger.base.names import fold
from banco.ledger.base.text import Text, msg
from banco.ledger.records.events import MONEY_EVENTS, transfers_of
from banco.ledger.table.state import BANK, State

# What a banker would call the Bank, in banco's languages: a player seated under one of these
# could not be told from the Bank in a statement or a spoken claim.
BANK_WORDS = frozenset({fold(BANK), "bank", "banca"})


class Entry(NamedTuple):
    seq: int
    type: str
    payer: str
    payee: str
    amount: int
    reason: str


def entries(event: dict) -> list[Entry]:
    """The money movements of one event as entries (none for most events)."""
    seq, type_ = event.get("seq", 0), event["type"]
    if type_ not in MONEY_EVENTS and "transfers" not in event["data"]:
        return []
    return [Entry(seq, type_, t["payer"], t["payee"], t["amount"], t["reason"])
            for t in transfers_of(event)]


def _entry(event: dict, t: dict) -> Entry:
    """One transfer of `event` as entries() makes it."""
    return Entry(event.get("seq", 0), event["type"], t["payer"], t["payee"], t["amount"],
                 t["reason"])


def who(account: str) -> Text | str:
    """An account as said in a message: the Bank's name in the user's language."""
    return msg("the Bank") if account == BANK else account


# --- seats ----------------------------------------------------------------------------------

def seat_problems(seats: Iterable[str]) -> list[str]:
    """Names that make accounts ambiguous: the Bank's, blank, or two that fold alike."""
    problems: list[str] = []
    seen: dict[str, str] = {}
    for name in seats:
        key = fold(name)
        if not key:
            problems.append(msg("a seat has a blank name ({name}): nobody can address it",
                                name=repr(name)))
        elif key in BANK_WORDS:
            problems.append(msg("player {name} sits under the Bank's name: that account and "
                                "the Bank's cannot be told apart", name=repr(name)))
        elif key in seen:
            problems.append(msg("players {first} and {name} fold to the same name: their "
                                "accounts cannot be told apart", first=repr(seen[key]),
                                name=repr(name)))
        seen.setdefault(key, name)
    return problems


# --- one entry ------------------------------------------------------------------------------

def entry_problems(entry: Entry, seats: Iterable[str]) -> list[str]:
    """Both sides are real accounts (the Bank or a seat), and they are two different ones."""
    accounts = set(seats) | {BANK}
    problems: list[str] = []
    for side, account in (("payer", entry.payer), ("payee", entry.payee)):
        if account not in accounts:
            problems.append(msg("{type} {side} {account} is neither the Bank nor a seated "
                                "player: the money goes nowhere", type=entry.type,
                                side=msg("payer") if side == "payer" else msg("payee"),
                                account=repr(account)))
    if entry.payer == entry.payee:
        problems.append(msg("{type}: {payer} pays {amount} to {payee}: a transfer needs two "
                            "different accounts", type=entry.type, payer=who(entry.payer),
                            amount=entry.amount, payee=who(entry.payee)))
    if entry.amount < 0:
        problems.append(msg("{type}: a negative amount ({amount}) turns the transfer round",
                            type=entry.type, amount=entry.amount))
    return problems


# --- statements -----------------------------------------------------------------------------

def balances(all_entries: Iterable[Entry]) -> dict[str, int]:
    """Every account's statement balance: what came in minus what went out.  The Bank's is
    negative while it has issued more than it took in."""
    out: dict[str, int] = {}
    for e in all_entries:
        out[e.payer] = out.get(e.payer, 0) - e.amount
        out[e.payee] = out.get(e.payee, 0) + e.amount
    return out


def statement_problems(books: dict[str, int], table: State) -> list[str]:
    """Each player's statement comes to his cash on the table; the Bank's to what the table
    has it issue net."""
    problems: list[str] = []
    for p in table.players:
        if books.get(p.name, 0) != p.cash:
            problems.append(msg("{player}'s statement comes to {books} but the table shows "
                                "{cash} in cash", player=p.name, books=books.get(p.name, 0),
                                cash=p.cash))
    if -books.get(BANK, 0) != table.bank_paid_out:
        problems.append(msg("the Bank's statement shows {books} issued net but the table has "
                            "{table}", books=-books.get(BANK, 0), table=table.bank_paid_out))
    return problems


def issue_problems(issued: dict[str, int], entry: Entry) -> list[str]:
    """Starting cash goes to each seat once: `issued` maps a payee to the seq of his issue."""
    if entry.type != "CashIssued":
        return []
    if entry.payee in issued:
        return [msg("starting cash issued to {player} a second time (first at event {seq})",
                    player=entry.payee, seq=issued[entry.payee])]
    return []


def unissued(issued: dict[str, int], seats: Iterable[str]) -> list[str]:
    """Called at the first event of play: every seat must have had its starting cash."""
    missing = [s for s in seats if s not in issued]
    if missing:
        return [msg("play began before {players} received starting cash",
                    players=", ".join(missing))]
    return []


class Books:
    """The running books of one game, for checking event by event: the pure functions above
    applied to the entries so far, without summing them all again at every step."""

    # Events that set the table up; anything else means play has begun.
    SETUP: ClassVar[frozenset[str]] = frozenset({"GameStarted", "CashIssued", "CommandRecorded"})

    def __init__(self, seats: Iterable[str]):
        self.seats: tuple[str, ...] = tuple(seats)
        # entry_problems's, made once
        self.accounts: frozenset[str] = frozenset(self.seats) | {BANK}
        self.balances: dict[str, int] = {}
        self.issued: dict[str, int] = {}
        self.playing: bool = False
        self.balanced: State | None = None  # the last table whose statements came out right

    def copy(self) -> Books:
        """A copy whose running balances change apart from these: the seats and accounts
        shared, the books apart (taken before every command of an audit: no constructor)."""
        other = object.__new__(Books)
        other.seats, other.accounts, other.playing = self.seats, self.accounts, self.playing
        other.balances, other.issued = self.balances.copy(), self.issued.copy()
        other.balanced = self.balanced  # the last table whose statements came out right
        return other

    def start(self) -> list[str]:
        return seat_problems(self.seats)

    def post(self, event: dict, table: State) -> list[str]:
        """Post one event's entries; return what is wrong with them or with the statements
        against the table folded up to and including this event."""
        problems: list[str] = []
        type_ = event["type"]
        if not self.playing and type_ not in self.SETUP:
            self.playing = True
            problems += unissued(self.issued, self.seats)
        # entries(event)'s transfers, read as the dicts they are: an Entry is made only for
        # what is said of one (most events move no money; a money event's is its data)
        data = event["data"]
        moved = ((data,) if type_ in MONEY_EVENTS else
                 transfers_of(event) if "transfers" in data else ())
        accounts = self.accounts
        for t in moved:
            payer, payee, amount = t["payer"], t["payee"], t["amount"]
            t["reason"]  # noqa: B018 - a transfer has one, as entries() reads it
            # entry_problems's tests, in its order, against the accounts set made once: it
            # is called (for its words) only when one of them fails
            if not (payer in accounts and payee in accounts and payer != payee
                    and not amount < 0):
                problems += entry_problems(_entry(event, t), self.seats)
            if type_ == "CashIssued":
                e = _entry(event, t)
                problems += issue_problems(self.issued, e)
                if e.payee not in self.issued:  # replaced, not changed: EventChecks.mark
                    self.issued = {**self.issued, e.payee: e.seq}
                if self.playing:
                    problems.append(msg("starting cash issued to {player} after play began",
                                        player=e.payee))
            b = self.balances
            b[payer] = b.get(payer, 0) - amount
            b[payee] = b.get(payee, 0) + amount
        # Checked after every event, money or not: a fold that moves cash on a non-money
        # event is as wrong as a transfer that moves the wrong amount.  With no entry posted
        # and the very same players and Bank figure as the table that last passed, the
        # answer is the one it had then.
        last = self.balanced
        if moved or last is None or table.bank_paid_out != last.bank_paid_out:
            found = statement_problems(self.balances, table)
        elif table.players is not last.players:
            # No entry posted since a table whose statements balanced: a player whose record
            # is that table's very record balances still; the others are looked at (most
            # events move one token), all of them again, for the words, if one does not.
            b = self.balances
            found = []
            for p, q in zip(table.players, last.players, strict=True):
                if p is not q and b.get(p.name, 0) != p.cash:
                    found = statement_problems(b, table)
                    break
        else:
            return problems
        problems += found
        self.balanced = None if found else table
        return problems


def delta_problems(before: State, moved: Iterable[Entry], after: State) -> list[str]:
    """Over one command: each account's change on the table is the sum of its entries."""
    change: dict[str, int] = {}
    for e in moved:
        change[e.payer] = change.get(e.payer, 0) - e.amount
        change[e.payee] = change.get(e.payee, 0) + e.amount
    problems: list[str] = []
    for p, q in zip(before.players, after.players, strict=True):
        if q.cash - p.cash != change.get(p.name, 0):
            said = format(change.get(p.name, 0), "+")
            problems.append(msg("{player}'s cash went from {start} to {end} but the transfers "
                                "come to {change}", player=p.name, start=p.cash, end=q.cash,
                                change=said))
    issued = after.bank_paid_out - before.bank_paid_out
    if issued != -change.get(BANK, 0):
        net, said = format(issued, "+"), format(-change.get(BANK, 0), "+")
        problems.append(msg("the Bank issued {issued} net but its transfers come to {change}",
                            issued=net, change=said))
    return problems
