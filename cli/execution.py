"""One way to execute a banker's line in the shell or `run`: `execute(session, "roll 4 3")`
runs it as `banco roll 4 3` would, and returns what it did (LineOutcome).  The command line's
adapter over the library: what they print around it is theirs.

A line the library records (a table action, a correction, a recorded ruling, `new`: the words
cli/lines/ reads) is executed by cli/library.py with the session's write context (the
transcript's derived id, the seq the shell's prompt showed, BANCO_FIXED_TIME); its words are
rendered from the outcome in the session's language and printed here.  One whose shape click
refuses (an unknown option, a missing argument) is said in click's words, from click's parsing
alone.  Any other line (a reading, the file's words, help) runs through cli/main.py's click
group, printing straight to the terminal: nothing is captured."""

from __future__ import annotations

from dataclasses import dataclass

import click

from banco.cli.command_table import ALIASES, group
from banco.cli.lines.parse import split
from banco.cli.lines.vocabulary import BY_ENGLISH, english_option_words, english_word
from banco.cli.session import Session, line_as_meant, start
from banco.cli.words.i18n import _, say_error
from banco.cli.words.usage_hints import extra_argument_hint
from banco.ledger.base.errors import UsageError

# the words the library records besides the table actions (cli/lines/referee.py reads them)
REFEREE_AND_NEW = frozenset({"correct", "ruling", "new"})


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
            expected: tuple[int | None, int] | None = None, echo: bool = True) -> LineOutcome:
    """Run one line (`#` starts a comment) in `session`, as a line of the shell or of a
    transcript: `command_id` and `expected` are the write context the caller gives it (the
    transcript's derived id, the seq the shell's prompt showed).  echo=True prints what it
    says; echo=False (`run --quiet`) prints nothing of a recorded line and returns its words,
    and only checks a reading's shape (below).  A Ctrl-C is raised again as
    KeyboardInterrupt, for the caller to say what was recorded."""
    session.outcomes, session.refusal = [], None
    try:
        args = split(line)
    except UsageError as exc:  # an open quote, a last backslash: in the banker's words
        return _said([(True, say_error(exc))], 2, echo)
    if not args:
        return LineOutcome(0, "", "", (), False, None)
    word = ALIASES.get(args[0], args[0])
    if word == "serve":  # it runs until Ctrl-C: it would block
        return _said([(True, _("error: `{word}` runs until Ctrl-C: start it in a terminal of "
                               "its own (`banco {word}`)").format(word=args[0]))], 2, echo)
    if word in ("shell", "run"):
        return _said([(True, _("error: `{word}` cannot be nested").format(word=args[0]))], 2,
                     echo)
    if _recorded_word(args):
        readable = _readable(line, args)
        if readable is not None:
            return _recorded(session, line, args, readable, command_id, expected, echo)
        shaped = _shape_words(session, args)
        if shaped is not None:
            return _said(shaped[1], shaped[0], echo)
    if _no_such_word(args):  # said from click's parsing alone: the shell offers its suggestion
        shaped = _shape_words(session, args)
        if shaped is not None:
            return _said(shaped[1], shaped[0], echo)
    if not echo:
        return _checked(session, line, args, command_id, expected)
    return _ran(session, *_run(session, line, args, command_id, expected))


def _ran(session: Session, code: int, needs_word: bool = False) -> LineOutcome:
    """A line click ran (and printed as it ran): its exit code, the rows it appended, its
    refusal; its words were the terminal's."""
    outcomes = session.outcomes
    return LineOutcome(code, "", "", tuple(row for o in outcomes for row in o.events
                                           if not o.replayed),
                       bool(outcomes) and all(o.replayed for o in outcomes), session.refusal,
                       needs_word)


def _recorded_word(args: list[str]) -> bool:
    """Whether the library records this line: a table action (a card's choice said alone
    too), a correction, `new`, or a ruling with --record (without it, a reading)."""
    from banco.cli.lines.parse import table_action

    if table_action(args) is not None:
        return True
    word = english_word(args[0])
    if word == "ruling":
        options = english_option_words(args[:args.index("--")] if "--" in args else args)
        return "--record" in options
    return word in REFEREE_AND_NEW


def _no_such_word(args: list[str]) -> bool:
    """Whether the line's first word is no command at all (`rol 1 2`)."""
    from banco.cli.lines.vocabulary import CHOICE_ALONE

    word = english_word(args[0])
    return not word.startswith("-") and word not in BY_ENGLISH and word not in CHOICE_ALONE


def _said(lines: list[tuple[bool, str]], code: int, echo: bool, refusal=None,
          events: tuple = (), replayed: bool = False) -> LineOutcome:
    if echo:
        _echo(lines)
    return LineOutcome(code, _text(lines, False), _text(lines, True), events, replayed, refusal)


def _readable(line: str, args: list[str]) -> dict | None:
    """A recorded line's context options (--id, --expect, --game, --lang), or None for a
    line whose shape (or bytes) only click words (cli/lines/parse.py's LineShape;
    cli/main.py's not_utf8), or that click takes (`--db`: another file; `--help`)."""
    from banco.cli.lines.parse import LineShape, shape, table_action
    from banco.cli.lines.referee import read_words
    from banco.cli.words import i18n

    word = table_action(args)
    if any("\udc80" <= ch <= "\udcff" for ch in line):
        return None
    if word == "card" and english_word(args[0]) != "card":
        return {}  # `draw` alone, a card's choice: read at the table
    try:
        if word is not None:
            context = shape(BY_ENGLISH[word], args[1:])[1]
        else:
            context = read_words(english_word(args[0]), args)[1]
    except LineShape:
        return None
    except UsageError:
        return {}  # `new A B --rules x --rules y`: the library says it
    lang = context.get("--lang")
    if lang is not None and lang not in i18n.LANGUAGES or not _whole_seq(context) \
            or "--db" in context:
        return None
    return context


def _recorded(session: Session, line: str, args: list[str], context: dict,
              command_id: str | None, expected: tuple[int | None, int] | None,
              echo: bool) -> LineOutcome:
    """A line the library records, in the session's write context; what it says, printed in
    the order said (echo) and returned."""
    import sqlite3

    from banco.cli.words import i18n
    from banco.ledger.base.errors import BancoError

    lang = context.get("--lang") or i18n.language()
    session.begin(line_as_meant(line, args), command_id, expected)
    lines: list[tuple[bool, str]] = []
    try:
        with i18n.in_language(lang):  # the line's `--lang it`, for this line only
            try:
                out, left = _library_outcome(session, args, lang, line)
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


def _library_outcome(session: Session, args: list[str], lang: str, line: str):
    """The library's outcome for the line, and a warning line to add (`new` leaving an
    unfinished game behind), or None.  The library reads the line once: its own `--game`,
    `--id` and `--expect` are its; the session's write context fills in what it leaves
    unsaid (the shell's game, its line's id, the seq its prompt showed)."""
    from banco.ledger.base.errors import BancoError

    if english_word(args[0]) == "new":
        return _new(session, args)
    try:
        default = session.game()
    except BancoError:  # no such game: the library says so, unless the line names its own
        default = session.game_option
    library = session.library
    read = library.read(line, lang=lang, now=session.now(), default_game=default)
    write = session.write_args(read.game)
    out = library.execute(read, actor=write["actor"], now=write["now"],
                          id=write["command_id"] if read.id is None else None,
                          expect=write["expect"] if read.expect is None else None)
    return out, None


def _new(session: Session, args: list[str]):
    """`new` as `banco new` records it (cli/session.py's start: the file made, the game's
    identity reproducible), read here since no file may be open yet."""
    from banco.cli.lines.referee import new, read_words

    params, context = read_words("new", args)
    if "--id" in context:
        if not context["--id"].strip():
            raise UsageError("--id needs a key: any text that names this command")
        session.command_id = context["--id"]
    return start(session, new(**params))


def _database_error(session: Session, exc) -> str:
    from banco.ledger.store.postgres_connection import shown

    book = session._book
    db = shown(session.db)  # never a URL's password
    return (say_error(book.explain(exc)) if book is not None
            else _("error: cannot use {db}: {exc}").format(db=db, exc=exc))


def _click_context(args: list[str], session: Session):
    """Click's parsing of a line alone, nothing run: the innermost command's context, or the
    UsageError click raises (the group's, then the word's, then a subcommand's)."""
    root = group()
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


def _shape_words(session: Session, args: list[str]
                 ) -> tuple[int, list[tuple[bool, str]]] | None:
    """A recorded line whose shape click refuses (an unknown option, a word too many or too
    few, an option without its value: cli/lines/parse.py's LineShape): click's own words for
    it, from click's parsing alone, nothing run and nothing printed.  None where click would
    print (`--help`) or take the line after all (`--db`: another file): it then runs through
    click."""
    options = args[:args.index("--")] if "--" in args else args
    if "--help" in options or "--version" in options:
        return None
    if any("\udc80" <= ch <= "\udcff" for ch in " ".join(args)):
        return None
    refused = _click_context(args, session)
    if not isinstance(refused, click.exceptions.UsageError):
        return None
    return refused.exit_code, [(True, text) for text in _usage_error_lines(refused)]


def _checked(session: Session, line: str, args: list[str], command_id: str | None,
             expected: tuple[int | None, int] | None) -> LineOutcome:
    """`run --quiet`: a line that records nothing of the library's (a reading, a ruling not
    recorded, help) is not run, since a reading changes nothing and its words would be
    dropped; its shape is checked by click's parser, so that a mistaken line still stops the
    transcript as it would have.  The file's words that do write (`import`, `tournament add`,
    `backup` ...) run as at the terminal, printing what they print."""
    word = english_word(args[0])
    spec = BY_ENGLISH.get(word)
    if spec is not None and spec.kind == "book":
        return _ran(session, *_run(session, line, args, command_id, expected))
    options = args[:args.index("--")] if "--" in args else args
    if "--help" in options or "--version" in options:
        return LineOutcome(0, "", "", (), False, None)
    refused = _click_context(args, session)
    if isinstance(refused, click.exceptions.UsageError):
        lines = [(True, text) for text in _usage_error_lines(refused)]
        return LineOutcome(refused.exit_code, "", _text(lines, True), (), False, None,
                           isinstance(refused, click.exceptions.NoArgsIsHelpError))
    return LineOutcome(0, "", "", (), False, None)


def _whole_seq(context: dict) -> bool:
    """--expect SEQ and --game N are whole numbers (click's to word otherwise)."""
    from banco.ledger.base.numbers import is_digits

    try:
        return all(is_digits(context[o].strip()) for o in ("--expect", "--game") if o in context)
    except UsageError:
        return False


def _text(lines: list[tuple[bool, str]], err: bool) -> str:
    return "".join(text + "\n" for is_err, text in lines if is_err == err)


def _echo(lines: list[tuple[bool, str]]) -> None:
    """What a line said, printed in the order said, as click would have printed it."""
    for err, text in lines:
        click.echo(text, err=err)


def _run(session: Session, line: str, args: list[str], command_id: str | None,
         expected: tuple[int | None, int] | None) -> tuple[int, bool]:
    """The line run through the click group: what it says goes straight to the terminal;
    its exit code, and whether it was a group given no word (its help said instead)."""
    session.begin(line_as_meant(line, args), command_id, expected)
    try:
        result = group().main(args=args, prog_name="banco", standalone_mode=False,
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
                     + _("(`help {word}` says more)").format(word=ctx.info_name))
    hint = extra_argument_hint(exc)
    if hint:
        lines.append("  " + hint)
    return lines
