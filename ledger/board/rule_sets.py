"""Rule sets are data: TOML parameters, a built-in set or a user's file that extends one."""

from __future__ import annotations

import os
import re
import tomllib
from functools import cache
from typing import NamedTuple

from banco.ledger.base.errors import UsageError
from banco.ledger.base.numbers import MAX_DIGITS
from banco.ledger.base.text import plural, word

BUILTIN = ("classic", "quick", "championship", "vintage", "euro", "short", "timed")


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
    # --- what differs between the rulebooks (seeds 000-004); classic's values say "as 004" ---
    edition: str  # the board this rule set is played on unless `new --edition` says otherwise
    min_players: int
    max_players: int
    starting_cash_by_players: dict  # "2" -> cash; a count not listed gets starting_cash
    deeds_dealt: int  # deeds dealt by lot and paid before the first roll (0: none)
    deeds_dealt_by_players: dict  # "2" -> deeds, where the count matters (002)
    claim_settles: str  # a claim made while another roll's turn is in progress (000 FAQ 8)
    jail_card_max_price: int  # what a get-out-of-jail card may sell for (0: any, 000 FAQ 21)
    trades_in_turn: str  # who may trade while a turn is in progress (000 FAQ 26)
    trades_two_left: bool  # trades once two players are left (000 FAQ 31: not in preliminaries)
    bankruptcy_start_of_turn: bool  # deeds pass as at the start of the turn (000 FAQ 32)
    bankruptcy_estate: str  # where a bankrupt's estate goes (004, 002, the short game)
    pay_in_kind: bool  # a debtor may pay with deeds priced by the creditor (002 §Varie)
    time_limit: str  # what `time-up` does: refused, ends at once, or after the turn
    end_after_bankruptcies: int  # the game ends at this many bankruptcies (0: one player left)
    score_sheet: bool  # standings carry the score sheet's total (000 §PUNTEGGIO)
    tie_break: str  # a tie on the count is broken by ... (000 §PUNTEGGIO 3)
    tournament_points: dict  # players left -> points by place (000 §PUNTEGGIO)
    cash_disclosed: bool  # the table's screen shows each player's cash (000 FAQ 4: not there)
    late_claims: str  # a late claim is judged against the owner's last landing, recorded once (003 §04)
    final_estate_interest: bool  # the bankruptcy that ends the game charges the 10% too (004 §Fallimento)
    fine_before_move: bool  # the last try's fine, or its debt, is settled before the token moves (004 §Prigione)
    trades_cash_for_cash: bool  # a trade may swap cash for cash alone (003 §06: a loan or a gift)
    cite: dict  # topic -> the section a refusal names, where it is not classic's

    def params(self) -> dict:
        """Everything, so that a game's first event carries the exact rules it was played by."""
        return self._asdict()

    @classmethod
    def from_params(cls, params: dict) -> RuleSet:
        params = _cash_as_its_rulebook_says({**_ADDED, **params})
        if isinstance(params.get("cite"), dict):
            # a section cited for a topic this banco does not know only words a refusal: the
            # game still replays as it was played
            params["cite"] = {k: v for k, v in params["cite"].items() if k in CITE_TOPICS}
            params["cite"] = _cite_as_its_rulebook_says(params.get("name"), params["cite"])
        return _build(params, origin="the game's GameStarted event")


_CHOICES = {
    "auction_no_bid": ("richest", "bank_keeps"),
    "building_auction_opening": ("house_price", "lowest_house_price", "auction_min_bid"),
    "rent": ("claim", "auto"),
    "interest_rounding": ("up", "down"),
    "claim_settles": ("now", "after_turn"),
    "trades_in_turn": ("anyone", "active_player"),
    "bankruptcy_estate": ("classic", "bank_pays_creditors", "all_to_creditor"),
    "time_limit": ("none", "at_once", "finish_turn"),
    "tie_break": ("none", "unmortgaged_property"),
    "late_claims": ("last_lapsed", "last_landing"),
}

# Parameters added after games were recorded: a GameStarted without them was played with these
# (the behaviour banco had then), so an old log replays as it was played.
_ADDED = {"building_auction_opening": "auction_min_bid", "speedy_die": False,
          # the rule sets beyond classic: a game recorded before them was played as classic
          "edition": "it", "min_players": 2, "max_players": 8, "starting_cash_by_players": {},
          "deeds_dealt": 0, "deeds_dealt_by_players": {}, "claim_settles": "now",
          "jail_card_max_price": 0, "trades_in_turn": "anyone", "trades_two_left": True,
          "bankruptcy_start_of_turn": False, "bankruptcy_estate": "classic",
          "pay_in_kind": False, "time_limit": "none", "end_after_bankruptcies": 0,
          "score_sheet": False, "tie_break": "none", "tournament_points": {}, "cite": {},
          # banco before 2026-11-30 ended the game at the last bankruptcy before the 10%
          "final_estate_interest": False,
          # and answered each late claim from the owner's last lapsed claim, every time
          "late_claims": "last_lapsed",
          # and moved the token of a prisoner short of the last try's fine at once, the fine a
          # debt paid later (issue 32: a card drawn on the way paid it)
          "fine_before_move": False,
          # and let a trade swap cash for cash, a gift of the difference (a trial, 2026-12-06)
          "trades_cash_for_cash": True}

# The largest figure a rule set may hold: what the command line reads (15 digits).  A larger
# one is no table's; a 20-digit starting cash overflowed SQLite's integers as the game started,
# one of 5,000 digits leaked Python's advice on int conversion (issue 32, the fifth trial).
MOST = 10 ** MAX_DIGITS - 1

# Whole-number parameters and the range each may take.
_RANGES = {
    "starting_cash": (0, MOST), "go_salary": (0, MOST), "jail_fine": (0, MOST),
    "jail_max_attempts": (1, MOST), "doubles_to_jail": (1, MOST),
    # a deed sold for nothing could be mortgaged at once: money from nowhere
    "auction_min_bid": (1, MOST), "auction_step": (1, MOST),
    "claim_window": (1, 7),  # seats after the payer; eight players at most
    "houses_for_hotel": (1, 4),  # a deed's rents know four house levels
    "mortgage_interest_percent": (0, 100),
    "min_players": (2, 8), "max_players": (2, 8),  # 004 §Inizio del gioco: two to eight
    "deeds_dealt": (0, 14),  # 28 deeds, two players at least
    "jail_card_max_price": (0, MOST), "end_after_bankruptcies": (0, 7),
}

# Topics a rule set may cite its own section for (`[cite]` in its file).
CITE_TOPICS = ("rent", "auction", "deal", "time", "end", "estate", "jail", "players", "turn",
               "cash",
               # 2026-12-02: the refusals of the estate, the deck and a debt (issue 20)
               "buy", "build", "hotel", "shortage", "sell", "mortgage", "fee", "trade", "loan",
               "gift", "bankrupt", "debt", "cards")
# The topics above added after games were recorded: a game of a built-in rule set recorded
# before them cites what its rulebook says now (they are words of a refusal, not a rule).
_CITE_ADDED = CITE_TOPICS[CITE_TOPICS.index("buy"):]


def _cash_as_its_rulebook_says(params: dict) -> dict:
    """A game recorded before its rules said whether cash is disclosed keeps what its rulebook
    says: only 000 (FAQ 4: "Non sei obbligato a dire a nessuno quanto soldi possiedi") lets a
    player keep it to himself; the other rulebooks are silent and the table sees it."""
    if "cash_disclosed" in params:
        return params
    private = params.get("source") == "000"
    cite = params.get("cite")
    if private and isinstance(cite, dict):
        cite = {**cite, "cash": "000 FAQ 4"}
    return {**params, "cash_disclosed": not private, "cite": cite}


def _cite_as_its_rulebook_says(name, cite: dict) -> dict:
    """A built-in rule set's game recorded before a topic could be cited keeps its own
    citations and gains the rulebook's for that topic (a championship game recorded on
    2026-12-01 refuses a mortgage citing 000 §IPOTECHE, as a new one does)."""
    if name not in BUILTIN or all(t in cite for t in _CITE_ADDED):
        return cite
    now = load_rules(name).cite
    return {**{t: now[t] for t in _CITE_ADDED if t in now}, **cite}


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
            "str": "str, a quoted word", "dict": "a table"}[kind]


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
        raise UsageError("{at}: not a rule parameter; {hint}",
                         at=origin.at(key), hint=hint)
    missing = sorted(set(known) - set(raw))
    if missing:
        raise UsageError(plural("{label}: missing rule parameter {items}",
                                "{label}: missing rule parameters {items}", len(missing),
                                label=origin.label, items=', '.join(missing)))
    for name, value in raw.items():
        kind = known[name]
        ok = (isinstance(value, bool) if kind == "bool" else
              isinstance(value, int) and not isinstance(value, bool) if kind == "int" else
              isinstance(value, dict) if kind == "dict" else
              isinstance(value, str))
        if not ok:
            raise UsageError("{at} must be {kind_name}, not {value!r}",
                             at=origin.at(name), kind_name=_kind_name(kind), value=value)
        if name in _CHOICES and value not in _CHOICES[name]:
            raise UsageError("{at} must be one of {items}, not {value!r}",
                             at=origin.at(name), items=', '.join(_CHOICES[name]), value=value)
        if name in _RANGES:
            lo, hi = _RANGES[name]
            if value < lo or value > hi:
                span = (f"from {lo} to {hi}" if hi != MOST else
                        f"at least {lo}" if value < lo else f"at most {hi}")
                raise UsageError("{at} must be {span}, not {value}",
                                 at=origin.at(name), span=span, value=_figure(value))
        if kind == "str" and name in ("name", "source") and not value.strip():
            raise UsageError("{at} cannot be empty",
                             at=origin.at(name))
        if kind == "dict":
            _check_table(name, value, origin)
    _check_together(raw, origin)
    return RuleSet(**raw)


def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _figure(value: int) -> str:
    """A figure as a refusal shows it: a long one by its length, not its thousands of digits."""
    text = str(value)
    return text if len(text) <= 2 * MAX_DIGITS else f"{text[:MAX_DIGITS]}… ({len(text)} digits)"


def _check_table(name: str, table: dict, origin: _Origin) -> None:
    """The tables: player counts to a whole number (or, for points, to a list of them), and
    `cite` from a topic to a section."""
    where = origin.at(name)
    if name == "cite":
        for key, value in table.items():
            if key not in CITE_TOPICS:
                raise UsageError("{where}: {key!r} is not a topic to cite; known: {items}",
                                 where=where, key=key, items=', '.join(CITE_TOPICS))
            if not isinstance(value, str) or not value.strip():
                raise UsageError("{where}.{key} must be a section, e.g. \"000 FAQ 7\"",
                                 where=where, key=key)
        return
    for key, value in table.items():
        if not (key.isdecimal() and 1 <= int(key) <= 8):
            raise UsageError("{where}: {key!r} is not a number of players (1-8)",
                             where=where, key=key)
        if name == "tournament_points":
            ok = (isinstance(value, list) and 1 <= len(value) <= int(key)
                  and all(_whole(v) and 0 <= v <= MOST for v in value))
            if not ok:
                raise UsageError(plural(
                    "{where}.{key} must list at most {n} whole number of points, one per place "
                    "from the first",
                    "{where}.{key} must list at most {n} whole numbers of points, one per place "
                    "from the first", int(key), where=where, key=key))
        elif not (_whole(value) and 0 <= value <= MOST):
            raise UsageError("{where}.{key} must be a whole number from 0 to {most}, not {value}",
                             where=where, key=key, most=MOST,
                             value=_figure(value) if _whole(value) else repr(value))


def _check_together(raw: dict, origin: _Origin) -> None:
    if raw["min_players"] > raw["max_players"]:
        raise UsageError("{at} is more than max_players",
                         at=origin.at('min_players'))
    for name in ("starting_cash_by_players", "deeds_dealt_by_players"):
        table = raw[name]
        if table:
            missing = [n for n in range(raw["min_players"], raw["max_players"] + 1)
                       if str(n) not in table]
            if missing:
                raise UsageError("{at} has no entry for {missing} players (the rule set seats {min_players}-{max_players})",
                                 at=origin.at(name), missing=missing[0],
                                 min_players=raw['min_players'], max_players=raw['max_players'])


# The built-in rule sets' names, in one table: how a message says one after "rules" (the
# catalogs' msgctxt "rule set": "le regole classiche", "le regole del campionato": 000
# REGOLAMENTO CAMPIONATO; 004's "Monopoli Classico", "gioco breve", "gioco con limite di
# tempo"), and its name standing alone, where a menu or a heading names it (msgctxt "rule set
# name": "classico", "campionato", "gioco breve").  The stored name and what `--rules` takes
# stay the identifiers.
NAMES = {
    "classic": (word("rule set", "classic"), word("rule set name", "classic")),
    "quick": (word("rule set", "quick"), word("rule set name", "quick")),
    "championship": (word("rule set", "championship"), word("rule set name", "championship")),
    "vintage": (word("rule set", "vintage"), word("rule set name", "vintage")),
    "euro": (word("rule set", "euro"), word("rule set name", "euro")),
    "short": (word("rule set", "short"), word("rule set name", "short")),
    "timed": (word("rule set", "timed"), word("rule set name", "timed")),
}


def said(name: str):
    """A rule set's name as a message says it after "rules" (`le regole {rules}`): a
    built-in one's in the user's language, a house file's as its file names it."""
    return NAMES[name][0] if name in NAMES else name


def named(name: str):
    """A rule set's name standing alone (the TV's heading, the banker's menu): a built-in
    one's in the user's language, a house file's as its file names it."""
    return NAMES[name][1] if name in NAMES else name


def shown(rules: RuleSet):
    """The rule set's name in a message (said above)."""
    return said(rules.name)


def starting_cash(rules: RuleSet, players: int) -> int:
    """Each player's capital at this table (002 §Preparazione: by the number of players)."""
    return rules.starting_cash_by_players.get(str(players), rules.starting_cash)


def deeds_to_deal(rules: RuleSet, players: int) -> int:
    """Deeds dealt to each player before the first roll (002: 7 to 3; 004 short game: 2)."""
    return rules.deeds_dealt_by_players.get(str(players), rules.deeds_dealt)


def cited(rules: RuleSet, topic: str, default: str) -> str:
    """The section a refusal names: the rule set's own where it has one, else classic's."""
    return rules.cite.get(topic, default)


def _read_builtin(name: str) -> dict:
    with open(os.path.join(os.path.dirname(__file__), "data", "rules", f"{name}.toml"), "rb") as f:
        return tomllib.load(f)


def _resolve(raw: dict, seen: tuple[str, ...]) -> dict:
    base = raw.pop("extends", None)
    if base is None:
        return raw
    if base not in BUILTIN:
        raise UsageError("a rule set can extend only a built-in one ({items}), not {base!r}",
                         items=', '.join(BUILTIN), base=base)
    if base in seen:
        raise UsageError("rule sets extend each other in a circle: {items}",
                         items=' -> '.join(seen + (base,)))
    merged = _resolve(_read_builtin(base), seen + (base,))
    for key, value in raw.items():
        # a table is merged key by key: a house file that cites one section keeps the rest
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = {**merged[key], **value}
        else:
            merged[key] = value
    return merged



def _read(path: str) -> str:
    with open(path, encoding="utf-8") as f:
        return f.read()


@cache
def load_rules(name_or_path: str) -> RuleSet:
    """A built-in name (`classic`, `championship`, ...) or the path of a TOML file with `extends = "..."`.
    A bad file is refused naming the file, the line and the parameter, never a traceback."""
    if name_or_path in BUILTIN:
        return _build(_resolve(_read_builtin(name_or_path), (name_or_path,)), name_or_path)
    path = name_or_path
    if not os.path.isfile(path):
        raise UsageError("unknown rule set {name_or_path!r}: use one of {items} or the path of a TOML file that extends one",
                         name_or_path=name_or_path, items=', '.join(BUILTIN))
    try:
        text = _read(path)
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError("{path}: cannot read the house rules: {exc}",
                         path=path, exc=exc) from None
    origin = _Origin(path, text)

    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise UsageError("{path}{toml_line}: not valid TOML: {exc}",
                         path=path, toml_line=_toml_line(exc, text), exc=exc) from None
    except ValueError as exc:  # int() of over 4,300 digits, in tomllib: its advice is Python's
        raise _too_long(path, text, exc) from None
    if "extends" not in raw:
        raise UsageError("{path}: a house-rules file must say which rule set it extends, e.g. extends = \"classic\"",
                         path=path)
    if raw["extends"] not in BUILTIN:
        raise UsageError("{at}: a rule set can extend only a built-in one ({items}), not {extends!r}",
                         at=origin.at('extends'), items=', '.join(BUILTIN), extends=raw['extends'])
    raw.setdefault("name", os.path.splitext(os.path.basename(path))[0])
    return _build(_resolve(raw, ()), origin)


def _too_long(path: str, text: str, exc: ValueError) -> UsageError:
    """A number tomllib could not read for its length, named by its line."""
    number, run = max(((n, max(map(len, re.findall(r"\d[\d_]*", line)), default=0))
                       for n, line in enumerate(text.splitlines(), 1)), key=lambda nr: nr[1],
                      default=(0, 0))
    if run <= MAX_DIGITS:  # not a number's length after all: tomllib's own words
        return UsageError("{path}: not valid TOML: {exc}", path=path, exc=exc)
    return UsageError("{path}:{line}: a number of {n} digits: no figure of a rule set is that "
                      "long (at most {most} digits)", path=path, line=number, n=run,
                      most=MAX_DIGITS)


def _toml_line(exc: Exception, text: str) -> str:
    """`:LINE` and the offending line's text, from tomllib's "(at line N, column M)"."""
    m = re.search(r"at line (\d+)", str(exc))
    if not m:
        return ""
    number = int(m.group(1))
    lines = text.splitlines()
    shown = f" ({lines[number - 1].strip()!r})" if 0 < number <= len(lines) else ""
    return f":{number}{shown}"


def check_fit(rules: RuleSet, edition) -> None:
    """A built-in rule set on a board that prints another Via! salary or jail fine is refused
    (the vintage rules on the M board would pay 20.000 for passing Via!): every salary and fine
    would be wrong.  A house-rules file is the table's own choice; `new` only warns of it."""
    problems = edition.rules_mismatches(rules)
    if not problems:
        return
    fits = [n for n in BUILTIN if load_rules(n).edition == edition.name]
    hint = (f"--rules {fits[0]} (its board is {edition.name})" if fits else
            "a house-rules file that extends it with the board's go_salary and jail_fine")
    raise UsageError("the {rules} rules do not fit the {edition} board: {items}; use --edition {edition2} (the {rules} rules' board) or {hint}",
                     rules=shown(rules), edition=edition.name, items='; '.join(problems),
                     edition2=rules.edition, hint=hint)
