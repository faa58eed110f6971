"""Rule sets are data: TOML parameters, a built-in set or a user's file that extends one."""

from __future__ import annotations

import os
import tomllib
from functools import cache
from typing import NamedTuple

from .errors import UsageError

BUILTIN = ("classic", "quick")


class RuleSet(NamedTuple):
    name: str
    source: str
    starting_cash: int
    go_salary: int
    jail_fine: int
    jail_max_attempts: int
    doubles_to_jail: int
    auction_min_bid: int
    auction_step: int
    auction_no_bid: str
    rent: str
    claim_window: int
    double_rent_with_mortgage: bool
    houses_for_hotel: int
    mortgage_interest_percent: int
    interest_rounding: str

    def params(self) -> dict:
        """Everything, so that a game's first event carries the exact rules it was played by."""
        return self._asdict()

    @classmethod
    def from_params(cls, params: dict) -> RuleSet:
        return _build(dict(params), origin="the game's GameStarted event")


_CHOICES = {"auction_no_bid": ("bank_keeps",), "rent": ("claim", "auto"),
            "interest_rounding": ("up", "down")}


def _build(raw: dict, origin: str) -> RuleSet:
    # NamedTuple keeps postponed annotations as ForwardRef('int'): compare by their names.
    known = {k: getattr(v, "__forward_arg__", v) for k, v in RuleSet.__annotations__.items()}
    unknown = sorted(set(raw) - set(known))
    if unknown:
        raise UsageError(f"{origin}: unknown rule parameter(s) {', '.join(unknown)}; "
                         f"known: {', '.join(sorted(known))}")
    missing = sorted(set(known) - set(raw))
    if missing:
        raise UsageError(f"{origin}: missing rule parameter(s) {', '.join(missing)}")
    for name, value in raw.items():
        kind = known[name]
        ok = (isinstance(value, bool) if kind == "bool" else
              isinstance(value, int) and not isinstance(value, bool) if kind == "int" else
              isinstance(value, str))
        if not ok:
            raise UsageError(f"{origin}: {name} must be {kind}, got {value!r}")
        if name in _CHOICES and value not in _CHOICES[name]:
            raise UsageError(f"{origin}: {name} must be one of {', '.join(_CHOICES[name])}")
    return RuleSet(**raw)


def _read_builtin(name: str) -> dict:
    text = _read(os.path.join(os.path.dirname(__file__), "data", "rules", f"{name}.toml"))
    return tomllib.loads(text)


def _resolve(raw: dict, seen: tuple[str, ...]) -> dict:
    base = raw.pop("extends", None)
    if base is None:
        return raw
    if base not in BUILTIN:
        raise UsageError(f"a rule set can extend only a built-in one ({', '.join(BUILTIN)}), "
                         f"not {base!r}")
    if base in seen:
        raise UsageError(f"rule sets extend each other in a circle: {' -> '.join(seen + (base,))}")
    merged = _resolve(_read_builtin(base), seen + (base,))
    merged.update(raw)
    return merged



def _read(path: str) -> str:
    with open(path, encoding="utf-8") as f:
        return f.read()


@cache
def load_rules(name_or_path: str) -> RuleSet:
    """A built-in name (`classic`, `quick`) or the path of a TOML file with `extends = "..."`."""
    if name_or_path in BUILTIN:
        return _build(_resolve(_read_builtin(name_or_path), (name_or_path,)), name_or_path)
    path = name_or_path
    if not os.path.isfile(path):
        raise UsageError(f"unknown rule set {name_or_path!r}: use one of {', '.join(BUILTIN)} "
                         "or the path of a TOML file that extends one")
    try:
        raw = tomllib.loads(_read(path))
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"{path}: not valid TOML: {exc}") from None
    if "extends" not in raw:
        raise UsageError(f"{path}: a house-rules file must say which rule set it extends, "
                         f"e.g. extends = \"classic\"")
    raw.setdefault("name", os.path.splitext(os.path.basename(path))[0])
    return _build(_resolve(raw, ()), path)
