"""What a family met on the phones' evening (the trial after issue 34), through Starlette's
TestClient: each endpoint's own words for a bad body, a join code kept as text and a seat
named as the commands name it, one join request a seat and none for a bankrupt player, a
referee's token bound to its referee's name, and a ruling recorded once."""

from __future__ import annotations

import shutil

import pytest
from click.testing import CliRunner
from games import lines
from phones_tables import NOW, auth, before_time_up, seq

from banco.cli.main import cli
from banco.ledger.store import tokens

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx`")


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    """The championship game up to Bruno's last turn: Dario bankrupt, the game not ended."""
    return before_time_up(tmp_path_factory.mktemp("trial"))


@pytest.fixture
def client(recorded, tmp_path):
    from starlette.testclient import TestClient

    from banco.cli.web.app import Hub, make_app

    db = str(tmp_path / "game.db")
    shutil.copy(recorded, db)
    hub = Hub(db, None, poll=0.05)
    with TestClient(make_app(hub)) as c:
        c.db, c.hub = db, hub
        c.banker = tokens.issue(db, "banker", 1, NOW)[0]
        yield c
    hub.close()


def test_each_endpoint_says_its_own_words_and_a_code_is_text(client):
    code = client.get("/api/join").json()["code"]
    anna = tokens.issue(client.db, "player", 1, NOW, "Anna")[0]
    said = client.post("/api/offers/abc", json={"answer": "maybe"}, headers=auth(anna))
    assert said.status_code == 400 and "“accept” or “decline”" in said.json()["error"]
    assert "“line”" not in said.json()["error"]
    said = client.post("/api/join", json={"code": code, "player": "Zed"})
    assert said.status_code == 400 and "role”" not in said.json()["error"]
    assert "Anna, Bruno, Carla" in said.json()["error"] and "Dario" not in said.json()["error"]
    said = client.post("/api/join", json={"code": int(code), "player": "Anna"})
    assert said.status_code == 400 and "as text" in said.json()["error"]
    asked = client.post("/api/join", json={"code": code, "player": "bruno"})
    assert asked.status_code == 202 and asked.json()["player"] == "Bruno"
    said = client.post(f"/api/joins/{asked.json()['request']}", json={"answer": "yes"},
                       headers=auth(client.banker))
    assert said.status_code == 400 and "“approve” or “refuse”" in said.json()["error"]


def test_one_join_request_a_seat_and_none_for_a_bankrupt_player(client):
    code = client.get("/api/join").json()["code"]
    asked = [client.post("/api/join", json={"code": code, "player": "Bruno"}).json()
             for _ in range(11)]
    joins = client.get("/api/games", headers=auth(client.banker)).json()["joins"]
    assert [j["id"] for j in joins] == [asked[-1]["request"]]  # one card, the last asked
    gone = client.post(f"/api/join/{asked[0]['request']}", json={"key": asked[0]["key"]})
    assert gone.status_code == 404  # the replaced request collects nothing
    said = client.post("/api/join", json={"code": code, "player": "dario"})
    assert said.status_code == 422 and "003 §10" in said.json()["error"]
    assert "bankrupt" in said.json()["error"]
    said = client.post("/api/games/1/tokens", json={"role": "player", "player": "Dario"},
                       headers=auth(client.banker))
    assert said.status_code == 422 and "out of the game" in said.json()["error"]
    seats = client.get(f"/api/join/{code}").json()["seats"]
    assert [s["player"] for s in seats] == ["Anna", "Bruno", "Carla"]
    setup = client.get("/api/games", headers=auth(client.banker)).json()["seats"]
    assert [s["bankrupt"] for s in setup if s["player"]] == [False, False, False, True]


def test_a_named_referee_token_records_as_its_referee_only(client):
    runner = CliRunner()
    made = runner.invoke(cli, ["--db", client.db, "token", "referee", "Rita", "--json",
                               "--url", "http://127.0.0.1:8000/"])
    assert made.exit_code == 0, made.output
    import json

    rita = json.loads(made.output)["token"]
    assert json.loads(made.output)["player"] == "Rita"
    player = runner.invoke(cli, ["--db", client.db, "token", "referee", "Anna"])
    assert player.exit_code == 1 and "Anna" in player.output  # a player rules on no game
    before = seq(client.db)
    for line in ("correct Anna 5 --reason test --referee Otto",
                 "correct Anna 5 --reason test --arbitro=Otto",
                 "ruling rent 39 --record --referee Otto"):
        said = client.post("/api/commands", json={"line": line}, headers=auth(rita))
        assert said.status_code == 403 and "Rita" in said.json()["error"], (line, said.json())
    # two referees named: no one referee read, a usage error (nothing recorded either way)
    said = client.post("/api/commands", json={
        "line": "correct Anna 5 --reason test --referee Rita --referee Otto"}, headers=auth(rita))
    assert said.status_code == 400, said.json()
    assert seq(client.db) == before
    said = client.post("/api/commands", json={"line": "correct Anna 5 --reason test "
                                                      "--referee rita"}, headers=auth(rita))
    assert said.status_code == 200 and seq(client.db) > before
    paired = client.post("/api/games/1/tokens", json={"role": "referee", "player": "Otto"},
                         headers=auth(client.banker))
    assert paired.status_code == 201 and paired.json()["player"] == "Otto"
    said = client.post("/api/commands", json={"line": "correct Anna 5 --reason test "
                                                      "--referee Rita"},
                       headers=auth(paired.json()["token"]))
    assert said.status_code == 403 and "Otto" in said.json()["error"]
    said = client.post("/api/games/1/tokens", json={"role": "referee", "player": "anna"},
                       headers=auth(client.banker))
    assert said.status_code == 400 and "no player's" in said.json()["error"]
    old = tokens.issue(client.db, "referee", 1, NOW)[0]  # unnamed: as before, any name
    said = client.post("/api/commands", json={"line": "correct Anna 5 --reason test "
                                                      "--referee Otto"}, headers=auth(old))
    assert said.status_code == 200


def test_the_same_ruling_is_recorded_once(client):
    """Events 304 and 319 of the trial were one ruling recorded twice: the same referee's same
    verdict on the same event is answered as already recorded, and nothing is appended."""
    first = CliRunner().invoke(cli, ["--db", client.db, "ruling", "rent", "39", "--record",
                                     "--referee", "Rita"])
    assert first.exit_code == 0, first.output
    at = seq(client.db)
    lines(client.db, "ruling rent 39 --record --referee rita")
    assert seq(client.db) == at
    again = CliRunner().invoke(cli, ["--db", client.db, "ruling", "rent", "39", "--record",
                                     "--referee", "Rita", "--json"])
    assert again.exit_code == 0 and seq(client.db) == at
    assert f"already recorded as event {at - 1}" in again.output or \
        f"already recorded as event {at}" in again.output
    other = CliRunner().invoke(cli, ["--db", client.db, "ruling", "rent", "39", "--record",
                                     "--referee", "Otto"])
    assert other.exit_code == 0 and seq(client.db) > at  # another referee's: his own


def test_a_recorded_ruling_is_shown_wholly_in_italian_and_runs_as_shown(client):
    from banco.cli.web.choices import line_in

    shown = line_in("ruling rent 39 --record --referee Rita", "it")
    assert shown == "decisione affitto 39 --registra --arbitro Rita", shown
    at = seq(client.db)
    typed = CliRunner().invoke(cli, ["--db", client.db, *shown.split()])
    assert typed.exit_code == 0, typed.output
    assert seq(client.db) > at


def test_a_named_referees_typed_command_is_held_to_the_name(client):
    """Past the words' check, the typed correction and ruling are held to the token's referee
    (cli/web/acts.py, the library's authorize): a line whose words slipped by records nothing
    as another referee."""
    import banco
    from banco.cli.web.acts import acting

    before = seq(client.db)
    with banco.open(client.db) as library:
        actor, authorize = acting("referee", "Rita", banker_only=False)
        for line in ("correct Anna 5 --reason test --referee Otto",
                     "ruling rent 39 --record --referee Otto"):
            outcome = library.execute(line, game=1, actor=actor, authorize=authorize)
            assert outcome.refusal is not None and outcome.refusal.code == 1, line
            assert "Rita" in outcome.refusal.say("en"), (line, outcome.refusal.say("en"))
        assert seq(client.db) == before
        outcome = library.execute("ruling rent 39 --record --referee RITA", game=1,
                                  actor=actor, authorize=authorize)
        assert outcome.refusal is None and seq(client.db) > before
