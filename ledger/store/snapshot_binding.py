"""A snapshot bound to the log it was folded from, and checked before any reader uses it.

A snapshot row records the seq it is the table after, the chain's hash at that seq (`head`),
its format, its text and a digest of all four (`digest`).  Before the book starts a fold from
one (a command, `state`, `state --at`, `standings`, `replay`, rulings, the tournament checks,
`serve`'s screen), `problem` must say None:

- the log's event `seq` still has the hash `head`: the chain binds that hash to every event
  up to `seq`, so the snapshot belongs to this history and no other;
- the digest is that of (seq, head, format, text): the text is what banco wrote for that head,
  not edited since (an edit of the `snapshots` table needs no trigger dropped);
- the chain binds the text: the log's event `seq` is chain version 3, its hash covers a
  `table_digest`, and that is the digest of this format and text (canonical.table_digest).
  Banco writes it in the append that keeps the snapshot, so a text edited with its own digest
  recomputed is still refused: to pass, the event's row must be rewritten, and with it the
  chain from there on (the triggers dropped, every later hash changed);
- the table does not contradict the log on whether the game has ended (GameEnded comes from the
  log, read by the type index: never from a snapshot).

What the chain cannot prove: someone who rewrites the log from the snapshot's event on,
every hash with it, makes a snapshot that passes; it still differs from the fold of the log,
which `banco audit` (holding each chained digest to its fold) and `banco doctor` compare it
with (ledger/snapshot_check.py, projections/audit/audit.py), and the head is no longer the
one a seal or a printed head line holds (README, "Integrity").  A snapshot at an event that
carries no table digest (written by an older banco) is never used: the next command that
keeps one writes it with its digest.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from banco.ledger.base.text import Text, msg
from banco.ledger.store.canonical import bound_table_digest, snapshot_digest, table_digest
from banco.ledger.store.reading import retracted_seqs

if TYPE_CHECKING:

    from banco.ledger.store.protocol import EventStore, Snapshot

ENDED = "GameEnded"


class LogAt(NamedTuple):
    """What the log's event at a snapshot's seq says of it: its hash, and the table digest it
    records under that hash (None: no such event, or none bound)."""
    hash: str | None
    table: str | None


def log_at(store: EventStore, game_id: int, seq: int) -> LogAt:
    """The log's event `seq`, read once (by the primary key), as a snapshot there is held to
    it."""
    rows = store.read(game_id, seq - 1, seq)
    row = rows[0] if rows else None
    return LogAt(row["hash"] if row else None, bound_table_digest(row))


def problem(store: EventStore, game_id: int, snap: Snapshot,
            at: LogAt | None = None) -> Text | None:
    """Why the snapshot must not be used (completes "the snapshot at event N ..."), or None
    when it is bound to the log.  `at`: the log at its seq, when the caller has read it."""
    at = at or log_at(store, game_id, snap.seq)
    if at.hash != snap.head:
        return msg("was made from a log that is no longer this one (its head is not the "
                   "log's): not used")
    if not snap.digest:
        return msg("has no digest binding it to the log (written by an older banco): not used, "
                   "rebuilt")
    if snap.digest != snapshot_digest(snap.seq, snap.head, snap.format, snap.state):
        return msg("was changed after banco wrote it (its text is not the one its digest "
                   "binds to the log): not used")
    if at.table is None:
        return msg("is not bound by the chain (its event records no table digest under its "
                   "hash: written by an older banco): not used, one is kept by the next "
                   "command")
    return None


def not_chained(digest: str | None, fmt: str, canonical_text: str) -> Text | None:
    """Why a decoded snapshot's table is not the one its event's chained digest binds
    (completes "the snapshot at event N ..."), or None when it is."""
    if digest is not None and digest == table_digest(fmt, canonical_text):
        return None
    return msg("was changed after banco wrote it (its table is not the one its event's "
               "chained digest binds, though its own digest was made again): not used")


def edited(snap: Snapshot) -> Text | None:
    """The audit's finding for a snapshot whose digest does not match its text (None: it
    matches, or the row predates digests)."""
    if not snap.digest or snap.digest == snapshot_digest(snap.seq, snap.head, snap.format,
                                                         snap.state):
        return None
    return msg("the book's snapshot at event {seq} was changed after banco wrote it (its text "
               "is not the one its digest binds to the log): the book does not use it "
               "(`banco doctor --repair` deletes it)", seq=snap.seq)


def ended_in_log(store: EventStore, game_id: int, upto: int) -> bool:
    """Whether the log says the game has ended by event `upto`: a GameEnded no retraction up
    to `upto` took back (the type index: a few rows, however long the game)."""
    ends = [e["seq"] for e in store.read(game_id, 0, upto, types=(ENDED,))]
    if not ends:
        return False
    gone = retracted_seqs(store, game_id, upto)
    return any(s not in gone for s in ends)


def contradicts_log(store: EventStore, game_id: int, seq: int, ended: bool) -> Text | None:
    """A decoded snapshot's table that says the game has (not) ended when its log says
    otherwise: a problem (completes "the snapshot at event N ..."), else None."""
    in_log = ended_in_log(store, game_id, seq)
    if ended and not in_log:
        return msg("says the game has ended, which its log does not: not used")
    if in_log and not ended:
        return msg("says the game goes on, but its log ended it: not used")
    return None


def changed(game_id: int, seq: int) -> Text:
    """The book's warning for a snapshot its digest or its log contradicts."""
    return msg("WARNING: game {game}: the snapshot at event {seq} was changed after banco "
               "wrote it: not used; run `banco audit`", game=game_id, seq=seq)


def unusable(store: EventStore, game_id: int, snap: Snapshot, at: LogAt) -> Text | None:
    """None when the book may start from the snapshot (`at`: the log at its seq); else the
    warning to give ("" for one that only predates digests: not used in silence, as one of
    another shape is)."""
    if at.hash != snap.head:
        return msg("WARNING: game {game}: the snapshot at event {seq} was made from a log "
                   "that is no longer this one: run `banco audit`", game=game_id,
                   seq=snap.seq) if snap.digest else Text("")
    if problem(store, game_id, snap, at) is None:
        return None
    if not snap.digest or at.table is None:
        return Text("")  # an older banco's: not used, in silence, as one of another shape
    return changed(game_id, snap.seq)
