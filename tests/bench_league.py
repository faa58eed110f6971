"""A hall of tables writing at once: one PostgreSQL database against one SQLite file (issue 22).
Prints figures; asserts nothing.  Not in the test run:

    python tests/bench_league.py                          # 50 tables, 2 processes, 40 commands each
    python tests/bench_league.py --tables 10 --commands 20

Each table is a game of its own, played by a thread of one of the writing processes with a
Book of its own (its own connection), which records commands back to back: `roll 3 4`, then
`undo` it, durably (SQLite: WAL, synchronous=FULL; PostgreSQL: a throwaway server of
tests/pg_cluster.py started with fsync on, BANCO_TEST_PG_DURABLE=1).  The processes start
together; every command's time from the call to its commit is kept.

Figures, per store: commands a second over the whole hall, each command's time (p50, p99,
max), the refused and the conflicting (none expected: each table writes its own game), then
`banco audit` of the whole store as a process (events a second).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.append(str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

NOW = "2026-11-29T10:00:00.000000Z"


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def _tables(db: str, games: list[int], commands: int, start: float, out) -> None:
    """One writing process: a thread a table, each with its own Book."""
    from banco.ledger.book import Book
    from banco.ledger.records import commands as c

    times: list[float] = []
    failed: list[str] = []
    lock = threading.Lock()

    def table(game: int) -> None:
        book = Book(db)
        mine: list[float] = []
        try:
            for i in range(commands):
                t0 = time.perf_counter()
                try:
                    if i % 2:
                        book.undo(game, now=NOW)
                    else:
                        book.execute(game, c.Roll((3, 4)), now=NOW)
                except Exception as exc:  # counted and said: a benchmark that lies helps no one
                    with lock:
                        failed.append(f"game {game}: {type(exc).__name__}: {exc}")
                    continue
                mine.append(time.perf_counter() - t0)
        finally:
            book.close()
        with lock:
            times.extend(mine)

    while time.time() < start:
        time.sleep(0.001)
    threads = [threading.Thread(target=table, args=(g,)) for g in games]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    out.put((times, failed))


def hall(db: str, tables: int, processes: int, commands: int) -> dict:
    from banco.ledger.book import Book

    book = Book(db)
    games = [book.new_game([f"A{n}", f"B{n}"], now=NOW) for n in range(tables)]
    book.close()
    ctx = multiprocessing.get_context("spawn")
    out = ctx.Queue()
    start = time.time() + 2.0  # every process imported and waiting
    procs = [ctx.Process(target=_tables, args=(db, games[i::processes], commands, start, out))
             for i in range(processes)]
    for p in procs:
        p.start()
    results = [out.get() for _ in procs]
    for p in procs:
        p.join()
    wall = time.time() - start
    times = [t for r in results for t in r[0]]
    failed = [f for r in results for f in r[1]]
    return {"wall": wall, "times": times, "failed": failed, "games": games}


def audit_rate(db: str) -> tuple[float, int]:
    """`banco audit` of the whole store, as a process: (seconds, events)."""
    from banco.ledger.store.open import open_store

    store = open_store(db)
    events = sum(g["events"] for g in store.games())
    store.close()
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "banco.cli.main", "--db", db, "audit"],
                          capture_output=True, text=True, cwd=ROOT)
    took = time.perf_counter() - t0
    if done.returncode != 0:
        raise SystemExit(f"audit failed ({done.returncode}): {done.stdout[-400:]}"
                         f"{done.stderr[-400:]}")
    return took, events


def report(name: str, found: dict, audit: tuple[float, int]) -> None:
    times = found["times"]
    n = len(times)
    print(f"{name:10s} {n:6d} commands in {found['wall']:6.2f} s = {n / found['wall']:7.1f}/s   "
          f"p50 {percentile(times, 50) * 1000:6.1f} ms  p99 {percentile(times, 99) * 1000:7.1f} "
          f"ms  max {max(times) * 1000:7.1f} ms   failed {len(found['failed'])}   "
          f"audit {audit[1]:,} events in {audit[0]:.2f} s = {audit[1] / audit[0]:,.0f}/s")
    for line in found["failed"][:5]:
        print(f"           {line}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--processes", type=int, default=2)
    ap.add_argument("--commands", type=int, default=40, help="commands each table records")
    ap.add_argument("--store", choices=["both", "sqlite", "postgres"], default="both")
    args = ap.parse_args()
    os.environ.setdefault("BANCO_LOCK_WAIT", "30")  # fifty writers queue for one SQLite file
    print(f"{args.tables} tables, {args.processes} processes, {args.commands} commands a table "
          f"(roll 3 4 / undo), load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory(dir=os.environ.get("BANCO_BENCH_DIR")) as tmp:
        if args.store in ("both", "sqlite"):
            db = str(Path(tmp) / "hall.db")
            found = hall(db, args.tables, args.processes, args.commands)
            report("SQLite", found, audit_rate(db))
        if args.store in ("both", "postgres"):
            os.environ["BANCO_TEST_PG_DURABLE"] = "1"
            import pg_cluster

            url, _ = pg_cluster.database()
            found = hall(url, args.tables, args.processes, args.commands)
            report("PostgreSQL", found, audit_rate(url))


if __name__ == "__main__":
    main()
