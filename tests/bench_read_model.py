"""Benchmark: the readings issue 21 bounds (`log` whole and by player, `statement`, `history`,
`export`, `report`) on one database, for this banco and another (before/after).  Prints wall
time (median and minimum of --runs rounds, the bancos taken in turn), peak memory and events/s
of each cold process, the machine's load and the goal beside each; asserts nothing.  Not part
of the test run:

    python tests/bench_read_model.py --db /tmp/banco-bench/big.db --before /tmp/old/banco
    python tests/bench_read_model.py --db big.db --only log,export,report --runs 5

The database should have its read model (`banco doctor --repair` builds it for a generated or
imported game); a banco without one reads the log, as before.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

# (name, words, goal): the whole-game readings are held to >= 100,000 events/s (issue 21);
# `audit` is there to show the part of `report` that is its audit (its own budget)
READINGS = [
    ("log (whole)", ["log"], ">= 100,000 ev/s"),
    ("log --json (whole)", ["log", "--json"], ">= 100,000 ev/s"),
    ("log --player Anna --tail 20", ["log", "--player", "Anna", "--tail", "20"], "the answer's cost"),
    ("log --player bank --to 3000", ["log", "--player", "bank", "--to", "3000"], ""),
    ("statement Anna", ["statement", "Anna"], "the answer's cost"),
    ("history via verdi", ["history", "via", "verdi"], "the answer's cost"),
    ("export (jsonl)", ["export", "-o", "{out}", "--force"], ">= 100,000 ev/s"),
    ("report", ["report", "-o", "{out}.html", "--force"], ">= 100,000 ev/s"),
    ("audit (report's first pass)", ["audit"], "its own budget"),
]


def peak_of(cmd: list[str]) -> tuple[float, int]:
    """Wall seconds and the peak memory (KB, GNU time's) of one cold process, its output
    thrown away; a failed command stops the benchmark."""
    with tempfile.NamedTemporaryFile("r") as f:
        t = time.perf_counter()
        done = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", f.name, *cmd],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        wall = time.perf_counter() - t
        if done.returncode != 0:
            sys.exit(f"{' '.join(cmd)} failed: {done.stderr.decode()[-500:]}")
        return wall, int(f.read().split()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", required=True)
    ap.add_argument("--before", default=None, help="another banco, run in turn with this one")
    ap.add_argument("--only", default=None, help="comma-separated prefixes of the readings")
    ap.add_argument("--runs", type=int, default=3, help="rounds, the banco taken in turn")
    args = ap.parse_args()
    import sqlite3

    events = sqlite3.connect(args.db).execute(
        "SELECT MAX(seq) FROM events WHERE game_id=1").fetchone()[0]
    here = os.path.join(os.path.dirname(sys.executable), "banco")
    tools = [("now", here)] + ([("before", args.before)] if args.before else [])
    out = os.path.join(tempfile.mkdtemp(), "out")
    print(f"{events:,} events; {args.runs} rounds of one cold process each, the bancos taken "
          "in turn; median (minimum) wall time, events/s of the median, the highest peak "
          "memory (goal <= 64 MB)")
    for name, words, goal in READINGS:
        if args.only and not any(name.startswith(p) for p in args.only.split(",")):
            continue
        load = os.getloadavg()[0]
        timed: dict[str, list[tuple[float, int]]] = {label: [] for label, _ in tools}
        for _ in range(args.runs):
            for label, banco in tools:
                timed[label].append(peak_of([banco, "--db", args.db,
                                             *(w.format(out=out) for w in words)]))
        cells = []
        for label, _ in tools:
            walls = sorted(w for w, _ in timed[label])
            median, kb = statistics.median(walls), max(k for _, k in timed[label])
            cells.append(f"{label} {median:6.2f} s ({walls[0]:5.2f}) {kb / 1024:5.1f} MB "
                         f"{events / median:8,.0f} ev/s")
        print(f"{name:<28} load {load:4.1f}  " + "  |  ".join(cells)
              + (f"  [goal {goal}]" if goal else ""), flush=True)


if __name__ == "__main__":
    main()
