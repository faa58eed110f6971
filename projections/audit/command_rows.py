"""What the audit reads off a recorded command's rows beside re-deriving it
(projections/audit/audit.py GameAudit._recorded): the referee it names, and a bankruptcy's
building sales in the order an older banco logged them."""

from __future__ import annotations

import json
from typing import Any

from banco.projections.audit.rederive import plain


def referee_of(said: dict):
    """The referee whose command a CommandRecorded's data records, None for the banker's."""
    command = said.get("command")
    fields = command.get("fields") if type(command) is dict else None
    referee = fields.get("referee") if type(fields) is dict else None
    return referee if isinstance(referee, str) else None


def sales_as_logged(expected: Any, states: Any, facts: list[dict],
                    data: Any) -> tuple[Any, Any]:
    """A bankruptcy sells the buildings group by group.  Before 2026-11-30 the groups came from
    a set of names, whose order changes from one process to the next (PYTHONHASHSEED): a game
    logged then may hold the same sales in another order than decide gives now.  The same
    sales (the same multiset of facts, at the same places) in the logged order are the
    command's facts, folded as logged; anything else is left for the comparison to name."""
    at = [i for i, f in enumerate(expected) if f["type"] == "BuildingsSold"]
    if len(at) < 2 or len(facts) <= at[-1] or any(facts[i]["type"] != "BuildingsSold"
                                                   for i in at):
        return expected, states
    logged = [data(facts[i]) for i in at]
    derived = [plain(expected[i]["data"]) for i in at]
    if logged == derived:
        return expected, states

    def key(d: dict) -> str:
        return json.dumps(d, sort_keys=True)

    if sorted(map(key, logged)) != sorted(map(key, derived)):
        return expected, states
    reordered = list(expected)
    for i, d in zip(at, logged, strict=True):
        reordered[i] = {**expected[i], "data": d}
    return reordered, None
