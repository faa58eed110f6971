"""Errors a banker can meet. None of them is a bug; the CLI prints them without a traceback.

Each carries the exit code README documents: 1 refused by the rules, 2 usage, 3 audit found a
problem, 4 the database cannot be used, 5 conflict (the game changed while deciding).
"""

from __future__ import annotations

EXIT_OK = 0
EXIT_REFUSED = 1
EXIT_USAGE = 2
EXIT_AUDIT = 3
EXIT_DATABASE = 4
EXIT_CONFLICT = 5


class BancoError(Exception):
    """Base of every error that is the user's input, not the program's fault."""

    exit_code = EXIT_USAGE


class UsageError(BancoError):
    """A name that matches nothing, a malformed number, a game that does not exist (exit 2)."""

    exit_code = EXIT_USAGE


class RuleViolation(BancoError):
    """The rule set refuses the command.  Nothing is appended, except `record`: facts that must be
    kept even though the command was refused (a late rent claim is itself evidence, DESIGN.md)."""

    exit_code = EXIT_REFUSED

    def __init__(self, message: str, rule: str = "", allowed: str = "", record: list | None = None):
        self.message = message
        self.rule = rule
        self.allowed = allowed
        self.record = list(record or [])
        super().__init__(str(self))

    def __str__(self) -> str:
        text = self.message
        if self.rule:
            text += f" ({self.rule})"
        if self.allowed:
            text += f"\n  allowed: {self.allowed}"
        return text


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
