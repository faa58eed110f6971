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

from dataclasses import dataclass, field

from ledger.book import command_recorded, undo_events
from ledger.command_codec import CommandDecodeError, decode
from ledger.decide import decide, start_game
from ledger.errors import RuleViolation, UsageError
from ledger.rules import RuleSet, load_rules
from ledger.state import State, evolve, fold
from ledger.text import Joined

from .accounts import standings
from .replay import command_batches


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
        def facts(events, state):
            return [{"type": e["type"], "data": e["data"], "text": describe(e, state)}
                    for e in events]

        def div(d: Divergence | None, state_a, state_b):
            if d is None:
                return None
            return {"step": d.step, "seqs": list(d.seqs), "line": d.line,
                    "recorded": facts(d.recorded, state_a), "other": facts(d.other, state_b),
                    "refused": d.refused}

        a, b = self.recorded_final, self.other_final
        return {"rules": {"recorded": self.recorded_rules.name, "other": self.other_rules.name},
                "commands": {"rerun": self.commands, "total": self.total},
                "first_divergence": div(self.divergence, a, b),
                "stopped": div(self.stopped, a, b),
                "skipped": [div(d, a, b) for d in self.skipped],
                "final": {"recorded": table_summary(a), "other": table_summary(b)},
                "standings": {"recorded": standings(a), "other": standings(b)}}


def table_summary(state: State) -> dict:
    from ledger.worth import deeds_of, net_worth

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


def rerun(events: list[dict], rules: str, *, skip_refused: bool = False,
          game_id: int | None = None) -> Rerun:
    """Re-run a game's recorded commands under `rules` (a built-in name or a house-rules
    file)."""
    other_rules = load_rules(rules)
    batches = list(command_batches(events))
    if not batches or batches[0][0]["type"] != "CommandRecorded":
        raise UsageError("this game was recorded before banco kept the commands beside their "
                         "facts: there is nothing to re-run (replay and rulings still work)")
    started = next(e for e in batches[0] if e["type"] == "GameStarted")["data"]
    recorded_rules = RuleSet.from_params(started["rules"])
    log: list[dict] = []
    state: State | None = None

    def append(facts: list[dict], head: dict) -> None:
        nonlocal state
        for e in [head, *facts]:
            row = {"type": e["type"], "data": e["data"], "seq": len(log) + 1,
                   "command_id": head.get("command_id", "")}
            log.append(row)
        state = fold(log, game_id) if any(r["type"] == "EventRetracted" for r in facts) \
            or state is None else _apply(state, log[-len(facts) - 1:])

    result = Rerun(recorded_rules, other_rules, 0, len(batches), None, None)
    for number, batch in enumerate(batches, start=1):
        head, facts = batch[0], batch[1:]
        line = head["data"]["line"]
        where = (batch[0]["seq"], batch[-1]["seq"])
        doc = head["data"]["command"]
        mark = {"type": "CommandRecorded", "data": head["data"], "command_id": head["command_id"]}
        refused = refusal = None
        if number == 1:
            try:
                other = start_game(started["players"], other_rules, started["edition"],
                                   started["first_player"])
            except RuleViolation as exc:
                raise UsageError("the {other_rules} rules cannot seat this game: {exc}",
                                 other_rules=other_rules.name,
                                 exc=Joined([exc.text, f" ({exc.rule})" if exc.rule else ""],
                                            "")) from None
            other[0]["data"]["game_uuid"] = started.get("game_uuid")
            if other[0]["data"]["game_uuid"] is None:
                del other[0]["data"]["game_uuid"]
        elif doc is None:  # `undo`: takes back the last command in force of the other game
            try:
                other = undo_events(log)
            except RuleViolation as exc:
                other, refused, refusal = [], str(exc), exc
        else:
            try:
                command = decode(doc)
            except CommandDecodeError as exc:
                raise UsageError("command {number} (`{line}`) cannot be read back: {exc}",
                                 number=number, line=line, exc=exc) \
                    from None
            ready = evolve(state, {**command_recorded(line, command), "seq": len(log) + 1})
            try:
                other = decide(ready, command)
            except RuleViolation as exc:
                other, refused = list(exc.record), None if exc.record else str(exc)
                refusal = None if exc.record else exc
        if refused is None:
            append([{"type": e["type"], "data": e["data"]} for e in other], mark)
            result.commands += 1
        here = Divergence(number, where, line, _facts(facts), _facts(other), refused, refusal)
        if result.divergence is None and (refused is not None or not _same(facts, other)):
            result.divergence = here
        if refused is not None:
            if not skip_refused:
                result.stopped = here
                break
            result.skipped.append(here)
    # Side by side at the same point: where the re-run stopped, or the end of the game.
    until = result.stopped.seqs[0] - 1 if result.stopped else events[-1]["seq"]
    result.recorded_final = fold([e for e in events if e["seq"] <= until], game_id)
    result.other_final = state
    return result


def _apply(state: State, rows: list[dict]) -> State:
    for r in rows:
        state = evolve(state, r)
    return state
