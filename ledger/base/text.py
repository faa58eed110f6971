"""Messages as a template and its parameters, so that the edge can say them in the user's
language while the book stays English.

`decide` is pure and knows no language: a refusal carries `msg("{name} has {cash} in cash",
name=..., cash=...)`.  `str()` of it is the English sentence (logs, tests, `str(exc)`);
`render(translations)` looks the template up in a gettext catalog first (cli/words/i18n.py).  The
templates are the catalogs' msgids: `msg`, `plural`, `RuleViolation` and `UsageError` are the
keywords the extraction looks for (tests/tools/catalogs.py), so a template must be a string
literal, never an f-string.

Parameters are names, numbers and amounts already formatted by the edition (`1500 M`): they
are not translated.  A parameter may itself be a Text (a phrase such as "the Bank"), rendered
in the same language.
"""

from __future__ import annotations

import re
from typing import Any, Protocol


class Translations(Protocol):
    def gettext(self, message: str) -> str: ...
    def ngettext(self, singular: str, plural: str, n: int) -> str: ...


class Text(str):
    """A translatable message: a template (or a singular/plural pair chosen by `n`) and its
    parameters.  It is also the English sentence itself (a str), so code and tests that read
    it as text see English; `render(tr)` says it in the language of a gettext catalog."""

    __slots__ = ("template", "plural", "n", "params")

    def __new__(cls, template: str, plural: str | None = None, n: int | None = None,
                params: dict[str, Any] | None = None):
        english = _fill(template, plural, n, params or {}, None)
        self = super().__new__(cls, english)
        self.template = template
        self.plural = plural
        self.n = n
        self.params = params or {}
        return self

    def render(self, tr: Translations | None = None) -> str:
        if tr is None:
            return str.__str__(self)
        return _fill(self.template, self.plural, self.n, self.params, tr)

    def __str__(self) -> str:
        return str.__str__(self)

    def __repr__(self) -> str:
        return f"Text({str.__repr__(self)})"

    def __reduce__(self):
        # pickled whole (a problem found by an audit's worker process, projections/audit/
        # audit_games.py): str's own pickling would keep the English and lose the rest
        slots = {name: getattr(self, name) for c in type(self).__mro__
                 for name in getattr(c, "__slots__", ())}
        return _rebuilt, (type(self), str.__str__(self), slots)


def _rebuilt(cls, english: str, slots: dict):
    self = str.__new__(cls, english)
    for name, value in slots.items():
        setattr(self, name, value)
    return self


def _fill(template, plural_, n, params, tr) -> str:
    if plural_ is not None:
        chosen = (tr.ngettext(template, plural_, n) if tr is not None
                  else (template if n == 1 else plural_))
    else:
        chosen = tr.gettext(template) if tr is not None else template
    if not params and plural_ is None:
        return chosen
    # a phrase is said in the same language; numbers and names keep their own format
    values = {k: v.render(tr) if isinstance(v, Text) else v for k, v in params.items()}
    if plural_ is not None:
        values.setdefault("n", n)
    return chosen.format(**values)


class Joined(Text):
    """Several messages said one after the other: `a; b`, `a, b`."""

    __slots__ = ("items", "sep")

    def __new__(cls, items, sep: str = "; "):
        items = [i for i in items if i]
        self = str.__new__(cls, sep.join(str(i) for i in items))
        self.template, self.plural, self.n, self.params = "", None, None, {}
        self.items = items
        self.sep = sep
        return self

    def render(self, tr: Translations | None = None) -> str:
        # the separator may be a word (msg(" or ")), said in the same language
        return render(self.sep, tr).join(render(i, tr) for i in self.items)


class Fact(Text):
    """Data from the log inside a message (a fact's reason, a code and its parameters; a
    rent's basis): said by the sayer the edge registered for its kind (cli/words/reasons.py),
    else in English (ENGLISH: ledger/records/reasons.py's, for a reason).  `edition`: the
    game's, which says the data (an amount as its box prints it)."""

    __slots__ = ("kind", "value", "edition")

    def __new__(cls, value, kind: str = "reason", edition=None):
        if isinstance(value, str):
            text = value
        elif edition is not None and kind in ENGLISH:
            text = ENGLISH[kind](value, edition)
        else:
            text = ENGLISH.get(kind, str)(value)
        self = str.__new__(cls, text)
        self.template, self.plural, self.n, self.params = text, None, None, {}
        self.kind = kind
        self.value = value
        self.edition = edition
        return self

    def render(self, tr: Translations | None = None) -> str:
        sayer = SAYERS.get(self.kind)
        if tr is None or sayer is None:
            return str.__str__(self)
        if self.edition is not None:
            return sayer(self.value, self.edition)
        return sayer(self.value)


SAYERS: dict = {}  # kind -> function(the data) -> text in the current language
ENGLISH: dict = {}  # kind -> function(the data) -> its English, where the data is no text


class Word(Text):
    """A word whose translation depends on where it is said (gettext's pgettext): `bankrupt`
    the status is not `bankrupt` the command."""

    __slots__ = ("context",)

    def __new__(cls, context: str, text: str):
        self = str.__new__(cls, text)
        self.template, self.plural, self.n, self.params = text, None, None, {}
        self.context = context
        return self

    def render(self, tr: Translations | None = None) -> str:
        if tr is None:
            return str.__str__(self)
        return tr.pgettext(self.context, str.__str__(self))


def word(context: str, text: str) -> Word:
    """A word in its context (a catalog entry with msgctxt)."""
    return Word(context, text)


def msg(template: str, **params) -> Text:
    """A message to be said in the user's language (a catalog msgid)."""
    return Text(template, params=params)


def plural(singular: str, plural_: str, n: int, **params) -> Text:
    """A message with a singular and a plural form, chosen by `n` (`{n}` in the template)."""
    return Text(singular, plural_, n, params)


def counted(kind: str, n: int) -> Text:
    """`1 house`, `3 hotels`: a count of buildings, its noun agreeing with it in either
    language (not `house(s)`)."""
    if kind == "hotel":
        return plural("{n} hotel", "{n} hotels", n)
    return plural("{n} house", "{n} houses", n)


def either(items: list) -> Text:
    """`a`, `a or b`, `a, b or c`."""
    items = list(items)
    if len(items) == 1:
        return Joined(items, "")
    return msg("{some} or {last}", some=Joined(items[:-1], ", "), last=items[-1])


def both(items: list) -> Text:
    """`a`, `a and b`, `a, b and c`."""
    items = list(items)
    if len(items) == 1:
        return Joined(items, "")
    return msg("{some} and {last}", some=Joined(items[:-1], ", "), last=items[-1])


def render(value, tr: Translations | None = None) -> str:
    """A Text in the language of `tr` (English without it); anything else as str()."""
    if isinstance(value, Text):
        return value.render(tr)
    return str(value) if not isinstance(value, str) else value


# A citation of the rulebooks in brackets at a message's end: `(000 §SVOLGIMENTO 3)`,
# `(004 §Prigione; 000 FAQ 17)` (seed file and section, /work/shared/seeds/INDEX.md).
_CITATION = re.compile(r"\((\d{3} (?:§|FAQ )[^()]*)\)\Z")


def cited(text: str, rule: str) -> str:
    """A refusal's words with the rule it cites: in the bracket of the citation the words
    already end with (`(000 §SVOLGIMENTO 3; 004 §Svolgimento del gioco)`, one bracket, not
    two side by side), else in a bracket of its own; a rule the words already cite, once."""
    if not rule or rule in text:
        return text
    found = _CITATION.search(text)
    if found:
        return f"{text[:found.end(1)]}; {rule})"
    return f"{text} ({rule})"
