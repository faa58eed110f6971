"""The book: a game's log in a store, the table folded from it, commands decided and appended.

I/O lives here and in the CLI; `decide` and `evolve` stay pure.

Every command is recorded as a batch in one transaction: first a CommandRecorded fact (the
line typed and the parsed command), then the facts it produced.  `decide` sees the table with
that CommandRecorded already applied (a no-op for `evolve`), so the seqs it puts in its facts
are the seqs they get.  Reading a game back as (command, facts) pairs: `Book.commands`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from .canonical import GENESIS
from .errors import ConflictError, DatabaseError, RuleViolation, UsageError
from .state import HANDLERS, State, evolve, fold
from .store import FORMAT, Appended, NewEvent, SQLiteStore
from .text import msg

if TYPE_CHECKING:
    from . import commands as c

COMMAND_RECORDED = "CommandRecorded"
# Facts that are evidence, not table changes: `undo` steps over them and never retracts them.
EVIDENCE = frozenset({"RentClaimRefused", "EventRetracted", COMMAND_RECORDED, "RulingRecorded"})
# Evidence a refused command leaves (RuleViolation.record): a retry of it is refused again.
REFUSAL_EVIDENCE = frozenset({"RentClaimRefused"})


@dataclass
class Outcome:
    events: list[dict]
    state: State
    refused: RuleViolation | None = None
    game_id: int | None = None
    replayed: bool = False  # an idempotent retry: these rows were recorded before, nothing new


class LastCommand(NamedTuple):
    """The last command recorded in a game, for `state` and the shell after a lost answer."""
    line: str | None  # None for rows written before commands were recorded
    command_id: str
    first_seq: int
    last_seq: int
    recorded_at: str
    types: tuple[str, ...]  # the facts, CommandRecorded left out


class RecordedCommand(NamedTuple):
    """One command of a game's log and the facts it produced (see `Book.commands`)."""
    command_id: str
    line: str | None  # the words as typed; None before commands were recorded
    command: dict | None  # the parsed command (command_codec.decode turns it back), or None
    recorded_seq: int | None  # seq of its CommandRecorded, None for a row written before
    events: list[dict]  # its facts in seq order, CommandRecorded left out


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
        facts = [e for e in evs if e["type"] not in EVIDENCE]
        typed = next((e["data"]["line"] for e in evs if e["type"] == COMMAND_RECORDED), None)
        reason = "undo: " + ", ".join(e["type"] for e in facts)
        if typed:
            reason += f" (`{typed}`)"
        return [{"type": "EventRetracted",
                 "data": {"seqs": [e["seq"] for e in facts], "command_id": cid,
                          "reason": reason}}]
    raise RuleViolation("nothing to undo: the game is as it was dealt",
                        allowed=msg("the first roll is the first command that can be undone"))


def command_recorded(line: str | None, command) -> dict:
    """The CommandRecorded fact for a command (None for `new` and `undo`)."""
    doc = None
    if command is not None:
        from .command_codec import encode

        doc = encode(command)
    return {"type": COMMAND_RECORDED, "data": {"line": line, "command": doc}}


class Book:
    """`create`: the file may be created by the first `new` (the CLI says so only for `new`).  `warn`: where warnings go (a
    broken hash chain, a newer format); the CLI prints them on stderr.  `wait`: seconds to
    wait for another writer (default 5, env BANCO_LOCK_WAIT)."""

    def __init__(self, path: str, *, create: bool = True,
                 warn: Callable[[str], None] | None = None, wait: float | None = None):
        self.store = SQLiteStore(path, create=create, wait=wait)
        self.warn = warn or (lambda message: None)
        self._events: dict[int, list[dict]] = {}
        self._state: dict[int, State] = {}
        self._warned: set = set()
        if self.store.format > FORMAT:
            self._warn_once("format", f"WARNING: {path} is format {self.store.format}, written "
                                      f"by a newer banco (this one knows format {FORMAT}): it "
                                      "can be read, not written")

    def close(self) -> None:
        self.store.close()

    def _warn_once(self, key, message: str) -> None:
        if key not in self._warned:
            self._warned.add(key)
            self.warn(message)

    # --- games -------------------------------------------------------------------------------

    def current_game(self, game_id: int | None = None) -> int:
        """The game commands address: `game_id` if it exists, else the latest unfinished game,
        else the latest (to look at; its rules refuse new moves).  Index lookups only."""
        if game_id is not None:
            if self.store.game(game_id) is None:
                known = _ranges([g["game_id"] for g in self.store.games()]) or "none yet"
                raise UsageError("no game {game} in this database (games: {known})", game=game_id,
                                 known=known)
            return game_id
        found = self.store.latest_game(unfinished=True) or self.store.latest_game(unfinished=False)
        if found is None:
            raise UsageError("no game in this database yet: start one with "
                             "`banco new PLAYER PLAYER ...`")
        return found

    def games(self) -> list[dict]:
        """Every game (store.games(): number, uuid, players, rules, edition, events, head,
        ended), without reading the log."""
        return self.store.games()

    def start(self, players: list[str], rules: str = "classic", edition: str | None = None,
              first_player: str | None = None, *, now: str, actor: str = "banker",
              command_id: str | None = None, line: str | None = None,
              game_uuid: str | None = None, final: bool = False) -> Outcome:
        """Start a game; Outcome.game_id is its number.  A repeated `command_id` returns the
        game it started (replayed).  `edition` None: the rule set's own (vintage: it-lire)."""
        import uuid

        from .decide import start_game
        from .edition import load_edition
        from .rules import BUILTIN, check_fit, load_rules

        if command_id is not None:
            done = self.store.game_of_command(command_id)
            if done is not None:
                return self._replayed(done, self.store.command_events(done, command_id))
        ruleset = load_rules(rules)
        if edition is None:
            edition = ruleset.edition
        board = load_edition(edition)  # refuse an unknown edition before anything is written
        if rules in BUILTIN:
            check_fit(ruleset, board)
        events = start_game(players, ruleset, edition, first_player, final)
        try:
            identity = str(uuid.UUID(game_uuid)) if game_uuid else str(uuid.uuid4())
        except ValueError:
            raise UsageError("{text!r} is not a uuid (e.g. {example})", text=game_uuid,
                             example=str(uuid.uuid4())) from None
        events[0]["data"]["game_uuid"] = identity
        rows = self._append(None, 0, [command_recorded(line, None), *events], now=now,
                            actor=actor, command_id=command_id)
        if rows.replayed:
            return self._replayed(rows.game_id, rows)
        return Outcome(rows, self.state(rows.game_id), game_id=rows.game_id)

    def new_game(self, players: list[str], rules: str = "classic", edition: str | None = None,
                 first_player: str | None = None, *, now: str, actor: str = "banker",
                 command_id: str | None = None, line: str | None = None) -> int:
        """`start`, returning only the game number."""
        return self.start(players, rules, edition, first_player, now=now, actor=actor,
                          command_id=command_id, line=line).game_id

    # --- reading -----------------------------------------------------------------------------

    def events(self, game_id: int) -> list[dict]:
        self._refresh(game_id)
        return self._events[game_id]

    def state(self, game_id: int, at: int | None = None) -> State:
        self._refresh(game_id)
        if at is None:
            return self._state[game_id]
        events = self._events[game_id]
        last = events[-1]["seq"]
        if not 1 <= at <= last:
            raise UsageError("game {game} has events 1 to {last}; there is no event {at}",
                             game=game_id, last=last, at=at)
        upto = [e for e in events if e["seq"] <= at]
        if all(e["type"] == COMMAND_RECORDED for e in upto):
            start = next(e["seq"] for e in events if e["type"] != COMMAND_RECORDED)
            raise UsageError("event {at} records the command that started game {game}; the table "
                             "exists from event {start}", at=at, game=game_id, start=start)
        return fold(upto, game_id)

    def _refresh(self, game_id: int) -> None:
        """Read what is new since the last call, check it against the hash chain (a break is
        warned about, loudly, once; the table is still shown) and fold it in."""
        known = self._events.get(game_id)
        after, prev = (known[-1]["seq"], known[-1]["hash"]) if known else (0, GENESIS)
        new, problem = self.store.read_checked(game_id, after, prev)
        if problem is not None:
            self._warn_once(("chain", game_id),
                            f"WARNING: game {game_id} event {problem.seq} {problem.problem}: "
                            "run `banco audit`")
        if known is None and not new:
            raise UsageError("no game {game} in this database", game=game_id)
        if not new:
            return
        for e in new:
            if e["type"] not in HANDLERS:
                raise DatabaseError(
                    "game {game} event {seq} has type {type!r} this banco does not know (written "
                    "by a newer banco?): upgrade banco to read this game", game=game_id,
                    seq=e["seq"], type=e["type"])
        if known is None:
            self._events[game_id] = new
            try:
                self._state[game_id] = fold(new, game_id)
            except ValueError as exc:
                raise DatabaseError("game {game} cannot be read: {exc}; run `banco audit`",
                                    game=game_id, exc=str(exc)) from None
            return
        known.extend(new)
        if any(e["type"] == "EventRetracted" for e in new):
            self._state[game_id] = fold(known, game_id)
        else:
            state = self._state[game_id]
            for e in new:
                state = evolve(state, e)
            self._state[game_id] = state

    def last_command(self, game_id: int) -> LastCommand | None:
        """The game's last recorded command: its line, seqs and time (two index lookups)."""
        rows = self.store.last_command(game_id)
        if not rows:
            return None
        first = rows[0]
        line = first["data"].get("line") if first["type"] == COMMAND_RECORDED else None
        return LastCommand(line, first["command_id"], first["seq"], rows[-1]["seq"],
                           rows[-1]["recorded_at"],
                           tuple(r["type"] for r in rows if r["type"] != COMMAND_RECORDED))

    def recorded(self, game_id: int, command_id: str) -> list[dict]:
        """The rows a command id recorded in a game (an index lookup), or []."""
        return self.store.command_events(game_id, command_id)

    def commands(self, game_id: int) -> Iterator[RecordedCommand]:
        """The game as (command, facts) pairs in order: a command's rows are contiguous (one
        transaction) and share its command_id; from format 2 the first is CommandRecorded.
        Rows written before that have line and command None."""
        batch: list[dict] = []
        for e in [*self.events(game_id), None]:
            if batch and (e is None or e["command_id"] != batch[0]["command_id"]):
                head = batch[0]
                if head["type"] == COMMAND_RECORDED:
                    yield RecordedCommand(head["command_id"], head["data"]["line"],
                                          head["data"]["command"], head["seq"], batch[1:])
                else:
                    yield RecordedCommand(head["command_id"], None, None, None, batch)
                batch = []
            if e is not None:
                batch.append(e)

    # --- writing -----------------------------------------------------------------------------

    def _append(self, game_id: int | None, expected: int, events: list[dict], *, now: str,
                actor: str, command_id: str | None) -> Appended:
        import uuid

        from .events import SCHEMA_VERSION, validate

        for e in events:
            validate(e["type"], e["data"])
        return self.store.append(
            game_id, expected, [NewEvent(e["type"], e["data"], SCHEMA_VERSION) for e in events],
            recorded_at=now, actor=actor, command_id=command_id or uuid.uuid4().hex)

    def _replayed(self, game_id: int, rows: list[dict]) -> Outcome:
        """What a retried command recorded the first time; a refusal is a refusal again."""
        facts = [r for r in rows if r["type"] != COMMAND_RECORDED]
        refused = None
        if facts and all(r["type"] in REFUSAL_EVIDENCE for r in facts):
            d = facts[0]["data"]
            reason, seq = d.get("reason", ""), facts[0]["seq"]
            refused = (RuleViolation("already recorded as refused (event {seq}): {reason}",
                                     seq=seq, reason=reason, rule=d.get("rule", "")) if reason
                       else RuleViolation("already recorded as refused (event {seq})", seq=seq,
                                          rule=d.get("rule", "")))
        return Outcome(list(rows), self.state(game_id), refused, game_id, replayed=True)

    def _prepare(self, game_id: int, command_id: str | None, expect: int | None):
        """The retry check (by index) and the --expect check, before deciding anything."""
        from .events import schemas

        # Built before the table is read, not between deciding and appending: the ~80 ms of
        # importing marshmallow would otherwise widen the window in which another terminal's
        # write turns this one into a conflict.
        schemas()
        if command_id is not None:
            done = self.store.command_events(game_id, command_id)
            if done:
                return self._replayed(game_id, done), None
        state = self.state(game_id)
        if expect is not None and state.seq != expect:
            last = self.last_command(game_id)
            what = (f"; the last command was `{last.line}` (events {last.first_seq}-"
                    f"{last.last_seq})" if last and last.line else "")
            template = ("game {game} has moved past event {expect}: it is at event {seq}{what}; "
                        "nothing was recorded: look at the table and retry"
                        if state.seq > expect else
                        "game {game} has not reached event {expect}: it is at event {seq}{what}; "
                        "nothing was recorded: look at the table and retry")
            raise ConflictError(template, game=game_id, expect=expect, seq=state.seq, what=what)
        return None, state

    def execute(self, game_id: int, command: c.Command, *, now: str, actor: str = "banker",
                command_id: str | None = None, line: str | None = None,
                expect: int | None = None) -> Outcome:
        """Decide and append.  A refusal appends nothing, except the evidence it must leave.

        `command_id`: an idempotency key (a repeat returns what it recorded, replayed=True).
        `expect`: the seq the caller saw; if the game is elsewhere, ConflictError.
        `line`: the words as typed, recorded in CommandRecorded with the parsed command."""
        from .decide import decide

        replayed, state = self._prepare(game_id, command_id, expect)
        if replayed:
            return replayed
        recorded = command_recorded(line, command)
        after_command = evolve(state, {**recorded, "seq": state.seq + 1})
        try:
            events = decide(after_command, command)
        except RuleViolation as refusal:
            if refusal.record:
                rows = self._append(game_id, state.seq, [recorded, *refusal.record], now=now,
                                    actor=actor, command_id=command_id)
                if rows.replayed:
                    return self._replayed(game_id, rows)
                return Outcome(rows, self.state(game_id), refusal, game_id)
            raise
        rows = self._append(game_id, state.seq, [recorded, *events], now=now, actor=actor,
                            command_id=command_id)
        if rows.replayed:
            return self._replayed(game_id, rows)
        return Outcome(rows, self.state(game_id), game_id=game_id)

    def undo(self, game_id: int, *, now: str, actor: str = "banker",
             command_id: str | None = None, line: str | None = None,
             expect: int | None = None) -> Outcome:
        """Retract the last command whose table facts are still in force (CommandRecorded and
        refusals' evidence are never retracted)."""
        replayed, state = self._prepare(game_id, command_id, expect)
        if replayed:
            return replayed
        events = undo_events(self._events[game_id])
        rows = self._append(game_id, state.seq, [command_recorded(line, None), *events],
                            now=now, actor=actor, command_id=command_id)
        if rows.replayed:
            return self._replayed(game_id, rows)
        return Outcome(rows, self.state(game_id), game_id=game_id)


def _ranges(numbers: list[int]) -> str:
    """1, 2, 3, 7 -> "1-3, 7": a long list of games stays one line."""
    out: list[str] = []
    for n in numbers:
        if out and int(out[-1].split("-")[-1]) == n - 1:
            out[-1] = f"{out[-1].split('-')[0]}-{n}"
        else:
            out.append(str(n))
    return ", ".join(out)


__all__ = ["Book", "Outcome", "LastCommand", "RecordedCommand", "ConflictError", "undo_events",
           "command_recorded"]
