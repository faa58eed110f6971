"""The banker's and referee's words a newcomer's trial found wrong: what follows a debt that
only a bankruptcy settles, what an undo gives back, names that are both a space and deeds,
tied standings, the output paths' errors."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.usefixtures("no_locale")


@pytest.fixture
def bea_must_go_bankrupt(banco):
    """Bea owns Vicolo Stretto, has 100 M left, and rolls doubles onto the 200 M tax."""
    banco("new", "Ada", "Bea", "Cy")
    for line in ("roll 1 2", "decline", "bid bea 1400", "hammer"):
        banco(*line.split())
    return banco


def test_a_player_who_must_go_bankrupt_does_not_roll_again(bea_must_go_bankrupt):
    """`roll 2 2` said 'Bea rolls again (doubles)' and state 'then Bea rolls', though Bea
    cannot raise the tax and is out after `bankrupt`: the words say the Bank auctions her
    deed and Cy rolls, and so it goes."""
    banco = bea_must_go_bankrupt
    rolled = banco("roll", "2", "2").output
    assert "rolls again" not in rolled
    want = ("next: Bea owes 200 M to the Bank (Tassa Patrimoniale) and can raise only 130 M: "
            "`bankrupt Bea`; then the Bank auctions Bea's deeds (003 §10) and Cy rolls")
    assert rolled.rstrip().endswith(want)
    assert want in banco("state").output
    assert "auction for Vicolo Stretto" in banco("bankrupt", "Bea").output
    assert "Cy to roll" in banco("hammer", "cy").output


def test_a_bankruptcy_that_ends_the_game_is_said_to_end_it(banco):
    """Two players: the debtor's bankruptcy leaves one, and nobody rolls after it."""
    banco("new", "Ada", "Bea")
    for line in ("roll 1 2", "decline", "bid bea 1400", "hammer"):
        banco(*line.split())
    banco("roll", "2", "2")
    assert banco("state").output.count("`bankrupt Bea`; then the game ends") == 1
