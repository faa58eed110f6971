"""Benchmark: the readings issue 21 bounds (`log` whole and by player, `statement`, `history`,
`export`, `report`) on one database, for this banco and another (before/after).  Prints wall
time, peak memory and events/s of each cold process; asserts nothing.  Not part of the test run:

    python tests/bench_read_model.py --db /tmp/banco-bench/big.db --before /tmp/old/banco

The database should have its read model (`banco doctor --repair` builds it for a generated or
imported game); a banco without one reads the log, as before.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

READINGS = [
    ("log (whole)", ["log"]),
    ("log --json (whole)", ["log", "--json"]),
    ("log --player Anna --tail 20", ["log", "--player", "Anna", "--tail", "20"]),
    ("log --player bank --to 3000", ["log", "--player", "bank", "--to", "3000"]),
    ("statement Anna", ["statement", "Anna"]),
    ("history via verdi", ["history", "via", "verdi"]),
    ("export (jsonl)", ["export", "-o", "{out}", "--force"]),
    ("report", ["report", "-o", "{out}.html", "--force"]),
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
    args = ap.parse_args()
    import sqlite3

    events = sqlite3.connect(args.db).execute(
        "SELECT MAX(seq) FROM events WHERE game_id=1").fetchone()[0]
    here = os.path.join(os.path.dirname(sys.executable), "banco")
    tools = [("after", here)] + ([("before", args.before)] if args.before else [])
    out = os.path.join(tempfile.mkdtemp(), "out")
    print(f"{events:,} events; one cold process each, taken in turn")
    for name, words in READINGS:
        if args.only and not any(name.startswith(p) for p in args.only.split(",")):
            continue
        cells = []
        for label, banco in tools:
            wall, kb = peak_of([banco, "--db", args.db, *(w.format(out=out) for w in words)])
            cells.append(f"{label} {wall:7.2f} s {kb / 1024:6.1f} MB {events / wall:9,.0f} ev/s")
        print(f"{name:<30}" + "  |  ".join(cells), flush=True)


if __name__ == "__main__":
    main()
