"""`--db` on a line of the shell, of a transcript (`run`) or given to the library: refused,
wherever it stands.

The shell and a transcript work on the file they were opened on.  Read by click, a `--db`
before the word was dropped and one after it was obeyed: `roll 1 2 --db other.db` wrote into
another file while the prompt stayed on the first.  The phones refuse it too (403).  Pure: the
words in, the refusal (a UsageError, exit 2) out, nothing run.

Likewise a system shell's pipe or redirection (`log | head -1`): the shell and `run` read
banco's words only, and click answered "No such option '-1'", which said nothing of the pipe."""

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


# What a system shell (bash, zsh) reads between commands; `&` alone is left out: it is no
# banco word either, but `A & B` reads as a name sooner than as a job sent to the background
_OPERATORS = frozenset("|;<>&")


def system_shell(line: str) -> UsageError | None:
    """The refusal of a line that holds a system shell's pipe, list or redirection (`log |
    head -1`, `state > out.txt`, `roll 1 2; buy`), with the terminal's line that does it;
    else None.  A word made of those characters only, a word ending in `;`, or a first word
    holding one (`log|head`: no command word holds one) is what the banker meant for a system
    shell."""
    try:
        words = shell_words(line)
    except ValueError:
        return None
    said = next((w for w in words if w != "&" and not set(w) - _OPERATORS), None) \
        or next((";" for w in words if w.endswith(";")), None)  # `roll 1 2; buy`
    if said is None and words and set(words[0]) & (_OPERATORS - {"&"}):
        said = next(ch for ch in words[0] if ch in _OPERATORS)
    if said is None:
        return None
    from banco.ledger.base.names import shown

    if said in (";", "&&", "||"):  # `banco roll 1 2; buy` at the terminal runs no banco `buy`
        return UsageError("`{op}` is a system shell's (bash, zsh), not banco's: banco runs one "
                          "command a line; type each on a line of its own (nothing was run)",
                          op=said)
    return UsageError("`{op}` is a system shell's (bash, zsh), not banco's: banco runs its own "
                      "words only; `banco {line}` at the terminal does it (nothing was run)",
                      op=said, line=shown(line.strip(), 60))
