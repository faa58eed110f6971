"""Copying games between stores (SQLite to PostgreSQL and back: `banco copy SRC DST`, and the
PostgreSQL store's backup into a SQLite file).  Each game goes through the destination's
import path, whole in one transaction, its rows exactly as stored (the same hashes), and is
verified on arrival: its chain read back whole, its head the source's."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable

from banco.ledger.base.errors import EXIT_AUDIT, BancoError, DatabaseError, UsageError
from banco.ledger.base.text import msg
from banco.ledger.store.canonical import GENESIS
from banco.ledger.store.chain import verify_chain
from banco.ledger.store.games import GameIndex
from banco.ledger.store.protocol import EventStore
from banco.ledger.store.reading import game_start
from banco.ledger.store.schema import ENDED, RETRACTED, STARTED
from banco.ledger.store.snapshot_binding import problem as snapshot_problem

BATCH = 2000

# The audit a copy runs on each game's rows before their commit (the caller's: the audit lives
# in projections/, above this package): (game number in DST, its rows as RawRows gives them)
# -> None when the game passes, else (the seq it stops at or None, what is wrong).
CopyAudit = Callable[[int, Iterable[tuple]], "tuple[int | None, str] | None"]


class SourceNotWhole(BancoError):
    """A source game edited under its chain, or missing rows: refused whole (exit 3, as an
    import refuses such a file)."""

    exit_code = EXIT_AUDIT


def copy_store(src: EventStore, dst: EventStore,
               progress: Callable[[int], None] | None = None,
               audit: CopyAudit | None = None,
               skipped: list | None = None) -> list[tuple[int, int, str]]:
    """Every game of `src` into `dst` (ledger/store/open.py's copy_to opens it by path or
    URL): (game in src, game in dst, head) per game copied.  A game whose identity the target
    already holds is refused before anything of it is written.  `progress(events)`: the
    events copied so far, every batch (a game at a time is committed: one interrupted leaves
    the games before it copied, itself not at all).  `audit`: run on each game's rows before
    its commit; a game it finds wrong is refused whole, as a broken chain is.  A game the
    target already holds whole (its identity, its head and its count of events the source's)
    is not copied again but told in `skipped` (game in src, game in target, head): a copy
    killed midway is resumed by running it again (issue 32)."""
    copied, done = [], 0
    for g in src.games():
        def step(n: int, before: int = done) -> None:
            if progress is not None:
                progress(before + n)
        there = _already_whole(src, dst, g)
        if there is not None:
            if skipped is not None:
                skipped.append(there)
            step(g["events"] or 0)
        else:
            copied.append(copy_game(src, dst, g["game_id"], step, audit))
        done += g["events"] or 0
    return copied


def _already_whole(src: EventStore, dst: EventStore, g: dict) -> tuple[int, int, str] | None:
    """(game in src, game in dst, head) when `dst` holds the game `g` of `src` as it is: the
    same identity, head and count of events.  Each game is committed whole, in one
    transaction (copy_game), so one that arrived is all there; one that differs is left to
    copy_game, which refuses it."""
    uid = g.get("uuid")
    if uid is None:
        return None
    there = dst.find_game(uuid=uid)
    if there is None:
        return None
    head = src.head(g["game_id"])
    if head is None or dst.head(there) != head or dst.game(there)["events"] != g["events"]:
        return None
    return g["game_id"], there, head


def copy_game(src: EventStore, dst: EventStore, game_id: int,
              progress: Callable[[int], None] | None = None,
              audit: CopyAudit | None = None, *, same_number: bool = False) -> tuple[int, int, str]:
    """One game of `src` into `dst`, verified: (its number in src, in dst, its head).
    `progress(rows)`: its rows copied so far.  `same_number`: numbered in `dst` as in `src`
    (above every game `dst` holds: a dry run's copy of the games it acts on, in order)."""
    game = src.game(game_id)
    if game["uuid"] is not None and dst.find_game(uuid=game["uuid"]) is not None:
        # there with another history (copy_store skips it when it is there whole): a usage
        # mistake, as `import` of the same game is
        raise UsageError("game {game} ({uid}) is already in {target} with another history "
                         "(another head): nothing of it was copied", game=game_id,
                         uid=game["uuid"], target=dst.shown)
    imp = dst.begin_import()
    if same_number:
        if game_id < imp.game_id:  # the caller's mistake: copied out of order
            imp.abort()
            raise ValueError(f"copy_game: game {game_id} cannot follow game {imp.game_id - 1}")
        imp.game_id = game_id  # the writer's number, taken under its write lock
    try:
        ended, first, batch, version1, sent = None, None, [], False, 0
        for r in src.raw_rows(game_id):
            row = tuple(r[1:])
            first = first or row
            version1 = version1 or row[9] == 1
            if row[1] == ENDED:
                ended = row[0]
            elif row[1] == RETRACTED and ended in json.loads(row[2]).get("seqs", ()):
                ended = None
            batch.append(row)
            if len(batch) >= BATCH:
                imp.insert(batch)
                sent += len(batch)
                batch = []
                if progress is not None:
                    progress(sent)
        if batch:
            imp.insert(batch)
            if progress is not None:
                progress(sent + len(batch))
        hashed_as = game["chain_game_id"] or game_id
        # The source's chain, checked on the rows about to be committed: a game edited under
        # its chain in the source is refused whole (it used to be committed, then said "did
        # not arrive whole", and stayed in the target as if copied).
        count, _head, problem = verify_chain(imp.rows(hashed_as))
        if problem is not None or count != (game["events"] or 0):
            why = (msg("event {seq}: {why}", seq=problem.seq, why=problem.problem)
                   if problem is not None else
                   msg("its games row counts {n} events, its log {count}", n=game["events"],
                       count=count))
            raise SourceNotWhole(msg(  # a Text: the catalogs find it by `msg`
                "game {game} of {source} is not whole: {problem}; nothing of it was copied "
                "(`banco --db {source} audit --game {game}` says more)", game=game_id,
                source=src.shown, problem=why))
        # A forger who recomputed every hash leaves the chain intact: only the audit (each
        # command derived again) finds the fact no command gives, as `import` of the same game
        # does.  On the rows as written, before the commit: refused, nothing of it stays.
        found = audit(imp.game_id, imp.raw_rows(hashed_as if version1 else None)) \
            if audit is not None else None
        if found is not None:
            seq, why = found
            where = msg("event {seq}: {why}", seq=seq, why=why) if seq is not None else why
            raise SourceNotWhole(msg(
                "game {game} of {source} does not pass the audit: {problem}; nothing of it "
                "was copied (`banco --db {source} audit --game {game}` says more)",
                game=game_id, source=src.shown, problem=where))
    except BaseException:
        imp.abort()
        raise
    start = game_start(src, game_id) or {"data": {}}
    meta = {}
    if version1 and hashed_as != imp.game_id:  # version-1 rows hash their first number
        meta[GameIndex.CHAIN_GAME_KEY.format(imp.game_id)] = str(hashed_as)
    # only the snapshots bound to the source's log: the copy records a fresh digest for each
    # (snapshot_binding.py), which must not vouch for a text edited in the source
    snaps = [(s.seq, s.head, s.format, s.state) for s in reversed(src.snapshots(game_id))
             if snapshot_problem(src, game_id, s) is None]
    rules = start["data"].get("rules") if start.get("type", STARTED) == STARTED else None
    imp.finish({"game_uuid": game["uuid"], "started_at": game["started_at"] or first[3],
                "players": game["players"], "edition": game["edition"],
                "rules": rules.get("name") if isinstance(rules, dict) else game["rules"],
                "last_seq": game["events"], "head": game["head"], "ended_seq": ended},
               meta, snaps)
    rows = dst.read(imp.game_id, prev_hash=GENESIS)
    problem = rows.problem
    head = rows[-1]["hash"] if rows else None
    if problem is not None or head != src.head(game_id) or len(rows) != game["events"]:
        raise DatabaseError("game {game} did not arrive whole in {target} (its chain read "
                            "back does not end at the source's head): check both with "
                            "`banco audit`", game=game_id, target=dst.shown)
    return game_id, imp.game_id, head
