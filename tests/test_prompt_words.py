"""The shell's prompt says what `next:` says (issue 20): while a short or timed game's deeds are
still to be dealt, the prompt asks for the deal, not a roll that would be refused."""

from __future__ import annotations

import pytest

from banco.cli.words.waiting import prompt_text
from banco.ledger.book import Book
from banco.ledger.records import commands as c
from banco.ledger.table.state import dealing_left, next_step

NOW = "2026-11-29T21:00:00.000000Z"


@pytest.mark.parametrize("rules", ["short", "timed"])
def test_the_prompt_asks_for_the_deal_until_it_is_done(tmp_path, rules):
    book = Book(str(tmp_path / "g.db"))
    g = book.new_game(["Anna", "Bruno"], rules, now=NOW)
    state = book.state(g)
    left = dealing_left(state)
    assert left and "`deal PLAYER PROPERTY...`" in str(next_step(state))
    assert prompt_text(state) == "deal: " + ", ".join(f"{n} {k}" for n, k in left) + "> "
    free = [s.position for s in state.edition.spaces if s.price and s.kind == "street"]
    for name, count in left:
        book.execute(g, c.Deal(name, tuple(free[:count])), now=NOW)
        free = free[count:]
        state = book.state(g)
        if dealing_left(state):
            assert prompt_text(state).startswith("deal: ")
    assert dealing_left(state) == []
    assert prompt_text(state) == f"{state.turn.player} (roll)> "
    book.close()
