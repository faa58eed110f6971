"""What writing the answer on standard output can meet: a reader gone (`banco log | head -1`),
or a disk, a quota or a terminal that takes no more (`banco state > /dev/full`).  The first is
no error; the others are said in one line, exit 4, as a file that cannot be used, never a
traceback.  Shared by the click group (cli/main.py) and the quick reading (cli/quick.py)."""

from __future__ import annotations

import errno
import os
import sys

from ledger.base.errors import EXIT_DATABASE

OUTPUT_ERRORS = {errno.ENOSPC, errno.EIO, errno.EDQUOT, errno.EFBIG}


def quiet_stdout() -> None:
    """Standard output pointed at devnull: the last flush at exit would meet the same error."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def cannot_write(exc: OSError) -> None:
    """`error: cannot write the answer: No space left on device`, and exit 4."""
    quiet_stdout()
    from cli.words.i18n import _, say_os_error

    print(_("error: cannot write the answer: {why}").format(why=say_os_error(exc.strerror)),
          file=sys.stderr, flush=True)
    sys.exit(EXIT_DATABASE)
