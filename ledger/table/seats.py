"""Who may sit at the table: player names a banker can type, that nothing else can be read as.

A name is typed after every command word (`claim Anna`, `bid Bruno 120`, `--wanted Anna=3`),
matched ignoring case and accents (ledger/base/names.py `fold`), and must never reach the Bank's
account: a player called `bank` would be paid by himself and the books would not show it.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from banco.ledger.base.confusables import skeleton
from banco.ledger.base.errors import UsageError
from banco.ledger.base.names import code_point, fold, hidden_character, shown
from banco.ledger.base.text import Text, msg

MAX_NAME = 24  # fits the state table's column and a score sheet's line

# Everything a banker might call the Bank, folded: none of them may be a player's name.
BANK_NAMES = frozenset(fold(n) for n in (
    "bank", "the bank", "banker", "the banker", "banca", "la banca", "banco", "il banco",
    "banchiere", "il banchiere"))

# The words `trade` reads as a get-out-of-jail card among the items.
RESERVED = frozenset({"jail-card", "jail", "card"})


def name_problem(name: str) -> Text | None:
    """Why `name` cannot be a player's name (a message), or None."""
    if not isinstance(name, str) or not name.strip():
        return msg("a name cannot be empty or blank")
    bad = hidden_character(name)
    if bad is not None:
        code = code_point(bad)
        kind = unicodedata.category(bad)
        if kind == "Cc":
            return msg("it contains the control character {code}", code=code)
        if kind == "Cf":  # a zero-width space or joiner, a direction mark: pasted, unseen
            return msg("it contains an invisible character ({code})", code=code)
        # a private-use or unassigned code point, or a byte that was not UTF-8 (a surrogate)
        return msg("it contains a character that cannot be shown ({code})", code=code)
    if name != name.strip():
        return msg("it has spaces at its ends: type it as {name!r}", name=name.strip())
    if len(name) > MAX_NAME:
        return msg("it is {n} characters long; at most {most}", n=len(name), most=MAX_NAME)
    folded = fold(name)
    if folded in BANK_NAMES:
        return msg("that is the Bank's name: the Bank's account is not a player's")
    if name.startswith("-"):
        return msg("a name starting with '-' would be read as an option")
    if name.startswith("#"):
        return msg("a name starting with '#' would be read as a comment in a transcript")
    if "=" in name:
        return msg("'=' separates a name from a count (`--wanted Anna=3`)")
    if folded in RESERVED:
        return msg("{name!r} is how a get-out-of-jail card is named in a trade "
                   "(`--get jail-card`)", name=name)
    if name.isdigit():
        return msg("a name of digits would be read as an amount or a number")
    if not any(ch.isalpha() for ch in name):
        return msg("a name needs at least one letter")
    return None


def check_names(players: Sequence[str]) -> None:
    """Refuse the first name that cannot be typed unambiguously, and names that fold alike."""
    for name in players:
        why = name_problem(name)
        if why:
            raise UsageError("player name {name!r} refused: {why}",
                             name=shown(name), why=why)  # 10,000 characters: cut
    seen: dict[str, str] = {}
    for name in players:
        key = fold(name)
        if key in seen:
            raise UsageError(
                "player names {seen!r} and {name!r} are the same to banco, which ignores case and accents: give each player a distinct name",
                seen=seen[key], name=name)
        seen[key] = name
    looks: dict[str, str] = {}
    for name in players:  # Bea and Bеa (a Cyrillic е): two names nobody at the table tells apart
        key = skeleton(name)
        if key in looks:
            raise UsageError("player names {seen!r} and {name!r} look the same (a letter of "
                             "another alphabet that prints as a Latin one): give each player a "
                             "name the table can tell apart", seen=looks[key], name=name)
        looks[key] = name
