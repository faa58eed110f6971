"""Messages as a template and its parameters, so that the edge can say them in the user's
language while the book stays English.

`decide` is pure and knows no language: a refusal carries `msg("{name} has {cash} in cash",
name=..., cash=...)`.  `str()` of it is the English sentence (logs, tests, `str(exc)`);
`render(translations)` looks the template up in a gettext catalog first (cli/i18n.py).  The
templates are the catalogs' msgids: `msg`, `plural`, `RuleViolation` and `UsageError` are the
keywords the extraction looks for (tests/tools/catalogs.py), so a template must be a string
literal, never an f-string.

Parameters are names, numbers and amounts already formatted by the edition (`1500 M`): they
are not translated.  A parameter may itself be a Text (a phrase such as "the Bank"), rendered
in the same language.
"""

from __future__ import annotations

from typing import Any, Protocol


class Translations(Protocol):
    def gettext(self, message: str) -> str: ...
    def ngettext(self, singular: str, plural: str, n: int) -> str: ...


class Text:
    """A translatable message: a template (or a singular/plural pair chosen by `n`) and its
    parameters.  English by `str()`."""

    __slots__ = ("template", "plural", "n", "params")

    def __init__(self, template: str, plural: str | None = None, n: int | None = None,
                 params: dict[str, Any] | None = None):
        self.template = template
        self.plural = plural
        self.n = n
        self.params = params or {}

    def render(self, tr: Translations | None = None) -> str:
        if self.plural is not None:
            chosen = (tr.ngettext(self.template, self.plural, self.n) if tr is not None
                      else (self.template if self.n == 1 else self.plural))
        else:
            chosen = tr.gettext(self.template) if tr is not None else self.template
        if not self.params and self.plural is None:
            return chosen
        # a phrase is said in the same language; numbers and names keep their own format
        values = {k: v.render(tr) if isinstance(v, Text) else v for k, v in self.params.items()}
        if self.plural is not None:
            values.setdefault("n", self.n)
        return chosen.format(**values)

    def __str__(self) -> str:
        return self.render(None)

    def __repr__(self) -> str:
        return f"Text({str(self)!r})"

    def __eq__(self, other) -> bool:
        return str(self) == str(other)

    def __hash__(self) -> int:
        return hash(str(self))


class Joined(Text):
    """Several messages said one after the other: `a; b`, `a, b`."""

    __slots__ = ("items", "sep")

    def __init__(self, items, sep: str = "; "):
        super().__init__("")
        self.items = [i for i in items if i]
        self.sep = sep

    def render(self, tr: Translations | None = None) -> str:
        return self.sep.join(render(i, tr) for i in self.items)

    def __bool__(self) -> bool:
        return bool(self.items)


def msg(template: str, **params) -> Text:
    """A message to be said in the user's language (a catalog msgid)."""
    return Text(template, params=params)


def plural(singular: str, plural_: str, n: int, **params) -> Text:
    """A message with a singular and a plural form, chosen by `n` (`{n}` in the template)."""
    return Text(singular, plural_, n, params)


def either(items: list) -> Text:
    """`a`, `a or b`, `a, b or c`."""
    items = list(items)
    if len(items) == 1:
        return Joined(items, "")
    return msg("{some} or {last}", some=Joined(items[:-1], ", "), last=items[-1])


def render(value, tr: Translations | None = None) -> str:
    """A Text in the language of `tr` (English without it); anything else as str()."""
    if isinstance(value, Text):
        return value.render(tr)
    return str(value) if not isinstance(value, str) else value
