"""The audit: is this the history that was written, and could it have been written?

One pass over a game's rows, in seq order, streamed from the file (bounded memory however long
the game), names the first bad seq:

1. the hash chain: no row missing, moved or changed (ledger/store/canonical.py; the rows are
   read and checked by projections/audit/rows.py);
2. the data: JSON, an object, no float, the event's schema (marshmallow, an older row as read by
   its upcaster: ledger/records/upcast.py), but for a fact equal to the one its command gives;
3. re-derivation (projections/audit/rederive.py): every recorded command worked out again on the
   table before it and compared with the facts recorded (an older row upcast), as data, so that a
   forged fact, forged dice or forged money is found even in a chain re-computed after the
   forgery; facts with no command before them, or after the end where no command can put
   them, are named too;
4. the fold, with everything checked after every event (projections/audit/checks.py): amounts
   against the rules, the books account by account, the table it leaves.

The table is folded as it stood when each command was decided: an undo takes the table back
to a checkpoint before what it retracts and folds forward again without it, as the book did
at the time.  Rows from before commands were recorded (chain version 1: games of banco's
format 1) get checks 1, 2 and 4, and the report says which events could not be re-derived.

`audit_database` audits every game of a file and what the file holds beside the games: the
triggers that keep the log append-only, the games table (a mutable index: its last seq and
head are checked against the log, so a log cut short is caught), the tournaments' own chains.
Snapshots are never a starting point: the audit folds from the first event.  But `state`,
`standings` and every command start from a snapshot whose head matches the log, so the pass
holds each one to the log as it goes (`snapshots`): its head to the chain's hash at its seq
(another one: the history was rewritten since), its table to the table folded there (another
one: the snapshot was edited, and what the book shows with it is not the log's).
"""

from __future__ import annotations

import gc
import json
import threading
from collections import deque
from collections.abc import Iterable, Iterator
from typing import NamedTuple

from banco.ledger.base.text import Joined, msg
from banco.ledger.book import referee_actor
from banco.ledger.records.upcast import SCHEMA_VERSION, upcast
from banco.ledger.table.state import HANDLERS, State, initial_state, unfoldable_why
from banco.projections.audit.checks import EventChecks
from banco.projections.audit.command_rows import referee_of, sales_as_logged
from banco.projections.audit.kept_tables import KeptTables
from banco.projections.audit.rederive import (
    Context,
    Derived,
    Recorded,
    Refused,
    expected_facts,
    first_difference,
    plain,
)
from banco.projections.audit.results import AuditReport, AuditStop
from banco.projections.audit.rows import DictRows, reason

COMMAND = "CommandRecorded"
# What may follow the end of a game: an undo (it may take back the command that ended it), a
# referee's corrections and rulings, a seal.  Everything else is refused by every command.
AFTER_THE_END = frozenset({COMMAND, "EventRetracted", "RulingRecorded", "CashCorrected",
                           "PositionCorrected", "OwnerCorrected", "SealRecorded"})

_NOTHING = object()
# the facts whose fold the audit follows itself (GameAudit._check): the game's end, an undo
_FOLD_MARKS = frozenset({"GameEnded", "EventRetracted"})


# --- one game --------------------------------------------------------------------------------

class _Checkpoint(NamedTuple):
    """The table and the checks (EventChecks.mark: nothing copied) as they stood after
    event `seq`: what an undo goes back to before folding forward again without what it
    retracts.  One is made before every command, by position (_new_tuple), read only by an
    undo."""
    seq: int
    state: State
    checks: tuple
    ended_at: int | None


_new_tuple = tuple.__new__


# An undo takes back the last command still in force: the table before each of the last few
# commands is kept, and one every CHECKPOINT_EVERY events for undos that go further back; one
# reaching behind all of them folds again from the start.  Bounded memory.  Module globals: a
# test makes them small.
RECENT_COMMANDS = 24
CHECKPOINT_EVERY = 1024
CHECKPOINTS = 8
WINDOW = 512  # the last rows, for an undo to look back at without reading them again


class GameAudit(KeptTables):
    """The audit of one game's rows (`rows`: the store's RawRows, or DictRows).

    A row is checked against the chain as it is read, from its data as stored text.  Its
    data is parsed when it is needed: a fact whose stored text is exactly what its command
    gives (the canonical JSON of the fact decide works out) is not parsed at all, the fact
    decide worked out is the one checked; a command's text already seen is decoded once."""

    def __init__(self, game_id: int, rows, expect_head: str | None = None, *,
                 hashes_checked: bool = False, snapshots: Iterable | None = None):
        super().__init__(game_id, rows, expect_head, hashes_checked=hashes_checked,
                         snapshots=snapshots)
        # the table as it stood when the next command was decided, and its checks (both None
        # before GameStarted, neither after)
        self.state: State | None = None
        self.checks: EventChecks | None = None
        self.gone: set[int] = set()
        self.checkpoints: deque[_Checkpoint] = deque(maxlen=CHECKPOINTS)
        self.recent: deque[_Checkpoint] = deque(maxlen=RECENT_COMMANDS)
        self.last_checkpoint = 0
        self.window: deque[dict] = deque(maxlen=WINDOW)
        self._pending: list[dict] = []  # the command being judged
        self.ended_at: int | None = None
        self.uuid: str | None = None
        self.unrecorded: list[int] = []  # first and last seq of facts with no command recorded
        self.commands = 0
        # a CommandRecorded's text -> (its data, checked once; its referee or None)
        self._said: dict = {}
        self._ctx: Context | None = None  # what the re-derivers look at (_recorded)

    # the pass

    def run(self) -> AuditReport:
        """The pass over the rows, the cyclic collector off while it runs (then as it was):
        the pass leaves no cycle behind it row by row (tests/test_audit_pass.py counts
        them), so the collections the rows' dicts and the tables set off found nothing, at
        1.6% of the pass.  Only when this is the process's one thread (`banco audit`, the
        import's audit process): the switch is process-wide, and in `serve` another thread's
        cycles would wait for the pass's end."""
        collecting = gc.isenabled() and threading.active_count() == 1
        if collecting:
            gc.disable()
        try:
            return self._pass()
        finally:
            # the context's bound methods hold the audit: let go, it is freed by its count
            self._ctx = None
            if collecting:
                gc.enable()

    def _pass(self) -> AuditReport:
        batch: list[dict] = []
        cid = _NOTHING  # the command id of the rows in batch
        tabled = False  # a row of the batch records a table digest
        try:
            for raw in self.rows:
                try:
                    row = self._row(raw)
                except AuditStop:
                    if batch:  # a bad row: what came before it in its command may be worse
                        self._command(batch, partial=True, tabled=tabled)
                    raise
                if row["command_id"] != cid:  # a command's rows share its id
                    if batch:
                        self._command(batch, tabled=tabled)
                        batch, tabled = [], False
                    cid = row["command_id"]
                batch.append(row)
                if "table" in row:
                    tabled = True
            if batch:
                self._command(batch, tabled=tabled)
            self._finish()
        except AuditStop as halt:
            return self._report(halt.seq, halt.problem)
        return self._report(None, None)

    def _report(self, seq, problem) -> AuditReport:
        notes = list(self.expect_notes)
        if self.unrecorded:
            first, last = self.unrecorded
            notes.append(
                msg("event {first} predates recorded commands: not re-derived (chain, schemas, "
                    "fold and checks only)", first=first) if first == last else
                msg("events {first}-{last} predate recorded commands: not re-derived (chain, "
                    "schemas, fold and checks only)", first=first, last=last))
        return AuditReport(self.game_id, self.count, self.prev, seq, problem, notes,
                           self.commands, self.uuid)

    def _finish(self) -> None:
        if self.count == 0:
            self._no_rows_head()
            return
        if self.state is None:
            raise AuditStop(1, msg("the log does not begin with GameStarted"))
        self._head_at_the_end()

    # a command: re-derived, then folded and checked event by event

    def _command(self, batch: list[dict], partial: bool = False, tabled: bool = True) -> None:
        """`tabled`: a row of the batch may record a table digest (run knows which do)."""
        first = batch[0]
        self._pending = batch
        if self.state is not None:
            checks = self.checks
            assert checks is not None  # made with the table, at GameStarted
            point = _new_tuple(_Checkpoint, (first["seq"] - 1, self.state, checks.mark(),
                                             self.ended_at))
            self.recent.append(point)
            if point.seq - self.last_checkpoint >= CHECKPOINT_EVERY:
                self.checkpoints.append(point)
                self.last_checkpoint = point.seq
        # Commands are recorded beside their facts from chain version 2 (banco's format 2):
        # older rows are folded and checked, not re-derived.
        if first["type"] != COMMAND or first["chain"] < 2:
            self._unrecorded(batch)
        else:
            # a command and its facts are written in one transaction, at one time, by one
            # hand (the loop here, not in a call: a call a command)
            actor, at = first["actor"], first["at"]
            for r in batch:
                if r["actor"] != actor or r["at"] != at:
                    self._two_hands(first, r)
            self._recorded(batch, partial)
        self.window.extend(batch)
        if tabled and any("table" in r for r in batch):
            self._table_digest(batch)
        if self.snapshots is not None and not partial:
            snap = self.snapshots.get(batch[-1]["seq"])
            if snap is not None:
                self._snapshot_table(snap)

    def _unrecorded(self, batch: list[dict]) -> None:
        for row in batch:
            self._data(row)
            problems = self._after_the_end(row) + self._apply(row)
            if row["chain"] >= 2:
                problems.append(msg("{type} was recorded with no command before it (every "
                                    "command since banco's format 2 records a CommandRecorded "
                                    "first): no command produced it", type=row["type"]))
            if problems:
                raise AuditStop(row["seq"], Joined(problems))
            if not self.unrecorded:
                self.unrecorded = [row["seq"], row["seq"]]
            self.unrecorded[1] = row["seq"]

    @staticmethod
    def _two_hands(first: dict, r: dict) -> None:
        """Row `r` of the command `first` begins is in another hand or time than it."""
        raise AuditStop(r["seq"], msg(
            "recorded by {actor} at {at}, but its command (event {seq}) by {by} at "
            "{when}: a command's facts are written at once, by one hand; the row was "
            "rewritten", actor=repr(r["actor"]), at=r["at"], seq=first["seq"],
            by=repr(first["actor"]), when=first["at"]))

    def _in_whose_name(self, cr: dict, referee) -> None:
        """A referee's command is recorded in the referee's name, and no other is: a referee's
        name on the banker's command (or another name on a referee's) was written by hand.
        `referee`: the command's (command_rows.py referee_of), None for the banker's."""
        actor = cr["actor"]
        if referee is not None:
            if actor != referee_actor(referee):
                raise AuditStop(cr["seq"], msg(
                    "it is referee {referee}'s command, but it is recorded by {actor}: the row "
                    "was rewritten", referee=referee, actor=repr(actor)))
        elif isinstance(actor, str) and actor.startswith("referee:"):
            raise AuditStop(cr["seq"], msg(
                "it is recorded in the name of {actor}, but it is not a referee's command: "
                "the row was rewritten", actor=actor))

    def _recorded(self, batch: list[dict], partial: bool) -> None:
        cr, facts = batch[0], batch[1:]
        known = self._said.get(cr["text"])
        if known is None:  # a command's text is read, and its referee found, once a text
            data = self._data(cr)
            known = (data, referee_of(data))
            if len(self._said) > 4096:
                self._said.clear()
            self._said[cr["text"]] = known
        said, referee = known
        cr["data"] = said
        actor = cr["actor"]
        if referee is not None or isinstance(actor, str) and actor.startswith("referee:"):
            self._in_whose_name(cr, referee)  # (the banker's, most commands: nothing to say)
        checks = self.checks
        if checks is not None and checks.clean is not None \
                and checks.books.balanced is not None:
            # What checks.after(table, cr, table) would do once a table has passed and every
            # event since has: a CommandRecorded folds to the very table it follows (HANDLERS
            # gives it _nothing), moves no money (its schema, held above, has no transfers),
            # names no amount and leaves play as it was (Books.SETUP): every check would look
            # at values that passed after the event before.  It is the event before the next.
            checks.previous = cr
        else:
            problems = self._check(cr, self.state) if self.state is not None \
                else self._apply(cr)
            if problems:
                raise AuditStop(cr["seq"], Joined(problems))
        line = said.get("line")
        # by position: a named tuple's own constructor is a Python call a command
        recorded = _new_tuple(Recorded, (cr["seq"], line, said.get("command"), facts,
                                         cr["text"]))
        ctx = self._ctx  # one a game: what changes from one command to the next, set here
        if ctx is None:
            ctx = self._ctx = Context(self.game_id, self.state, self._before, self._hash_at,
                                      self.uuid, self._data)
        ctx.state, ctx.seq, ctx.identity = self.state, cr["seq"], self.uuid
        try:
            expected = expected_facts(ctx, recorded)
        except Refused as refused:
            if partial and not facts:
                return  # its facts begin with the bad row: nothing to judge
            why = reason(refused)
            if not facts:
                raise AuditStop(cr["seq"], msg("{who} is recorded, but {why} (banco records nothing "
                                           "for a refused command)", who=_who(line), why=why)) from None
            self._data(facts[0])
            problems = self._after_the_end(facts[0]) + self._apply(facts[0])
            raise AuditStop(facts[0]["seq"], Joined(
                [*problems, msg("no command could have produced it: {who} (event {seq}) is "
                                "refused here: {why}", who=_who(line), seq=cr["seq"], why=why)])
            ) from None
        states = getattr(expected, "states", None)
        command = said.get("command")
        if isinstance(command, dict) and command.get("kind") == "Bankrupt":
            expected, states = sales_as_logged(expected, states, facts, self._data)
        if type(expected) is Derived:  # its list itself: no method call a fact
            expected = expected.events
        n = len(expected)
        texts = self._texts
        for i, row in enumerate(facts):
            # whether the row is the fact its command gives, the same type and data: the texts
            # already read looked at first (most facts are), then the fact's own spelling
            if i < n:
                fact = expected[i]
                if row["type"] != fact["type"]:
                    same = False
                else:
                    given = fact["data"]
                    found = texts.get(row["text"])
                    if (found is not None and found[0] == row["type"]
                            and found[1] == row["version"]
                            and (found[2] == given or found[2] == plain(given))):
                        row["data"] = found[2]
                        same = True
                    elif self._spelt_as(row, given):  # its text is the fact's
                        same = True
                    else:  # held to its schema only if it is not the fact decide gives, or
                        # its schema version is none a banco writes (its schema names it)
                        v = row["version"]
                        data = self._data(row, checked=not (type(v) is int
                                                            and 1 <= v <= SCHEMA_VERSION))
                        same = data == given or data == plain(given)
            else:
                same = False
            if same:
                # _after_the_end, asked before the fold (a GameEnded sets ended_at)
                late = self._after_the_end(row) if self.ended_at is not None else []
                if states is not None and row["type"] not in _FOLD_MARKS:
                    # decide has folded it: checked against its table (_check, inline: a
                    # call a fact)
                    after = states[i]
                    try:
                        problems = self.checks.after(self.state, row, after)  # type: ignore[union-attr]
                    except Exception as exc:  # facts that make no sense to the checks either
                        problems = [_uncheckable(row, exc)]
                    self.state = after
                elif states is not None:
                    problems = self._check(row, states[i])
                else:
                    problems = self._apply(row)
                if problems or late:
                    raise AuditStop(row["seq"], Joined(late + problems))
                continue
            self._data(row)
            problems = self._after_the_end(row) + self._apply(row)
            found = first_difference(expected[i:i + 1], [row])
            why = found[1] if found else msg("it is not what the command gives")
            raise AuditStop(row["seq"], Joined(
                [*problems, msg("not what {who} (event {seq}) gives here: {why}", who=_who(line),
                                seq=cr["seq"], why=why)]))
        if len(expected) > len(facts) and not partial:
            missing = expected[len(facts)]
            raise AuditStop((facts[-1] if facts else cr)["seq"] + 1,
                        msg("not what {who} (event {seq}) gives here: its facts stop short: it "
                            "gives {type} next", who=_who(line), seq=cr["seq"], type=missing["type"]))
        self.commands += 1

    def _after_the_end(self, row: dict) -> list[str]:
        if self.ended_at is None or row["type"] in AFTER_THE_END:
            return []
        return [msg("{type} after the game ended (event {seq}): no command records that "
                    "there", type=row["type"], seq=self.ended_at)]

    # the fold

    def _apply(self, row: dict) -> list[str]:
        """Fold one row into the table and check it; what is wrong, or []."""
        return self._fold(row)

    def _fold(self, row: dict) -> list[str]:
        type_, seq = row["type"], row["seq"]
        if self.state is None:
            if type_ == COMMAND:
                return []
            if type_ != "GameStarted":
                return [msg("the log does not begin with GameStarted")]
            try:
                self.state = initial_state(self.game_id, row)
            except (ValueError, KeyError, TypeError) as exc:
                return [f"GameStarted: {exc}"]  # the fold's own words
            self.uuid = row["data"].get("game_uuid")
            self.checks = EventChecks(self.state)
            return self.checks.start()
        try:
            after = HANDLERS[type_](self.state, row["data"], seq)
        except Exception as exc:  # a log that no longer folds is exactly what audit reports
            checks = self.checks
            assert checks is not None  # made with the table, at GameStarted
            # a stranger, a field out of range: named as `state` names them
            return checks.unfoldable(row) or [msg("{type} is no fact the table can take: {why}",
                                                  type=type_, why=unfoldable_why(self.state,
                                                                                 row, exc))]
        return self._check(row, after)

    def _check(self, row: dict, after) -> list[str]:
        """Check one event against the table before it and the one it leaves; fold it."""
        before, checks = self.state, self.checks
        try:
            # the table and its checks are there: every caller has the table before the event
            assert before is not None and checks is not None
            problems = checks.after(before, row, after)
        except Exception as exc:  # facts that make no sense to the checks either
            problems = [_uncheckable(row, exc)]
        self.state = after
        if row["type"] == "GameEnded":
            self.ended_at = row["seq"]
        elif row["type"] == "EventRetracted" and not problems and not self._refolding:
            problems = self._retract(row)
        return problems

    def _retract(self, row: dict) -> list[str]:
        """An undo: the table as if the retracted facts had never been, from the last restore
        point before them, folded forward again without them."""
        seqs = row["data"]["seqs"]
        if not seqs:
            return []
        if max(seqs) >= row["seq"]:
            return [msg("EventRetracted takes back event {seq}, which is not before it",
                        seq=max(seqs))]
        self.gone.update(seqs)
        low = min(seqs)
        for points in (self.recent, self.checkpoints):
            while points and points[-1].seq >= low:
                points.pop()
        found = max((p for p in (self.recent[-1] if self.recent else None,
                                 self.checkpoints[-1] if self.checkpoints else None) if p),
                    key=lambda p: p.seq, default=None)
        if found is not None:
            self.state, self.ended_at = found.state, found.ended_at
            self.checks = EventChecks.restored(found.checks, found.state)
            start = found.seq + 1
        else:  # further back than any point kept: from the start
            self.state, self.checks, self.ended_at = None, None, None
            start = 1
        self.last_checkpoint = min(self.last_checkpoint, start - 1)
        refolding, self._refolding = self._refolding, True
        try:
            for again in self._rows_between(start, row["seq"]):
                if again["seq"] in self.gone:
                    continue
                problems = self._fold(again)
                if problems:
                    return [msg("with event {seq} after the undo: {problem}",
                                seq=again["seq"], problem=p) for p in problems]
        finally:
            self._refolding = refolding
        return []

    _refolding = False

    def _rows_between(self, first: int, last: int) -> Iterator[dict]:
        """Rows first..last, already checked: from the window of recent rows and the command
        being judged when they hold them all, else read again."""
        if self.window and self.window[0]["seq"] <= first:
            held = [r for r in (*self.window, *self._pending) if first <= r["seq"] <= last]
            if len(held) == last - first + 1:
                for r in held:
                    if "data" not in r:
                        r["data"] = upcast(r["type"], r["version"], json.loads(r["text"]))
                yield from held
                return
        for lo in range(first, last + 1, 2000):
            yield from self._parsed(self.rows.fetch(lo, min(lo + 1999, last)))

    # what the re-derivers may look at

    def _parsed(self, raws: list[tuple]) -> list[dict]:
        # rows this pass has checked already
        return [{"seq": r[0], "type": r[1], "data": upcast(r[1], r[6], json.loads(r[2])),
                 "command_id": r[5], "chain": r[9]} for r in raws]

    def _before(self, seq: int) -> Iterator[dict]:
        last = seq - 1
        for r in reversed(self.window):  # the recent rows first: an undo rarely goes further
            if r["seq"] > last:
                continue
            if r["seq"] != last:
                break
            if "data" not in r:
                r["data"] = upcast(r["type"], r["version"], json.loads(r["text"]))
            yield r
            last -= 1
        while last >= 1:
            first = max(1, last - 255)
            yield from reversed(self._parsed(self.rows.fetch(first, last)))
            last = first - 1

    def _hash_at(self, seq: int) -> str | None:
        if seq == self.count:
            return self.prev
        found = self.rows.fetch(seq, seq) if 1 <= seq < self.count else []
        return found[0][8] if found else None


def _uncheckable(row: dict, exc: Exception):
    return msg("{type} cannot be checked: {error}: {why}", type=row["type"],
               error=type(exc).__name__, why=str(exc))


def _who(line: str | None):
    """A command as a finding names it: its line, when it has one."""
    return f"`{line}`" if line else msg("the command")


def audit(game_id: int, rows, expect_head: str | None = None) -> AuditReport:
    """`rows`: the store's RawRows (SQLiteStore.raw_rows), or rows as dicts.  `expect_head`: a
    head printed earlier (on a score sheet, say), whole or as its short line; a forger can
    recompute every hash after an edit, but cannot make that head appear in the new chain."""
    if not hasattr(rows, "fetch"):
        rows = DictRows(rows)
    return GameAudit(game_id, rows, expect_head).run()
