"""What the audit's pass hands back: a game's report, and the stop that ends the pass at the
first bad event.

A report is pickled by the audit of a file's games (projections/audit/audit_games.py): a
worker hands it back to the parent by this module's path.
"""

from __future__ import annotations

from dataclasses import dataclass, field


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

    @property
    def ok(self) -> bool:
        return self.bad_seq is None and self.problem is None

    def document(self) -> dict:
        return {"game": self.game_id, "uuid": self.uuid, "events": self.events,
                "head": self.head, "ok": self.ok, "bad_seq": self.bad_seq,
                "problem": self.problem, "commands_rederived": self.commands,
                "not_checked": self.notes}


class AuditStop(Exception):
    """The first bad event found: its seq (None: no one event) and what is wrong there."""

    def __init__(self, seq: int | None, problem: str):
        super().__init__(problem)
        self.seq, self.problem = seq, problem

