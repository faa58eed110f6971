"""A game's history as a file a third party can verify, and the import that verifies it.

The export is JSON Lines.  Line 1 is a header:

    {"banco_export": 2, "game_uuid": ..., "players": [...], "rules": "classic", "edition": "it",
     "first_player": ..., "events": N, "head": "<hash of the last event>",
     "chain_versions": [2], "chain_game_id": null, "hashed_fields": {"2": [...]}}

then one event a line, in seq order, as canonical JSON (ledger/store/canonical.py: sorted keys, no
spaces, UTF-8 as is) with exactly the fields `actor, chain_version, command_id, data, hash,
prev_hash, recorded_at, schema_version, seq, type`.  Anyone can check it without banco:
`hash = sha256(prev_hash + canonical JSON of the row's hashed_fields)`, the first prev_hash is
64 zeros, and the last hash is the head.  Rows of chain version 1 (games recorded before banco's
format 2) also hash `game_id`, the game's number in the database it was first recorded in: the
header carries it as `chain_game_id`, and an import keeps it beside the game.

Nothing in the file depends on the database it came from, so export -> import -> export gives
the same bytes.  An import checks every line as it streams (fields, seq order, the chain, each
hash, the header's claims: each line's own checks are projections/exchange/import_rows.py),
writes in batches inside one transaction, runs the audit over the game as written
(projections/audit/audit.py, whatever checks it makes) and commits only if all of it holds:
everything or nothing, in bounded memory.
"""

from __future__ import annotations

import gc
import json
from collections.abc import Callable, Iterable, Iterator
from json.encoder import encode_basestring
from typing import ClassVar

from banco.ledger.base.errors import EXIT_AUDIT, BancoError, UsageError
from banco.ledger.store.canonical import (
    GENESIS,
    HASHED_FIELDS,
    TABLE_CHAIN_VERSION,
    canonical_json,
    row_hash,
    stored_row_hash,
)
from banco.projections.exchange.import_rows import (
    CANONICAL,
    FORMAT,
    Hasher,
    ImportRefused,
    check_fields,
    parse,
    place,
    read_header,
)

BATCH = 5000  # rows per INSERT batch: memory stays flat however long the game
_dump = json.JSONEncoder(ensure_ascii=False).encode


class ExportRefused(BancoError):
    """The game's own chain is broken: an export of it could not be verified (exit 3)."""

    # A ClassVar (compiled, a plain class attribute here never reached the class: exit 2);
    # BancoError's says int, which mypy reads as an instance variable.
    exit_code: ClassVar[int] = EXIT_AUDIT  # type: ignore[misc]


# --- export -----------------------------------------------------------------------------------

def _game_started(data_text: str, type_: str) -> dict | None:
    return json.loads(data_text) if type_ == "GameStarted" else None


def export_lines(store, game_id: int) -> Iterator[str]:
    """The export of one game, line by line (no newlines).  Two passes over the rows, both
    streamed: the first checks the chain and finds what the header says, the second writes."""
    hashed_as = (store.game(game_id) or {}).get("chain_game_id")
    hashed_as = game_id if hashed_as is None else hashed_as
    count, head, prev, versions, started, recoded = 0, GENESIS, GENESIS, set(), None, set()
    typed = False  # a row of schema version 3 or later: FORMAT
    for r in store.iter_raw(game_id):
        g, seq, type_, data, at, actor, cid, version, prev_hash, hsh, chain, table = r
        count += 1
        if seq != count or prev_hash != prev:
            raise ExportRefused("game {game_id} event {count} is missing or out of place in the chain: run `banco audit`; nothing was exported",
                                game_id=game_id, count=count)
        if chain not in HASHED_FIELDS:  # a row written by a newer banco, or edited
            raise ExportRefused("game {game_id} event {seq} has chain version {chain}, which "
                                "this banco does not know: run `banco audit`; nothing was "
                                "exported", game_id=game_id, seq=seq, chain=chain)
        if stored_row_hash(prev, hashed_as, seq, type_, data, at, actor, cid, version,
                           chain, table) != hsh:
            # The data as stored is not in canonical form, or the row was changed.
            row = {"game_id": hashed_as, "seq": seq, "type": type_, "data": json.loads(data),
                   "recorded_at": at, "actor": actor, "command_id": cid,
                   "schema_version": version, "chain_version": chain, "table_digest": table}
            if row_hash(prev, row) != hsh:
                raise ExportRefused("game {game_id} event {seq} does not match its hash: run `banco audit`; nothing was exported",
                                    game_id=game_id, seq=seq)
            recoded.add(seq)
        versions.add(chain)
        typed = typed or version not in (1, 2)
        if started is None and type_ != "CommandRecorded":
            started = _game_started(data, type_)
            if started is None:
                raise ExportRefused("game {game_id} does not begin with GameStarted",
                                    game_id=game_id)
        prev = head = hsh
    if started is None:
        raise UsageError("game {game_id} has no events to export",
                         game_id=game_id)
    header = {
        "banco_export": FORMAT if typed else 1, "game_uuid": started.get("game_uuid"),
        "players": started["players"], "rules": started["rules"].get("name"),
        "edition": started["edition"], "first_player": started["first_player"],
        "events": count, "head": head, "chain_versions": sorted(versions),
        "chain_game_id": hashed_as if 1 in versions else None,
        "hashed_fields": {str(v): list(HASHED_FIELDS[v]) for v in sorted(versions)}}
    yield canonical_json(header)
    q = encode_basestring
    for r in store.iter_raw(game_id):
        g, seq, type_, data, at, actor, cid, version, prev_hash, hsh, chain, table = r
        if seq > count:  # appended since the first pass: not what the header announces
            break
        if seq in recoded:
            data = canonical_json(json.loads(data))
        # canonical_json of the row, assembled around the stored (canonical) data text; the
        # table digest only where the row's chain version hashes it; a string quoted by json's
        # C function itself (what `_dump` calls, a tenth of the cost)
        digest = f'"table_digest":{_dump(table)},' if chain == TABLE_CHAIN_VERSION else ""
        yield (f'{{"actor":{q(actor) if type(actor) is str else _dump(actor)},'
               f'"chain_version":{chain},'
               f'"command_id":{q(cid) if type(cid) is str else _dump(cid)},'
               f'"data":{data},"hash":{q(hsh) if type(hsh) is str else _dump(hsh)},'
               f'"prev_hash":{q(prev_hash) if type(prev_hash) is str else _dump(prev_hash)},'
               f'"recorded_at":{q(at) if type(at) is str else _dump(at)},'
               f'"schema_version":{version},"seq":{seq},'
               f'{digest}"type":{q(type_) if type(type_) is str else _dump(type_)}}}')


# --- import (each line's own checks: projections/exchange/import_rows.py) ----------------------

def _lied(field: str, said, found) -> ImportRefused:
    return ImportRefused("line 1 (the header) says {field} {said!r} but the events say {found!r}: the header lies; nothing was imported",
                         field=field, said=said, found=found)


def import_lines(store, lines: Iterable[str], *, source: str, now: str,
                 expect_head: str | None = None, seal=None, imp=None, first_line: int = 1,
                 commit: bool = True, progress: Callable[[int], None] | None = None,
                 later: list | None = None) -> dict:
    """Verify and import one exported game from `lines` (a text file, read lazily); returns
    what was imported (game, uuid, events, head).  ImportRefused (exit 3) names the line and
    the event of the first thing wrong; UsageError for what is not an export at all or a game
    this database already has.  Nothing is written unless everything holds.  `seal`: (a
    ledger.records.seals.SealFile, the referee's public key): the sealed prefix must be in the history
    imported, as `audit --seal` holds a database to it (the result's `seal`: its SealCheck).
    A tournament's archive (projections/exchange/tournament_archive.py) brings several games in one
    transaction: `imp` the GameImport to write into, `first_line` the header's line in the
    archive (the lines named are the archive's), `commit` False to leave it open.
    `progress(events read)`: told every 1,000 events (a bar, cli/progress.py).
    `later`: an archive's games are audited at once, one a process (DESIGN.md): the game's
    audit runs beside its import whatever its length, and what remains once every row is in
    (the audit's verdict, then the game's index and commit) is appended to `later` as a
    Later, for the archive to conclude once the next games are under way; what is returned
    is then what the import will say if the audit passes."""
    from banco.projections.audit.audit import GameAudit
    from banco.projections.exchange import import_audit

    it = iter(lines)
    h = read_header(next(it, None))
    hashed_as = h["chain_game_id"]
    imp = store.begin_import() if imp is None else imp
    imp.expected = h["events"]  # (a long game into a new file: GameImport._lift_indexes)
    beside = None  # the audit in a process of its own, for a long game
    collecting = gc.isenabled()  # the collector, paused while the lines are read
    handed = False  # ... handed to the archive, which awaits its verdict (`later`)
    try:
        game_id = imp.game_id
        uid = h["game_uuid"]
        if uid is not None:
            taken = store.find_game(uuid=uid)
            if taken is not None:
                from banco.projections.exchange.stored_copy import difference

                differs = difference(store, taken, it, h)
                if differs is not None:  # a copy kept that is not this history: said
                    raise ImportRefused("this game is already game {taken} in {path} (uuid "
                                        "{uid}), but the copy stored differs from this file: "
                                        "{differs}; nothing was imported (`banco audit --game "
                                        "{taken}` checks the stored copy)", taken=taken,
                                        path=store.shown, uid=uid, differs=differs)
                raise UsageError("this game is already game {taken} in {path} (uuid {uid}); nothing was imported",
                                 taken=taken, path=store.shown, uid=uid)
        prev, count, started, ended, batch = GENESIS, 0, None, None, []
        model = _ReadModel(imp)  # the read model's rows, kept batch by batch with the rows
        versions = set()
        # --expect-head as the audit reads it: a head hash (8+ of its hex digits) or a score
        # sheet's head line banco/GAME/SEQ/12HEX
        from banco.projections.audit.rows import expected_head

        expect_kind, expect_value = expected_head(expect_head)
        head_at: list[int] = []  # the events whose hash is the expected head
        hasher = Hasher()
        text_and_hash = hasher.text_and_hash
        announced, listed = h["events"], set(h["chain_versions"])
        # a line banco wrote, read without parsing it whole (Hasher.quick), once the game has
        # started (its GameStarted is checked against the header the long way)
        quick = hasher.quick if 2 in listed else None
        if later is not None or announced >= import_audit.THRESHOLD:
            # hashed_as as the one pass below has it whenever the import succeeds (the header
            # must list exactly the versions found)
            beside = import_audit.start(
                game_id, imp.raw_rows(hashed_as if 1 in listed else None).hashed_as)
        datas: list[dict] = []  # each row's data, beside the batch, for the read model
        # The lines' tuples, dicts and strings hold no cycle, but allocating them set off the
        # collector's passes over every object alive (3.5% of the instructions): paused
        # until every line is read
        gc.disable()
        for number, line in enumerate(it, start=first_line + 1):
            read = quick(line, prev, count + 1) \
                if quick is not None and started is not None and count < announced else None
            if read is not None:
                stored, data = read
                seq, type_, hsh = count + 1, stored[1], stored[8]
                versions.add(2)
            else:
                stored, data = _read_slowly(line, number, count, prev, h, listed, hashed_as,
                                            text_and_hash)
                seq, type_, hsh = stored[0], stored[1], stored[8]
                versions.add(stored[9])
                if started is None and type_ != "CommandRecorded":
                    started = {"type": type_, "data": data, "seq": seq}
                    _check_start(h, started, number)
                    if uid is None:
                        taken = store.find_game(first_hash=hsh) if seq == 1 else None
                        if taken is not None:
                            raise UsageError("this game is already game {taken} in {path} (same first event); nothing was imported",
                                             taken=taken, path=store.shown)
                if seq == 1:
                    first_at = stored[3]
            if type_ == "GameEnded":
                ended = seq
            elif type_ == "EventRetracted" and ended in data.get("seqs", ()):
                ended = None
            if expect_kind is not None:
                if expect_kind == "head" and hsh.startswith(expect_value):
                    head_at.append(seq)
                elif expect_kind == "line" and seq == expect_value[0]:
                    if not hsh.startswith(expect_value[1]):
                        raise ImportRefused("line {number}: event {seq}'s hash is {hash}..., not the {prefix} of the head line printed then: the history up to it was rewritten; nothing was imported",
                                            number=number, seq=seq, hash=hsh[:12],
                                            prefix=expect_value[1])
                    head_at.append(seq)
            batch.append(stored)
            datas.append(data)
            if len(batch) >= BATCH:
                imp.insert(batch)
                if beside is not None:
                    beside.send(batch)
                model.keep(batch, datas, started, seq)  # while the audit beside reads the batch
                batch, datas = [], []
            if progress is not None and seq % 1000 == 0:
                progress(seq)
            prev, count = hsh, seq
        if collecting:
            gc.enable()
        if count < h["events"]:
            raise ImportRefused("the file ends after line {amount} (event {count}), but its header announces {events} events: it was cut short; nothing was imported",
                                amount=count + first_line, count=count, events=h['events'])
        if prev != h["head"]:
            raise ImportRefused("the last event's hash is {prev}..., the header's head is {head}...: the header lies, or the history was rewritten; nothing was imported",
                                prev=prev[:12], head=str(h['head'])[:12])
        if sorted(versions) != sorted(h["chain_versions"]):
            raise _lied("chain_versions", h["chain_versions"], sorted(versions))
        if expect_kind == "line" and not head_at:
            raise ImportRefused("the head line {line} was printed at event {seq}, but the file stops at event {count}: it was cut short; nothing was imported",
                                line=(expect_head or "").strip(), seq=expect_value[0], count=count)
        if expect_kind == "head" and not head_at:
            # as audit --expect-head says it: another game or file is as likely as a rewrite
            raise ImportRefused("the head {expect_head} is not found in this history (events 1-{count}): it was printed from another game or database, or the history up to it was rewritten; nothing was imported",
                                expect_head=expect_value[:12], count=count)
        if len(head_at) > 1:
            raise ImportRefused("the head {head}... matches events {seqs}: give more of its digits; nothing was imported",
                                head=expect_value[:12], seqs=", ".join(map(str, head_at)))
        if started is None:
            raise ImportRefused("the file has no GameStarted: not a game; nothing was imported")
        if batch:
            imp.insert(batch)
            if beside is not None:
                beside.send(batch)
            model.keep(batch, datas, started, count)
        d = started["data"]
        said = {"game": game_id, "uuid": uid, "events": count, "head": prev,
                "expected_head_at": head_at[0] if head_at else None,
                "players": d["players"], "rules": d["rules"].get("name"),
                "ended": ended is not None,
                "chain_game_id": hashed_as if 1 in versions else None, "seal": None}

        def judged() -> list:
            # the whole audit over the rows as written, but their hashes: checked above, from
            # the very values inserted, and read back in this transaction (or audited as they
            # were inserted, beside the import: the same rows, the same verdict): the
            # snapshots to keep, or ImportRefused
            if beside is None:
                judge = GameAudit(game_id, imp.raw_rows(hashed_as if 1 in versions else None),
                                  hashes_checked=True)
                report = judge.run()
            else:
                report, snapshots = beside.verdict(count, prev)
            if not report.ok:
                raise ImportRefused("the audit stops at event {bad_seq} (line {amount}): {problem}; nothing was imported",
                                    bad_seq=report.bad_seq,
                                    amount=(report.bad_seq or 0) + first_line,
                                    problem=report.problem)
            return import_audit.book_snapshots(judge, count, prev) if beside is None \
                else snapshots

        def conclude(snapshots: list) -> dict:
            said["seal"] = _sealed(store, game_id, uid, seal) if seal is not None else None
            meta = {store.IMPORTED_KEY.format(game_id): canonical_json(
                {"at": now, "from": source, "events": count, "head": prev})}
            if 1 in versions:
                meta[store.CHAIN_GAME_KEY.format(game_id)] = str(hashed_as)
            imp.finish({"game_uuid": uid, "started_at": first_at, "players": d["players"],
                        "rules": d["rules"].get("name"), "edition": d["edition"],
                        "last_seq": count, "head": prev, "ended_seq": ended}, meta,
                       snapshots, now, commit=commit)
            return said

        if later is not None and beside is not None:
            later.append(Later(judged, conclude, beside))
            handed = True  # the archive's to close now
            return said
        return conclude(judged())
    except BaseException:
        imp.abort()
        raise
    finally:
        if collecting:
            gc.enable()
        if beside is not None and not handed:
            beside.close()


class Later:
    """An archive's game whose rows are all in and whose audit runs beside (import_lines'
    `later`): `judged()` waits for its verdict (ImportRefused if the audit refuses the game),
    `conclude()` then indexes the game in the archive's transaction; `close()` stops its
    audit, in every case."""

    def __init__(self, judged: Callable[[], list], conclude: Callable[[list], dict],
                 beside) -> None:
        self._judged, self._conclude, self.beside = judged, conclude, beside
        self.snapshots: list | None = None

    def judged(self) -> None:
        if self.snapshots is None:
            self.snapshots = self._judged()

    def conclude(self) -> dict:
        self.judged()
        return self._conclude(self.snapshots)

    def close(self) -> None:
        self.beside.close()


def _read_slowly(line: str, number: int, count: int, prev: str, h: dict, listed: set,
                 hashed_as, text_and_hash) -> tuple[tuple, dict]:
    """Line `number` parsed and checked field by field, the long way (any line Hasher.quick
    does not take, and the first of a game): (the row as GameImport.insert takes it, its
    data), or ImportRefused naming what is wrong with it."""
    row = parse(line, number)  # a blank line refused as such
    expected = count + 1
    check_fields(row, number)
    seq = row["seq"]
    if count >= h["events"]:
        raise ImportRefused("line {number} holds event {seq}, but the header announces {events} events: the header lies, or lines were added; nothing was imported",
                            number=number, seq=seq, events=h['events'])
    if seq != expected:
        raise ImportRefused("line {number}: event {expected} expected, but the line holds event {seq}: a line was deleted or moved; nothing was imported",
                            number=number, expected=expected, seq=seq)
    if row["prev_hash"] != prev:
        raise ImportRefused("{where} does not follow line {amount}: its prev_hash is not the hash of event {amount2}, which was changed, or lines were swapped; nothing was imported",
                            where=place(number, seq), amount=number - 1, amount2=seq - 1)
    chain = row["chain_version"]
    if chain not in listed:
        raise ImportRefused("{where} is chain version {chain}, which the header does not list ({chain_versions}); nothing was imported",
                            where=place(number, seq), chain=chain, chain_versions=h['chain_versions'])
    if chain == 2:
        data_text, hsh = text_and_hash(line, row, prev)
    else:
        data_text = CANONICAL(row["data"])  # floats were refused by the parser
        # never None: seq and schema_version are ints (_check_fields), data_text a str,
        # hashed_as an int wherever the header lists version 1 (_header)
        hsh = stored_row_hash(prev, hashed_as, seq, row["type"], data_text,  # type: ignore[assignment]
                              row["recorded_at"], row["actor"], row["command_id"],
                              row["schema_version"], chain, row.get("table_digest"))
    if hsh != row["hash"]:
        raise ImportRefused("{where} does not match its hash: the line was edited; nothing was imported",
                            where=place(number, seq))
    return (seq, row["type"], data_text, row["recorded_at"], row["actor"], row["command_id"],
            row["schema_version"], prev, hsh, chain, row.get("table_digest")), row["data"]


class _ReadModel:
    """The imported game's read model (ledger/table/read_rows.py), worked out from each batch
    of rows as inserted and kept by the import in its transaction (GameImport.keep_read_model):
    what `doctor --repair` would build from the rows written, without reading them back, and
    rolled back with them if the import is refused.  An event's rows are a function of its
    type and data alone (its seq aside), and a game repeats its facts word for word, so each
    (type, data text) is worked out once and its rows kept, bounded, for the next time.  The
    players' names come from GameStarted, which precedes every fact; a batch with no
    GameStarted yet (only recorded commands, which no banco writes) leaves the game without a
    read model: its readings read the log."""

    KEEP = 8192  # (type, data text)s remembered

    def __init__(self, imp) -> None:
        self.imp, self.names = imp, None
        self.kept = True
        # (type, data text) -> (movements, mentions): this generation's and the one before
        self.seen: dict[tuple[str, str], tuple[list[tuple], list[str]]] = {}
        self.older: dict[tuple[str, str], tuple[list[tuple], list[str]]] = {}

    def keep(self, batch: list[tuple], datas: list[dict], started: dict | None,
             through: int) -> None:
        """`batch`: the rows as inserted (seq, type, data text, ...); `datas`: their data, as
        parsed (not parsed again here)."""
        from banco.ledger.store.protocol import ReadRows
        from banco.ledger.table.read_rows import players_in, read_rows

        if self.names is None and started is not None:
            self.names = players_in([started])
        if self.names is None:
            self.kept = False
        if not self.kept:
            return
        seen, older = self.seen, self.older
        # the (type, data text)s not met before, worked out in one call for the batch
        new: list[tuple[str, str]] = []
        events: list[dict] = []
        found: list = []  # each row's (movements, mentions), or its key, to work out
        for row, data in zip(batch, datas, strict=True):
            key = (row[1], row[2])
            rows = seen.get(key)
            if rows is None:
                rows = older.get(key)
                if rows is None:  # the key itself, until its rows are worked out below
                    events.append({"seq": len(new), "type": row[1], "data": data})
                    new.append(key)
                    rows = key
                seen[key] = rows
            found.append(rows)
        if new:
            got = read_rows(events, self.names)
            moved: list[list[tuple]] = [[] for _ in new]
            named: list[list[str]] = [[] for _ in new]
            for m in got.movements:
                moved[m[0]].append(m[1:])
            for subject, i in got.mentions:
                named[i].append(subject)
            worked = {key: (one, two) for key, one, two in zip(new, moved, named, strict=True)}
            seen.update(worked)
            found = [worked[f] if type(f[0]) is str else f for f in found]
        moves: list[tuple] = []
        mentions: list[tuple] = []
        for row, (one, two) in zip(batch, found, strict=True):
            seq = row[0]
            if one:
                moves.extend([(seq, *m) for m in one])
            for subject in two:
                mentions.append((subject, seq))
        if len(seen) >= self.KEEP:  # bounded: the last two generations kept
            self.older, self.seen = seen, {}
        self.imp.keep_read_model(ReadRows(moves, mentions), through)


def _sealed(store, game_id: int, uid: str | None, seal):
    """The referee's seal held to the rows just inserted (in the import's transaction):
    ImportRefused unless the history it sealed is there, intact."""
    from banco.projections.audit.database_audit import check_seal

    sealed, public_key = seal
    if sealed.game_uuid and uid and sealed.game_uuid != uid:
        raise ImportRefused("the seal is of the game {sealed}, this file holds the game {uuid}: "
                            "not the game sealed; nothing was imported",
                            sealed=sealed.game_uuid, uuid=uid)
    check = check_seal(store, sealed, public_key, game=game_id)
    if not check.ok:
        raise ImportRefused("the seal {line} does not hold: {problem}; nothing was imported",
                            line=sealed.line, problem=check.problem)
    return check


def _check_start(h: dict, row: dict, number: int) -> None:
    if row["type"] != "GameStarted":
        raise ImportRefused("line {number} (event {seq}) is {type}: a game begins with GameStarted; nothing was imported",
                            number=number, seq=row['seq'], type=row['type'])
    d = row["data"]
    for field, found in (("game_uuid", d.get("game_uuid")), ("players", d.get("players")),
                         ("rules", (d.get("rules") or {}).get("name")),
                         ("edition", d.get("edition")),
                         ("first_player", d.get("first_player"))):
        if h[field] != found:
            raise _lied(field, h[field], found)
