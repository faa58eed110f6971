"""Errors a banker can meet. None of them is a bug; the CLI prints them without a traceback."""

from __future__ import annotations


class BancoError(Exception):
    """Base of every error that is the user's input, not the program's fault."""

    exit_code = 2


class UsageError(BancoError):
    """A name that matches nothing, a malformed number, a game that does not exist (exit 2)."""

    exit_code = 2


class RuleViolation(BancoError):
    """The rule set refuses the command.  Nothing is appended, except `record`: facts that must be
    kept even though the command was refused (a late rent claim is itself evidence, DESIGN.md)."""

    exit_code = 1

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


class ConflictError(BancoError):
    """Another terminal appended to this game after our state was read: re-read and retry."""

    exit_code = 1
