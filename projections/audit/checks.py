"""Checks over a table, as pure functions: each returns what is wrong, or nothing.

The audit runs them after every event of a stored game; the state machine runs them after
every event of its random games.  `EventChecks` puts together everything checked at one event:
its amounts (projections/audit/amounts.py), the books account by account (projections/audit/books.py) and
the table it leaves (`table_problems`).
"""

from __future__ import annotations

from itertools import compress, count
from operator import ne

from banco.ledger.base.text import msg
from banco.ledger.table.state import BANK, State
from banco.projections.audit import amounts
from banco.projections.audit.amounts import AMOUNT_RULES
from banco.projections.audit.books import Books, entries, entry_problems


class EventChecks:
    """Every check of one game, event by event: give it the table before and after each event
    still in force (retracted ones left out), in order."""

    def __init__(self, started: State | None, books: Books | None = None):
        """`started`: the table at GameStarted; or None with the `books` to go on with (a
        copy's, a pickled one's)."""
        if books is None:
            assert started is not None, "the checks of a game start from its GameStarted table"
            books = Books(started.seats)
        self.books = books
        self.previous: dict | None = None
        self.card: dict | None = None  # the effect of the card drawn this turn, if any
        self.clean: State | None = None  # the last table that passed `table_problems`

    def copy(self) -> EventChecks:
        """A copy to go back to (the audit's checkpoints, for an undo): what it keeps that
        changes (the books' running balances) is copied, the tables it only reads are not."""
        # Taken before every command of an audit: field by field, no walk over __dict__, no
        # constructor
        other = object.__new__(EventChecks)
        other.books = self.books.copy()
        other.previous, other.card, other.clean = self.previous, self.card, self.clean
        return other

    def mark(self) -> tuple:
        """What an undo needs to take these checks back to this moment, between two commands
        of a game whose every event so far passed (the audit's checkpoints): taken before
        every command, so nothing is copied.  The running balances are not kept: every event
        passed its statements, so each seat's balance is its cash on the table and the Bank's
        what the table has it issue net (`restored` reads them back from it); the starting
        cash issued is only ever replaced, never changed in place (Books.post)."""
        b = self.books
        return (b.seats, b.accounts, b.playing, b.issued, b.balanced, self.previous, self.card,
                self.clean)

    @classmethod
    def restored(cls, mark: tuple, table: State) -> EventChecks:
        """The checks as `mark` left them, with `table` the table then: see `mark`."""
        seats, accounts, playing, issued, balanced, previous, card, clean = mark
        books = object.__new__(Books)
        books.seats, books.accounts, books.playing = seats, accounts, playing
        books.issued, books.balanced = issued, balanced
        books.balances = {p.name: p.cash for p in table.players}
        books.balances[BANK] = -table.bank_paid_out
        checks = cls(None, books)
        checks.previous, checks.card, checks.clean = previous, card, clean
        return checks

    def start(self) -> list[str]:
        """What is wrong with the seats themselves (checked at GameStarted)."""
        return self.books.start()

    def unfoldable(self, event: dict) -> list[str]:
        """Why an event the fold could not apply is wrong, when its accounts say so."""
        return [p for e in entries(event) for p in entry_problems(e, self.books.seats)]

    def after(self, before: State, event: dict, after: State) -> list[str]:
        kind = event["type"]
        if kind == "CardDrawn":
            d = event["data"]
            deck = before.edition.decks.get(d["deck"])
            self.card = (deck.cards[d["number"] - 1].effect
                         if deck and 1 <= d["number"] <= len(deck.cards) else None)
        elif kind in ("DiceRolled", "TurnEnded"):
            self.card = None
        # most events have no amount to check: amounts.problems only for those that have
        problems = (amounts.problems(before, event, self.previous, self.card)
                    if kind in AMOUNT_RULES else [])
        problems += self.books.post(event, after)
        # The fold shares the parts of the table an event leaves alone, so `is` tells what
        # changed: a table whose every part checked here is the one that passed last time
        # passes again (most events move nobody's cash and touch no deed).
        clean = self.clean
        if not (clean is not None and after.players is clean.players
                and after.buildings is clean.buildings and after.owners is clean.owners
                and after.mortgaged is clean.mortgaged and after.held_cards is clean.held_cards
                and after.bank_houses == clean.bank_houses
                and after.bank_hotels == clean.bank_hotels):
            if (clean is not None and after.buildings is clean.buildings
                    and after.owners is clean.owners and after.mortgaged is clean.mortgaged
                    and after.bank_houses == clean.bank_houses
                    and after.bank_hotels == clean.bank_hotels
                    and after.edition is clean.edition and after.rules is clean.rules):
                # Only the players (cash, a move) or the held cards changed since the table
                # that passed: the checks of the rest would look at the very same values,
                # and those of a player whose record is that table's would too.
                found = [] if _changed_players_pass(after, clean) else player_problems(after)
            else:
                # The buildings' checks look again only at the groups whose buildings, deeds
                # or mortgages are not those of the table that passed (_touched_groups).
                groups = _touched_groups(after, clean)
                found = table_problems(after, buildings=groups is None or bool(groups),
                                       groups=groups)
            problems += found
            self.clean = None if found else after
        self.previous = event
        return problems


def table_problems(t: State, buildings: bool = True,
                   groups: set[str] | None = None) -> list[str]:
    """What is wrong with a table on its own: negative cash, buildings the Bank and the board
    do not account for, building where no rule allows it, a bankrupt who still holds something,
    a mortgage without an owner, a jail card held in one place only.  Run after every event,
    so it sticks to what C-level tuple operations can answer when nothing is built;
    `buildings=False` skips the per-group checks when the caller knows the buildings, deeds and
    mortgages are those it has already checked; `groups`: only those groups' (None: all)."""
    problems = _seat_problems(t)
    owners = t.owners
    board = t.buildings
    hotels = board.count(5)
    houses = sum(board) - 5 * hotels
    if t.bank_houses < 0 or houses + t.bank_houses != t.edition.bank_houses:
        problems.append(msg("houses: {board} on the board and {bank} in the Bank", board=houses,
                            bank=t.bank_houses))
    if t.bank_hotels < 0 or hotels + t.bank_hotels != t.edition.bank_hotels:
        problems.append(msg("hotels: {board} on the board and {bank} in the Bank", board=hotels,
                            bank=t.bank_hotels))
    if buildings and (houses or hotels):  # (the parameter: the board's tuple once shadowed it)
        problems += _building_problems(t, groups)
    for pos in t.mortgaged:
        if owners[pos] is None:
            problems.append(msg("the Bank holds {space} mortgaged", space=t.edition.space(pos).name))
    return problems + _held_card_problems(t)


def player_problems(t: State) -> list[str]:
    """table_problems's checks that look at the players or the held cards, in its order: all
    of it when the buildings, deeds, mortgages and the Bank's stock are those of a table that
    passed."""
    return _seat_problems(t) + _held_card_problems(t)


def _changed_players_pass(t: State, clean: State) -> bool:
    """Whether player_problems(t) is [] when `clean` passed table_problems and has t's deeds
    and held cards: only the players whose record is not clean's are looked at, as
    _seat_problems and _held_card_problems look at them (a hand of jail cards that changed
    with the held cards the same: player_problems says)."""
    if t.held_cards is not clean.held_cards or len(t.players) != len(clean.players):
        return False
    owners = t.owners
    for p, q in zip(t.players, clean.players, strict=True):
        if p is not q and (p.cash < 0 or p.name != q.name or p.jail_cards != q.jail_cards
                           or p.bankrupt and (p.cash or p.jail_cards or p.name in owners)):
            return False
    return True


def _seat_problems(t: State) -> list[str]:
    problems: list[str] = []
    owners = t.owners
    for p in t.players:
        if p.cash < 0:
            problems.append(msg("{player}'s cash is negative ({cash})", player=p.name, cash=p.cash))
        if p.bankrupt and (p.cash or p.jail_cards or p.name in owners):
            problems.append(msg("{player} is bankrupt but still holds something", player=p.name))
    return problems


def _held_card_problems(t: State) -> list[str]:
    problems: list[str] = []
    for (deck, number), holder in t.held_cards.items():
        if (deck, number) not in t.player(holder).jail_cards:
            problems.append(msg("{deck} {number} is held by {player} in one place only", deck=deck,
                                number=number, player=holder))
    return problems


def _touched_groups(t: State, clean: State | None) -> set[str] | None:
    """The colour groups where `t` is not `clean` (the last table that passed every check):
    a lot whose buildings, owner or mortgage differ.  None: look at every group (no table
    passed yet, or another board or rule set).

    Why the other groups need no second look: _building_problems judges a group by its own
    lots' buildings, owners and mortgages, the rule set's houses to a hotel and the board,
    nothing else; a group whose lots hold the very values `clean`'s held passes as it
    passed there.  The tables are compared, not the event's words: an event whose fold
    changed a lot it does not name is looked at all the same (tests/test_audit_shortcuts.py
    forges one).  (Every group was looked at after every purchase, build and mortgage: 3% of
    the audit.)"""
    if clean is None or t.edition is not clean.edition or t.rules is not clean.rules \
            or len(t.buildings) != len(clean.buildings) or len(t.owners) != len(clean.owners):
        return None
    lots: set[int] = set()
    if t.buildings is not clean.buildings:
        lots.update(compress(count(), map(ne, t.buildings, clean.buildings)))
    if t.owners is not clean.owners:
        lots.update(compress(count(), map(ne, t.owners, clean.owners)))
    if t.mortgaged is not clean.mortgaged:
        lots.update(t.mortgaged ^ clean.mortgaged)
    group_of = _board(t.edition)[0]
    return {group_of[p] for p in lots if p in group_of}


_BOARDS: dict[int, tuple] = {}


def _board(edition) -> tuple[dict[int, str], dict[str, bool]]:
    """A board's lot -> its group, and group -> whether all its lots are streets: the same
    for every table of a game, worked out once a board."""
    found = _BOARDS.get(id(edition))
    if found is None or found[0] is not edition:
        if len(_BOARDS) > 16:
            _BOARDS.clear()
        groups = edition.groups
        found = _BOARDS[id(edition)] = (
            edition,
            {p: name for name, group in groups.items() for p in group},
            {name: all(edition.space(p).kind == "street" for p in group)
             for name, group in groups.items()})
    return found[1], found[2]


def _building_problems(t: State, only: set[str] | None = None) -> list[str]:
    problems: list[str] = []
    buildings, owners = t.buildings, t.owners
    hotel = t.rules.houses_for_hotel + 1  # a hotel is one level above the houses it needs
    streets = _board(t.edition)[1]
    for name, group in t.edition.groups.items():
        if only is not None and name not in only:
            continue
        levels = [buildings[p] for p in group]
        if not any(levels):
            continue
        levels = [hotel if lv == 5 else lv for lv in levels]
        held = {owners[p] for p in group}
        if len(held) != 1 or None in held:
            problems.append(msg("buildings on the {group} group, which nobody owns whole", group=name))
        if any(p in t.mortgaged for p in group):
            problems.append(msg("buildings on the {group} group beside a mortgaged lot", group=name))
        if max(levels) - min(levels) > 1:
            problems.append(msg("uneven building on the {group} group: {levels}", group=name,
                                levels=levels))
        if not streets[name]:
            problems.append(msg("buildings on the {group} group, which is not streets", group=name))
    return problems
