"""The behaviours every event store must have (ledger/store/protocol.py), whatever keeps its rows.

tests/test_store_behaviour.py runs them once per implementation through two fixtures:
`store` (an open store) and `kit` (a StoreKit: how to open another connection to the same
store, in this process or another, and how to reach beneath the store to its raw rows).  A new
implementation adds a kit there and nothing here.
"""

from __future__ import annotations

import json
import multiprocessing
import threading
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from banco.ledger.base.errors import ConflictError
from banco.ledger.store.canonical import (
    CHAIN_VERSION,
    GENESIS,
    bound_table_digest,
    canonical_json,
    row_hash,
    table_digest,
)
from banco.ledger.store.protocol import EventStore, NewEvent, conforms
from banco.ledger.store.reading import (
    game_start,
    hash_at,
    last_command,
    rows_view,
)

AT = "2026-11-29T10:00:00.000000Z"


@dataclass(frozen=True)
class StoreKit:
    """What the suite needs of an implementation beyond the protocol.  `open`: a new store on
    the same data, picklable (another process opens it too).  `update_row`, `delete_row`: the
    raw statement on the log, past the store's code (the database itself must refuse it).
    `tamper`: change a row's data past every guard (what an attacker with the file can do);
    `tamper_snapshot` the same for a snapshot's text."""
    name: str
    open: Callable[[], EventStore]
    update_row: Callable[[EventStore, int, int], None]
    delete_row: Callable[[EventStore, int, int], None]
    tamper: Callable[[EventStore, int, int, str], None]
    # `tamper_snapshot`: replace a snapshot's text past every guard, its digest left as it was
    tamper_snapshot: Callable[[EventStore, int, int, str], None] | None = None
    # `unguard`: take the log's guard of that name away (dropped, or switched off)
    unguard: Callable[[EventStore, str], None] | None = None
    # `set_head`: the games table's recorded head of a game, set past every guard
    set_head: Callable[[EventStore, int, str], None] | None = None


def start(store: EventStore, *players: str, cid: str = "new", uid: str | None = None):
    data = {"players": list(players), "rules": {"name": "classic"}, "edition": "it"}
    if uid:
        data["game_uuid"] = uid
    return store.append(None, 0, [NewEvent("CommandRecorded", {"line": "new"}),
                                  NewEvent("GameStarted", data)],
                        recorded_at=AT, actor="test", command_id=cid)


def note(store: EventStore, game: int, expected: int, *texts: str, cid: str):
    return store.append(game, expected, [NewEvent("Note", {"text": t}) for t in texts],
                        recorded_at=AT, actor="test", command_id=cid)


def read_checked(store: EventStore, game: int, after: int = 0, prev_hash: str = GENESIS,
                 limit: int | None = None):
    """(rows, the chain's first break or None): `read` checked from `prev_hash`."""
    rows = store.read(game, after, limit=limit, prev_hash=prev_hash)
    return list(rows), rows.problem


def keep_unbound_snapshot(store: EventStore, game: int, seq: int, fmt: str, text: str) -> None:
    """A snapshot beside event `seq` that no table digest in the chain binds (as an older banco
    kept them, or a reading did): written past the store's contract, which keeps snapshots
    only with the rows it writes."""
    from banco.ledger.store.sqlite import SQLiteStore

    head = hash_at(store, game, seq)
    if isinstance(store, SQLiteStore):
        from banco.ledger.store.schema import put_snapshot

        store.write(lambda conn: put_snapshot(conn, game, seq, head, fmt, text))
        return
    from banco.ledger.store.postgres_schema import keep_snapshot

    with store.conn.transaction():
        keep_snapshot(store.conn, game, seq, head, fmt, text)


def seqs(rows) -> list[int]:
    return [r["seq"] for r in rows]


class StoreSuite:
    """The behaviours; the test module's subclass supplies the `store` and `kit` fixtures."""

    # --- the protocol ---------------------------------------------------------------------

    def test_it_has_every_operation_of_the_protocol(self, store):
        assert conforms(store) == []

    # --- append and read back -------------------------------------------------------------

    def test_a_command_is_appended_and_read_back_as_written(self, store):
        g = start(store, "Anna", "Bruno", uid="u-1")
        assert (g.game_id, seqs(g), g.replayed) == (1, [1, 2], False)
        rows = note(store, g.game_id, 2, "one", "two", "three", cid="c1")
        assert seqs(rows) == [3, 4, 5]
        back = store.read(g.game_id)
        assert back == [*g, *rows]
        assert [r["data"] for r in back[2:]] == [{"text": "one"}, {"text": "two"},
                                                 {"text": "three"}]
        assert {(r["command_id"], r["actor"], r["recorded_at"]) for r in back[2:]} == {
            ("c1", "test", AT)}
        assert store.last_seq(1) == 5 and store.head(1) == back[-1]["hash"]
        assert hash_at(store, 1, 3) == back[2]["hash"] and hash_at(store, 1, 6) is None
        assert store.command_events(1, "c1") == rows
        assert last_command(store, 1) == rows
        assert store.read(1, types=("Note",)) == rows

    def test_an_empty_store_reads_as_empty(self, store):
        assert store.read(1) == [] and store.last_seq(1) == 0 and store.head(1) == GENESIS
        assert store.games() == [] and store.game(1) is None

    def test_new_games_are_numbered_and_listed(self, store):
        a = start(store, "Anna", "Bruno", cid="n1", uid="u-a")
        b = start(store, "Carla", "Dario", cid="n2", uid="u-b")
        assert (a.game_id, b.game_id) == (1, 2)
        listed = store.games()
        assert [(x["game_id"], x["uuid"], x["players"], x["events"], x["ended"])
                for x in listed] == [(1, "u-a", ["Anna", "Bruno"], 2, False),
                                     (2, "u-b", ["Carla", "Dario"], 2, False)]
        assert listed[1]["head"] == b[-1]["hash"] and store.game(2) == listed[1]
        assert store.find_game(command_id="n2") == 2 and store.find_game(uuid="u-a") == 1
        assert store.find_game(first_hash=b[0]["hash"]) == 2  # a game from before uuids
        assert store.find_game(uuid="u-z") is None and store.find_game(command_id="zz") is None
        with pytest.raises(ValueError, match="exactly one"):
            store.find_game(uuid="u-a", command_id="n2")
        assert game_start(store, 2)["data"]["players"] == ["Carla", "Dario"]
        assert store.latest_game(unfinished=True) == 2
        store.append(2, 2, [NewEvent("GameEnded", {})], recorded_at=AT, actor="test",
                     command_id="end")
        assert store.game(2)["ended"] and store.latest_game(unfinished=True) == 1

    def test_a_clock_set_back_records_at_the_games_last_time(self, store):
        """A game's times never go back (the audit holds them to it): a command whose clock
        reads earlier than the game's last row is recorded at that row's time; a later clock
        is recorded as it reads."""
        g = start(store, "Anna", "Bruno").game_id
        late, early, later = ("2026-11-29T22:00:00.000000Z", "2026-11-29T21:30:00.000000Z",
                              "2026-11-29T22:00:01.000000Z")
        store.append(g, 2, [NewEvent("Note", {"text": "a"})], recorded_at=late, actor="test",
                     command_id="c1")
        back = store.append(g, 3, [NewEvent("Note", {"text": "b"}), NewEvent("Note", {})],
                            recorded_at=early, actor="test", command_id="c2")
        assert [r["recorded_at"] for r in back] == [late, late]
        on = store.append(g, 5, [NewEvent("Note", {"text": "c"})], recorded_at=later,
                          actor="test", command_id="c3")
        assert [r["recorded_at"] for r in store.read(g)[2:]] == [late, late, late, later]
        assert on[0]["recorded_at"] == later

    # --- conflict -------------------------------------------------------------------------

    def test_an_append_decided_on_an_old_seq_conflicts_and_writes_nothing(self, store):
        g = start(store, "Anna", "Bruno").game_id
        note(store, g, 2, "first", cid="c1")
        before = store.read(g)
        with pytest.raises(ConflictError, match="expected 2"):
            note(store, g, 2, "late", "later", cid="c2")
        with pytest.raises(ConflictError):
            note(store, g, 7, "ahead", cid="c3")
        assert store.read(g) == before and store.command_events(g, "c2") == []
        assert store.game(g)["events"] == 3

    # --- idempotent retry -----------------------------------------------------------------

    def test_a_retried_command_id_returns_its_rows_and_writes_nothing(self, store):
        g = start(store, "Anna", "Bruno").game_id
        first = note(store, g, 2, "a", "b", cid="same")
        again = note(store, g, 2, "a", "b", cid="same")
        assert again.replayed and not first.replayed
        assert list(again) == list(first)
        # even decided on a seq since passed: the id is the command, recorded once
        later = note(store, g, 4, "c", cid="other")
        assert note(store, g, 2, "a", "b", cid="same") == first
        assert seqs(store.read(g)) == [1, 2, 3, 4, 5] and last_command(store, g) == later

    def test_a_retried_new_game_is_the_game_it_started(self, store):
        first = start(store, "Anna", "Bruno", cid="new-1")
        again = start(store, "Anna", "Bruno", cid="new-1")
        assert again.replayed and again.game_id == first.game_id and list(again) == list(first)
        assert [x["game_id"] for x in store.games()] == [first.game_id]

    # --- snapshots ------------------------------------------------------------------------

    def test_snapshots_are_kept_and_the_nearest_before_a_seq_is_found(self, store):
        g = start(store, "Anna", "Bruno").game_id
        for i in range(2, 12):
            note(store, g, i, f"n{i}", cid=f"c{i}")
        for seq in (4, 6, 9):
            keep_unbound_snapshot(store, g, seq, "f1", f"table@{seq}")
        snaps = store.snapshots(g)
        assert [s.seq for s in snaps] == [9, 6, 4]  # newest first
        assert snaps[0].head == hash_at(store, g, 9) and snaps[0].state == "table@9"
        nearest = next(s for s in snaps if s.seq <= 8)
        assert (nearest.seq, nearest.format, nearest.state) == (6, "f1", "table@6")
        assert store.snapshots(g + 1) == []

    def test_the_newest_snapshots_are_kept_and_the_first_of_each_stretch(self, store,
                                                                          monkeypatch):
        """ledger/store/kept_snapshots.py: the newest three (an undo may reach behind the
        newest), and the first of each stretch of EVERY events (a moment long ago is folded
        from near it); here a stretch of 4 events instead of 1,000."""
        from banco.ledger.store import kept_snapshots

        monkeypatch.setattr(kept_snapshots, "EVERY", 4)
        g = start(store, "Anna", "Bruno").game_id
        for i in range(2, 14):
            note(store, g, i, f"n{i}", cid=f"c{i}")
        for seq in range(2, 12):
            keep_unbound_snapshot(store, g, seq, "f1", f"table@{seq}")
        # stretches 0-3, 4-7, 8-11: their first 2, 4, 8; the newest 9, 10, 11
        assert [s.seq for s in store.snapshots(g)] == [11, 10, 9, 8, 4, 2]
        other = start(store, "Carla", "Dario", cid="other").game_id
        keep_unbound_snapshot(store, other, 1, "f1", "other@1")
        assert [s.seq for s in store.snapshots(g)] == [11, 10, 9, 8, 4, 2]  # per game

    def test_a_snapshot_taken_with_an_append_is_at_its_last_row(self, store):
        g = start(store, "Anna", "Bruno").game_id
        seen = []

        def table_after(rows):
            seen.extend(dict(r) for r in rows)  # as they are when given
            return "f1", f"after {len(rows)}", table_digest("f1", f"after {len(rows)}")

        written = store.append(g, 2, [NewEvent("Note", {"text": "x"})] * 2, recorded_at=AT,
                               actor="test", command_id="snap", snapshot=table_after)
        (snap,) = store.snapshots(g)
        assert (snap.seq, snap.head, snap.state) == (4, written[-1]["hash"], "after 2")
        # the rows are given before they are hashed: the last one carries the table's digest,
        # under its hash (chain version 3); the others are plain version-2 rows
        assert not any("hash" in r for r in seen) and len(seen) == 2
        before, last = store.read(g, 2, 4)
        assert (last["chain_version"], last["table_digest"]) == (3, table_digest("f1", "after 2"))
        assert before["chain_version"] == CHAIN_VERSION and "table_digest" not in before
        assert bound_table_digest(last) == last["table_digest"]
        assert read_checked(store, g)[1] is None
        assert bound_table_digest({**last, "table_digest": table_digest("f1", "richer")}) is None

    def test_every_snapshot_is_recorded_with_the_digest_that_binds_it_to_the_log(self, store,
                                                                                    kit):
        """Whichever way a snapshot is kept (put, with an append, with an import), the store
        records its digest (ledger/store/snapshot_binding.py) and gives it back as recorded:
        an edit of the text, past the store, is then caught by every reader."""
        from banco.ledger.store.snapshot_binding import problem, snapshot_digest

        g = start(store, "Anna", "Bruno").game_id
        note(store, g, 2, "a", cid="c3")
        keep_unbound_snapshot(store, g, 3, "f1", "table@3")
        store.append(g, 3, [NewEvent("Note", {"text": "b"})], recorded_at=AT, actor="test",
                     command_id="c4",
                     snapshot=lambda rows: ("f1", "table@4", table_digest("f1", "table@4")))
        for snap in store.snapshots(g):
            assert snap.digest == snapshot_digest(snap.seq, snap.head, snap.format, snap.state)
            if snap.seq == 3:  # put beside an event that records no table digest: not bound
                assert "not bound by the chain" in str(problem(store, g, snap))
                continue
            assert problem(store, g, snap) is None
            assert problem(store, g, snap._replace(state=snap.state + " ")) is not None
            assert problem(store, g, snap._replace(head=GENESIS)) is not None
            assert problem(store, g, snap._replace(digest=None)) is not None
        if kit.tamper_snapshot is None:
            pytest.fail(f"the {kit.name} kit has no tamper_snapshot")
        kit.tamper_snapshot(store, g, 4, "table@4, richer")
        (edited,) = [s for s in store.snapshots(g) if s.seq == 4]
        assert edited.state == "table@4, richer" and problem(store, g, edited) is not None

    def test_a_failing_snapshot_takes_its_command_back(self, store):
        g = start(store, "Anna", "Bruno").game_id

        def broken(rows):
            raise RuntimeError("no table")

        with pytest.raises(RuntimeError):
            store.append(g, 2, [NewEvent("Note", {})], recorded_at=AT, actor="test",
                         command_id="x", snapshot=broken)
        assert store.last_seq(g) == 2 and store.snapshots(g) == []

    # --- the import's bulk path -----------------------------------------------------------

    def test_an_imported_game_is_written_whole_or_not_at_all(self, store):
        start(store, "Anna", "Bruno")
        rows, prev = [], GENESIS
        for seq in range(1, 6):
            row = {"seq": seq, "type": "Note", "data": {"i": seq}, "recorded_at": AT,
                   "actor": "elsewhere", "command_id": f"i{seq}", "schema_version": 1,
                   "chain_version": CHAIN_VERSION}
            prev = row_hash(prev, row)
            rows.append((seq, "Note", canonical_json({"i": seq}), AT, "elsewhere", f"i{seq}", 1,
                         rows[-1][8] if rows else GENESIS, prev, CHAIN_VERSION, None))
        dropped = store.begin_import()
        dropped.insert(rows)
        dropped.abort()
        assert [x["game_id"] for x in store.games()] == [1]
        imp = store.begin_import()
        imp.insert(rows[:2])
        imp.insert(rows[2:])
        assert seqs(imp.rows()) == [1, 2, 3, 4, 5]
        came = {"at": AT, "from": "elsewhere.jsonl", "events": 5, "head": prev}
        imp.finish({"game_uuid": "u-imp", "started_at": AT, "players": ["Carla"],
                    "rules": "classic", "edition": "it", "last_seq": 5, "head": prev,
                    "ended_seq": None}, {f"chain_game_id:{imp.game_id}": "7",
                                         f"imported:{imp.game_id}": json.dumps(came)})
        g = imp.game_id
        assert g == 2 and store.find_game(uuid="u-imp") == 2
        assert read_checked(store, g)[1] is None and store.head(g) == prev
        assert len(list(store.raw_rows(g))) == 5 and len(rows_view(store, g)) == 5
        # as the audit reads them: without the game's number, the WHERE's (a column fewer)
        numbered, unnumbered = store.raw_rows(g), store.raw_rows(g).unnumbered()
        assert list(unnumbered) == [r[1:] for r in numbered] and not unnumbered.numbered
        assert unnumbered.fetch(2, 4) == [r[1:] for r in numbered.fetch(2, 4)]
        assert unnumbered.hashed_as == numbered.hashed_as == 7
        # where a game came from is in its row: one read (they were two calls beside it)
        assert (store.game(g)["chain_game_id"], store.game(g)["imported"]) == (7, came)
        assert (store.game(1)["chain_game_id"], store.game(1)["imported"]) == (None, None)
        assert not {"chain_game_id", "imported"} & set(vars(EventStore))

    # --- concurrency ----------------------------------------------------------------------

    def test_threads_appending_to_one_game_lose_nothing_and_repeat_nothing(self, store, kit):
        g = start(store, "Anna", "Bruno").game_id
        errors: list[BaseException] = []

        def play(worker: int) -> None:
            try:
                append_with_retries(kit.open, g, worker, 8)
            except BaseException as exc:  # reported by the main thread
                errors.append(exc)

        threads = [threading.Thread(target=play, args=(w,)) for w in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == []
        check_contiguous(store, g, {f"w{w}-{i}" for w in range(4) for i in range(8)})

    def test_processes_appending_to_one_game_and_to_their_own_lose_nothing(self, store, kit):
        g = start(store, "Anna", "Bruno", cid="shared").game_id
        ctx = multiprocessing.get_context("fork")
        with ctx.Pool(3) as pool:
            own = pool.starmap(play_in_a_process, [(kit.open, g, w, 6) for w in range(3)])
        check_contiguous(store, g, {f"w{w}-{i}" for w in range(3) for i in range(6)})
        assert sorted(own) == sorted({x["game_id"] for x in store.games()} - {g})
        assert len(set(own)) == 3
        for game in own:
            rows, problem = read_checked(store, game)
            assert seqs(rows) == list(range(1, 2 + 6 + 1)) and problem is None


def append_with_retries(open_store, game: int, worker: int, commands: int) -> None:
    """`commands` commands of one worker on its own connection, each decided on the seq it
    read and decided again after a conflict (what a banker's terminal does)."""
    s = open_store()
    try:
        for i in range(commands):
            while True:
                last = s.last_seq(game)
                try:
                    note(s, game, last, f"{worker}", f"{i}", cid=f"w{worker}-{i}")
                    break
                except ConflictError:
                    continue
    finally:
        s.close()


def play_in_a_process(open_store, shared: int, worker: int, commands: int) -> int:
    """In a process of its own: a game of its own, and commands on the shared one between."""
    s = open_store()
    try:
        mine = start(s, f"P{worker}", "Q", cid=f"new-{worker}").game_id
        for i in range(commands):
            note(s, mine, 2 + i, f"own {i}", cid=f"own-{worker}-{i}")
    finally:
        s.close()
    append_with_retries(open_store, shared, worker, commands)
    return mine


def check_contiguous(store: EventStore, game: int, command_ids: set[str]) -> None:
    """Every command once, two rows each, and the seqs 1..N with the chain whole."""
    rows, problem = read_checked(store, game)
    assert problem is None
    assert seqs(rows) == list(range(1, len(rows) + 1))
    notes = [r for r in rows if r["type"] == "Note"]
    assert len(notes) == 2 * len(command_ids)
    by_command: dict[str, list[int]] = {}
    for r in notes:
        by_command.setdefault(r["command_id"], []).append(r["seq"])
    assert set(by_command) == command_ids
    for found in by_command.values():  # a command's rows are contiguous
        assert len(found) == 2 and found[1] == found[0] + 1
    assert store.game(game)["events"] == len(rows) and store.head(game) == rows[-1]["hash"]
