"""Benchmark: the referee's and the organiser's readings of a long game, in bounded memory
(DESIGN.md: "a 1,000,000-event database replays game by game in bounded memory"; the flat-cost
goal: peak memory <= 64 MB on a 300,000-event game).  Prints figures; asserts nothing about
speed.  Not part of the test run:

    python tests/bench_readings.py                    # 1,000 and 300,000 events, best of 3
    python tests/bench_readings.py --runs 1 --only show,ruling   # a quicker look
    python tests/bench_readings.py --banco /tmp/old/bin/banco    # another banco (before/after)

Each reading in COMMANDS runs as a cold process (its output thrown away) on a copy of the
1,000-event and of the long game (tests/tools/big_games.py writes them into --dir, reused when
present): the best wall time of --runs runs and the highest peak memory.  A reading that must
print every event (a whole `replay`) takes time in proportion to the game; its memory must not
grow with it.  Every timed command must succeed: a failure stops the benchmark with its output.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_scale import events_of, fresh_copy, generate, run, tool  # noqa: E402

# (name, words): {last} is the game's last seq, {mid} its middle, {end} a seq a little before
# its end, {out} a file to write.
COMMANDS: list[tuple[str, list[str]]] = [
    # `state --at` starts from the newest snapshot before the seq (goal: within 1.2x of `state`)
    ("state", ["state"]),
    ("state --at (near the end)", ["state", "--at", "{end}"]),
    ("state --at (the middle)", ["state", "--at", "{mid}"]),
    # the moment farthest from a snapshot: just before the first one kept after the middle
    ("state --at (far from a snapshot)", ["state", "--at", "{far}"]),
    ("show", ["show", "{mid}"]),
    ("show --json", ["show", "{mid}", "--json"]),
    ("replay --from", ["replay", "--from", "{end}"]),
    # the generated game's events share one time: a --to TIME is found by scanning them all
    ("replay --from SEQ --to TIME", ["replay", "--from", "{end}", "--to", "{end_time}"]),
    ("replay --from --json", ["replay", "--from", "{end}", "--json"]),
    ("replay (whole game)", ["replay"]),
    ("replay --json (whole)", ["replay", "--json"]),
    ("replay --rules", ["replay", "--rules", "championship", "--skip-refused"]),
    ("export --format text", ["export", "--format", "text", "-o", "{out}", "--force"]),
    ("ruling rent", ["ruling", "rent", "{rent}"]),
    ("ruling jail", ["ruling", "jail", "{jail}"]),
    ("ruling auction", ["ruling", "auction", "{auction}"]),
    # the organiser's
    ("statement", ["statement", "Anna"]),
    ("statement --json", ["statement", "Anna", "--json"]),
    ("history", ["history", "via", "verdi"]),
    ("export --format csv", ["export", "--format", "csv", "-o", "{out}", "--force"]),
    ("export (jsonl)", ["export", "-o", "{out}", "--force"]),
    ("report", ["report", "-o", "{out}", "--force"]),
]


def _last_of(db: str, types: tuple[str, ...]) -> int:
    """The last seq of one of these types (a ruling's subject), or 1."""
    import sqlite3

    conn = sqlite3.connect(db)
    try:
        marks = ",".join("?" * len(types))
        row = conn.execute(f"SELECT MAX(seq) FROM events WHERE game_id=1 AND type IN ({marks})",
                           types).fetchone()
        return row[0] or 1
    finally:
        conn.close()


def _time_of(db: str, seq: int) -> str:
    """When event `seq` of game 1 was recorded: a `--from TIME` near the game's end."""
    import sqlite3

    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT recorded_at FROM events WHERE game_id=1 AND seq=?",
                            (seq,)).fetchone()[0]
    finally:
        conn.close()


def _far(db: str, after: int) -> int:
    """The seq just before the first snapshot kept after `after` (the fold from the one
    before it is the longest a moment asks), or `after` when none is."""
    import sqlite3

    conn = sqlite3.connect(db)
    try:
        row = conn.execute("SELECT MIN(seq) FROM snapshots WHERE game_id=1 AND seq>?",
                           (after,)).fetchone()
        return row[0] - 1 if row and row[0] else after
    finally:
        conn.close()


def fill(words: list[str], db: str, out: str) -> list[str]:
    last = events_of(db, 1)
    values = {"last": last, "mid": last // 2, "end": max(1, last - 20), "out": out,
              "far": _far(db, last // 2),
              "rent": _last_of(db, ("RentClaimOpened",)),
              "jail": _last_of(db, ("SentToJail",)),
              "auction": _last_of(db, ("AuctionOpened", "BidPlaced")),
              "end_time": _time_of(db, max(1, last - 20))}
    return [w.format(**values) for w in words]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", default=os.path.join(tempfile.gettempdir(), "banco-bench"),
                    help="where the generated databases are kept (reused when present)")
    ap.add_argument("--events", type=int, default=300_000, help="the long game's events")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--banco", default=None, help="the banco to run (default: this one's)")
    ap.add_argument("--only", default=None,
                    help="comma-separated prefixes of the readings to run")
    args = ap.parse_args()
    folder = Path(args.dir)
    folder.mkdir(parents=True, exist_ok=True)
    banco = args.banco or tool("banco")
    chosen = [(n, w) for n, w in COMMANDS
              if not args.only or any(n.startswith(p) for p in args.only.split(","))]
    small, big = folder / "game-1000.db", folder / f"game-{args.events}.db"
    generate(small, 1000)
    generate(big, args.events)
    with tempfile.TemporaryDirectory() as work:
        dbs = [fresh_copy(src, work, f"{name}.db") for name, src in (("small", small),
                                                                      ("big", big))]
        out = os.path.join(work, "out.txt")
        sizes = [events_of(db, 1) for db in dbs]
        for db in dbs:  # the first read may leave a snapshot: not timed
            run([banco, "--db", db, "state"])
        print(f"best of {args.runs} cold processes; peak memory of the process "
              "(goal <= 64 MB)")
        print(f"{'reading':<24}" + "".join(f"{f'{n:,} events':>24}" for n in sizes))
        for name, words in chosen:
            cells = []
            for db in dbs:
                timed = [run([banco, "--db", db, *fill(words, db, out)])
                         for _ in range(args.runs)]
                best = min(t for t, _ in timed)
                peak = max(m for _, m in timed)
                cells.append(f"{best:8.2f} s {peak / 1024:7.1f} MB")
            print(f"{name:<24}" + "".join(f"{c:>24}" for c in cells), flush=True)


if __name__ == "__main__":
    main()
