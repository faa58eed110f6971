"""Soak: SIGKILL `banco run` many times at random points of a long recorded game, re-running
after each kill, and check what tests/test_subprocess.py's crash test checks at 20 points:
after every kill the file holds an exact prefix of the uninterrupted run's log, ending where
a command ends; the last run ends with the same log, head and table.  Not part of the test
run (minutes):

    python tests/soak_crash.py                    # 200 kills on classic-to-the-end
    python tests/soak_crash.py --kills 50 --seed 7
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BANCO = Path(sys.executable).parent / "banco"
ENV = {**os.environ, "BANCO_FIXED_TIME": "2026-11-29T21:00:00Z"}
UID = "1b4e28ba-2fa1-11d2-883f-0016d3cca427"


def rows(db: Path) -> list[tuple]:
    if not db.exists():
        return []
    conn = sqlite3.connect(db)
    try:
        if not conn.execute("SELECT 1 FROM sqlite_master WHERE name='events'").fetchone():
            return []
        return conn.execute("SELECT game_id, seq, type, data, command_id, hash FROM events "
                            "ORDER BY game_id, seq").fetchall()
    finally:
        conn.close()


def last_seq(db: Path) -> int:
    if not db.exists():
        return 0
    conn = sqlite3.connect(db, timeout=1)
    try:
        return conn.execute("SELECT MAX(seq) FROM events").fetchone()[0] or 0
    except sqlite3.Error:
        return 0
    finally:
        conn.close()


def banco(*args) -> str:
    done = subprocess.run([str(BANCO), *map(str, args)], capture_output=True, text=True, env=ENV)
    if done.returncode != 0:
        raise SystemExit(f"`banco {' '.join(map(str, args))}` exited {done.returncode}:\n"
                         f"{done.stdout}{done.stderr}")
    return done.stdout


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kills", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--transcript", default=str(ROOT / "fixtures" / "classic-to-the-end.banco"))
    args = ap.parse_args()
    rng = random.Random(args.seed)
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as work:
        lines = Path(args.transcript).read_text(encoding="utf-8").splitlines()
        at = next(i for i, line in enumerate(lines) if line.startswith("new "))
        lines[at] += f" --uuid {UID}"  # a fixed identity, so that two runs hash alike
        script = Path(work) / "game.banco"
        script.write_text("\n".join(lines) + "\n", encoding="utf-8")
        whole, db = Path(work) / "whole.db", Path(work) / "killed.db"
        banco("--db", whole, "run", "-q", script)
        reference = rows(whole)
        kills = []
        for _ in range(args.kills):
            target = rng.randrange(1, len(reference))
            if last_seq(db) >= target:
                target = rng.randrange(last_seq(db), len(reference) + 1)
            proc = subprocess.Popen([str(BANCO), "--db", str(db), "run", "-q", str(script)],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV)
            deadline = time.monotonic() + 30
            while proc.poll() is None and last_seq(db) < target and time.monotonic() < deadline:
                time.sleep(0.002)
            time.sleep(rng.uniform(0, 0.05))
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            got = rows(db)
            kills.append(len(got))
            if got != reference[:len(got)]:
                raise SystemExit(f"kill {len(kills)}: the file is not a prefix of the log "
                                 f"({len(got)} rows)")
            if got and len(got) < len(reference) and reference[len(got)][4] == got[-1][4]:
                raise SystemExit(f"kill {len(kills)}: the file ends inside a command (event "
                                 f"{len(got)})")
            if len(got) == len(reference):
                db.unlink()  # the game is over: play it again from the start
                for side in ("-wal", "-shm"):
                    Path(str(db) + side).unlink(missing_ok=True)
        banco("--db", db, "run", "-q", script)
        if rows(db) != reference:
            raise SystemExit("the last run did not end with the uninterrupted run's log")
        head = banco("--db", db, "audit").splitlines()[-1]
        if head != banco("--db", whole, "audit").splitlines()[-1]:
            raise SystemExit("the heads differ")
        if banco("--db", db, "state", "--json") != banco("--db", whole, "state", "--json"):
            raise SystemExit("the tables differ")
    print(f"{len(kills)} kills at {len(set(kills))} different points of a {len(reference)}-event "
          f"log, every one an exact prefix; same log, head and table at the end "
          f"({time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    main()
