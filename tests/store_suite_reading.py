"""The store behaviours of its readings (ledger/store/protocol.py), beside tests/store_suite.py's
(split from it for its size): ranges and columns read, the readings made of `read`
(ledger/store/reading.py), the read model.  tests/test_store_behaviour.py runs them once per
implementation, with the same `store` fixture."""

from __future__ import annotations

import pytest
from store_suite import AT, note, read_checked, seqs, start

from banco.ledger.base.errors import ConflictError
from banco.ledger.store.canonical import GENESIS
from banco.ledger.store.protocol import EventStore, NewEvent, ReadRows
from banco.ledger.store.reading import hash_at, read_backwards, retracted_seqs, times


class ReadingSuite:
    """The behaviours; mixed into the test module's subclass of StoreSuite."""

    # --- ranges ---------------------------------------------------------------------------

    def test_ranges_read_what_they_name(self, store):
        g = start(store, "Anna", "Bruno").game_id
        for i in range(2, 12):
            note(store, g, i, f"n{i}", cid=f"c{i}")
        assert seqs(store.read(g, 4)) == list(range(5, 13))
        assert seqs(store.read(g, 4, 7)) == [5, 6, 7]
        assert seqs(store.read(g, 0, 1)) == [1] and store.read(g, 12) == []
        assert seqs(read_backwards(store, g)) == list(range(12, 0, -1))
        assert seqs(read_backwards(store, g, 5, chunk=2)) == [4, 3, 2, 1]
        rows, problem = read_checked(store, g, 3, hash_at(store, g, 3), limit=4)
        assert (seqs(rows), problem) == ([4, 5, 6, 7], None)
        assert seqs(store.read(g, 6, types=["Note"], limit=3)) == [7, 8, 9]
        assert [s for s, _ in times(store, g, 9)] == [10, 11, 12]

    def test_some_columns_are_read_as_stored_and_the_readings_made_of_them(self, store):
        g = start(store, "Anna", "Bruno").game_id
        note(store, g, 2, "a", "b", cid="c1")
        note(store, g, 4, "c", cid="c2")
        whole = store.read(g)
        assert store.read(g, 1, 3, columns=("seq", "hash")) == [(r["seq"], r["hash"])
                                                                for r in whole[1:3]]
        assert store.read(g, types=["Note"], limit=1, columns=["command_id"]) == [("c1",)]
        for wrong in ({"columns": ["seq; DROP TABLE events"]}, {"columns": []},
                      {"columns": ["seq"], "prev_hash": GENESIS}):
            with pytest.raises(ValueError):
                store.read(g, **wrong)
        assert [hash_at(store, g, s) for s in (0, 1, 5, 6)] == [None, whole[0]["hash"],
                                                                whole[4]["hash"], None]
        assert [store.commands_before(g, s) for s in (1, 3, 5, 6)] == [0, 1, 2, 3]
        store.append(g, 5, [NewEvent("EventRetracted", {"seqs": [5], "command_id": "c2"})],
                     recorded_at=AT, actor="test", command_id="undo")
        assert retracted_seqs(store, g) == {5} and retracted_seqs(store, g, upto=5) == set()

    # --- the read model (issue 21) ---------------------------------------------------------

    @staticmethod
    def _pay(store: EventStore, game: int, expected: int, amount: int, cid: str, rows=True):
        def model(written):
            seq = written[0]["seq"]
            return ReadRows([(seq, 0, "Anna", "bank", amount, "tax", "Note")],
                            [("p:Anna", seq), ("bank", seq)])

        return store.append(game, expected, [NewEvent("Note", {"text": cid})], recorded_at=AT,
                            actor="test", command_id=cid, read_model=model if rows else None)

    def test_the_read_model_is_kept_in_the_append_and_answers_by_subject(self, store):
        def first(written):
            return ReadRows([], [("p:Anna", written[1]["seq"]), ("p:Bruno", written[1]["seq"])])

        g = store.append(None, 0, [NewEvent("CommandRecorded", {"line": "new"}),
                                   NewEvent("GameStarted", {"players": ["Anna", "Bruno"]})],
                         recorded_at=AT, actor="test", command_id="new",
                         read_model=first).game_id
        self._pay(store, g, 2, 10, "c1")
        note(store, g, 3, "a note", cid="c2")
        assert store.movements(g, "Anna") is None  # c2 kept no rows: the model stops short
        store.put_read_model(g, [ReadRows([(3, 0, "Anna", "bank", 10, "tax", "Note")],
                                          [("p:Anna", 2), ("p:Anna", 3), ("bank", 3)])], 4)
        self._pay(store, g, 4, 20, "c3")
        assert store.movements(g, "Anna") == [(3, 0, "Anna", "bank", 10, "tax", "Note"),
                                              (5, 0, "Anna", "bank", 20, "tax", "Note")]
        assert store.movements(g, "bank") == store.movements(g, "Anna")
        assert store.movements(g, "Bruno") == []
        assert seqs(store.mentioning(g, ["p:Anna"])) == [2, 3, 5]
        assert seqs(store.mentioning(g, ["bank", "p:Bruno"], after=2, upto=4)) == [3]
        assert store.mentioning(g, ["p:Carla"]) is not None
        assert store.read_model_rows(g, 2, 3) == ReadRows(
            [(3, 0, "Anna", "bank", 10, "tax", "Note")], [("bank", 3), ("p:Anna", 3)])

    def test_a_game_without_a_read_model_answers_none_and_a_refused_append_keeps_none(
            self, store):
        g = start(store, "Anna", "Bruno").game_id
        self._pay(store, g, 2, 10, "c1")
        assert store.movements(g, "Anna") is None and store.mentioning(g, ["p:Anna"]) is None
        assert store.read_model_rows(g, 0, 3) is None
        store.put_read_model(g, [], 3)
        with pytest.raises(ConflictError):
            self._pay(store, g, 2, 99, "late")
        assert store.movements(g, "Anna") == []
