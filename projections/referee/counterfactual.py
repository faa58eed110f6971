"""What another rule set would have made of a game: every recorded command re-run through
`decide` under other rules, on a table of their own, in memory.  Nothing is written.

Each command is decided as the book decides it (its CommandRecorded applied first, so the seqs
a fact points at are the seqs it would have had), undos take back the last command in force of
the other game, and a refusal that leaves evidence (a late claim) counts as that evidence.  The
first command whose facts differ is the divergence.  A command the other rules refuse outright
stops the re-run there (what follows was played on a table that no longer exists), unless the
caller asks to skip such commands and go on.
"""

from __future__ import annotations

import itertools
from collections import OrderedDict, deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from banco.ledger.base.errors import RuleViolation, UsageError
from banco.ledger.base.text import Joined
from banco.ledger.board.rule_sets import RuleSet, load_rules, shown
from banco.ledger.book import command_recorded, undo_facts
from banco.ledger.records.command_codec import CommandDecodeError, decode
from banco.ledger.rules.decide import decide, start_game
from banco.ledger.table.state import State, evolve, fold, retracted_seqs
from banco.projections.readings.accounts import standings
from banco.projections.readings.replay import SNAPSHOTS, command_batches, table_after_undo


@dataclass
class Divergence:
    step: int  # the command's number in the game (1 is `new`)
    seqs: tuple[int, int]  # where the command is in the recorded game
    line: str | None
    recorded: list[dict]  # the facts the game recorded (type, data)
    other: list[dict]  # the facts under the other rules ([] when refused)
    refused: str | None = None  # the other rules' refusal, if any (English, as in --json)
    refusal: RuleViolation | None = None  # the same, for the edge to say in the user's language


@dataclass
class Rerun:
    recorded_rules: RuleSet
    other_rules: RuleSet
    commands: int  # commands re-run
    total: int  # commands in the game
    divergence: Divergence | None
    stopped: Divergence | None  # the command the other rules refused, where the re-run ended
    skipped: list[Divergence] = field(default_factory=list)
    recorded_final: State | None = None
    other_final: State | None = None

    def document(self, describe) -> dict:
        a, b = self.recorded_final, self.other_final

        def div(d: Divergence | None, state_a, state_b):
            return divergence_document(d, describe, state_a, state_b)

        return {"rules": {"recorded": self.recorded_rules.name, "other": self.other_rules.name},
                "commands": {"rerun": self.commands, "total": self.total},
                "first_divergence": div(self.divergence, a, b),
                "stopped": div(self.stopped, a, b),
                "skipped": [div(d, a, b) for d in self.skipped],
                "final": {"recorded": table_summary(a), "other": table_summary(b)},
                "standings": {"recorded": standings(a), "other": standings(b)}}


def divergence_document(d: Divergence | None, describe, state_a: State | None,
                        state_b: State | None) -> dict | None:
    """A divergence in --json: its facts said on the recorded and the other final tables."""
    if d is None:
        return None

    def facts(events, state):
        return [{"type": e["type"], "data": e["data"], "text": describe(e, state)}
                for e in events]

    return {"step": d.step, "seqs": list(d.seqs), "line": d.line,
            "recorded": facts(d.recorded, state_a), "other": facts(d.other, state_b),
            "refused": d.refused}


def table_summary(state: State) -> dict:
    from banco.ledger.table.worth import deeds_of, net_worth

    return {"seq": state.seq, "ended": state.ended, "winner": state.winner,
            "players": [{"name": p.name, "cash": p.cash,
                         "net_worth": 0 if p.bankrupt else net_worth(state, p.name),
                         "deeds": [state.edition.space(x).name for x in deeds_of(state, p.name)],
                         "position": p.position, "in_jail": p.in_jail, "bankrupt": p.bankrupt}
                        for p in state.players]}


def _facts(events: list[dict]) -> list[dict]:
    return [{"type": e["type"], "data": e["data"]} for e in events]


def _same(recorded: list[dict], other: list[dict]) -> bool:
    """Facts compared as facts: the GameStarted's rules differ by design."""
    def norm(e):
        if e["type"] == "GameStarted":
            return (e["type"], {k: v for k, v in e["data"].items()
                                if k not in ("rules", "game_uuid")})
        return e["type"], e["data"]

    return [norm(e) for e in recorded] == [norm(e) for e in other]


class OtherLog:
    """The other rules' game, row by row, kept in a private temporary SQLite database (not the
    user's file; gone when closed) rather than in memory: a re-run of a long game holds only
    the rows an undo or a fold is reading, however long the game."""

    CHUNK = 2000

    def __init__(self, game_id: int | None):
        import sqlite3

        self.game_id = game_id
        self.db = sqlite3.connect("")  # "": a temporary file, spilled to disk as it grows
        self.db.execute("CREATE TABLE rows (seq INTEGER PRIMARY KEY, type TEXT, data TEXT, "
                        "command_id TEXT)")
        self.last = 0

    def close(self) -> None:
        self.db.close()

    def append(self, rows: list[dict]) -> None:
        import json

        self.db.executemany("INSERT INTO rows VALUES (?, ?, ?, ?)",
                            [(r["seq"], r["type"], json.dumps(r["data"]), r["command_id"])
                             for r in rows])
        self.last = rows[-1]["seq"] if rows else self.last

    def _rows(self, sql: str, args: tuple) -> list[dict]:
        import json

        return [{"type": t, "data": json.loads(d), "seq": s, "command_id": c}
                for s, t, d, c in self.db.execute(sql, args)]

    def newest_first(self):
        """The rows from the last one back, read a chunk at a time as they are used."""
        before = self.last + 1
        while before > 1:
            rows = self._rows("SELECT seq, type, data, command_id FROM rows WHERE seq<? "
                              "ORDER BY seq DESC LIMIT ?", (before, self.CHUNK))
            if not rows:
                return
            yield from rows
            before = rows[-1]["seq"]

    def _forward(self):
        after = 0
        while True:
            rows = self._rows("SELECT seq, type, data, command_id FROM rows WHERE seq>? "
                              "ORDER BY seq LIMIT ?", (after, self.CHUNK))
            yield from rows
            if len(rows) < self.CHUNK:
                return
            after = rows[-1]["seq"]

    def fold(self) -> State:
        """`ledger.table.state.fold` of the rows, a chunk at a time: the undos honoured."""
        from banco.ledger.table.state import HANDLERS, initial_state

        gone = retracted_seqs(self._rows("SELECT seq, type, data, command_id FROM rows "
                                         "WHERE type='EventRetracted'", ()))
        state = None
        for e in self._forward():
            if state is None:
                if e["type"] == "CommandRecorded":
                    continue
                gid = self.game_id if self.game_id is not None else e.get("game_id", 0)
                state = initial_state(gid, e)
            elif e["seq"] not in gone:
                state = HANDLERS[e["type"]](state, e["data"], e["seq"])
        return state._replace(seq=self.last)


def rerun(events: Iterable[dict], rules: str, *, skip_refused: bool = False,
          game_id: int | None = None, total: int | None = None,
          table_at: Callable[[int], State] | None = None,
          on_skip: Callable[[Divergence], None] | None = None) -> Rerun:
    """Re-run a game's recorded commands under `rules` (a built-in name or a house-rules
    file).  `events`: the whole log as a list, or a long game's rows streamed in seq order
    with `total` its number of commands and `table_at(seq)` the recorded table after event seq
    (the undos up to it honoured).  `on_skip`: where each command skipped goes, as it is met
    (a long game may skip tens of thousands: the caller spools them); None: `Rerun.skipped`."""
    other_rules = load_rules(rules)
    if total is None or table_at is None:
        events = list(events)
        rows = events
        total = sum(1 for _ in command_batches(rows)) if total is None else total
        if table_at is None:
            def table_at(seq: int) -> State:
                return fold([e for e in rows if e["seq"] <= seq], game_id)
    batches = command_batches(events)
    head_batch = next(batches, None)
    if head_batch is None or head_batch[0]["type"] != "CommandRecorded":
        raise UsageError("this game was recorded before banco kept the commands beside their "
                         "facts: there is nothing to re-run (replay and rulings still work)")
    started = next(e for e in head_batch if e["type"] == "GameStarted")["data"]
    recorded_rules = RuleSet.from_params(started["rules"])
    log = OtherLog(game_id)
    state: State | None = None
    # An undo of the other game goes back to the table from before the command it takes back,
    # kept for the last SNAPSHOTS commands as `replay` keeps them; else the fold of its log.
    kept: OrderedDict[str, State] = OrderedDict()
    recent: deque[list[dict]] = deque(maxlen=SNAPSHOTS + 1)
    taken: dict[int, int] = {}

    def append(facts: list[dict], head: dict) -> None:
        nonlocal state
        cid = head.get("command_id", "")
        rows = [{"type": e["type"], "data": e["data"], "seq": log.last + 1 + i,
                 "command_id": cid} for i, e in enumerate([head, *facts])]
        log.append(rows)
        recent.append(rows)
        if state is not None:
            kept[cid] = state
            if len(kept) > SNAPSHOTS:
                kept.popitem(last=False)
        undos = [r for r in rows if r["type"] == "EventRetracted"]
        if state is None:
            state = log.fold()
        elif undos:
            # what `fold` of the whole log gives (tests/test_counterfactual.py checks it)
            state = (table_after_undo(state, undos[0], recent, kept, taken)
                     if len(undos) == 1 and undos[0] is rows[-1] else None) or log.fold()
            for r in undos:
                taken.update(dict.fromkeys(r["data"]["seqs"], r["seq"]))
        else:
            state = _apply(state, rows)

    result = Rerun(recorded_rules, other_rules, 0, total, None, None)
    last_seq = 0
    try:
        for number, batch in enumerate(itertools.chain([head_batch], batches), start=1):
            last_seq = batch[-1]["seq"]
            head, facts = batch[0], batch[1:]
            line = head["data"]["line"]
            where = (batch[0]["seq"], batch[-1]["seq"])
            doc = head["data"]["command"]
            mark = {"type": "CommandRecorded", "data": head["data"],
                    "command_id": head["command_id"]}
            refused = refusal = None
            if number == 1:
                try:
                    other = start_game(started["players"], other_rules, started["edition"],
                                       started["first_player"])
                except RuleViolation as exc:
                    raise UsageError("the {other_rules} rules cannot seat this game: {exc}",
                                     other_rules=shown(other_rules),
                                     exc=Joined([exc.text, f" ({exc.rule})" if exc.rule else ""],
                                                "")) from None
                other[0]["data"]["game_uuid"] = started.get("game_uuid")
                if other[0]["data"]["game_uuid"] is None:
                    del other[0]["data"]["game_uuid"]
            elif doc is None:  # `undo`: takes back the last command in force of the other game
                try:
                    other = undo_facts(log.newest_first(), behind_refusals=True)
                except RuleViolation as exc:
                    other, refused, refusal = [], str(exc), exc.with_traceback(None)
            else:
                try:
                    command = decode(doc)
                except CommandDecodeError as exc:
                    raise UsageError("command {number} (`{line}`) cannot be read back: {exc}",
                                     number=number, line=line, exc=exc) \
                        from None
                ready = evolve(state, {**command_recorded(line, command), "seq": log.last + 1})
                try:
                    other = decide(ready, command)
                except RuleViolation as exc:
                    other, refused = list(exc.record), None if exc.record else str(exc)
                    # kept without its traceback: its frames hold tables, and a long game
                    # re-run with --skip-refused keeps every refusal
                    refusal = None if exc.record else exc.with_traceback(None)
            if refused is None:
                append([{"type": e["type"], "data": e["data"]} for e in other], mark)
                result.commands += 1
            here = Divergence(number, where, line, _facts(facts), _facts(other), refused,
                              refusal)
            if result.divergence is None and (refused is not None or not _same(facts, other)):
                result.divergence = here
            if refused is not None:
                if not skip_refused:
                    result.stopped = here
                    break
                if on_skip is None:
                    result.skipped.append(here)
                else:
                    on_skip(here)
    finally:
        log.close()
    # Side by side at the same point: where the re-run stopped, or the end of the game.
    until = result.stopped.seqs[0] - 1 if result.stopped else last_seq
    result.recorded_final = table_at(until)
    result.other_final = state
    return result


def _apply(state: State, rows: list[dict]) -> State:
    for r in rows:
        state = evolve(state, r)
    return state
