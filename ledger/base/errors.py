"""Errors a banker can meet. None of them is a bug; the CLI prints them without a traceback.

Each carries the exit code README documents: 1 refused by the rules, 2 usage, 3 audit found a
problem, 4 the database cannot be used, 5 conflict (the game changed while deciding).
"""

from __future__ import annotations

from banco.ledger.base.text import Text, cited, render

EXIT_OK = 0
EXIT_REFUSED = 1
EXIT_USAGE = 2
EXIT_AUDIT = 3
EXIT_DATABASE = 4
EXIT_CONFLICT = 5


class BancoError(Exception):
    """Base of every error that is the user's input, not the program's fault.

    Its message is a template and parameters (ledger/base/text.py): `str(exc)` is English, the CLI
    says `exc.render(translations)` in the user's language."""

    exit_code = EXIT_USAGE

    def __init__(self, message="", **params):
        self.text = message if isinstance(message, Text) else Text(str(message), params=params)
        super().__init__(str(self.text))

    def render(self, tr=None) -> str:
        return self.text.render(tr)


class UsageError(BancoError):
    """A name that matches nothing, a malformed number, a game that does not exist (exit 2).
    `meant`: the one line the banker surely meant, when the message suggests it (`roll 34`:
    `roll 3 4`), for the shell to offer (cli/banker/meant.py)."""

    exit_code = EXIT_USAGE
    meant: str | None = None

    def meaning(self, line: str) -> UsageError:
        self.meant = line
        return self


class RuleViolation(BancoError):
    """The rule set refuses the command.  Nothing is appended, except `record`: facts that must be
    kept even though the command was refused (a late rent claim is itself evidence, DESIGN.md)."""

    exit_code = EXIT_REFUSED

    def __init__(self, message, rule: str = "", allowed="", record: list | None = None,
                 **params):
        # message: a template with its params, or a Text; allowed: a str or a Text.
        self.text = message if isinstance(message, Text) else Text(message, params=params)
        self.message = str(self.text)  # English, as logs and tests read it
        self.rule = rule
        self.allowed_text = allowed
        self.allowed = str(allowed) if allowed else ""  # English, as logs and tests read it
        self.record = list(record or [])
        Exception.__init__(self, str(self))

    def render(self, tr=None, allowed_word: str = "allowed") -> str:
        """The refusal in the language of `tr`: the message, the rule it cites (seed file and
        section, never translated) and what would be allowed instead."""
        text = cited(self.text.render(tr), self.rule)
        if self.allowed:
            text += f"\n  {allowed_word}: {render(self.allowed_text, tr)}"
        return text

    def __str__(self) -> str:
        return self.render(None)


class DatabaseError(BancoError):
    """The database file cannot be used: missing, not SQLite, locked, corrupt, newer (exit 4)."""

    exit_code = EXIT_DATABASE


class ConflictError(BancoError):
    """Another terminal appended to this game after our state was read: re-read and retry
    (exit 5)."""

    exit_code = EXIT_CONFLICT


class NoDatabase(DatabaseError):
    """No file at the --db path (exit 4).  Its own class so that `board` and `cards` can still
    show the default edition; every other command says there is no such database."""

    # a missing file's neighbours (the databases beside it, or the close ones): the shell,
    # which cannot open another file, says its own way (cli/words/i18n.py say_error)
    nearby: list[str] | None = None
