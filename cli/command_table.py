"""The command table: each word of `banco` and the module that holds it (named as a string, so
that a command's module is imported only when it runs), and the `--lang` option every command
takes.  The words themselves, English and Italian, with their arguments and options, are
cli/lines/vocabulary.py's.  Low in the layering: cli/main.py, cli/session.py (the recorded
line), cli/execution.py and the shell all read it."""

from __future__ import annotations

import importlib
import textwrap

import click

from cli.lines.vocabulary import (  # noqa: F401 - the one table of words; read here by many
    ALIASES,
    ALL_WORDS,
    ITALIAN_OPTIONS,
    OPTION_ALIASES,
    VALUE_ALIASES,
    english_option_words,
    english_value,
)
from cli.words import i18n
from cli.words.i18n import N_

# The click group that runs a line (cli/main.py's `cli`), named as the commands are: the
# shell and `run` reach it by name, so that nothing below cli/main.py imports it.
ROOT = "cli.main:cli"

# Command word -> "module:function".  Grouped by who uses them.
COMMANDS = {
    # the banker: setting up, the turn, what players own, the table
    "new": "cli.banker.setting_up:new", "roll": "cli.banker.turn:roll", "buy": "cli.banker.turn:buy",
    "move": "cli.banker.turn:move", "go": "cli.banker.turn:go", "advance": "cli.banker.turn:advance",
    "decline": "cli.banker.turn:decline", "bid": "cli.banker.turn:bid", "hammer": "cli.banker.turn:hammer",
    "claim": "cli.banker.turn:claim", "card": "cli.banker.turn:card", "pay-fine": "cli.banker.turn:pay_fine",
    "misdraw": "cli.banker.turn:misdraw", "shuffle": "cli.banker.turn:shuffle",
    "use-card": "cli.banker.turn:use_card", "pay": "cli.banker.turn:pay", "build": "cli.banker.estate:build",
    "sell": "cli.banker.estate:sell", "break-up": "cli.banker.estate:break_up",
    "mortgage": "cli.banker.estate:mortgage", "unmortgage": "cli.banker.estate:unmortgage",
    "trade": "cli.banker.estate:trade", "bankrupt": "cli.banker.estate:bankrupt",
    "auction-building": "cli.banker.estate:auction_building", "undo": "cli.banker.turn:undo",
    "state": "cli.banker.readings:state", "board": "cli.banker.readings:board", "cards": "cli.banker.readings:cards",
    "run": "cli.banker.transcript:run", "shell": "cli.banker.shell:shell",
    # the rule sets beyond classic (vintage, short, timed, championship) and tournaments
    "deal": "cli.banker.table_rules:deal", "time-up": "cli.banker.table_rules:time_up",
    "auction-deed": "cli.banker.table_rules:auction_deed", "tournament": "cli.banker.table_rules:tournament",
    # the referee
    "log": "cli.referee.commands:log", "audit": "cli.referee.commands:audit", "show": "cli.referee.commands:show",
    "replay": "cli.referee.commands:replay", "ruling": "cli.referee.commands:ruling",
    "correct": "cli.referee.commands:correct",
    # the organiser
    "games": "cli.organiser.commands:games", "statement": "cli.organiser.commands:statement",
    "history": "cli.organiser.commands:history", "standings": "cli.organiser.commands:standings",
    "export": "cli.organiser.export:export", "import": "cli.organiser.commands:import_",
    "report": "cli.organiser.commands:report",
    # the database file
    "backup": "cli.organiser.database:backup", "copy": "cli.organiser.database:copy",
    "doctor": "cli.referee.integrity:doctor", "keygen": "cli.referee.integrity:keygen",
    "seal": "cli.referee.integrity:seal",
    # the table's screen: a read-only web page for a TV or the players' phones
    "serve": "cli.web.serve:serve", "token": "cli.web.tokens_cli:token",
    "help": "cli.main:help_",
}

# `banco help`: the words by what the banker is doing, one line a group (`banco --help` and
# the shell's `help` give every word with its line).  Every word is in one group.
HELP_GROUPS = (
    (N_("the turn"), ("roll", "buy", "decline", "bid", "hammer", "claim", "card", "pay-fine",
                      "use-card", "move", "go", "advance", "misdraw", "shuffle", "undo")),
    (N_("what players own"), ("build", "sell", "break-up", "mortgage", "unmortgage", "trade",
                              "pay", "bankrupt", "auction-building", "auction-deed")),
    (N_("reading the table"), ("state", "log", "show", "standings", "statement", "history",
                               "board", "cards", "games")),
    (N_("starting and ending"), ("new", "deal", "time-up", "run", "shell", "serve", "token")),
    (N_("the referee"), ("replay", "ruling", "correct", "audit", "seal", "report", "export",
                         "import")),
    (N_("the organiser"), ("tournament", "backup", "copy", "doctor", "keygen", "help")),
)


def grouped_help() -> str:
    """`banco help`: a line a group, each word as the user's language types it."""
    _ = i18n._
    italian = {english: word for word, english in ALIASES.items()}
    speaking = i18n.language() != i18n.SOURCE
    titles = [_(title) for title, _words in HELP_GROUPS]
    width = max(len(t) for t in titles) + 2
    lines = [_("banco: the banker's book for a Monopoly table."), ""]
    for title, (_t, names) in zip(titles, HELP_GROUPS, strict=True):
        said = " ".join(italian.get(n, n) if speaking else n for n in names)
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
    italian = set(ALIASES.values())
    return [*ALIASES, *(w for w in COMMANDS if w not in italian)]


lang_option = click.Option(["--lang"], type=click.Choice(i18n.LANGUAGES), default=None,
                           expose_value=False, is_eager=True,
                           callback=lambda ctx, param, value: value and i18n.use(value),
                           help=N_("Language of messages and help: it or en (env BANCO_LANG, "
                                   "else the locale)."))


def load(target: str):
    """The object a "module:name" string of this table names, its module imported now."""
    module, attr = target.split(":")
    return getattr(importlib.import_module(module), attr)
