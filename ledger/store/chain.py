"""Walking a game's hash chain over rows already read (the hashes themselves:
ledger/store/canonical.py; the store's own check as it reads: `read` given a prev_hash)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from banco.ledger.base.text import Text, msg
from banco.ledger.store.canonical import (
    CHAIN_VERSION,
    GENESIS,
    TABLE_CHAIN_VERSION,
    UnknownChainVersion,
    canonical_json,
    row_hash,
    stored_row_hash,
)
from banco.ledger.store.protocol import ChainProblem, NewEvent
from banco.ledger.store.schema import event_dict


def broken_warning(game_id: int, problem: ChainProblem) -> Text:
    """What a reading of a table folded over a break says (the terminal's warning, and the
    phones' table document's `warning`, cli/web/hub.py)."""
    return msg("WARNING: game {game} event {seq} {problem}: run `banco audit`", game=game_id,
               seq=problem.seq, problem=problem.problem)


def first_break(known: ChainProblem | None, found: ChainProblem) -> ChainProblem:
    """The earlier of two breaks of one game's chain (reads from two snapshots meet two)."""
    return found if known is None or found.seq < known.seq else known


def chain_rows(game_id: int, last_seq: int, prev: str, events: list[NewEvent], *,
               recorded_at: str, actor: str, command_id: str,
               snapshot: Callable[[list[dict]], tuple[str, str, str] | None] | None
               ) -> tuple[list[dict], tuple[str, str] | None]:
    """One command's rows, hashed onto `prev` (the hash of row `last_seq`), for both stores'
    append: (the rows, the snapshot (format, text) to keep at the last one, or None).
    `snapshot(rows)`, given the rows before they are hashed, says the table after them as
    (format, text, its table digest) when the book keeps one there: the last row then carries
    the digest and is chain version 3, so the chain binds the snapshot
    (ledger/store/snapshot_binding.py)."""
    written = [{"game_id": game_id, "seq": last_seq + i, "type": ev.type, "data": ev.data,
                "recorded_at": recorded_at, "actor": actor, "command_id": command_id,
                "schema_version": ev.schema_version, "chain_version": CHAIN_VERSION}
               for i, ev in enumerate(events, start=1)]
    made = snapshot(written) if snapshot is not None and written else None
    kept = None
    if made is not None:
        fmt, text, digest = made
        written[-1]["chain_version"] = TABLE_CHAIN_VERSION
        written[-1]["table_digest"] = digest
        kept = (fmt, text)
    for row in written:
        # the data's canonical text once: stored as it is and hashed around (the same hash as
        # row_hash gives; it says what is wrong with a value banco never writes)
        text = row["text"] = canonical_json(row["data"])
        row["prev_hash"] = prev
        row["hash"] = prev = stored_row_hash(
            prev, game_id, row["seq"], row["type"], text, recorded_at, actor, command_id,
            row["schema_version"], row["chain_version"], row.get("table_digest")) \
            or row_hash(prev, row)
    return written, kept


def insert_values(row: dict) -> tuple:
    """A row of chain_rows as the values of an INSERT in COLUMNS order (both stores); its
    data's canonical text is taken out of the row, which is then the dict every read gives."""
    return (row["game_id"], row["seq"], row["type"], row.pop("text"),
            row["recorded_at"], row["actor"], row["command_id"], row["schema_version"],
            row["prev_hash"], row["hash"], row["chain_version"], row.get("table_digest"))


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
    `prev_hash`: the rows, and the first break or None (both stores' checked `read`)."""
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
                             r[10], r[11]) != r[9]:
            try:  # the slow way, from the parsed row: the same answer, or the reason
                same = row_hash(prev, row) == r[9]
            except (TypeError, UnknownChainVersion) as exc:
                problem = ChainProblem(seq, msg("is not banco's ({why})", why=str(exc)))
            else:
                if not same:
                    problem = ChainProblem(seq, msg("does not match its hash"))
        prev, expected = r[9], seq + 1
    return rows, problem


def read_chained(store, game_id: int, after: int, prev: str, upto: int,
                 chunk: int = 2000) -> Iterator[tuple[list[dict], ChainProblem | None]]:
    """Rows after..upto of a stored game, `chunk` at a time, each checked against the chain
    from `prev` (the hash of row `after`): yields (rows, None) per chunk, or (rows, the
    break) at the first break, and then stops; stops early, too, where the log does."""
    while after < upto:
        rows = store.read(game_id, after, limit=min(chunk, upto - after), prev_hash=prev)
        broken = rows.problem
        yield rows, broken
        if broken is not None or not rows:
            return
        after, prev = rows[-1]["seq"], rows[-1]["hash"]
