"""The audit: is this the history that was written, and could it have been written?

One pass over a game's rows, in seq order, streamed from the file (bounded memory however long
the game), names the first bad seq:

1. the hash chain: no row missing, moved or changed (ledger/store/canonical.py);
2. the data: JSON, an object, no float, and the event's schema (ledger/records/events.py, checked
   through its compiled form, ledger/records/event_checks.py; marshmallow words the complaint);
3. re-derivation (projections/audit/rederive.py): every recorded command worked out again on the
   table before it and compared with the facts recorded, type and data exactly, so that a
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
`standings` and every command start from the newest snapshot whose head matches the log, so
the pass holds each one to the log as it goes (`snapshots`): its head to the chain's hash at
its seq (another one: the history was rewritten since), its table to the table folded there
(another one: the snapshot was edited, and what the book shows with it is not the log's).

A long game's pass may be cut into parts audited at once by worker processes
(projections/audit/audit_parallel.py): `resume`, `run(stop=...)` and `resumable` let a part start
where the pass before it stood and hand back where it ends; the verdict is the one pass's.
"""

from __future__ import annotations

import json
import re
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from hashlib import sha256
from typing import Any

from ledger.base.text import Joined, Text, msg
from ledger.book import referee_actor
from ledger.store.canonical import GENESIS, UnknownChainVersion, row_hash, stored_row_hash
from ledger.table.state import HANDLERS, State, initial_state, with_seq
from projections.audit.checks import EventChecks
from projections.audit.rederive import (
    Context,
    Recorded,
    Refused,
    expected_facts,
    first_difference,
    plain,
)

COMMAND = "CommandRecorded"
# What may follow the end of a game: an undo (it may take back the command that ended it), a
# referee's corrections and rulings, a seal.  Everything else is refused by every command.
AFTER_THE_END = frozenset({COMMAND, "EventRetracted", "RulingRecorded", "CashCorrected",
                           "PositionCorrected", "OwnerCorrected", "SealRecorded"})


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
        # A worker auditing a game hands its report back pickled (projections/
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


_NOTHING = object()


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

    def __reduce__(self) -> tuple[Any, ...]:
        # A part's worker hands it back pickled (projections/audit/audit_parallel.py): a compiled
        # class is unpickled through its constructor.
        return Resume, (self.seq, self.prev, self.seen_v2, self.state, self.checks,
                        self.ended_at, self.uuid, self.gone)


class _Stop(Exception):
    def __init__(self, seq: int | None, problem: str):
        super().__init__(problem)
        self.seq, self.problem = seq, problem


# --- the rows --------------------------------------------------------------------------------

def _no_float(text: str):
    raise ValueError(msg("it holds the float {text}: money and counts are integers", text=text))


def _no_constant(text: str):
    raise ValueError(msg("it holds {text}, which is not a number banco writes", text=text))


_DECODE = json.JSONDecoder(parse_float=_no_float, parse_constant=_no_constant).decode
_CANON = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode
# json.dumps(value, ensure_ascii=False) without json.dumps's own Python layer: the chain's text
# around a row's data (ledger/store/canonical.py's stored_row_hash spells it the same way)
_TEXT = json.JSONEncoder(ensure_ascii=False).encode


class DictRows:
    """Rows given as dicts (as `SQLiteStore.read` returns them, or a test's forged log) seen
    as the store's raw rows: the data back as JSON text, floats kept for the audit to name."""

    def __init__(self, rows: Sequence[dict] | Iterable[dict]):
        self.rows = rows if isinstance(rows, Sequence) else list(rows)
        self.hashed_as: int | None = None

    @staticmethod
    def raw(r: dict) -> tuple:
        try:
            text = _CANON(r["data"])
        except (TypeError, ValueError):
            text = repr(r["data"])  # not JSON at all: the audit says so
        return (r.get("chain_game_id") or r.get("game_id"), r["seq"], r["type"], text,
                r.get("recorded_at"), r.get("actor"), r.get("command_id"),
                r.get("schema_version"), r.get("prev_hash"), r.get("hash"),
                r.get("chain_version", 1))

    def __iter__(self) -> Iterator[tuple]:
        return map(self.raw, self.rows)

    def fetch(self, first: int, last: int) -> list[tuple]:
        # called only for rows the pass has already checked: seq n is at index n - 1
        return [self.raw(r) for r in self.rows[max(first, 1) - 1:last]]


# --- one game --------------------------------------------------------------------------------

class _Checkpoint:
    """The table and the checks' books as they stood after event `seq`: what an undo goes
    back to before folding forward again without what it retracts."""
    __slots__ = ("seq", "state", "checks", "ended_at")

    def __init__(self, seq, state, checks, ended_at):
        self.seq, self.state, self.checks, self.ended_at = seq, state, checks, ended_at


# An undo takes back the last command still in force: the table before each of the last few
# commands is kept, and one every CHECKPOINT_EVERY events for undos that go further back; one
# reaching behind all of them folds again from the start.  Bounded memory.  Module globals, not
# GameAudit's: a test makes them small, and a compiled class's attributes cannot be patched.
RECENT_COMMANDS = 24
CHECKPOINT_EVERY = 1024
CHECKPOINTS = 8
WINDOW = 512  # the last rows, for an undo to look back at without reading them again


def _sales_as_logged(expected: Any, states: Any, facts: list[dict],
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


class GameAudit:
    """The audit of one game's rows (`rows`: the store's RawRows, or DictRows).

    A row is checked against the chain as it is read, from its data as stored text.  Its
    data is parsed when it is needed: a fact whose stored text is exactly what its command
    gives (the canonical JSON of the fact decide works out) is not parsed at all, the fact
    decide worked out is the one checked; a command's text already seen is decoded once."""


    def __init__(self, game_id: int, rows, expect_head: str | None = None, *,
                 hashes_checked: bool = False, snapshots: Iterable | None = None):
        from ledger.records.event_checks import checks

        self.game_id = game_id
        self.rows = rows
        # Only for an import (projections/exchange/exchange.py), auditing in its own transaction the
        # rows it has just inserted, each hash computed from those very values: the chain's
        # order and links are followed here, its hashes not computed a second time.  Never for
        # rows read from a database: that is what the audit is for.
        self.hashes_checked = hashes_checked
        self.hashed_as = getattr(rows, "hashed_as", None)
        self.expect = _expected_head(expect_head)
        # The book's snapshots of this game (ledger/store/sqlite.py Snapshot): never a starting point,
        # but `state`, `standings` and every command start from one whose head matches the
        # log, so each is held to the table this pass folds there, and its head to the chain.
        self.snapshots = {s.seq: s for s in snapshots} if snapshots else None
        self.expect_at: list[int] = []  # the events whose hash --expect-head matches
        self.expect_notes: list[str] = []
        self.schema = checks()
        self.expected, self.prev, self.count = 1, GENESIS, 0
        self.seen_v2 = False
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
        self._enc: dict = {}
        self._cid = self._actor = self._at = object()  # the command whose text is assembled
        self._head = self._mid = ""
        self._said: dict = {}  # a CommandRecorded's text -> its data, checked once
        self._texts: dict = {}  # data text -> (type, schema version, its data), checked

    # the pass

    def run(self, finish: bool = True, stop: int | None = None) -> AuditReport:
        """The pass over the rows.  For a part of a long game (projections/audit/audit_parallel.py):
        `stop`, its last seq (the rows go one past it), and `finish=False`: what is checked at
        the end of the log is not checked at the end of a part."""
        batch: list[dict] = []
        cid = _NOTHING  # the command id of the rows in batch
        try:
            for raw in self.rows:
                if stop is not None and raw[1] > stop:
                    self._stop_before(raw, batch)
                    batch = []
                    break
                try:
                    row = self._row(raw)
                except _Stop:
                    if batch:  # a bad row: what came before it in its command may be worse
                        self._command(batch, partial=True)
                    raise
                if row["command_id"] != cid:  # a command's rows share its id
                    if batch:
                        self._command(batch)
                        batch = []
                    cid = row["command_id"]
                batch.append(row)
            if batch:
                self._command(batch)
            if finish:
                self._finish()
        except _Stop as halt:  # (not `stop`: mypyc deletes a handler's name, and the parameter)
            return self._report(halt.seq, halt.problem)
        return self._report(None, None)

    # a part of a long game, audited apart (projections/audit/audit_parallel.py)

    def resume(self, at: Resume) -> None:
        """Go on from `at`, the pass as it stood after event at.seq: its rows must begin at
        at.seq + 1, with a new command.  No restore point before at.seq is kept: an undo that
        reaches further back folds again from the start (as for one behind every point)."""
        self.expected, self.count, self.prev = at.seq + 1, at.seq, at.prev
        self.seen_v2, self.state, self.uuid = at.seen_v2, at.state, at.uuid
        self.checks = at.checks.copy() if at.checks is not None else None
        self.ended_at, self.gone = at.ended_at, set(at.gone)
        self.last_checkpoint = at.seq

    def _stop_before(self, raw: tuple, batch: list[dict]) -> None:
        """The row after a part: read as the one pass reads it, its chain checked before the
        command that ends the part is judged (so a problem there is named with the same head
        and count), then left to the next part."""
        kept = self.prev, self.expected, self.count, self.seen_v2, len(self.expect_at)
        try:
            row = self._row(raw)
        except _Stop:
            if batch:
                self._command(batch, partial=True)
            raise
        if batch and row["command_id"] == batch[0]["command_id"]:
            # parts are cut between commands: the rows changed since (the caller's one pass)
            raise RuntimeError("a part of the audit ends inside a command")
        if batch:
            self._command(batch)
        self.prev, self.expected, self.count, self.seen_v2 = kept[:4]
        del self.expect_at[kept[4]:]

    def resumable(self) -> Resume:
        """Where the pass stands: what `resume` needs to go on from here."""
        return Resume(self.count, self.prev, self.seen_v2, self.state, self.checks,
                      self.ended_at, self.uuid, frozenset(self.gone))

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
            # no event of this game in the file: a head printed from it cannot be here (a game
            # deleted whole, rows and games-table entry, once passed its own head line)
            kind, value = self.expect
            if kind == "line":
                raise _Stop(1, msg(
                    "the head line banco/{game}/{seq}/{prefix} was printed at event {seq} of "
                    "game {game}, but this file holds no event of game {game}: the game was "
                    "deleted, or the line is from another database", game=self.game_id,
                    seq=value[0], prefix=value[1]))
            if kind == "head":
                self._expected_head_found(value)
            return
        if self.state is None:
            raise _Stop(1, msg("the log does not begin with GameStarted"))
        kind, value = self.expect
        if kind == "head":
            self._expected_head_found(value)
        if kind == "line":
            seq, prefix = value
            line = f"banco/{self.game_id}/{seq}/{prefix}"
            if seq > self.count:
                raise _Stop(self.count + 1, msg(
                    "the head line {line} was printed at event {seq}, but the log stops at "
                    "event {last}: it was cut short", line=line, seq=seq, last=self.count))
            if seq < self.count:  # intact up to it; what came after is said, never passed over
                self.expect_notes.append(msg(
                    "the head {head} is event {seq}'s: events 1-{seq} are as they were when it "
                    "was printed; the log went on past it: events {next}-{last} came after",
                    head=line, seq=seq, next=seq + 1, last=self.count))

    def _expected_head_found(self, value: str) -> None:
        """--expect-head HEX: the head as printed earlier, whole or its first 8+ digits.
        Not in this history: it was printed from another game or file, or everything up to it
        was rewritten (without the old rows nobody can say where: a seal can, its trail).
        An earlier event's: what was printed then is intact, and the log went on past it."""
        shown = value if len(value) <= 12 else value[:12] + "..."
        if not self.expect_at:
            raise _Stop(None, msg("the head {head} is not found in this history (game "
                                  "{game}, events 1-{last}): it was printed from another game "
                                  "or database, or the history up to it was rewritten",
                                  head=shown, game=self.game_id, last=self.count))
        if len(self.expect_at) > 1:
            raise _Stop(None, msg("the head {head} matches events {seqs}: give more of its "
                                  "digits", head=shown,
                                  seqs=", ".join(map(str, self.expect_at))))
        seq = self.expect_at[0]
        if seq < self.count:
            self.expect_notes.append(msg(
                "the head {head} is event {seq}'s: events 1-{seq} are as they were when it was "
                "printed; the log went on past it: events {next}-{last} came after",
                head=shown, seq=seq, next=seq + 1, last=self.count))

    # a row: the chain

    def _encode(self, text) -> str:
        found = self._enc.get(text)
        if found is None:
            found = self._enc[text] = _TEXT(text)
            if len(self._enc) > 2048:
                self._enc.clear()
        return found

    def _row(self, raw: tuple) -> dict:
        g, seq, type_, text, at, actor, cid, version, prev_hash, hsh, chain = raw
        expected = self.expected
        if seq != expected:
            if isinstance(seq, int) and seq > expected:
                raise _Stop(expected, msg("hash chain: event {seq} is missing (the next one "
                                          "is event {next}): a row was deleted",
                                          seq=expected, next=seq))
            raise _Stop(expected, msg("hash chain: event {seq} is out of place (found event "
                                      "{found} where it belongs)", seq=expected,
                                      found=repr(seq)))
        prev = self.prev
        if prev_hash != prev:
            raise _Stop(seq, msg("hash chain: its prev_hash is not the hash of event {seq}: "
                                 "events were moved or taken out, or the one before was changed",
                                 seq=seq - 1))
        if chain == 2:
            self.seen_v2 = True
        elif chain == 1:
            if self.seen_v2:
                raise _Stop(seq, msg("hash chain: a chain-version-1 row after version-2 "
                                     "rows: no banco writes that"))
            if self.hashed_as is not None:
                g = self.hashed_as
        if type(text) is not str:
            raise _Stop(seq, msg("its data is not JSON text: the row was edited"))
        if self.hashes_checked:
            h = hsh
        elif chain == 2 and type(version) is int:
            # stored_row_hash, with the few strings a game repeats encoded once: a command's
            # rows share their actor, command id and time, so the text around the data is
            # assembled once a command
            if cid != self._cid or actor != self._actor or at != self._at:
                # the actor repeats, a command's id and time do not: only the first is kept
                self._cid, self._actor, self._at = cid, actor, at
                self._head = (f'{{"actor":{self._encode(actor)},"chain_version":2,'
                              f'"command_id":{_TEXT(cid)},"data":')
                self._mid = f',"recorded_at":{_TEXT(at)},"schema_version":'
            etype = self._enc.get(type_) or self._encode(type_)
            h = sha256(f'{prev}{self._head}{text}{self._mid}{version},"seq":{seq},"type":{etype}}}'
                       .encode()).hexdigest()
        else:
            h = stored_row_hash(prev, g, seq, type_, text, at, actor, cid, version, chain)
        row = {"seq": seq, "type": type_, "text": text, "command_id": cid, "chain": chain,
               "actor": actor, "at": at,
               "version": version}
        if h != hsh:
            # the data stored in another spelling than banco's: hash what it says
            full = {"game_id": g, "seq": seq, "type": type_, "data": self._data(row),
                    "recorded_at": at, "actor": actor, "command_id": cid,
                    "schema_version": version, "chain_version": chain}
            try:
                same = row_hash(prev, full) == hsh
            except (TypeError, UnknownChainVersion) as exc:
                raise _Stop(seq, msg("hash chain: its content is not banco's: {why}",
                                     why=str(exc))) from None
            if not same:
                raise _Stop(seq, msg("hash chain: its content does not match its hash: the row "
                                     "was edited"))
        self.prev, self.expected, self.count = hsh, expected + 1, expected
        if self.snapshots is not None and seq in self.snapshots:
            self._snapshot_head(self.snapshots[seq], hsh)
        kind, value = self.expect
        if kind is None:  # no --expect-head: nothing more to look at
            return row
        if kind == "head" and hsh.startswith(value):
            self.expect_at.append(seq)
        elif kind == "line" and seq == value[0] and not hsh.startswith(value[1]):
            raise _Stop(seq, msg("event {seq}'s hash is {hash}..., not the {prefix} of the "
                                 "head line printed then: the history up to it was rewritten",
                                 seq=seq, hash=hsh[:12], prefix=value[1]))
        return row

    # a row's data: JSON, an object, its schema

    def _data(self, row: dict) -> dict:
        """The row's data, parsed and checked against its schema.  A game repeats the same
        facts word for word (Anna's turn ends, Bruno's begins): a text already parsed and
        checked as this type is not parsed again (the dicts are only read, never changed)."""
        data = row.get("data")
        if data is not None:
            return data
        seq, text = row["seq"], row["text"]
        found = self._texts.get(text)
        if found is not None and found[0] == row["type"] and found[1] == row["version"]:
            row["data"] = data = found[2]
            return data
        try:
            data = _DECODE(text)
        except ValueError as exc:
            raise _Stop(seq, msg("its data is not JSON ({why})", why=_reason(exc))) from None
        if type(data) is not dict:
            raise _Stop(seq, msg("its data is not a JSON object ({text})", text=_short(text)))
        self._schema(row, data)
        if row["chain"] == 2 and _CANON(data) != text:
            # Since format 2 banco writes every data as canonical JSON, and the chain hashes
            # that text: another spelling of it (a key twice, the first one read by nobody)
            # was written by someone else, then re-chained.
            raise _Stop(seq, msg("its data is not spelt as banco writes it (canonical JSON: "
                                 "sorted keys, each once, no spaces): the row was rewritten"))
        row["data"] = data
        if len(self._texts) > 16384:
            self._texts.clear()
        self._texts[text] = (row["type"], row["version"], data)
        return data

    def _schema(self, row: dict, data) -> None:
        type_, version = row["type"], row["version"]
        check = self.schema.get(type_)
        if check is None or version != 1 or not check(data):
            from ledger.records.events import InvalidEvent, validate

            try:
                validate(type_, data, version)
                why: str = msg("its schema refuses it")  # the compiled check and marshmallow disagree
            except InvalidEvent as exc:
                why = str(exc)  # marshmallow's words, English
            raise _Stop(row["seq"], msg("schema: {why}", why=why))

    def _as_derived(self, row: dict, fact: dict) -> bool:
        """Whether the row is the fact its command gives: the same type and data."""
        if row["type"] != fact["type"]:
            return False
        data = self._data(row)
        return data == fact["data"] or data == plain(fact["data"])

    # a command: re-derived, then folded and checked event by event

    def _command(self, batch: list[dict], partial: bool = False) -> None:
        first = batch[0]
        self._pending = batch
        if self.state is not None:
            checks = self.checks
            assert checks is not None  # made with the table, at GameStarted
            point = _Checkpoint(first["seq"] - 1, self.state, checks.copy(), self.ended_at)
            self.recent.append(point)
            if point.seq - self.last_checkpoint >= CHECKPOINT_EVERY:
                self.checkpoints.append(point)
                self.last_checkpoint = point.seq
        # Commands are recorded beside their facts from chain version 2 (banco's format 2):
        # older rows are folded and checked, not re-derived.
        if first["type"] != COMMAND or first["chain"] < 2:
            self._unrecorded(batch)
        else:
            self._one_hand(batch)
            self._recorded(batch, partial)
        self.window.extend(batch)
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
                raise _Stop(row["seq"], Joined(problems))
            if not self.unrecorded:
                self.unrecorded = [row["seq"], row["seq"]]
            self.unrecorded[1] = row["seq"]

    def _one_hand(self, batch: list[dict]) -> None:
        """A command and its facts are written in one transaction, at one time, by one hand."""
        first = batch[0]
        actor, at = first["actor"], first["at"]
        for r in batch:
            if r["actor"] != actor or r["at"] != at:
                raise _Stop(r["seq"], msg(
                    "recorded by {actor} at {at}, but its command (event {seq}) by {by} at "
                    "{when}: a command's facts are written at once, by one hand; the row was "
                    "rewritten", actor=repr(r["actor"]), at=r["at"], seq=first["seq"],
                    by=repr(actor), when=at))

    def _in_whose_name(self, cr: dict, said: dict) -> None:
        """A referee's command is recorded in the referee's name, and no other is: a referee's
        name on the banker's command (or another name on a referee's) was written by hand."""
        command = said.get("command")
        fields = command.get("fields") if type(command) is dict else None
        referee = fields.get("referee") if type(fields) is dict else None
        actor = cr["actor"]
        if isinstance(referee, str):
            if actor != referee_actor(referee):
                raise _Stop(cr["seq"], msg(
                    "it is referee {referee}'s command, but it is recorded by {actor}: the row "
                    "was rewritten", referee=referee, actor=repr(actor)))
        elif isinstance(actor, str) and actor.startswith("referee:"):
            raise _Stop(cr["seq"], msg(
                "it is recorded in the name of {actor}, but it is not a referee's command: "
                "the row was rewritten", actor=actor))

    def _recorded(self, batch: list[dict], partial: bool) -> None:
        cr, facts = batch[0], batch[1:]
        said = self._said.get(cr["text"])
        if said is None:
            said = self._data(cr)
            if len(self._said) > 4096:
                self._said.clear()
            self._said[cr["text"]] = said
        cr["data"] = said
        self._in_whose_name(cr, said)
        # _apply(cr): a CommandRecorded folds to the very table it follows (HANDLERS gives
        # it _nothing), so once the table exists it is checked against it directly
        problems = self._check(cr, self.state) if self.state is not None else self._apply(cr)
        if problems:
            raise _Stop(cr["seq"], Joined(problems))
        line = said.get("line")
        who = f"`{line}`" if line else msg("the command")
        recorded = Recorded(cr["seq"], line, said.get("command"), facts, cr["text"])
        state = with_seq(self.state, cr["seq"]) if self.state is not None else None
        ctx = Context(self.game_id, state, self._before, self._hash_at, self.uuid, self._data)
        try:
            expected = expected_facts(ctx, recorded)
        except Refused as refused:  # (mypyc: a handler's name is never bound again)
            if partial and not facts:
                return  # its facts begin with the bad row: nothing to judge
            why = _reason(refused)
            if not facts:
                raise _Stop(cr["seq"], msg("{who} is recorded, but {why} (banco records nothing "
                                           "for a refused command)", who=who, why=why)) from None
            self._data(facts[0])
            problems = self._after_the_end(facts[0]) + self._apply(facts[0])
            raise _Stop(facts[0]["seq"], Joined(
                [*problems, msg("no command could have produced it: {who} (event {seq}) is "
                                "refused here: {why}", who=who, seq=cr["seq"], why=why)])
            ) from None
        states = getattr(expected, "states", None)
        command = said.get("command")
        if isinstance(command, dict) and command.get("kind") == "Bankrupt":
            expected, states = _sales_as_logged(expected, states, facts, self._data)
        n = len(expected)
        texts = self._texts
        for i, row in enumerate(facts):
            # _as_derived(row, expected[i]), with _data's cache looked at first: most facts
            # are texts already parsed and checked
            if i < n:
                fact = expected[i]
                if row["type"] != fact["type"]:
                    same = False
                else:
                    found = texts.get(row["text"])
                    if (found is not None and found[0] == row["type"]
                            and found[1] == row["version"]):
                        row["data"] = data = found[2]
                    else:
                        data = self._data(row)
                    same = data == fact["data"] or data == plain(fact["data"])
            else:
                same = False
            if same:
                # _after_the_end, asked before the fold (a GameEnded sets ended_at)
                late = self._after_the_end(row) if self.ended_at is not None else []
                if states is not None:  # decide has folded it: check it against its table
                    problems = self._check(row, states[i])
                else:
                    problems = self._apply(row)
                if problems or late:
                    raise _Stop(row["seq"], Joined(late + problems))
                continue
            self._data(row)
            problems = self._after_the_end(row) + self._apply(row)
            found = first_difference(expected[i:i + 1], [row])
            why = found[1] if found else msg("it is not what the command gives")
            raise _Stop(row["seq"], Joined(
                [*problems, msg("not what {who} (event {seq}) gives here: {why}", who=who,
                                seq=cr["seq"], why=why)]))
        if len(expected) > len(facts) and not partial:
            missing = expected[len(facts)]
            raise _Stop((facts[-1] if facts else cr)["seq"] + 1,
                        msg("not what {who} (event {seq}) gives here: its facts stop short: it "
                            "gives {type} next", who=who, seq=cr["seq"], type=missing["type"]))
        self.commands += 1

    # the book's snapshots, held to the log

    def _snapshot_head(self, snap, hsh: str) -> None:
        """A snapshot keeps the hash the log had at its seq: another one there means the
        history up to it was rewritten after it was taken (or the snapshot was forged)."""
        if snap.head != hsh:
            raise _Stop(snap.seq, msg(
                "the book's snapshot at event {seq} was taken when that event's hash was "
                "{was}..., not {now}...: the history up to event {seq} was rewritten since, or "
                "the snapshot was forged", seq=snap.seq, was=str(snap.head)[:12], now=hsh[:12]))

    def _snapshot_table(self, snap) -> None:
        """A snapshot the book would start from (its head is the log's, checked as the row was
        read; its format this banco's) must be the table folded there."""
        from ledger.table.snapshot_codec import SnapshotError, decode, shape

        if snap.format != shape() or self.state is None:
            return  # the book does not use it: it folds instead
        try:
            kept = decode(snap.state, self.state)
        except SnapshotError:
            return  # unreadable: the book folds instead (`banco doctor` names it)
        table = self.state._replace(seq=snap.seq)
        if kept != table:
            differ = [f for f in table._fields if getattr(kept, f) != getattr(table, f)]
            raise _Stop(snap.seq, msg(
                "the book's snapshot at event {seq} is not the table the log folds to there "
                "(it differs in {fields}): `state`, `standings` and the next command would "
                "start from it; it was edited (`banco doctor --repair` deletes it)",
                seq=snap.seq, fields=", ".join(differ)))

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
            return checks.unfoldable(row) or [f"fold: {type(exc).__name__}: {exc}"]
        return self._check(row, after)

    def _check(self, row: dict, after) -> list[str]:
        """Check one event against the table before it and the one it leaves; fold it."""
        before, checks = self.state, self.checks
        try:
            # the table and its checks are there: every caller has the table before the event
            assert before is not None and checks is not None
            problems = checks.after(before, row, after)
        except Exception as exc:  # facts that make no sense to the checks either
            problems = [msg("{type} cannot be checked: {error}: {why}", type=row["type"],
                            error=type(exc).__name__, why=str(exc))]
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
            self.state, self.checks, self.ended_at = found.state, found.checks.copy(), \
                found.ended_at
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
                        r["data"] = json.loads(r["text"])
                yield from held
                return
        for lo in range(first, last + 1, 2000):
            yield from self._parsed(self.rows.fetch(lo, min(lo + 1999, last)))

    # what the re-derivers may look at

    def _parsed(self, raws: list[tuple]) -> list[dict]:
        # rows this pass has checked already
        return [{"seq": r[1], "type": r[2], "data": json.loads(r[3]), "command_id": r[6],
                 "chain": r[10]} for r in raws]

    def _before(self, seq: int) -> Iterator[dict]:
        last = seq - 1
        for r in reversed(self.window):  # the recent rows first: an undo rarely goes further
            if r["seq"] > last:
                continue
            if r["seq"] != last:
                break
            if "data" not in r:
                r["data"] = json.loads(r["text"])
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
        return found[0][9] if found else None


def _reason(exc: Exception):
    """Why, as the exception says it: its message (a Text when it has one), else its str."""
    first = exc.args[0] if exc.args else None
    return first if isinstance(first, Text) else str(exc)


def _short(text, limit: int = 40) -> str:
    text = str(text)
    return text if len(text) <= limit else text[:limit - 3] + "..."


_HEX = re.compile(r"^[0-9a-f]{8,64}$")


def _expected_head(text: str | None) -> tuple[str | None, Any]:
    """--expect-head: a score sheet's line banco/GAME/SEQ/12HEX, or a head hash, whole or any
    prefix of 8 hex digits or more, in any case.  ValueError: neither."""
    if text is None:
        return None, None
    from ledger.store.seals import parse_head_line

    line = parse_head_line(text)
    if line is not None:
        if max(line.game, line.seq) > 2**63 - 1:  # SQLite's largest integer: no such row
            raise ValueError(msg("--expect-head {text}: no game or event has a number that "
                                 "large", text=repr(_short(text))))
        return "line", (line.seq, line.prefix)
    value = text.strip().lower()
    if not _HEX.match(value):
        raise ValueError(msg("--expect-head takes a head hash (at least its first 8 hex "
                             "digits) or a head line banco/GAME/SEQ/12HEX, not {text}",
                             text=repr(_short(text))))
    return "head", value


def check_expected_head(text: str | None) -> None:
    """Raises ValueError for an --expect-head that is neither a hash prefix nor a head line."""
    _expected_head(text)


def audit(game_id: int, rows, expect_head: str | None = None) -> AuditReport:
    """`rows`: the store's RawRows (SQLiteStore.raw_rows), or rows as dicts.  `expect_head`: a
    head printed earlier (on a score sheet, say), whole or as its short line; a forger can
    recompute every hash after an edit, but cannot make that head appear in the new chain."""
    if not hasattr(rows, "fetch"):
        rows = DictRows(rows)
    return GameAudit(game_id, rows, expect_head).run()
