"""The audit's pass and Python's cyclic collector (projections/audit/audit.py GameAudit.run):
the collector is off while a pass runs and as it was after, which is safe only because the
pass makes no cyclic garbage as it goes, and frees itself by reference counts once done."""

import gc

import pytest
from helpers import claimed_rent_book

from banco.ledger.records import commands as c
from banco.projections.audit.audit import GameAudit

NOW = "2026-11-29T10:00:00.000000Z"


@pytest.fixture
def book(tmp_path):
    b = claimed_rent_book(str(tmp_path / "a.db"), NOW)
    b.undo(1, now=NOW)  # the pass folds again from a checkpoint
    b.execute(1, c.Roll((1, 1)), now=NOW)
    yield b
    b.close()


class Watched:
    """The game's rows, noting whether the collector was on as each was read."""

    def __init__(self, rows):
        self.rows, self.seen = rows, []
        self.hashed_as = rows.hashed_as

    def __iter__(self):
        for row in self.rows:
            self.seen.append(gc.isenabled())
            yield row

    def fetch(self, first, last):
        return self.rows.fetch(first, last)


@pytest.mark.parametrize("before", [True, False])
def test_the_collector_is_off_during_the_pass_and_as_it_was_after(book, before):
    rows = Watched(book.store.raw_rows(1))
    was = gc.isenabled()
    try:
        gc.enable() if before else gc.disable()
        report = GameAudit(1, rows).run()
        assert gc.isenabled() is before
    finally:
        gc.enable() if was else gc.disable()
    assert report.ok and rows.seen and not any(rows.seen)


def test_a_pass_that_stops_at_a_bad_row_restores_the_collector(book):
    rows = list(book.store.raw_rows(1))
    rows[3] = rows[3][:3] + ('{"x":1}',) + rows[3][4:]  # the data changed: the chain says so
    was = gc.isenabled()
    gc.enable()
    try:
        report = GameAudit(1, Listed(rows)).run()
        assert gc.isenabled()
    finally:
        gc.enable() if was else gc.disable()
    assert report.bad_seq == 4


class Listed:
    """Rows held in a list, as RawRows gives them."""
    hashed_as = None

    def __init__(self, rows):
        self.rows = rows

    def __iter__(self):
        return iter(self.rows)

    def fetch(self, first, last):
        return self.rows[first - 1:last]


def test_the_pass_makes_no_cyclic_garbage_and_frees_itself(book):
    """With the collector off, nothing the pass dropped is left for it to find, while the
    audit lives or after (its context's bound methods hold it: let go once it is done)."""
    GameAudit(1, book.store.raw_rows(1), snapshots=book.store.snapshots(1)).run()  # imports
    was = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        audit = GameAudit(1, book.store.raw_rows(1), snapshots=book.store.snapshots(1))
        assert audit.run().ok
        assert gc.collect() == 0
        del audit
        assert gc.collect() == 0
    finally:
        gc.enable() if was else gc.disable()


def test_with_another_thread_running_the_collector_stays_on(book):
    """The switch is the whole process's: in `serve` (its writers, the server's threads) a
    pass run beside other threads leaves it on, so their cycles are collected as ever."""
    import threading

    rows = Watched(book.store.raw_rows(1))
    release = threading.Event()
    other = threading.Thread(target=release.wait)
    was = gc.isenabled()
    gc.enable()
    other.start()
    try:
        report = GameAudit(1, rows).run()
        assert gc.isenabled()
    finally:
        release.set()
        other.join()
        gc.enable() if was else gc.disable()
    assert report.ok and rows.seen and all(rows.seen)


def test_the_progress_ticks_every_thousand_rows_once_they_are_taken():
    """`banco audit` always gives the pass a callback (projections/audit/ticking.py): the rows
    are handed out a chunk at a time, each tick once the caller has taken the row it counts
    and asks for the next, as a row at a time did."""
    from banco.projections.audit.ticking import EVERY, TickingRows

    seen: list = []
    rows = TickingRows(range(2 * EVERY + 5), lambda n: seen.append(("tick", n)), base=7)
    for row in rows:
        seen.append(row)
    assert seen.index(("tick", 7 + EVERY)) == EVERY
    assert seen.index(("tick", 7 + 2 * EVERY)) == 2 * EVERY + 1
    assert [r for r in seen if type(r) is int] == list(range(2 * EVERY + 5))
    seen.clear()
    for _ in TickingRows(range(EVERY), lambda n: seen.append(n)):
        pass
    assert seen == [EVERY]


def test_a_fact_the_checks_cannot_take_is_named_where_it_is(book, monkeypatch):
    """The checks of a fact decide folded run inline in the pass (GameAudit._recorded): one
    that raises is named at its seq in the words GameAudit._check gives, never raised."""
    from banco.projections.audit.checks import EventChecks

    rolls = [r["seq"] for r in book.store.read(1) if r["type"] == "DiceRolled"]
    real = EventChecks.after

    def after(self, before, event, table):
        if event["seq"] == rolls[1]:
            raise RuntimeError("boom")
        return real(self, before, event, table)

    monkeypatch.setattr(EventChecks, "after", after)
    report = GameAudit(1, book.store.raw_rows(1)).run()
    assert (report.bad_seq, str(report.problem)) == (
        rolls[1], "DiceRolled cannot be checked: RuntimeError: boom")
