"""Walking a game's hash chain over rows already read (the hashes themselves:
ledger/store/canonical.py; the store's own check as it reads: SQLiteStore.read_checked)."""

from __future__ import annotations

from collections.abc import Iterable

from ledger.store.canonical import GENESIS, UnknownChainVersion, row_hash
from ledger.store.protocol import ChainProblem


def verify_chain(rows: Iterable[dict]) -> tuple[int, str, ChainProblem | None]:
    """Walk a game's rows in seq order: (count, head, first problem or None).

    Catches an edited row (its hash no longer matches), a deleted one (a gap in seq, and the
    next row's prev_hash points at a row that is not there) and a reordering.
    """
    prev = GENESIS
    expected = 1
    count = 0
    for row in rows:
        count += 1
        if row["seq"] != expected:
            return count, prev, ChainProblem(expected, f"event {expected} is missing (next is "
                                                       f"{row['seq']}): a row was deleted")
        if row["prev_hash"] != prev:
            return count, prev, ChainProblem(row["seq"], "its prev_hash does not match the hash "
                                                         "of the event before it")
        try:
            recomputed = row_hash(prev, row)
        except (TypeError, UnknownChainVersion) as exc:  # banco never writes this
            return count, prev, ChainProblem(row["seq"], f"its content is not banco's: {exc}")
        if recomputed != row["hash"]:
            return count, prev, ChainProblem(row["seq"], "its content does not match its hash: "
                                                         "the row was edited")
        prev = row["hash"]
        expected += 1
    return count, prev, None
