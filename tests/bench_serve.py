"""Load benchmark for `banco serve`.  Prints figures; asserts nothing.  Not in the test run:

    python tests/bench_serve.py                 # 50 clients, 30 s, each polling every 0.5 s
    python tests/bench_serve.py --interval 0    # 50 clients asking as fast as they can
    python tests/bench_serve.py --clients 10 --seconds 5

`banco serve` runs as its own process on a copy of the recorded classic-4p game; the clients
are threads here, each on one keep-alive connection, polling /table.json the way the page does
when it cannot use server-sent events.  Meanwhile a banker records a command every second
(`roll 3 4`, then `undo` it), so the table changes while it is read.

Figures: requests answered and per second, response times (p50, p95, p99, max), errors, and
how long after a command was recorded the clients saw it (the page's "within a second").
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# the installed banco first (compiled, as users run it: setup.py), else this source tree
sys.path.append(str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--interval", type=float, default=0.5,
                        help="seconds between one client's requests (0: as fast as it can)")
    args = parser.parse_args()

    from games import record

    work = tempfile.mkdtemp(prefix="banco-bench-serve-")
    db = os.path.join(work, "game.db")
    record(db, "classic-4p")
    banco = [sys.executable, "-m", "banco.cli.main", "--db", db]
    server = subprocess.Popen([*banco, "serve", "--port", "0"], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, cwd=ROOT,
                              env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        first = server.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", first)
        if not found:
            raise SystemExit(f"banco serve did not start: {first}{server.stderr.read()}")
        port = int(found[1])
        run(port, banco, args)
    finally:
        server.terminate()
        server.wait(10)
        shutil.rmtree(work, ignore_errors=True)


def run(port: int, banco: list[str], args) -> None:
    times: list[float] = []
    errors: list[str] = []
    seen: dict[int, float] = {}  # seq -> when a client first saw it
    lock = threading.Lock()
    stop = time.monotonic() + args.seconds
    start_gate = threading.Barrier(args.clients + 3)  # clients, listener, banker, clock

    def client() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        mine = []
        start_gate.wait()
        while time.monotonic() < stop:
            t0 = time.perf_counter()
            try:
                conn.request("GET", "/table.json")
                response = conn.getresponse()
                body = response.read()
                elapsed = time.perf_counter() - t0
                if response.status != 200:
                    raise RuntimeError(f"HTTP {response.status}")
                seq = json.loads(body)["seq"]
            except Exception as exc:  # noqa: BLE001 - counted and shown, the run goes on
                with lock:
                    errors.append(repr(exc))
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                continue
            mine.append(elapsed)
            now = time.monotonic()
            with lock:
                if seq not in seen:
                    seen[seq] = now
            if args.interval:
                time.sleep(args.interval)
        conn.close()
        with lock:
            times.extend(mine)

    recorded: list[tuple[int, float]] = []  # (seq after the command, when it was recorded)
    pushed: dict[int, float] = {}  # seq -> when the event stream brought it

    def listener() -> None:
        """One page on server-sent events, as the browsers use it."""
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=args.seconds + 10)
        conn.request("GET", "/events")
        response = conn.getresponse()
        start_gate.wait()
        try:
            while time.monotonic() < stop:
                line = response.fp.readline()
                if not line:
                    break
                if line.startswith(b"data: "):
                    seq = json.loads(line[6:])["seq"]
                    pushed.setdefault(seq, time.monotonic())
        except OSError:
            pass  # the server stopped, or the run ended between two heartbeats
        conn.close()

    def banker() -> None:
        from banco.ledger.book import Book

        words = [["roll", "3", "4"], ["undo"]]
        i = 0
        start_gate.wait()
        while time.monotonic() < stop - 1.5:
            time.sleep(1.0)
            done = subprocess.run([*banco, *words[i % 2]], capture_output=True, text=True)
            at = time.monotonic()
            if done.returncode != 0:
                errors.append(f"banker: {done.stdout}{done.stderr}")
                return
            book = Book(banco[-1], create=False)
            recorded.append((book.store.last_seq(1), at))
            book.close()
            i += 1

    threads = [threading.Thread(target=client) for _ in range(args.clients)]
    threads.append(threading.Thread(target=banker))
    for t in [*threads, threading.Thread(target=listener, daemon=True)]:
        t.start()
    began = time.monotonic()
    start_gate.wait()
    for t in threads:
        t.join(args.seconds + 30)
    wall = time.monotonic() - began

    ms = [t * 1000 for t in times]
    print(f"banco serve under load: {args.clients} clients for {args.seconds:.0f} s, "
          f"each polling /table.json every {args.interval:g} s, a command recorded every "
          f"second")
    print(f"  requests answered   {len(ms)} ({len(ms) / wall:.0f}/s), errors {len(errors)}")
    if ms:
        print(f"  response time       p50 {percentile(ms, 50):.1f} ms, "
              f"p95 {percentile(ms, 95):.1f} ms, p99 {percentile(ms, 99):.1f} ms, "
              f"max {max(ms):.1f} ms (mean {statistics.mean(ms):.1f} ms)")
    lags = [seen[seq] - at for seq, at in recorded if seq in seen]
    if lags:
        print(f"  command -> seen     {len(lags)} of {len(recorded)} commands; median "
              f"{statistics.median(lags) * 1000:.0f} ms, max {max(lags) * 1000:.0f} ms "
              f"after the command returned")
    pushes = [pushed[seq] - at for seq, at in recorded if seq in pushed]
    if pushes:
        print(f"  command -> pushed   {len(pushes)} of {len(recorded)} commands on the event "
              f"stream; median {statistics.median(pushes) * 1000:.0f} ms, max "
              f"{max(pushes) * 1000:.0f} ms after the command returned")
    for e in errors[:5]:
        print(f"  error: {e}")


if __name__ == "__main__":
    main()
