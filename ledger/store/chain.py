"""Walking a game's hash chain over rows already read (the hashes themselves:
ledger/store/canonical.py; the store's own check as it reads: SQLiteStore.read_checked)."""

from __future__ import annotations

from collections.abc import Iterable

from ledger.base.text import msg
from ledger.store.canonical import GENESIS, UnknownChainVersion, row_hash, stored_row_hash
from ledger.store.protocol import ChainProblem
from ledger.store.schema import event_dict


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


def check_rows(raw: Iterable[tuple], after: int, prev_hash: str, hashed_as: int | None
               ) -> tuple[list[dict], ChainProblem | None]:
    """Rows (COLUMNS tuples) after seq `after` as dicts, each checked against the chain from
    `prev_hash`: the rows, and the first break or None (both stores' read_checked)."""
    rows: list[dict] = []
    problem = None
    prev, expected = prev_hash, after + 1
    for r in raw:
        row = event_dict(r)
        if hashed_as is not None and r[10] == 1:
            row["chain_game_id"] = hashed_as
        rows.append(row)
        if problem is not None:
            continue
        seq = r[1]
        if seq != expected:
            problem = ChainProblem(expected, msg("is missing from the log (the next one "
                                                 "is event {seq})", seq=seq))
        elif r[8] != prev:
            problem = ChainProblem(seq, msg("does not follow the event before it (its "
                                            "prev_hash is another)"))
        elif stored_row_hash(prev, hashed_as if hashed_as is not None else r[0], *r[1:8],
                             r[10]) != r[9]:
            try:  # the slow way, from the parsed row: the same answer, or the reason
                same = row_hash(prev, row) == r[9]
            except (TypeError, UnknownChainVersion) as exc:
                problem = ChainProblem(seq, msg("is not banco's ({why})", why=str(exc)))
            else:
                if not same:
                    problem = ChainProblem(seq, msg("does not match its hash"))
        prev, expected = r[9], seq + 1
    return rows, problem
