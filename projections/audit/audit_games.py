"""The audit of a game, and of a file's games one a process.

A game is audited in one pass (projections/audit/audit.py): a real three-hour game (~2,000
events) takes about 50 ms, so one game is never cut across processes.  The games of a file (a
tournament's archive: many games of a few thousand events) share nothing a verdict depends
on: `audit_games` audits them one a worker process at once, each report the one pass's.
Workers read the file with writes refused (query_only); a store with no file they can open
themselves (`worker_path` None: PostgreSQL) is audited here, a game after the other.
BANCO_AUDIT_WORKERS=1 audits every game in this process.
"""

from __future__ import annotations

import os
import pickle

from banco.ledger.store.games import listed_games
from banco.projections.audit.audit import GameAudit
from banco.projections.audit.results import AuditReport
from banco.projections.audit.ticking import Tick, ticking

# Below this many events in all, starting the workers costs about what they save.
AT_LEAST = 20_000


def workers() -> int:
    """How many processes: BANCO_AUDIT_WORKERS, else the cores this process may run on."""
    given = os.environ.get("BANCO_AUDIT_WORKERS", "").strip()
    if given.isdecimal() and int(given) > 0:
        return int(given)
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def audit_game(store, game_id: int, expect_head: str | None = None,
               progress: Tick | None = None, base: int = 0,
               last: int | None = None) -> AuditReport:
    """The audit of one committed game of `store`, in this process.  `progress(events done)`:
    called as the pass goes, counting from `base`.  `last`: the game up to that event only, as
    if the log ended there (the page of `report` and its audit cover the same events, whatever
    is appended meanwhile); None: all of it."""
    rows = store.raw_rows(game_id).unnumbered()  # the pass's rows: without the game's number
    return GameAudit(game_id, ticking(_upto(rows, last), progress, base),
                     expect_head, snapshots=_snapshots(store, game_id, last)).run()


class _Upto:
    """A game's rows (RawRows) up to seq `last`, as if the log ended there."""

    def __init__(self, rows, last: int):
        self.rows, self.last = rows, last
        self.hashed_as = getattr(rows, "hashed_as", None)
        self.numbered = getattr(rows, "numbered", True)

    def __iter__(self):
        last, at = self.last, 1 if self.numbered else 0  # the seq's place in a row
        for row in self.rows:
            if type(row[at]) is int and row[at] > last:
                return  # (a seq that is no number is the pass's to name)
            yield row

    def fetch(self, first: int, last: int) -> list[tuple]:
        return self.rows.fetch(first, min(last, self.last))


def _upto(rows, last: int | None):
    return rows if last is None else _Upto(rows, last)


def _snapshots(store, game_id: int, last: int | None = None) -> list:
    """The book's snapshots of the game (up to `last`), for the pass to hold to the log."""
    return [s for s in store.snapshots(game_id) if last is None or s.seq <= last]


def audit_games(store, ids: list[int], expect_head: str | None = None,
                processes: int | None = None, at_least: int = AT_LEAST,
                progress: Tick | None = None) -> list[AuditReport]:
    """The audit of games `ids` of `store`, in their order: each by one worker process at once
    when there are more than two and together they hold `at_least` events, else here."""
    processes = workers() if processes is None else processes
    sizes = {g["game_id"]: g["events"] or 0 for g in listed_games(store)}  # how to share the work
    reports: dict[int, AuditReport] = {}
    if (processes > 1 and len(ids) > 2 and store.checks().worker_path() is not None
            and sum(sizes.get(g, 0) for g in ids) >= at_least):
        # the first audited here: the audit's modules and compiled schemas loaded once, in the
        # parent, before the workers are forked from it
        reports[ids[0]] = audit_game(store, ids[0], expect_head)
        reports.update(_games_apart(store, ids[1:], expect_head, processes) or {})
    done = sum(sizes.get(g, 0) for g in reports)
    if progress is not None and done:
        progress(done)
    for g in ids:
        if g not in reports:
            reports[g] = audit_game(store, g, expect_head, progress=progress, base=done)
            done += sizes.get(g, 0)
            if progress is not None:
                progress(done)
    return [reports[g] for g in ids]


def _games_apart(store, ids: list[int], expect_head: str | None,
                 processes: int) -> dict[int, AuditReport] | None:
    tasks = [(store.checks().worker_path(), g, expect_head) for g in ids]
    try:
        with pool_context().Pool(processes, initializer=_quiet_worker) as pool:
            # a few games a task: fewer round trips, and still an even share at the end
            per = max(1, min(16, len(tasks) // (processes * 8)))
            return dict(zip(ids, map(pickle.loads, pool.imap(_game_worker, tasks,
                                                             chunksize=per)), strict=True))
    except Exception:  # no processes here, a worker that could not read the file...
        return None  # ...each game in one pass, which says what is wrong if anything


_STORE = None


def _quiet_worker() -> None:
    # Ctrl-C at the terminal reaches every process of the group: the parent stops the pool
    # and says so once; a worker printing its own traceback would bury that under noise.
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _worker_store(path: str):
    """In a worker process: its own connection to the file, writes refused."""
    global _STORE
    if _STORE is None or _STORE.path != path:
        from banco.ledger.store.sqlite import SQLiteStore

        _STORE = SQLiteStore(path, create=False)
        _STORE.conn.execute("PRAGMA query_only=ON")
    return _STORE


def _game_worker(task) -> bytes:
    path, game_id, expect_head = task
    # pickled here and unpickled by the parent in its own thread: a result the pool's thread
    # could not unpickle would leave the parent waiting for ever; there it raises, and the
    # games are audited here
    return pickle.dumps(audit_game(_worker_store(path), game_id, expect_head),
                        pickle.HIGHEST_PROTOCOL)


def pool_context():
    """fork where it is safe: `banco audit` has one thread, and its workers start warm.  A
    process with other threads (a test run with `serve`'s server thread, a library user's
    program) may fork while one of them holds a lock the child then waits on for ever: there
    the workers start from a fresh process (forkserver, else spawn), a little slower."""
    import multiprocessing
    import threading

    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
