"""Write big databases of real games for the scale benchmarks (tests/bench_scale.py): every
command decided by `decide`, recorded with its CommandRecorded as the book records it, hashed
into the chain and written in batches (one transaction a game), so that `banco audit`
accepts every game and re-derives every command.

    python tests/tools/big_games.py --db /tmp/long.db --events 300000          # one long game
    python tests/tools/big_games.py --db /tmp/tour.db --games 1000 --events 2000  # a tournament

Four players go round the board for ever: each buys at most three deeds (so rents stay low
and nobody goes bankrupt), lets the others go to auction and bids on some, claims most rents
at once, pays debts and fines, draws the cards, and now and then the banker takes back the
last command (`undo`) and types another.  Keep the files out of the repository.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from banco.ledger.board.rule_sets import load_rules  # noqa: E402
from banco.ledger.book import Book, command_recorded, undo_events  # noqa: E402
from banco.ledger.records import commands as c  # noqa: E402
from banco.ledger.rules.decide import decide, start_game  # noqa: E402
from banco.ledger.store.canonical import (  # noqa: E402
    CHAIN_VERSION,
    GENESIS,
    TABLE_CHAIN_VERSION,
    canonical_json,
    stored_row_hash,
    table_digest,
)
from banco.ledger.store.kept_snapshots import KeptSnapshots  # noqa: E402
from banco.ledger.store.schema import put_snapshot  # noqa: E402
from banco.ledger.store.sqlite import SQLiteStore  # noqa: E402
from banco.ledger.table.decks import drawable  # noqa: E402
from banco.ledger.table.snapshot_codec import canonical, encode, shape  # noqa: E402
from banco.ledger.table.state import evolve, fold, richest_bidders  # noqa: E402
from banco.ledger.table.worth import deeds_of  # noqa: E402

PLAYERS = ["Anna", "Bruno", "Carla", "Dario"]
AT = "2026-11-29T21:00:00.000000Z"
UNDO_EVERY = 150  # commands between two undos


def choose(state, rng: random.Random):
    """A legal command for the table as it stands."""
    t = state.turn
    for d in state.debts:
        if state.player(d.debtor).cash >= d.amount:
            return c.PayDebt(d.debtor), "pay"
        # short of cash (a card's fee): mortgage a deed first, as a player would
        lots = [pos for pos in deeds_of(state, d.debtor)
                if pos not in state.mortgaged and not state.buildings[pos]]
        if not lots:
            return None, None
        name = state.edition.space(lots[0]).name
        return c.Mortgage(lots[0], d.debtor), f"mortgage {name} --player {d.debtor}"
    if state.claims and rng.random() < 0.9:
        owner = state.claims[0].owner
        return c.Claim(owner), f"claim {owner}"
    p = state.current
    if t.phase in ("roll", "throw"):
        if t.phase == "roll" and p.in_jail and p.cash >= state.rules.jail_fine \
                and rng.random() < 0.3:
            return c.PayFine(), "pay-fine"
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        return c.Roll(dice), f"roll {dice[0]} {dice[1]}"
    if t.phase == "buy":
        price = state.edition.space(t.offer).price
        if len(deeds_of(state, p.name)) < 3 and p.cash > price + 300:
            return c.Buy(), "buy"
        return c.Decline(), "decline"
    if t.phase == "auction":
        a = state.auction
        rich = [n for n in state.active()
                if state.player(n).cash > a.high_bid + a.step + 400
                and len(deeds_of(state, n)) < 3]
        if rich and a.bids < 3 and rng.random() < 0.6:
            name = rng.choice(rich)
            amount = (a.min_bid if a.high_bidder is None else a.high_bid + a.step) \
                + rng.randint(0, 20)
            return c.Bid(name, amount), f"bid {name} {amount}"
        tied = richest_bidders(state) if a.high_bidder is None else []
        who = rng.choice(tied) if len(tied) > 1 else None
        return c.Hammer(player=who), "hammer" + (f" --player {who}" if who else "")
    if t.phase == "choice":
        deck, n = t.card_choice
        return c.DrawCard(deck, n, "pay"), f"card {deck} {n} pay"
    if t.phase == "card":
        n = rng.choice(drawable(state, t.card_deck))
        return c.DrawCard(t.card_deck, n), f"card {t.card_deck} {n}"
    if t.phase == "jail_exit":
        return c.PayFine(), "pay-fine"
    return None, None


class Stalled(Exception):
    """A player who owes more than he can raise (the generator does not play bankruptcies)."""


class Game:
    """One game being written: its rows (as store tuples), its table, and what undo needs."""

    def __init__(self, rng: random.Random, game_id: int):
        self.rng = rng
        self.prev, self.seq, self.n = GENESIS, 0, 0
        self.rows: list[tuple] = []
        self.recent: list[dict] = []  # the last commands' events, for undo (bounded)
        start = start_game(PLAYERS, load_rules("classic"), "it")
        self.uuid = str(uuid.UUID(int=rng.getrandbits(128)))
        start[0]["data"]["game_uuid"] = self.uuid
        self.add([command_recorded("new " + " ".join(PLAYERS), None), *start])
        # the game's own number: a snapshot of game 7 holds game 7's table
        self.state = fold([{**e, "seq": i} for i, e in enumerate(self.recent, 1)], game_id)
        self.before_last = self.state  # the table before the last command, for undo
        self.snapshots: list[tuple] = []  # (seq, head, text), as the book leaves them
        self.snap_seq = 0

    def add(self, batch: list[dict], table=None) -> list[dict]:
        """The command's rows; `table`: the table after them, when the book keeps a snapshot
        there (its last row then carries the table's digest, chain version 3, as the book's)."""
        self.n += 1
        cid = f"big-{self.n}"
        out = []
        for i, e in enumerate(batch, start=1):
            self.seq += 1
            text = canonical_json(e["data"])
            chain, digest = CHAIN_VERSION, None
            if table is not None and i == len(batch):
                chain, digest = TABLE_CHAIN_VERSION, table_digest(shape(), canonical(table))
            h = stored_row_hash(self.prev, None, self.seq, e["type"], text, AT, "banker", cid,
                                1, chain, digest)
            self.rows.append((self.seq, e["type"], text, AT, "banker", cid, 1, self.prev, h,
                              chain, digest))
            row = {"seq": self.seq, "type": e["type"], "data": e["data"], "command_id": cid}
            self.recent.append(row)
            out.append(row)
            self.prev = h
        return out

    def ready(self) -> bool:
        s = self.state
        return s.turn.phase == "roll" and not s.claims and not s.debts and not s.auction \
            and not s.current.in_jail

    def step(self) -> None:
        undone = self.n % UNDO_EVERY == 0 and len(self.recent) > 50
        if undone:
            facts = undo_events(self.recent)
            self.add([command_recorded("undo", None), *facts])
            # the table as it was before the retracted command (the last one)
            self.state = self.before_last._replace(seq=self.seq)
        else:
            cmd, line = choose(self.state, self.rng)
            if cmd is None:
                raise Stalled(f"the generated game stalled at event {self.seq}")
            recorded = command_recorded(line, cmd)
            ready = evolve(self.state, {**recorded, "seq": self.seq + 1})
            facts = decide(ready, cmd)
            self.before_last = self.state
            state = ready
            for e in facts:
                state = evolve(state, {**e, "seq": state.seq + 1})
            if state.ended:
                raise Stalled(f"the generated game ended at event {self.seq}")
            due = self.seq + 1 + len(facts) - self.snap_seq >= Book.SNAPSHOT_EVERY
            self.add([recorded, *facts], table=state if due else None)
            self.state = state
            if due:
                self.snapshots.append((self.seq, self.prev, encode(self.state)))
                self.snap_seq = self.seq
        if len(self.recent) > 4000:  # undo looks back at the last command only
            self.recent = self.recent[-2000:]


def write_game(store: SQLiteStore, events: int, seed: int) -> tuple[int, int, str]:
    """One game of about `events` events: (game number, events, head).  A game that stalls
    (a debt nobody can pay) is dropped and played again from another seed."""
    for attempt in range(20):
        try:
            return _write_game(store, events, seed + 100_003 * attempt)
        except Stalled:
            continue
    raise SystemExit(f"the generated games from seed {seed} all stalled")


def _write_game(store: SQLiteStore, events: int, seed: int) -> tuple[int, int, str]:
    rng = random.Random(seed)
    imp = store.begin_import()
    try:
        game = Game(rng, imp.game_id)
        # ...and on, to a table where the next player simply rolls (a benchmark's write)
        while game.seq < events or not game.ready():
            game.step()
            if len(game.rows) >= 5000:
                imp.insert(game.rows)
                game.rows = []
        if game.rows:
            imp.insert(game.rows)
        kept = KeptSnapshots()  # those a book keeps (ledger/store/kept_snapshots.py)
        for snapshot in game.snapshots:
            kept.append(snapshot)
        for seq, head, text in kept:
            put_snapshot(imp.conn, imp.game_id, seq, head, shape(), text, AT)
        imp.finish({"game_uuid": game.uuid, "started_at": AT, "players": PLAYERS,
                    "rules": "classic", "edition": "it", "last_seq": game.seq,
                    "head": game.prev, "ended_seq": None}, {})
    except BaseException:
        imp.abort()
        raise
    return imp.game_id, game.seq, game.prev


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", required=True)
    ap.add_argument("--events", type=int, default=300_000, help="events in each game")
    ap.add_argument("--games", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    store = SQLiteStore(args.db)
    t0 = time.perf_counter()
    total = 0
    for i in range(args.games):
        game, n, head = write_game(store, args.events, args.seed + i)
        total += n
    store.close()
    dt = time.perf_counter() - t0
    print(f"{args.games} game(s), {total:,} events in {args.db} ({dt:.1f} s, "
          f"{total / dt:,.0f} events/s); last head {head}")


if __name__ == "__main__":
    main()
