"""Editions are data: a board of 40 spaces and card decks, shipped as TOML inside the package.

An edition also carries what a banker needs to read its money and its pieces the way the box
prints them: the currency and where it goes (`20.000 £`, `$1,500`, `500 €`), the words for the
buildings (cottages and castles on the Disney board), the deck titles and a source note.
"""

from __future__ import annotations

import os
import tomllib
from functools import cache
from typing import NamedTuple

from banco.ledger.base.errors import UsageError
from banco.ledger.base.text import ENGLISH

PROPERTY_KINDS = ("street", "station", "utility")


DATA = os.path.join(os.path.dirname(__file__), "data")  # package data, on disk for wheel and editable installs


class Space(NamedTuple):
    position: int
    name: str
    kind: str
    group: str | None = None
    price: int | None = None
    house_cost: int | None = None
    rents: tuple[int, ...] = ()
    deck: str | None = None
    amount: int | None = None
    mortgage_value: int | None = None  # as printed, where it is not half the price

    @property
    def is_property(self) -> bool:
        return self.kind in PROPERTY_KINDS

    @property
    def mortgage(self) -> int | None:
        # Half the price on every deed, unless the edition prints another figure (it-euro rounds
        # 187.5 to 190).
        if self.mortgage_value is not None:
            return self.mortgage_value
        return self.price // 2 if self.price is not None else None


class Card(NamedTuple):
    deck: str
    number: int
    text: str
    effect: dict


class Deck(NamedTuple):
    name: str
    title: str
    cards: tuple[Card, ...]

    @property
    def word(self) -> str:
        """The deck as a hint says to type it: its title's first word, accents kept
        (`probabilità`: the key `probabilita` read as a misspelling), where it names the deck;
        else its key.  Either is read when typed (cli/lines/names.py deck_key)."""
        from banco.ledger.base.names import fold

        first = self.title.split()[0].lower() if self.title.split() else ""
        return first if fold(first) == self.name else self.name


class Edition(NamedTuple):
    name: str
    title: str
    currency: str
    spaces: tuple[Space, ...]
    decks: dict[str, Deck]
    jail_position: int
    go_to_jail_position: int
    bank_houses: int
    bank_hotels: int
    groups: dict[str, tuple[int, ...]]
    currency_first: bool = False  # `$1,500` rather than `1500 M`
    thousands: str = ""  # separator of thousands: "." for lire (20.000 £), "," for dollars
    house_word: str = "house"
    hotel_word: str = "hotel"
    notes: str = ""  # where the figures come from, for the board's header
    notes_it: str = ""  # the same, for an Italian table
    go_salary: int | None = None  # what the Via!/GO square prints, to check a rule set against
    jail_fine: int | None = None
    # a colour group's name in another language than its key's (the board's own): {lang: {key:
    # name}}; the key stays what a line types
    group_names: dict[str, dict[str, str]] | None = None
    titles: dict[str, str] | None = None  # the title in another language: {lang: title}

    def space(self, position: int) -> Space:
        return self.spaces[position]

    def group_name(self, group: str, lang: str) -> str:
        """A colour group as a reader of `lang` calls it (`marrone` is "brown" on an English
        page); its key where the edition names it in no other language."""
        return ((self.group_names or {}).get(lang) or {}).get(group, group)

    def title_in(self, lang: str) -> str:
        """The edition's title as a reader of `lang` reads it ("Monopoly, Italian edition" on
        an English page); its own where it has no other."""
        return (self.titles or {}).get(lang, self.title)

    @property
    def properties(self) -> tuple[Space, ...]:
        return tuple(s for s in self.spaces if s.is_property)

    def money(self, amount: int) -> str:
        """An amount the way this edition's box prints it: `20.000 £`, `$1,500`, `500 €`."""
        digits = f"{abs(amount):,}".replace(",", self.thousands)
        sign = "-" if amount < 0 else ""
        if self.currency_first:
            return f"{sign}{self.currency}{digits}"
        return f"{sign}{digits} {self.currency}"

    def rules_mismatches(self, rules) -> list[str]:
        """Where a rule set's money disagrees with what this board prints (classic rules on the
        lire board would pay 200 £ for passing Via!): empty when they fit."""
        out = []
        for field in ("go_salary", "jail_fine"):
            printed = getattr(self, field)
            if printed is not None and getattr(rules, field) != printed:
                out.append(f"{field} is {self.money(getattr(rules, field))} in the "
                           f"{rules.name} rules but {self.money(printed)} on the {self.name} board")
        return out


EDITIONS = ("it", "it-lire", "it-euro", "disney", "us")

_DISPLAY = ("currency_first", "thousands", "house_word", "hotel_word", "notes", "notes_it",
            "go_salary", "jail_fine")


def _unknown(name: str) -> UsageError:
    import difflib

    close = difflib.get_close_matches(name, EDITIONS, n=1, cutoff=0.5)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    return UsageError("unknown edition {name!r}{hint}; available: {items}",
                      name=name, hint=hint, items=', '.join(EDITIONS))


@cache
def load_edition(name: str) -> Edition:
    if name not in EDITIONS:
        raise _unknown(name)
    with open(os.path.join(DATA, "editions", f"{name}.toml"), "rb") as f:
        raw = tomllib.load(f)
    spaces = []
    for pos, s in enumerate(raw["spaces"]):
        spaces.append(Space(position=pos, name=s["name"], kind=s["kind"], group=s.get("group"),
                            price=s.get("price"), house_cost=s.get("house_cost"),
                            rents=tuple(s.get("rents", ())), deck=s.get("deck"),
                            amount=s.get("amount"), mortgage_value=s.get("mortgage")))
    if len(spaces) != 40:
        raise ValueError(f"edition {name} has {len(spaces)} spaces, not 40")
    decks = {}
    for key, d in raw["decks"].items():
        cards = tuple(Card(deck=key, number=i + 1, text=c["text"], effect=dict(c["effect"]))
                      for i, c in enumerate(d["cards"]))
        decks[key] = Deck(name=key, title=d["title"], cards=cards)
    groups: dict[str, list[int]] = {}
    for s in spaces:
        if s.group:
            groups.setdefault(s.group, []).append(s.position)
    return Edition(name=name, title=raw["title"], currency=raw["currency"], spaces=tuple(spaces),
                   decks=decks, jail_position=raw["jail_position"],
                   go_to_jail_position=raw["go_to_jail_position"],
                   bank_houses=raw["bank_houses"], bank_hotels=raw["bank_hotels"],
                   groups={k: tuple(v) for k, v in groups.items()},
                   group_names={key.removeprefix("group_names_"): dict(names)
                                for key, names in raw.items() if key.startswith("group_names_")},
                   titles={key.removeprefix("title_"): title for key, title in raw.items()
                           if key.startswith("title_")},
                   **{k: raw[k] for k in _DISPLAY if k in raw})


# A colour group inside a message (ledger/base/text.py's Fact of kind "group", its data
# `{"group": "marrone"}`, the edition's key) is said in English as the edition names it there
# ("brown"); the edge says it in its reader's language (cli/words/reasons.py).
ENGLISH.setdefault("group", lambda data, edition: edition.group_name(data["group"], "en"))
