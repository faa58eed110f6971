"""A game's rows as the audit reads them: the hash chain, each row's data, the head expected.

`RowChecks` is the first half of the audit's pass (projections/audit/audit.py's GameAudit is
the rest): a row is checked against the chain as it is read, from its data as stored text
(ledger/store/canonical.py); its data is parsed and checked when it is needed: JSON, an object,
no float, the event's schema (ledger/records/events.py's marshmallow schema, an older row as
its upcaster reads it: ledger/records/upcast.py).  `--expect-head`, a head
printed earlier, is looked for in the chain as it goes by.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Sequence
from hashlib import sha256
from typing import Any

from banco.ledger.base.text import Text, msg
from banco.ledger.records.events import SCHEMA_VERSION, InvalidEvent, validate
from banco.ledger.records.upcast import upcast
from banco.ledger.store.canonical import (
    GENESIS,
    TABLE_CHAIN_VERSION,
    UnknownChainVersion,
    canonical_chunks,
    canonical_text,
    row_hash,
    stored_row_hash,
)
from banco.projections.audit.results import AuditStop


def _no_float(text: str):
    raise ValueError(msg("it holds the float {text}: money and counts are integers", text=text))


def _no_constant(text: str):
    raise ValueError(msg("it holds {text}, which is not a number banco writes", text=text))


_DECODER = json.JSONDecoder(parse_float=_no_float, parse_constant=_no_constant)
_DECODE, _SCAN = _DECODER.decode, _DECODER.scan_once


def decode(text: str):
    """_DECODE(text), without its two matches for the whitespace around a value, which a text
    banco wrote never has: anything else (whitespace, trailing data, no JSON) is _DECODE's."""
    try:
        value, end = _SCAN(text, 0)
    except (StopIteration, ValueError):
        return _DECODE(text)  # its own words for what is wrong
    return value if end == len(text) else _DECODE(text)


_CANON = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode
# json.dumps(value, ensure_ascii=False) without json.dumps's own Python layer: the chain's text
# around a row's data (ledger/store/canonical.py's stored_row_hash spells it the same way)
_TEXT = json.JSONEncoder(ensure_ascii=False).encode
_QUOTE = json.encoder.encode_basestring  # what _TEXT does with a str, without its Python layer


def _text(value) -> str:
    """_TEXT(value): a string (a command's id and time, nearly always) quoted by C alone."""
    return _QUOTE(value) if type(value) is str else _TEXT(value)


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
                r.get("chain_version", 1), r.get("table_digest"))

    def __iter__(self) -> Iterator[tuple]:
        return map(self.raw, self.rows)

    def fetch(self, first: int, last: int) -> list[tuple]:
        # called only for rows the pass has already checked: seq n is at index n - 1
        return [self.raw(r) for r in self.rows[max(first, 1) - 1:last]]


class _Numbered:
    """Rows that begin with their game's number (DictRows, a list of RawRows's rows) as the
    pass reads them: without it, the number of each row kept for a version-1 row's hash,
    which covers it (`checks._g`)."""

    def __init__(self, rows, checks: RowChecks):
        self.rows, self.checks = rows, checks

    def __iter__(self) -> Iterator[tuple]:
        checks = self.checks
        for raw in self.rows:
            checks._g = raw[0]
            yield raw[1:]

    def fetch(self, first: int, last: int) -> list[tuple]:
        return [raw[1:] for raw in self.rows.fetch(first, last)]


class RowChecks:
    """The chain and the data of one game's rows (`rows`: the store's RawRows, or DictRows),
    checked as the pass reads them; GameAudit (projections/audit/audit.py) judges them."""

    def __init__(self, game_id: int, rows, expect_head: str | None = None, *,
                 hashes_checked: bool = False, snapshots: Iterable | None = None):
        self.game_id = game_id
        # the rows as the pass reads them: without the game's number (the store's reading's,
        # a column fewer), else through _Numbered
        self._g = game_id  # the game number a version-1 row hashes, unless `hashed_as`
        if hasattr(rows, "unnumbered"):
            rows = rows.unnumbered()
        elif getattr(rows, "numbered", True):
            rows = _Numbered(rows, self)
        self.rows = rows
        # Only for an import (projections/exchange/exchange.py), auditing in its own transaction the
        # rows it has just inserted, each hash computed from those very values: the chain's
        # order and links are followed here, its hashes not computed a second time.  Never for
        # rows read from a database: that is what the audit is for.
        self.hashes_checked = hashes_checked
        self.hashed_as = getattr(rows, "hashed_as", None)
        self.expect = expected_head(expect_head)
        # The book's snapshots of this game (ledger/store/sqlite.py Snapshot): never a starting point,
        # but `state`, `standings` and every command start from one whose head matches the
        # log, so each is held to the table this pass folds there, and its head to the chain.
        self.snapshots = {s.seq: s for s in snapshots} if snapshots else None
        self.expect_at: list[int] = []  # the events whose hash --expect-head matches
        self.expect_notes: list[str] = []
        self.expected, self.prev, self.count = 1, GENESIS, 0
        self.seen_v2 = False
        # (command id, time) of the last command: the next is held to it (_time_back); a
        # command's own rows share its time (audit.py's _command)
        self.last_time: tuple = (None, None)
        self._enc: dict = {}
        self._cid = self._actor = self._at = object()  # the command whose text is assembled
        self._head = self._mid = ""
        self._texts: dict = {}  # data text -> (type, schema version, its data, schema checked)

    def _expected_head_found(self, value: str) -> None:
        """--expect-head HEX: the head as printed earlier, whole or its first 8+ digits.
        Not in this history: it was printed from another game or file, or everything up to it
        was rewritten (without the old rows nobody can say where: a seal can, its trail).
        An earlier event's: what was printed then is intact, and the log went on past it."""
        shown = value if len(value) <= 12 else value[:12] + "..."
        if not self.expect_at:
            raise AuditStop(None, msg("the head {head} is not found in this history (game "
                                  "{game}, events 1-{last}): it was printed from another game "
                                  "or database, or the history up to it was rewritten",
                                  head=shown, game=self.game_id, last=self.count))
        if len(self.expect_at) > 1:
            raise AuditStop(None, msg("the head {head} matches events {seqs}: give more of its "
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
            found = self._enc[text] = _text(text)
            if len(self._enc) > 2048:
                self._enc.clear()
        return found

    def _number(self, chain) -> int:
        """The game number a row of this chain version hashes (version 1's only)."""
        return self.hashed_as if chain == 1 and self.hashed_as is not None else self._g

    def _row(self, raw: tuple) -> dict:
        seq, type_, text, at, actor, cid, version, prev_hash, hsh, chain, table = raw
        expected = self.expected
        if seq != expected:
            if isinstance(seq, int) and seq > expected:
                raise AuditStop(expected, msg("hash chain: event {seq} is missing (the next one "
                                          "is event {next}): a row was deleted",
                                          seq=expected, next=seq))
            raise AuditStop(expected, msg("hash chain: event {seq} is out of place (found event "
                                      "{found} where it belongs)", seq=expected,
                                      found=repr(seq)))
        prev = self.prev
        if prev_hash != prev:
            raise AuditStop(seq, msg("hash chain: its prev_hash is not the hash of event {seq}: "
                                 "events were moved or taken out, or the one before was changed",
                                 seq=seq - 1))
        if chain == 2 or chain == TABLE_CHAIN_VERSION:
            self.seen_v2 = True
            if (table is not None) != (chain == TABLE_CHAIN_VERSION):
                raise AuditStop(seq, msg(
                    "hash chain: its table digest and its chain version disagree (a table "
                    "digest is written, and hashed, only in a chain-version-3 row): the row "
                    "was edited"))
        elif chain == 1:
            if self.seen_v2:
                raise AuditStop(seq, msg("hash chain: a chain-version-1 row after version-2 "
                                     "rows: no banco writes that"))
        if type(text) is not str:
            raise AuditStop(seq, msg("its data is not JSON text: the row was edited"))
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
                              f'"command_id":{_QUOTE(cid) if type(cid) is str else _TEXT(cid)}'
                              ',"data":')
                self._mid = (',"recorded_at":'
                             f'{_QUOTE(at) if type(at) is str else _TEXT(at)},"schema_version":')
            etype = self._enc.get(type_) or self._encode(type_)
            h = sha256(f'{prev}{self._head}{text}{self._mid}{version},"seq":{seq},"type":{etype}}}'
                       .encode()).hexdigest()
        else:
            h = stored_row_hash(prev, self._number(chain), seq, type_, text, at, actor, cid,
                                version, chain, table)
        row = {"seq": seq, "type": type_, "text": text, "command_id": cid, "chain": chain,
               "actor": actor, "at": at,
               "version": version}
        if table is not None:  # the table digest, and the hash a snapshot there keeps as head
            row["table"], row["hash"] = table, hsh
        if h != hsh:
            # the data stored in another spelling than banco's: hash what it says
            self._data(row)  # a row whose data is no JSON object stops here, saying why
            full = {"game_id": self._number(chain), "seq": seq, "type": type_, "data": _DECODE(text),
                    "recorded_at": at, "actor": actor, "command_id": cid,
                    "schema_version": version, "chain_version": chain, "table_digest": table}
            try:
                same = row_hash(prev, full) == hsh
            except (TypeError, UnknownChainVersion) as exc:
                raise AuditStop(seq, msg("hash chain: its content is not banco's: {why}",
                                     why=str(exc))) from None
            if not same:
                raise AuditStop(seq, msg("hash chain: its content does not match its hash: the row "
                                     "was edited"))
        if cid != self.last_time[0] and type(at) is str:  # a command's first row
            last = self.last_time[1]
            if last is not None and at < last:  # (a string compare: the rare case is parsed)
                _time_back(seq, at, last)
            self.last_time = (cid, at)
        self.prev, self.expected, self.count = hsh, expected + 1, expected
        if self.snapshots is not None and seq in self.snapshots:
            self._snapshot_head(self.snapshots[seq], hsh)
        kind, value = self.expect
        if kind is None:  # no --expect-head: nothing more to look at
            return row
        if kind == "head" and hsh.startswith(value):
            self.expect_at.append(seq)
        elif kind == "line" and seq == value[0] and not hsh.startswith(value[1]):
            raise AuditStop(seq, msg("event {seq}'s hash is {hash}..., not the {prefix} of the "
                                 "head line printed then: the history up to it was rewritten",
                                 seq=seq, hash=hsh[:12], prefix=value[1]))
        return row

    # a row's data: JSON, an object, its schema

    def _data(self, row: dict, checked: bool = True) -> dict:
        """The row's data, parsed and (`checked`) held to its schema.  A game repeats the same
        facts word for word (Anna's turn ends, Bruno's begins): a text already parsed and
        checked as this type is not parsed again (the dicts are only read, never changed).

        `checked=False`: a fact about to be compared with the one its command gives
        (GameAudit._recorded).  Equal, it is that fact, which the schema held when the book
        appended it (ledger/book.py); marshmallow is then asked only for a fact that differs,
        before the difference is said.  (It was the audit's costliest step.)"""
        data = row.get("data")
        if data is not None:
            if checked and not row.get("valid"):
                self._schema(row, data)
                row["valid"] = True
            return data
        seq, text = row["seq"], row["text"]
        found = self._texts.get(text)
        if found is not None and found[0] == row["type"] and found[1] == row["version"]:
            row["data"] = data = found[2]
            if checked and not found[3]:
                self._schema(row, data)
                self._texts[text] = (*found[:3], True)
            row["valid"] = checked or found[3]
            return data
        try:
            data = decode(text)
        except ValueError as exc:
            raise AuditStop(seq, msg("its data is not JSON ({why})", why=reason(exc))) from None
        if type(data) is not dict:
            raise AuditStop(seq, msg("its data is not a JSON object ({text})", text=short(text)))
        if (row["chain"] == 2 or row["chain"] == TABLE_CHAIN_VERSION) \
                and canonical_text(data) != text:
            # Since format 2 banco writes every data as canonical JSON, and the chain hashes
            # that text: another spelling of it (a key twice, the first one read by nobody)
            # was written by someone else, then re-chained.  A row binding a snapshot (chain
            # version 3) is written the same way.
            raise AuditStop(seq, msg("its data is not spelt as banco writes it (canonical JSON: "
                                 "sorted keys, each once, no spaces): the row was rewritten"))
        # the facts as today's schema holds them: an older row through its upcaster
        data = upcast(row["type"], row["version"], data)
        if checked:
            self._schema(row, data)
        row["data"], row["valid"] = data, checked
        if len(self._texts) > 16384:
            self._texts.clear()
        self._texts[text] = (row["type"], row["version"], data, checked)
        return data

    def _spelt_as(self, row: dict, given) -> bool:
        """Whether the row's stored text is the canonical spelling of `given`, the data of
        the fact its command gives (GameAudit._recorded), in today's schema version: then its
        data is `given` itself, the very value decide folded into the table the checks look
        at, and the text is neither parsed nor spelt again to see that it is banco's spelling
        (it is, by construction).  False for anything else, left to _data.

        `given` is kept, not copied into the form JSON reads back (lists for tuples): the
        facts decide gives are JSON's own (tests/test_audit_shortcuts.py holds them to it),
        and a text met again is held to a later fact by value, then by its spelling
        (GameAudit._recorded), never found different by form alone.  (The copy was 4% of
        the audit.)"""
        version = row["version"]
        if version != SCHEMA_VERSION or type(version) is not int:
            return False  # an older row is read through its upcaster
        try:  # canonical_text's C encoder, called here: a call a fact
            if ("".join(canonical_chunks(given, 0)) if canonical_chunks is not None
                    else canonical_text(given)) != row["text"]:
                return False
        except (TypeError, ValueError):
            return False
        row["data"], row["valid"] = given, False
        if len(self._texts) > 16384:
            self._texts.clear()
        self._texts[row["text"]] = (row["type"], version, given, False)
        return True

    def _schema(self, row: dict, data) -> None:
        """`data` (upcast) against today's schema of its type, by marshmallow: once a text,
        as _data keeps what it checked."""
        try:
            validate(row["type"], data, SCHEMA_VERSION if type(row["version"]) is int
                     and 1 <= row["version"] <= SCHEMA_VERSION else row["version"])
        except InvalidEvent as exc:
            raise AuditStop(row["seq"], msg("schema: {why}", why=str(exc))) from None


    # the book's snapshots, held to the log

    def _snapshot_head(self, snap, hsh: str) -> None:
        """A snapshot keeps the hash the log had at its seq: another one there means the
        history up to it was rewritten after it was taken (or the snapshot was forged)."""
        if snap.head != hsh:
            raise AuditStop(snap.seq, msg(
                "the book's snapshot at event {seq} was taken when that event's hash was "
                "{was}..., not {now}...: the history up to event {seq} was rewritten since, or "
                "the snapshot was forged", seq=snap.seq, was=str(snap.head)[:12], now=hsh[:12]))

    # what the head printed earlier says at the end of the log

    def _no_rows_head(self) -> None:
        """No event of this game in the file: a head printed from it cannot be here (a game
        deleted whole, rows and games-table entry, once passed its own head line)."""
        kind, value = self.expect
        if kind == "line":
            raise AuditStop(1, msg(
                "the head line banco/{game}/{seq}/{prefix} was printed at event {seq} of "
                "game {game}, but this file holds no event of game {game}: the game was "
                "deleted, or the line is from another database", game=self.game_id,
                seq=value[0], prefix=value[1]))
        if kind == "head":
            self._expected_head_found(value)

    def _head_at_the_end(self) -> None:
        """--expect-head, once the whole log is read: found where it was printed, or why not."""
        kind, value = self.expect
        if kind == "head":
            self._expected_head_found(value)
        if kind == "line":
            seq, prefix = value
            line = f"banco/{self.game_id}/{seq}/{prefix}"
            if seq > self.count:
                raise AuditStop(self.count + 1, msg(
                    "the head line {line} was printed at event {seq}, but the log stops at "
                    "event {last}: it was cut short", line=line, seq=seq, last=self.count))
            if seq < self.count:  # intact up to it; what came after is said, never passed over
                self.expect_notes.append(msg(
                    "the head {head} is event {seq}'s: events 1-{seq} are as they were when it "
                    "was printed; the log went on past it: events {next}-{last} came after",
                    head=line, seq=seq, next=seq + 1, last=self.count))


# How far a game's recorded times may go back from one event to the next: a computer's clock
# corrected by its time service steps by seconds; more is a clock set back by hand or a row
# rewritten, and a time in between names two moments (`replay --from` and `state --at`
# refuse it).  A problem, as every time the audit holds a row to is (one command, one time).
CLOCK_TOLERANCE = 120  # seconds


def _time_back(seq: int, at: str, last: str) -> None:
    from datetime import datetime

    try:
        back = (datetime.fromisoformat(last) - datetime.fromisoformat(at)).total_seconds()
    except ValueError:
        return  # a time that is no time: not this check's to say
    if back > CLOCK_TOLERANCE:
        raise AuditStop(seq, msg(
            "recorded at {at}, {back} s before the command before it (recorded at {last}): a "
            "game's times go back by {most} s at most (a clock corrected by its time "
            "service); the clock was set back, or the row rewritten", at=at, back=int(back),
            last=last, most=CLOCK_TOLERANCE))


def reason(exc: Exception):
    """Why, as the exception says it: its message (a Text when it has one), else its str."""
    first = exc.args[0] if exc.args else None
    return first if isinstance(first, Text) else str(exc)


def short(text, limit: int = 40) -> str:
    text = str(text)
    return text if len(text) <= limit else text[:limit - 3] + "..."


_HEX = re.compile(r"^[0-9a-f]{8,64}$")


def expected_head(text: str | None) -> tuple[str | None, Any]:
    """--expect-head: a score sheet's line banco/GAME/SEQ/12HEX, or a head hash, whole or any
    prefix of 8 hex digits or more, in any case.  ValueError: neither."""
    if text is None:
        return None, None
    from banco.ledger.records.seals import parse_head_line

    line = parse_head_line(text)
    if line is not None:
        if max(line.game, line.seq) > 2**63 - 1:  # SQLite's largest integer: no such row
            raise ValueError(msg("--expect-head {text}: no game or event has a number that "
                                 "large", text=repr(short(text))))
        return "line", (line.seq, line.prefix)
    value = text.strip().lower()
    if not _HEX.match(value):
        raise ValueError(msg("--expect-head takes a head hash (at least its first 8 hex "
                             "digits) or a head line banco/GAME/SEQ/12HEX, not {text}",
                             text=repr(short(text))))
    return "head", value


def check_expected_head(text: str | None) -> None:
    """Raises ValueError for an --expect-head that is neither a hash prefix nor a head line."""
    expected_head(text)

