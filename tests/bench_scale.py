"""Benchmark: flat cost at tournament scale (DESIGN.md's budgets).  Prints figures; asserts
nothing about speed.  Not part of the test run (the files take a minute or more to generate):

    python tests/bench_scale.py                       # 300,000 events, 1,000 x 2,000 games
    python tests/bench_scale.py --events 100000 --games 200   # a quicker look
    python tests/bench_scale.py --dir /tmp/b          # where the generated files are kept

1. a cold `banco state` and a cold write (`roll 3 4`, then `undo`, alternately) on a
   300,000-event game beside the same commands on a 1,000-event game: within 1.2x, peak memory
   of the process <= 64 MB;
2. `banco audit` of the 300,000-event game (one process: a game is never cut across
   processes; best of 3): events/s (goal >= 40,000 a core) and peak memory;
3. a tournament file of 1,000 games and 2,000,000 events: `state` and a write on one game
   within 1.2x of a fresh file holding that one game; `games` <= 50 ms (the query in-process,
   and the whole command beside `banco --version`).

The databases are written by tests/tools/big_games.py (real games, decided by `decide`, with
the snapshots the book would have left) and kept in --dir, out of the repository; they are
reused when present.  The writes alternate with an undo, so the games stay the same size.
Every timed command must succeed: a failure stops the benchmark with its output.
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
# the installed banco first (compiled, as users run it: setup.py), else this source tree
sys.path.append(str(ROOT))

FIXED = {"BANCO_FIXED_TIME": "2026-11-30T10:00:00Z"}


def tool(name: str) -> str:
    here = Path(sys.executable).parent / name
    return str(here) if here.exists() else (shutil.which(name) or name)


def run(cmd: list[str]) -> tuple[float, int]:
    """One command as its own process: (wall seconds, peak memory in KB).  Stops the
    benchmark if it fails: a refused command would be timed as a fast one."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            env={**os.environ, **FIXED})
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - t0
    err = proc.stderr.read().decode(errors="replace")
    proc.stderr.close()
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        raise SystemExit(f"benchmark stopped: `{' '.join(cmd)}` exited {code}\n{err}")
    return elapsed, usage.ru_maxrss  # KB on Linux


def medians(cmds, runs: int) -> tuple[float, int]:
    """Median wall time of `runs` runs (cmds(i) gives the i-th command) and the highest peak."""
    times, peak = [], 0
    for i in range(runs):
        t, m = run(cmds(i))
        times.append(t)
        peak = max(peak, m)
    return statistics.median(times), peak


def _current(path: Path) -> bool:
    """Whether the kept file's snapshots are of this banco's table (a snapshot of another
    shape is never read: every reading of the file would fold the whole game)."""
    import sqlite3

    from banco.ledger.table.snapshot_codec import shape

    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        formats = {f for (f,) in conn.execute("SELECT DISTINCT format FROM snapshots")}
    except sqlite3.Error:
        return False
    finally:
        conn.close()
    return formats == {shape()}


def generate(path: Path, events: int, games: int = 1) -> None:
    if path.exists() and _current(path):
        return
    print(f"generating {path} ({games} x {events:,} events) ...", flush=True)
    part = path.with_suffix(".part")
    part.unlink(missing_ok=True)
    subprocess.run([sys.executable, str(ROOT / "tests" / "tools" / "big_games.py"), "--db",
                    str(part), "--events", str(events), "--games", str(games)], check=True)
    part.rename(path)


def fresh_copy(src: Path, folder: str, name: str) -> str:
    """A copy to write in, so that the generated file stays as generated."""
    dst = os.path.join(folder, name)
    shutil.copyfile(src, dst)
    return dst


def read_and_write(pairs: list[tuple[str, int | None]], runs: int) -> list[tuple]:
    """(read, its peak, write, its peak) for each (database, game), the runs taken in turn
    across the databases, so that a slower moment of the machine falls on all of them."""
    banco = tool("banco")

    def words(db, game):
        return [banco, "--db", db, *(["--game", str(game)] if game is not None else [])]

    for db, game in pairs:  # the first read may leave a snapshot: not timed
        run([*words(db, game), "state"])
    reads = [[] for _ in pairs]
    writes = [[] for _ in pairs]
    for i in range(runs * 2):
        for k, (db, game) in enumerate(pairs):
            if i < runs:
                reads[k].append(run([*words(db, game), "state"]))
            writes[k].append(run([*words(db, game), *(["undo"] if i % 2 else ["roll", "3", "4"])]))

    def summary(timed):
        return statistics.median(t for t, _ in timed), max(m for _, m in timed)

    return [(*summary(r), *summary(w)) for r, w in zip(reads, writes, strict=True)]


def events_of(db: str, game: int) -> int:
    import sqlite3

    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT MAX(seq) FROM events WHERE game_id=?", (game,)).fetchone()[0]
    finally:
        conn.close()


def bench_long(folder: Path, events: int, runs: int, work: str) -> None:
    small, big = folder / "game-1000.db", folder / f"game-{events}.db"
    generate(small, 1000)
    generate(big, events)
    dbs = [fresh_copy(src, work, f"{name}.db") for name, src in (("small", small), ("big", big))]
    n1, n2 = (events_of(db, 1) for db in dbs)
    (r1, m1, w1, wm1), (r2, m2, w2, wm2) = read_and_write([(db, None) for db in dbs], runs)
    print(f"\n1. flat cost (median of {runs} cold processes, taken in turn; peak memory of the process)")
    print(f"   state   {n1:>9,} events {r1 * 1000:7.1f} ms {m1 / 1024:5.1f} MB | "
          f"{n2:>9,} events {r2 * 1000:7.1f} ms {m2 / 1024:5.1f} MB = {r2 / r1:.2f}x "
          "(goal <= 1.2x, <= 64 MB)")
    print(f"   write   {n1:>9,} events {w1 * 1000:7.1f} ms {wm1 / 1024:5.1f} MB | "
          f"{n2:>9,} events {w2 * 1000:7.1f} ms {wm2 / 1024:5.1f} MB = {w2 / w1:.2f}x "
          "(roll 3 4 / undo alternately)")

    banco = tool("banco")
    db = fresh_copy(big, work, "audit.db")
    n = events_of(db, 1)
    t, peak = min((audit_peak(db) for _ in range(3)), key=lambda r: r[0])
    t1, _ = run([banco, "--db", os.path.join(work, "small.db"), "audit"])
    print(f"\n2. audit of the {n:,}-event game (best of 3): {t:.2f} s = {n / t:,.0f} events/s "
          f"(goal >= 40,000 a core), peak {peak / 1024:.1f} MB; the 1,000-event game: "
          f"{t1 * 1000:.0f} ms (cold process)")


# `banco` in this interpreter, saying at exit its own peak memory.
PEAK = """import atexit, resource, sys
atexit.register(lambda: sys.stderr.write(
    f"\\npeak {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}\\n"))
from banco.cli.main import main
sys.argv[0] = "banco"
main()
"""


def audit_peak(db: str) -> tuple[float, int]:
    """`banco audit` of a file of one game: (wall seconds, peak KB)."""
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", PEAK, "--db", db, "audit"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                          env={**os.environ, **FIXED})
    elapsed = time.perf_counter() - t0
    if proc.returncode != 0:
        raise SystemExit(f"benchmark stopped: audit exited {proc.returncode}\n{proc.stderr}")
    return elapsed, int(proc.stderr.rsplit("peak ", 1)[1].split()[0])


def bench_tournament(folder: Path, games: int, each: int, runs: int, work: str) -> None:
    tour, one = folder / f"tournament-{games}x{each}.db", folder / f"game-{each}.db"
    generate(tour, each, games)
    generate(one, each)
    banco = tool("banco")
    middle = games // 2
    db = fresh_copy(tour, work, "tour.db")
    total = _total_events(db)
    fresh = fresh_copy(one, work, "one.db")
    (r2, m2, w2, wm2), (r1, m1, w1, wm1) = read_and_write([(db, middle), (fresh, 1)], runs)

    from banco.ledger.store.sqlite import SQLiteStore

    store = SQLiteStore(db, create=False)
    store.games()
    t0 = time.perf_counter()
    for _ in range(20):
        listed = store.games()
    query = (time.perf_counter() - t0) / 20
    store.close()
    whole, gm = medians(lambda i: [banco, "--db", db, "games"], runs)
    version, _ = medians(lambda i: [banco, "--version"], runs)
    print(f"\n3. tournament file: {len(listed):,} games, {total:,} events "
          f"(median of {runs} cold processes)")
    print(f"   state of game {middle}  {r2 * 1000:7.1f} ms {m2 / 1024:5.1f} MB | alone in a fresh "
          f"file {r1 * 1000:7.1f} ms {m1 / 1024:5.1f} MB = {r2 / r1:.2f}x (goal <= 1.2x)")
    print(f"   write on game {middle}  {w2 * 1000:7.1f} ms {wm2 / 1024:5.1f} MB | alone in a fresh "
          f"file {w1 * 1000:7.1f} ms {wm1 / 1024:5.1f} MB = {w2 / w1:.2f}x")
    print(f"   games: the query {query * 1000:.1f} ms (goal <= 50 ms); the whole command "
          f"{whole * 1000:.0f} ms, {gm / 1024:.1f} MB, beside `banco --version` "
          f"{version * 1000:.0f} ms")


def _total_events(db: str) -> int:
    import sqlite3

    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT SUM(last_seq) FROM games").fetchone()[0]
    finally:
        conn.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", default=os.path.join(tempfile.gettempdir(), "banco-bench"),
                    help="where the generated databases are kept (reused when present)")
    ap.add_argument("--events", type=int, default=300_000, help="the long game's events")
    ap.add_argument("--games", type=int, default=1000, help="the tournament's games")
    ap.add_argument("--each", type=int, default=2000, help="events in each tournament game")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--skip", choices=["long", "tournament"], default=None)
    args = ap.parse_args()
    folder = Path(args.dir)
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        if args.skip != "long":
            bench_long(folder, args.events, args.runs, work)
        if args.skip != "tournament":
            bench_tournament(folder, args.games, args.each, args.runs, work)


if __name__ == "__main__":
    main()
