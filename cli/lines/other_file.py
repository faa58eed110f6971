"""`--db` on a line of the shell, of a transcript (`run`) or given to the library: refused,
wherever it stands.

The shell and a transcript work on the file they were opened on.  Read by click, a `--db`
before the word was dropped and one after it was obeyed: `roll 1 2 --db other.db` wrote into
another file while the prompt stayed on the first.  The phones refuse it too (403).  Pure: the
words in, the refusal (a UsageError, exit 2) out, nothing run."""

from __future__ import annotations

from banco.cli.lines.parse import shell_words
from banco.ledger.base.errors import UsageError


def names_db(words: list[str]) -> bool:
    """`--db` (or `--db=FILE`) among a line's options (before a `--`)."""
    options = words[:words.index("--")] if "--" in words else words
    return any(w == "--db" or w.startswith("--db=") for w in options)


def names_another_file(line: str) -> UsageError | None:
    """The refusal of a shell's or a transcript's line that carries `--db` among its options,
    else None (a line shlex cannot split is the caller's to word)."""
    try:
        words = shell_words(line)  # split once a line (cli/lines/parse.py)
    except ValueError:
        return None
    if names_db(words):
        return UsageError("--db cannot be given on a line: the shell and a transcript work on "
                          "the file they were opened on; open another with "
                          "`banco --db FILE shell` (nothing was run)")
    return None


def library_elsewhere(words: list[str]) -> UsageError | None:
    """The same for a line given to the library (banco.open(FILE).execute): it records in the
    database it was opened on, so the line is refused whole, nothing run."""
    if names_db(words):
        return UsageError("--db cannot be given on a line: it is recorded in the database the "
                          "book was opened on (`banco.open(FILE)`); nothing was run")
    return None
