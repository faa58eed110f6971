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



def test_json_before_the_word_is_the_command_s_option(game, tmp_path):
    # `banco --json state` was `No such option '--json'. Did you mean '--version'?`
    assert json.loads(game("--json", "state").output) == json.loads(game("state", "--json").output)
    assert json.loads(game("--json", "--game", "1", "LOG").output)[0]["seq"] == 1
    out = game("--json", "roll", "1", "2", code=2).output
    assert "`roll` has no --json; --json goes after the word of a reading that has it" in out
    assert "--version" not in out
    out = game("--json", code=2).output
    assert "--json is an option of a reading, after its word: `banco state --json`" in out
    from cli.execution import execute
    from cli.session import Session

    session = Session(game.db, None)
    try:  # a line of the shell
        said = execute(session, "--json state", echo=False)
        assert said.code == 0 and json.loads(said.said)["game"] == 1
    finally:
        session.close()
