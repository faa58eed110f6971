"""The book: a game's log in a store, the table folded from it, commands decided and appended.

I/O lives here and in the CLI; `decide` and `evolve` stay pure.

Every command is recorded as a batch in one transaction: first a CommandRecorded fact (the
line typed and the parsed command), then the facts it produced.  `decide` sees the table with
that CommandRecorded already applied (a no-op for `evolve`), so the seqs it puts in its facts
are the seqs they get.  Reading a game back as (command, facts) pairs: `Book.commands`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, NamedTuple

from banco.ledger.base.errors import ConflictError, DatabaseError, RuleViolation, UsageError
from banco.ledger.base.text import Fact, msg
from banco.ledger.batches import (
    COMMAND_RECORDED,
    EVIDENCE,
    REFEREE_FACTS,
    REFUSAL_EVIDENCE,
    LastCommand,
    RecordedCommand,
    command_recorded,
    commands_in,
    last_command_of,
    recorded_meanwhile,
    referee_actor,
    same_command,
    undo_events,
    undo_facts,
)
from banco.ledger.held_tables import HeldTable as _Table
from banco.ledger.held_tables import after_append, end_not_recorded, fold_onto, still_chained
from banco.ledger.held_tables import snapshot_of as _snapshot_of
from banco.ledger.log_reading import LogReading
from banco.ledger.records.upcast import upcast_rows
from banco.ledger.snapshot_check import table_from
from banco.ledger.store.canonical import GENESIS
from banco.ledger.store.chain import broken_warning, first_break
from banco.ledger.store.findings import BrokenChain
from banco.ledger.store.open import open_store
from banco.ledger.store.protocol import Appended, ChainProblem, EventStore, NewEvent
from banco.ledger.store.reading import last_command as last_command_rows
from banco.ledger.store.schema import FORMAT
from banco.ledger.table.state import HANDLERS, State, evolve, initial_state, retracted_seqs

if TYPE_CHECKING:
    from banco.ledger.records import commands as c


class Outcome(NamedTuple):
    """What a command did: its rows, the table after them, a refusal that left evidence."""
    events: list[dict]
    state: State
    refused: RuleViolation | None = None
    game_id: int | None = None
    replayed: bool = False  # an idempotent retry: these rows were recorded before, nothing new


class Book(LogReading):
    """`create`: the file may be created by the first `new` (the CLI says so only for `new`).  `warn`: where warnings go (a
    broken hash chain, a newer format); the CLI prints them on stderr.  `wait`: seconds to
    wait for another writer (default 5, env BANCO_LOCK_WAIT)."""

    def __init__(self, path: str, *, create: bool = True,
                 warn: Callable[[str], None] | None = None, wait: float | None = None,
                 store: EventStore | None = None):
        # `store`: an open one to read through (the audit's); else the one `path` names
        self.store: EventStore = (store if store is not None
                                  else open_store(path, create=create, wait=wait))
        self.warn = warn or (lambda message: None)
        self._events: dict[int, list[dict]] = {}
        self._tables: dict[int, _Table] = {}
        # Tables shown at command boundaries: an undo starts again from the one before it.
        self._marks: dict[int, list[_Table]] = {}
        self._warned: set = set()
        self._sound: dict[int, int] = {}  # game -> data_version its held rows were sound at
        self.broken: dict = {}  # game -> the first ChainProblem its reads met: no write on it
        if self.store.format > FORMAT:
            self._warn_once("format", msg("WARNING: {path} is format {found}, written by a "
                                          "newer banco (this one knows format {format}): it can "
                                          "be read, not written", path=path,
                                          found=self.store.format, format=FORMAT))

    def close(self) -> None:
        self.store.close()

    def _warn_once(self, key, message: str) -> None:
        if key not in self._warned:
            self._warned.add(key)
            self.warn(message)

    @contextmanager
    def warnings_held(self) -> Iterator[Callable[[], None]]:
        """The warnings of a reading that may be thrown away (the report's page, drawn before
        the audit's verdict), held back: calling what this yields keeps them, said on leaving;
        else they are forgotten, as if never warned (said again if they come again)."""
        warn, warned, held, kept = self.warn, set(self._warned), [], []
        self.warn = held.append
        try:
            yield lambda: kept.append(True)
        finally:
            self.warn = warn
            if not kept:
                self._warned = warned
            for message in held if kept else ():
                warn(message)

    # --- games -------------------------------------------------------------------------------

    def current_game(self, game_id: int | None = None) -> int:
        """The game commands address: `game_id` if it exists, else the latest unfinished game,
        else the latest (to look at; its rules refuse new moves).  Index lookups only."""
        if game_id is not None:
            if self.store.game(game_id) is None:
                from banco.ledger.base.numbers import ranges

                known = ranges([g["game_id"] for g in self.store.games()]) or "none yet"
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

    def game(self, game_id: int) -> dict | None:
        """One game as `games` lists it (an index lookup), or None."""
        return self.store.game(game_id)

    @property
    def shown(self) -> str:
        """The database as the user is told of it (a URL without its password)."""
        return self.store.shown

    def explain(self, exc: Exception) -> DatabaseError:
        """A database error met while reading, as the store words it (which file, what to do)."""
        return self.store.explain(exc, writing=False)

    def start(self, players: list[str], rules: str = "classic", edition: str | None = None,
              first_player: str | None = None, *, now: str, actor: str = "banker",
              command_id: str | None = None, line: str | None = None,
              game_uuid: str | None = None, final: bool = False) -> Outcome:
        """Start a game; Outcome.game_id is its number.  A repeated `command_id` returns the
        game it started (replayed).  `edition` None: the rule set's own (vintage: it-lire)."""
        import uuid

        from banco.ledger.board.edition import load_edition
        from banco.ledger.board.rule_sets import BUILTIN, check_fit, load_rules
        from banco.ledger.rules.decide import start_game

        if command_id is not None:
            done = self.store.find_game(command_id=command_id)
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

    def game_started_by(self, command_id: str) -> int | None:
        """The game a command id started (an idempotent `new`), or None."""
        return self.store.find_game(command_id=command_id)

    def new_game(self, players: list[str], rules: str = "classic", edition: str | None = None,
                 first_player: str | None = None, *, now: str, actor: str = "banker",
                 command_id: str | None = None, line: str | None = None) -> int:
        """`start`, returning only the game number."""
        return self.start(players, rules, edition, first_player, now=now, actor=actor,
                          command_id=command_id, line=line).game_id

    # --- reading -----------------------------------------------------------------------------

    def events(self, game_id: int) -> list[dict]:
        """A game's whole log (read once, then only what is new), checked against the chain."""
        known = self._events.get(game_id)
        after, prev = (known[-1]["seq"], known[-1]["hash"]) if known else (0, GENESIS)
        new = self._read(game_id, after, prev)
        if known is None:
            if not new:
                raise UsageError("no game {game} in this database", game=game_id)
            known = self._events[game_id] = []
        known.extend(new)
        return known

    def events_after(self, game_id: int, seq: int) -> list[dict]:
        """The events after `seq` (what another terminal appended): an index range."""
        return upcast_rows(self.store.read(game_id, seq))

    def state(self, game_id: int, at: int | None = None, undone: list | None = None) -> State:
        """The table of a game now, or as it was after event `at` (ledger/log_reading.py)."""
        if at is None:
            return self._table(game_id).state
        return self._table_at(game_id, at, undone)

    def _read(self, game_id: int, after: int, prev: str, limit: int | None = None) -> list[dict]:
        """Rows after `after`, checked against the chain (a break is warned about, loudly,
        once: the table is still shown, no write made on it) and against the fold's types."""
        new = self.store.read(game_id, after, limit=limit, prev_hash=prev)
        self._note_break(game_id, new.problem)
        for e in new:
            if e["type"] not in HANDLERS:
                raise DatabaseError(
                    "game {game} event {seq} has type {type!r} this banco does not know (written "
                    "by a newer banco?): upgrade banco to read this game", game=game_id,
                    seq=e["seq"], type=e["type"])
        return upcast_rows(new)  # an older row's facts as today's (the row stays as stored)

    def _note_break(self, game_id: int, problem: ChainProblem | None) -> None:
        if problem is not None:
            self.broken[game_id] = first_break(self.broken.get(game_id), problem)
            self._warn_once(("chain", game_id), broken_warning(game_id, problem))

    # A snapshot of the table every SNAPSHOT_EVERY events (ledger/table/snapshot_codec.py): a
    # command folds only what came after the newest one it can trust.  On a 300,000-event game
    # an event read, checked and folded costs ~19 us, a snapshot ~0.23 ms and ~2.3 KB: at 500
    # a cold command folds at most ~10 ms more, a write pays 0.23 ms once in 500 events.
    SNAPSHOT_EVERY = 500

    MARKS = 16  # tables kept per game for undo: a banker rarely takes back more in a row

    def _table(self, game_id: int) -> _Table:
        table = self._tables.get(game_id)
        if table is None:  # read and checked whole now: sound while nobody else writes
            version = self.store.data_version()
            # the games table's row read before the log: a command appended between the two
            # readings then shows as a log longer than the row, never as a cut or a rewrite
            recorded = self.store.game(game_id)
            table = self._load(game_id)
            self._note_break(game_id, end_not_recorded(recorded, table))
            if version is not None and game_id not in self.broken:
                self._sound[game_id] = version
        else:
            table = self._catch_up(game_id, table)
        self._tables[game_id] = table
        marks = self._marks.setdefault(game_id, [])
        if not marks or marks[-1].state.seq != table.state.seq:
            marks.append(table)
            del marks[:-self.MARKS]
        return table

    def _catch_up(self, game_id: int, table: _Table) -> _Table:
        new = self._read(game_id, table.state.seq, table.head)
        if not new:
            return table
        gone = retracted_seqs(new)
        if gone and min(gone) <= table.state.seq:  # an undo of what the table holds
            return self._from_mark(game_id, min(gone), table.snap_seq) or self._load(game_id)
        return table._replace(state=fold_onto(table.state, new, gone), head=new[-1]["hash"])

    def _from_mark(self, game_id: int, first_gone: int, snap_seq: int) -> _Table | None:
        """The table from the newest mark before the first retracted event, and the rows after
        it (None when no mark is that old, or a retraction after it reaches behind it)."""
        marks = self._marks.get(game_id, [])
        for mark in reversed(marks):
            if mark.state.seq >= first_gone:
                continue
            # the newer ones hold what is now taken back: of no use to any later undo
            marks[:] = [m for m in marks if m.state.seq <= mark.state.seq]
            rows = self._read(game_id, mark.state.seq, mark.head)
            gone = retracted_seqs(rows)
            if gone and min(gone) <= mark.state.seq:
                return None
            head = rows[-1]["hash"] if rows else mark.head
            return _Table(fold_onto(mark.state, rows, gone), head, snap_seq)
        return None

    def _load(self, game_id: int) -> _Table:
        """The table from the newest snapshot bound to the log (snapshot_binding.py) that no
        later undo reaches behind, and the rows after it; else folded from the start, in
        chunks."""
        from banco.ledger.table.snapshot_codec import shape

        started = self.game_start(game_id)
        if started is None:
            if self.store.last_seq(game_id) == 0:
                raise UsageError("no game {game} in this database", game=game_id)
            raise DatabaseError("game {game} cannot be read: its log does not begin with "
                                "GameStarted; run `banco audit`", game=game_id)
        try:
            base = initial_state(game_id, started)
        except ValueError as exc:
            raise DatabaseError("game {game} cannot be read: {exc}; run `banco audit`",
                                game=game_id, exc=str(exc)) from None
        for snap in self.store.snapshots(game_id):
            if snap.format != shape():
                continue  # written by a banco whose table had another shape: rebuilt below
            state = table_from(self.store, game_id, snap, base, self._warn_once)
            if state is None:
                continue  # not this log's, or edited: an older one, or the fold
            new = self._read(game_id, snap.seq, snap.head)
            gone = retracted_seqs(new)
            if gone and min(gone) <= snap.seq:
                continue  # an undo reaches behind it: an older one
            head = new[-1]["hash"] if new else snap.head
            return _Table(fold_onto(state, new, gone), head, snap.seq)
        return self._fold_all(game_id, base)

    def _fold_all(self, game_id: int, base: State) -> _Table:
        # A long game without a snapshot bound to its chain is not given one here: only the
        # append that writes an event can bind one to it (its table digest), so the next
        # command keeps one (snap_seq 0: it is due).
        state, after, head = self._fold_from_start(game_id, base, self.retracted_seqs(game_id))
        return _Table(state, head, 0)

    def _snapshot_after(self, game_id: int, written: list[dict]) -> tuple[str, str, str] | None:
        """Inside the append: the table after the rows just written, as a snapshot, when the
        game has gone SNAPSHOT_EVERY events past the last one (None otherwise).  The rows are
        not hashed yet: the last one is to carry the snapshot's digest (ledger/store/chain.py
        chain_rows), so the table's head is set once the append has returned."""
        table = self._tables.get(game_id)
        if table is None or written[-1]["seq"] - table.snap_seq < self.SNAPSHOT_EVERY \
                or written[0]["seq"] != table.state.seq + 1:
            return None
        gone = retracted_seqs(written)
        if gone and min(gone) <= table.state.seq:
            return None  # an undo: the next command that reads the table leaves one
        state = fold_onto(table.state, written, gone, decided=True)
        kept = _snapshot_of(state)
        if kept is not None:
            self._tables[game_id] = _Table(state, None, written[-1]["seq"])
        return kept

    def last_command(self, game_id: int) -> LastCommand | None:
        """The game's last recorded command: its line, seqs and time (two index lookups)."""
        return last_command_of(last_command_rows(self.store, game_id))

    def recorded(self, game_id: int, command_id: str) -> list[dict]:
        """The rows a command id recorded in a game (an index lookup), or []."""
        return self.store.command_events(game_id, command_id)

    def commands(self, game_id: int) -> Iterator[RecordedCommand]:
        """The game as (command, facts) pairs in order (ledger/batches.py commands_in)."""
        return commands_in(self.events(game_id))

    # --- writing -----------------------------------------------------------------------------

    _guards_seen = False

    def _look_at_guards(self) -> None:
        """Once a book, before its first write: a log whose triggers were dropped or switched
        off lets recorded rows be changed with no trace but the chain's.  The command is still
        recorded (the game goes on), and the banker is told, at every new process, until
        `doctor --repair` puts them back."""
        if self._guards_seen:
            return
        self._guards_seen = True
        missing = self.store.checks().missing_guards()
        if missing:
            self._warn_once("guards", msg(
                "WARNING: the log's guard {names} is missing: a recorded row can be changed or "
                "deleted with no trace but the chain's (recorded all the same; `banco doctor` "
                "says how to put it back)", names=", ".join(missing)))

    def _append(self, game_id: int | None, expected: int, events: list[dict], *, now: str,
                actor: str, command_id: str | None) -> Appended:
        import uuid

        from banco.ledger.records.events import SCHEMA_VERSION, validate
        from banco.ledger.table.read_rows import read_model_rows

        for e in events:  # what decide wrote, held to its schema before it is kept
            validate(e["type"], e["data"])
        self._look_at_guards()
        snapshot = None if game_id is None else (lambda rows: self._snapshot_after(game_id, rows))
        held = self._tables.get(game_id) if game_id is not None else None
        seats = list(held.state.seats) if held is not None else None  # the games row's players
        try:
            appended = self.store.append(
                game_id, expected, [NewEvent(e["type"], e["data"], SCHEMA_VERSION)
                                    for e in events],
                recorded_at=now, actor=actor, command_id=command_id or uuid.uuid4().hex,
                snapshot=snapshot,
                read_model=lambda rows: read_model_rows(self.store, rows, seats))
            if appended and not appended.replayed and appended[0]["recorded_at"] != now:
                self._warn_once(("clock", game_id), msg(
                    "WARNING: this computer's clock reads {now}, before game {game}'s last "
                    "event: recorded at {at}, since a game's times never go back; set the "
                    "clock", now=now, game=appended.game_id, at=appended[0]["recorded_at"]))
            table = self._tables.get(game_id) if game_id is not None else None
            if table is not None:
                after = after_append(table, expected, appended)
                if after is None:
                    self._tables.pop(game_id, None)
                else:
                    self._tables[game_id] = after
            return appended
        except BaseException:
            if game_id is not None:  # the snapshot's table was not written: read it again
                self._tables.pop(game_id, None)
            raise

    def _replayed(self, game_id: int, rows: list[dict]) -> Outcome:
        """What a retried command recorded the first time; a refusal is a refusal again."""
        facts = [r for r in rows if r["type"] != COMMAND_RECORDED]
        refused = None
        if facts and all(r["type"] in REFUSAL_EVIDENCE for r in facts):
            d, edition = facts[0]["data"], self.state(game_id).edition  # says the reason's squares
            reason, seq = d.get("reason", ""), facts[0]["seq"]
            refused = (RuleViolation("already recorded as refused (event {seq}): {reason}",
                                     seq=seq, reason=Fact(reason, edition=edition), rule=d.get("rule", "")) if reason
                       else RuleViolation("already recorded as refused (event {seq})", seq=seq,
                                          rule=d.get("rule", "")))
        return Outcome(list(rows), self.state(game_id), refused, game_id, replayed=True)

    def _prepare(self, game_id: int, command_id: str | None, expect: int | None,
                 command: dict | None = None, ruling=None):
        """The retry check (by index) and the --expect check, before deciding anything.
        `command`: the CommandRecorded data the command would record, to tell a retry (the
        same command again) from an id given again to another command.  `ruling`: a
        RecordRuling, answered as recorded when the same ruling is (`_ruled_before`)."""
        if command_id is not None:
            done = self.store.command_events(game_id, command_id)
            if done:
                same_command(done, command_id, command)
                return self._replayed(game_id, done), None
        if ruling is not None and (same := self._ruled_before(game_id, ruling)) is not None:
            # like a retry, before --expect: nothing would be appended whatever the game's seq
            return Outcome([same], self.state(game_id), None, game_id, replayed=True), None
        held = self._tables.get(game_id)  # read by an earlier command: edited in place since?
        state = self.state(game_id)  # checked against the chain from its snapshot or start
        self._note_break(game_id, still_chained(self.store, game_id, held, self._sound))
        if game_id in self.broken:
            raise BrokenChain(game_id, self.broken[game_id])
        if expect is not None and state.seq != expect:
            if done := recorded_meanwhile(self.store, game_id, command_id, command):
                return self._replayed(game_id, done), None
            last = self.last_command(game_id)
            # each sentence whole, for the catalogs (the Italian was missing: a trial's `tira`)
            what = (msg("; the last command was `{line}` (events {first}-{last})",
                        line=last.line, first=last.first_seq, last=last.last_seq)
                    if last and last.line else "")
            if state.seq > expect:
                raise ConflictError("game {game} has moved past event {expect}: it is at event "
                                    "{seq}{what}; nothing was recorded: look at the table and "
                                    "retry", game=game_id, expect=expect, seq=state.seq,
                                    what=what)
            raise ConflictError("game {game} has not reached event {expect}: it is at event "
                                "{seq}{what}; nothing was recorded: look at the table and retry",
                                game=game_id, expect=expect, seq=state.seq, what=what)
        return None, state

    def _ruled_before(self, game_id: int, ruling: c.RecordRuling) -> dict | None:
        """The row of the same ruling recorded before and not undone: the same referee, the
        same kind, the same event, the same verdict as data.  The same ruling twice is one
        fact, answered as recorded (as a retry is), whoever asks: a trial's events 304 and 319
        were one.  Checked here and not by `decide`, so that the older logs that hold such a
        pair still audit clean."""
        import json

        verdict = ruling.verdict
        if isinstance(verdict, str):  # an older command's English: the verdict it reads as
            from banco.ledger.records.verdict_prose import verdict_from_prose

            verdict = verdict_from_prose(verdict)
        verdict = json.loads(json.dumps(verdict))  # as a recorded fact holds it: lists
        rows = self.rows_of_type(game_id, "RulingRecorded")
        if not rows:
            return None
        undone = {s for r in self.rows_of_type(game_id, "EventRetracted")
                  for s in r["data"]["seqs"]}
        return next((row for row in upcast_rows(rows)
                     if row["seq"] not in undone and row["data"]["kind"] == ruling.kind
                     and row["data"]["subject_seq"] == ruling.subject
                     and row["data"]["referee"] == ruling.referee
                     and row["data"]["verdict"] == verdict), None)

    def execute(self, game_id: int, command: c.Command, *, now: str, actor: str = "banker",
                command_id: str | None = None, line: str | None = None,
                expect: int | None = None, check=None) -> Outcome:
        """Decide and append.  A refusal appends nothing, except the evidence it must leave.

        `command_id`: an idempotency key (a repeat returns what it recorded, replayed=True).
        `expect`: the seq the caller saw; if the game is elsewhere, ConflictError.
        `line`: the words as typed, recorded in CommandRecorded with the parsed command.
        `check(state)`: the caller's permission check, on the very table the command is
        decided on (the append is refused if the game moved past it), raising to refuse."""
        from banco.ledger.rules.decide import decide

        referee = getattr(command, "referee", None)
        if isinstance(referee, str):  # a referee's command is recorded in the referee's name
            actor = referee_actor(referee)
        recorded = command_recorded(line, command)
        from banco.ledger.records.commands import RecordRuling

        replayed, state = self._prepare(game_id, command_id, expect, recorded["data"],
                                        command if isinstance(command, RecordRuling) else None)
        if replayed:
            return replayed
        if check is not None:  # on `state`: a write between a check and the append cannot
            check(state)  # make the command act for a player the check did not see
        after_command = evolve(state, {**recorded, "seq": state.seq + 1})
        try:
            events = decide(after_command, command)
        except RuleViolation as refusal:
            if done := recorded_meanwhile(self.store, game_id, command_id, recorded["data"]):
                return self._replayed(game_id, done)
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
             expect: int | None = None, check=None) -> Outcome:
        """Retract the last command whose table facts are still in force (CommandRecorded and
        refusals' evidence are never retracted).  `check(state)`: as execute's."""
        replayed, state = self._prepare(game_id, command_id, expect,
                                        command_recorded(line, None)["data"])
        if replayed:
            return replayed
        if check is not None:
            check(state)
        try:
            events = undo_facts(self.backwards(game_id, state.seq + 1))
        except RuleViolation:
            if done := recorded_meanwhile(self.store, game_id, command_id,
                                          command_recorded(line, None)["data"]):
                return self._replayed(game_id, done)
            raise
        rows = self._append(game_id, state.seq, [command_recorded(line, None), *events],
                            now=now, actor=actor, command_id=command_id)
        if rows.replayed:
            return self._replayed(game_id, rows)
        return Outcome(rows, self.state(game_id), game_id=game_id)


# Names other modules have always taken from here (the batch facts live in ledger/batches.py).
__all__ = ["Book", "Outcome", "LastCommand", "RecordedCommand", "ConflictError", "undo_events",
           "undo_facts", "command_recorded", "referee_actor", "COMMAND_RECORDED", "EVIDENCE",
           "REFEREE_FACTS", "REFUSAL_EVIDENCE"]
