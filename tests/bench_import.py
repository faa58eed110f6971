"""Benchmark: `banco import` of a generated 1,000,000-event game, in events per second, with
the importing process's peak memory; then `banco export` of it, byte for byte the file it came
from.  Prints figures; asserts nothing about speed.  Not part of the test run (minutes):

    python tests/bench_import.py                   # 1,000,000 events
    python tests/bench_import.py --events 100000   # a quicker look
    python tests/bench_import.py --sizes 100000,1000000   # memory stays flat as games grow
    python tests/bench_import.py --events 300000 --keep /tmp/g.jsonl --repeat 3  # best of 3,
                                                   # the generated file kept for the next run

DESIGN.md's budget: import >= 50,000 events/s in batches, in bounded memory.  The import
checks every line and the chain as it streams, inserts in batches, then runs the audit
(projections/audit/audit.py) over the game read back from the file on demand: the figures say how
much of the time is the audit's (for a game of import_audit.THRESHOLD events or more the audit
runs beside the import, in a process of its own: the figures say how long it takes alone).

The game is played by decide itself, so the audit accepts it: four players who buy their first
three deeds, decline the rest (auctions close without a bid), claim every rent, pay their
debts, and go round the board for ever; each command is recorded with its CommandRecorded as
the book records it, and the whole written straight into an export file.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# the installed banco (the package `banco`, as users run it)


def choose(state, rng):
    from banco.ledger.records import commands as c
    from banco.ledger.table.worth import deeds_of

    t = state.turn
    for d in state.debts:
        if state.player(d.debtor).cash >= d.amount:
            return c.PayDebt(d.debtor)
        # short of cash (a card's fee): mortgage a deed first, as a player would
        lots = [pos for pos in deeds_of(state, d.debtor)
                if pos not in state.mortgaged and not state.buildings[pos]]
        return c.Mortgage(lots[0], d.debtor) if lots else None
    if state.claims:
        return c.Claim(state.claims[0].owner)
    p = state.current
    if t.phase == "roll":
        if p.in_jail and p.cash >= state.rules.jail_fine and rng.random() < 0.3:
            return c.PayFine()
        return c.Roll((rng.randint(1, 6), rng.randint(1, 6)))
    if t.phase == "buy":
        price = state.edition.space(t.offer).price
        return c.Buy() if len(deeds_of(state, p.name)) < 3 and p.cash > price + 300 \
            else c.Decline()
    if t.phase == "auction":
        return c.Hammer()
    if t.phase == "choice":
        deck, n = t.card_choice
        return c.DrawCard(deck, n, "pay")
    if t.phase == "card":
        from banco.ledger.table.decks import drawable

        # what may be turned now (a card put back at the bottom comes round again in turn)
        return c.DrawCard(t.card_deck, rng.choice(drawable(state, t.card_deck)))
    if t.phase == "throw":
        return c.Roll((rng.randint(1, 6), rng.randint(1, 6)))
    if t.phase == "jail_exit":  # the last failed try, a card in hand: the fine (000 FAQ 17)
        return c.PayFine()
    return None


def generate(path: Path, events: int, seed: int = 1) -> tuple[int, str, float]:
    """Write an export of a game of about `events` events; returns (events, head, seconds)."""
    from banco.ledger.board.rule_sets import load_rules
    from banco.ledger.book import command_recorded
    from banco.ledger.rules.decide import decide, start_game
    from banco.ledger.store.canonical import (
        CHAIN_VERSION,
        GENESIS,
        HASHED_FIELDS,
        canonical_json,
        row_hash,
    )
    from banco.ledger.table.state import evolve, fold

    t0 = time.perf_counter()
    rng = random.Random(seed)
    players = ["Anna", "Bruno", "Carla", "Dario"]
    rules = load_rules("classic")
    at = "2026-11-29T21:00:00.000000Z"
    prev, seq = GENESIS, 0
    body = path.with_suffix(".body")

    def add(batch, command_id, out):
        nonlocal prev, seq
        for e in batch:
            seq += 1
            row = {"seq": seq, "type": e["type"], "data": e["data"], "recorded_at": at,
                   "actor": "banker", "command_id": command_id, "schema_version": 1,
                   "chain_version": CHAIN_VERSION}
            row["prev_hash"] = prev
            row["hash"] = prev = row_hash(prev, row)
            out.write(canonical_json(row) + "\n")

    start = start_game(players, rules, "it")
    start[0]["data"]["game_uuid"] = str(uuid.UUID(int=rng.getrandbits(128)))
    with open(body, "w", encoding="utf-8") as out:
        first = [command_recorded("new " + " ".join(players), None), *start]
        add(first, "bench-0", out)
        log = [{**e, "seq": i} for i, e in enumerate(first, start=1)]
        state = fold(log, 1)
        n = 0
        while seq < events:
            cmd = choose(state, rng)
            if cmd is None:
                raise SystemExit(f"the generated game stalled at event {seq}: {state.turn}, "
                                 f"{state.debts}, {state.auction}")
            n += 1
            recorded = command_recorded(None, cmd)
            ready = evolve(state, {**recorded, "seq": seq + 1})
            facts = decide(ready, cmd)
            add([recorded, *facts], f"bench-{n}", out)
            state = ready
            for e in facts:
                state = evolve(state, e)
            if state.ended:
                raise SystemExit(f"the generated game ended at event {seq}")
    header = {"banco_export": 1, "chain_game_id": None, "chain_versions": [CHAIN_VERSION],
              "edition": "it", "events": seq, "first_player": "Anna",
              "game_uuid": start[0]["data"]["game_uuid"],
              "hashed_fields": {str(CHAIN_VERSION): list(HASHED_FIELDS[CHAIN_VERSION])},
              "head": prev, "players": players, "rules": "classic"}
    with open(path, "w", encoding="utf-8") as out, open(body, encoding="utf-8") as f:
        out.write(canonical_json(header) + "\n")
        while chunk := f.read(1 << 20):
            out.write(chunk)
    body.unlink()
    return seq, prev, time.perf_counter() - t0


def banco() -> str:
    here = Path(sys.executable).parent / "banco"
    return str(here) if here.exists() else "banco"


def load() -> str:
    """The machine's load over the last minute (shared: the figures are read beside it)."""
    with open("/proc/loadavg", encoding="ascii") as f:
        return f.read().split()[0]


def timed(cmd: list[str]) -> tuple[float, int, str, float]:
    """Wall time, the process's own peak resident memory (KiB, from wait4), its stderr and
    its CPU time (user + system, with the children it waited for: the import's audit)."""
    with tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        dt = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        text = err.read().decode("utf-8", "replace")
    if proc.returncode:
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}): {text}")
    return dt, usage.ru_maxrss, text, usage.ru_utime + usage.ru_stime


# The importing process alone: `banco import` run with the audit beside it replaced by a stub
# that still encodes each batch for the pipe and passes (here only, never in banco): the
# import's own work (read, check, hash, insert, the read model), which must keep pace with the
# audit for the import to reach its budget on two cores.
OWN_WORK = """
import marshal, sys, types
from banco.projections.exchange import import_audit

class Passed:
    def send(self, batch):
        marshal.dumps(batch)
    def verdict(self, count, head):
        return types.SimpleNamespace(ok=True), []
    def close(self):
        pass

import_audit.start = lambda *args: Passed()
from banco.cli.main import cli
cli(["--db", sys.argv[1], "import", sys.argv[2]], prog_name="banco")
"""


def own_work(src: Path, db: Path) -> tuple[float, int, str, float]:
    for f in (db, Path(f"{db}-wal"), Path(f"{db}-shm")):
        f.unlink(missing_ok=True)
    return timed([sys.executable, "-c", OWN_WORK, str(db), str(src)])


def digest(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            h.update(chunk)
    return h.hexdigest()


def bench(events: int, folder: Path, keep: Path | None = None, repeat: int = 1) -> None:
    from banco.ledger.store.sqlite import SQLiteStore

    src = keep or folder / f"game-{events}.jsonl"
    if keep is not None and keep.exists():
        with open(keep, encoding="utf-8") as f:
            header = json.loads(f.readline())
        n, head = header["events"], header["head"]
        print(f"reusing {keep}: a {n:,}-event game ({keep.stat().st_size / 1e6:.0f} MB)")
    else:
        n, head, gen = generate(src, events)
        print(f"generated a {n:,}-event game ({src.stat().st_size / 1e6:.0f} MB of JSON Lines) "
              f"in {gen:.1f} s")
    db = folder / f"imported-{events}.db"
    runs, loads = [], []
    for _ in range(repeat):  # best of `repeat`: the machine may be shared
        for f in (db, Path(f"{db}-wal"), Path(f"{db}-shm")):
            f.unlink(missing_ok=True)
        loads.append(load())
        runs.append(timed([banco(), "--db", str(db), "import", str(src)]))
    dt, peak, _, cpu = min(runs)
    store = SQLiteStore(str(db))
    assert store.head(1) == head, "the imported head is not the generated one"
    store.close()
    # the audit's share: the same audit, timed on its own over the imported game, read as
    # the import reads it (the rows as stored, streamed: SQLiteStore.raw_rows) and told, as
    # the import tells it, that their hashes were checked as they were inserted
    from banco.projections.audit.audit import GameAudit

    store = SQLiteStore(str(db))
    audit_load = load()
    t0, c0 = time.perf_counter(), time.process_time()
    report = GameAudit(1, store.raw_rows(1), hashes_checked=True).run()
    audit_s, audit_cpu = time.perf_counter() - t0, time.process_time() - c0
    store.close()
    assert report.ok, report.problem
    print(f"import                  {n / dt:10,.0f} events/s: {n:,} events in {dt:.1f} s, "
          f"{cpu:.1f} s of CPU with its audit ({n / cpu:,.0f} events a second of CPU), "
          f"peak memory {peak / 1024:.0f} MiB (goal >= 50,000 events/s, bounded memory); "
          f"load {', '.join(loads)}"
          + (f"; best of {repeat}: {', '.join(f'{r[0]:.1f}' for r in runs)} s"
             if repeat > 1 else ""))
    from banco.projections.exchange.import_audit import THRESHOLD

    if n >= THRESHOLD:  # the audit ran beside the import's own work, in a process of its own
        own_load = load()
        mine = min((own_work(src, folder / "own.db") for _ in range(repeat)),
                   key=lambda r: r[3])
        (folder / "own.db").unlink()
        print(f"  the import's own work {mine[3]:8.1f} s of CPU ({n / mine[3]:,.0f} events a "
              f"second of CPU; {mine[0]:.1f} s of wall), the audit stubbed out; load {own_load}")
        print(f"  the audit alone       {audit_s:8.1f} s ({n / audit_s:,.0f} events/s), "
              f"{audit_cpu:.1f} s of CPU ({n / audit_cpu:,.0f} a second of CPU), load "
              f"{audit_load}; run beside the import's own checks and inserts "
              f"(projections/exchange/import_audit.py): the import's pace cannot pass it")
    else:
        print(f"  of which the audit    {audit_s:8.1f} s ({n / audit_s:,.0f} events/s); the "
              f"import's own checks and inserts {max(dt - audit_s, 0.001):.1f} s "
              f"({n / max(dt - audit_s, 0.001):,.0f} events/s)")
    # the first command on the imported game.  The generated rows are chain version 2 (no
    # table digest), as an older banco wrote them: the import leaves no snapshot the chain does
    # not bind (import_audit.book_snapshots), so a reading folds the whole game until a
    # command records one; a game exported by today's banco keeps its snapshots
    cold = [timed([banco(), "--db", str(db), "state"])[0] for _ in range(2)]
    print(f"`state` on it           {cold[0] * 1000:10,.0f} ms the first time, "
          f"{cold[1] * 1000:,.0f} ms the second (chain version 2: no snapshot yet)")
    back = folder / f"again-{events}.jsonl"
    dt, peak, _, _ = timed([banco(), "--db", str(db), "export", "-o", str(back)])
    same = digest(back) == digest(src)
    print(f"export                  {n / dt:10,.0f} events/s; byte-identical to the file "
          f"imported: {'yes' if same else 'NO'}")
    if not same:
        raise SystemExit("export -> import -> export is not byte-identical")
    for f in (back, db) if keep else (src, back, db):
        f.unlink()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--events", type=int, default=1_000_000)
    ap.add_argument("--sizes", default=None, help="comma-separated sizes, run in turn")
    ap.add_argument("--keep", type=Path, default=None,
                    help="the export to import: generated there if missing, kept, reused")
    ap.add_argument("--repeat", type=int, default=1, help="imports timed; the best is shown")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")] if args.sizes else [args.events]
    with tempfile.TemporaryDirectory(dir=os.environ.get("BANCO_BENCH_DIR")) as tmp:
        for n in sizes:
            bench(n, Path(tmp), args.keep if len(sizes) == 1 else None, args.repeat)


if __name__ == "__main__":
    main()
