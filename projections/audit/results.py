"""What the audit's pass hands back: a game's report, where a part of the pass stands (for
the next part to resume from), and the stop that ends the pass at the first bad event.

Both classes are pickled by the parallel audit (projections/audit/audit_parallel.py): a worker
hands its report, or where its part stands, back to the parent by this module's path.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from banco.projections.audit.checks import EventChecks


@dataclass
class AuditReport:
    game_id: int
    events: int
    head: str
    bad_seq: int | None = None
    problem: str | None = None
    notes: list[str] = field(default_factory=list)  # what could not be checked, and why
    commands: int = 0  # commands re-derived
    uuid: str | None = None

    def __reduce__(self) -> tuple[Any, ...]:
        # A worker auditing a game hands its report back pickled (projections/audit/
        # audit_parallel.py): a compiled class is unpickled through its constructor.
        return AuditReport, (self.game_id, self.events, self.head, self.bad_seq, self.problem,
                             self.notes, self.commands, self.uuid)

    @property
    def ok(self) -> bool:
        return self.bad_seq is None and self.problem is None

    def document(self) -> dict:
        return {"game": self.game_id, "uuid": self.uuid, "events": self.events,
                "head": self.head, "ok": self.ok, "bad_seq": self.bad_seq,
                "problem": self.problem, "commands_rederived": self.commands,
                "not_checked": self.notes}



@dataclass
class Resume:
    """The pass over a game as it stands after event `seq`: the chain's head, the table, the
    checks' running state, the events undone so far, where the game ended."""
    seq: int
    prev: str
    seen_v2: bool
    state: Any  # the table (a State), or None before GameStarted
    checks: EventChecks | None
    ended_at: int | None
    uuid: str | None
    gone: frozenset
    at: str | None = None  # the time of the last command (the next must not go back from it)

    def __reduce__(self) -> tuple[Any, ...]:
        # A part's worker hands it back pickled (projections/audit/audit_parallel.py): a compiled
        # class is unpickled through its constructor.
        return Resume, (self.seq, self.prev, self.seen_v2, self.state, self.checks,
                        self.ended_at, self.uuid, self.gone, self.at)


class AuditStop(Exception):
    """The first bad event found: its seq (None: no one event) and what is wrong there."""


    def __init__(self, seq: int | None, problem: str):
        super().__init__(problem)
        self.seq, self.problem = seq, problem

