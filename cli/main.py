"""`banco`: the click command group, on top of cli/.  A thin layer: parse, resolve names, call
the book, print.

Commands live in modules by who uses them (cli/banker/, cli/referee/, cli/organiser/; the table
of them is cli/command_table.py) and are imported only when invoked (click's lazy-loading group
pattern), so a command pays only for what it needs.
"""

from __future__ import annotations

import os
import sys

import click

from banco.cli.command_table import (
    ALIASES,
    COMMANDS,
    FORMER,
    ITALIAN_OPTIONS,
    ITALIAN_WORDS,
    close_words,
    english_option_words,
    lang_option,
)
from banco.cli.help_format import HelpContext, held_help
from banco.cli.output_errors import OUTPUT_ERRORS, cannot_write, quiet_stdout, recorded_seqs
from banco.cli.session import ARGS, Session, strict_numbers
from banco.cli.usage_checks import GROUP_VALUE_OPTIONS, from_environment, given_twice
from banco.cli.words import i18n
from banco.cli.words.click_words import localize
from banco.cli.words.i18n import N_
from banco.cli.words.usage_hints import extra_argument_hint, option_hint
from banco.ledger.base.errors import EXIT_DATABASE, BancoError

EPILOG = N_("""\b
Exit codes:
  0  done
  1  refused by the rules (nothing appended, except the recorded refusal of a
     late claim)
  2  usage error (unknown name, bad number, no such game; in `run`, a `!` line
     the rules accepted, and so recorded)
  3  audit, doctor or report found a problem, or import or copy refused a game
  4  the database cannot be used (missing, locked, corrupt, newer format), or
     the answer cannot be written (disk full)
  5  conflict: the game changed while the command was decided (nothing
     appended; retry)""")

def card_choice_words(ctx: click.Context, word: str) -> list[str] | None:
    """`draw` (or `pesca`) typed at a pay-or-draw card: the words that say the choice with
    its card, `card probabilita 11 draw`; None elsewhere (or with no game to look at)."""
    from banco.cli.lines.vocabulary import CHOICE_ALONE

    choice = CHOICE_ALONE.get(word.lower())
    if choice is None:
        return None
    session, opened = ctx.obj, False
    if not isinstance(session, Session):  # `banco draw`: the group has not opened it yet
        session, opened = Session(ctx.params.get("db") or "", ctx.params.get("game")), True
    try:
        state = session.state()
    except BancoError:
        return None
    finally:
        if opened:
            session.close()
    if state.ended or state.turn.phase != "choice" or state.turn.card_choice is None:
        return None
    deck, number = state.turn.card_choice
    return ["card", deck, str(number), choice]


def _turn():
    from banco.cli.banker import turn
    return turn


def _estate():
    from banco.cli.banker import estate
    return estate


def _setting_up():
    from banco.cli.banker import setting_up
    return setting_up


def _readings():
    from banco.cli.banker import readings
    return readings


def _transcript():
    from banco.cli.banker import transcript
    return transcript


def _shell():
    from banco.cli.banker import shell
    return shell


def _table_rules():
    from banco.cli.banker import table_rules
    return table_rules


def _referee():
    from banco.cli.referee import commands
    return commands


def _corrections():
    from banco.cli.referee import corrections
    return corrections


def _integrity():
    from banco.cli.referee import integrity
    return integrity


def _sealing():
    from banco.cli.referee import sealing
    return sealing


def _organiser():
    from banco.cli.organiser import commands
    return commands


def _export():
    from banco.cli.organiser import export
    return export


def _database():
    from banco.cli.organiser import database
    return database


def _serve():
    from banco.cli.web import serve
    return serve


def _tokens():
    from banco.cli.web import tokens_cli
    return tokens_cli


def _main():
    return sys.modules[__name__]


# Each command's module, imported only when the command runs (a cold `state` does not pay for
# the server), by an import the import contracts see: no module is loaded by its name.
IMPORTERS = {
    "banco.cli.banker.turn": _turn, "banco.cli.banker.estate": _estate,
    "banco.cli.banker.setting_up": _setting_up, "banco.cli.banker.readings": _readings,
    "banco.cli.banker.transcript": _transcript, "banco.cli.banker.shell": _shell,
    "banco.cli.banker.table_rules": _table_rules, "banco.cli.referee.commands": _referee,
    "banco.cli.referee.integrity": _integrity, "banco.cli.referee.sealing": _sealing,
    "banco.cli.referee.corrections": _corrections, "banco.cli.organiser.commands": _organiser,
    "banco.cli.organiser.export": _export, "banco.cli.organiser.database": _database,
    "banco.cli.web.serve": _serve, "banco.cli.web.tokens_cli": _tokens, "banco.cli.main": _main,
}


class BancoGroup(click.Group):
    """Loads a command's module only when that command runs; turns a user's mistake into one
    `error:` or `refused:` line and its documented exit code."""

    context_class = HelpContext  # no word broken at its hyphen (cli/help_format.py)

    def list_commands(self, ctx):
        return sorted(COMMANDS)

    def get_command(self, ctx, name):
        target = COMMANDS.get(ALIASES.get(name, name))
        if target is None:
            return None
        module, attr = target.split(":")
        command = getattr(IMPORTERS[module](), attr)
        if not any(p.name == "lang" for p in command.params):
            command.params.append(lang_option)  # `banco state --lang it`, like --db
        strict_numbers(command)  # `1_000` and `６` are no numbers to a banker (ledger/base/numbers.py)
        localize(command, ITALIAN_OPTIONS)
        return held_help(command)

    def resolve_command(self, ctx, args):
        name = args[0] if args else None
        if name is not None and name.lower() != name and (name.lower() in COMMANDS
                                                          or name.lower() in ALIASES):
            args = [name.lower(), *args[1:]]  # `ROLL 1 2`: caps lock is no other word
            name = args[0]
        if name is not None and name not in COMMANDS and name not in ALIASES \
                and not name.startswith("-"):
            if name.lower() == "banco":  # `banco stato` typed in the shell: the program's name,
                # never a near word (`bancarotta` was offered, one letter from recording it)
                from banco.cli.lines.referee import program_name_typed

                ctx.fail(i18n.say(program_name_typed(args[1:]).text))
            choice = card_choice_words(ctx, name)
            if choice:  # the prompt's `pay or draw`: `draw` alone is the card's choice, and
                # is recorded as typed (the command word is the one the banker gave)
                return name, self.get_command(ctx, choice[0]), [*choice[1:], *args[1:]]
            close = close_words(name)
            _ = i18n._
            hint = (_(": did you mean {words}?").format(words=_(" or ").join(close)) if close
                    else _("; `banco --lang {lang} --help` lists them").format(
                        lang=ctx.meta["banco.lang"]) if self.standalone and "banco.lang" in ctx.meta
                    else _("; `banco --help` lists them") if self.standalone
                    else _("; `help` lists them"))  # a line of the shell or of a transcript
            from banco.ledger.base.names import code_point, shown

            odd = next((ch for ch in name if not ch.isascii()), None)
            if odd is not None:  # `rоll` with a Cyrillic о prints as roll: say which letter
                hint = _(" (its {char!r} is {code}, no plain letter: a command word is typed "
                         "in a-z){hint}").format(char=odd, code=code_point(odd), hint=hint)
            ctx.fail(_("no command called {name!r}{hint}").format(name=shown(name), hint=hint))
        name, command, rest = super().resolve_command(ctx, args)
        if name in FORMER:  # read, never shown: its usage and hints name today's word
            name = ITALIAN_WORDS[FORMER[name]]
        return name, command, rest

    def format_commands(self, ctx, formatter):
        """In Italian, each command with its Italian word first: `compra (buy)`."""
        if i18n.language() == i18n.SOURCE:
            return super().format_commands(ctx, formatter)
        italian = ITALIAN_WORDS  # the words shown: a former word is read, never listed
        commands = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                shown = f"{italian[name]} ({name})" if name in italian else name
                commands.append((shown, command))
        commands.sort(key=lambda c: c[0])  # in the order of the Italian words read first
        if commands:
            limit = formatter.width - 6 - max(len(shown) for shown, _c in commands)
            with formatter.section(i18n._("Commands")):
                formatter.write_dl([(shown, c.get_short_help_str(limit))
                                    for shown, c in commands])

    def format_help(self, ctx, formatter):
        localize(self)
        super().format_help(ctx, formatter)

    standalone = True  # run as `banco ...`, not a line of the shell run in-process

    def main(self, args=None, *rest, **options):
        # Each run speaks its own language, in-process runs (tests, the shell's lines) too.
        previous, self.standalone = self.standalone, options.get("standalone_mode", True)
        try:
            with i18n.speaking(sys.argv[1:] if args is None else list(args)):
                localize(self)
                return super().main(args, *rest, **options)
        finally:
            self.standalone = previous

    def parse_args(self, ctx, args):
        # The words as given, for the line a write records (cli/session.py's typed_line).
        ctx.meta[ARGS] = list(args)
        try:
            not_utf8(ctx, args)
            given_twice(ctx, self, list(args))  # the options named as typed (`--giocatore`)
            args = self._json_after_the_word(ctx, english_option_words(args))
            return super().parse_args(ctx, args)  # `--arbitro`: --referee
        except click.exceptions.UsageError as exc:  # `banco --game abc state`
            if exc.ctx is None:  # `banco --game`: the group's option without its value
                exc.ctx = ctx
            self._usage_error(ctx, from_environment(exc, ctx))

    def _json_after_the_word(self, ctx, args: list[str]) -> list[str]:
        """`banco --json state`: --json is the command's option, moved after its word; before
        a word that has none, a usage error that says where it goes (click said only `No such
        option '--json'. Did you mean '--version'?`)."""
        before, word, i = [], None, 0
        while i < len(args):
            a = args[i]
            if a == "--":
                break
            if not a.startswith("-"):
                word = a
                break
            before.append(a)
            i += 2 if a in GROUP_VALUE_OPTIONS else 1
        if "--json" not in before:
            return args
        args = list(args)
        del args[args.index("--json")]  # the first: before the word, not a value of --db
        _ = i18n._
        if word is None:
            ctx.fail(_("--json is an option of a reading, after its word: `banco state --json`"))
        name = ALIASES.get(word.lower(), word.lower())
        command = self.get_command(ctx, name) if name in COMMANDS else None
        at = i  # after the word (at i - 1 once --json is out)
        while isinstance(command, click.Group):  # `banco --json ruling rent 12`: its word's
            sub = next((j for j in range(at, len(args)) if not args[j].startswith("-")), None)
            command = command.get_command(ctx, args[sub]) if sub is not None else None
            if command is None:
                return args  # no word, or an unknown one: said as such by the group
            word, at = f"{word} {args[sub]}", sub + 1
        if command is None:
            return args  # the unknown word is said as such (resolve_command)
        if not any("--json" in getattr(p, "opts", ()) for p in command.params):
            ctx.fail(_("`{word}` has no --json; --json goes after the word of a reading that "
                       "has it: `banco state --json`").format(word=word))
        return [*args[:at], "--json", *args[at:]]

    def _usage_error(self, ctx, exc: click.exceptions.UsageError):
        """On the command line, click's usage mistake as banco's one `error:` line (exit 2),
        like banco's own usage errors, not click's block of usage, `Try ...` and `Error:`.
        In the shell or a transcript it goes up to cli/execution.py's execute."""
        if not self.standalone or isinstance(exc, click.exceptions.NoArgsIsHelpError):
            raise exc
        message = exc.format_message()
        if isinstance(exc, click.NoSuchOption) and exc.ctx is not None \
                and exc.ctx.command is self and exc.option_name in ("--id", "--expect"):
            # `banco --id k roll 1 2`: click offered --db; they are the word's options
            typed = ctx.meta.get(ARGS, [])
            taking = GROUP_VALUE_OPTIONS | {"--id", "--expect"}
            word = next((a for j, a in enumerate(typed) if not a.startswith("-")
                         and (j == 0 or typed[j - 1] not in taking)), None)
            from banco.cli.banker.shell_help import option_before_word

            # `banco --id k state`: said as the shell says it, `state` taking none
            message = i18n.say(option_before_word(self, word, exc.option_name, "banco ").text)
        # A word missing or one too many (`banco claim`, `banco buy buy`): the command's form
        # says what it takes, on the same line (the shell says it under the error).
        # An option without its value (`banco roll 1 2 --player`, `banco --game`) likewise,
        # the group's own too, with the option's line of help under it.
        if exc.ctx is not None and (type(exc) is click.exceptions.BadOptionUsage or (
                type(exc) in (click.exceptions.UsageError, click.exceptions.MissingParameter)
                and exc.ctx.command is not self)):
            usage = exc.ctx.get_usage()
            message = f"{message.rstrip('.')}; {usage[:1].lower()}{usage[1:]}"
        click.echo(i18n._("error: {message}").format(message=message), err=True)
        hint = extra_argument_hint(exc) or option_hint(exc)
        if hint:
            click.echo("  " + hint, err=True)
        ctx.exit(exc.exit_code)

    # the one-off command's session, for main(): an answer lost at click's last flush comes
    # after the command's context has closed, and must still say what was recorded
    session: Session | None = None

    def recorded(self) -> tuple[int, int] | None:
        """The seqs the one-off command recorded (cli/output_errors.py's recorded_seqs)."""
        return recorded_seqs(self.session.outcomes) if self.session is not None else None

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except click.exceptions.UsageError as exc:  # `banco buy buy`, `banco bid bea 5O`
            self._usage_error(ctx, exc)
        except BancoError as exc:
            if isinstance(ctx.obj, Session):
                ctx.obj.refusal = exc  # for cli/execution.py's LineOutcome
            click.echo(i18n.say_error(exc), err=True)
            ctx.exit(exc.exit_code)
        except KeyboardInterrupt:
            if not self.standalone:
                raise  # the shell or `run` says what was recorded before the Ctrl-C
            # Ctrl-C: the shell's convention (128 + SIGINT), not click's "Aborted!" and exit 1,
            # which banco's contract keeps for a refusal by the rules
            click.echo("\n" + i18n._("interrupted"), err=True)
            ctx.exit(130)
        except BrokenPipeError:
            # `banco log | head -1`: the reader has gone; that is not an error (click itself
            # would exit 1).  Point stdout at devnull so that the last flush is quiet too.
            quiet_stdout()
            ctx.exit(0)
        except OSError as exc:
            if exc.errno not in OUTPUT_ERRORS or not self.standalone:
                raise
            cannot_write(exc, self.recorded())
        except Exception as exc:
            # The store turns its own sqlite3 errors into DatabaseError; one raised elsewhere
            # (a projection's query, say) is still the database's, not a traceback.
            import sqlite3

            if isinstance(exc, ValueError) and "null byte" in str(exc):
                # a file name with a NUL in it (click's File opens it before banco sees it)
                click.echo(i18n._("error: a file name cannot hold a NUL byte"), err=True)
                ctx.exit(2)
            if not isinstance(exc, sqlite3.Error):
                raise
            # The store's own explanation when it is open, so that a damaged page met by a
            # projection's query gets the same "is damaged ... banco backup" sentence as one
            # met by the store (CI found the audit's game list reading past the store's guard).
            book = getattr(ctx.obj, "_book", None)
            if book is not None:
                click.echo(i18n.say_error(book.explain(exc)), err=True)
                ctx.exit(EXIT_DATABASE)
            db = getattr(ctx.obj, "db", None) or i18n._("the database")
            from banco.ledger.store.postgres_connection import shown

            db = shown(db)  # never a URL's password
            click.echo(i18n._("error: cannot use {db}: {exc}").format(db=db, exc=exc), err=True)
            ctx.exit(EXIT_DATABASE)


def _version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    """`banco --version`."""
    if not value or ctx.resilient_parsing:
        return
    click.echo("banco 0.1.0")
    ctx.exit()


def _lang(ctx: click.Context, _param: click.Parameter, value: str | None) -> None:
    """`--lang it`: the process's words, and remembered so that a hint naming `banco --help`
    names `--lang` too (without it the help would come in another language)."""
    if value:
        i18n.use(value)
        ctx.meta["banco.lang"] = value


@click.group(cls=BancoGroup, epilog=EPILOG, invoke_without_command=True, no_args_is_help=True,
             subcommand_metavar="COMMAND [ARGS]...")
@click.option("--lang", type=click.Choice(i18n.LANGUAGES), default=None, expose_value=False,
              is_eager=True, callback=_lang,
              help=N_("Language of messages and help: it or en (env BANCO_LANG, else the "
                      "locale)."))
@click.option("--db", envvar="BANCO_DB", default="banco.db", show_default=True,
              help="The SQLite file holding the games, or a postgresql:// URL (env BANCO_DB).")
@click.option("--game", type=int, default=None, envvar="BANCO_GAME",
              help="Game number (env BANCO_GAME); default: the latest unfinished game.")
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_version,
              help=N_("Show the version and exit."))
@click.pass_context
def cli(ctx, db, game):
    """banco: the banker's book for a Monopoly table."""
    if ctx.invoked_subcommand is None:
        # `banco --lang it`: its options and no command; as a bare `banco`, the help (in the
        # language asked), where click said only "Missing command."
        if not ctx.command.standalone:
            ctx.fail(i18n._("Missing command."))
        click.echo(ctx.get_help(), err=True)  # where a bare `banco` prints it
        ctx.exit(2)
    if not isinstance(ctx.obj, Session):
        ctx.obj = Session(db, game)
        ctx.call_on_close(ctx.obj.close)
        ctx.command.session = ctx.obj
    elif game is not None:
        ctx.obj.game_option = game
        ctx.obj._game = None


strict_numbers(cli)  # its own --game


@click.command("help")
@click.argument("word", required=False, metavar="[WORD]")
@click.pass_context
def help_(ctx, word):
    """The words by what the banker is doing, or one word's usage: help WORD."""
    group_ctx = ctx.parent
    if word is None:
        from banco.cli.command_table import grouped_help

        click.echo(grouped_help())
        return
    from banco.cli.command_table import ALL_WORDS

    if word.lower() in ALL_WORDS:  # `help all`, `aiuto tutto`: every word with its line, as
        click.echo(group_ctx.get_help())  # the shell's `aiuto` offers it
        return
    # a word that is none is said as such; `draw` at a pay-or-draw card is `card`'s
    _name, command, _args = group_ctx.command.resolve_command(group_ctx, [word])
    named = group_ctx.command.get_command(group_ctx, word) is not None
    with HelpContext(command, info_name=word if named else command.name,
                       parent=group_ctx) as sub:
        click.echo(command.get_help(sub))


def not_utf8(ctx: click.Context, args: list[str]) -> None:
    """A word holding bytes that are not UTF-8 (a Latin-1 terminal sends `Annà` as `Ann\\xe0`):
    Python keeps each such byte as a lone surrogate, which messages echoed as 'Ann\\udce0'.
    Said once, here, where argv and the shell's lines are parsed: the bytes, and the cure.
    A file's name may hold such bytes and still name it (`--db caf\\xe9.db`): a word that
    looks like a path, or an option's path, is left to the command."""
    for i, word in enumerate(args):
        if not any("\udc80" <= ch <= "\udcff" for ch in word):
            continue  # the usual word: no path looked up on the disk for it
        if (args[i - 1] if i else "") in PATH_OPTIONS or "/" in word or "." in word \
                or os.path.lexists(word):
            continue
        shown = word.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
        raise click.UsageError(i18n._(
            "'{word}' holds bytes that are not UTF-8 text: set the terminal to UTF-8 "
            "and type it again").format(word=shown), ctx)


PATH_OPTIONS = frozenset({"--db", "-o", "--output"})


def main() -> None:
    try:
        cli(prog_name="banco")
    except BrokenPipeError:
        quiet_stdout()
        sys.exit(0)
    except OSError as exc:  # met outside a command (click's last flush)
        if exc.errno not in OUTPUT_ERRORS:
            raise
        cannot_write(exc, cli.recorded())
    except KeyboardInterrupt:
        click.echo("\n" + i18n._("interrupted"), err=True)
        sys.exit(130)


if __name__ == "__main__":
    main()
