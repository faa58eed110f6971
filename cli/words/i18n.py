"""The user's language: Italian or English, from gettext catalogs shipped in cli/words/locale.

The language comes from `--lang it|en` (anywhere on the line), else BANCO_LANG, else the locale
(LANGUAGE, LC_ALL, LC_MESSAGES, LANG, as gettext reads them: `it_IT.UTF-8` is Italian), else
English.  The catalogs are `cli/words/locale/<lang>/LC_MESSAGES/banco.po` (sources, edited by hand)
compiled to `banco.mo` beside them (tests/tools/catalogs.py; a test checks that they match).

Only the edges translate: messages a command prints, refusals (ledger/base/text.py's Text),
narration, table headings and click's help.  Facts in the log, JSON documents and event types
stay English.
"""

from __future__ import annotations

import gettext
import os
import re
import sys
from contextlib import contextmanager
from contextvars import ContextVar

LANGUAGES = ("en", "it")
SOURCE = "en"  # the language the code writes its messages in (the catalogs' msgids)
DOMAIN = "banco"
LOCALE_DIR = os.path.join(os.path.dirname(__file__), "locale")

# The language spoken is the caller's: a context variable, so two threads (or two requests of
# the phones' server) saying their answers in two languages never see each other's.  Each
# thread starts from the environment's language; `use` and `in_language` set it for the
# current context only.
_spoken: ContextVar[str | None] = ContextVar("banco_language", default=None)
_depth: ContextVar[int] = ContextVar("banco_language_depth", default=0)
_catalogs: dict[str, gettext.NullTranslations] = {}
# click reads LANGUAGE to choose its catalog (below, _bind_click): what banco put there, and
# what was there before, so that banco's own choice is never mistaken for the user's.  Only the
# command line's adapter binds it (`speaking`): click's help is a process's own words.
_injected: str | None = None
_saved_language: str | None = None


def from_environment(environ=None) -> str:
    """The language when no --lang is given: BANCO_LANG, else the locale, else English (a
    BANCO_LANG banco does not speak is passed over, with a warning: the locale still says)."""
    if environ is None:
        environ = dict(os.environ)
        if _injected is not None and environ.get("LANGUAGE") == _injected:
            environ.pop("LANGUAGE")
            if _saved_language is not None:
                environ["LANGUAGE"] = _saved_language
    chosen = supported(environ.get("BANCO_LANG", "").strip())
    if chosen:
        return chosen
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(var, "")
        if value:
            # LANGUAGE may list several (`it:en`); C/POSIX say nothing about a language
            for part in value.split(":"):
                found = supported(part)
                if found:
                    return found
            return "en"
    return "en"


def supported(value: str) -> str | None:
    """The language banco speaks that `value` names (`it`, `it_IT.UTF-8`), or None."""
    code = value.split(".")[0].split("@")[0].split("_")[0].split("-")[0].lower()
    return code if code in LANGUAGES else None


def from_argv(argv: list[str]) -> str | None:
    """`--lang X` or `--lang=X` anywhere on the command line, before click parses it, so that
    help texts are in that language too."""
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(argv):
            return supported(argv[i + 1])
        if arg.startswith("--lang="):
            return supported(arg.split("=", 1)[1])
    return None


def catalog(lang: str) -> gettext.NullTranslations:
    """The messages of `lang` (read once a process; English is the code's own words), said
    for the door this context speaks at (at_door, below)."""
    found = _catalog(lang)
    words, quotes, places = _door.get(), _quotes.get(), _places.get()
    if not words:
        return found
    key = (lang, words, quotes, places)
    if key not in _at_door:
        _at_door[key] = _AtDoor(found, words, quotes, places)
    return _at_door[key]


def _catalog(lang: str) -> gettext.NullTranslations:
    found = _catalogs.get(lang)
    if found is None:
        _register_sayers()
        if lang == SOURCE:
            # nothing to look up, no catalog to read (the English catalog exists so that both
            # are checked alike: tests/test_i18n.py)
            found = gettext.NullTranslations()
        else:
            found = gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang], fallback=True,
                                        class_=CATALOG_CLASSES.get(lang))
        _catalogs[lang] = found
    return found


def use(lang: str | None = None, warn: bool = True) -> str:
    """Speak `lang` (or the environment's language) in this context from now on; returns the
    language used.  An unknown BANCO_LANG is warned of once (unless `warn` is off: `--lang`
    was given).  The command line's run also tells click (`speaking`)."""
    lang = supported(lang) if lang else None
    chosen = bool(lang)
    lang = lang or from_environment()
    _spoken.set(lang)
    if _depth.get():
        _bind_click(lang)
    if not chosen and warn:
        _warn_unknown_banco_lang(lang)
    return lang


@contextmanager
def in_language(lang: str):
    """Say what is said inside in `lang`, in this context only (the library's `say(lang)`):
    nothing process-wide changes."""
    token = _spoken.set(supported(lang) or SOURCE)
    try:
        yield
    finally:
        _spoken.reset(token)


_warned = False


def _warn_unknown_banco_lang(lang: str) -> None:
    """BANCO_LANG naming a language banco does not speak is said once a run, on stderr (as
    `--lang fr` is refused): the table would otherwise wonder why its setting is ignored."""
    global _warned
    chosen = os.environ.get("BANCO_LANG", "").strip()
    if _warned or not chosen or supported(chosen):
        return
    _warned = True
    names = {"en": N_("English"), "it": N_("Italian")}
    print(_("BANCO_LANG={value} is not a language banco speaks ({languages}): "
            "{language}").format(value=chosen, languages=", ".join(sorted(LANGUAGES,
                                 reverse=True)), language=_(names[lang])),
          file=sys.stderr, flush=True)


# --- Italian prepositions ---------------------------------------------------------------------
# gettext fills `a {payee}` with whatever name comes: Italian then wants "ad Anna" (the
# euphonic d, kept by modern usage only before the same vowel: "ad" before a, "ed" before e)
# and "alla Banca" (a preposition joined to the article of a phrase).  The Italian catalog's
# messages are filled by italian_format, which looks at the word each placeholder brings.

# how a preposition joins each article: a + la -> alla, di + il -> del, in + l' -> nell'
_ARTICLES = {"il ": "l ", "i ": "i ", "gli ": "gli ", "lo ": "llo ", "la ": "lla ",
             "le ": "lle ", "l'": "ll'", "l\u2019": "ll\u2019"}
_JOINED = {"a": "a", "da": "da", "di": "de", "in": "ne", "su": "su"}  # al, dal, del, nel, sul
_EUPHONIC = {"a": "ad", "e": "ed"}
# a preposition at the end of the text before a placeholder, a word of its own (not the end
# of an option: `--fino-a {level}` stays `--fino-a albergo`)
_BEFORE = re.compile(r"(?:^|(?<=[^\w'\u2019-]))(a|e|da|di|in|su|A|E|Da|Di|In|Su) $")
_OPENING = "'\"`\u00ab\u201c\u2018("  # quotes before a word, read past for its first letter


def join_preposition(prep: str, phrase: str) -> str:
    """`prep` said before `phrase` in Italian: "a" + "Anna" -> "ad Anna", "e" + "Elena" ->
    "ed Elena", "a" + "la Banca" -> "alla Banca", "di" + "il Via!" -> "del Via!"; else the two
    words as they are.  A capital preposition (at the start of a sentence) stays capital."""
    low = prep.lower()
    base = _JOINED.get(low)
    if base is not None:
        for article, joined in _ARTICLES.items():
            if phrase.startswith(article):
                word = base + joined
                return (word.capitalize() if prep[0].isupper() else word) + phrase[len(article):]
    euphonic = _EUPHONIC.get(low)
    if euphonic is not None and _first_letter(phrase) == low:
        return prep + euphonic[len(prep):] + " " + phrase
    return f"{prep} {phrase}"


def _first_letter(text: str) -> str:
    import unicodedata

    word = text.lstrip(_OPENING)
    return unicodedata.normalize("NFD", word[:1])[:1].lower()


def italian_format(template: str, *args, **kwargs) -> str:
    """`template.format(*args, **kwargs)`, with each placeholder that follows a preposition
    (`a {payee}`, `e {b}`) joined to it by join_preposition."""
    import string

    formatter = string.Formatter()
    out: list[str] = []
    auto = 0
    for literal, field, spec, conversion in formatter.parse(template):
        if field is None:
            out.append(literal)
            continue
        if field == "":
            field, auto = str(auto), auto + 1
        value, _key = formatter.get_field(field, args, kwargs)
        value = formatter.convert_field(value, conversion)
        if spec and "{" in spec:
            spec = italian_format(spec, *args, **kwargs)
        text = formatter.format_field(value, spec or "")
        before = _BEFORE.search(literal)
        if before:
            literal = literal[:before.start()]
            text = join_preposition(before.group(1), text)
        out.append(literal)
        out.append(text)
    return "".join(out)


class _Italian(str):
    """A message from the Italian catalog: its format() joins prepositions to the words that
    fill it (italian_format)."""

    __slots__ = ()

    def format(self, *args, **kwargs) -> str:
        return italian_format(str.__str__(self), *args, **kwargs)


class ItalianTranslations(gettext.GNUTranslations):
    """The Italian catalog: every message it gives is an _Italian, so that the messages the
    edge fills and ledger/base/text.py's alike are filled the Italian way."""

    def gettext(self, message):
        return _Italian(super().gettext(message))

    def ngettext(self, msgid1, msgid2, n):
        return _Italian(super().ngettext(msgid1, msgid2, n))

    def pgettext(self, context, message):
        return _Italian(super().pgettext(context, message))

    def npgettext(self, context, msgid1, msgid2, n):
        return _Italian(super().npgettext(context, msgid1, msgid2, n))


CATALOG_CLASSES = {"it": ItalianTranslations}


# The door a message is said at.  A hint to type is written as the command line takes it
# (`banco new PLAYER PLAYER ...`); the shell and a phone's field take their words without
# `banco`, so there the hint is said bare (`new PLAYER PLAYER ...`), for every word that door
# takes (the door names them: `banco serve` stays in the shell, `banco cards` on a phone,
# whose field does not run it).  One place says every hint for its door: the catalogs,
# through which every message passes.
# A phone is a door with no terminal's look: no backticks (it showed "annulla `carta
# Imprevisti 14`"), a line said in its language's quotes ("«riscuoti Carla»"); `banco` stays
# only before a word the phone cannot run ("«banco audit»": the terminal's, and said so).
_door: ContextVar[frozenset | None] = ContextVar("banco_door", default=None)
_quotes: ContextVar[tuple[str, str] | None] = ContextVar("banco_door_quotes", default=None)
_places: ContextVar[tuple | None] = ContextVar("banco_door_places", default=None)
_at_door: dict = {}
_CODE = re.compile(r"`([^`\n]*)`")
# a hint to a word that lists something ("; `board` lists them", "(`registro` li elenca)"),
# with what leads it in and closes it
_LISTS = re.compile(r"(?P<lead>;\s*|:\s*|\s*\()?`(?P<line>[^`\n]+)` "
                    r"(?:(?:lists|shows) them|(?:li|le) (?:elenca|mostra))(?P<close>\))?")


@contextmanager
def at_door(words, quotes: tuple[str, str] | None = None, places: dict | None = None):
    """Say what is said inside at a door whose lines take `words` (English and Italian)
    without `banco` (the shell's prompt, a phone's field); with `quotes` (a phone's), every
    line said there is put between them, without backticks.  With `places` (a phone's: a
    word to the message naming where its page shows the same), a hint to a word the door
    cannot run ("`board` lists them": a phone cannot type it) names that place, or goes.  In
    this context only: context variables, so two threads or requests never see each other's
    door."""
    token, quoted = _door.set(frozenset(words)), _quotes.set(quotes)
    placed = _places.set(tuple(sorted(places.items())) if places else None)
    try:
        yield
    finally:
        _places.reset(placed)
        _quotes.reset(quoted)
        _door.reset(token)


def door() -> frozenset | None:
    """The words of the door this context speaks at (the shell's, a phone's), or None: the
    command line's."""
    return _door.get()


def for_door(text: str, words: frozenset | None = None,
             quotes: tuple[str, str] | None = None) -> str:
    """`text` for the door it is said at: each "`banco WORD" whose WORD the door takes said
    "`WORD" there, and at a door with quotes each "`line`" said "«line»"; on the command line
    (no door set) as written."""
    words = _door.get() if words is None else words
    if not words:
        return text
    quotes = _quotes.get() if quotes is None else quotes
    if quotes:  # a template is quoted before it is filled: its `banco {word}` seen in quotes
        text = _CODE.sub(lambda m: quotes[0] + m.group(1) + quotes[1], text)
    opening = quotes[0] if quotes else "`"
    if opening + "banco " not in text:
        return text
    closing = re.escape(quotes[1] if quotes else "`")
    # a terminal's line with a pipe or a redirection (`banco log | head -1`) is no door's line
    return re.sub(re.escape(opening) + rf"banco ([^\s`{closing}]+)(?![^`{closing}]*[|<>;])",
                  lambda m: opening + m.group(1) if m.group(1).lower() in words
                  else m.group(0), text)


class _DoorText(str):
    """A message said at a door: filled (format) as it is, then for the door, since a hint's
    word may be a parameter (`banco {command} --help`)."""

    __slots__ = ()

    def format(self, *args, **kwargs) -> str:
        return for_door(str.format(self, *args, **kwargs))


class _DoorItalian(_Italian):
    __slots__ = ()

    def format(self, *args, **kwargs) -> str:
        return for_door(_Italian.format(self, *args, **kwargs))


class _AtDoor(gettext.NullTranslations):
    """A catalog whose every message is said for its door (for_door)."""

    def __init__(self, base: gettext.NullTranslations, words: frozenset,
                 quotes: tuple[str, str] | None = None, places: tuple | None = None):
        super().__init__()
        self.base, self.words, self.quotes = base, words, quotes
        self.places = dict(places or ())

    def _said(self, text: str) -> str:
        kind = _DoorItalian if isinstance(text, _Italian) else _DoorText
        if self.places:
            text = _LISTS.sub(self._placed, text)
        return kind(for_door(text, self.words, self.quotes))

    def _placed(self, hint: re.Match) -> str:
        """A hint to a word this door cannot run: the page's place for it, or nothing; one it
        runs, or not led in (a message that is the hint alone), as it was."""
        words = hint["line"].split()
        word = (words[1] if words[0] == "banco" and len(words) > 1 else words[0]).lower()
        lead, close = hint["lead"] or "", hint["close"] or ""
        if word in self.words or not lead or ("(" in lead and not close):
            return hint[0]
        place = self.places.get(word)
        if place is None:  # gone, with its brackets (a bracket it did not open stays)
            return "" if "(" in lead else close
        return lead + self.base.gettext(place) + close

    def info(self):
        return self.base.info()

    def gettext(self, message):
        return self._said(self.base.gettext(message))

    def ngettext(self, msgid1, msgid2, n):
        return self._said(self.base.ngettext(msgid1, msgid2, n))

    def pgettext(self, context, message):
        return self._said(self.base.pgettext(context, message))

    def npgettext(self, context, msgid1, msgid2, n):
        return self._said(self.base.npgettext(context, msgid1, msgid2, n))


def language() -> str:
    lang = _spoken.get()
    return lang if lang is not None else use()


def translations() -> gettext.NullTranslations:
    return catalog(language())


def _(message: str) -> str:
    return translations().gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return translations().ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """A word whose translation depends on where it is said (`go` the space, `go` the command)."""
    return translations().pgettext(context, message)


def NP_(context: str, message: str) -> tuple[str, str]:
    """Marks a message with its context for the catalogs; said later with pgettext."""
    return context, message


def N_(message: str) -> str:
    """Marks a message for the catalogs where it is translated later (a table of words)."""
    return message


# What the system says of a file or a socket it could not use (an OSError's strerror, which
# Python leaves in the C locale's English): the ones a table meets, said in its language.
OS_ERRORS = frozenset({
    N_("No such file or directory"), N_("Permission denied"), N_("Is a directory"),
    N_("Not a directory"), N_("File exists"), N_("No space left on device"),
    N_("Read-only file system"), N_("Address already in use"),
    N_("Cannot assign requested address"), N_("File name too long"),
    N_("Operation not permitted"), N_("Input/output error"),
    N_("Too many levels of symbolic links"), N_("Disk quota exceeded"),
    N_("Invalid argument"),  # readline, given a folder for its history file
})


def say_os_error(text: str | None) -> str:
    """An OSError's strerror in the user's language where the catalog has it; else as is."""
    return _(text) if text in OS_ERRORS else (text or "")


def _register_sayers() -> None:
    """ledger/base/text.py's Fact of an OSError is said here (a reason, a basis, how a player
    left jail: by cli/words/reasons.py)."""
    from banco.ledger.base.text import SAYERS

    SAYERS.setdefault("os", say_os_error)  # Fact(exc.strerror, "os")


def say(value) -> str:
    """A message (ledger/base/text.py's Text) or a plain string, in the user's language."""
    from banco.ledger.base.text import render

    return render(value, translations())


def say_error(exc) -> str:
    """`refused: ...` or `error: ...`: a BancoError in the user's language."""
    from banco.ledger.base.errors import RuleViolation

    if isinstance(exc, RuleViolation):
        return _("refused: {message}").format(message=exc.render(translations(), _("allowed")))
    nearby = getattr(exc, "nearby", None)
    if nearby is not None and "quit" in (door() or ()):
        # the shell's file is missing: "did you mean demo.db?" cannot be acted on inside it,
        # which opens no other file (a phone's door has no `quit`: its server holds the file)
        path = exc.text.params.get("path")
        return _("error: {message}").format(message=(
            _("no database at {path} (no such file): `banco new PLAYER PLAYER ...` starts a "
              "game in it; another file ({names}): leave the shell (`quit`) and run `banco "
              "--db FILE shell`").format(path=path, names=", ".join(nearby)) if nearby else
            _("no database at {path} (no such file): `banco new PLAYER PLAYER ...` starts a "
              "game in it; another file: leave the shell (`quit`) and run `banco --db FILE "
              "shell`").format(path=path)))
    return _("error: {message}").format(message=exc.render(translations()))


def _bind_click(lang: str) -> None:
    """click says `Usage:`, `Options:`, `Show this message and exit.` through Python's global
    gettext domain: point that domain at banco's catalog for the chosen language (English:
    click's own words)."""
    global _injected, _saved_language
    if lang == SOURCE:
        _unbind_click()
        return
    gettext.bindtextdomain(DOMAIN, LOCALE_DIR)
    gettext.textdomain(DOMAIN)
    if _injected is None or os.environ.get("LANGUAGE") != _injected:
        _saved_language = os.environ.get("LANGUAGE")
    os.environ["LANGUAGE"] = lang  # what the global domain reads to choose the catalog
    _injected = lang


def _unbind_click() -> None:
    """click in its own English: the global domain back to Python's default."""
    if gettext.textdomain() == DOMAIN:
        gettext.textdomain("messages")
    _restore_language()


def _restore_language() -> None:
    global _injected, _saved_language
    if _injected is not None and os.environ.get("LANGUAGE") == _injected:
        if _saved_language is None:
            os.environ.pop("LANGUAGE", None)
        else:
            os.environ["LANGUAGE"] = _saved_language
    _injected = _saved_language = None


def _release() -> None:
    """Forget this context's language and give LANGUAGE back as it was (a command run
    in-process must not leave it to the next, nor to a child process)."""
    global _warned
    _unbind_click()
    _spoken.set(None)
    _warned = False


class speaking:
    """One run of `banco` on the command line: the language of its words (`--lang`, else the
    environment's), click's help told, given back at the end.  Nested runs (a `shell` or `run`
    line) keep the outer run's language unless the line says `--lang`."""

    def __init__(self, argv: list[str]):
        self.lang = from_argv(argv)
        # `--lang fr` is click's error to say: BANCO_LANG is not what the line asks for
        words = argv[:argv.index("--")] if "--" in argv else argv
        self.named = any(a == "--lang" or a.startswith("--lang=") for a in words)

    def __enter__(self):
        depth = _depth.get()
        self.previous = _spoken.get() if depth else None
        self._depth = _depth.set(depth + 1)
        if depth == 0 or self.lang:
            use(self.lang, warn=not self.named)
        return self

    def __exit__(self, *exc):
        _depth.reset(self._depth)
        if _depth.get() == 0:
            _release()
        elif self.previous:
            use(self.previous)
        return False


def NN_(singular: str, plural: str) -> tuple[str, str]:
    """Marks a singular/plural pair for the catalogs (click's own plurals)."""
    return singular, plural


# Things a command counts, each said in the form its number takes ("1 game", "3 partite"):
# never "game(s)" nor "partita/e".
COUNTED = {
    "game": NN_("{n} game", "{n} games"), "event": NN_("{n} event", "{n} events"),
    "problem": NN_("{n} problem", "{n} problems"), "round": NN_("{n} round", "{n} rounds"),
}


def counted(kind: str, n: int) -> str:
    """`n` things of `kind` (COUNTED), in the user's language."""
    singular, plural = COUNTED[kind]
    return ngettext(singular, plural, n).format(n=n)
