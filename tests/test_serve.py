"""`banco serve`: the table's screen (the TV: no token).  The projection
(projections/readings/screen.py), the server's routes (cli/web/app.py), the page in headless
Chromium following commands as they are recorded, and the command line.  The roles and the
HTTP contract: tests/test_phones.py; the load benchmarks: tests/bench_serve.py,
tests/bench_phones.py."""

from __future__ import annotations

import hashlib
import http.client
import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys

import pytest
from chromium import EXECUTABLE, Chromium
from click.testing import CliRunner
from games import record

from banco.cli.main import cli
from banco.cli.web.app import choose_language
from banco.cli.web.hub import Table, open_read_only
from banco.cli.web.serve import start
from banco.ledger.book import Book
from banco.projections.readings.screen import cash_private, screen


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    """The classic-4p game, Anna to roll."""
    return record(str(tmp_path_factory.mktemp("serve") / "game.db"), "classic-4p")


@pytest.fixture
def db(recorded, tmp_path):
    """A copy of the recorded game that a test may add commands to."""
    path = str(tmp_path / "game.db")
    shutil.copy(recorded, path)
    return path


def say(db: str, *words: str) -> None:
    """Record one banker's command, at the real time (the server's clock runs too)."""
    result = CliRunner().invoke(cli, ["--db", db, *words])
    assert result.exit_code == 0, result.output


def table(db: str, game: int = 1):
    book = Book(db, create=False)
    try:
        return book.state(game), book.events(game)
    finally:
        book.close()


@pytest.fixture
def served(db):
    """The server on a free port, polling the book every 50 ms: (db, base URL)."""
    base, _, stop = start(db, port=0, poll=0.05)
    yield db, base
    stop()


def request(base: str, method: str, path: str, headers: dict | None = None,
            body: bytes | None = None):
    host, port = base.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=30)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        return response.status, {k.title(): v for k, v in response.getheaders()}, response.read()
    finally:
        conn.close()


# --- the screen's document ------------------------------------------------------------------

def test_the_document_holds_the_table_and_an_open_claim_until_the_closer_rolls(db):
    say(db, "roll", "3", "4")  # Anna lands on Carla's Piazza Università
    state, events = table(db)
    doc = screen(state, events)
    json.dumps(doc)  # plain data
    (claim,) = doc["claims"]
    (open_claim,) = state.claims
    assert claim == {"payer": "Anna", "owner": "Carla", "property": "Piazza Università",
                     "amount": open_claim.amount,
                     "amount_text": state.edition.money(open_claim.amount),
                     "until": "Bruno", "after_turn_of": None}
    anna = next(p for p in doc["players"] if p["name"] == "Anna")
    assert anna["cash"] == state.player("Anna").cash
    assert anna["cash_text"] == state.edition.money(anna["cash"])
    assert anna["space"] == "Piazza Università"
    assert anna["jail_cards"] == len(state.player("Anna").jail_cards)
    assert [d["name"] for d in anna["deeds"]] == [
        s.name for s in state.edition.properties if state.owners[s.position] == "Anna"]
    square = doc["board"][state.player("Anna").position]
    assert "Anna" in [t["name"] for t in square["tokens"]]
    assert square["owner"] == "Carla"
    assert sum(len(s["tokens"]) for s in doc["board"]) == len(
        [p for p in state.players if not p.bankrupt])
    assert doc["commands"][0]["line"] == "roll 3 4" and doc["commands"][0]["seq"] < doc["seq"]
    assert len(doc["commands"]) == 8


def test_the_auction_in_progress_and_its_high_bid(banco):
    banco("new", "Anna", "Bruno", "Carla")
    banco("roll", "1", "2")  # Anna on Vicolo Stretto, for sale
    banco("decline")
    banco("bid", "Bruno", "70")
    state, events = table(banco.db)
    auction = screen(state, events)["auction"]
    assert auction["property"] == state.edition.space(3).name
    assert (auction["high_bidder"], auction["high_bid"]) == ("Bruno", 70)
    assert auction["high_bid_text"] == state.edition.money(70)


def test_cash_is_hidden_under_the_championship_rules_unless_the_banker_shows_it(banco):
    banco("new", "Anna", "Bruno", "Carla", "--rules", "championship")
    state, events = table(banco.db)
    assert cash_private(state) == "000 FAQ 4"
    hidden = screen(state, events)
    assert not hidden["cash_shown"] and hidden["cash_rule"] == "000 FAQ 4"
    assert {p["cash"] for p in hidden["players"]} == {None}
    assert {p["cash_text"] for p in hidden["players"]} == {None}
    shown = screen(state, events, show_cash=True)
    assert [p["cash"] for p in shown["players"]] == [1500, 1500, 1500]


def test_cash_is_shown_under_the_classic_rules_unless_the_banker_hides_it(db):
    state, events = table(db)
    assert cash_private(state) is None
    assert [p["cash"] for p in screen(state, events)["players"]] == [p.cash for p in state.players]
    assert {p["cash"] for p in screen(state, events, show_cash=False)["players"]} == {None}


def test_whether_cash_is_shown_is_the_rule_set_s_data(banco, tmp_path):
    from banco.ledger.board.rule_sets import RuleSet, load_rules

    # a house-rules file says it, and cites its own section
    path = tmp_path / "casa.toml"
    path.write_text('extends = "classic"\nname = "casa"\ncash_disclosed = false\n'
                    '[cite]\ncash = "casa §3"\n', encoding="utf-8")
    load_rules.cache_clear()
    banco("new", "Anna", "Bruno", "--rules", str(path))
    state, events = table(banco.db)
    assert cash_private(state) == "casa §3"
    assert {p["cash"] for p in screen(state, events)["players"]} == {None}
    # a game recorded before the rule sets said it keeps what its rulebook says: 000 FAQ 4
    # lets a championship player keep his cash to himself, the other rulebooks are silent
    for name, private in (("championship", "000 FAQ 4"), ("classic", None), ("vintage", None)):
        params = load_rules(name).params()
        del params["cash_disclosed"]
        params["cite"] = {k: v for k, v in params["cite"].items() if k != "cash"}
        old = RuleSet.from_params(params)
        assert old.cash_disclosed is (private is None)
        assert (None if old.cash_disclosed else old.cite["cash"]) == private


# --- the language ---------------------------------------------------------------------------

@pytest.mark.parametrize("header, lang", [
    ("it-IT,it;q=0.9,en-US;q=0.8,en;q=0.7", "it"),
    ("en-GB,en;q=0.9,it;q=0.8", "en"),
    ("de-DE,de;q=0.9,it;q=0.5", "it"),  # the first language banco speaks
    ("en;q=0.4, it;q=0.6", "it"),  # by preference, not by order
    ("it;q=0", "en"),  # q=0: not wanted
    ("fr", "en"), ("", "en"), (None, "en"), ("it;q=abc", "en"),
])
def test_the_browser_chooses_the_language(header, lang):
    assert choose_language(header) == lang


def test_the_bankers_lang_wins_over_the_browser():
    assert choose_language("it-IT,it", "en") == "en"


def test_the_page_speaks_italian_to_an_italian_browser(served):
    _, base = served
    status, headers, body = request(base, "GET", "/", {"Accept-Language": "it-IT,it;q=0.9"})
    html = body.decode()
    assert status == 200 and headers["Content-Language"] == "it"
    assert '<html lang="it">' in html
    words = json.loads(re.search(r'<script id="words"[^>]*>(.*?)</script>', html, re.S)[1])
    assert words["until"] == "finché {name} non tira i dadi"
    assert words["claims"] == "richieste di affitto aperte"
    english = request(base, "GET", "/", {"Accept-Language": "en"})[2].decode()
    assert '<html lang="en">' in english and "until {name} rolls" in english


# --- the server -----------------------------------------------------------------------------

def test_the_routes_give_the_page_and_the_table(served):
    db, base = served
    status, headers, body = request(base, "GET", "/")
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert "default-src 'none'" in headers["Content-Security-Policy"]
    html = body.decode()
    assert "http://" not in html and "https://" not in html  # nothing from a CDN
    status, headers, body = request(base, "GET", "/table.json")
    state, events = table(db)
    doc = json.loads(body)
    assert status == 200 and headers["Content-Type"].startswith("application/json")
    # words, no line; she rolls again after her doubles, as the terminal says (the trial)
    assert doc["seq"] == state.seq
    assert doc["next"] == "Anna rolls again (doubles): roll the dice", doc["next"]
    # the page carries the same table, drawn before the first event arrives
    embedded = json.loads(re.search(r'<script id="table"[^>]*>(.*?)</script>', html, re.S)[1])
    assert embedded == doc and doc["role"] == "viewer"
    assert request(base, "HEAD", "/")[2] == b""
    # a HEAD of the stream answers its headers and ends (it was a 404)
    status, headers, body = request(base, "HEAD", "/events")
    assert status == 200 and headers["Content-Type"].startswith("text/event-stream")
    assert body == b""


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH"])
def test_the_pages_take_no_writes(served, method):
    """Writes go to POST /api/commands with a token (tests/test_phones.py), nowhere else."""
    db, base = served
    before = hashlib.sha256(open(db, "rb").read()).hexdigest()
    status, headers, body = request(base, method, "/")
    assert status == 405
    assert request(base, method, "/table.json")[0] == 405
    assert hashlib.sha256(open(db, "rb").read()).hexdigest() == before


@pytest.mark.parametrize("path", ["/../../etc/passwd", "/static/table.html", "/cli/serve.py",
                                  "/table.html", "/%2e%2e/pyproject.toml", "/index.html",
                                  "//etc/passwd", "/table.json/x"])
def test_paths_outside_the_routes_are_not_found(served, path):
    status, _, body = request(served[1], "GET", path)
    assert status == 404
    assert b"<" not in body  # no file was served, only the refusal


def test_the_connection_cannot_write(db):
    os.chmod(db, 0o644)  # a file the user could write: the server's connection still cannot
    book = open_read_only(db)
    try:
        assert book.state(1).seq > 0
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            book.store.conn.execute("DELETE FROM meta")
    finally:
        book.close()


def test_events_stream_the_table_as_it_changes(served):
    db, base = served
    host, port = base.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=30)
    conn.request("GET", "/events")
    response = conn.getresponse()
    assert response.getheader("Content-Type").startswith("text/event-stream")

    def next_doc():
        line = response.fp.readline()
        while not line.startswith(b"data: "):
            line = response.fp.readline()
        response.fp.readline()  # the blank line that ends the event
        return json.loads(line[6:])

    first = next_doc()
    say(db, "roll", "3", "4")
    second = next_doc()
    conn.close()
    assert second["seq"] > first["seq"]
    assert [c["until"] for c in second["claims"]] == ["Bruno"]


def test_the_screen_follows_the_latest_game_unless_one_is_named(db):
    say(db, "new", "Ugo", "Vera")
    for game, expected in ((None, ["Ugo", "Vera"]), (1, ["Anna", "Bruno", "Carla", "Dario"])):
        watcher = Table(db, game, None, poll=0.05).start()
        try:
            doc = watcher.doc("en")[1]
            assert [p["name"] for p in doc["players"]] == expected
        finally:
            watcher.close()


# --- in a browser ---------------------------------------------------------------------------

needs_chromium = pytest.mark.skipif(
    EXECUTABLE is None, reason="headless Chromium is not installed (Debian: apt-get install "
                               "chromium; .ci/run installs it where it can)")


@needs_chromium
def test_the_page_shows_new_cash_and_the_open_claim_within_a_second(served):
    db, base = served
    with Chromium() as browser:
        tab = browser.open(base + "/")
        state, _ = table(db)
        cash = 'document.querySelector("[data-player=Anna] .cash").textContent'
        assert tab.eval(cash) == state.edition.money(state.player("Anna").cash)
        assert tab.eval('document.getElementById("claims").textContent') == "no claim open"

        say(db, "roll", "3", "4")  # Anna owes Carla rent: a claim until Bruno rolls
        state, _ = table(db)
        (claim,) = state.claims
        # The server looks every 50 ms here (200 ms at the table) and pushes the change; how
        # soon is tests/bench_serve.py's figure, never a timed assertion (a loaded CI machine
        # once took over the second this wait used to allow): here, that it comes at all.
        tab.wait_for(f"document.body.dataset.seq == '{state.seq}'")
        text = tab.eval('document.getElementById("claims").textContent')
        assert text == (f"Carla may claim {state.edition.money(claim.amount)} from Anna for "
                        f"Piazza Università until Bruno rolls")
        assert tab.eval('document.querySelector("[data-pos=\'14\'] .tok").title') == "Anna"

        say(db, "claim", "Carla")
        state, _ = table(db)
        paid = state.edition.money(state.player("Anna").cash)
        tab.wait_for(f"{cash} == {json.dumps(paid)}")
        assert tab.eval('document.getElementById("claims").textContent') == "no claim open"
        assert tab.eval('document.querySelector("#commands li").textContent').endswith(
            "claim Carla")
        assert browser.console == []


@needs_chromium
def test_an_italian_page_of_a_championship_auction_hides_the_cash(banco):
    banco("new", "Anna", "Bruno", "Carla", "--rules", "championship")
    base, _, stop = start(banco.db, port=0, lang="it", poll=0.05)  # the banker's --lang it
    try:
        with Chromium() as browser:
            tab = browser.open(base + "/")
            assert tab.eval("document.documentElement.lang") == "it"
            banco("roll", "1", "2")  # Anna on Vicolo Stretto
            banco("decline")
            banco("bid", "Bruno", "70")
            state, _ = table(banco.db)
            tab.wait_for(f"document.body.dataset.seq == '{state.seq}'")
            # the TV's line says the auction and who leads; the box under it said it again
            assert tab.eval('document.getElementById("next").textContent').replace(
                "\u00a0", " ").startswith(f"asta per {state.edition.space(3).name}: in testa "
                                           f"Bruno con {state.edition.money(70)}")
            # the banker's page too: its step says who leads, and no box under it again
            from banco.ledger.store import tokens

            key = tokens.issue(banco.db, "banker", 1, "2026-11-29T21:00:00Z")[0]
            banker = browser.open(f"{base}/banker#t={key}")
            banker.wait_for(f"document.body.dataset.seq == '{state.seq}' && "
                            "document.body.dataset.role === 'banker'")
            assert banker.eval('document.getElementById("next-b").textContent').replace(
                "\u00a0", " ").startswith(f"l'asta per {state.edition.space(3).name} è aperta "
                                           f"(Bruno è in testa con {state.edition.money(70)})")
            for page in (tab, banker):
                assert page.eval('document.getElementById("auction")') is None
            assert tab.eval('[...document.querySelectorAll(".player .cash")]'
                            '.map(e => e.textContent)') == ["•••"] * 3
            assert tab.eval('document.getElementById("cashnote").textContent').startswith(
                "contanti non mostrati (000 FAQ 4")
            assert browser.console == []
    finally:
        stop()


# --- the command line -----------------------------------------------------------------------

def test_a_file_serve_cannot_use_is_said_before_listening(tmp_path, banco):
    """A missing file is created (the banker's page starts the games, issue 34); one that
    cannot be, or is not banco's, or a game that is not there, is said before listening."""
    nowhere = str(tmp_path / "no such folder" / "x.db")
    said = CliRunner().invoke(cli, ["--db", nowhere, "serve", "--port", "0"])
    assert said.exit_code == 4 and "does not exist" in said.output, said.output
    conn = sqlite3.connect(banco.db)
    conn.execute("CREATE TABLE other (x)")  # somebody else's database
    conn.close()
    assert "not banco's" in banco("serve", code=4).output
    fresh = str(tmp_path / "fresh.db")
    said = CliRunner().invoke(cli, ["--db", fresh, "serve", "--game", "3", "--port", "0"])
    assert said.exit_code == 2 and "no game 3" in said.output, said.output


def test_serve_on_a_new_file_creates_it_and_pairs_the_bankers_page(tmp_path):
    """`banco serve` first: the file made, the banker's link printed, and with its token the
    page starts the game (the routes: tests/test_phones_evening.py)."""
    db = str(tmp_path / "sera.db")
    proc, lines = _serve(db)
    try:
        lines += [proc.stdout.readline() for _ in range(2)]
        assert lines[1] == f"created {db}: start the game from the banker's page\n", lines
        link = re.search(r"open (http://127\.0\.0\.1:\d+)/banker#t=(bt_[\w-]+)", lines[2])
        assert link, lines
        status, _, body = request(link[1], "GET", "/api/games",
                                  {"Authorization": "Bearer " + link[2]})
        assert status == 200 and json.loads(body)["games"] == []
        status, _, body = request(link[1], "POST", "/api/games",
                                  {"Authorization": "Bearer " + link[2]},
                                  json.dumps({"players": ["Anna", "Bruno"]}).encode())
        assert status == 201 and json.loads(body)["game"] == 1
    finally:
        proc.terminate()
        proc.wait(5)
        proc.stdout.close()
        proc.stderr.close()


def test_a_port_in_use_is_a_usage_error(db):
    base, _, stop = start(db, port=0)
    try:
        port = int(base.rsplit(":", 1)[1])
        result = CliRunner().invoke(cli, ["--db", db, "serve", "--port", str(port)])
        assert result.exit_code == 2, result.output
        assert f"cannot listen on 127.0.0.1:{port}" in result.output
        assert "choose another --port" in result.output
    finally:
        stop()


def test_a_host_that_does_not_resolve_is_named_as_the_host(db):
    result = CliRunner().invoke(cli, ["--db", db, "serve", "--host", "no such host.invalid",
                                      "--port", "0"])
    assert result.exit_code == 2, result.output
    assert "cannot listen on no such host.invalid: " in result.output
    assert "--host takes this machine's name or address" in result.output
    assert "--port" not in result.output.split("--host takes")[0]


def _serve(db: str, *args: str) -> tuple[subprocess.Popen, list[str]]:
    """`banco serve` as a process, and what it printed before serving."""
    proc = subprocess.Popen([sys.executable, "-m", "banco.cli.main", "--db", db, "serve", "--port",
                             "0", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    lines = [proc.stdout.readline()]
    return proc, lines


def test_the_command_prints_its_url_and_serves_until_stopped(db):
    proc, lines = _serve(db)
    try:
        url = re.match(r"the table is on (http://127\.0\.0\.1:\d+/) \(`banco token`", lines[0])
        assert url, lines
        assert request(url[1].rstrip("/"), "GET", "/table.json")[0] == 200
        proc.send_signal(signal.SIGINT)  # Ctrl-C: the way to stop it, not an error
        assert proc.wait(5) == 0
        rest = proc.stdout.read()  # the banker's link and its QR code, then
        assert rest.startswith("the banker's page (token ") and rest.endswith("\nstopped\n")
    finally:
        if proc.poll() is None:
            proc.terminate()
            proc.wait(5)
        proc.stdout.close()
        proc.stderr.close()


def test_on_the_network_it_prints_a_qr_code_for_the_phones(db):
    proc, lines = _serve(db, "--host", "0.0.0.0")
    try:
        lines += [proc.stdout.readline() for _ in range(3)]
        url = re.match(r"the table is on (http://[\d.]+:\d+)/", lines[0])
        assert url, lines
        assert lines[1].startswith("for the TV: scan the code")
        # the address it prints is one the Host allowlist takes (DNS rebinding: issue 32)
        assert request(url[1], "GET", "/table.json")[0] == 200
        assert request(url[1], "GET", "/table.json", {"Host": "evil.example"})[0] == 400
        assert set("".join(lines[2:]).strip()) <= set("█▀▄ \n")  # segno's compact blocks
        assert "█" in lines[3]
    finally:
        proc.terminate()
        proc.wait(5)
        proc.stdout.close()
        proc.stderr.close()


def test_the_bankers_lang_sets_the_page_for_every_browser(db):
    proc, lines = _serve(db, "--lang", "it")
    try:
        url = re.match(r"il tavolo è su (http://127\.0\.0\.1:\d+)/ ", lines[0])
        assert url, lines
        status, headers, body = request(url[1], "GET", "/", {"Accept-Language": "en-GB,en"})
        assert headers["Content-Language"] == "it" and '<html lang="it">' in body.decode()
    finally:
        proc.terminate()
        proc.wait(5)
        proc.stdout.close()
        proc.stderr.close()


def test_banker_only_keeps_a_players_acts_the_bankers(db):
    """`serve --banker-only`: Anna's phone may not roll even on her turn (issue 34); without
    it she may (tests/test_phones_evening.py).  `--no-pair` prints no banker's link."""
    from banco.ledger.store import tokens

    anna = tokens.issue(db, "player", 1, "2026-11-29T21:00:00Z", "Anna")[0]
    proc, lines = _serve(db, "--banker-only", "--no-pair")
    try:
        base = re.match(r"the table is on (http://127\.0\.0\.1:\d+)/", lines[0])[1]
        status, _, body = request(base, "POST", "/api/commands",
                                  {"Authorization": "Bearer " + anna},
                                  json.dumps({"line": "roll 3 4"}).encode())
        assert status == 403 and "banker's to record" in json.loads(body)["error"], body
        proc.send_signal(signal.SIGINT)
        assert proc.wait(5) == 0 and proc.stdout.read() == "stopped\n"
    finally:
        if proc.poll() is None:
            proc.terminate()
            proc.wait(5)
        proc.stdout.close()
        proc.stderr.close()
