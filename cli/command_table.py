"""The command table: each word of `banco` and the module that holds it (imported only when the
command runs, by cli/main.py's explicit importers), and the `--lang` option every command
takes.  The words themselves, English and Italian, with their arguments and options, are
cli/lines/vocabulary.py's.  Low in the layering: cli/main.py, cli/execution.py and the shell
read it; the click group itself is cli/main.py's, which the shell and `run` have from their
click context."""

from __future__ import annotations

import textwrap

import click

from banco.cli.lines.vocabulary import (  # noqa: F401 - the one table of words; read here by many
    ALIASES,
    ALL_WORDS,
    FORMER,
    ITALIAN_OPTIONS,
    ITALIAN_WORDS,
    OPTION_ALIASES,
    VALUE_ALIASES,
    english_option_words,
    english_value,
)
from banco.cli.words import i18n
from banco.cli.words.i18n import N_

# Command word -> "module:function".  Grouped by who uses them.
COMMANDS = {
    # the banker: setting up, the turn, what players own, the table
    "new": "banco.cli.banker.setting_up:new", "roll": "banco.cli.banker.turn:roll", "buy": "banco.cli.banker.turn:buy",
    "move": "banco.cli.banker.turn:move", "go": "banco.cli.banker.turn:go", "advance": "banco.cli.banker.turn:advance",
    "decline": "banco.cli.banker.turn:decline", "bid": "banco.cli.banker.turn:bid", "hammer": "banco.cli.banker.turn:hammer",
    "claim": "banco.cli.banker.turn:claim", "card": "banco.cli.banker.turn:card", "pay-fine": "banco.cli.banker.turn:pay_fine",
    "misdraw": "banco.cli.banker.turn:misdraw", "shuffle": "banco.cli.banker.turn:shuffle",
    "use-card": "banco.cli.banker.turn:use_card", "pay": "banco.cli.banker.turn:pay", "build": "banco.cli.banker.estate:build",
    "sell": "banco.cli.banker.estate:sell", "break-up": "banco.cli.banker.estate:break_up",
    "mortgage": "banco.cli.banker.estate:mortgage", "unmortgage": "banco.cli.banker.estate:unmortgage",
    "trade": "banco.cli.banker.estate:trade", "bankrupt": "banco.cli.banker.estate:bankrupt",
    "auction-building": "banco.cli.banker.estate:auction_building", "undo": "banco.cli.banker.turn:undo",
    "state": "banco.cli.banker.readings:state", "board": "banco.cli.banker.readings:board", "cards": "banco.cli.banker.readings:cards",
    "run": "banco.cli.banker.transcript:run", "shell": "banco.cli.banker.shell:shell",
    # the rule sets beyond classic (vintage, short, timed, championship) and tournaments
    "deal": "banco.cli.banker.table_rules:deal", "time-up": "banco.cli.banker.table_rules:time_up",
    "auction-deed": "banco.cli.banker.table_rules:auction_deed", "tournament": "banco.cli.banker.table_rules:tournament",
    # the referee
    "log": "banco.cli.referee.commands:log", "audit": "banco.cli.referee.commands:audit", "show": "banco.cli.referee.commands:show",
    "replay": "banco.cli.referee.commands:replay", "ruling": "banco.cli.referee.commands:ruling",
    "correct": "banco.cli.referee.corrections:correct",
    # the organiser
    "games": "banco.cli.organiser.commands:games", "statement": "banco.cli.organiser.commands:statement",
    "history": "banco.cli.organiser.commands:history", "standings": "banco.cli.organiser.commands:standings",
    "export": "banco.cli.organiser.export:export", "import": "banco.cli.organiser.commands:import_",
    "report": "banco.cli.organiser.commands:report",
    # the database file
    "backup": "banco.cli.organiser.database:backup", "copy": "banco.cli.organiser.database:copy",
    "doctor": "banco.cli.referee.integrity:doctor", "keygen": "banco.cli.referee.sealing:keygen",
    "seal": "banco.cli.referee.sealing:seal",
    # the table's screen: a read-only web page for a TV or the players' phones
    "serve": "banco.cli.web.serve:serve", "token": "banco.cli.web.tokens_cli:token",
    "help": "banco.cli.main:help_",
}

# `banco help`: the words by what the banker is doing, one line a group (`banco --help` and
# the shell's `help` give every word with its line).  Every word is in one group but `help`,
# which the closing line says (and the shell's own line): listed, it was said twice.
HELP_GROUPS = (
    (N_("the turn"), ("roll", "buy", "decline", "bid", "hammer", "claim", "card", "pay-fine",
                      "use-card", "move", "go", "advance", "misdraw", "shuffle", "undo")),
    (N_("what players own"), ("build", "sell", "break-up", "mortgage", "unmortgage", "trade",
                              "pay", "bankrupt", "auction-building", "auction-deed")),
    (N_("reading the table"), ("state", "log", "show", "standings", "statement", "history",
                               "board", "cards", "games")),
    (N_("starting and ending"), ("new", "deal", "time-up", "run", "shell", "serve", "token")),
    (N_("the referee"), ("replay", "ruling", "correct", "audit", "keygen", "seal", "report",
                         "export", "import")),  # keygen: the referee's key for `seal`
    (N_("the organiser"), ("tournament", "backup", "copy", "doctor")),
)


def grouped_help(excluding: frozenset[str] = frozenset()) -> str:
    """`banco help`: a line a group, each word as the user's language types it; `excluding`:
    English words left out (the shell's help leaves out what the shell refuses)."""
    _ = i18n._
    speaking = i18n.language() != i18n.SOURCE
    titles = [_(title) for title, _words in HELP_GROUPS]
    width = max(len(t) for t in titles) + 2
    lines = [_("banco: the banker's book for a Monopoly table."), ""]
    for title, (_t, names) in zip(titles, HELP_GROUPS, strict=True):
        said = " ".join(ITALIAN_WORDS.get(n, n) if speaking else n for n in names
                        if n not in excluding)
        lines += textwrap.wrap(said, 78, initial_indent=f"{title + ':':<{width}}",
                               subsequent_indent=" " * width, break_on_hyphens=False)
    lines += ["", _("`help WORD`: one word's usage; `banco --help`: every word with its line.")]
    return "\n".join(lines)


def close_words(name: str) -> list[str]:
    """The command words spelt close to `name`, a word that is none, best first (at most 3)."""
    import difflib

    return difflib.get_close_matches(name, spoken_words(), n=3, cutoff=0.6)


def spoken_words() -> list[str]:
    """The command words of the session's language: an English session is offered English
    words (`clear` is not `carte`), an Italian one Italian words (`trad` is not `trade`), and
    the English word where a command has no Italian one (`shell`, `token`)."""
    if i18n.language() == i18n.SOURCE:
        return [*COMMANDS]
    return [*ITALIAN_WORDS.values(), *(w for w in COMMANDS if w not in ITALIAN_WORDS)]


lang_option = click.Option(["--lang"], type=click.Choice(i18n.LANGUAGES), default=None,
                           expose_value=False, is_eager=True,
                           callback=lambda ctx, param, value: value and i18n.use(value),
                           help=N_("Language of messages and help: it or en (env BANCO_LANG, "
                                   "else the locale)."))
