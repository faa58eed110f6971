"""The store behaviours of its integrity (ledger/store/protocol.py), beside tests/store_suite.py's
(split from it for its size): the hash chain, the database's own refusal of an edit, a write
that never follows a broken or rewritten log, and the referee's reads (audit, seal, doctor).
tests/test_store_behaviour.py runs them once per implementation, with the same `store` and
`kit` fixtures."""

from __future__ import annotations

import threading

import pytest
from store_suite import AT, note, read_checked, start

from banco.ledger.base.errors import BancoError
from banco.ledger.store.canonical import (
    CHAIN_VERSION,
    GENESIS,
    canonical_json,
    row_hash,
)
from banco.ledger.store.chain import verify_chain
from banco.ledger.store.reading import hash_at


class IntegritySuite:
    """The behaviours; mixed into the test module's subclass of StoreSuite."""

    # --- the chain ------------------------------------------------------------------------

    def test_each_row_carries_the_hash_of_the_one_before(self, store):
        g = start(store, "Anna", "Bruno").game_id
        note(store, g, 2, "a", "b", cid="c1")
        note(store, g, 4, "c", cid="c2")
        rows = store.read(g)
        assert rows[0]["prev_hash"] == GENESIS
        for before, row in zip(rows, rows[1:], strict=False):
            assert row["prev_hash"] == before["hash"]
        for row in rows:
            assert row["chain_version"] == CHAIN_VERSION
            assert row["hash"] == row_hash(row["prev_hash"], row)
        assert verify_chain(rows) == (5, rows[-1]["hash"], None)
        assert read_checked(store, g) == (rows, None)

    def test_a_changed_row_is_caught_by_the_checked_read(self, store, kit):
        g = start(store, "Anna", "Bruno").game_id
        for i in range(2, 7):
            note(store, g, i, f"n{i}", cid=f"c{i}")
        kit.tamper(store, g, 4, canonical_json({"text": "forged"}))
        rows, problem = read_checked(store, g)
        assert len(rows) == 7 and rows[3]["data"] == {"text": "forged"}
        assert problem is not None and problem.seq == 4
        assert "hash" in str(problem.problem)
        assert verify_chain(store.read(g))[2].seq == 4
        # read from the row after it, the chain from there is whole again
        assert read_checked(store, g, 4, hash_at(store, g, 4))[1] is None

    # --- the database refuses an edit -----------------------------------------------------

    def test_a_book_writes_nothing_onto_a_chain_it_finds_broken(self, store, kit):
        """Issue 32: a starting cash edited in place (no rehash) is warned about when read and
        every command on it refused (exit 3), nothing appended (tests/test_broken_chain_writes.py
        for the other tamperings, the CLI and the phones' document)."""
        from banco.ledger.book import Book
        from banco.ledger.records import commands as c
        from banco.ledger.store.findings import BrokenChain

        book = Book("store", store=kit.open())
        g = book.new_game(["Anna", "Bruno"], now=AT)
        book.execute(g, c.Roll((1, 2)), now=AT)
        book.close()
        (cash,) = [e for e in store.read(g, 0, 4) if e["seq"] == 3]
        kit.tamper(store, g, 3, canonical_json({**cash["data"], "amount": 9943}))
        last, warned = store.last_seq(g), []
        book = Book("store", store=kit.open(), warn=warned.append)
        try:
            assert book.state(g).player("Anna").cash == 9943  # shown, with a warning
            assert [str(w) for w in warned] == [
                f"WARNING: game {g} event 3 does not match its hash: run `banco audit`"]
            for write in (lambda: book.execute(g, c.Buy(), now=AT),
                          lambda: book.undo(g, now=AT)):
                with pytest.raises(BrokenChain, match="event 3 does not match its hash"):
                    write()
        finally:
            book.close()
        assert store.last_seq(g) == last

    def test_no_append_follows_a_log_that_ends_elsewhere_than_the_games_table_recorded(
            self, store, kit):
        """A tail rewritten and re-chained to its end keeps a whole chain: only the head the
        games table recorded with the last append tells (a trial's `roll` appended onto one
        and wrote over that evidence).  The append refuses it (exit 3, nothing written), and a
        book reading the game warns."""
        from banco.ledger.book import Book
        from banco.ledger.records import commands as c

        book = Book("store", store=kit.open())
        g = book.new_game(["Anna", "Bruno"], now=AT)
        book.execute(g, c.Roll((1, 2)), now=AT)
        book.close()
        last = store.last_seq(g)
        kit.set_head(store, g, "f" * 64)  # as a re-chained tail leaves it: the log's end moved
        with pytest.raises(BancoError, match="the log was rewritten or cut") as refused:
            note(store, g, last, "more", cid="c2")  # the append itself, whoever calls it
        assert refused.value.exit_code == 3 and store.last_seq(g) == last
        warned = []
        book = Book("store", store=kit.open(), warn=warned.append)
        try:
            book.state(g)  # read, with a warning
            assert any("the games table recorded its end at event" in str(w) for w in warned)
            with pytest.raises(BancoError, match="the log was rewritten or cut") as refused:
                book.execute(g, c.Buy(), now=AT)
            assert refused.value.exit_code == 3
        finally:
            book.close()
        assert store.last_seq(g) == last

    def test_the_database_itself_refuses_to_update_or_delete_the_log(self, store, kit):
        g = start(store, "Anna", "Bruno").game_id
        before = store.read(g)
        with pytest.raises(Exception, match="append-only: UPDATE refused"):
            kit.update_row(store, g, 1)
        with pytest.raises(Exception, match="append-only: DELETE refused"):
            kit.delete_row(store, g, 2)
        assert store.read(g) == before
        assert note(store, g, 2, "still", cid="after").game_id == g  # and still appends

    def test_a_guard_taken_away_is_named_by_missing_guards(self, store, kit):
        start(store, "Anna", "Bruno")
        assert store.checks().missing_guards() == []
        kit.unguard(store, "events_no_delete")
        assert store.checks().missing_guards() == ["events_no_delete"]
        # doctor --repair puts it back where that is banco's to do (SQLite), and says what it
        # did; where it is the database owner's (PostgreSQL), None and nothing changed
        done = store.checks().repair(now=lambda: AT, why="test")
        if done is None:
            assert store.checks().missing_guards() == ["events_no_delete"]
        else:
            assert [str(d) for d in done] == ["recreated the trigger events_no_delete"]
            assert store.checks().missing_guards() == []

    # --- the referee's reads (audit, seal, doctor) -------------------------------------------

    def test_the_referee_reads_the_games_hashes_and_prefixes_of_the_log(self, store):
        assert store.checks().logged_games() == [] and store.checks().hashes(1) == [] and \
            store.checks().hash_prefix("ab") == []
        a = start(store, "Anna", "Bruno", cid="n1", uid="u-a").game_id
        b = start(store, "Carla", "Dario", cid="n2", uid="u-b").game_id
        note(store, a, 2, "one", "two", cid="c1")
        assert store.checks().logged_games() == [a, b]
        rows = store.read(a)
        assert store.checks().hashes(a) == [(r["seq"], r["hash"]) for r in rows]
        assert store.checks().hashes(a, 3) == [(r["seq"], r["hash"]) for r in rows[:3]]
        third = rows[2]["hash"]
        named = store.checks().hash_prefix(third[:10])
        assert (a, 3) in named and all(hash_at(store, g, s).startswith(third[:10])
                                       for g, s in named)
        assert store.checks().hash_prefix(third) == [(a, 3)]
        every = store.checks().hash_prefix("")  # every row, by game and seq
        assert every == sorted(every) and len(every) == 6

    def test_a_sound_store_is_healthy_and_says_what_it_cannot_check(self, store):
        start(store, "Anna", "Bruno", uid="u-a")
        state = store.checks().health(file=True)
        assert state.findings == [] and state.missing_triggers == [] and \
            state.missing_indexes == []
        assert state.maintenance == [] and min(state.known) > 0
        assert all(isinstance(t, str) and t for t in state.not_checked)
        assert store.checks().engine_check() is None
        store.checks().refuse_damaged(whole=True)  # nothing to refuse
        path = store.checks().worker_path()  # a file the workers open, or None: one pass
        assert path is None or path.startswith("/")
        assert "password" not in store.shown

    def test_the_games_table_is_held_to_its_log_in_one_snapshot_while_a_table_writes(
            self, store, kit):
        g = start(store, "Anna", "Bruno", uid="u-live").game_id
        done, errors = threading.Event(), []

        def write() -> None:
            writer = kit.open()
            try:
                for i in range(300):
                    note(writer, g, writer.last_seq(g), f"n{i}", cid=f"c{i}")
            except BaseException as exc:  # reported by the main thread
                errors.append(exc)
            finally:
                writer.close()
                done.set()

        thread = threading.Thread(target=write)
        thread.start()
        seen = 0
        while not done.is_set():
            assert store.checks().health().findings == []  # never a games row ahead of its log
            seen += 1
        thread.join()
        assert errors == [] and seen > 3 and store.checks().health().findings == []

