"""`--db` on a line of the shell or of a transcript (`run`): refused, wherever it stands.

The shell and a transcript work on the file they were opened on.  Read by click, a `--db`
before the word was dropped and one after it was obeyed: `roll 1 2 --db other.db` wrote into
another file while the prompt stayed on the first.  The phones refuse it too (403).  Pure: the
words in, the refusal (a UsageError, exit 2) out, nothing run."""

from __future__ import annotations

import shlex

from banco.ledger.base.errors import UsageError


def names_another_file(line: str) -> UsageError | None:
    """The refusal of a line that carries `--db` (or `--db=FILE`) among its options, else None
    (a line shlex cannot split is the caller's to word)."""
    try:
        words = shlex.split(line, comments=True)
    except ValueError:
        return None
    options = words[:words.index("--")] if "--" in words else words
    if any(w == "--db" or w.startswith("--db=") for w in options):
        return UsageError("--db cannot be given on a line: the shell and a transcript work on "
                          "the file they were opened on; open another with "
                          "`banco --db FILE shell` (nothing was run)")
    return None
