"""What every amount rule of the audit works from (projections/audit/amounts.py): the rules'
tables written out again from the board, the decks and the rule set's parameters (never by
asking `decide`), and the comparisons each rule makes: an amount against the rules', the payer
and payee, the owner of a deed.
"""

from __future__ import annotations

from banco.ledger.base.text import Text, msg
from banco.ledger.board.edition import Space
from banco.ledger.board.rule_sets import shown
from banco.ledger.table.state import BANK, State
from banco.projections.audit.books import who

# --- the tables, written out again ------------------------------------------------------------


def mortgage_value(space: Space) -> int:
    """004 §Impegno: the mortgage value printed on the back of the deed; half the price where
    the edition prints none (it-euro prints its own, halves rounded to 10 €)."""
    printed = getattr(space, "mortgage_value", None)
    # a deed has a price: a None here is the TypeError the pure module raises too
    return printed if printed is not None else space.price // 2  # type: ignore[operator]


def interest(rules, mortgage: int) -> int:
    """The rule set's interest (10%) on a mortgage, rounded the way the rule set says."""
    exact = mortgage * rules.mortgage_interest_percent
    return -(-exact // 100) if rules.interest_rounding == "up" else exact // 100


def units(rules, level: int) -> int:
    """Building units on a lot: houses, or a hotel counted with the houses it replaced."""
    return rules.houses_for_hotel + 1 if level == 5 else level


def sale_value(space: Space, rules, level: int) -> int:
    """What the Bank pays for `level` of buildings on a lot: half their cost (004 §Proprietà in
    vendita), each building's half rounded down to the whole unit."""
    # a street has a building cost: a None is the TypeError the pure module raises too
    return units(rules, level) * (space.house_cost // 2)  # type: ignore[operator]


def rent_due(t: State, position: int) -> int:
    """The rent the board gives for a landing on `position` with the table as it is: the
    deed's row for its buildings; double on an unbuilt lot of a complete group (not when a lot
    of the group is mortgaged, unless the rule set keeps it); stations by how many the owner
    has; utilities 4 or 10 times the dice."""
    space = t.edition.space(position)
    owner = t.owners[position]
    if owner is None or position in t.mortgaged:
        return 0
    # an owned square is a deed, in a group: a None is the KeyError the pure module raises
    group = t.edition.groups[space.group]  # type: ignore[index]
    held = sum(1 for p in group if t.owners[p] == owner)
    if space.kind == "station":
        return space.rents[held - 1]
    if space.kind == "utility":
        # The throw: the numbered dice, and the Speedy die's number when it counted (000
        # §SOCIETÀ: "incluso il Dado Speedy"; the Bus and Mr Monopoly count zero).
        speedy = getattr(t.turn, "speedy", None)
        extra = int(speedy) if speedy and speedy.isdecimal() else 0
        return space.rents[held - 1] * (sum(t.turn.dice[:2]) + extra)
    level = t.buildings[position]
    if level:
        return space.rents[level]
    if held < len(group):
        return space.rents[0]
    if any(p in t.mortgaged for p in group) and not t.rules.double_rent_with_mortgage:
        return space.rents[0]
    return 2 * space.rents[0]


def starting_cash(t: State) -> int:
    """Each player's capital: the rule set's, or by the number of players at the table where
    the rule set gives a table of them (002 §Preparazione)."""
    by_players = t.rules.starting_cash_by_players or {}
    return by_players.get(str(len(t.seats)), t.rules.starting_cash)


# --- one rule per event type ----------------------------------------------------------------
# The audit runs these after every event, and nearly every event is right: a message is built
# only when a check fails.  `what` and `why` are a message (a constant Text) or a function
# that makes one (a lambda over the event's names), called only for a problem.

def say(part) -> Text | str:  # a card's name is a plain str (a name in every language)
    return part() if callable(part) else part


def rules_of(t: State) -> Text:
    return msg("the {rules} rule set", rules=shown(t.rules))


def expect(t: State, what, got: int, want: int | None, why) -> list[str]:
    # `want` None: a square without the printed figure (space.amount, price, house_cost):
    # never equal, said as it is
    if got == want:
        return []
    cur = t.edition.currency
    return [msg("{what} is {got} {cur}; {why} gives {want} {cur}", what=say(what), got=got,
                cur=cur, why=say(why), want=want)]


def sides(d: dict, payer: str, payee: str, what) -> list[str]:
    out: list[str] = []
    if d["payer"] != payer:
        out.append(msg("{what} is paid by {payer}, not by {expected}", what=say(what),
                       payer=who(d["payer"]), expected=who(payer)))
    if d["payee"] != payee:
        out.append(msg("{what} is paid to {payee}, not to {expected}", what=say(what),
                       payee=who(d["payee"]), expected=who(payee)))
    return out


def owner_problems(t: State, d: dict, what) -> list[str]:
    """The player who mortgages, builds or sells on a deed owns it."""
    owner = t.owners[d["property"]]
    if owner != d["player"]:
        return [msg("{what}: {player} does not own it ({owner} does)", what=say(what),
                    player=d["player"], owner=who(owner or BANK))]
    return []
