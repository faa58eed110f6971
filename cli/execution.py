"""One way to execute a banker's line in the shell or `run`: `execute(session, "roll 4 3",
commands=cli)` runs it as `banco roll 4 3` would, and returns what it did (LineOutcome).  The
command line's adapter over the library: what they print around it is theirs.

The library reads the line, once (cli/library.py's Library.read), and that reading decides.
A line it records (a table action, a correction, a recorded ruling, `new`) is executed by the
library with the session's write context (the transcript's derived id, the seq the shell's
prompt showed, BANCO_FIXED_TIME); its words are rendered from the outcome in the session's
language and printed here.  A shape the library refuses (an unknown option, a missing
argument) is said in click's words, from click's parsing alone.  A line the library records
nothing for (a reading, the file's words, help, no word at all) is the command line's own:
`commands`, the click group the shell or `run` was started from (they have it from their click
context), runs it, printing straight to the terminal: nothing is captured."""

from __future__ import annotations

from dataclasses import dataclass

import click

from banco.cli.lines.other_file import system_shell
from banco.cli.lines.parse import split
from banco.cli.lines.referee import NotRecordedHere
from banco.cli.lines.shape_words import ShapeRefused
from banco.cli.lines.vocabulary import BY_ENGLISH, english_word
from banco.cli.session import Session, line_as_meant, start
from banco.cli.words.i18n import _, say_error
from banco.cli.words.usage_hints import extra_argument_hint
from banco.ledger.base.errors import BancoError, UsageError


@dataclass(frozen=True)
class LineOutcome:
    code: int                   # the exit code the line gives (0 done, 1 refused, 2 usage, 4, 5 conflict)
    said: str                   # a recorded line's words for the user (stdout), in the session's
                                # language; "" for a line run through click (printed as it ran)
    errors: str                 # what it said as errors (stderr), likewise
    events: tuple[dict, ...]    # the rows this line appended (seq, type, data, hash, ...); () if none
    replayed: bool              # the same command id was recorded before: nothing new appended
    refusal: Exception | None   # the BancoError that refused it (its rule, allowed ...), else None
    needs_word: bool = False    # a group given no word (`ruling`): its help was said instead


def execute(session: Session, line: str, *, command_id: str | None = None,
            expected: tuple[int | None, int] | None = None, echo: bool = True,
            commands: click.Group | None = None) -> LineOutcome:
    """Run one line (`#` starts a comment) in `session`, as a line of the shell or of a
    transcript: `command_id` and `expected` are the write context the caller gives it (the
    transcript's derived id, the seq the shell's prompt showed); `commands`, the command
    line's click group, runs what the library records nothing for.  echo=True prints what
    it says; echo=False (`run --quiet`) prints nothing of a recorded line and returns its
    words, and only checks a reading's shape (below).  A Ctrl-C is raised again as
    KeyboardInterrupt, for the caller to say what was recorded."""
    session.outcomes, session.refusal = [], None
    try:
        args = split(line)
    except UsageError as exc:  # an open quote, a last backslash: in the banker's words
        return _said([(True, say_error(exc))], 2, echo)
    if not args:
        return LineOutcome(0, "", "", (), False, None)
    piped = system_shell(line)  # `log | head -1`: click said "No such option '-1'"
    if piped is not None:
        return _said([(True, say_error(piped))], piped.exit_code, echo, piped)
    # bytes that are not UTF-8 (a Latin-1 terminal): click says which, and the cure
    read = None if any("\udc80" <= ch <= "\udcff" for ch in line) else _read(session, line)
    word = read.word if read is not None else english_word(args[0])
    if word == "serve":  # it runs until Ctrl-C: it would block
        return _said([(True, _("error: `{word}` runs until Ctrl-C: start it in a terminal of "
                               "its own (`banco {word}`)").format(word=args[0]))], 2, echo)
    if word in ("shell", "run"):
        return _said([(True, _("error: `{word}` cannot be nested").format(word=args[0]))], 2,
                     echo)
    error = read.refusal.error if read is not None and read.refusal is not None else None
    if read is not None and not isinstance(error, (ShapeRefused, NotRecordedHere)):
        return _recorded(session, line, args, read, command_id, expected, echo)
    if isinstance(error, NotRecordedHere) and not error.known:
        # no word at all (`rol 1 2`): the library's answer, its near words searched once, not
        # again by click's parsing
        return _said([(True, say_error(error))], error.exit_code, echo, error)
    if commands is None:
        raise TypeError("a line the library records nothing for runs through the command "
                        "line's group: execute(..., commands=the click group)")
    if read is None or not isinstance(error, NotRecordedHere) or not error.known:
        # a shape click words (`roll 1 2 --foo`), or no word at all (`rol 1 2`): said from
        # click's parsing alone (the shell offers its suggestion); `--help` runs
        refused = _click_refusal(commands, session, args, echo)
        if refused is not None:
            return refused
    if not echo:
        return _checked(commands, session, line, args, word, command_id, expected)
    return _ran(session, *_run(commands, session, line, args, command_id, expected))


def _read(session: Session, line: str):
    """The library's reading of the line (Library.read), in the language it says (`--lang
    it` on it: for this line only), at the game the session addresses."""
    from banco.cli.words import i18n

    try:
        default = session.game()
    except BancoError:  # no such game: the library says so, unless the line names its own
        default = session.game_option
    library, lang = _reader(session), i18n.language()
    read = library.read(line, lang=lang, now=session.now(), default_game=default)
    said = read.context.get("--lang")
    if said in i18n.LANGUAGES and said != lang:  # its names and suggestions in that language
        read = library.read(line, lang=said, now=session.now(), default_game=default)
    return read


class _NoBook:
    """The book of a session whose file cannot be opened (not there yet: `new` makes it):
    no game; anything more is the file's own error, which the library's refusal says."""

    def __init__(self, error: BancoError):
        self.error = error

    def current_game(self, game=None):
        return None

    def __getattr__(self, name: str):
        raise self.error


def _reader(session: Session):
    from banco.cli.library import Library

    try:
        return session.library
    except BancoError as exc:
        return Library.of(_NoBook(exc), session.db)


def _ran(session: Session, code: int, needs_word: bool = False) -> LineOutcome:
    """A line click ran (and printed as it ran): its exit code, the rows it appended, its
    refusal; its words were the terminal's."""
    outcomes = session.outcomes
    return LineOutcome(code, "", "", tuple(row for o in outcomes for row in o.events
                                           if not o.replayed),
                       bool(outcomes) and all(o.replayed for o in outcomes), session.refusal,
                       needs_word)


def _said(lines: list[tuple[bool, str]], code: int, echo: bool, refusal=None,
          events: tuple = (), replayed: bool = False) -> LineOutcome:
    if echo:
        _echo(lines)
    return LineOutcome(code, _text(lines, False), _text(lines, True), events, replayed, refusal)


def _recorded(session: Session, line: str, args: list[str], read, command_id: str | None,
              expected: tuple[int | None, int] | None, echo: bool) -> LineOutcome:
    """A line the library records, in the session's write context; what it says, printed in
    the order said (echo) and returned."""
    import sqlite3

    from banco.cli.words import i18n

    context = read.context
    lang = context.get("--lang") or i18n.language()
    session.begin(line_as_meant(line, args), command_id, expected)
    lines: list[tuple[bool, str]] = []
    try:
        with i18n.in_language(lang):  # the line's `--lang it`, for this line only
            try:
                out, left = _library_outcome(session, read)
            except BancoError as exc:  # the file or the game: before the library is asked
                return _said([(True, i18n.say_error(exc))], exc.exit_code, echo, exc)
            except sqlite3.Error as exc:  # one raised outside the store's guard
                return _said([(True, _database_error(session, exc))], 4, echo)
            lines = out.lines(lang)
            if left is not None:
                lines.append(left)
            if out.ruling is not None and out.refusal is None and "--game" not in context \
                    and session.game_option is None and not out.ruling[1].as_json \
                    and len(session.book.games()) > 1:
                # a file of several games: which one is ruled on is said first, and on
                # stderr, so that a seq meant for another game is not answered unnoticed
                lines.insert(0, (True, _("(ruling on game {game}: the latest unfinished, else "
                                         "the last; `--game N` for another)").format(
                                             game=out.game)))
    finally:
        session.end()
    if out.recorded is not None:
        session.written(out)
    refusal = out.refusal.error if out.refusal is not None else None
    session.refusal = refusal
    return _said(lines, out.refusal.code if out.refusal is not None else 0, echo, refusal,
                 () if out.replayed else out.events, out.replayed)


def _library_outcome(session: Session, read):
    """The library's outcome for the line as it read it, and a warning line to add (`new`
    leaving an unfinished game behind), or None.  Its own `--game`, `--id` and `--expect`
    are the line's; the session's write context fills in what it leaves unsaid (the shell's
    game, its line's id, the seq its prompt showed)."""
    from banco.cli.lines.referee import NewGame

    if isinstance(read.command, NewGame):  # as `banco new` records it: the file made if it
        if read.id is not None:            # is not there yet, the identity reproducible
            session.command_id = read.id
        return start(session, read.command)
    write = session.write_args(read.game)
    out = session.library.execute(read, actor=write["actor"], now=write["now"],
                                  id=write["command_id"] if read.id is None else None,
                                  expect=write["expect"] if read.expect is None else None)
    return out, None


def _database_error(session: Session, exc) -> str:
    from banco.ledger.store.postgres_connection import shown

    book = session._book
    db = shown(session.db)  # never a URL's password
    return (say_error(book.explain(exc)) if book is not None
            else _("error: cannot use {db}: {exc}").format(db=db, exc=exc))


def _click_context(root: click.Group, args: list[str], session: Session):
    """Click's parsing of a line alone, nothing run: the innermost command's context, or the
    UsageError click raises (the group's, then the word's, then a subcommand's)."""
    previous, root.standalone = root.standalone, False
    try:
        from banco.cli.words import i18n
        from banco.cli.words.click_words import localize

        with i18n.speaking(args):  # as cli/main.py's BancoGroup.main reads a line
            localize(root)
            try:
                command, name, ctx = root, "banco", None
                ctx = root.make_context("banco", list(args), obj=session)
                rest = [*ctx._protected_args, *ctx.args]
                while isinstance(command, click.Group) and rest:
                    name, command, rest = command.resolve_command(ctx, rest)
                    ctx = command.make_context(name, rest, parent=ctx)
                    rest = [*ctx._protected_args, *ctx.args] \
                        if isinstance(command, click.Group) else []
            except click.exceptions.UsageError as exc:
                if exc.ctx is None and command is not root and ctx is not None:
                    # click's parser names an option without its value with no context: the
                    # word's usage goes under it all the same, as the library says it
                    exc.ctx = click.Context(command, info_name=name, parent=ctx)
                return exc
            return ctx
    finally:
        root.standalone = previous


def _click_refusal(commands: click.Group, session: Session, args: list[str],
                   echo: bool) -> LineOutcome | None:
    """A line whose shape click refuses (an unknown option, a word too many or too few, an
    option without its value, no such word): click's own words for it, from click's parsing
    alone, nothing run (a group given no word, `ruling`: its help).  None where click would
    print (`--help`) or take the line after all: it then runs through click."""
    options = args[:args.index("--")] if "--" in args else args
    if "--help" in options or "--version" in options:
        return None
    refused = _click_context(commands, args, session)
    if not isinstance(refused, click.exceptions.UsageError):
        return None
    lines = [(True, text) for text in _usage_error_lines(refused)]
    if echo:
        _echo(lines)
    return LineOutcome(refused.exit_code, "", _text(lines, True), (), False, None,
                       isinstance(refused, click.exceptions.NoArgsIsHelpError))


def _checked(commands: click.Group, session: Session, line: str, args: list[str], word: str,
             command_id: str | None, expected: tuple[int | None, int] | None) -> LineOutcome:
    """`run --quiet`: a line that records nothing of the library's (a reading, help) is not
    run, since a reading changes nothing and its words would be dropped; its shape is checked
    by click's parser, so that a mistaken line still stops the transcript as it would have.
    The file's words that do write (`import`, `tournament add`, `backup` ...) run as at the
    terminal, printing what they print."""
    spec = BY_ENGLISH.get(word)
    if spec is not None and spec.kind == "book":
        return _ran(session, *_run(commands, session, line, args, command_id, expected))
    return _click_refusal(commands, session, args, False) or LineOutcome(0, "", "", (), False,
                                                                         None)


def _text(lines: list[tuple[bool, str]], err: bool) -> str:
    return "".join(text + "\n" for is_err, text in lines if is_err == err)


def _echo(lines: list[tuple[bool, str]]) -> None:
    """What a line said, printed in the order said, as click would have printed it."""
    for err, text in lines:
        click.echo(text, err=err)


def _run(commands: click.Group, session: Session, line: str, args: list[str],
         command_id: str | None, expected: tuple[int | None, int] | None) -> tuple[int, bool]:
    """The line run through the click group: what it says goes straight to the terminal;
    its exit code, and whether it was a group given no word (its help said instead)."""
    session.begin(line_as_meant(line, args), command_id, expected)
    try:
        result = commands.main(args=args, prog_name="banco", standalone_mode=False,
                               obj=session)
    except click.exceptions.UsageError as exc:
        for text in _usage_error_lines(exc):
            click.echo(text, err=True)
        return 2, isinstance(exc, click.exceptions.NoArgsIsHelpError)
    except click.exceptions.Abort as exc:
        if isinstance(exc.__cause__, KeyboardInterrupt):
            raise KeyboardInterrupt from None
        return 1, False
    except SystemExit as exc:
        return int(exc.code or 0), False
    finally:
        session.end()
    return (result if isinstance(result, int) else 0), False


def _usage_error_lines(exc: click.exceptions.UsageError) -> list[str]:
    """Inside the shell or a transcript: one `error:` line and the word's usage, not click's
    whole block, whose `Try 'banco --help'` is advice for the command line.  A group given
    no word (`ruling`, `tournament`) is its help, once, as on the command line: its usage
    line is the help's first, not a second one under it."""
    ctx = exc.ctx
    if isinstance(exc, click.exceptions.NoArgsIsHelpError) and ctx is not None:
        usage = ctx.get_usage()
        return [exc.format_message().replace(usage, usage.replace("banco ", "", 1), 1)]
    lines = [_("error: {message}").format(message=exc.format_message())]
    if ctx is not None and ctx.parent is not None:  # a mistake in a word's own arguments
        lines.append("  " + ctx.get_usage().strip().replace("banco ", "", 1) + "  "  # no prefix here
                     + _("(`help {word}` says more)").format(  # `help ruling rent`, not `help rent`
                         word=ctx.command_path.split(" ", 1)[-1]))
    hint = extra_argument_hint(exc)
    if hint:
        lines.append("  " + hint)
    return lines
