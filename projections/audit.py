"""The audit: is this the history that was written, and does it still make sense?

Three checks over a game's rows, each naming the first bad seq: the hash chain, every event
through its schema, and every event through the fold with everything checked after each one
(projections/checks.py): its amounts against the rules, the books account by account, and the
table it leaves (the Bank's buildings, even building, ...).
"""

from __future__ import annotations

from dataclasses import dataclass

from ledger.canonical import GENESIS
from ledger.events import InvalidEvent, validate
from ledger.state import replay, retracted_seqs
from ledger.store import verify_chain

from .checks import EventChecks


@dataclass
class AuditReport:
    game_id: int
    events: int
    head: str
    bad_seq: int | None = None
    problem: str | None = None

    @property
    def ok(self) -> bool:
        return self.bad_seq is None

    def document(self) -> dict:
        return {"game": self.game_id, "events": self.events, "head": self.head, "ok": self.ok,
                "bad_seq": self.bad_seq, "problem": self.problem}


def audit(game_id: int, rows: list[dict], expect_head: str | None = None) -> AuditReport:
    """`expect_head`: a head printed earlier (on a score sheet, say).  A forger can recompute
    every hash after an edit, but cannot make that printed head appear in the new chain."""
    count, head, problem = verify_chain(rows)
    if problem:
        return AuditReport(game_id, count, head, problem.seq, f"hash chain: {problem.problem}")
    if expect_head is not None and not any(r["hash"] == expect_head for r in rows):
        # Without the old rows we cannot know where a rewrite starts: name the first event.
        return AuditReport(game_id, count, head, rows[0]["seq"] if rows else None,
                           f"the head {expect_head[:12]}... printed earlier is not in this "
                           "history: it was rewritten")
    for row in rows:
        try:
            validate(row["type"], row["data"], row["schema_version"])
        except InvalidEvent as exc:
            return AuditReport(game_id, count, head, row["seq"], f"schema: {exc}")
    if not rows:
        return AuditReport(game_id, 0, GENESIS, None, None)
    first = next((r for r in rows if r["type"] != "CommandRecorded"), rows[0])
    if first["type"] != "GameStarted":
        return AuditReport(game_id, count, head, rows[0]["seq"], "the log does not begin with GameStarted")
    gone = retracted_seqs(rows)
    steps = replay(rows, game_id)
    row, before = next(steps)
    checks = EventChecks(before)
    problems = checks.start()
    if problems:
        return AuditReport(game_id, count, head, row["seq"], "; ".join(problems))
    for i in range(1, len(rows) + 1):
        try:
            row, state = next(steps)
        except StopIteration:
            break
        except Exception as exc:  # a log that no longer folds is exactly what audit reports
            bad = rows[i]
            why = checks.unfoldable(bad) or [f"fold: {type(exc).__name__}: {exc}"]
            return AuditReport(game_id, count, head, bad["seq"], "; ".join(why))
        if row["seq"] in gone:
            continue
        try:
            problems = checks.after(before, row, state)
        except Exception as exc:  # facts that make no sense to the checks either
            problems = [f"{row['type']} cannot be checked: {type(exc).__name__}: {exc}"]
        if problems:
            return AuditReport(game_id, count, head, row["seq"], "; ".join(problems))
        before = state
    return AuditReport(game_id, count, head)
