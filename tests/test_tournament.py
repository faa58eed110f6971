"""Tournaments (ledger/tournaments.py, projections/readings/tournament.py): finished championship games
entered round by round, points summed (000 §PUNTEGGIO), the facts append-only and chained."""

import json
import sqlite3

import pytest


def play_game(banco, players, *lines):
    banco("new", *players, "--rules", "championship")
    for line in lines:
        banco(*line.split())
    banco("time-up")


@pytest.fixture
def two_rounds(banco):
    # game 1: Anna 1504, Bruno 1496 -> 25, 14
    play_game(banco, ("Anna", "Bruno", "Carla", "Dario"), "roll 1 2", "buy", "roll 1 2",
              "claim Anna", "roll 4 6", "roll 4 6")
    # game 2 (round 2): Bruno buys, Dario ... three players -> 22, 12, 6
    play_game(banco, ("Bruno", "Carla", "Dario"), "roll 1 2", "buy", "roll 1 2", "claim Bruno")
    return banco


def test_a_tournament_sums_the_points_of_its_rounds(two_rounds):
    banco = two_rounds
    out = banco("tournament", "new", "Milano 2015").output
    assert "tournament 'Milano 2015'" in out
    out = banco("tournament", "add", "1").output
    assert "game 1 in round 1 of 'Milano 2015'" in out
    banco("tournament", "add", "2")
    doc = json.loads(banco("tournament", "standings", "--json").output)
    assert doc["rounds"] == 2 and [g["game"] for g in doc["games"]] == [1, 2]
    # game 1: Anna 1504 (Vicolo Stretto 60 + 1444), Bruno 1496, Carla 1500, Dario 1500:
    #   Anna 19, Carla/Dario share second (tie on count and on property): 10 each, Bruno 3
    # game 2: Bruno 1444 + 60 + ... see the document
    g1 = doc["games"][0]["points"]
    assert g1 == {"Anna": 19, "Carla": 10, "Dario": 10, "Bruno": 3}
    totals = {r["name"]: r["points"] for r in doc["players"]}
    g2 = doc["games"][1]["points"]
    assert totals == {n: g1.get(n, 0) + g2.get(n, 0) for n in ("Anna", "Bruno", "Carla", "Dario")}
    assert [r["rank"] for r in doc["players"]] == [1, 2, 3, 4]
    assert doc["tie_break"].startswith("total score")
    text = banco("tournament", "standings").output
    assert "2 games in 2 rounds; ties broken by total score" in text


def test_what_cannot_be_entered(banco):
    banco("new", "Anna", "Bruno", "Carla", "--rules", "championship")
    banco("tournament", "new", "Coppa")
    err = banco("tournament", "add", "1", code=1).output
    assert "game 1 is still in progress" in err and "000 §PUNTEGGIO" in err
    banco("time-up")
    banco("tournament", "add", "1")
    assert "already in 'Coppa'" in banco("tournament", "add", "1", code=2).output
    assert "no game 7 in this database" in banco("tournament", "add", "7", code=2).output
    banco("new", "Anna", "Bruno")  # classic
    banco("roll", "1", "1")
    assert "which give no tournament points" in banco("tournament", "add", "2", code=1).output
    banco("new", "Anna", "Dario", "Elena", "--rules", "championship")
    banco("time-up")
    err = banco("tournament", "add", "3", "--round", "1", code=2).output
    assert "Anna plays game 1 and game 3: one table a round" in err
    banco("tournament", "add", "3")  # round 2: fine
    assert "there is already a tournament" in banco("tournament", "new", "Coppa", code=2).output
    assert "no tournament in this database" not in banco("tournament", "standings").output


def test_tournament_facts_are_append_only_and_chained(banco):
    from banco.ledger.store.sqlite import SQLiteStore
    from banco.ledger.tournaments import Tournaments

    banco("new", "Anna", "Bruno", "Carla", "--rules", "championship")
    banco("time-up")
    banco("tournament", "new", "Coppa")
    banco("tournament", "add", "1")
    conn = sqlite3.connect(banco.db)
    with pytest.raises(sqlite3.DatabaseError, match="append-only: UPDATE refused"):
        conn.execute("UPDATE tournament_facts SET data='{}'")
    with pytest.raises(sqlite3.DatabaseError, match="append-only: DELETE refused"):
        conn.execute("DELETE FROM tournament_facts")
    conn.close()
    t = Tournaments(SQLiteStore(banco.db, create=False))
    facts = t.facts("Coppa")
    assert [f["type"] for f in facts] == ["TournamentStarted", "GameEntered"]
    assert facts[1]["data"]["game_uuid"] and t.verify("Coppa") is None


def test_no_tournament_yet(banco):
    banco("new", "Anna", "Bruno", "--rules", "championship")
    err = banco("tournament", "standings", code=2).output
    assert "no tournament in this database yet: `banco tournament new NAME`" in err


MOVES = ("roll 1 2", "buy", "roll 1 2", "claim Anna", "roll 4 6", "roll 4 6")


def test_the_same_game_twice_is_not_entered_twice(banco, tmp_path):
    """A trial: the same transcript run twice (`run --fresh`), or a game imported again under a
    changed uuid, counted twice in the standings.  `tournament add` refuses a game with the
    same moves (the same players, command lines and facts, its identity and times aside) as
    one entered, naming it; a game played otherwise by the same players is entered."""
    from exchange_files import rehash, rows_of, write

    players = ("Anna", "Bruno", "Carla", "Dario")
    play_game(banco, players, *MOVES)
    play_game(banco, players, *MOVES)  # the same transcript, again: another uuid and clock
    banco("tournament", "new", "Coppa")
    banco("tournament", "add", "1")
    out = banco("tournament", "add", "2", code=2).output
    assert "game 2 has the same moves as game 1, already in 'Coppa' (round 1): the same game " \
           "twice" in out and "nothing was entered" in out, out
    # game 1 exported, its uuid changed and every hash recomputed: a history import accepts
    export = tmp_path / "one.jsonl"
    banco("--game", "1", "export", "-o", str(export))
    header, rows = rows_of(export)
    uid = header["game_uuid"]
    other = uid[:-4] + ("0000" if uid[-4:] != "0000" else "1111")
    rows[1]["data"]["game_uuid"] = header["game_uuid"] = other
    rehash(rows, 1)
    header["head"] = rows[-1]["hash"]
    write(export, header, rows)
    assert "game 3" in banco("import", str(export)).output
    out = banco("tournament", "add", "3", code=2).output
    assert "game 3 has the same moves as game 1" in out, out
    play_game(banco, players, "roll 2 1", *MOVES[1:])  # dice the other way: another game
    banco("tournament", "add", "4")
    doc = json.loads(banco("tournament", "standings", "--json").output)
    assert [(g["game"], g["twin_of"]) for g in doc["games"]] == [(1, None), (4, None)]


def test_standings_say_a_game_entered_twice_under_two_identities(banco):
    """A twin entered before `add` refused it (an older banco, an archive's facts) is counted
    as entered, and said on stderr."""
    from banco.ledger.store.sqlite import SQLiteStore
    from banco.ledger.tournaments import append_facts

    players = ("Anna", "Bruno", "Carla", "Dario")
    play_game(banco, players, *MOVES)
    play_game(banco, players, *MOVES)
    banco("tournament", "new", "Coppa")
    banco("tournament", "add", "1")
    store = SQLiteStore(banco.db, create=False)
    try:
        game = store.game(2)
        fact = {"game_uuid": game["uuid"], "game": 2, "round": 2, "seq": game["events"],
                "head": game["head"]}
        store.write(lambda conn: append_facts(conn, "Coppa", [
            ("GameEntered", fact, "2026-11-29T21:00:00.000000Z", "organiser")]))
    finally:
        store.close()
    out = banco("tournament", "standings").output
    assert "WARNING: game 2 (round 2) has the same moves as game 1: the same game entered " \
           "twice (under another identity), counted twice in these standings" in out, out
    doc = json.loads(banco("tournament", "standings", "--json").output.split("\n", 1)[1])
    assert [g["twin_of"] for g in doc["games"]] == [None, 1]
