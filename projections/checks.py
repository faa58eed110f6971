"""Checks over a table, as pure functions: each returns what is wrong, or nothing.

The audit runs them after every event of a stored game; the state machine runs them after
every event of its random games.
"""

from __future__ import annotations

from ledger.state import State
from ledger.worth import deeds_of


def table_problems(t: State) -> list[str]:
    problems = []
    if sum(p.cash for p in t.players) - t.bank_paid_out != 0:
        problems.append("the books do not balance: money appeared or vanished")
    for p in t.players:
        if p.cash < 0:
            problems.append(f"{p.name}'s cash is negative ({p.cash})")
    houses = sum(b for b in t.buildings if b < 5)
    hotels = sum(1 for b in t.buildings if b == 5)
    if not 0 <= t.bank_houses or houses + t.bank_houses != t.edition.bank_houses:
        problems.append(f"houses: {houses} on the board and {t.bank_houses} in the Bank")
    if not 0 <= t.bank_hotels or hotels + t.bank_hotels != t.edition.bank_hotels:
        problems.append(f"hotels: {hotels} on the board and {t.bank_hotels} in the Bank")
    hotel = t.rules.houses_for_hotel + 1  # a hotel is one level above the houses it needs
    for name, group in t.edition.groups.items():
        levels = [hotel if t.buildings[p] == 5 else t.buildings[p] for p in group]
        if not any(levels):
            continue
        owners = {t.owners[p] for p in group}
        if len(owners) != 1 or None in owners:
            problems.append(f"buildings on the {name} group, which nobody owns whole")
        if any(p in t.mortgaged for p in group):
            problems.append(f"buildings on the {name} group beside a mortgaged lot")
        if max(levels) - min(levels) > 1:
            problems.append(f"uneven building on the {name} group: {levels}")
        if any(t.edition.space(p).kind != "street" for p in group):
            problems.append(f"buildings on the {name} group, which is not streets")
    for p in t.players:
        if p.bankrupt and (deeds_of(t, p.name) or p.cash or p.jail_cards):
            problems.append(f"{p.name} is bankrupt but still holds something")
    for pos in t.mortgaged:
        if t.owners[pos] is None:
            problems.append(f"the Bank holds {t.edition.space(pos).name} mortgaged")
    for (deck, number), holder in t.held_cards.items():
        if (deck, number) not in t.player(holder).jail_cards:
            problems.append(f"{deck} {number} is held by {holder} in one place only")
    return problems
