"""What the rules for what players own share: the rulebooks' sections they cite, and the reads of
a deed and its group (its name, its owner, even building, where a house could go).  The rules
themselves are by part: buildings.py, mortgages.py, trade.py, bankruptcy.py.

Classic rules (seed 004, 003 §05-§10), with the championship's precise answers (seed 000 FAQ
25-33) where the classic text is silent.
"""

from __future__ import annotations

from banco.ledger.base.errors import RuleViolation
from banco.ledger.base.text import Text, msg, plural
from banco.ledger.table.state import State
from banco.ledger.table.worth import deeds_of

R_BUILD = "004 §A casa; 003 §05"
R_HOTEL = "004 §Alberghi; 003 §05"
R_SHORT = "004 §Mancanza di edifici; 000 FAQ 28-30"
R_SELL = "004 §Proprietà in vendita; 003 §07"
R_MORTGAGE = "004 §Impegno; 003 §07"
R_TRADE = "003 §06; 004 §Proprietà in vendita"
R_BANKRUPT = "003 §10; 004 §Fallimento"
R_FEE = "004 §Impegno; 000 FAQ 33"
R_GIFT = "003 §06; 004 §Note di gioco; 002 §Varie"
R_VINTAGE = "002 §Fallimento"
R_SHORT_GAME = "004 §Regole del gioco breve"


def name_of(state: State, pos: int) -> str:
    return state.edition.space(pos).name


def group_of(state: State, pos: int) -> tuple[int, ...]:
    group = state.edition.space(pos).group
    assert group is not None  # asked of deeds, and every deed is in a group
    return state.edition.groups[group]


def owner_of(state: State, pos: int, player: str | None, action: Text) -> str:
    space = state.edition.space(pos)
    owner = state.owners[pos]
    if owner is None:
        raise RuleViolation("{space} belongs to the Bank; nobody can {action} it",
                            allowed=msg("a deed's owner can {action} it", action=action),
                            space=space.name, action=action)
    if player is not None and player != owner:
        raise RuleViolation("{space} belongs to {owner}, not {player}",
                            allowed=msg("{owner} may {action} it", owner=owner, action=action),
                            space=space.name, owner=owner, player=player)
    return owner


def levels_after(state: State, pos: int, level: int) -> list[int]:
    """The group's building levels if `pos` had `level`, a hotel counted as one level above
    the houses it needs (4 classic, 3 in the short game): 003 §05, even building, hotel last."""
    hotel = state.rules.houses_for_hotel + 1
    return [hotel if lv == 5 else lv
            for lv in (level if p == pos else state.buildings[p] for p in group_of(state, pos))]


def even(levels: list[int]) -> bool:
    return max(levels) - min(levels) <= 1


def buildable_lots(state: State, player: str, kind: str) -> list[int]:
    """Lots where `player` could legally put one more house (kind house) or a hotel."""
    hfh = state.rules.houses_for_hotel
    out = []
    for pos in deeds_of(state, player):
        space = state.edition.space(pos)
        if space.kind != "street":
            continue
        group = group_of(state, pos)
        if any(state.owners[p] != player or p in state.mortgaged for p in group):
            continue
        level = state.buildings[pos]
        if kind == "house" and level < hfh and even(levels_after(state, pos, level + 1)):
            out.append(pos)
        if kind == "hotel" and level == hfh and even(levels_after(state, pos, 5)):
            out.append(pos)
    return out


def level_words(level: int) -> Text:
    return msg("a hotel") if level == 5 else plural("{n} house", "{n} houses", level)
