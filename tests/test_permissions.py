"""Who may send which line from a phone (cli/web/permissions.py): pure decisions."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from banco.cli.web.permissions import allowed, offer_parties

TABLE = SimpleNamespace(seats=("Anna", "Bruno", "Carla", "Carlo"))


@pytest.mark.parametrize("role, player, line, ok", [
    ("banker", None, "roll 3 4", True), ("banker", None, "tira 3 4", True),
    ("banker", None, "trade Anna Bruno --give 10", True), ("banker", None, "undo", True),
    ("banker", None, "claim Carla", True), ("banker", None, "roll 3 4 --lang it", True),
    ("banker", None, "draw", True), ("banker", None, "pesca", True),  # a card's choice
    ("player", "Carla", "draw", False),
    ("banker", None, "ruling x", False), ("banker", None, "new A B", False),
    ("banker", None, "backup x", False), ("banker", None, "roll 3 4 --game 2", False),
    ("banker", None, "roll 3 4 --db=other.db", False), ("banker", None, "buy --id k", False),
    ("player", "Carla", "claim Carla", True), ("player", "Carla", "claim carla", True),
    ("player", "Carla", "riscuoti Carla", True),
    ("player", "Carla", "claim Anna", False), ("player", "Carla", "claim Carl", False),
    ("player", "Carla", "claim", False), ("player", "Carla", "claim Carla Anna", False),
    ("player", "Carla", "roll 3 4", False), ("player", "Carla", "trade Carla Anna", False),
    ("player", "Carla", "undo", False), ("player", "Carla", "state", False),
    ("referee", None, "ruling --help", True), ("referee", None, "correct x", True),
    ("referee", None, "roll 1 2", False),
    ("viewer", None, "roll 1 2", False), ("viewer", None, "claim Carla", False),
    ("banker", None, "", False),
])
def test_who_may_send_what(role, player, line, ok):
    decision = allowed(role, player, line.split(), TABLE)
    assert decision.allowed is ok
    assert (decision.why is None) is ok


def test_a_refusal_says_why_with_its_words():
    d = allowed("player", "Carla", ["roll", "3", "4"], TABLE)
    assert d.why.format(**d.params) == "`roll` is the banker's to record, not a player's"
    d = allowed("player", "Carla", ["claim", "Anna"], TABLE)
    assert d.why.format(**d.params) == "Carla may claim only the rent owed to Carla: `claim Carla`"


def test_a_trade_is_answered_by_its_sides_only():
    assert offer_parties("player", "Anna", "Anna", "Bruno")
    assert not offer_parties("player", "Carla", "Anna", "Bruno")
    assert not offer_parties("banker", None, "Anna", "Bruno")
