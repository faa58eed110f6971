"""What writing the answer on standard output can meet: a reader gone (`banco log | head -1`),
or a disk, a quota or a terminal that takes no more (`banco state > /dev/full`).  The first is
no error; the others are said in one line, exit 4, as a file that cannot be used, never a
traceback.  Kept apart from the click group (cli/main.py), which says them, for its size."""

from __future__ import annotations

import errno
import os
import sys

from banco.ledger.base.errors import EXIT_DATABASE

OUTPUT_ERRORS = {errno.ENOSPC, errno.EIO, errno.EDQUOT, errno.EFBIG}


def quiet_stdout() -> None:
    """Standard output pointed at devnull: the last flush at exit would meet the same error."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def recorded_seqs(outcomes: list) -> tuple[int, int] | None:
    """The first and last seq a command's outcomes (cli/session.py's Session.outcomes) hold;
    None when it recorded nothing (a reading, or a refusal that left no evidence)."""
    seqs = [e["seq"] for o in outcomes for e in getattr(o, "events", ()) if "seq" in e]
    return (min(seqs), max(seqs)) if seqs else None


def cannot_write(exc: OSError, recorded: tuple[int, int] | None = None) -> None:
    """`error: cannot write the answer: No space left on device`, and exit 4.  When the command
    had recorded its facts (`recorded`: their first and last seq), the line says so first: a
    banker who sees only an error would type the command again and record it twice."""
    quiet_stdout()
    from banco.cli.words.i18n import _, say_os_error

    why = say_os_error(exc.strerror)
    if recorded is None:
        line = _("error: cannot write the answer: {why}").format(why=why)
    else:
        first, last = recorded
        events = str(first) if first == last else f"{first}-{last}"
        line = _("error: the command was recorded (events {events}); its answer could not be "
                 "written: {why}; `banco state` shows the table: do not type it again"
                 ).format(events=events, why=why)
    print(line, file=sys.stderr, flush=True)
    sys.exit(EXIT_DATABASE)
