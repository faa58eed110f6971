"""Load benchmark of `banco serve` with roles (issue 18), not part of the test run:

    .venv/bin/python tests/bench_phones.py [--tables 30] [--actions 20] [--pace 1.0]
                                           [--lines game|undo]

One server (`banco serve`, its own process) and TABLES games in one database; at each table a
banker's tablet, four players' phones and a TV, every one with its token and its event stream
open.  Each banker sends ACTIONS lines of a real game (fixtures/classic-to-the-end.banco, in
order from its start: rolls, buys, auctions, claims, cards; `--lines undo`: `roll 1 2` and
`undo` in turn, the old pattern, where every undo reads back past all the undone ones), one
every PACE seconds after the answer (give or take a fifth, and each table starting at its own
moment, as tables do; a banker at a brisk table records about a line a second: a roll, a buy,
a claim), all tables at once.  `--pace 0.2` is the stress figure: 30 tables at five lines a
second each.  The throughput (lines a second the server answered) is printed too.  Measured: the banker's action (POST /api/commands to its
answer) and a phone seeing it (the POST sent to the stream's event with that seq, over the
five screens of the table), p50 and p99; the server's memory (VmRSS) before and after.
Results: docs/performance.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time

import httpx

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NOW = "2026-11-29T21:00:00Z"


def rss_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        return int(re.search(r"VmRSS:\s+(\d+)", f.read())[1])


def cpu_s(pid: int) -> float:
    """The process's CPU time so far (user + system), in seconds: a figure a loaded machine
    changes less than the latencies."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))] * 1000


async def screen(client, base: str, token: str, seen: dict, ready: asyncio.Event):
    """One phone's or TV's stream: the time each seq arrived."""
    headers = {"Authorization": f"Bearer {token}"}
    async with client.stream("GET", base + "/api/events", headers=headers, timeout=None) as r:
        ready.set()
        async for line in r.aiter_lines():
            if line.startswith("data: "):
                seen[json.loads(line[6:])["seq"]] = time.perf_counter()


GAME = os.path.join(ROOT, "fixtures", "classic-to-the-end.banco")


def game_lines() -> tuple[list[str], list[str]]:
    """The fixture game's `new` arguments and its lines after it (the refused ones, `!`,
    left out: a benchmark of what the table records)."""
    new, lines = None, []
    with open(GAME, encoding="utf-8") as f:
        for raw in f:
            line = raw.split("#", 1)[0].strip()
            if not line or line.startswith("!"):
                continue
            if new is None and line.startswith("new "):
                new = line.split()[1:]
                continue
            lines.append(line)
    return new, lines


async def table(client, base, keys, actions, results, pace, rng, lines):
    seens = [{} for _ in keys["screens"]]
    readies = [asyncio.Event() for _ in keys["screens"]]
    streams = [asyncio.create_task(screen(client, base, t, s, r))
               for t, s, r in zip(keys["screens"], seens, readies, strict=True)]
    for r in readies:
        await r.wait()
    await asyncio.sleep(0.5 + rng.uniform(0, pace))
    headers = {"Authorization": f"Bearer {keys['banker']}"}
    for i in range(actions):
        line = lines[i % len(lines)] if lines else ("roll 1 2" if i % 2 == 0 else "undo")
        sent = time.perf_counter()
        r = await client.post(base + "/api/commands", json={"line": line, "id": f"b{i}"},
                              headers=headers)
        results["action"].append(time.perf_counter() - sent)
        assert r.status_code == 200, r.text
        seq = r.json()["seq"]
        deadline = time.perf_counter() + 5
        while not all(seq in s for s in seens) and time.perf_counter() < deadline:
            await asyncio.sleep(0.002)
        results["seen"].extend(s[seq] - sent for s in seens if seq in s)
        results["missed"] += sum(seq not in s for s in seens)
        await asyncio.sleep(pace * rng.uniform(0.8, 1.2))
    for s in streams:
        s.cancel()


async def main_async(base, all_keys, actions, pace, lines):
    results = {"action": [], "seen": [], "missed": 0}
    rng = random.Random(18)
    limits = httpx.Limits(max_connections=len(all_keys) * 7, max_keepalive_connections=400)
    async with httpx.AsyncClient(limits=limits, timeout=30) as client:
        await asyncio.gather(*(table(client, base, k, actions, results, pace, rng, lines)
                               for k in all_keys))
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--actions", type=int, default=20)
    parser.add_argument("--lines", choices=("game", "undo"), default="game",
                        help="a real game's lines, or roll and undo in turn")
    parser.add_argument("--pace", type=float, default=1.0,
                        help="seconds between a banker's lines (0.2: the stress figure)")
    args = parser.parse_args()
    sys.path.insert(0, ROOT)
    from banco.ledger.store import tokens

    banco = [sys.executable, "-m", "banco.cli.main"]
    with tempfile.TemporaryDirectory() as work:
        db = os.path.join(work, "tables.db")
        all_keys = []
        new_args, lines = game_lines()
        if args.lines == "undo":
            new_args, lines = ["Anna", "Bruno", "Carla", "Dario"], []
        for game in range(1, args.tables + 1):
            subprocess.run([*banco, "--db", db, "new", *new_args],
                           check=True, capture_output=True, cwd=ROOT)
            players = [tokens.issue(db, "player", game, NOW, n)[0]
                       for n in ("Anna", "Bruno", "Carla", "Dario")]
            all_keys.append({"banker": tokens.issue(db, "banker", game, NOW)[0],
                             "screens": [*players, tokens.issue(db, "viewer", game, NOW)[0]]})
        proc = subprocess.Popen([*banco, "--db", db, "serve", "--port", "0"], cwd=ROOT,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            base = re.search(r"(http://\S+?)/? ", proc.stdout.readline())[1].rstrip("/")
            idle = rss_kb(proc.pid)
            cpu_before = cpu_s(proc.pid)
            started = time.perf_counter()
            results = asyncio.run(main_async(base, all_keys, args.actions, args.pace, lines))
            took = time.perf_counter() - started
            busy = rss_kb(proc.pid)
            cpu = cpu_s(proc.pid) - cpu_before
        finally:
            proc.terminate()
            proc.wait(10)
    print(f"{args.tables} tables x (banker + 4 phones + TV), {args.actions} actions each, "
          f"one every {args.pace:g} s ({args.lines} lines): {took:.1f} s, "
          f"{len(results['action']) / took:.1f} lines a second answered")
    for key, label in (("action", "banker's action"), ("seen", "a screen seeing it")):
        values = results[key]
        print(f"  {label}: n={len(values)} p50 {pct(values, 50):.1f} ms, p99 "
              f"{pct(values, 99):.1f} ms, max {max(values) * 1000:.1f} ms, mean "
              f"{statistics.mean(values) * 1000:.1f} ms")
    print(f"  screens that missed an update within 5 s: {results['missed']}")
    lines = len(results["action"])
    print(f"  server CPU: {cpu:.1f} s, {cpu / lines * 1000:.1f} ms a line with its fan-out to "
          f"{len(all_keys[0]['screens'])} screens; load average {os.getloadavg()[0]:.1f}")
    print(f"  server memory (VmRSS): {idle / 1024:.0f} MB idle, {busy / 1024:.0f} MB under load")


if __name__ == "__main__":
    main()
