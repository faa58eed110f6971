"""Where `-o FILE` (export, report, tournament export) and `backup FILE` may write.

`--force` replaces a regular file, and only that: renaming a temporary file over a device node
(`/dev/full` as root), a folder or a file of /proc is refused in one line.  A stream -- a FIFO
(`-o >(gzip > game.gz)`) or a terminal (`-o /dev/tty`) -- is written through, as standard
output is, with or without --force: nothing is replaced there, and that is what a user who
names one expects.  A symlink is followed: the file it names is the one replaced, in its own
folder (never the link in /dev or /proc/self/fd).

The open database is never a target, --force or not: an export renamed over it (or over its
-wal, -shm or -journal, or its tokens' key) destroys the games it holds.
"""

from __future__ import annotations

import os
import stat
import sys
import tempfile
from collections.abc import Callable
from typing import TextIO

from banco.ledger.base.errors import UsageError

STREAM, FILE = "stream", "file"


def check_named(target: str) -> None:
    """`-o ""` or `backup ""` (a script's unset variable): an empty name, not the folder it
    resolves to ("  is a folder", it said)."""
    if not target.strip():
        raise UsageError("the file name is empty: name the file to write")


def database_files(database: str) -> list[str]:
    """The files that make up the open database `database` (a path or a postgresql:// URL):
    the file, the journals SQLite keeps beside it, the tokens' key and serve's record of its
    own tokens."""
    from banco.ledger.store.postgres_connection import is_postgres_url
    from banco.ledger.store.serve_tokens import record_path
    from banco.ledger.store.token_key import key_path

    files = [str(key_path(database)), str(record_path(database))]
    if not is_postgres_url(database):
        files += [database + suffix for suffix in ("", "-wal", "-shm", "-journal")]
    return files


def refuse_database(target: str, database: str | None) -> None:
    """A UsageError when `target` is one of the open database's files: compared as the same
    file on disk (a hard link, a symlink, `./x.db`) and, for a file not there yet (a -wal),
    by its resolved path."""
    if not database or not database.strip():
        return
    real = os.path.realpath(target)
    for part in database_files(database):
        same = os.path.realpath(part) == real
        if not same and os.path.exists(target) and os.path.exists(part):
            same = os.path.samefile(target, part)
        if same:
            raise UsageError("{target} is part of the open database: writing there would "
                             "destroy it; name another file (nothing was written)",
                             target=target)


def output_target(target: str, force: bool, database: str | None = None) -> tuple[str, str]:
    """(STREAM or FILE, the path to write): what `target` is, or a UsageError saying why
    nothing may be written there (`database`: the open one, never replaced)."""
    check_named(target)
    refuse_database(target, database)
    real = os.path.realpath(target)
    try:
        st = os.stat(real)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise UsageError("cannot write {target}: {why}", target=target,
                         why=exc.strerror or exc) from None
    if st is not None:
        if stat.S_ISDIR(st.st_mode):
            raise UsageError("{target} is a folder: name the file", target=target)
        if stat.S_ISFIFO(st.st_mode) or (stat.S_ISCHR(st.st_mode) and _is_terminal(real)):
            return STREAM, real
        if not stat.S_ISREG(st.st_mode):
            raise UsageError("{target} is a device, not a file: banco writes only to a new or "
                             "a regular file, a pipe or a terminal; nothing was written",
                             target=target)
        if not force:
            raise UsageError("{target} exists: give another name, or --force to replace it",
                             target=target)
        if real.startswith(("/proc/", "/sys/")):
            raise UsageError("{target} is a file of the system (/proc, /sys), not one to "
                             "replace", target=target)
    folder = os.path.dirname(real)
    if not os.path.isdir(folder):
        raise UsageError("cannot write {target}: the folder {folder} does not exist",
                         target=target, folder=folder)
    return FILE, real


def _is_terminal(path: str) -> bool:
    try:
        fd = os.open(path, os.O_WRONLY | os.O_NOCTTY | os.O_NONBLOCK)
    except OSError:
        return False
    try:
        return os.isatty(fd)
    finally:
        os.close(fd)


def write_out(target: str | None, force: bool, write: Callable[[TextIO], None],
              database: str | None = None) -> None:
    """Call write(file) on stdout, on a pipe or terminal named, or on a temporary file beside
    TARGET renamed into place when complete: a failed export leaves no half-written file.
    `database`: the open one (session.db), which TARGET may not be."""
    if target is None or target == "-":
        write(sys.stdout)
        return
    kind, path = output_target(target, force, database)
    if kind == STREAM:
        try:
            with open(path, "w", encoding="utf-8", newline="\n") as f:
                write(f)
        except OSError as exc:
            raise UsageError("cannot write {target}: {why}", target=target,
                             why=exc.strerror or exc) from None
        return
    try:
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".banco-", suffix=".part")
    except OSError as exc:
        raise UsageError("cannot write {target}: {why}", target=target,
                         why=exc.strerror or exc) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            write(f)
        # mkstemp's file is the owner's alone (0600): an export or a report is made to be
        # handed on, so it gets what any new file gets here (the umask decides)
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(tmp, 0o666 & ~mask)
        os.replace(tmp, path)
    except OSError as exc:
        raise UsageError("cannot write {target}: {why}", target=target,
                         why=exc.strerror or exc) from None
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def remove_database(path: str) -> None:
    """A SQLite file this command made and must not leave, with its -wal and -shm beside it
    (a refused import into a new file, a copy stopped before its first game, a backup's
    temporary copy)."""
    for leftover in (path, path + "-wal", path + "-shm"):
        if os.path.exists(leftover):
            os.unlink(leftover)
