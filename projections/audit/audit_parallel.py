"""The audit of one long game on every core: its rows cut into parts, each audited by a worker
process at once, the verdict the one pass (projections/audit/audit.py) would give.

A part's worker needs the pass as it stood at the part's first event: the chain's head, the
table, the checks' running books, the events undone so far, where the game ended.  It works
them out itself, from the log only: it folds every event before its part (the fold alone, no
re-derivation and no checks: under a third of the audit's cost an event), the undone ones
left out (the EventRetracted rows before it), and posts their transfers to the books.  The parts are
sized so that the workers finish together: the first, which folds nothing ahead, the largest.
The book's snapshots are not used: the store keeps only a game's newest few, all near its end.

Nothing a worker works out ahead is trusted.  Part k's worker hands back the pass as it ended
its part, part k+1's the pass it started from; they are compared field by field (the table and
the books whole), and where they differ part k+1 is audited again here, in one process, from
the pass part k ended with.  So the starting point only decides how fast, never the verdict:
that is the first bad event in seq order (a later part's findings are dropped when an earlier
part fails), with the one pass's problem, notes, commands re-derived and --expect-head.  Two
caches of the checks (the last table that passed, the last books that balanced) start empty in
each part: a table that passed is only looked at again, never judged otherwise.

Only a game whose rows are exactly events 1..N (N and the head read first: the workers stop
at N, and the head they end on must be it), at least THRESHOLD long, is cut; every other game
gets the one pass, which names what is wrong with it.  A part begins with a command (never
inside one), and reads the row after its last as the one pass does before judging its last
command.  Workers read the file with writes refused (query_only).  A store with no file the
workers can open themselves (`worker_path` None: PostgreSQL) is audited in the one pass.
BANCO_AUDIT_WORKERS=1 audits in one pass; BANCO_AUDIT_CHUNK=N cuts parts of about N events
whatever the game's length (for tests).  `last`: the game as it stood at that event (the
report's page and its audit cover the same events, whatever is appended meanwhile): no row
after it is read, by the one pass or a part.

The games of a file (a tournament's archive: many games of a few thousand events) are
audited one a worker at once (`audit_games`): games share nothing a verdict depends on.
"""

from __future__ import annotations

import json
import os
import pickle
from dataclasses import dataclass, field

from banco.ledger.records.events import MONEY_EVENTS
from banco.ledger.store.games import listed_games
from banco.ledger.store.sqlite import RawRows
from banco.ledger.table.state import HANDLERS, initial_state
from banco.projections.audit.audit import GameAudit
from banco.projections.audit.books import Books, entries
from banco.projections.audit.checks import EventChecks
from banco.projections.audit.results import AuditReport, AuditStop, Resume
from banco.projections.audit.ticking import Tick, ticking

# Below this many events one pass is about as fast as starting the workers and folding ahead.
THRESHOLD = 20_000
# The fold ahead's cost per event over the audit's (on the 300k game: 8.8 us against 30 us of
# CPU an event): sizes the parts so that the workers finish together.
FOLD_RATIO = 0.3
LOOK_FOR_COMMAND = 400  # rows after a part's nominal start in which its first command is sought


def workers() -> int:
    """How many processes: BANCO_AUDIT_WORKERS, else the cores this process may run on."""
    given = os.environ.get("BANCO_AUDIT_WORKERS", "").strip()
    if given.isdecimal() and int(given) > 0:
        return int(given)
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _chunk_env() -> int | None:
    given = os.environ.get("BANCO_AUDIT_CHUNK", "").strip()
    return int(given) if given.isdecimal() and int(given) > 0 else None


def audit_game(store, game_id: int, expect_head: str | None = None,
               processes: int | None = None, chunk: int | None = None,
               progress: Tick | None = None, base: int = 0,
               last: int | None = None) -> AuditReport:
    """The audit of one committed game of `store` (an SQLiteStore on a file), on `processes`
    worker processes (default: `workers()`); `chunk`: cut parts of about that many events
    (default: one part a process, sized to finish together).  `progress(events done)`: called
    as the pass goes (every part done, on several processes), counting from `base`.  `last`:
    the game up to that event only, as if the log ended there (None: all of it)."""
    processes = workers() if processes is None else processes
    chunk = _chunk_env() if chunk is None else chunk
    plan = _plan(store, game_id, processes, chunk, last) if processes > 1 else None
    if plan is None:
        return GameAudit(game_id, ticking(_upto(store.raw_rows(game_id), last), progress, base),
                         expect_head, snapshots=_snapshots(store, game_id, 1, last)).run()
    end, head, parts = plan
    told = {} if progress is None else {"progress": progress, "base": base}
    report = _parallel(store, game_id, expect_head, parts, min(processes, len(parts)),
                       upto=last, **told)
    if report is None or (report.ok and (report.events != end or report.head != head)):
        # the file changed under the workers (or a part could not be audited apart): once more,
        # in one pass, for a verdict on one state of the file
        return GameAudit(game_id, _upto(store.raw_rows(game_id), last), expect_head,
                         snapshots=_snapshots(store, game_id, 1, last)).run()
    return report


class _Upto:
    """A game's rows (RawRows) up to seq `last`, as if the log ended there."""

    def __init__(self, rows, last: int):
        self.rows, self.last = rows, last
        self.hashed_as = getattr(rows, "hashed_as", None)

    def __iter__(self):
        last = self.last
        for row in self.rows:
            if type(row[1]) is int and row[1] > last:
                return  # (a seq that is no number is the pass's to name)
            yield row

    def fetch(self, first: int, last: int) -> list[tuple]:
        return self.rows.fetch(first, min(last, self.last))


def _upto(rows, last: int | None):
    return rows if last is None else _Upto(rows, last)


# --- the parts -------------------------------------------------------------------------------

def _plan(store, game_id: int, processes: int, chunk: int | None, last: int | None = None):
    """(last seq, head, [(first, last) of each part]), or None: one pass.  `last`: the game
    up to that event only."""
    if store.worker_path() is None:  # no file the workers can open (PostgreSQL): one pass
        return None
    conn = store.conn
    # (a seq that is no number stays in: the one pass names it)
    bound, args = ("", (game_id,)) if last is None else (
        " AND (seq <= ? OR typeof(seq) != 'integer')", (game_id, last))
    count, distinct, low, high, whole = conn.execute(
        "SELECT COUNT(*), COUNT(DISTINCT seq), MIN(seq), MAX(seq), "
        "SUM(typeof(seq) = 'integer') FROM events WHERE game_id=?" + bound, args).fetchone()
    if not count or low != 1 or high != count or whole != count or distinct != count:
        return None  # a gap, a stray seq: the one pass names it
    if count < (2 * chunk if chunk else THRESHOLD):
        return None
    head = conn.execute("SELECT hash FROM events WHERE game_id=? AND seq=?",
                        (game_id, count)).fetchone()[0]
    if chunk:
        nominal = list(range(1 + chunk, count + 1 - chunk // 2, chunk))  # no stub at the end
    else:
        # worker i folds s_i events ahead (FOLD_RATIO each) then audits s_(i+1) - s_i:
        # s_(i+1) = T + (1 - r) s_i, all finishing at T
        r = FOLD_RATIO
        total = sum((1 - r) ** j for j in range(processes))
        t, s, nominal = count / total, 0.0, []
        for _ in range(processes - 1):
            s = t + (1 - r) * s
            nominal.append(int(s) + 1)
    starts = [1]
    for b in nominal:
        b = _command_start(conn, game_id, max(b, starts[-1] + 1), count)
        if b is not None and b > starts[-1]:
            starts.append(b)
    if len(starts) < 2:
        return None
    ends = [s - 1 for s in starts[1:]] + [count]
    return count, head, list(zip(starts, ends, strict=True))


def _command_start(conn, game_id: int, at: int, last: int) -> int | None:
    """The first seq from `at` whose row begins a batch of the pass (its command id is not
    the row before's), or None within LOOK_FOR_COMMAND rows."""
    rows = conn.execute("SELECT seq, command_id FROM events WHERE game_id=? AND seq>=? AND "
                        "seq<=? ORDER BY seq", (game_id, at - 1, min(at + LOOK_FOR_COMMAND,
                                                                      last))).fetchall()
    for (_, before), (seq, cid) in zip(rows, rows[1:], strict=False):
        if cid != before and cid is not None:
            return seq
    return None


class _PartRows(RawRows):
    """A game's rows first..last and the one after (GameAudit.run's `stop`) unless the game is
    audited up to `last` (`end`), as stored; `fetch` reads any of the game's rows again."""

    def __init__(self, store, game_id: int, first: int, last: int, end: int | None = None):
        super().__init__(store, game_id)
        self.first, self.last = first, last
        self.upto = last + 1 if end is None else min(last + 1, end)

    def __iter__(self):
        s = self.store
        cursor = s.conn.execute(f"SELECT {s._cols} FROM events WHERE game_id=? AND seq>=? AND "
                                "seq<=? ORDER BY seq", (self.game_id, self.first, self.upto))
        return self._guarded(cursor)


@dataclass
class _Part:
    """What a part's audit hands back."""
    first: int
    start: Resume | None  # the pass it started from (None: the game's first event, or none)
    end: Resume | None  # None: not audited (the pass at its start could not be worked out)
    bad_seq: int | None
    problem: object
    commands: int
    unrecorded: list[int] = field(default_factory=list)
    expect_at: list[int] = field(default_factory=list)


def _audit_part(store, game_id: int, first: int, last: int, expect_head: str | None,
                start: Resume | None = None, end: int | None = None) -> _Part:
    if start is None and first > 1:
        try:
            start = fold_ahead(store, game_id, first)
        except Exception:  # a log that does not fold: the part before names it
            return _Part(first, None, None, None, None, 0)
    audit = GameAudit(game_id, _PartRows(store, game_id, first, last, end), expect_head,
                      snapshots=_snapshots(store, game_id, first, last))
    if start is not None:
        audit.resume(start)
    report = audit.run(finish=False, stop=last)
    return _Part(first, start, audit.resumable(), report.bad_seq, report.problem,
                 audit.commands, audit.unrecorded, audit.expect_at)


_STORE = None


def _quiet_worker() -> None:
    # Ctrl-C at the terminal reaches every process of the group: the parent stops the pool
    # and says so once; a worker printing its own traceback would bury that under noise.
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # stopped by its pool (terminate): at once, whatever the process it was forked from had
    # made of SIGTERM (the report's audit apart turns it into a stop: audit_apart.py)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _worker_store(path: str):
    """In a worker process: its own connection to the file, writes refused."""
    global _STORE
    if _STORE is None or _STORE.path != path:
        from banco.ledger.store.sqlite import SQLiteStore

        _STORE = SQLiteStore(path, create=False)
        _STORE.conn.execute("PRAGMA query_only=ON")
    return _STORE


def _worker(task) -> bytes:
    path, game_id, first, last, expect_head, end = task
    return _pickled(_audit_part(_worker_store(path), game_id, first, last, expect_head,
                                end=end))


def _pickled(result) -> bytes:
    """A worker's result as bytes, unpickled by the parent in its own thread: a result the
    pool's thread cannot unpickle (a compiled class without its __reduce__) left the parent
    waiting for ever; unpickled here, it raises, and the one pass takes over."""
    import pickle

    return pickle.dumps(result, pickle.HIGHEST_PROTOCOL)


# --- many games: one a worker ----------------------------------------------------------------

def audit_games(store, ids: list[int], expect_head: str | None = None,
                processes: int | None = None, at_least: int = THRESHOLD,
                progress: Tick | None = None) -> list[AuditReport]:
    """The audit of games `ids` of `store`, in their order: a long game on every core
    (audit_game), the others each by one worker process at once, when together they hold
    `at_least` events (a tournament's archive: a thousand games of two thousand events).
    Games share nothing a verdict depends on, so each report is the one pass's."""
    processes = workers() if processes is None else processes
    sizes = {g["game_id"]: g["events"] or 0 for g in listed_games(store)}  # how to share the work
    short = [g for g in ids if sizes.get(g, 0) < THRESHOLD]
    reports: dict[int, AuditReport] = {}
    if (processes > 1 and len(short) > 2 and store.worker_path() is not None
            and sum(sizes.get(g, 0) for g in short) >= at_least):
        # the first audited here: the audit's modules and compiled schemas loaded once, in the
        # parent, before the workers are forked from it
        reports[short[0]] = GameAudit(short[0], store.raw_rows(short[0]), expect_head,
                                       snapshots=_snapshots(store, short[0])).run()
        reports.update(_games_apart(store, short[1:], expect_head, processes) or {})
    done = sum(sizes.get(g, 0) for g in reports)
    if progress is not None and done:
        progress(done)
    for g in ids:
        if g not in reports:
            reports[g] = audit_game(store, g, expect_head, processes, progress=progress,
                                    base=done)
            done += sizes.get(g, 0)
            if progress is not None:
                progress(done)
    return [reports[g] for g in ids]


def _games_apart(store, ids: list[int], expect_head: str | None,
                 processes: int) -> dict[int, AuditReport] | None:
    tasks = [(store.worker_path(), g, expect_head) for g in ids]
    try:
        with pool_context().Pool(processes, initializer=_quiet_worker) as pool:
            # a few games a task: fewer round trips, and still an even share at the end
            per = max(1, min(16, len(tasks) // (processes * 8)))
            return dict(zip(ids, map(pickle.loads, pool.imap(_game_worker, tasks,
                                                             chunksize=per)), strict=True))
    except Exception:  # no processes here, a worker that could not read the file...
        return None  # ...each game in one pass, which says what is wrong if anything


def _game_worker(task) -> bytes:
    path, game_id, expect_head = task
    store = _worker_store(path)
    return _pickled(GameAudit(game_id, store.raw_rows(game_id), expect_head,
                              snapshots=_snapshots(store, game_id)).run())


def _snapshots(store, game_id: int, first: int = 1, last: int | None = None) -> list:
    """The book's snapshots of the game (of a part's seqs), for the pass to hold to the log."""
    return [s for s in store.snapshots(game_id)
            if first <= s.seq and (last is None or s.seq <= last)]


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


def _parallel(store, game_id: int, expect_head: str | None, parts: list[tuple[int, int]],
              processes: int, progress: Tick | None = None,
              base: int = 0, upto: int | None = None) -> AuditReport | None:
    path = store.worker_path()
    tasks = [(path, game_id, a, b, expect_head, upto) for a, b in parts]
    try:
        return _gather(store, game_id, expect_head, parts, processes, tasks, progress, base,
                       upto)
    except Exception:  # no processes here, a worker that could not read the file...
        return None  # ...the one pass, which says what is wrong with the file if anything


def _gather(store, game_id, expect_head, parts, processes, tasks, progress=None,
            base=0, upto=None) -> AuditReport:
    merged = GameAudit(game_id, _upto(store.raw_rows(game_id), upto), expect_head)
    context = pool_context()
    if context.get_start_method() == "fork":
        # The audit's one-time work (its modules, the compiled schemas, the rule set and
        # board) done once here, before the workers are forked from this process, rather than
        # once in each: the first few commands audited and thrown away.
        warm = _command_start(store.conn, game_id, min(100, parts[0][1]), parts[0][1])
        if warm is not None:
            _audit_part(store, game_id, 1, warm - 1, None)
    with context.Pool(processes, initializer=_quiet_worker) as pool:
        at: Resume | None = None
        results = pool.imap(_worker, tasks)
        for (a, b), part in zip(parts, map(pickle.loads, results), strict=True):
            if at is not None and (part.start is None or not same(part.start, at)):
                # not the pass the part before ended with: this part again, from that one
                part = _audit_part(store, game_id, a, b, expect_head, at, end=upto)
            end = part.end
            merged.count, merged.prev, merged.state, merged.uuid = \
                end.seq, end.prev, end.state, end.uuid
            merged.commands += part.commands
            merged.expect_at += part.expect_at
            if part.unrecorded:
                merged.unrecorded = [merged.unrecorded[0] if merged.unrecorded
                                     else part.unrecorded[0], part.unrecorded[1]]
            if part.bad_seq is not None or part.problem is not None:
                # What comes after the first bad event does not count, but the parts still
                # running are let finish: a pool terminated while a worker is sending its
                # result can wait for ever (a CI run hung in Pool.terminate so); leaving the
                # `with` then stops idle workers, as after every audit.
                for _ in results:
                    pass
                return merged._report(part.bad_seq, part.problem)
            at = end
            if progress is not None:
                progress(base + b)
    try:
        merged._finish()
    except AuditStop as stop:
        return merged._report(stop.seq, stop.problem)
    return merged._report(None, None)


# --- the pass at a part's start, worked out ahead ----------------------------------------------

def fold_ahead(store, game_id: int, first: int) -> Resume:
    """The pass as it would stand after event first - 1, from the log alone: the fold of the
    events before (the undone ones left out), the books posted with their transfers, the
    chain's head there.  Trusted for nothing: `same` compares it with the pass itself."""
    conn = store.conn
    gone: set[int] = set()
    for (text,) in conn.execute("SELECT data FROM events WHERE game_id=? AND "
                                "type='EventRetracted' AND seq<?", (game_id, first)):
        try:
            gone.update(json.loads(text).get("seqs") or ())
        except (ValueError, AttributeError, TypeError):
            pass  # the pass names it; this start will not match
    rows = RawRows(store, game_id)
    state = checks = books = ended_at = uuid = None
    parsed: dict[str, dict] = {}  # a game repeats its texts word for word; the fold only reads
    handlers, money, setup = HANDLERS, MONEY_EVENTS, Books.SETUP
    cursor = conn.execute("SELECT seq, type, data FROM events WHERE game_id=? AND seq<? "
                          "ORDER BY seq", (game_id, first))
    while block := cursor.fetchmany(512):
        for seq, type_, text in block:
            if state is None:
                if type_ == "GameStarted":
                    row = _as_row(rows.fetch(seq, seq)[0])
                    state = initial_state(game_id, row)
                    uuid = row["data"].get("game_uuid")
                    checks = EventChecks(state)
                    books = checks.books
                continue
            if seq in gone:
                continue
            data = parsed.get(text)
            if data is None:
                if len(parsed) > 16384:
                    parsed.clear()
                data = parsed[text] = json.loads(text)
            before = state
            state = handlers[type_](state, data, seq)
            if type_ == "CardDrawn":
                deck = before.edition.decks.get(data["deck"])
                checks.card = (deck.cards[data["number"] - 1].effect
                               if deck and 1 <= data["number"] <= len(deck.cards) else None)
            elif type_ in ("DiceRolled", "TurnEnded"):
                checks.card = None
            elif type_ == "GameEnded":
                ended_at = seq
            if not books.playing and type_ not in setup:
                books.playing = True
            if type_ in money or "transfers" in data:
                b = books.balances
                for e in entries({"seq": seq, "type": type_, "data": data}):
                    if e.type == "CashIssued":
                        books.issued.setdefault(e.payee, e.seq)
                    b[e.payer] = b.get(e.payer, 0) - e.amount
                    b[e.payee] = b.get(e.payee, 0) + e.amount
    found = rows.fetch(first - 1, first - 1)
    last = found[0] if found else None
    # a v1 row after a v2 row fails the pass: a part that passes has seen v2 iff its last has
    seen_v2 = last is not None and last[10] in (2, 3)
    prev = last[9] if last is not None else ""
    # the last event folded is the one before `first`: never undone by then (an undo takes
    # back events before itself), so it is the checks' `previous`
    previous = _as_row(last) if last is not None else None
    if checks is not None:
        checks.previous = previous
        # the fold leaves seq where GameStarted put it; the pass's table has it from decide
        state = state._replace(seq=first - 1)
    return Resume(first - 1, prev, seen_v2, state, checks, ended_at, uuid, frozenset(gone),
                  last[4] if last is not None else None)


def _as_row(raw: tuple) -> dict:
    return {"seq": raw[1], "type": raw[2], "text": raw[3], "command_id": raw[6],
            "chain": raw[10], "version": raw[7], "data": json.loads(raw[3])}


def same(a: Resume, b: Resume) -> bool:
    """Whether a part may start from `a` where the pass stood at `b`: every field, the table
    and the books' running balances whole; the checks' caches aside (a table that passed,
    books that balanced: without them a table is looked at again, never judged otherwise)."""
    if (a.seq, a.prev, a.seen_v2, a.ended_at, a.uuid, a.gone) != \
            (b.seq, b.prev, b.seen_v2, b.ended_at, b.uuid, b.gone):
        return False
    if a.state != b.state or _orders(a.state) != _orders(b.state):
        return False
    x, y = a.checks, b.checks
    if x is None or y is None:
        return x is y
    if x.card != y.card or _event(x.previous) != _event(y.previous):
        return False
    p, q = x.books, y.books
    return (p.seats, p.playing, p.issued, _nonzero(p.balances)) == \
        (q.seats, q.playing, q.issued, _nonzero(q.balances))


def _orders(state) -> list:
    # equal dicts may differ in order, and what is said about them follows it
    return [list(v) for v in (state or ()) if type(v) is dict]


def _event(row: dict | None):
    return None if row is None else (row["seq"], row["type"], row["data"])


def _nonzero(balances: dict) -> dict:
    # an account at 0 and one never posted read alike (books.get(name, 0))
    return {k: v for k, v in balances.items() if v}

