"""What a banker trial found in the words typed at the table: each mistake said for what it is,
the short word accepted where it is unambiguous, and each answer ending with what the table
waits for."""

import json

import pytest


@pytest.fixture
def game(banco):
    banco("new", "Anna", "Bruno", "Carla")
    return banco


def events(banco):
    return json.loads(banco("log", "--json").output)


def test_a_die_after_player_is_no_player_and_the_line_meant_is_suggested(game):
    # `roll --player 1 2`: the option took `1` for a name, and the answer was `got 1 die`
    before = events(game)
    out = game("roll", "--player", "1", "2", code=2).output
    assert "no player called '1': --player takes a player's name (Anna, Bruno, Carla)" in out
    assert "did you mean `roll 1 2 --player Anna`?" in out
    assert "got 1 die" not in out
    out = game("roll", "3", "4", "--player", "5", code=2).output
    assert "did you mean `roll 3 4 --player Anna`?" in out
    out = game("--lang", "it", "tira", "--giocatore", "1", "2", code=2).output
    assert "'1'" in out and "`tira 1 2 --giocatore Anna`" in out
    assert events(game) == before

