"""Rule sets are data: TOML parameters, a built-in set or a user's file that extends one."""

from __future__ import annotations

import os
import re
import tomllib
from functools import cache
from typing import NamedTuple

from .errors import UsageError

BUILTIN = ("classic", "quick", "championship")


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
    building_auction_opening: str
    rent: str
    claim_window: int
    double_rent_with_mortgage: bool
    houses_for_hotel: int
    mortgage_interest_percent: int
    interest_rounding: str
    speedy_die: bool  # 000 §SVOLGIMENTO 3: a third die from a player's first pass of Via!

    def params(self) -> dict:
        """Everything, so that a game's first event carries the exact rules it was played by."""
        return self._asdict()

    @classmethod
    def from_params(cls, params: dict) -> RuleSet:
        return _build({**_ADDED, **params}, origin="the game's GameStarted event")


_CHOICES = {
    "auction_no_bid": ("richest", "bank_keeps"),
    "building_auction_opening": ("house_price", "lowest_house_price", "auction_min_bid"),
    "rent": ("claim", "auto"),
    "interest_rounding": ("up", "down"),
}

# Parameters added after games were recorded: a GameStarted without them was played with these
# (the behaviour banco had then), so an old log replays as it was played.
_ADDED = {"building_auction_opening": "auction_min_bid", "speedy_die": False}

# Whole-number parameters and the range each may take (None: no upper bound).
_RANGES = {
    "starting_cash": (0, None), "go_salary": (0, None), "jail_fine": (0, None),
    "jail_max_attempts": (1, None), "doubles_to_jail": (1, None),
    # a deed sold for nothing could be mortgaged at once: money from nowhere
    "auction_min_bid": (1, None), "auction_step": (1, None),
    "claim_window": (1, 7),  # seats after the payer; eight players at most
    "houses_for_hotel": (1, 4),  # a deed's rents know four house levels
    "mortgage_interest_percent": (0, 100),
}


class _Origin:
    """Where parameters came from, to name the file and line of a bad one (tomllib keeps no
    positions: the line is found in the text)."""

    def __init__(self, label: str, text: str | None = None):
        self.label = label
        self.text = text

    def at(self, key: str) -> str:
        if self.text is not None:
            k = re.escape(key)
            pattern = re.compile(rf"^\s*(?:(?:{k}|\"{k}\"|'{k}')\s*=|\[+\s*{k}\s*\]+)")
            for number, line in enumerate(self.text.splitlines(), start=1):
                if pattern.match(line):
                    return f"{self.label}:{number}: {key}"
        return f"{self.label}: {key}"


def _kind_name(kind: str) -> str:
    return {"int": "int, a whole number", "bool": "bool, true or false",
            "str": "str, a quoted word"}[kind]


def _build(raw: dict, origin: _Origin | str) -> RuleSet:
    if isinstance(origin, str):
        origin = _Origin(origin)
    # NamedTuple keeps postponed annotations as ForwardRef('int'): compare by their names.
    known = {k: getattr(v, "__forward_arg__", v) for k, v in RuleSet.__annotations__.items()}
    unknown = sorted(set(raw) - set(known))
    if unknown:
        key = unknown[0]
        import difflib

        close = difflib.get_close_matches(key, list(known), n=1, cutoff=0.6)
        hint = f"did you mean {close[0]}?" if close else f"known: {', '.join(sorted(known))}"
        raise UsageError(f"{origin.at(key)}: not a rule parameter; {hint}")
    missing = sorted(set(known) - set(raw))
    if missing:
        raise UsageError(f"{origin.label}: missing rule parameter(s) {', '.join(missing)}")
    for name, value in raw.items():
        kind = known[name]
        ok = (isinstance(value, bool) if kind == "bool" else
              isinstance(value, int) and not isinstance(value, bool) if kind == "int" else
              isinstance(value, str))
        if not ok:
            raise UsageError(f"{origin.at(name)} must be {_kind_name(kind)}, not {value!r}")
        if name in _CHOICES and value not in _CHOICES[name]:
            raise UsageError(f"{origin.at(name)} must be one of {', '.join(_CHOICES[name])}, "
                             f"not {value!r}")
        if name in _RANGES:
            lo, hi = _RANGES[name]
            if value < lo or (hi is not None and value > hi):
                span = f"at least {lo}" if hi is None else f"from {lo} to {hi}"
                raise UsageError(f"{origin.at(name)} must be {span}, not {value}")
        if kind == "str" and name in ("name", "source") and not value.strip():
            raise UsageError(f"{origin.at(name)} cannot be empty")
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
    """A built-in name (`classic`, `quick`) or the path of a TOML file with `extends = "..."`.
    A bad file is refused naming the file, the line and the parameter, never a traceback."""
    if name_or_path in BUILTIN:
        return _build(_resolve(_read_builtin(name_or_path), (name_or_path,)), name_or_path)
    path = name_or_path
    if not os.path.isfile(path):
        raise UsageError(f"unknown rule set {name_or_path!r}: use one of {', '.join(BUILTIN)} "
                         "or the path of a TOML file that extends one")
    try:
        text = _read(path)
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{path}: cannot read the house rules: {exc}") from None
    origin = _Origin(path, text)
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"{path}{_toml_line(exc, text)}: not valid TOML: {exc}") from None
    if "extends" not in raw:
        raise UsageError(f"{path}: a house-rules file must say which rule set it extends, "
                         f"e.g. extends = \"classic\"")
    if raw["extends"] not in BUILTIN:
        raise UsageError(f"{origin.at('extends')}: a rule set can extend only a built-in one "
                         f"({', '.join(BUILTIN)}), not {raw['extends']!r}")
    raw.setdefault("name", os.path.splitext(os.path.basename(path))[0])
    return _build(_resolve(raw, ()), origin)


def _toml_line(exc: Exception, text: str) -> str:
    """`:LINE` and the offending line's text, from tomllib's "(at line N, column M)"."""
    m = re.search(r"at line (\d+)", str(exc))
    if not m:
        return ""
    number = int(m.group(1))
    lines = text.splitlines()
    shown = f" ({lines[number - 1].strip()!r})" if 0 < number <= len(lines) else ""
    return f":{number}{shown}"
