"""The command table: each word of `banco`, the module that holds it (named as a string, so
that a command's module is imported only when it runs), the Italian aliases, and the `--lang`
option every command takes.  Low in the layering: cli/main.py, cli/session.py (the recorded
line), cli/execution.py and the shell all read it."""

from __future__ import annotations

import importlib
import textwrap

import click

from banco.cli.words import i18n
from banco.cli.words.i18n import N_

# The click group that runs a line (cli/main.py's `cli`), named as the commands are: the
# shell and `run` reach it by name, so that nothing below cli/main.py imports it.
ROOT = "banco.cli.main:cli"

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
    "correct": "banco.cli.referee.commands:correct",
    # the organiser
    "games": "banco.cli.organiser.commands:games", "statement": "banco.cli.organiser.commands:statement",
    "history": "banco.cli.organiser.commands:history", "standings": "banco.cli.organiser.commands:standings",
    "export": "banco.cli.organiser.export:export", "import": "banco.cli.organiser.commands:import_",
    "report": "banco.cli.organiser.commands:report",
    # the database file
    "backup": "banco.cli.organiser.database:backup", "copy": "banco.cli.organiser.database:copy",
    "doctor": "banco.cli.referee.integrity:doctor", "keygen": "banco.cli.referee.integrity:keygen",
    "seal": "banco.cli.referee.integrity:seal",
    # the table's screen: a read-only web page for a TV or the players' phones
    "serve": "banco.cli.web.serve:serve", "token": "banco.cli.web.tokens_cli:token",
    "help": "banco.cli.main:help_",
}

# The words an Italian banker uses, as aliases of the English ones: the same command, and the
# line is recorded as typed.
ALIASES = {
    "nuova": "new", "tira": "roll", "compra": "buy", "rifiuta": "decline", "offerta": "bid",
    "aggiudica": "hammer", "riscuoti": "claim", "carta": "card", "paga-multa": "pay-fine",
    "usa-carta": "use-card", "costruisci": "build", "vendi": "sell", "ipoteca": "mortgage",
    "riscatta": "unmortgage", "scambia": "trade", "paga": "pay", "bancarotta": "bankrupt",
    "annulla": "undo", "stato": "state", "registro": "log", "classifica": "standings",
    "muovi": "move", "vai": "go", "avanza": "advance", "carta-sbagliata": "misdraw",
    "mescola": "shuffle", "smonta": "break-up", "asta-edificio": "auction-building",
    "tabellone": "board", "carte": "cards", "esegui": "run", "distribuisci": "deal",
    "tempo-scaduto": "time-up", "asta-contratto": "auction-deed", "torneo": "tournament",
    "verifica": "audit", "mostra": "show", "rivedi": "replay", "decisione": "ruling",
    "correggi": "correct", "partite": "games", "estratto": "statement", "storia": "history",
    "esporta": "export", "importa": "import", "resoconto": "report", "copia": "backup", "trasferisci": "copy",
    "schermo": "serve", "diagnosi": "doctor", "chiavi": "keygen", "sigilla": "seal",
    "aiuto": "help",
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


# The Italian words for the options and words a command parses itself (its words are
# UNPROCESSED): `scambia Anna Bruno --dai via roma --ricevi 100` is `trade ... --give ... --get`.
OPTION_ALIASES = {"--dai": "--give", "--ricevi": "--get", "--libera": "--lift",
                  "--fino-a": "--to", "--vogliono": "--wanted"}
# `sell PROPERTY all`: every building of the group (`vendi via roma tutto`)
ALL_WORDS = frozenset({"all", "tutto", "tutti", "tutte"})
# The words a command reads among its arguments, in Italian too: a card's choice (`carta
# probabilita 11 paga`), a building (`asta-edificio casa`, `costruisci verde albergo`) and a
# get-out-of-jail card in a trade (`--dai carta-prigione`).  The Italian messages name these.
VALUE_ALIASES = {"paga": "pay", "pesca": "draw", "casa": "house", "albergo": "hotel",
                 "carta-prigione": "jail-card"}


# The Italian names of click's own options (each command's --referee, --reason, ...), said in
# English before click parses a line (cli/main.py): an Italian message names what an Italian
# banker or referee types, and it works when typed.
# --db, --game, --lang, --json, --id, --host and --port stay as they are, in every language.
ITALIAN_OPTIONS = {
    "--referee": "--arbitro", "--reason": "--motivo", "--rules": "--regole",
    "--repair": "--ripara", "--record": "--registra", "--seal": "--sigillo",
    "--pubkey": "--chiave-pubblica", "--move": "--sposta", "--owner": "--proprietario",
    "--resume": "--riprendi", "--revoke": "--revoca", "--list": "--elenco",
    "--out": "--uscita", "--final": "--finale", "--fresh": "--da-capo",
    "--skip-refused": "--salta-rifiutate", "--at": "--al", "--claim-at": "--richiesta-al",
    "--tail": "--ultimi", "--player": "--giocatore", "--edition": "--edizione",
    "--force": "--forza", "--expect-head": "--impronta-attesa",
}


_ENGLISH_OPTION = {**{italian: english for english, italian in ITALIAN_OPTIONS.items()},
                   **OPTION_ALIASES}


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


def english_option_words(args: list[str]) -> list[str]:
    """A command line's words with click's options typed in Italian said in English
    (`--al 3`, `--al=3` are `--at 3`, `--at=3`); click's errors keep the English names, which
    every language accepts, and the Italian help lists both (cli/words/click_words.py's localize)."""
    out = []
    for word in args:
        if word.startswith("--"):
            name, eq, value = word.partition("=")
            english = _ENGLISH_OPTION.get(name.lower())
            if english is not None:
                word = english + eq + value
        out.append(word)
    return out


def english_value(word: str) -> str:
    """An argument word as the command reads it: its English word if it is an Italian one."""
    low = word.lower()
    return VALUE_ALIASES.get(low, low)


def english_options(words) -> list[str]:
    """The words of a command line with its Italian option words said as the English ones
    (the ones a command parses itself and click's own: english_option_words)."""
    return english_option_words(list(words))

lang_option = click.Option(["--lang"], type=click.Choice(i18n.LANGUAGES), default=None,
                           expose_value=False, is_eager=True,
                           callback=lambda ctx, param, value: value and i18n.use(value),
                           help=N_("Language of messages and help: it or en (env BANCO_LANG, "
                                   "else the locale)."))


def load(target: str):
    """The object a "module:name" string of this table names, its module imported now."""
    module, attr = target.split(":")
    return getattr(importlib.import_module(module), attr)
