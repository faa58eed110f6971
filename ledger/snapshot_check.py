"""`banco doctor`'s check of the snapshots a store keeps: each one against a fresh fold of the
log.  The text itself: ledger/table/snapshot_codec.py; the table that holds it:
ledger/store/schema.py.  A snapshot is a cache, never evidence: the audit reads one only to
hold it to the log.  What binds one to the log before the book uses it:
ledger/store/snapshot_binding.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from banco.ledger.base.text import Text, msg
from banco.ledger.store.reading import game_start, hash_at, retracted_seqs
from banco.ledger.store.snapshot_binding import (
    changed,
    contradicts_log,
    log_at,
    not_chained,
    problem,
    snapshot_digest,
    unusable,
)
from banco.ledger.table import state as st
from banco.ledger.table.snapshot_codec import SnapshotError, canonical, decode, shape

if TYPE_CHECKING:
    from collections.abc import Callable

    from banco.ledger.store.protocol import EventStore, Snapshot
    from banco.ledger.table.state import State


class ChainBroken(Exception):
    """The log does not match its own chain at `seq` (`problem`, a checked read's words): the
    snapshots after it cannot be held to a fold of the log as written, so none of them is
    judged (a genuine one would be called forged, and a repair would delete it)."""

    def __init__(self, game_id: int, seq: int, problem: Text):
        super().__init__(f"game {game_id} event {seq} {problem}")
        self.game_id, self.seq, self.problem = game_id, seq, problem

    @property
    def text(self) -> Text:
        return msg("game {game} event {seq} {problem}: the log no longer matches its chain "
                   "there, so neither its snapshots nor its read model are checked against it "
                   "(and a repair leaves both); run `banco audit`", game=self.game_id,
                   seq=self.seq, problem=self.problem)


class SnapshotFinding(NamedTuple):
    """A stored snapshot that is not the table the log folds to at its seq."""
    game_id: int
    seq: int
    problem: Text  # completes "game G: the snapshot at event N ..."; str() is English

    @property
    def text(self) -> Text:
        """The whole finding, a message the CLI says in the user's language."""
        return msg("game {game}: the snapshot at event {seq} {problem}", game=self.game_id,
                   seq=self.seq, problem=self.problem)

    def __str__(self) -> str:
        return str(self.text)


def verify_snapshots(source: EventStore, game_id: int,
                     chunk: int = 2000) -> list[SnapshotFinding]:
    """Every snapshot of the game checked against a fresh fold of the log (never against
    another snapshot), streamed a chunk at a time: [] when each one is the table folded to its
    seq.  A snapshot the book would not use (another shape, a head the log does not have at
    its seq) is named too: harmless, since it is rebuilt, but a sign of an edit or of a log
    rewritten under it; except another banco's, as it wrote it (_another_banco_s).  For `banco doctor`: the audit never reads snapshots."""
    store = getattr(source, "store", source)  # a Book, or the store itself
    snaps = sorted(store.snapshots(game_id))
    started = game_start(store, game_id) if snaps else None
    if not snaps:
        return []
    if started is None:
        return [SnapshotFinding(game_id, s.seq, msg("belongs to a log without GameStarted"))
                for s in snaps]
    try:
        dealt = st.initial_state(game_id, started)
    except ValueError as exc:
        return [SnapshotFinding(game_id, s.seq, msg("cannot be checked: {why}", why=str(exc)))
                for s in snaps]
    findings = []
    state, at, gone_at = dealt, 0, set()  # the fresh fold: the table after event `at`
    for snap in snaps:  # oldest first: one pass over the log for all of them
        if snap.format != shape():
            if _another_banco_s(store, game_id, snap):
                continue  # not used, and no problem of the file: a format-2 file's, say
            findings.append(SnapshotFinding(game_id, snap.seq, msg(
                "has format {found!r}, not {format!r}: not used, rebuilt", found=snap.format,
                format=shape())))
            continue
        logged = log_at(store, game_id, snap.seq)
        if logged.hash != snap.head:
            findings.append(SnapshotFinding(game_id, snap.seq, msg(
                "was made from a log that is no longer this one (its head is not the log's): "
                "not used")))
            continue
        try:
            kept = decode(snap.state, dealt)
        except SnapshotError as exc:
            findings.append(SnapshotFinding(game_id, snap.seq, msg("cannot be read: {why}",
                                                                   why=exc.text)))
            continue
        # One an older banco kept (its own digest sound, its event without a table digest)
        # is not used, and is no problem of the file: held to the fold all the same, below.
        older = snap.digest and logged.table is None \
            and snap.digest == snapshot_digest(snap.seq, snap.head, snap.format, snap.state)
        unbound = None if older else (
            problem(store, game_id, snap, logged)
            or not_chained(logged.table, snap.format, canonical(kept))
            or contradicts_log(store, game_id, snap.seq, kept.ended))
        if unbound is not None:  # its digest or its log says no: the book does not use it
            findings.append(SnapshotFinding(game_id, snap.seq, unbound))
            continue
        # A table at seq N holds what was retracted by then only: an undo after `at` that
        # takes back something before it means folding this one from the start.
        gone = retracted_seqs(store, game_id, snap.seq)
        if any(seq <= at for seq in gone - gone_at):
            state, at = dealt, 0
        state = _fold_to(store, game_id, state, at, snap.seq, gone, chunk)  # ChainBroken
        at, gone_at = snap.seq, gone
        if kept != state:
            differ = [f for f in st.State._fields if getattr(kept, f) != getattr(state, f)]
            findings.append(SnapshotFinding(game_id, snap.seq, msg(
                "is not the table the log folds to there (it differs in {fields}): it matches "
                "the log's head and its digest, so the book would use it: it was forged with "
                "its digest", fields=", ".join(differ))))
                # (what to do is the reader's: doctor says `--repair`, and a repair's record
                # of what it deleted must not carry the advice)
    return findings


def _another_banco_s(store: EventStore, game_id: int, snap: Snapshot) -> bool:
    """A snapshot of another table shape that banco wrote as it is (its own digest sound) at
    the log's head: another banco's cache (the format-2 bancos kept shape '1:...'), which this
    one cannot fold against and never uses.  An edited one (its digest no longer its text's,
    or its head not the log's) is still named."""
    return bool(snap.digest) and snap.digest == snapshot_digest(
        snap.seq, snap.head, snap.format, snap.state) \
        and log_at(store, game_id, snap.seq).hash == snap.head


def _fold_to(store: EventStore, game_id: int, state: st.State, after: int, upto: int,
             gone: set[int], chunk: int) -> st.State:
    """The table after event `upto`, from `state` (the table after event `after`; 0: as
    GameStarted dealt it), the seqs in `gone` left out, a chunk of rows at a time, each row
    checked against the chain (ChainBroken at the first that is not)."""
    from banco.ledger.store.canonical import GENESIS
    from banco.ledger.store.chain import read_chained

    handlers = st.HANDLERS
    started = after > 0
    prev = (hash_at(store, game_id, after) or GENESIS) if after else GENESIS
    for rows, broken in read_chained(store, game_id, after, prev, upto, chunk):
        if broken is not None:
            raise ChainBroken(game_id, broken.seq, broken.problem)
        if not rows:
            break
        for e in rows:
            if not started:
                started = e["type"] == "GameStarted"
            elif e["seq"] not in gone:
                state = handlers[e["type"]](state, e["data"], e["seq"])
        after = rows[-1]["seq"]
    return state._replace(seq=after)


def table_from(store: EventStore, game_id: int, snap: Snapshot, base: State,
               warn: Callable[[object, str], None]) -> State | None:
    """The table a snapshot holds (`base`: the game as dealt), or None when it must not be
    started from: not bound to the log, unreadable, or contradicting the log on the game's
    end.  `warn(key, text)`: the book's warn-once, told why (never for a row that only
    predates digests)."""
    at = log_at(store, game_id, snap.seq)  # read once for every check below
    warning = unusable(store, game_id, snap, at)
    if warning is not None:
        if warning:
            warn(("snapshot", game_id), warning)
        return None
    try:
        state = decode(snap.state, base)
    except SnapshotError:
        return None
    if not_chained(at.table, snap.format, canonical(state)) is not None \
            or contradicts_log(store, game_id, snap.seq, state.ended) is not None:
        warn(("snapshot", game_id), changed(game_id, snap.seq))
        return None
    # The rows behind the snapshot are not read again (that is its point: their hashes are the
    # audit's).  With the log's guards off they may have been edited: a rent of 12 made 912
    # behind it showed no word.  Said as a write says it, under the same key (once).
    missing = store.checks().missing_guards()
    if missing:
        warn("guards", msg("WARNING: the log's guard {names} is missing: a recorded row can be "
                           "changed or deleted with no trace but the chain's, and this table "
                           "starts from the one kept at event {seq}, without reading the rows "
                           "before it again: `banco audit` checks them",
                           names=", ".join(missing), seq=snap.seq))
    return state
