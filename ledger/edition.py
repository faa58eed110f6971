"""Editions are data: a board of 40 spaces and card decks, shipped as TOML inside the package."""

from __future__ import annotations

import os
import tomllib
from functools import cache
from typing import NamedTuple

from .errors import UsageError

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

    @property
    def is_property(self) -> bool:
        return self.kind in PROPERTY_KINDS

    @property
    def mortgage(self) -> int | None:
        # Every deed of the supported editions mortgages for half its price.
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

    def space(self, position: int) -> Space:
        return self.spaces[position]

    @property
    def properties(self) -> tuple[Space, ...]:
        return tuple(s for s in self.spaces if s.is_property)


EDITIONS = ("it",)



def _read(path: str) -> str:
    with open(path, encoding="utf-8") as f:
        return f.read()


@cache
def load_edition(name: str) -> Edition:
    if name not in EDITIONS:
        raise UsageError(f"unknown edition {name!r}; available: {', '.join(EDITIONS)}")
    text = _read(os.path.join(DATA, "editions", f"{name}.toml"))
    raw = tomllib.loads(text)
    spaces = []
    for pos, s in enumerate(raw["spaces"]):
        spaces.append(Space(position=pos, name=s["name"], kind=s["kind"], group=s.get("group"),
                            price=s.get("price"), house_cost=s.get("house_cost"),
                            rents=tuple(s.get("rents", ())), deck=s.get("deck"),
                            amount=s.get("amount")))
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
                   groups={k: tuple(v) for k, v in groups.items()})
