"""Which function decides each command: the rule modules register theirs with `@handles`, and
`decide` looks the command's type up here.  The bottom of the rules, beside decision.py: a
rule module imports it, it imports no rule module."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from banco.ledger.rules.decision import Tx

Handler = Callable[[Tx, Any], None]

HANDLERS: dict[type, Handler] = {}


def handles(*commands: type) -> Callable[[Handler], Handler]:
    """Register the decorated function as the one that decides these command types."""
    def register(handler: Handler) -> Handler:
        for command in commands:
            assert command not in HANDLERS, command  # one rule module per command
            HANDLERS[command] = handler
        return handler

    return register
