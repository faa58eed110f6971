"""The book: a game's log in a store, the table folded from it, commands decided and appended.

I/O lives here and in the CLI; `decide` and `evolve` stay pure.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .errors import ConflictError, RuleViolation, UsageError
from .state import State, evolve, fold

if TYPE_CHECKING:
    from . import commands as c
from .store import NewEvent, SQLiteStore

# Facts that record a refusal: evidence, not table changes, so `undo` steps over them.
EVIDENCE = frozenset({"RentClaimRefused", "EventRetracted"})


@dataclass
class Outcome:
    events: list[dict]
    state: State
    refused: RuleViolation | None = None


def undo_events(events: list[dict]) -> list[dict]:
    """The EventRetracted fact that takes back the last command still in force (pure)."""
    from .state import retracted_seqs

    gone = retracted_seqs(events)
    by_command: dict[str, list[dict]] = {}
    order: list[str] = []
    for e in events:
        if e["seq"] in gone:
            continue
        cid = e["command_id"]
        if cid not in by_command:
            by_command[cid] = []
            order.append(cid)
        by_command[cid].append(e)
    for cid in reversed(order):
        evs = by_command[cid]
        if all(e["type"] in EVIDENCE for e in evs):
            continue
        if any(e["type"] == "GameStarted" for e in evs):
            break
        return [{"type": "EventRetracted",
                 "data": {"seqs": [e["seq"] for e in evs if e["type"] not in EVIDENCE],
                          "command_id": cid,
                          "reason": "undo: " + ", ".join(e["type"] for e in evs)}}]
    raise RuleViolation("nothing to undo: the game is as it was dealt",
                        allowed="the first roll is the first command that can be undone")


class Book:
    def __init__(self, path: str):
        self.store = SQLiteStore(path)
        self._events: dict[int, list[dict]] = {}
        self._state: dict[int, State] = {}

    def close(self) -> None:
        self.store.close()

    # --- games -------------------------------------------------------------------------------

    def current_game(self, game_id: int | None = None) -> int:
        games = self.store.games()
        if game_id is not None:
            if not any(g["game_id"] == game_id for g in games):
                known = ", ".join(str(g["game_id"]) for g in games) or "none yet"
                raise UsageError(f"no game {game_id} in this database (games: {known})")
            return game_id
        open_games = [g["game_id"] for g in games if not g["ended"]]
        if open_games:
            return open_games[-1]
        if games:  # all finished: the latest one, to look at (its rules refuse new moves)
            return games[-1]["game_id"]
        raise UsageError("no game in this database yet: start one with "
                         "`banco new PLAYER PLAYER ...`")

    def new_game(self, players: list[str], rules: str = "classic", edition: str = "it",
                 first_player: str | None = None, *, now: str, actor: str = "banker",
                 command_id: str | None = None) -> int:
        from .decide import start_game
        from .edition import load_edition
        from .rules import load_rules

        load_edition(edition)  # refuse an unknown edition before anything is written
        ruleset = load_rules(rules)
        events = start_game(players, ruleset, edition, first_player)
        game_id = self.store.next_game_id()
        self._append(game_id, 0, events, now=now, actor=actor, command_id=command_id)
        return game_id

    # --- reading -----------------------------------------------------------------------------

    def events(self, game_id: int) -> list[dict]:
        self._refresh(game_id)
        return self._events[game_id]

    def state(self, game_id: int, at: int | None = None) -> State:
        self._refresh(game_id)
        if at is None:
            return self._state[game_id]
        events = self._events[game_id]
        if not 1 <= at <= len(events):
            raise UsageError(f"game {game_id} has events 1 to {len(events)}; there is no event {at}")
        return fold(events[:at], game_id)

    def _refresh(self, game_id: int) -> None:
        known = self._events.get(game_id)
        if known is None:
            events = self.store.read(game_id)
            if not events:
                raise UsageError(f"no game {game_id} in this database")
            self._events[game_id] = events
            self._state[game_id] = fold(events, game_id)
            return
        new = self.store.read(game_id, after=len(known))
        if not new:
            return
        known.extend(new)
        if any(e["type"] == "EventRetracted" for e in new):
            self._state[game_id] = fold(known, game_id)
        else:
            state = self._state[game_id]
            for e in new:
                state = evolve(state, e)
            self._state[game_id] = state

    # --- writing -----------------------------------------------------------------------------

    def _append(self, game_id: int, expected: int, events: list[dict], *, now: str, actor: str,
                command_id: str | None) -> list[dict]:
        from .events import SCHEMA_VERSION, validate

        for e in events:
            validate(e["type"], e["data"])
        rows = self.store.append(
            game_id, expected, [NewEvent(e["type"], e["data"], SCHEMA_VERSION) for e in events],
            recorded_at=now, actor=actor, command_id=command_id or uuid.uuid4().hex)
        return rows

    def execute(self, game_id: int, command: c.Command, *, now: str, actor: str = "banker",
                command_id: str | None = None) -> Outcome:
        """Decide and append.  A refusal appends nothing, except the evidence it must leave."""
        from .decide import decide

        state = self.state(game_id)
        try:
            events = decide(state, command)
        except RuleViolation as refusal:
            if refusal.record:
                rows = self._append(game_id, state.seq, refusal.record, now=now, actor=actor,
                                    command_id=command_id)
                return Outcome(rows, self.state(game_id), refusal)
            raise
        rows = self._append(game_id, state.seq, events, now=now, actor=actor,
                            command_id=command_id)
        return Outcome(rows, self.state(game_id))

    def undo(self, game_id: int, *, now: str, actor: str = "banker",
             command_id: str | None = None) -> Outcome:
        state = self.state(game_id)
        events = undo_events(self._events[game_id])
        rows = self._append(game_id, state.seq, events, now=now, actor=actor,
                            command_id=command_id)
        return Outcome(rows, self.state(game_id))


__all__ = ["Book", "Outcome", "ConflictError", "undo_events"]
