"""The evening from phones (issue 34), through Starlette's TestClient: `serve` on a new file,
the banker's token for every game, games started and phones paired from the banker's page, a
phone joining with the TV's code, and each player recording his own acts, checked on the typed
command (another's act: 403, nothing appended, whatever the words)."""

from __future__ import annotations

import json
import os
import shutil

import pytest
from click.testing import CliRunner
from games import record
from phones_tables import NOW, auth

from banco.cli.main import cli
from banco.ledger.book import Book
from banco.ledger.store import keyring, tokens

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx`")


def events(db: str, game: int = 1) -> list[dict]:
    book = Book(db, create=False)
    try:
        return list(book.stream(game))
    finally:
        book.close()


@pytest.fixture
def fresh(tmp_path):
    """A served file with no game yet, and the banker's token for every game of it."""
    from starlette.testclient import TestClient

    from banco.cli.web.app import Hub, make_app
    from banco.cli.web.serve import create_file

    db = str(tmp_path / "evening.db")
    assert create_file(db) and not create_file(db)
    banker = tokens.issue(db, "banker", tokens.EVERY_GAME, NOW)[0]
    hub = Hub(db, None, poll=0.05)
    with TestClient(make_app(hub)) as c:
        c.db, c.banker, c.hub = db, banker, hub
        yield c
    hub.close()


def start(client, players=("Anna", "Bruno", "Carla"), **extra):
    return client.post("/api/games", json={"players": list(players), **extra},
                       headers=auth(client.banker))


def test_token_banker_works_on_a_file_with_no_game_and_for_every_game(tmp_path):
    from banco.cli.web.serve import create_file

    db = str(tmp_path / "empty.db")
    run = CliRunner()
    missing = run.invoke(cli, ["--db", db, "token", "banker", "--url", "http://h:1/"])
    assert missing.exit_code == 4 and not os.path.exists(db)  # no file: said, nothing issued
    create_file(db)
    said = run.invoke(cli, ["--db", db, "token", "banker", "--json", "--url", "http://h:1/"])
    assert said.exit_code == 0, said.output
    doc = json.loads(said.output)
    assert doc["game"] is None and doc["url"] == f"http://h:1/banker#t={doc['token']}"
    found = keyring.Keyring(db).find(doc["token"])
    assert (found.role, found.game) == ("banker", tokens.EVERY_GAME)
    assert run.invoke(cli, ["--db", db, "token", "--list"]).exit_code == 0
    with pytest.raises(ValueError):  # only the banker's token is for every game
        tokens.issue(db, "player", tokens.EVERY_GAME, NOW, "Anna")


def test_serve_creates_the_file_and_prints_the_bankers_link(tmp_path, capsys):
    """`serve` on a missing file: created, and the banker's link and QR printed (the server
    itself is not run here: the listening part is test_phones_browser.py's)."""
    from banco.cli.web.serve import banker_link, create_file

    db = str(tmp_path / "new.db")
    assert create_file(db)
    runner = CliRunner()
    banker_link(db, "http://10.0.0.5:8000/")
    text = capsys.readouterr().out
    assert "http://10.0.0.5:8000/banker#t=bt_" in text and "█" in text
    assert [t.game for t in tokens.listed(db)] == [tokens.EVERY_GAME]
    said = runner.invoke(cli, ["--db", db, "games"])
    assert said.exit_code == 0 and "no games yet" in said.output


def test_the_bankers_page_starts_a_game_and_a_bad_one_creates_nothing(fresh):
    bad = start(fresh, ["Anna", "anna"])
    assert bad.status_code == 400 and "the same to banco" in bad.json()["error"]
    one = start(fresh, ["Anna"])
    assert one.status_code == 422 and "at least two players" in one.json()["error"]
    for body in ({"players": "Anna Bruno"}, {"players": ["A", "B"], "rules": "/etc/passwd"},
                 {"players": ["A", "B"], "edition": "xx"}, {"players": ["A", 3]}):
        r = fresh.post("/api/games", json=body, headers=auth(fresh.banker))
        assert r.status_code == 400 and "classic" in r.json()["error"], body
    assert Book(fresh.db, create=False).games() == []
    player = tokens.issue(fresh.db, "viewer", 1, NOW)[0]
    assert fresh.post("/api/games", json={"players": ["A", "B"]}, headers=auth(player)
                      ).status_code == 403
    ok = start(fresh, rules="classic", edition="it")
    assert ok.status_code == 201, ok.json()
    doc = ok.json()
    assert doc["game"] == 1 and doc["players"] == ["Anna", "Bruno", "Carla"]
    assert "game 1" in doc["said"] and len(doc["code"]) == 6
    listed = fresh.get("/api/games", headers=auth(fresh.banker)).json()
    assert [g["game"] for g in listed["games"]] == [1] and listed["code"] == doc["code"]
    assert "classic" in listed["rules"] and "it" in listed["editions"]


def test_the_banker_pairs_each_seat_pairs_again_and_revokes(fresh):
    start(fresh)
    r = fresh.post("/api/games/1/tokens", json={"role": "player", "player": "anna"},
                   headers=auth(fresh.banker))
    assert r.status_code == 201
    seat = r.json()
    assert set(seat) >= {"token", "url", "code"} and seat["player"] == "Anna"
    assert seat["url"].endswith("/player#t=" + seat["token"])  # only in the fragment
    assert seat["url"].split("#")[0].find(seat["token"]) < 0
    assert seat["qr"].startswith("data:image/svg+xml")
    assert seat["token"][3:].startswith(seat["code"])
    again = fresh.post("/api/games/1/tokens", json={"role": "player", "player": "Anna"},
                       headers=auth(fresh.banker)).json()
    seats = fresh.get("/api/games", headers=auth(fresh.banker)).json()["seats"]
    assert seats[0] == {"player": "Anna", "bankrupt": False,
                        "phones": [seat["code"], again["code"]]}
    gone = fresh.post(f"/api/tokens/{seat['code']}/revoke", headers=auth(fresh.banker))
    assert gone.status_code == 200
    assert fresh.get("/api/me", headers=auth(seat["token"])).status_code == 401
    assert fresh.get("/api/me", headers=auth(again["token"])).json()["player"] == "Anna"
    for body in ({"role": "player", "player": "Zeno"}, {"role": "banker"}, {}):
        r = fresh.post("/api/games/1/tokens", json=body, headers=auth(fresh.banker))
        assert r.status_code == 400, body
    assert fresh.post("/api/games/7/tokens", json={"role": "viewer"},
                      headers=auth(fresh.banker)).status_code == 404


def test_a_phone_joins_with_the_tvs_code_once_the_banker_approves(fresh):
    start(fresh)
    code = fresh.get("/api/join").json()["code"]  # what the TV shows
    assert fresh.get("/api/join/000000x").status_code == 404
    # a code pasted with a zero-width space: refused with the character shown, not echoed raw
    # ("no game ... with the code 838603" read as the TV's own code)
    for pasted in (fresh.get(f"/api/join/{code[:3]}\u200b{code[3:]}"),
                   fresh.post("/api/join", json={"code": f"{code}\u200b", "player": "Bruno"})):
        assert pasted.status_code == 404 and "\u200b" not in pasted.json()["error"]
        assert "\\u200b" in pasted.json()["error"], pasted.json()
    seats = fresh.get(f"/api/join/{code}").json()["seats"]
    assert [s["player"] for s in seats] == ["Anna", "Bruno", "Carla"]
    asked = fresh.post("/api/join", json={"code": code, "player": "Bruno"})
    assert asked.status_code == 202
    req, key = asked.json()["request"], asked.json()["key"]
    assert fresh.post(f"/api/join/{req}", json={"key": "wrong"}).status_code == 404
    assert fresh.post(f"/api/join/{req}", json={"key": key}).json()["state"] == "waiting"
    waiting = fresh.get("/api/games", headers=auth(fresh.banker)).json()["joins"]
    assert [j["player"] for j in waiting] == ["Bruno"]
    assert fresh.post(f"/api/joins/{req}", json={"answer": "approve"}).status_code == 403
    ok = fresh.post(f"/api/joins/{req}", json={"answer": "approve"}, headers=auth(fresh.banker))
    assert ok.status_code == 200
    got = fresh.post(f"/api/join/{req}", json={"key": key}).json()
    assert got["state"] == "approved" and got["url"].endswith("#t=" + got["token"])
    assert fresh.get("/api/me", headers=auth(got["token"])).json()["player"] == "Bruno"
    assert fresh.post(f"/api/join/{req}", json={"key": key}).status_code == 404  # once
    for _ in range(12):  # a flood for one seat is one request, the last (issue 34's trial)
        first = fresh.post("/api/join", json={"code": code, "player": "Carla"}).json()
    waiting = fresh.get("/api/games", headers=auth(fresh.banker)).json()["joins"]
    assert [j["id"] for j in waiting] == [first["request"]]
    other = fresh.post("/api/join", json={"code": code, "player": "Carla"}).json()
    fresh.post(f"/api/joins/{other['request']}", json={"answer": "refuse"},
               headers=auth(fresh.banker))
    assert fresh.post(f"/api/join/{other['request']}", json={"key": other["key"]}
                      ).json()["state"] == "refused"


# --- each player his own acts ---------------------------------------------------------------

@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    """The classic-4p game, Anna to roll (3 4 takes her to Carla's Piazza Università)."""
    return record(str(tmp_path_factory.mktemp("acts") / "game.db"), "classic-4p")


@pytest.fixture
def table(recorded, tmp_path):
    from starlette.testclient import TestClient

    from banco.cli.web.app import Hub, make_app

    db = str(tmp_path / "game.db")
    shutil.copy(recorded, db)
    keys = {n: tokens.issue(db, "player", 1, NOW, n)[0] for n in ("Anna", "Bruno", "Carla")}
    keys["banker"] = tokens.issue(db, "banker", 1, NOW)[0]
    hub = Hub(db, None, poll=0.05)
    with TestClient(make_app(hub)) as c:
        c.db, c.keys, c.hub = db, keys, hub
        yield c
    hub.close()


def act(client, who: str, line: str, **extra):
    return client.post("/api/commands", json={"line": line, **extra},
                       headers=auth(client.keys[who]))


@pytest.mark.parametrize("line", [
    "roll 3 4", "ROLL 3 4", "roll 3 4 --player Anna", "roll 3 4 --lang en", "--lang en roll 3 4",
    "lancia 3 4", "tira 3 4", "undo", "hammer", "buy", "pay-fine"])
def test_another_players_act_is_403_whatever_the_words(table, line):
    """Bruno's phone on Anna's turn: refused on the typed command (or the word is no command
    at all, 400), nothing appended."""
    before = len(events(table.db))
    r = act(table, "Bruno", line)
    assert r.status_code in (403, 400), (line, r.status_code, r.json())
    if r.status_code == 400:
        assert "no command" in r.json()["errors"] or "--lang" in r.json()["errors"], r.json()
    assert len(events(table.db)) == before


def test_a_player_records_his_own_turn_in_his_own_name(table):
    r = act(table, "Anna", "roll 3 4")
    assert r.status_code == 200, r.json()
    rows = r.json()["events"]
    assert {e["actor"] for e in rows} == {"Anna"}  # the log names who acted
    # Carla claims her rent from her phone; Anna may not claim it for her
    assert act(table, "Anna", "claim Carla").status_code == 403
    assert act(table, "Carla", "claim Carla").status_code == 200
    # the banker may still do everything
    assert act(table, "banker", "undo").status_code == 200


def test_a_players_estate_acts_are_his_own_deeds_only(table):
    owned = Book(table.db, create=False).state(1)
    mine = next(p for p, o in enumerate(owned.owners) if o == "Anna")
    theirs = next(p for p, o in enumerate(owned.owners) if o not in (None, "Anna"))
    name = owned.edition.space
    before = len(events(table.db))
    assert act(table, "Anna", f"mortgage '{name(theirs).name}'").status_code == 403
    assert len(events(table.db)) == before
    r = act(table, "Anna", f"mortgage '{name(mine).name}'")
    assert r.status_code in (200, 422), r.json()  # hers: the rules decide
    assert act(table, "Anna", f"unmortgage '{name(theirs).name}'").status_code == 403


def test_banker_only_keeps_every_act_the_bankers(table):
    table.hub.banker_only = True
    r = act(table, "Anna", "roll 3 4")
    assert r.status_code == 403 and len(events(table.db)) == len(events(table.db))
    assert act(table, "banker", "roll 3 4").status_code == 200
    assert act(table, "Carla", "claim Carla").status_code == 200


def test_a_player_offers_a_trade_and_the_other_side_answers(table):
    before = len(events(table.db))
    r = act(table, "Anna", "trade Anna Bruno --give 'vicolo corto' --get 20")
    assert r.status_code == 202, r.json()
    offer = r.json()["offer"]
    assert offer["waiting"] == ["Bruno"] and offer["accepted"] == ["Anna"]
    assert offer["by"] == "Anna" and len(events(table.db)) == before
    assert act(table, "Carla", "trade Anna Bruno --give 'vicolo corto' --get 20").status_code == 403
    path = f"/api/offers/{offer['id']}"
    assert table.post(path, json={"answer": "accept"}, headers=auth(table.keys["Carla"])
                      ).status_code == 403
    done = table.post(path, json={"answer": "accept"}, headers=auth(table.keys["Bruno"]))
    assert done.status_code == 200, done.json()
    assert {e["actor"] for e in done.json()["events"]} == {"Anna"}


def test_a_trade_with_a_side_without_a_phone_waits_for_the_banker(table):
    r = act(table, "Anna", "trade Anna Dario --give 'vicolo corto' --get 20")
    offer = r.json()["offer"]
    assert offer["waiting"] == ["banker"]
    path = f"/api/offers/{offer['id']}"
    done = table.post(path, json={"answer": "accept"}, headers=auth(table.keys["banker"]))
    assert done.status_code == 200, done.json()


# --- the buttons the pages draw, the words they say -------------------------------------------

def test_the_jail_and_pay_or_draw_choices_are_buttons_for_whose_turn_it_is(recorded):
    from banco.cli.web.choices import player_extras, table_choices

    state = Book(recorded, create=False).state(1)
    anna = state.player("Anna")
    jailed = state._replace(players=(anna._replace(in_jail=True, jail_cards=(("x", 1),)),
                                     *state.players[1:]),
                            turn=state.turn._replace(player="Anna", phase="roll", dice=()))
    lines = [(c["line"], c["player"]) for c in table_choices(jailed)]
    assert lines == [("pay-fine", "Anna"), ("use-card", "Anna")]
    assert player_extras(jailed, "Anna", "it")["choices"] == table_choices(jailed)
    assert player_extras(jailed, "Bruno", "it")["choices"] == []  # not his to press
    card = state._replace(turn=state.turn._replace(player="Anna", phase="choice",
                                                   card_choice=("probabilita", 11)))
    assert [c["line"] for c in table_choices(card)] == [
        "card probabilita 11 pay", "card probabilita 11 draw"]
    assert table_choices(state) == []  # Anna simply rolls


def test_the_pages_say_lines_and_the_rule_set_in_italian(table):
    from banco.cli.web.choices import line_in

    assert line_in("decline", "it") == "rifiuta"
    assert line_in("roll 3 3", "it") == "tira 3 3"
    assert line_in("card probabilita 11 pay", "it") == "carta probabilita 11 paga"
    assert line_in("decline", "en") == "decline"
    act(table, "Anna", "roll 3 4")
    doc = table.get("/api/table?lang=it").json()
    assert doc["rules_text"] == "classico" and doc["commands"][0]["line"] == "tira 3 4"
    assert doc["happened"][0].startswith("Anna ha tirato 3+4: su ")
    said = table.get("/api/table", headers=auth(table.keys["banker"])).json()
    assert said["undo"]["line"] == "roll 3 4"  # the page's language: English here


def test_the_check_sees_every_write_undo_too(recorded, tmp_path):
    """`undo` is checked on its typed command (turn.Undo) like any act before anything is
    appended, so a player's phone can never undo, whatever words reached it."""
    from banco.cli.library import Library
    from banco.cli.web.acts import NotPermitted, acting

    db = str(tmp_path / "game.db")
    shutil.copy(recorded, db)
    before = len(events(db))
    library = Library(db)
    try:
        actor, authorize = acting("player", "Anna", banker_only=False)
        for line in ("undo", "annulla"):
            said = library.execute(line, game=1, actor=actor, authorize=authorize)
            assert isinstance(said.refusal.error, NotPermitted) and said.events == ()
        said = library.execute("roll 3 4", game=1, actor=actor, authorize=authorize)
        assert said.refusal is None  # hers
        assert acting("banker", None, banker_only=False) == ("banker", None)
    finally:
        library.close()
    rows = events(db)[before:]
    assert {r["actor"] for r in rows} == {"Anna"} and rows[0]["data"]["line"] == "roll 3 4"
