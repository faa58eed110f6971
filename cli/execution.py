"""One line, run as the shell runs it, with what it said and recorded handed back.

STAND-IN (branch `phones`): the real module is being written elsewhere with this very
contract; this one is built over cli/banker/commands.py's execute_line by capturing what click
prints and what the book decided, and is replaced at merge time.  The capture redirects the
process's stdout and stderr, so lines run one at a time (LOCK), which is also what the
SQLite writer needs.
"""

from __future__ import annotations

import contextlib
import io
import threading
from dataclasses import dataclass

LOCK = threading.RLock()


@dataclass(frozen=True)
class LineOutcome:
    code: int                   # exit code (0 done, 1 refused, 2 usage, 4 database, 5 conflict)
    said: str                   # what it printed (stdout), in the session's language
    errors: str                 # what it printed as errors (stderr)
    events: tuple[dict, ...]    # the rows this line appended (seq, type, data, hash, ...)
    replayed: bool              # the same command id was recorded before: nothing new appended
    refusal: Exception | None   # the BancoError that refused it (.rule etc.), else None


def execute(session, line: str, *, command_id: str | None = None,
            expected: tuple[int | None, int] | None = None, echo: bool = True) -> LineOutcome:
    from cli.banker.commands import execute_line
    from ledger.base.errors import BancoError

    seen: dict = {"events": (), "replayed": False, "refusal": None}
    with LOCK:
        book = session.book

        def watched(name):
            real = getattr(book, name)

            def call(*args, **kwargs):
                try:
                    outcome = real(*args, **kwargs)
                except BancoError as exc:
                    seen["refusal"] = exc
                    raise
                seen.update(events=tuple(outcome.events), replayed=outcome.replayed,
                            refusal=outcome.refused)
                return outcome
            return call

        book.execute, book.undo = watched("execute"), watched("undo")
        out, err = io.StringIO(), io.StringIO()
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = execute_line(session, line, command_id=command_id, expected=expected)
        finally:
            del book.execute, book.undo  # the class's methods again
    if echo:
        print(out.getvalue(), end="")
    return LineOutcome(code, out.getvalue(), err.getvalue(), seen["events"], seen["replayed"],
                       seen["refusal"])
