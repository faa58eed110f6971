"""One way to execute a banker's line: `execute(session, "roll 4 3")` runs it as `banco roll 4 3`
would run in-process, and returns what it did (LineOutcome).  The shell, `run` and the table's
web server call it; what they print around it is theirs.

A table action (cli/lines/vocabulary.py's TABLE_ACTIONS) is read by the parser
(cli/lines/parse.py) and executed through the book directly: no click, no stdout captured, its
words rendered from the outcome (cli/lines/answer.py) and returned as text; one whose shape
click refuses (an unknown option, a missing argument) is said in click's words, from click's
parsing alone.  Any other line (a reading, the file's words) runs through cli/main.py's click
group, its words captured, handed to cli/command_table.py by cli/main.py, so that nothing below
cli/main.py imports it."""

from __future__ import annotations

import contextlib
import io
import shlex
import sys
import threading
from dataclasses import dataclass

import click

from banco.cli.command_table import ALIASES, group
from banco.cli.lines.vocabulary import english_word
from banco.cli.session import Session, line_as_meant
from banco.cli.words.i18n import _
from banco.cli.words.usage_hints import extra_argument_hint
from banco.ledger.base.errors import UsageError
from banco.ledger.base.names import shown

# A line that is no table action (a reading, a referee's ruling) runs through click, whose
# words are captured by redirecting the process's stdout and stderr: one capture at a time (the
# phones' server runs lines on a thread of its own).  A table action takes no lock.
CAPTURE = threading.RLock()


@dataclass(frozen=True)
class LineOutcome:
    code: int                   # the exit code the line gives (0 done, 1 refused, 2 usage, 4, 5 conflict)
    said: str                   # what it printed for the user (stdout), in the session's language
    errors: str                 # what it printed as errors (stderr)
    events: tuple[dict, ...]    # the rows this line appended (seq, type, data, hash, ...); () if none
    replayed: bool              # the same command id was recorded before: nothing new appended
    refusal: Exception | None   # the BancoError that refused it (its rule, allowed ...), else None


class _Tee:
    """A text stream that writes to the one it stands for and keeps a copy: `echo=True` prints
    as before and still says what was printed.  No `buffer`: click writes text to it."""

    def __init__(self, stream, copy: io.StringIO):
        self._stream, self._copy = stream, copy
        self.encoding = getattr(stream, "encoding", None)
        self.errors = getattr(stream, "errors", None)

    def write(self, text: str) -> int:
        self._copy.write(text)
        return self._stream.write(text)

    def flush(self) -> None:
        self._stream.flush()

    def isatty(self) -> bool:
        return self._stream.isatty()


def execute(session: Session, line: str, *, command_id: str | None = None,
            expected: tuple[int | None, int] | None = None, echo: bool = True) -> LineOutcome:
    """Run one line (`#` starts a comment) in `session`, as a line of the shell or of a
    transcript: `command_id` and `expected` are the write context the caller gives it (the
    transcript's derived id, the seq the shell's prompt showed).  echo=True prints as it goes;
    echo=False only captures.  A Ctrl-C is raised again as KeyboardInterrupt, for the caller
    to say what was recorded."""
    session.outcomes, session.refusal = [], None
    direct = _table_action(session, line, command_id, expected)
    if direct is not None:
        outcome, lines = direct
        if echo:
            _echo(lines)
        return outcome
    said, errors = io.StringIO(), io.StringIO()
    out = _Tee(sys.stdout, said) if echo else said
    err = _Tee(sys.stderr, errors) if echo else errors
    session.outcomes, session.refusal = [], None
    with CAPTURE, contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = _run(session, line, command_id, expected)
    outcomes = session.outcomes
    events = tuple(row for outcome in outcomes for row in outcome.events
                   if not outcome.replayed)
    return LineOutcome(code, said.getvalue(), errors.getvalue(), events,
                       bool(outcomes) and all(o.replayed for o in outcomes), session.refusal)


def _readable(line: str) -> tuple[list[str], dict] | None:
    """A table action's words and its context options (--id, --expect, --game, --lang), or
    None for a line that is none, or whose shape (or bytes) only click words
    (cli/lines/parse.py's LineShape; cli/main.py's not_utf8)."""
    from banco.cli.lines.parse import BY_ENGLISH, LineShape, shape, table_action
    from banco.cli.words import i18n

    try:
        args = shlex.split(line, comments=True)
    except ValueError:
        return None
    word = table_action(args)
    if word is None or any("\udc80" <= ch <= "\udcff" for ch in line):
        return None
    if word == "card" and english_word(args[0]) != "card":
        return args, {}  # `draw` alone, a card's choice: read at the table
    try:
        context = shape(BY_ENGLISH[word], args[1:])[1]
    except LineShape:
        return None
    lang = context.get("--lang")
    if lang is not None and lang not in i18n.LANGUAGES or not _whole_seq(context):
        return None
    return args, context


def _table_action(session: Session, line: str, command_id: str | None,
                  expected: tuple[int | None, int] | None
                  ) -> tuple[LineOutcome, list[tuple[bool, str]]] | None:
    """A table action, parsed and executed without click: what it did, and its lines in the
    order said (each for the answer or the errors); None for a line that is none, or that
    only click words (_readable)."""
    from banco.cli.lines.parse import LineShape
    from banco.cli.words import i18n

    readable = _readable(line)
    if readable is None:
        return _shape_words(session, line)
    args, context = readable
    session.begin(line_as_meant(line, args), command_id, expected)
    lines: list[tuple[bool, str]] = []
    try:
        with i18n.speaking(args):
            code, refusal = _decided(session, args, context, i18n.language(), lines)
    except LineShape:
        return None
    finally:
        session.end()
    outcomes = session.outcomes
    return LineOutcome(code, _text(lines, False), _text(lines, True),
                       tuple(row for o in outcomes for row in o.events if not o.replayed),
                       bool(outcomes) and all(o.replayed for o in outcomes), refusal), lines


def _shape_words(session: Session, line: str
                 ) -> tuple[LineOutcome, list[tuple[bool, str]]] | None:
    """A table action whose shape click refuses (an unknown option, a word too many or too
    few, an option without its value: cli/lines/parse.py's LineShape): click's own words for
    it, from click's parsing alone (the group's, then the word's), nothing run and nothing
    printed, so nothing captured.  None where click would print (`--help`) or take the line
    after all (`--db`: another file): it then runs through click."""
    from banco.cli.lines.parse import table_action

    try:
        args = shlex.split(line, comments=True)
    except ValueError:
        return None
    options = args[:args.index("--")] if "--" in args else args
    if table_action(args) is None or "--help" in options or "--version" in options \
            or any("\udc80" <= ch <= "\udcff" for ch in line):
        return None
    from banco.cli.words import i18n
    from banco.cli.words.click_words import localize

    root = group()
    previous, root.standalone = root.standalone, False
    refused = None
    try:
        with i18n.speaking(args):  # as cli/main.py's BancoGroup.main reads a line
            localize(root)
            try:
                ctx = root.make_context("banco", list(args), obj=session)
                name, command, rest = root.resolve_command(
                    ctx, [*ctx._protected_args, *ctx.args])
                command.make_context(name, rest, parent=ctx)
            except click.exceptions.UsageError as exc:
                refused = exc
    finally:
        root.standalone = previous
    if refused is None:
        return None
    # said after the line's language is given back, as _run says click's usage errors
    lines = [(True, text) for text in _usage_error_lines(refused)]
    return LineOutcome(refused.exit_code, "", _text(lines, True), (), False, None), lines


def _decided(session: Session, args: list[str], context: dict, language: str,
             lines: list) -> tuple[int, Exception | None]:
    """Read the line at the session's table, run its command, say it into `lines`; the exit
    code and the refusal."""
    import sqlite3

    from banco.cli.lines.answer import answer, refused
    from banco.cli.lines.parse import LineShape, read
    from banco.cli.lines.turn import Undo
    from banco.ledger.base.errors import BancoError, RuleViolation

    command = None
    try:
        if "--game" in context:
            session.address(int(context["--game"]))
        if "--id" in context:
            if not context["--id"].strip():
                raise UsageError("--id needs a key: any text that names this command")
            session.command_id = context["--id"]
        if "--expect" in context:
            session.expected = (None, int(context["--expect"]))
        state = session.state()
        parsed = read(state, args, language, session.now() if english_word(args[0]) in (
            "time-up", "tempo-scaduto") else None)
        command, game = parsed.command, session.game()
        session.permit(command)  # a phone's: its own acts only (cli/web/acts.py)
        if isinstance(command, Undo):
            outcome = session.book.undo(game, **session.write_args(game))
        else:
            outcome = session.book.execute(game, command, **session.write_args(game))
        said = answer(command, session.written(outcome), state)
    except LineShape:
        raise  # click's to word
    except RuleViolation as exc:
        said = refused(exc, command)
    except BancoError as exc:
        said = refused(exc)
    except sqlite3.Error as exc:  # one raised outside the store's guard: still the database's
        from banco.ledger.base.errors import EXIT_DATABASE
        from banco.ledger.store.postgres_connection import is_postgres_url, shown

        book = session._book
        db = shown(session.db) if is_postgres_url(session.db) else session.db  # no password
        text = (i18n_say_error(book.store.explain(exc, writing=False)) if book is not None
                else _("error: cannot use {db}: {exc}").format(db=db, exc=exc))
        lines.append((True, text))
        return EXIT_DATABASE, None
    lines.extend(said.lines)
    if said.refusal is not None:
        session.refusal = said.refusal
    return said.code, said.refusal


def i18n_say_error(exc) -> str:
    from banco.cli.words.i18n import say_error

    return say_error(exc)


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


def _run(session: Session, line: str, command_id: str | None,
         expected: tuple[int | None, int] | None) -> int:
    """The line's exit code; what it says goes to sys.stdout and sys.stderr."""
    try:
        args = shlex.split(line, comments=True)
    except ValueError as exc:
        # shlex's own words ("No closing quotation") tell a banker nothing about his line;
        # a pasted page is not printed back whole
        if "quotation" in str(exc):
            text = _("a quote is not closed: {line} (a name with spaces goes between quotes, "
                     "e.g. `claim 'Anna Maria'`)").format(line=shown(line.strip(), 80))
        elif "escaped" in str(exc):
            text = _("the line ends with a backslash: {line}").format(
                line=shown(line.strip(), 80))
        else:
            text = str(exc)
        click.echo(_("error: {message}").format(message=text), err=True)
        return 2
    if not args:
        return 0
    if ALIASES.get(args[0], args[0]) == "serve":  # it runs until Ctrl-C: it would block
        click.echo(_("error: `{word}` runs until Ctrl-C: start it in a terminal of its own "
                     "(`banco {word}`)").format(word=args[0]), err=True)
        return 2
    if ALIASES.get(args[0], args[0]) in ("shell", "run"):
        click.echo(_("error: `{word}` cannot be nested").format(word=args[0]), err=True)
        return 2
    session.begin(line_as_meant(line, args), command_id, expected)
    try:
        result = group().main(args=args, prog_name="banco", standalone_mode=False,
                                 obj=session)
    except click.exceptions.UsageError as exc:
        _say_usage_error(exc)
        return 2
    except click.exceptions.Abort as exc:
        if isinstance(exc.__cause__, KeyboardInterrupt):
            raise KeyboardInterrupt from None
        return 1
    except SystemExit as exc:
        return int(exc.code or 0)
    finally:
        session.end()
    return result if isinstance(result, int) else 0


def _say_usage_error(exc: click.exceptions.UsageError) -> None:
    for text in _usage_error_lines(exc):
        click.echo(text, err=True)


def _usage_error_lines(exc: click.exceptions.UsageError) -> list[str]:
    """Inside the shell or a transcript: one `error:` line and the word's usage, not click's
    whole block, whose `Try 'banco --help'` is advice for the command line."""
    lines = [_("error: {message}").format(message=exc.format_message())]
    ctx = exc.ctx
    if ctx is not None and ctx.parent is not None:  # a mistake in a word's own arguments
        lines.append("  " + ctx.get_usage().strip().replace("banco ", "", 1) + "  "  # no prefix here
                     + _("(`help {word}` says more)").format(word=ctx.info_name))
    hint = extra_argument_hint(exc)
    if hint:
        lines.append("  " + hint)
    return lines
