"""The book's tables held to the log, as the audit's pass reaches them (projections/audit/
audit.py's GameAudit is the rest of the pass): the table digest a chain-version-3 row binds,
and the snapshots `state`, `standings` and every command start from.  Neither is ever a
starting point of the audit: each is compared with the table the pass has folded there."""

from __future__ import annotations

from collections.abc import Iterable

from banco.ledger.base.text import msg
from banco.ledger.store.kept_snapshots import KeptSnapshots
from banco.ledger.table.state import State
from banco.projections.audit.results import AuditStop
from banco.projections.audit.rows import RowChecks


class KeptTables(RowChecks):
    """The table digests and kept snapshots of one game, against `state`: the table the pass
    has folded to the end of the command just judged (GameAudit sets it)."""

    state: State | None

    def __init__(self, game_id: int, rows, expect_head: str | None = None, *,
                 hashes_checked: bool = False, snapshots: Iterable | None = None):
        super().__init__(game_id, rows, expect_head, hashes_checked=hashes_checked,
                         snapshots=snapshots)
        # tables whose chained digest this pass has checked, as (seq, head, format, table):
        # the snapshots an import leaves (import_audit.py), those a book keeps
        # (kept_snapshots.py); spelt as snapshots (`bound`) only for an import that asks
        self._bound = KeptSnapshots()

    def _table_digest(self, batch: list[dict]) -> None:
        """A chain-version-3 row binds the book's snapshot of the table after it (its digest,
        ledger/store/snapshot_binding.py): it must be the table this pass folds there, kept
        or not.  One in another snapshot format cannot be checked: the book never uses it."""
        from banco.ledger.store.canonical import digest_format, table_digest
        from banco.ledger.table.snapshot_codec import SnapshotError, canonical, shape

        last = batch[-1]
        for r in batch:
            if "table" in r and r is not last:
                raise AuditStop(r["seq"], msg(
                    "event {seq} records a table digest inside its command: banco keeps a "
                    "snapshot, and its digest, only after a command's last event", seq=r["seq"]))
        found, seq = last["table"], last["seq"]
        fmt = digest_format(found) if type(found) is str else None
        if fmt is None:
            raise AuditStop(seq, msg("event {seq}'s table digest {digest!r} is not one banco "
                                     "writes: the row was edited", seq=seq,
                                     digest=str(found)[:80]))
        if fmt != shape() or self.state is None:
            return
        table = self.state._replace(seq=seq)
        try:
            text = canonical(table)
        except SnapshotError:
            return  # a table the format does not know: no book kept a snapshot of it
        if table_digest(fmt, text) != found:
            raise AuditStop(seq, msg(
                "event {seq} records the digest of a table that is not the one the log folds "
                "to there: the snapshot it binds is not the log's table; the chain was "
                "rewritten from there on to make it so (`banco doctor --repair` deletes the "
                "snapshot; a seal or a printed head shows the rewrite)", seq=seq))
        self._bound.append((seq, last["hash"], fmt, table))

    @property
    def bound(self) -> list[tuple[int, str, str, str]]:
        """The tables whose chained digest this pass checked, kept as a book keeps its
        snapshots, as (seq, head, format, snapshot text), oldest first: an import keeps them
        (import_audit.py); `banco audit` never asks, and never spells them."""
        from banco.ledger.table.snapshot_codec import encode

        return [(seq, head, fmt, encode(table)) for seq, head, fmt, table in self._bound]

    def _snapshot_table(self, snap) -> None:
        """A snapshot the book would start from (its head is the log's, checked as the row was
        read; its format this banco's) must be the table folded there."""
        from banco.ledger.store.snapshot_binding import edited
        from banco.ledger.table.snapshot_codec import SnapshotError, decode, shape

        if snap.format != shape() or self.state is None:
            return  # the book does not use it: it folds instead
        try:
            kept = decode(snap.state, self.state)
        except SnapshotError:
            return  # unreadable: the book folds instead (`banco doctor` names it)
        why = edited(snap)
        if why is not None:  # its digest says no: the book does not start from it
            raise AuditStop(snap.seq, str(why))
        table = self.state._replace(seq=snap.seq)
        if kept != table:
            differ = [f for f in table._fields if getattr(kept, f) != getattr(table, f)]
            raise AuditStop(snap.seq, msg(
                "the book's snapshot at event {seq} is not the table the log folds to there "
                "(it differs in {fields}): `state`, `standings` and the next command would "
                "start from it; it was edited (`banco doctor --repair` deletes it)",
                seq=snap.seq, fields=", ".join(differ)))
