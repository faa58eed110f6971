"""The line a banker meant, when a mistake in it had one suggestion (`did you mean 'Via Verdi'?`):
the shell offers it, and runs it only when the next line says yes (`y` or `s`), so that a
banker types one letter instead of the line again, and nothing runs unconfirmed."""

from __future__ import annotations

from banco.cli.command_table import ALIASES, COMMANDS, close_words
from banco.cli.lines.names import quoted, said  # noqa: F401 - said here by the shell and tests
from banco.cli.lines.parse import shell_words
from banco.ledger.base.errors import UsageError
from banco.ledger.base.names import UnknownName

# the answers that accept the line offered, in either language (`sì`, as an Italian types it)
YES = frozenset({"y", "yes", "s", "si", "sì"})


def meant_line(line: str, outcome) -> str | None:
    """The line with its one misspelt word (a command's, or a name) as suggested; None when the
    mistake has no suggestion, or several, or the line did not fail for a name (exit 2)."""
    if outcome.code != 2:
        return None
    try:
        words = shell_words(line)  # split once a line (cli/lines/parse.py)
    except ValueError:
        return None
    if not words:
        return None
    refusal = outcome.refusal
    if isinstance(refusal, UsageError) and refusal.meant:  # `roll 34`: `roll 3 4`
        return refusal.meant
    if isinstance(refusal, UnknownName):
        if refusal.ambiguous or len(refusal.suggestions) != 1:
            return None
        typed = refusal.text.params.get("text")
        for start in range(1, len(words)):  # the name's words, unquoted or quoted
            for end in range(start + 1, len(words) + 1):
                if " ".join(words[start:end]) == typed:
                    return said([*words[:start], refusal.suggestions[0], *words[end:]])
        return None
    word = words[0]
    if word.lower() == "banco":  # `banco stato` in the shell: `stato`
        from banco.cli.lines.referee import program_name_typed

        return program_name_typed(words[1:]).meant
    if refusal is None and word.lower() not in COMMANDS and word.lower() not in ALIASES:
        close = close_words(word)
        if len(close) == 1 and close[0] in outcome.errors:  # offered as the error said it
            return said([close[0], *words[1:]])
    return None
