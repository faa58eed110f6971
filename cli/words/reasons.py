"""The `reason` of a fact, said in the user's language.

A reason is English data written by `decide` (the audit re-derives it by re-running decide, so
it cannot depend on the language).  To say it in Italian, it is matched against the templates
decide writes it from; the parts it fills in (names of players and spaces, amounts, sections of
the rulebooks) are kept as they are.  A reason that matches no template (a referee's own words,
a house-rules text) is shown as written.  tests/test_i18n.py checks that every reason in the
recorded games matches a template here.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache

from banco.cli.words.event_words import say_types
from banco.cli.words.i18n import N_, NN_, _, ngettext, translations
from banco.ledger.base.text import SAYERS

# Most specific first: the first template that matches the whole reason is used.
TEMPLATES = [
    N_("rent on {space}, after the rent of an earlier square ({rule})"),
    N_("rent on {space}"),
    N_("bought {space}"),
    N_("won {space} at auction"),
    N_("won {space} at {seller}'s auction (002 §Varie)"),
    N_("landed on Via!"),
    N_("passed Via!"),
    N_("starting cash"),
    N_("starting cash for {n} players ({rule})"),
    N_("jail fine before rolling"),
    N_("jail fine after {n} failed tries"),
    N_("landed on {space}"),
    N_("doubles {n} times in a row ({rule}); the token does not move"),
    N_("the lot is mortgaged (004 §Impegno)"),
    N_("house {n} on {space}"),
    N_("hotel on {space} ({n} houses back to the Bank)"),
    N_("built evenly: {changes}"),
    N_("sold evenly at half price: {changes}"),
    N_("sold {what} at half price"),
    N_("sold a house on {space} at half price"),
    "hotel on {space} sold: {n} house(s) back on the lot, {m} paid at half value",
    "hotel on {space} sold: {n} house(s) back on the lot",
    "hotel on {space} broken up into {n} house(s)",
    N_("mortgaged {space}"),
    N_("{space} was mortgaged during {player}'s turn: it passes as it was when the turn began, "
       "and its {amount} goes back to the Bank (000 FAQ 32); {debtor} has only {left} left"),
    N_("{space} was mortgaged during {player}'s turn: it passes as it was when the turn began, "
       "and its {amount} goes back to the Bank (000 FAQ 32)"),
    N_("lifted the mortgage on {space}: {mortgage} + {interest} interest"),
    N_("deeds dealt and paid at once: {deeds}"),
    N_("bankruptcy of {player}: everything to the Bank{more}"),
    N_("bankruptcy of {player}: everything to {creditor}{more}"),
    N_("the Bank pays {player}'s debt in full ({reason}; 002 §Fallimento)"),
    N_("{player} went bankrupt; {winner} is the last player left (003 §11)"),
    N_("{player} went bankrupt"),
    N_("owed {owed}, could raise {can}"),
    N_("nobody bid: {space} stays with {seller} (002 §Varie)"),
    N_("nobody bid: the deed stays with the Bank (house rules: auction_no_bid = bank_keeps)"),
    N_("nobody bid and nobody can pay {amount}: the deed stays with the Bank ({rule})"),
    N_("nobody bid for {space}: given to the richest player at the opening bid ({rule}), "
       "the banker choosing among the tied"),
    N_("nobody bid for {space}: given to the richest player at the opening bid ({rule})"),
    N_("nobody bid: the {kind} stays with the Bank and the auctions end"),
    N_("hotel on {space} won at a building auction"),
    N_("house on {space} won at a building auction"),
    N_("{kind} auctioned for {amount}"),
    N_("{why}: a new auction without {player} ({rule})"),
    N_("{card}: {amount} to each player"),
    "{card}: {houses} house(s) x {house} + {hotels} hotel(s) x {hotel}",
    N_("trade with {player}"),
    N_("the third doubles send {player} to jail ({rule})"),
    N_("in jail only the numbered dice count ({rule})"),
    N_("{player} has not passed Via! yet ({rule})"),
    N_("the Bus: {n}, both dice ({rule})"),
    N_("the Bus: {n}, one die ({rule})"),
    N_("the Bus: {spaces}, {which} ({rule})"),
    N_("a triple: any space, clockwise ({rule})"),
    N_("referee {referee}: {reason}"),
    N_("10% on receiving the mortgaged {space}"),
    N_("{owner}'s claim for {amount} rent on {space} from {payer} is too late: {payer} landed "
       "at event {landed} and the window closed when {closer} rolled (event {lapsed})"),
    N_("{what}: back to the Bank with {player}'s estate (002 §Fallimento)"),
    N_("time is up ({at}): {player} is the richest with {amount}"),
    N_("time is up ({at}): {players} tie at {amount}"),
    N_("bankruptcy number {n} ends the game: {player} is the richest with {amount}"),
    N_("bankruptcy number {n} ends the game: {players} tie at {amount}"),
    N_("{player} finishes the turn in progress, then the game ends"),
    N_("the game ends now"),
    N_("to {space}, the next free property ({rule})"),
    N_("to {space}, {owner}'s: no property is free and it is the nearest where rent is owed "
       "(000 FAQ 39)"),
    N_("no property is free and no rent is owed anywhere: the token stays (000 FAQ 39)"),
    N_("undo: {types} (`{line}`)"),
    N_("undo: {types}"),
]

# Reasons written with a count of buildings ("2 house(s)", as the log keeps them): said by a
# template of their own where the count is said in the form its number takes ("2 houses",
# "1 casa"); the fields named are the counts, of houses or of hotels.
COUNTED = {
    "hotel on {space} sold: {n} house(s) back on the lot, {m} paid at half value": (
        N_("hotel on {space} sold: {n} back on the lot, {m} paid at half value"), {"n": "house"}),
    "hotel on {space} sold: {n} house(s) back on the lot": (
        N_("hotel on {space} sold: {n} back on the lot"), {"n": "house"}),
    "hotel on {space} broken up into {n} house(s)": (
        N_("hotel on {space} broken up into {n}"), {"n": "house"}),
    "{card}: {houses} house(s) x {house} + {hotels} hotel(s) x {hotel}": (
        N_("{card}: {houses} x {house} + {hotels} x {hotel}"),
        {"houses": "house", "hotels": "hotel"}),
}


def _count(kind: str, text: str) -> str:
    if not text.isdigit():
        return text
    n = int(text)
    if kind == "hotel":
        return ngettext("{n} hotel", "{n} hotels", n).format(n=n)
    return ngettext("{n} house", "{n} houses", n).format(n=n)


# Fields that hold a list of buildings as decide writes it (ledger/rules/estate.py `level_words`):
# "Vicolo Corto 1 house -> a hotel", "a hotel on Vicolo Corto, 2 houses on Vicolo Stretto".
BUILDING_FIELDS = frozenset({"changes", "what"})
_HOUSES = re.compile(r"\b(\d+) houses?\b")
_ON = re.compile(r"(?P<building>a hotel|\d+ houses?) on (?P<space>[^,]+)")


def _say_buildings(text: str) -> str:
    def building(words: str) -> str:
        m = _HOUSES.fullmatch(words)
        if m:
            n = int(m.group(1))
            return ngettext("{n} house", "{n} houses", n).format(n=n)
        return _("a hotel") if words == "a hotel" else words

    if _ON.search(text):  # "a hotel on X, 2 houses on Y"
        return _ON.sub(lambda m: _("{building} on {space}").format(
            building=building(m.group("building")), space=m.group("space")), text)
    # "X 1 house -> a hotel"
    return re.sub(r"\ba hotel\b|\b\d+ houses?\b", lambda m: building(m.group(0)), text)


@cache
def _compiled() -> list[tuple[re.Pattern, str]]:
    out = []
    for template in TEMPLATES:
        parts = re.split(r"\{(\w+)\}", template)
        seen: set[str] = set()
        pattern = ""
        for i, p in enumerate(parts):
            if i % 2 == 0:
                pattern += re.escape(p)
            else:  # a name said twice is the same text twice
                pattern += f"(?P={p})" if p in seen else f"(?P<{p}>.*?)"  # may be empty
                seen.add(p)
        out.append((re.compile(pattern + r"\Z", re.S), template))
    return out


def say_reason(reason: str) -> str:
    """The reason in the user's language where it is one decide writes; else as written."""
    if not reason:
        return reason
    return _said_reason(translations(), reason)


# A game says the same reasons over and over (`rent on Via Roma`), each tried against every
# template: what a catalog made of a reason is kept (the catalog is in the key, so another
# language is another entry; bounded).
@lru_cache(maxsize=4096)
def _said_reason(catalog, reason: str) -> str:
    for pattern, template in _compiled():
        m = pattern.match(reason)
        if m:
            fields = {k: _say_buildings(v) if k in BUILDING_FIELDS else v
                      for k, v in m.groupdict().items()}
            if "types" in fields:  # an undo's: the event types it took back
                fields["types"] = say_types(fields["types"])
            if "at" in fields and ISO_TIME.match(fields["at"]):  # time-up's moment, as `log`
                fields["at"] = local_time(fields["at"])
            if "players" in fields:  # `Amy, Bob and Zed` (`Amy and Bob and Zed` before), in
                fields["players"] = _players(fields["players"])  # the user's language
            said, counts = COUNTED.get(template, (template, {}))
            for field, kind in counts.items():
                fields[field] = _count(kind, fields[field])
            return _(said).format(**fields)
    return reason


ISO_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)\Z")


def local_time(recorded_at: str) -> str:
    """`2026-11-30T06:12:03.000000Z` as the table's clock reads it: local time with its UTC
    offset (`2026-11-30 07:12:03+01:00`); the TZ environment variable is honoured."""
    from datetime import datetime

    moment = datetime.fromisoformat(recorded_at.replace("Z", "+00:00"))
    return moment.astimezone().isoformat(sep=" ", timespec="seconds")


def _players(text: str) -> str:
    """A list of names as a reason wrote it, said as the user's language joins them."""
    from banco.cli.words.i18n import say
    from banco.ledger.base.text import both

    return say(both(re.split(r", | and ", text)))


def known(reason: str) -> bool:
    return any(p.match(reason) for p, _t in _compiled())


# How a player left jail (LeftJail's `how`).
JAIL_WAYS = {"doubles": N_("doubles"), "fine": N_("fine"), "card": N_("card"),
             "fine after the last try": N_("fine after the last try"),
             "card instead of the fine, after the last try":
                 N_("card instead of the fine, after the last try")}

# How a rent was worked out (RentClaimOpened's `basis`, written by decide's rent_for).
BASES = [N_("unbuilt lot"), N_("hotel"), N_("{n} house(s)"), N_("{n} station(s) owned: {rent}"),
         N_("{n} utility(ies) owned: {factor} x dice {dice}"),
         N_("complete group but a lot is mortgaged: no double rent (004)"),
         N_("complete group, unbuilt: double {rent}")]


# The bases the log writes with a count, "1 house(s)": said with the count's plural form
COUNTED_BASES = {
    "{n} house(s)": NN_("{n} house", "{n} houses"),
    "{n} station(s) owned: {rent}": NN_("{n} station owned: {rent}",
                                        "{n} stations owned: {rent}"),
    "{n} utility(ies) owned: {factor} x dice {dice}": NN_(
        "{n} utility owned: {factor} x dice {dice}", "{n} utilities owned: {factor} x dice {dice}"),
}


@cache
def _basis_patterns() -> list[tuple[re.Pattern, str]]:
    """BASES as patterns, compiled once (built for every basis said, they were a fifth of a
    long game's `log`)."""
    out = []
    for template in BASES:
        parts = re.split(r"\{(\w+)\}", template)
        out.append((re.compile("".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>.+?)"
                                       for i, p in enumerate(parts))), template))
    return out


def say_basis(basis: str) -> str:
    """A rent's basis (RentClaimOpened's), in the user's language; else as a reason."""
    return _said_basis(translations(), basis)


@lru_cache(maxsize=1024)
def _said_basis(catalog, basis: str) -> str:  # kept as _said_reason is
    for pattern, template in _basis_patterns():
        m = pattern.fullmatch(basis)
        if m:
            fields = m.groupdict()
            if template in COUNTED_BASES and fields["n"].isdigit():
                return ngettext(*COUNTED_BASES[template], int(fields["n"])).format(**fields)
            return _(template).format(**fields)
    return say_reason(basis)


def say_how(text: str) -> str:
    """How a player left jail, in the user's language."""
    return _(JAIL_WAYS[text]) if text in JAIL_WAYS else text


# ledger/base/text.py's Fact (a fact's English data inside a message) is said by these; the
# package (cli/words/__init__.py) imports this module, so they are there before anything speaks.
SAYERS.setdefault("reason", say_reason)
SAYERS.setdefault("basis", say_basis)
SAYERS.setdefault("how", say_how)  # how a player left jail
