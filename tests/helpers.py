"""Crafting tables for rule tests: decide/evolve are pure, so a test can set the scene directly."""

from __future__ import annotations

from banco.ledger.board.edition import load_edition
from banco.ledger.board.rule_sets import load_rules
from banco.ledger.records import commands as c
from banco.ledger.rules.decide import decide, start_game
from banco.ledger.table.state import State, evolve, fold

EDITION = load_edition("it")
POS = {s.name: s.position for s in EDITION.spaces if s.is_property}


def new_table(players=("Anna", "Bruno", "Carla", "Dario"), rules="classic", edition=None,
              final=False) -> State:
    """A table as dealt; the edition is the rule set's own unless named (vintage: it-lire)."""
    ruleset = load_rules(rules)
    events = start_game(list(players), ruleset, edition or ruleset.edition, final=final)
    for i, e in enumerate(events, start=1):
        e["seq"] = i
    return fold(events, 1)


def play(state: State, *commands) -> tuple[State, list[dict]]:
    """Decide and apply each command in turn; return the final table and all events."""
    all_events = []
    for cmd in commands:
        for e in decide(state, cmd):
            state = evolve(state, e)
            all_events.append(e)
    return state, all_events


def types(events) -> list[str]:
    return [e["type"] for e in events]


def of_type(events, type_) -> list[dict]:
    return [e["data"] for e in events if e["type"] == type_]


def own(state: State, owner: str, *names: str) -> State:
    owners = list(state.owners)
    for n in names:
        owners[POS[n]] = owner
    return state._replace(owners=tuple(owners))


def place(state: State, player: str, position: int, **changes) -> State:
    i = state.index[player]
    p = state.players[i]._replace(position=position, **changes)
    return state._replace(players=state.players[:i] + (p,) + state.players[i + 1:])


def cash(state: State, player: str, amount: int) -> State:
    """Set a player's cash, keeping the books balanced (the bank 'paid' the difference)."""
    i = state.index[player]
    diff = amount - state.players[i].cash
    p = state.players[i]._replace(cash=amount)
    return state._replace(players=state.players[:i] + (p,) + state.players[i + 1:],
                          bank_paid_out=state.bank_paid_out + diff)


def build(state: State, name: str, level: int) -> State:
    """Put buildings on a lot, taking them from the bank's stock as the table would."""
    b = list(state.buildings)
    old = b[POS[name]]
    b[POS[name]] = level
    houses = (old if old < 5 else 0) - (level if level < 5 else 0)
    hotels = (1 if old == 5 else 0) - (1 if level == 5 else 0)
    return state._replace(buildings=tuple(b), bank_houses=state.bank_houses + houses,
                          bank_hotels=state.bank_hotels + hotels)


def mortgage(state: State, *names: str) -> State:
    return state._replace(mortgaged=state.mortgaged | {POS[n] for n in names})


def turn_of(state: State, player: str) -> State:
    return state._replace(turn=state.turn._replace(player=player, phase="roll", doubles=0))


def balanced(state: State) -> bool:
    return sum(p.cash for p in state.players) - state.bank_paid_out == 0


Roll, Buy, Decline, Bid, Hammer, Claim = c.Roll, c.Buy, c.Decline, c.Bid, c.Hammer, c.Claim
DrawCard, PayFine, UseCard, PayDebt = c.DrawCard, c.PayFine, c.UseCard, c.PayDebt
Build, Sell, Mortgage, Unmortgage = c.Build, c.Sell, c.Mortgage, c.Unmortgage
Trade, Items, Bankrupt, BuildingAuction = c.Trade, c.Items, c.Bankrupt, c.BuildingAuction
BreakUp, Misdraw, Shuffle = c.BreakUp, c.Misdraw, c.Shuffle
BuildTo, SellTo = c.BuildTo, c.SellTo


def stock_ok(state: State) -> bool:
    """Houses and hotels on the board plus the bank's are the edition's 32 and 12."""
    houses = sum(b for b in state.buildings if b < 5)
    hotels = sum(1 for b in state.buildings if b == 5)
    return (houses + state.bank_houses == state.edition.bank_houses
            and hotels + state.bank_hotels == state.edition.bank_hotels)


def debt(state: State, debtor: str, creditor: str, amount: int) -> State:
    from banco.ledger.table.state import Debt

    return state._replace(debts=state.debts + (Debt(debtor, creditor, amount, "test debt",
                                                    state.seq + 1000 + len(state.debts)),))


def owe(state: State, debtor: str, creditor: str, amount: int, reason: str = "rent") -> State:
    """A debt on the table, as DebtIncurred records it."""
    from banco.ledger.rules.decision import Tx

    tx = Tx(state)
    tx.emit("DebtIncurred", debtor=debtor, creditor=creditor, amount=amount, reason=reason)
    return tx.done()


def same_table(a, b) -> bool:
    """Equal, and of the same types all the way down (a tuple is not a list, a Player is not a
    plain tuple): what a snapshot read back must be (ledger/snapshot_check.py)."""
    if a is b:  # the edition and rules a table read back shares with the dealt one: no walk
        return True
    if type(a) is not type(b):
        return False
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(same_table(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_table(a[k], b[k]) for k in a)
    if isinstance(a, (set, frozenset)):
        return a == b and all(type(x) in (int, str, tuple) for x in a)
    return a == b


def child_pids(pid: int) -> list[int]:
    """The processes whose parent is `pid` (Linux's /proc): for the tests that a Ctrl-C leaves
    no worker behind."""
    from pathlib import Path

    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def claimed_rent_book(path: str, now: str):
    """A book of one game: Anna buys Vicolo Stretto, Bruno lands on it, she claims, Carla rolls
    (the audit's, its pass's and the upcaster's tests start from it)."""
    from banco.ledger.book import Book

    book = Book(path)
    game = book.new_game(["Anna", "Bruno", "Carla"], now=now)
    for cmd in (c.Roll((1, 2)), c.Buy(), c.Roll((2, 1)), c.Claim("Anna"), c.Roll((3, 4))):
        book.execute(game, cmd, now=now)
    return book
