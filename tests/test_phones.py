"""The table on phones (issue 18): the HTTP contract of `banco serve`, through Starlette's
TestClient, and the tokens.  The roles' rules alone: tests/test_permissions.py; the pads' side:
tests/test_phones_pads.py; a real browser: tests/test_phones_browser.py."""

from __future__ import annotations

import json

import phones_tables
import pytest
from click.testing import CliRunner
from phones_tables import NOW, auth, make_client, post, seq

from banco.cli.main import cli
from banco.ledger.book import Book
from banco.ledger.store import keyring, tokens

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx`")
# the fixtures the phones' HTTP tests share (tests/phones_tables.py)
recorded, db, client = phones_tables.recorded, phones_tables.db, phones_tables.client


@pytest.fixture
def keys(db):
    return {name: tokens.issue(db, role, 1, NOW, player)[0] for name, role, player in (
        ("banker", "banker", None), ("carla", "player", "Carla"), ("anna", "player", "Anna"),
        ("referee", "referee", None), ("viewer", "viewer", None))}


# --- the tokens -----------------------------------------------------------------------------

def test_a_token_is_random_stored_hashed_and_bound_to_its_game(db):
    secret, row = tokens.issue(db, "player", 1, NOW, "Carla")
    assert secret.startswith("bt_") and len(secret) >= 3 + 32  # 192 bits, url-safe
    raw = open(db, "rb").read()
    assert secret.encode() not in raw and tokens.digest(secret).encode() in raw
    found = keyring.Keyring(db).find(secret)
    assert (found.role, found.player, found.game) == ("player", "Carla", 1)
    assert keyring.Keyring(db).find(secret[:-1] + ("A" if secret[-1] != "A" else "B")) is None
    assert keyring.Keyring(db).find("") is None


def test_the_command_issues_lists_and_revokes(db):
    run = CliRunner()
    said = run.invoke(cli, ["--db", db, "token", "player", "carla", "--json", "--url",
                            "http://10.0.0.5:8000/"])
    assert said.exit_code == 0, said.output
    doc = json.loads(said.output)
    assert set(doc) == {"role", "player", "game", "token", "url"}
    assert doc["player"] == "Carla" and doc["game"] == 1
    assert doc["url"] == f"http://10.0.0.5:8000/player#t={doc['token']}"  # in the fragment
    text = run.invoke(cli, ["--db", db, "token", "banker", "--url", "http://h:1/"]).output
    assert "http://h:1/banker#t=bt_" in text and "█" in text  # the link and its QR code
    listed = run.invoke(cli, ["--db", db, "token", "--list"]).output
    assert doc["token"] not in listed and doc["token"][3:11] in listed
    assert run.invoke(cli, ["--db", db, "token", "--revoke", doc["token"][3:11]]).exit_code == 0
    assert keyring.Keyring(db).find(doc["token"]) is None
    assert run.invoke(cli, ["--db", db, "token", "player"]).exit_code == 2
    assert run.invoke(cli, ["--db", db, "token", "player", "Zeno"]).exit_code == 2
    assert run.invoke(cli, ["--db", db, "token", "--revoke", "nothing"]).exit_code == 2


@pytest.mark.parametrize("url", ["notaurl", "192.168.1.20:8000", "ftp://h/", "http://:80/",
                                 "http://h:99999/", "http://h:port/", "http://h/?a=1"])
def test_a_url_the_phones_cannot_open_is_a_usage_error_and_issues_nothing(db, url):
    """`--url notaurl` issued a token whose link was `notaurl/#t=...`."""
    said = CliRunner().invoke(cli, ["--db", db, "token", "viewer", "--url", url])
    assert said.exit_code == 2, said.output
    assert "is not the server's address" in said.output and "http://HOST[:PORT]/" in said.output
    assert tokens.listed(db, 1) == []


# --- reading --------------------------------------------------------------------------------

def test_the_page_is_strict_and_ships_everything_itself(client):
    r = client.get("/")
    csp = r.headers["content-security-policy"]
    assert "default-src 'none'" in csp and "script-src 'self'" in csp
    assert "unsafe-inline" not in csp
    assert "http://" not in r.text and "https://" not in r.text
    assert "<script>" not in r.text  # no inline script: only data blocks and /static/app.js
    for name in ("app.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200
    for path in ("/static/page.html", "/static/../serve.py", "/static/%2e%2e/app.py",
                 "/etc/passwd", "/api/nothing"):
        assert client.get(path).status_code == 404, path


def test_names_in_the_page_are_escaped(db, client):
    CliRunner().invoke(cli, ["--db", db, "new", "</script><b>x", "Bea"])
    html = client.get("/").text
    assert "</script><b>" not in html


def test_the_table_is_state_json_as_the_role_may_see_it(client, keys):
    viewer = client.get("/api/table").json()
    assert viewer["role"] == "viewer" and viewer["offers"] == []
    # the TV says the step in words: nobody types at it
    assert viewer["state"]["seq"] == viewer["seq"]
    assert viewer["next"] == "Anna rolls again (doubles): roll the dice"  # as the terminal
    banker = client.get("/api/table", headers=auth(keys["banker"])).json()
    assert banker["role"] == "banker" and banker["cash_shown"]
    carla = client.get("/api/table", headers=auth(keys["carla"])).json()
    assert (carla["role"], carla["player"]) == ("player", "Carla")
    assert client.get("/api/table", headers=auth("bt_wrong")).status_code == 401
    assert client.get("/api/table", headers={"Authorization": "Basic x"}).status_code == 401


def test_hidden_cash_stays_hidden_but_a_player_sees_his_own(tmp_path):
    from banco.cli.web.app import Hub

    db = str(tmp_path / "c.db")
    run = CliRunner()
    for line in (["new", "Anna", "Bruno", "Carla", "--rules", "championship"],
                 ["roll", "1", "2"], ["buy"], ["roll", "6", "5"], ["roll", "1", "2"]):
        assert run.invoke(cli, ["--db", db, *line]).exit_code in (0, 1)
    bruno = tokens.issue(db, "player", 1, NOW, "Bruno")[0]
    banker = tokens.issue(db, "banker", 1, NOW)[0]
    hub = Hub(db, None, poll=0.05)
    with make_client(hub) as c:
        for headers in ({}, auth(bruno)):
            doc = c.get("/api/table", headers=headers).json()
            shown = {p["name"]: p["cash"] for p in doc["players"]}
            state = {p["name"]: p["cash"] for p in doc["state"]["players"]}
            assert shown["Anna"] is None and state["Anna"] is None
            assert (shown["Bruno"] is not None) == bool(headers) == (state["Bruno"] is not None)
            assert " in cash" not in doc["next"]
        full = c.get("/api/table", headers=auth(banker)).json()
        assert None not in {p["cash"] for p in full["players"]}
    hub.close()


def test_hidden_cash_does_not_leak_through_next():
    from banco.cli.words.i18n import N_  # noqa: F401 - the catalog's marker, for the message below
    from banco.ledger.base.text import Joined, msg
    from banco.projections.readings.screen import discreet

    step = Joined([msg("{debtor} owes {to} with {cash} in cash: raise {amount} (`sell`, "
                       "`mortgage`, `trade`), then `pay {debtor}`", debtor="Anna", to="200 M",
                       cash="315 M", amount="85 M"), msg("x")], "; ")
    said = discreet(step, lambda name: True)
    assert "315" not in said and "85" not in said and "`pay Anna`" in said
    assert "315 M" in discreet(step, lambda name: False)


# --- writing --------------------------------------------------------------------------------

def test_a_banker_line_answers_the_events_and_the_words(db, client, keys):
    before = seq(db)
    r = post(client, keys["banker"], "roll 3 4", id="k1", expect=before)
    assert r.status_code == 200
    body = r.json()
    assert body["code"] == 0 and "Anna rolls 3+4 = 7" in body["said"]
    assert [e["type"] for e in body["events"]][0] == "CommandRecorded"
    assert body["seq"] == seq(db) > before
    again = post(client, keys["banker"], "roll 3 4", id="k1", expect=before)
    assert again.status_code == 200 and again.json()["replayed"] and seq(db) == body["seq"]


def test_the_same_id_is_applied_once_even_after_a_restart(db, keys):
    from banco.cli.web.app import Hub

    after = []
    for _ in range(2):  # a server restarted between the send and the retry
        hub = Hub(db, None, poll=0.05)
        with make_client(hub) as c:
            r = post(c, keys["banker"], "roll 3 4", id="same")
            assert r.status_code == 200
        hub.close()
        after.append(seq(db))
    assert after[0] == after[1] and r.json()["replayed"]


def test_an_id_given_again_with_another_line_is_refused_as_the_command_line_refuses_it(
        db, keys):
    """`roll 1 2` then `undo` under one id: the undo was answered 200 `replayed` with the
    roll's words and never ran; it is the command line's usage error, in memory and after a
    restart alike, while the same line again stays a replay."""
    from banco.cli.web.app import Hub

    recorded = None
    for _ in range(2):  # the second server remembers nothing: the book refuses it
        hub = Hub(db, None, poll=0.05)
        with make_client(hub) as c:
            if recorded is None:
                assert post(c, keys["banker"], "roll 1 2", id="same").status_code == 200
                recorded = seq(db)
            r = post(c, keys["banker"], "undo", id="same")
            assert r.status_code == 400 and r.json()["code"] == 2, r.json()
            assert not r.json()["replayed"] and seq(db) == recorded
            assert r.json()["errors"].startswith(
                "error: the id same already recorded “roll 1 2” (events "), r.json()
            again = post(c, keys["banker"], "roll 1 2", id="same")
            assert again.status_code == 200 and again.json()["replayed"]
            assert seq(db) == recorded
        hub.close()


def test_an_id_that_recorded_nothing_may_be_given_to_the_corrected_line(db, client, keys):
    assert post(client, keys["banker"], "roll 9 9", id="k").status_code == 400
    r = post(client, keys["banker"], "roll 1 2", id="k")
    assert r.status_code == 200 and not r.json()["replayed"] and r.json()["events"]


def test_a_refusal_is_422_with_its_rule_and_what_is_allowed(db, client, keys):
    before = seq(db)
    r = post(client, keys["banker"], "buy")
    assert r.status_code == 422
    body = r.json()
    assert body["rule"] and body["refused"].startswith("cannot buy now")
    assert "roll" in body["allowed"] and seq(db) == before


def test_italian_words_for_an_italian_phone(client, keys):
    r = client.post("/api/commands", json={"line": "buy"},
                    headers={**auth(keys["banker"]), "Accept-Language": "it-IT,it"})
    assert r.status_code == 422 and r.json()["refused"].startswith("impossibile comprare")
    # what is allowed too, in the phone's language and words (it came out English, `roll`)
    allowed = r.json()["allowed"]
    assert "tira" in allowed and "roll" not in allowed and "to `" not in allowed, allowed


def test_the_roll_button_says_the_word_the_banker_types():
    """`tira 3 4` on an Italian page (the line it sends), not the infinitive of the rules'
    sentences ("impossibile tirare ora")."""
    from banco.cli.web.hub import tr
    from banco.cli.web.words import words

    assert words(tr("it"))["roll"] == "tira" and words(tr("en"))["roll"] == "roll"
    # the other buttons too (they read "rifiutare"), and the field's hint lists the Italian
    # words under Italian (it listed "build, sell, mortgage")
    it = words(tr("it"))
    assert (it["decline"], it["decline_offer"], it["bid"]) == ("rifiuta", "rifiuta", "offerta")
    assert "costruisci, vendi, ipoteca" in it["line"] and "build" not in it["line"]
    assert words(tr("en"))["decline"] == "decline"
    assert tr("it").gettext("roll") == "tirare"  # the sentences' word stays


def test_a_usage_error_is_400_and_a_bad_body_too(db, client, keys):
    before = seq(db)
    r = post(client, keys["banker"], "roll 9 4")
    assert r.status_code == 400 and "a die shows 1 to 6" in r.json()["errors"]
    # no line, or no command at all, is the line's mistake, not the role's (it was 403)
    for line in ("", "   ", "# a comment"):
        r = post(client, keys["banker"], line)
        assert r.status_code == 400 and r.json()["error"] == "an empty line records nothing"
    for who in ("banker", "carla", "referee"):
        r = post(client, keys[who], "\U0001F3B2\U0001F3B2")
        assert r.status_code == 400, (who, r.json())
        assert "no command called '\U0001F3B2\U0001F3B2'" in r.json()["errors"]
    r = post(client, keys["banker"], "rol 3 4")
    assert r.status_code == 400 and "did you mean roll?" in r.json()["errors"]
    assert seq(db) == before
    # caps lock is no other word, as at the terminal (it was `ROLL` is not a table action)
    assert post(client, keys["banker"], "ROLL 3 4").status_code == 200
    r = post(client, keys["banker"], "claim Carla", expect=-1)  # it was 409, "moved past -1"
    assert r.status_code == 400 and "0 or more" in r.json()["error"]
    for body in ({}, {"line": 3}, {"line": "roll 1 2", "expect": "x"}, [],
                 {"line": "roll 1 2", "expect": True}):
        assert client.post("/api/commands", json=body,
                           headers=auth(keys["banker"])).status_code == 400
    assert client.post("/api/commands", content=b"{", headers=auth(keys["banker"])
                       ).status_code == 400


def test_a_pasted_page_is_refused_short_and_never_echoed_whole(db, client, keys, capfd):
    """A body past 16 KiB is 413 unread (declared or streamed in chunks); a line past 2,000
    characters is 400; a refusal and the server's log quote only the line's start."""
    from banco.cli.web.app import BODY_LIMIT, LINE_LIMIT

    before = seq(db)
    big = client.post("/api/commands", json={"line": "roll 3 4 " + "x" * BODY_LIMIT},
                      headers=auth(keys["banker"]))
    assert big.status_code == 413 and "larger than 16384 bytes" in big.json()["error"]

    def chunks():  # no Content-Length: the server still stops reading at the limit
        yield b'{"line": "'
        for _ in range(40):
            yield b"y" * 1024
        yield b'"}'
    streamed = client.post("/api/commands", content=chunks(), headers=auth(keys["banker"]))
    assert streamed.status_code == 413
    long = post(client, keys["banker"], "roll 3 4 " + "9" * LINE_LIMIT)
    assert long.status_code == 400
    assert f"at most {LINE_LIMIT} characters; this one has {LINE_LIMIT + 9}" in long.json()["error"]
    word = post(client, keys["banker"], "z" * 1500)
    assert word.status_code == 400 and len(word.json()["errors"]) < 200
    assert "z" * 39 + "…" in word.json()["errors"]
    word = post(client, keys["banker"], "backup " + "z" * 1500)
    assert word.status_code == 403 and len(word.json()["error"]) < 200
    err = capfd.readouterr().err
    assert "403" in err and max(len(line) for line in err.splitlines()) < 300
    assert seq(db) == before


def test_a_command_taken_back_is_listed_as_undone(db, client, keys):
    """The last commands on every page listed an undone command as if it stood (a final
    trial's `#27 trade ...` after two undos): each carries `undone`."""
    assert post(client, keys["banker"], "roll 3 4").status_code == 200
    assert post(client, keys["banker"], "undo").status_code == 200
    listed = client.get("/api/table", headers=auth(keys["anna"])).json()["commands"]
    assert [(c["line"], c["undone"]) for c in listed[:3]] == [
        ("undo", False), ("roll 3 4", True), ("card Imprevisti 14", False)]


def test_expect_behind_is_409_with_what_changed(db, client, keys):
    before = seq(db)
    assert post(client, keys["banker"], "roll 3 4").status_code == 200
    r = post(client, keys["banker"], "claim Carla", expect=before)
    assert r.status_code == 409
    assert [c["line"] for c in r.json()["changed"]] == ["roll 3 4"]
    assert r.json()["seq"] == seq(db)


@pytest.mark.parametrize("who, line", [
    ("carla", "roll 3 4"), ("anna", "claim Carla"), ("carla", "undo"), ("viewer", "roll 3 4"),
    ("referee", "roll 3 4"), ("banker", "ruling --help"), ("banker", "new A B"),
    ("banker", "roll 3 4 --game 2"), ("banker", "backup x.db"), (None, "roll 3 4"),
])
def test_a_role_that_may_not_is_403_appends_nothing_and_is_logged(db, client, keys, who, line,
                                                                  capfd):
    before = seq(db)
    headers = auth(keys[who]) if who else {}
    r = client.post("/api/commands", json={"line": line}, headers=headers)
    assert r.status_code == 403 and r.json()["error"]
    assert seq(db) == before
    assert "403" in capfd.readouterr().err
    if who in (None, "viewer"):  # no token said as such, and how a phone gets to record
        assert r.json()["error"].startswith("without a token, or with a viewer's, the page "
                                            "only shows the table"), r.json()
        # in quotes, no terminal's backticks; `banco` kept before a word only the terminal runs
        assert "“banco token banker”" in r.json()["error"], r.json()
        assert "`" not in r.json()["error"]


def test_a_player_claims_in_time_and_a_late_claim_leaves_its_evidence(db, client, keys):
    post(client, keys["banker"], "roll 3 4")  # Anna on Carla's Piazza Università
    doc = client.get("/api/table", headers=auth(keys["carla"])).json()
    assert [c["owner"] for c in doc["claims"]] == ["Carla"]
    r = post(client, keys["carla"], "claim carla")
    assert r.status_code == 200 and r.json()["code"] == 0
    post(client, keys["banker"], "card imprevisti 1")
    # Bruno rolls: Anna's next landing... a claim after the window closed is refused, kept
    post(client, keys["banker"], "roll 1 1")
    late = post(client, keys["carla"], "claim Carla")
    assert late.status_code == 422
    assert late.json()["evidence"] or late.json()["rule"]


def test_a_revoked_token_is_refused_at_once(db, client, keys):
    assert client.get("/api/table", headers=auth(keys["carla"])).status_code == 200
    tokens.revoke(db, keys["carla"][3:11], NOW)
    assert client.get("/api/table", headers=auth(keys["carla"])).status_code == 401
    assert post(client, keys["carla"], "claim Carla").status_code == 401


def test_wrong_tokens_in_a_row_are_slowed(client):
    import time

    start = time.monotonic()
    for _ in range(6):
        assert client.get("/api/table", headers=auth("bt_guess")).status_code == 401
    assert time.monotonic() - start >= 0.25 + 0.5  # the 4th, 5th and 6th waited


# --- the event stream -----------------------------------------------------------------------

def test_events_resume_from_last_event_id(db, keys):
    """The stream's first event, then nothing new for an id that is current."""
    import asyncio

    from banco.cli.web.app import Hub, make_app

    hub = Hub(db, None, poll=0.05)
    app = make_app(hub)

    async def first_event(headers: dict, timeout: float) -> bytes:
        got = bytearray()
        sent = asyncio.Event()

        async def receive():
            await sent.wait()
            return {"type": "http.disconnect"}

        async def send(message):
            if message["type"] == "http.response.body":
                got.extend(message.get("body", b""))
                if b"\n\n" in got:
                    sent.set()

        scope = {"type": "http", "method": "GET", "path": "/api/events", "raw_path":
                 b"/api/events", "query_string": b"", "headers": [
                     (k.lower().encode(), v.encode()) for k, v in headers.items()],
                 "client": ("127.0.0.1", 1), "server": ("t", 80), "scheme": "http",
                 "http_version": "1.1", "root_path": "", "app": app}
        try:
            await asyncio.wait_for(app(scope, receive, send), timeout)
        except TimeoutError:
            pass
        return bytes(got)

    async def main():
        async with app.router.lifespan_context(app):
            first = await first_event(auth(keys["banker"]), 2)
            event_id = first.split(b"\n")[0].removeprefix(b"id: ").decode()
            assert event_id.startswith("1:") and b"data: {" in first
            doc = json.loads(first.split(b"data: ", 1)[1].split(b"\n\n")[0])
            assert "state" not in doc and doc["board"] and doc["next"]  # the screen, no more
            quiet = await first_event({**auth(keys["banker"]), "Last-Event-ID": event_id}, 0.5)
            assert b"data:" not in quiet
            other = await first_event({**auth(keys["banker"]), "Last-Event-ID": "1:3:0"}, 2)
            assert b"data: {" in other
    asyncio.run(main())
    hub.close()


def test_the_table_a_line_leaves_is_the_one_the_log_folds_to(db, client, keys):
    """The writer shows its own fold and extends the screen's tail by the rows it wrote
    (no second read): after each line, the same table and the same last commands as a fresh
    read of the file gives, for a roll, a buy, a refused line and an undo."""
    from banco.projections.readings.screen import command_tail

    for line in ("roll 3 4", "claim Carla", "roll 1 1", "buy", "undo", "roll 9 9"):
        post(client, keys["banker"], line)
        table = client.hub.tables[1]
        book = Book(db, create=False)
        try:
            fresh = book.state(1)
            tail = command_tail(book.backwards(1, fresh.seq + 1))
        finally:
            book.close()
        assert table.state == fresh, line
        assert [(e["seq"], e["hash"]) for e in table.tail] == [(e["seq"], e["hash"])
                                                               for e in tail], line
        assert [e["data"] for e in table.tail] == [e["data"] for e in tail], line


def test_a_running_server_lets_the_write_ahead_log_be_checkpointed(db, client, keys):
    """Issue 19: while `serve` read, nothing was checkpointed, and deleting banco.db-wal lost
    what it held.  The watchers, the writer and the keyring hold no read transaction between
    looks: a checkpoint taken from outside while the server runs folds the whole log back."""
    import os
    import sqlite3

    client.get("/api/table", headers=auth(keys["carla"]))  # the game's watcher running
    for i in range(40):
        assert post(client, keys["banker"], "roll 1 2" if i % 2 == 0 else "undo").status_code \
            == 200
    outside = sqlite3.connect(db)
    try:
        busy, log, done = outside.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    finally:
        outside.close()
    assert (busy, log, done) == (0, 0, 0)
    assert os.path.getsize(db + "-wal") == 0
