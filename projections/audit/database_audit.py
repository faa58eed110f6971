"""The audit of a whole database file: every game (projections/audit/audit.py, one streaming pass
each), and what the file holds beside the games (ledger/store/health.py): the triggers, the games
table against each log (so a log cut short is caught without a seal), the tournaments' own
chains, the maintenance history; and, given a referee's seal and public key, the sealed
prefix of one game (ledger/records/seals.py).

A file's games are audited one a process (projections/audit/audit_games.py), each with the one
pass's verdict.  The audit never repairs anything (that is `banco doctor --repair`) and never trusts the games
table or a snapshot: each game is folded from its first event.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field

from banco.ledger.base.errors import DatabaseError
from banco.ledger.base.text import msg
from banco.ledger.store.connection import NotText
from banco.ledger.store.file_checks import undecodable
from banco.ledger.store.games import listed_games
from banco.ledger.store.health import Finding
from banco.ledger.store.tokens import UNCHECKED, UNKEYED
from banco.projections.audit.audit_games import audit_games
from banco.projections.audit.results import AuditReport


@dataclass
class SealCheck:
    """What a seal file proves about the database: the game, the sealed event, whether the
    sealed prefix is intact, the first event where it is not, and what came after it."""
    game: int | None
    seq: int
    referee: str
    fingerprint: str
    line: str
    bad_seq: int | None = None
    problem: str | None = None
    after: list[dict] = field(default_factory=list)  # {first, last, line} a command
    last_seq: int = 0

    @property
    def ok(self) -> bool:
        return self.problem is None

    def document(self) -> dict:
        return {"game": self.game, "seq": self.seq, "line": self.line, "referee": self.referee,
                "fingerprint": self.fingerprint, "ok": self.ok, "bad_seq": self.bad_seq,
                "problem": self.problem, "last_seq": self.last_seq, "after": self.after}


@dataclass
class DatabaseReport:
    games: list[AuditReport]
    findings: list[Finding]  # the file's, not one game's (triggers, tournaments ...)
    maintenance: list[dict]
    seal: SealCheck | None = None
    not_checked: list = field(default_factory=list)  # the store's (a key elsewhere): no problem

    @property
    def ok(self) -> bool:
        return (all(r.ok for r in self.games) and not self.findings
                and (self.seal is None or self.seal.ok))

    def document(self) -> dict:
        return {"ok": self.ok, "games": [r.document() for r in self.games],
                "database": [f.document() for f in self.findings],
                "maintenance": self.maintenance,
                "seal": self.seal.document() if self.seal is not None else None,
                "not_checked": [str(n) for n in self.not_checked]}


def _tournament_contents(store) -> list[Finding]:
    """What the tournaments whose chains hold say (projections/readings/tournament.py): the games they
    enter folded at the event each was entered at, and now."""
    from banco.ledger.book import Book
    from banco.ledger.store.tournament_log import TABLE
    from banco.projections.readings.tournament import tournament_findings

    read_table = getattr(store, "read_table", None)  # the tables kept beside the games'
    if read_table is None or not read_table(f"SELECT 1 FROM {TABLE} LIMIT 1"):
        return []
    return tournament_findings(Book(store.path, store=store))


def game_ids(store) -> list[int]:
    """Every game of the file: in the games table or in the log (a game the table lost is
    still audited)."""
    indexed = {g["game_id"] for g in listed_games(store)}
    if store.format < 1:  # no file, or an empty one: no log to read
        return sorted(indexed)
    return sorted(indexed | set(store.checks().logged_games()))


def _miswritten_line(store, report, expect_head: str | None) -> None:
    """A head line whose hash is another event's than the one it names is more likely a slip
    of the pen on the score sheet than a rewrite: the report says which event has it (the line
    as written still fails)."""
    from banco.ledger.records.seals import parse_head_line

    line = parse_head_line(expect_head) if expect_head else None
    if line is None or report.ok or line.game != report.game_id or store.format < 1:
        return
    prefix = line.prefix.lower()
    named = store.checks().hash_prefix(prefix)
    found = [s for g, s in named if g == report.game_id]
    if not found:  # the line's event may be another game's now: the numbers were swapped
        elsewhere = [(g, s) for g, s in named if g != report.game_id][:2]
        if len(elsewhere) == 1 and elsewhere[0][1] == line.seq:
            report.problem = msg(
                "the head line names game {game}, but {prefix} is the hash of event {seq} of "
                "game {other}: the games were renumbered since the line was written (or the "
                "game's number was miswritten)", game=report.game_id, prefix=prefix,
                seq=line.seq, other=elsewhere[0][0])
        return
    if report.bad_seq != line.seq:
        return
    if len(found) == 1 and found[0] != line.seq:
        report.problem = msg(
            "the head line names event {seq}, but {prefix} is the hash of event {found}: check "
            "the event number written with it (`--expect-head banco/{game}/{found}/{prefix}`); "
            "as written, the line does not match this history", seq=line.seq, prefix=prefix,
            found=found[0], game=report.game_id)


def audit_database(store, game: int | None = None, expect_head: str | None = None,
                   seal=None, public_key: str | None = None,
                   progress: Callable[[int], None] | None = None) -> DatabaseReport:
    """Audit `game`, or every game of the file (None), and the file itself.  `expect_head`
    applies to the one game audited.  `seal` (a ledger.records.seals.SealFile) with the referee's
    `public_key` (hex): its game's sealed prefix checked too.  `progress(events done)`: told
    as the games' passes go (a bar, cli/progress.py)."""
    store.checks().refuse_damaged(whole=True)  # the engine's own check first (SQLite's quick_check):
    # the chain cannot see a damaged page
    ids = game_ids(store)
    if game is not None:
        ids = [g for g in ids if g == game] or [game]
    findings: list[Finding] = []
    index: dict[int, list[Finding]] = {}
    history: list[dict] = []
    unchecked: list = []
    if store.format >= 1:
        health = store.checks().health(tournaments=game is None)
        for f in health.findings:
            if f.game is not None:
                index.setdefault(f.game, []).append(f)
            else:
                findings.append(f)
        if game is None:
            findings += _tournament_contents(store)
        history = health.maintenance  # its findings are among health's
        # the tokens' key elsewhere (a copy): what it leaves unchecked is said, no problem
        unchecked = [n for n in health.not_checked
                     if getattr(n, "template", None) in (UNCHECKED, UNKEYED)]
    reports = []
    of_the_table = set()  # games whose verdict is the games table's, not their events'
    for report in _audited(store, ids, expect_head, progress):
        _miswritten_line(store, report, expect_head)
        g = report.game_id
        for f in index.get(g, ()):
            if report.ok:
                report.bad_seq, report.problem = f.seq, f.problem
                of_the_table.add(g)
            else:
                report.notes.append(msg("also: {problem}", problem=f.problem))
        reports.append(report)
    check = None
    if seal is not None:
        check = check_seal(store, seal, public_key)
        audited = next((r for r in reports if r.game_id == check.game), None)
        # an edit of the games table alone leaves the sealed events as they were: the game's
        # report names the table, the seal is not misreported as broken
        if check.ok and audited is not None and audited.bad_seq is not None \
                and audited.game_id not in of_the_table and audited.bad_seq <= seal.seq:
            # The hashes are the sealed ones but a row is not what they hash (or not what its
            # command gives, which sealing would have refused): the sealed prefix was touched.
            check.bad_seq = audited.bad_seq
            check.problem = msg("event {seq} is among the sealed events, and it is not what "
                                "was sealed: {problem}", seq=audited.bad_seq,
                                problem=audited.problem)
    return DatabaseReport(reports, findings, history, check, unchecked)


def _audited(store, ids: list[int], expect_head: str | None,
             progress: Callable[[int], None] | None = None) -> list[AuditReport]:
    """Each game's audit.  A row whose text is not UTF-8 stops sqlite3 with "Could not decode
    to UTF-8 column 'data'" and no row named: then the rows are read as bytes to name the game
    and seq, those games fail there, and the others are audited as usual."""
    try:
        return list(audit_games(store, ids, expect_head, progress=progress))
    except DatabaseError as exc:
        # only a file's bytes can be text that is not UTF-8 (a PostgreSQL server refuses it)
        if not isinstance(exc, NotText) or store.checks().worker_path() is None:
            raise
    bad: dict[int, tuple[int, str]] = {}
    for g, seq, column in undecodable(store.conn):
        bad.setdefault(g, (seq, column))
    if not bad:
        raise DatabaseError("cannot use the database {path}: a row is not UTF-8 text",
                            path=store.shown)
    reports = list(audit_games(store, [g for g in ids if g not in bad], expect_head))
    for g in ids:
        if g in bad:
            seq, column = bad[g]
            reports.append(AuditReport(g, store.last_seq(g), "", bad_seq=seq, problem=msg(
                "event {seq}'s {column} is not UTF-8 text: bytes were overwritten, or the row "
                "was edited outside banco", seq=seq, column=column)))
    return sorted(reports, key=lambda r: ids.index(r.game_id))


# --- a seal ---------------------------------------------------------------------------------

def check_seal(store, seal, public_key: str, game: int | None = None) -> SealCheck:
    """Whether the seal file is the referee's (his public key), and the database holds the
    history it sealed: events 1..seq each with the hash the seal's trail has, the sealed head
    at seq (the chain itself is the game audit's).  Names the first event where it parts.
    `game`: the game to hold it to (an import's, before the games table has it); None: the
    game with the seal's identity."""
    from banco.ledger.records import seals

    check = SealCheck(None, seal.seq, seal.referee, seals.fingerprint(seal.public_key),
                      seal.line)
    if seal.public_key != public_key:
        check.problem = msg("the seal was made with the key {sealed}, not with this public "
                            "key ({given})", sealed=seals.fingerprint(seal.public_key),
                            given=seals.fingerprint(public_key))
        return check
    if not seals.verify(public_key, seal.signature, seal.message()):
        check.problem = msg("the seal file's signature does not verify with this public key: "
                            "the file was altered (its game, event, head or referee), or forged")
        return check
    if game is None:
        game = store.find_game(uuid=seal.game_uuid) if seal.game_uuid else None
        if game is None and seal.game_uuid is None:
            game = seal.game
    if game is None or store.last_seq(game) == 0:
        check.problem = (
            msg("no game with the identity {uuid} in this database: the sealed game is gone",
                uuid=seal.game_uuid) if seal.game_uuid else
            msg("no game with the number {game} in this database: the sealed game is gone",
                game=seal.game))
        return check
    check.game = game
    rows = store.checks().hashes(game, seal.seq)
    # the trail is not signed: where the database has the signed head and its rows chain to
    # it unbroken, a trail that parts from them is the file's, edited
    from banco.ledger.store.reading import hash_at

    head_held = hash_at(store, game, seal.seq) == seal.head
    expected = 1
    for seq, hsh in rows:
        if seq != expected:
            check.bad_seq = expected
            check.problem = msg("event {seq}, sealed, is missing (the next one is event "
                                "{next}): a row was deleted", seq=expected, next=seq)
            return check
        if seal.trail and not hsh.startswith(seal.trail[seq - 1]) and head_held \
                and _chained_to(store, game, seal.seq):
            check.problem = msg("the seal file's trail has {trail} for event {seq}, whose hash "
                                "begins {hash}, yet the database holds the signed head: the "
                                "trail (not signed) was edited in the file, not the history",
                                seq=seq, hash=hsh[:seals.TRAIL_DIGITS],
                                trail=seal.trail[seq - 1])
            return check
        if seal.trail and not hsh.startswith(seal.trail[seq - 1]):
            check.bad_seq = seq
            check.problem = msg("event {seq} is not the one sealed (its hash begins {hash}, "
                                "the seal's trail has {trail}): the history was changed there "
                                "(an event rewritten, inserted or taken out)", seq=seq,
                                hash=hsh[:seals.TRAIL_DIGITS], trail=seal.trail[seq - 1])
            return check
        if seq == seal.seq and hsh != seal.head:
            check.bad_seq = seq
            check.problem = msg("event {seq}'s hash is {hash}..., not the sealed head "
                                "{head}...: the history up to it was rewritten", seq=seq,
                                hash=hsh[:12], head=seal.head[:12])
            return check
        expected = seq + 1
    last = expected - 1
    check.last_seq = store.last_seq(game)
    if last < seal.seq:
        check.bad_seq = last + 1
        check.problem = msg("the seal is on event {seq}, but the log stops at event {last}: "
                            "events {first}-{seq} were cut off", seq=seal.seq, last=last,
                            first=last + 1)
        return check
    check.after = _after(store, game, seal.seq)
    _seal_in_its_log(store, seal, game, check)
    return check


def _chained_to(store, game: int, seq: int) -> bool:
    """Whether the game's rows 1..seq chain unbroken (read only when a trail parts: rare)."""
    from banco.ledger.store.canonical import GENESIS
    from banco.ledger.store.chain import read_chained

    reached = 0
    for rows, broken in read_chained(store, game, 0, GENESIS, seq):
        if broken is not None or not rows:
            return False
        reached = rows[-1]["seq"]
    return reached >= seq


def _seal_in_its_log(store, seal, game: int, check: SealCheck) -> None:
    """What the seal file says beyond the sealed prefix, held to the database: the seal's own
    event (SealRecorded, its signature) is still in the log, and the game has the number it
    had when sealed (unless it came in by `import`, which numbers it anew)."""
    recorded = [e for e in store.read(game, types=("SealRecorded",))
                if e["data"].get("seq") == seal.seq]
    if not recorded and seal.game_uuid is not None:
        check.bad_seq = seal.seq + 1
        check.problem = msg("the seal's own event (SealRecorded, after event {seq}) is not in "
                            "the log: the events after the sealed ones were cut", seq=seal.seq)
        return
    if recorded and all(e["data"].get("signature") != seal.signature for e in recorded):
        check.bad_seq = recorded[0]["seq"]
        check.problem = msg("the seal's own event (event {seq}) carries another signature "
                            "than this seal file's: it was rewritten", seq=recorded[0]["seq"])
        return
    if seal.game != game and (store.game(game) or {}).get("imported") is None:
        check.problem = msg("the sealed game (identity {uuid}) was game {sealed} when it was "
                            "sealed and is game {game} here, though it was not imported: the "
                            "games were renumbered", uuid=seal.game_uuid, sealed=seal.game,
                            game=game)


def _after(store, game: int, seq: int) -> list[dict]:
    """The commands after event `seq`: {first, last, line} each (the line as typed, or the
    fact's type for a row no command recorded)."""
    out: list[dict] = []
    cid = object()
    for _, s, type_, data, _, _, command_id, *_ in store.raw_rows(game):
        if s <= seq:  # the rows as stored, streamed (on either store); the sealed ones skipped
            continue
        if out and command_id == cid:
            out[-1]["last"] = s
            continue
        cid = command_id
        line = type_
        if type_ == "CommandRecorded":
            try:
                said = json.loads(data)
                line = said.get("line") or (said.get("command") or {}).get("kind") or \
                    msg("new or undo")
            except (ValueError, AttributeError):
                line = msg("CommandRecorded (its data is not JSON)")
        out.append({"first": s, "last": s, "line": line})
    return out
