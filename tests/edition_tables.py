"""Crafting tables on any edition, for the edition and card-effect tests."""

from __future__ import annotations

from banco.ledger.board.rule_sets import load_rules
from banco.ledger.rules.decide import start_game
from banco.ledger.table.state import State, fold


def table(edition: str, players=("Anna", "Bruno", "Carla", "Dario"), rules="classic") -> State:
    events = start_game(list(players), load_rules(rules), edition)
    for i, e in enumerate(events, start=1):
        e["seq"] = i
    return fold(events, 1)


def positions(state: State) -> dict[str, int]:
    return {s.name: s.position for s in state.edition.properties}


def at_card(state: State, player: str, position: int, deck: str, dice=(3, 4)) -> State:
    """`player` standing on a card square of `deck`, waiting to draw."""
    i = state.index[player]
    p = state.players[i]._replace(position=position)
    state = state._replace(players=state.players[:i] + (p,) + state.players[i + 1:])
    return state._replace(turn=state.turn._replace(player=player, phase="card", card_deck=deck,
                                                   dice=tuple(dice)))
