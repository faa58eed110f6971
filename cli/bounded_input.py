"""What banco reads from a file named to it is bounded before it is parsed, and what cannot be
parsed is said in one line: `import /dev/zero` (one endless line), `audit --seal /dev/zero`,
data nested 200,000 deep (json's RecursionError), a lone surrogate `\\ud800` that JSON allows
and UTF-8 cannot hold (UnicodeEncodeError when stored).  No traceback, nothing imported."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import BinaryIO, TextIO

from banco.ledger.base.errors import UsageError

# One event's line of an export is a few hundred characters, a GameStarted or a tournament
# archive's header a few thousand: 16 MiB is far above any of them and far below memory.
LINE_LIMIT = 16 * 1024 * 1024
# A seal file is a dozen short lines.
SEAL_LIMIT = 64 * 1024
# A transcript is read whole before its first line runs (its lines' ids are chained, and a
# re-run finds where it stopped): a game of 300,000 events is some 150,000 lines and 5 MB, so
# these are far above any game and keep `run /dev/zero` or `yes | banco run -` from eating
# the memory (issue 32).
TRANSCRIPT_LIMIT = 64 * 1024 * 1024
TRANSCRIPT_LINES = 1_000_000
# A banker's line is a few dozen characters, a trade of every deed a few hundred; shlex takes
# seconds over 256 KiB and minutes over 16 MiB (import's bound), so a transcript's is lower.
TRANSCRIPT_LINE_LIMIT = 64 * 1024
_CHUNK = TRANSCRIPT_LINE_LIMIT  # no more: a line within one chunk is then within the limit


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


def read_transcript(f: BinaryIO, *, source: str, check=None) -> bytes:
    """A transcript's bytes, read a chunk at a time and refused as soon as a line is longer
    than TRANSCRIPT_LINE_LIMIT, the file longer than TRANSCRIPT_LIMIT or its lines more than
    TRANSCRIPT_LINES.  `check(chunks)`, after each chunk (the last of `chunks`), may refuse
    what has been read so far (text that is not UTF-8: `/dev/urandom` is refused at its first
    bad byte, not at its end)."""
    chunks: list[bytes] = []
    size = lines = line_start = 0

    def too_long(n: int) -> UsageError:
        return UsageError("line {n} of {source} is longer than {limit} bytes: not a banco "
                          "line; nothing was run", n=n, source=source,
                          limit=TRANSCRIPT_LINE_LIMIT)

    while True:
        chunk = f.read(_CHUNK)
        if not chunk:
            break
        chunks.append(chunk)
        first = chunk.find(b"\n")
        if first >= 0:
            # the line this chunk ends; the others it ends are shorter than a chunk
            if size + first - line_start > TRANSCRIPT_LINE_LIMIT:
                raise too_long(lines + 1)
            lines += chunk.count(b"\n")
            line_start = size + chunk.rindex(b"\n") + 1
        size += len(chunk)
        if size - line_start > TRANSCRIPT_LINE_LIMIT:  # the line it leaves open
            raise too_long(lines + 1)
        if size > TRANSCRIPT_LIMIT:
            raise UsageError("{source} is longer than {limit} bytes: too long for a "
                             "transcript; nothing was run", source=source,
                             limit=TRANSCRIPT_LIMIT)
        if lines > TRANSCRIPT_LINES:
            raise UsageError("{source} has more than {limit} lines: too many for a "
                             "transcript; nothing was run", source=source,
                             limit=TRANSCRIPT_LINES)
        if check is not None:
            check(chunks)
    return b"".join(chunks)


def read_bounded(f: TextIO, *, path: str, limit: int = SEAL_LIMIT) -> str:
    """The whole of a small file (a seal), refused when it is longer than `limit`."""
    text = f.read(limit + 1)
    if len(text) > limit:
        raise UsageError("{path} is longer than {limit} characters: not a seal banco writes",
                         path=path, limit=limit)
    return text
