"""Benchmarks for DESIGN.md's budgets.  Prints figures; asserts nothing.  Run:

    python tests/bench.py            # or: python tests/bench.py --quick

1. cold `banco state` (read) and a cold write command, median wall time, beside
   `sqlite-utils tables` on the same database (goal: read <= 0.7x, write <= 1.2x of it);
2. fold throughput (goal >= 200,000 events/s) and the replay of a ~2,000-event game (<= 20 ms):
   decide's dicts held in memory, then a stored game read back from its file (the reading's
   chain check and parsing, then the fold, each figure printed);
3. durable appends, one command at a time (goal >= 500/s);
4. commands typed in `banco shell` (goal <= 5 ms);
5. the state machine's random games per second, and the fold over their logs;
6. what checking the hash chain costs every read (per event, and as a share of a cold read);
7. `banco new` from several processes at once on a new file (all must get distinct games);
8. `audit` over a recorded game played to the end, one process (budget >= 40,000 events/s a
   core; aim 100,000);
9. the referee's desk on the longest fixture: `replay` (the projection, and the whole command),
   `report` generation, and export -> import of the game (events/s; the 1,000,000-event import
   with its peak memory is tests/bench_import.py, minutes long).

Every benchmarked command must succeed: a refused or failing command would be timed as a fast
one, so the first failure stops the run with its exit code and output (what banco is meant to
say on stderr, such as `new` leaving a game unfinished, is not a failure; anything else is).
Every comparison is interleaved - banco and its yardstick take turns, round after round - so a
change of load hits both; each line gives the median and the minimum, and the machine's load
(os.getloadavg) is printed before each section.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# the installed banco (the package `banco`, as users run it)
sys.path.insert(0, str(ROOT / "tests"))


class BenchFailed(SystemExit):
    """A benchmarked command did not do its job: its time would mean nothing."""


# What banco says on stderr when all went well: `new` while a game is unfinished, `export -o`'s
# confirmation, `import` of a game not over.  Anything else there stops the benchmark.
EXPECTED_WARNINGS = ("warning: game ", "game ", "the game is not over",
                     "commands without --game now go to game")  # `new` beside other tables


def checked(cmd: list[str], env=None) -> float:
    """Run one command, return its wall time; stop the whole benchmark if it fails."""
    t0 = time.perf_counter()
    done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    elapsed = time.perf_counter() - t0
    unexpected = [ln for ln in done.stderr.decode(errors="replace").splitlines()
                  if not ln.startswith(EXPECTED_WARNINGS)]
    if done.returncode != 0 or unexpected:
        raise BenchFailed(f"benchmark stopped: `{' '.join(cmd)}` exited {done.returncode}\n"
                          f"{done.stderr.decode(errors='replace')}")
    return elapsed


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"


def section(title: str) -> None:
    print(f"-- {title} ({load()})", flush=True)


def med_min(times: list[float]) -> tuple[float, float]:
    return statistics.median(times), min(times)


def interleaved(runs: int, **jobs) -> dict[str, list[float]]:
    """Each job once a round, in turn, `runs` rounds: their times side by side."""
    times: dict[str, list[float]] = {name: [] for name in jobs}
    for i in range(runs):
        for name, job in jobs.items():
            times[name].append(job(i))
    return times


def tool(name: str) -> str:
    here = Path(sys.executable).parent / name
    return str(here) if here.exists() else (shutil.which(name) or name)


def bench_cli(db: str, runs: int) -> None:
    banco, su = tool("banco"), tool("sqlite-utils")
    env = {**os.environ, "BANCO_DB": db}
    times = interleaved(
        runs,
        base=lambda i: checked([su, "tables", db]),
        read=lambda i: checked([banco, "state"], env),
        # a write that is always legal: roll, then undo it, alternately
        write=lambda i: checked([banco, "undo"] if i % 2 else [banco, "roll", "3", "4"], env))
    base, base_min = med_min(times["base"])
    read, read_min = med_min(times["read"])
    write, write_min = med_min(times["write"])
    print(f"sqlite-utils tables     {base * 1000:7.1f} ms median, {base_min * 1000:.1f} min "
          f"({runs} rounds, interleaved)")
    print(f"banco state (read)      {read * 1000:7.1f} ms median, {read_min * 1000:.1f} min  = "
          f"{read / base:.2f}x / {read_min / base_min:.2f}x  (goal <= 0.4x; budget 0.7x)")
    print(f"banco roll/undo (write) {write * 1000:7.1f} ms median, {write_min * 1000:.1f} min  = "
          f"{write / base:.2f}x / {write_min / base_min:.2f}x  (goal <= 0.8x; budget 1.2x)")


def long_log(commands: int):
    import random

    from test_properties import choose

    from banco.ledger.board.rule_sets import load_rules
    from banco.ledger.rules.decide import decide, start_game
    from banco.ledger.table.state import evolve, fold

    for seed in range(100):
        rng = random.Random(seed)
        log = start_game(["Anna", "Bruno", "Carla", "Dario"], load_rules("classic"), "it")
        for i, e in enumerate(log, 1):
            e["seq"] = i
        state = fold(log, 1)
        while len(log) < commands:
            cmd = choose(state, rng.randint(1, 6), rng.randint(1, 6), rng.randint(0, 99))
            if cmd is None:
                break
            for e in decide(state, cmd):
                e["seq"] = len(log) + 1
                state = evolve(state, e)
                log.append(e)
        if len(log) >= commands:
            return log
    return log


def bench_fold(events: int) -> None:
    from banco.ledger.table.state import fold

    log = long_log(events)
    n = len(log)
    rounds = max(3, 200_000 // n)
    t0, c0 = time.perf_counter(), time.process_time()
    for _ in range(rounds):
        fold(log, 1)
    dt, cpu = time.perf_counter() - t0, time.process_time() - c0
    print(f"fold                    {n * rounds / dt:10,.0f} events/s over {rounds} x {n} events; "
          f"{n * rounds / cpu:,.0f} a second of CPU (goal >= 200,000)")
    print(f"replay of {n} events   {dt / rounds * 1000:7.2f} ms (goal <= 20 ms for ~2,000)")


def bench_stored_fold(db: str) -> None:
    """The fold as a reading does it: a stored game's rows read back from the file, checked
    against the chain as they are read, their data parsed (the store's `read`), then folded
    with every row's fields held to their ranges (`fold`).  The section's first line folds
    decide's dicts held in memory: no reading, no parsing."""
    from banco.ledger.store.canonical import GENESIS
    from banco.ledger.store.sqlite import SQLiteStore
    from banco.ledger.table.state import fold

    store = SQLiteStore(db)
    n = len(store.read(1, prev_hash=GENESIS))
    rounds = max(3, 100_000 // n)
    read_cpu = fold_cpu = 0.0
    t0 = time.perf_counter()
    for _ in range(rounds):
        c0 = time.process_time()
        rows = store.read(1, prev_hash=GENESIS)
        c1 = time.process_time()
        fold(rows, 1)
        read_cpu, fold_cpu = read_cpu + c1 - c0, fold_cpu + time.process_time() - c1
    dt = time.perf_counter() - t0
    if rows.problem is not None:
        raise BenchFailed(f"benchmark stopped: the stored game's chain: {rows.problem}")
    print(f"fold of stored rows     {n * rounds / dt:10,.0f} events/s over {rounds} x {n} events "
          f"read back from a file (classic-to-the-end); {n * rounds / (read_cpu + fold_cpu):,.0f} "
          f"a second of CPU: the reading {n * rounds / read_cpu:,.0f}, the fold "
          f"{n * rounds / fold_cpu:,.0f}")
    store.close()


def bench_appends(folder: str, count: int, rounds: int) -> None:
    """Durable commands one by one in one process, beside a bare sqlite3 loop of one INSERT and
    COMMIT (WAL, synchronous=FULL) and eventsourcing's SQLite recorder where it is installed:
    `rounds` rounds of `count` each, taken in turn on the same disk."""
    import sqlite3
    import uuid

    from banco.ledger.book import Book
    from banco.ledger.records import commands as c

    now = "2026-11-29T10:00:00.000000Z"
    book = Book(str(Path(folder) / "appends.db"))
    g = book.new_game(["Anna", "Bruno"], now=now)

    def banco(_round: int) -> float:
        t0 = time.perf_counter()
        for i in range(count):
            if i % 2:
                book.undo(g, now=now)
            else:
                book.execute(g, c.Roll((3, 4)), now=now)
        return (time.perf_counter() - t0) / count

    bare = sqlite3.connect(str(Path(folder) / "bare.db"), isolation_level=None)
    bare.execute("PRAGMA journal_mode=WAL")
    bare.execute("PRAGMA synchronous=FULL")
    bare.execute("CREATE TABLE events (seq INTEGER PRIMARY KEY, type TEXT, data TEXT)")
    row = ("DiceRolled", '{"dice":[3,4],"player":"Anna"}')

    def loop(_round: int) -> float:
        t0 = time.perf_counter()
        for _ in range(count):
            bare.execute("BEGIN")
            bare.execute("INSERT INTO events (type, data) VALUES (?, ?)", row)
            bare.execute("COMMIT")
        return (time.perf_counter() - t0) / count

    jobs = {"banco": banco, "sqlite3": loop}
    try:
        from eventsourcing.persistence import StoredEvent
        from eventsourcing.sqlite import SQLiteAggregateRecorder, SQLiteDatastore
    except ImportError:
        recorder = None
    else:
        recorder = SQLiteAggregateRecorder(SQLiteDatastore(str(Path(folder) / "es.db")),
                                           "stored_events")
        recorder.create_table()
        originator, version = uuid.uuid4(), [0]

        def es(_round: int) -> float:
            t0 = time.perf_counter()
            for _ in range(count):
                version[0] += 1
                recorder.insert_events([StoredEvent(originator_id=originator,
                                                    originator_version=version[0],
                                                    topic="bench:DiceRolled",
                                                    state=row[1].encode())])
            return (time.perf_counter() - t0) / count

        jobs["eventsourcing"] = es
    times = interleaved(rounds, **jobs)
    base, base_min = med_min(times["sqlite3"])
    for name, label in (("banco", "banco durable commands"), ("sqlite3", "bare sqlite3 loop"),
                        ("eventsourcing", "eventsourcing recorder")):
        if name not in times:
            print(f"{label:23s} not installed (pip install eventsourcing)")
            continue
        med, low = med_min(times[name])
        goal = ("  (goal >= 500/s; within 1.5x of the loop)" if name == "banco" else
                "  (WAL, synchronous=FULL: the disk's pace)" if name == "sqlite3" else "")
        print(f"{label:23s} {1 / med:7,.0f} /s median, {1 / low:,.0f} best round = "
              f"{med / base:.2f}x / {low / base_min:.2f}x of the loop "
              f"({rounds} x {count}, interleaved){goal}")
    book.close()
    bare.close()


def bench_shell(db: str, count: int) -> None:
    """Commands typed into `banco shell`: one process, table cached between commands."""
    import contextlib
    import io

    from banco.cli.banker.shell import BancoShell
    from banco.cli.execution import execute
    from banco.cli.main import cli as banco_cli
    from banco.cli.session import Session

    session = Session(db, None)
    lines = ["roll 3 4", "undo", "state"]
    sink = io.StringIO()
    with contextlib.redirect_stdout(sink):
        execute(session, "new Anna Bruno Carla")
        # The shell's own work counts too: the check for another terminal's events before
        # each line and the prompt after it.
        sh = BancoShell(session, banco_cli, stdin=io.StringIO(), stdout=sink)
        t0 = time.perf_counter()
        for i in range(count):
            line = sh.precmd(lines[i % 3])
            sh.postcmd(sh.onecmd(line), line)
    dt = time.perf_counter() - t0
    print(f"banco shell             {dt / count * 1000:7.2f} ms a command (roll/undo/state; goal <= 5 ms)")


def bench_machine(games: int) -> None:
    """The state machine's random games (all invariants checked after every event), then the
    fold over the logs they wrote."""
    from machine_model import RULE_SETS
    from machine_table import Table

    from banco.ledger.table.state import fold

    logs = []
    t0 = time.perf_counter()
    for seed in range(games):
        m = Table()
        m.deal(players=2 + seed % 4, cash=(1500, 800, 400, 250)[seed % 4], warmup=50, seed=seed,
               rules=RULE_SETS[seed % len(RULE_SETS)])
        logs.append(m.log)
    dt = time.perf_counter() - t0
    events = sum(len(x) for x in logs)
    print(f"state machine           {games / dt:10,.0f} random games/s ({', '.join(RULE_SETS)}; "
          f"50 table actions each, "
          f"every invariant after every event; {events / dt:,.0f} events/s)")
    t0 = time.perf_counter()
    for _ in range(5):
        for log in logs:
            fold(log, 1)
    dt = time.perf_counter() - t0
    print(f"fold on its logs        {5 * events / dt:10,.0f} events/s (goal >= 200,000)")


def bench_chain(db: str, runs: int) -> None:
    """Every read checks the rows it folds against the hash chain: its price."""
    from banco.ledger.book import Book
    from banco.ledger.store.canonical import GENESIS
    from banco.ledger.store.sqlite import SQLiteStore
    from banco.ledger.table.state import fold

    store = SQLiteStore(db)
    game = store.latest_game(unfinished=False)
    n = len(store.read(game))

    def best(f):
        times = []
        for _ in range(runs):
            t0 = time.perf_counter()
            f()
            times.append(time.perf_counter() - t0)
        return min(times)

    plain = best(lambda: store.read(game))
    checked = best(lambda: store.read(game, prev_hash=GENESIS))
    rows = store.read(game)
    folded = best(lambda: fold(rows, game))
    cold = best(lambda: Book(db).state(game))
    store.close()
    extra = checked - plain
    print(f"chain check on read     {extra / n * 1e6:7.2f} us/event: {extra * 1000:.2f} ms for "
          f"{n} events (read {plain * 1000:.2f} ms, fold {folded * 1000:.2f} ms; "
          f"{extra / cold:.0%} of a whole cold read of the game, {cold * 1000:.1f} ms)")


def bench_concurrent_new(folder: str, processes: int, each: int) -> None:
    """`processes` shells each starting `each` games, all at once, on a file that does not
    exist yet (the first starts race to create it)."""
    import json

    db = str(Path(folder) / "starts.db")
    banco = tool("banco")
    script = "; ".join(f"'{banco}' --db '{db}' new P{{w}} Q{i} >/dev/null" for i in range(each))
    t0 = time.perf_counter()
    procs = [subprocess.Popen(["/bin/bash", "-c", script.replace("{w}", str(w))],
                              stderr=subprocess.PIPE) for w in range(processes)]
    errors = [p.communicate()[1] for p in procs]
    dt = time.perf_counter() - t0
    failed = [p.returncode for p in procs if p.returncode]
    errors = [ln for err in errors for ln in err.decode(errors="replace").splitlines()
              if not ln.startswith(EXPECTED_WARNINGS)]
    if failed or errors:
        raise SystemExit(f"concurrent new FAILED: exit codes {failed}, stderr {errors}")
    out = subprocess.run([banco, "--db", db, "games", "--json"], capture_output=True, text=True,
                         check=True).stdout
    games = [g["game"] for g in json.loads(out)]
    if games != list(range(1, processes * each + 1)):
        raise SystemExit(f"concurrent new FAILED: games {games}")
    total = processes * each
    print(f"concurrent new          {total} games from {processes} processes in {dt:.2f} s "
          f"({total / dt:.1f} starts/s, {dt / each * 1000:.0f} ms a start per process; "
          f"all distinct, none refused)")


def bench_audit(db: str, rounds: int) -> None:
    """The audit of a stored game, every check after every event, as `banco audit` runs it:
    `audit_game` with a progress callback (cli/referee/audit_report.py), the rows as the
    store's RawRows (the data as its stored text, streamed from the file) and the game's kept
    snapshots held to the log."""
    from banco.ledger.book import Book
    from banco.projections.audit.audit_games import audit_game

    def step(done: int) -> None:  # `banco audit` always gives its bar's step (cli/referee)
        pass

    book = Book(db)
    report = audit_game(book.store, 1, progress=step)
    if not report.ok:
        raise BenchFailed(f"benchmark stopped: the audit of the recorded game failed at event "
                          f"{report.bad_seq}: {report.problem}")
    n = report.events
    t0, c0 = time.perf_counter(), time.process_time()
    for _ in range(rounds):
        audit_game(book.store, 1, progress=step)
    dt, cpu = time.perf_counter() - t0, time.process_time() - c0
    # a core's pace is the CPU time's: on a shared machine the wall time counts the waits too
    # (and a loaded machine moves even the CPU time: valgrind's instructions an event, in
    # docs/performance.md, are the figure no load moves)
    print(f"audit                   {n * rounds / dt:10,.0f} events/s over {rounds} x "
          f"{n} events, one process; {n * rounds / cpu:,.0f} a second of CPU at load "
          f"{os.getloadavg()[0]:.1f} (budget >= 40,000 a core; aim 100,000)")
    book.close()


def bench_referee(folder: str, runs: int) -> None:
    """replay, report and export/import on the longest fixture (classic-to-the-end)."""
    from banco.cli.words.facts import describe
    from banco.ledger.book import Book
    from banco.projections.readings.replay import steps
    from banco.projections.readings.report import report_html

    db = str(Path(folder) / "referee.db")
    env = {**os.environ, "BANCO_FIXED_TIME": "2026-11-29T21:00:00Z"}
    checked([tool("banco"), "--db", db, "run", "-q",
             str(ROOT / "fixtures" / "classic-to-the-end.banco")], env)
    book = Book(db)
    events = book.events(1)
    n = len(events)

    def best(f):
        times = []
        for _ in range(runs):
            t0 = time.perf_counter()
            f()
            times.append(time.perf_counter() - t0)
        return min(times)

    projection = best(lambda: list(steps(events, 1)))
    page = report_html(events, 1, describe, head=events[-1]["hash"])
    report = best(lambda: report_html(events, 1, describe, head=events[-1]["hash"]))
    book.close()
    whole = statistics.median(checked([tool("banco"), "--db", db, "replay"])
                              for _ in range(max(3, runs // 4)))
    print(f"replay of {n} events    {projection * 1000:7.1f} ms the projection (every command "
          f"with the table before and after); `banco replay`, whole process: "
          f"{whole * 1000:.0f} ms")
    print(f"report                  {report * 1000:7.1f} ms to build the page ({len(page) // 1024} "
          f"KiB) for {n} events")
    path = Path(folder) / "game.jsonl"
    export = checked([tool("banco"), "--db", db, "export", "-o", str(path)])
    imported = checked([tool("banco"), "--db", str(Path(folder) / "imported.db"), "import",
                        str(path)])
    print(f"export / import         {n / export:10,.0f} / {n / imported:,.0f} events/s, whole "
          f"process, {n} events (the 1,000,000-event import: python tests/bench_import.py)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="fewer runs, for a smoke check")
    ap.add_argument("--only", type=int, nargs="+", metavar="N",
                    help="run only these sections (their numbers above), e.g. --only 8")
    args = ap.parse_args()
    wanted = set(args.only or range(1, 10))
    runs = 5 if args.quick else 21
    print(subprocess.run([tool("banco"), "--version"], capture_output=True, text=True,
                         env={**os.environ, "BANCO_LANG": "en"}).stdout.strip(), "|", load())
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "bench.db")
        for path, name in ((db, "classic-4p"), (str(Path(tmp) / "end.db"), "classic-to-the-end")):
            checked([tool("banco"), "--db", path, "run", "-q",
                     str(ROOT / "fixtures" / f"{name}.banco")])
        if 1 in wanted:
            section("1. cold commands beside sqlite-utils")
            bench_cli(db, runs)
        if 6 in wanted:
            section("6. the chain check on read")
            bench_chain(db, runs)
        if 2 in wanted:
            section("2. the fold")
            bench_fold(2000)
            bench_stored_fold(str(Path(tmp) / "end.db"))
        if 3 in wanted:
            section("3. durable appends beside the disk's pace")
            bench_appends(tmp, 20 if args.quick else 50, 3 if args.quick else 7)
        if 4 in wanted:
            section("4. banco shell")
            bench_shell(str(Path(tmp) / "shell.db"), 60 if args.quick else 300)
        if 5 in wanted:
            section("5. the state machine")
            bench_machine(50 if args.quick else 300)
        if 7 in wanted:
            section("7. concurrent starts")
            bench_concurrent_new(tmp, 4, 3 if args.quick else 10)
        if 8 in wanted:
            section("8. audit")
            bench_audit(str(Path(tmp) / "end.db"), 5 if args.quick else 20)
        if 9 in wanted:
            section("9. the referee's desk")
            bench_referee(tmp, 5 if args.quick else 15)
    print(f"-- done ({load()})")


if __name__ == "__main__":
    main()
