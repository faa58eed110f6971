"""A banker's line into a typed command: `parse(table, words, language)`.

Pure: no click, nothing printed, no process-wide language (the language comes in).  The words
are the line's as the shell splits them, the command's word first, as typed (`offerta` for
`bid`: a suggestion says the word the banker uses).  What it cannot read is a UsageError, said
with the same words the click commands say (cli/banker/turn.py, estate.py, table_rules.py are
thin adapters over the same builders).

A mistake in a line's shape, as click would word it (an unknown option, a missing or an extra
argument, an option without its value), is a LineShape: click's words for it (and the word's
usage line under them) stay click's, and cli/execution.py lets click say them."""

from __future__ import annotations

from functools import cache, lru_cache

from banco.cli.lines import estate, trade, turn
from banco.cli.lines.twice import given_twice
from banco.cli.lines.vocabulary import (
    ALIASES,
    BY_ENGLISH,
    CHOICE_ALONE,
    CONTEXT_OPTIONS,
    TABLE_ACTIONS,
    english_option_words,
    english_word,
)
from banco.ledger.base.errors import UsageError

BUILDERS = {
    "roll": turn.roll, "move": turn.move, "go": turn.go, "advance": turn.advance,
    "buy": turn.buy, "decline": turn.decline, "bid": turn.bid, "hammer": turn.hammer,
    "claim": turn.claim, "card": turn.card, "misdraw": turn.misdraw, "shuffle": turn.shuffle,
    "pay-fine": turn.pay_fine, "use-card": turn.use_card, "pay": turn.pay, "undo": turn.undo,
    "build": estate.build, "sell": estate.sell, "break-up": estate.break_up,
    "mortgage": estate.mortgage, "unmortgage": estate.unmortgage, "trade": trade.trade,
    "bankrupt": estate.bankrupt, "auction-building": estate.auction_building,
    "deal": estate.deal, "time-up": estate.time_up, "auction-deed": estate.auction_deed,
}
assert set(BUILDERS) == TABLE_ACTIONS  # every table action is parsed here


class LineShape(UsageError):
    """The line's shape is not the word's (click's `No such option`, `Missing argument`, `Got
    unexpected extra argument`...): worded by click, which cli/execution.py asks."""

    def __init__(self, why: str, **detail):
        super().__init__("{why}", why=why)
        self.why = why
        # what the library says it with (cli/lines/shape_words.py): `extra` (the words too
        # many), `missing` (the argument's metavar), `option` (unknown), `needs` (an option
        # without its value), `value` and `choices`; `word`, `spec`: the word as typed, its
        # entry in the table of words (set by read())
        self.detail = detail
        self.word: str | None = None
        self.spec = None


class Parsed:
    """A line read: its command, the English word, the word as typed, and the context options
    it carried (`--id`, `--expect`, `--game`, `--lang`: where and how to record it)."""

    __slots__ = ("command", "word", "typed", "context")

    def __init__(self, command, word: str, typed: str, context: dict):
        self.command, self.word, self.typed, self.context = command, word, typed, context

    def __repr__(self) -> str:
        return f"Parsed({self.command!r}, {self.word!r}, {self.typed!r}, {self.context!r})"


@lru_cache(maxsize=8)
def _words(line: str) -> tuple[str, ...] | ValueError:
    import shlex

    try:
        return tuple(shlex.split(line, comments=True))
    except ValueError as exc:
        return exc


def shell_words(line: str) -> list[str]:
    """shlex's words of a line (`#` a comment), ValueError as shlex says it.  A line is split
    once however many readers look at it (the other file's check, the parse, the library, the
    meant line): shlex takes time of the square of a long word's length (a 70 KB line took
    1.7 s, split four times; issue 32)."""
    words = _words(line)
    if isinstance(words, ValueError):
        raise ValueError(*words.args)
    return list(words)


def split(line: str) -> list[str]:
    """A line's words as the shell splits them (`#` starts a comment), or a UsageError in the
    banker's words: shlex's own ("No closing quotation") say nothing about his line, and a
    pasted page is not said back whole."""
    from banco.ledger.base.names import shown

    try:
        return shell_words(line)
    except ValueError as exc:
        if "quotation" in str(exc):
            raise UsageError("a quote is not closed: {line} (a name with spaces goes between "
                             "quotes, e.g. `claim 'Anna Maria'`)",
                             line=shown(line.strip(), 80)) from None
        if "escaped" in str(exc):
            raise UsageError("the line ends with a backslash: {line}",
                             line=shown(line.strip(), 80)) from None
        raise UsageError("{why}: {line}", why=str(exc), line=shown(line.strip(), 80)) from None


def table_action(words: list[str]) -> str | None:
    """The English word of a line that is a table action (`tira 3 4` -> `roll`; `draw` alone,
    a card's choice, -> `card`), else None: a reading, the file's, or no word at all."""
    if not words:
        return None
    word = english_word(words[0])
    if word in CHOICE_ALONE:
        return "card"
    return word if word in TABLE_ACTIONS else None


def typed_word(word: str) -> str:
    """The word as a suggestion repeats it: as typed, but in lower case where caps lock is
    all that made it another word (`ROLL`)."""
    low = word.lower()
    if low != word and (low in BY_ENGLISH or low in ALIASES or low in CHOICE_ALONE):
        return low
    return word


def parse(table, words: list[str], language: str = "en", now: str | None = None):
    """The typed command the line says at `table` (ledger/records/commands.py; turn.Undo for
    `undo`).  `now`: the time a `time-up` records.  Raises UsageError (LineShape for a line
    click would refuse by its shape)."""
    return read(table, words, language, now).command


def read(table, words: list[str], language: str = "en", now: str | None = None) -> Parsed:
    """parse(), with the English word, the word as typed and the line's context options."""
    word = table_action(words)
    if word is None:
        raise LineShape("not a table action")
    typed = typed_word(words[0])
    rest = list(words[1:])
    if english_word(words[0]) in CHOICE_ALONE:
        # `draw` at a pay-or-draw card is `card DECK N draw` (cli/main.py says so for click)
        state = table
        if state.ended or state.turn.phase != "choice" or state.turn.card_choice is None:
            # the table's, not the line's shape: said by the library, never by click
            raise UsageError("no card waits for its choice: `{word}`", word=typed)
        deck, number = state.turn.card_choice
        rest = [deck, str(number), CHOICE_ALONE[english_word(words[0])], *rest]
    spec = BY_ENGLISH[word]
    try:
        params, context = shape(spec, rest)
    except LineShape as exc:  # said with the word's usage, as the word was typed
        exc.word, exc.spec = typed, spec
        raise
    if word == "time-up":
        params["now"] = now
    return Parsed(BUILDERS[word](table, typed, language, **params), word, typed, context)


def shape(spec, words: list[str]) -> tuple[dict, dict]:
    """The builder's parameters and the context options, from a word's arguments as click
    reads them (its options anywhere, `--` ending them); LineShape where click would refuse."""
    options = {name: o for o in spec.options for name in o.names}
    typed = list(words)  # one for one with the English: a refusal names the option as typed
    words = english_option_words(words)  # `--giocatore`, `--dai`: as click's group reads them
    params: dict = {o.dest: ([] if o.multiple else False if o.flag else None)
                    for o in spec.options}
    context: dict = {}
    loose: list[str] = []
    twice = given_twice(words, _single(spec), typed)
    if twice is not None:
        raise twice
    i, ended = 0, False
    while i < len(words):
        w = words[i]
        i += 1
        if ended or not w.startswith("-") or w == "-":
            loose.append(w)
            continue
        if w == "--":
            ended = True
            continue
        # `--player=Anna`; a short option's `=` is its value's (`-p=Anna` is "=Anna")
        name, eq, value = w.partition("=") if w.startswith("--") else (w, "", "")
        takes = options.get(name) or (name if name in CONTEXT_OPTIONS else None)
        if takes is None and not w.startswith("--") and w[:2] in options:
            raise LineShape(f"{w[:2]} with its value joined")  # `-pAnna`: click reads it
        if takes is None:
            if not spec.loose or w.startswith("--") and spec.strays \
                    or name == "--help":
                # click (or no_stray_options) says it
                raise LineShape(f"no such option {name}", option=name)
            loose.append(w)  # `-1`, `--give`: the word's own
            continue
        if not isinstance(takes, str) and takes.flag:
            if eq:
                raise LineShape(f"{name} takes no value")  # click: `Option does not take a value`
            params[takes.dest] = True
            continue
        if not eq:
            if i >= len(words):
                raise LineShape(f"{name} needs a value",
                                needs=typed[i - 1].partition("=")[0])
            value = words[i]
            i += 1
        if isinstance(takes, str):  # a context option
            if takes in ("--id", "--expect") and not spec.records or takes == "--db":
                raise LineShape(f"{takes} is click's here")
            if takes in ("--expect", "--game"):  # click's INT: `--expect abc` is its refusal
                from banco.ledger.base.numbers import whole

                if whole(value.strip()) is None:
                    raise LineShape("not a whole number", value=value, option=takes)
            if takes == "--lang":  # click's Choice: `--lang xx` is its refusal
                from banco.cli.words.i18n import LANGUAGES

                if value not in LANGUAGES:
                    raise LineShape("no such language", value=value, choices=LANGUAGES)
            context[takes] = value
        elif takes.multiple:
            params[takes.dest].append(value)
        else:
            params[takes.dest] = value
    for o in spec.options:
        if o.multiple:
            params[o.dest] = tuple(params[o.dest])
    _arguments(spec, loose, params)
    return params, context


@cache
def _single(spec) -> dict[str, str]:
    """A word's options that take one value, and the context options: name -> one key."""
    single = {name: o.dest for o in spec.options if not o.multiple and not o.flag
              for name in o.names}
    return {**single, **{name: name for name in CONTEXT_OPTIONS}}


def _arguments(spec, words: list[str], params: dict) -> None:
    """The positional words into the word's arguments, as click assigns them."""
    fixed = [a for a in spec.args if not a.many]
    required = [a for a in fixed if a.required]
    if len(words) < len(required):  # click names the first argument not given
        raise LineShape("missing argument", missing=metavar(required[len(words)]))
    at = 0
    for n, arg in enumerate(spec.args):
        if arg.many:
            after = sum(1 for a in spec.args[n + 1:] if not a.many)
            taken = words[at:len(words) - after]
            if arg.required and not taken:
                raise LineShape("missing argument", missing=metavar(arg))
            params[arg.name] = tuple(taken)
            at += len(taken)
            continue
        if at >= len(words):
            params[arg.name] = None  # an optional argument not given
            continue
        value = words[at]
        at += 1
        if arg.whole:
            from banco.ledger.base.numbers import whole

            number = whole(value.strip())
            if number is None:
                raise LineShape("not a whole number", value=value)
            value = number
        if arg.choice and value not in arg.choice:
            raise LineShape("not one of the choices", value=value, choices=arg.choice)
        params[arg.name] = value
    if at < len(words):
        raise LineShape("unexpected extra argument", extra=words[at:])


def metavar(arg) -> str:
    """An argument as the usage line names it (click's: its metavar, else its NAME)."""
    return arg.metavar or arg.name.upper()
