"""What banco reads from a file named to it is bounded before it is parsed, and what cannot be
parsed is said in one line: `import /dev/zero` (one endless line), `audit --seal /dev/zero`,
data nested 200,000 deep (json's RecursionError), a lone surrogate `\\ud800` that JSON allows
and UTF-8 cannot hold (UnicodeEncodeError when stored).  No traceback, nothing imported."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import TextIO

from banco.ledger.base.errors import UsageError

# One event's line of an export is a few hundred characters, a GameStarted or a tournament
# archive's header a few thousand: 16 MiB is far above any of them and far below memory.
LINE_LIMIT = 16 * 1024 * 1024
# A seal file is a dozen short lines.
SEAL_LIMIT = 64 * 1024


class BoundedLines:
    """The lines of `f`, each at most `limit` characters, counted (for the error's line)."""

    def __init__(self, f: TextIO, *, source: str, limit: int = LINE_LIMIT):
        self.f, self.source, self.limit, self.number = f, source, limit, 0

    def __iter__(self) -> Iterator[str]:
        return self

    def __next__(self) -> str:
        line = self.f.readline(self.limit + 1)
        if not line:
            raise StopIteration
        self.number += 1
        if len(line) > self.limit:
            raise UsageError("line {n} of {source} is longer than {limit} characters: not a "
                             "line `banco export` writes; nothing was imported",
                             n=self.number, source=self.source, limit=self.limit)
        return line


@contextlib.contextmanager
def parsed_safely(lines: BoundedLines):
    """Around parsing and storing `lines`: what json or UTF-8 cannot take, as one line."""
    try:
        yield
    except RecursionError:
        raise UsageError("line {n} of {source} holds data nested too deep to be a banco "
                         "export; nothing was imported",
                         n=lines.number, source=lines.source) from None
    except UnicodeEncodeError as exc:
        bad = f"U+{ord(exc.object[exc.start]):04X}"
        raise UsageError("line {n} of {source} holds {char}, a lone surrogate and no "
                         "character (UTF-8 cannot hold it); nothing was imported",
                         n=lines.number, source=lines.source, char=bad) from None


def read_bounded(f: TextIO, *, path: str, limit: int = SEAL_LIMIT) -> str:
    """The whole of a small file (a seal), refused when it is longer than `limit`."""
    text = f.read(limit + 1)
    if len(text) > limit:
        raise UsageError("{path} is longer than {limit} characters: not a seal banco writes",
                         path=path, limit=limit)
    return text
