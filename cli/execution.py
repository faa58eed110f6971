"""One way to execute a banker's line: `execute(session, "roll 4 3")` runs it as `banco roll 4 3`
would run in-process, and returns what it did (LineOutcome).  The shell, `run` and the table's
web server call it; what they print around it is theirs.

The line runs through cli/main.py's click group, reached by name (cli/command_table.py's ROOT),
so that nothing below cli/main.py imports it."""

from __future__ import annotations

import contextlib
import io
import shlex
import sys
from dataclasses import dataclass

import click

from banco.cli.command_table import ALIASES, ROOT, load
from banco.cli.session import Session, line_as_meant
from banco.cli.words.i18n import _
from banco.cli.words.usage_hints import extra_argument_hint
from banco.ledger.base.names import shown


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
    said, errors = io.StringIO(), io.StringIO()
    out = _Tee(sys.stdout, said) if echo else said
    err = _Tee(sys.stderr, errors) if echo else errors
    session.outcomes, session.refusal = [], None
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = _run(session, line, command_id, expected)
    outcomes = session.outcomes
    events = tuple(row for outcome in outcomes for row in outcome.events
                   if not outcome.replayed)
    return LineOutcome(code, said.getvalue(), errors.getvalue(), events,
                       bool(outcomes) and all(o.replayed for o in outcomes), session.refusal)


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
        result = load(ROOT).main(args=args, prog_name="banco", standalone_mode=False,
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
    """Inside the shell or a transcript: one `error:` line and the word's usage, not click's
    whole block, whose `Try 'banco --help'` is advice for the command line."""
    click.echo(_("error: {message}").format(message=exc.format_message()), err=True)
    ctx = exc.ctx
    if ctx is not None and ctx.parent is not None:  # a mistake in a word's own arguments
        click.echo("  " + ctx.get_usage().strip() + "  "
                   + _("(`help {word}` says more)").format(word=ctx.info_name), err=True)
    hint = extra_argument_hint(exc)
    if hint:
        click.echo("  " + hint, err=True)
