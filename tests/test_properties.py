"""Invariants over random legal play (hypothesis): every check the audit runs holds after every
event (amounts, each account's statement, the table), replaying the log gives the live table,
and undo restores the table."""

from helpers import new_table
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from banco.cli.words.table_text import state_document
from banco.ledger.base.errors import RuleViolation
from banco.ledger.records import commands as c
from banco.ledger.rules.decide import decide
from banco.ledger.table.state import evolve, fold, richest_bidders
from banco.projections.audit.checks import EventChecks

step = st.tuples(st.integers(1, 6), st.integers(1, 6), st.integers(0, 99))


def choose(state, d1, d2, k):
    """A legal command for the table as it stands, picked by the drawn numbers."""
    t = state.turn
    for d in state.debts:
        if state.player(d.debtor).cash >= d.amount:
            return c.PayDebt(d.debtor)
        return None  # only bankruptcy (next issue) could move on
    if state.claims and k % 3:
        return c.Claim(state.claims[k % len(state.claims)].owner)
    p = state.current
    if t.phase == "roll":
        if p.in_jail and k < 20 and p.cash >= state.rules.jail_fine:
            return c.PayFine()
        if p.in_jail and p.jail_cards and k < 40:
            return c.UseCard()
        return c.Roll((d1, d2))
    if t.phase == "buy":
        price = state.edition.space(t.offer).price
        return c.Buy() if p.cash >= price and k < 60 else c.Decline()
    if t.phase == "auction":
        a = state.auction
        rich = [n for n in state.active() if state.player(n).cash > a.high_bid + a.step]
        if rich and k < 70 and a.bids < 4:
            name = rich[k % len(rich)]
            low = a.min_bid if a.high_bidder is None else a.high_bid + a.step
            return c.Bid(name, min(state.player(name).cash, low + k % 30))
        tied = richest_bidders(state) if a.high_bidder is None else []
        return c.Hammer(player=tied[k % len(tied)] if len(tied) > 1 else None)
    if t.phase in ("card", "choice"):
        if t.phase == "choice":
            deck, n = t.card_choice
            return c.DrawCard(deck, n, "pay" if k % 2 else "draw")
        from banco.ledger.table.decks import drawable

        free = drawable(state, t.card_deck)
        return c.DrawCard(t.card_deck, free[k % len(free)])
    if t.phase == "jail_exit":
        return c.UseCard() if k % 2 else c.PayFine()
    raise AssertionError(f"unexpected phase {t.phase}")


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(step, min_size=50, max_size=50), st.integers(2, 6))
def test_random_games_keep_the_books(steps, players):
    names = ["Anna", "Bruno", "Carla", "Dario", "Elio", "Fede"][:players]
    state = new_table(tuple(names))
    from banco.ledger.board.rule_sets import load_rules
    from banco.ledger.rules.decide import start_game

    log = start_game(names, load_rules("classic"), "it")
    for i, e in enumerate(log, 1):
        e["seq"] = i
    from banco.ledger.table.state import replay

    steps_ = replay(log, 1)
    _, before = next(steps_)
    checks = EventChecks(before)
    for e, after in steps_:
        assert checks.after(before, e, after) == []
        before = after
    for d1, d2, k in steps:
        cmd = choose(state, d1, d2, k)
        if cmd is None:
            break
        try:
            events = decide(state, cmd)
        except RuleViolation as refusal:
            raise AssertionError(f"a legal command was refused: {cmd}: {refusal}") from None
        for e in events:
            e["seq"] = len(log) + 1
            before, state = state, evolve(state, e)
            log.append(e)
            assert checks.after(before, e, state) == [], e
            assert state.seq == e["seq"]
    assert fold(log, 1) == state
    owners = [o for o in state.owners if o is not None]
    assert set(owners) <= set(names)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(st.lists(step, min_size=5, max_size=15))
def test_undo_restores_the_table_exactly(tmp_path_factory, steps):
    from banco.ledger.book import Book

    book = Book(str(tmp_path_factory.mktemp("undo") / "u.db"))
    now = "2026-11-29T10:00:00.000000Z"
    g = book.new_game(["Anna", "Bruno", "Carla"], now=now)
    for d1, d2, k in steps:
        before = state_document(book.state(g))
        cmd = choose(book.state(g), d1, d2, k)
        if cmd is None:
            break
        book.execute(g, cmd, now=now)
        if k < 30:
            book.undo(g, now=now)
            after = state_document(book.state(g))
            assert {**after, "seq": 0} == {**before, "seq": 0}
    # the cached live table equals a cold replay of the stored log
    assert fold(book.store.read(g), g) == book.state(g)
    book.close()
