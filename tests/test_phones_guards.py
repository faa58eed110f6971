"""What the table's server guards (issue 32): a paired player's consent to a trade however the
banker spells the line, the tokens `banco token --revoke` names, the Host a request may come
under (DNS rebinding), and what a viewer's screen keeps hidden under championship rules."""

from __future__ import annotations

import phones_tables
import pytest
from click.testing import CliRunner
from phones_tables import NOW, auth, make_client, seq, table

from banco.cli.main import cli
from banco.ledger.store import keyring, tokens

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx`")
# the fixtures the phones' HTTP tests share (tests/phones_tables.py)
recorded, db, client = phones_tables.recorded, phones_tables.db, phones_tables.client
keys = phones_tables.keys


# --- a paired player's consent ---------------------------------------------------------------

GIVE = "--give 10 --get 'piazza università'"


@pytest.mark.parametrize("line", [
    f"trade Anna Carla {GIVE} --lang en",
    f"trade Anna Carla {GIVE} --lang=en",
    f"trade --lang en Anna Carla {GIVE}",
    f"trade Anna --lang=it Carla {GIVE}",
    "trade Anna Carla --lang it --dai 10 --ricevi 'piazza università'",
    f"trade -- Anna Carla {GIVE}",
    f"scambia Anna Carla {GIVE} --lang en",
    f"TRADE anna CARLA {GIVE}", f"Scambia 'Anna' \"Carla\" {GIVE} # a comment",
    "scambia Anna Carla --dai 10 --ricevi piazza università --lang it",
])
def test_a_trade_with_a_paired_player_waits_for_him_however_the_banker_spells_it(
        db, client, keys, line):
    """`trade ... --lang en` did not parse as an offer and ran at once, without the paired
    player's consent: --lang (and the `--` that ends the options) are click's, not the trade's.
    Held as read, the very trade shown runs once both phones accept."""
    before = seq(db)
    r = client.post("/api/commands", json={"line": line}, headers=auth(keys["banker"]))
    assert r.status_code == 202, r.json()
    offer = r.json()["offer"]
    assert offer["waiting"] == ["Anna", "Carla"] and seq(db) == before
    assert offer["a_gives"]["cash"] == 10 and offer["b_gives"]["deeds"] == ["Piazza Università"]
    for who in ("anna", "carla"):
        done = client.post(f"/api/offers/{offer['id']}", json={"answer": "accept"},
                           headers=auth(keys[who]))
    assert done.status_code == 200 and seq(db) > before


def test_a_trade_is_never_run_unasked_while_the_table_is_not_shown(db, client, keys,
                                                                    monkeypatch):
    """A trade with a paired side, sent before the server's watcher had shown the table (its
    state None), was not held but run at once, without the player's consent: now refused,
    to retry (503), nothing recorded; once the table is shown it is held."""
    from banco.cli.web.hub import Table

    saved = dict(client.hub.tables)
    client.hub.tables.clear()  # tables made now never look: as a watcher that has not yet
    monkeypatch.setattr(Table, "_watch", lambda self: self.ready.set())
    monkeypatch.setattr(Table, "settle", lambda self, seq, timeout=2.0: None)
    before = seq(db)
    r = client.post("/api/commands", json={"line": f"trade Anna Carla {GIVE}"},
                    headers=auth(keys["banker"]))
    assert r.status_code == 503 and r.headers["retry-after"] == "1", r.json()
    assert seq(db) == before and client.hub.offers.pending == {}
    monkeypatch.undo()
    client.hub.tables.clear()
    client.hub.tables.update(saved)
    r = client.post("/api/commands", json={"line": f"trade Anna Carla {GIVE}"},
                    headers=auth(keys["banker"]))
    assert r.status_code == 202 and seq(db) == before


@pytest.mark.parametrize("who, line", [
    ("banker", f"trade Anna Carla {GIVE} --lang"),       # --lang with no value
    ("banker", f"trade Anna Carla {GIVE} --LANG en"),     # no option of banco's: an item
    ("banker", f"trade Anna Carla {GIVE} -- --lang en"),  # after `--`: words of the trade
    ("banker", f"trade Anna Carla {GIVE} --lang en --lang"),
    ("banker", "scambia Anna Carla --dai 10 --ricevi 'piazza università' --lang"),
    ("anna", f"trade Anna Carla {GIVE} --lang"),
])
def test_a_trade_line_that_does_not_read_is_refused_at_once_never_held(db, client, keys,
                                                                      who, line):
    """A trade ending in `--lang` with no value was held as an offer (its words read one way
    by the hold, another by the command) that could only fail once accepted: the line is read
    once, and what does not read is its usage refusal, at once, nothing held or recorded."""
    before = seq(db)
    r = client.post("/api/commands", json={"line": line}, headers=auth(keys[who]))
    assert r.status_code == 400 and r.json()["code"] == 2, r.json()
    assert "offer" not in r.json() and r.json()["errors"]
    assert client.get("/api/table", headers=auth(keys["banker"])).json()["offers"] == []
    assert seq(db) == before


def test_an_accepted_offer_runs_the_trade_shown_not_its_words_read_again(db, client, keys,
                                                                         monkeypatch):
    """The offer kept the banker's words and ran them again once accepted: what ran was
    whatever those words read as then.  Here they would read as another trade now (the
    parser's trade swapped for one that gives Carla 1 M more): the trade the phones were
    shown is what is recorded."""
    from banco.cli.lines import parse
    from banco.ledger.records.commands import Items, Trade

    before = seq(db)
    r = client.post("/api/commands", json={"line": f"trade Anna Carla {GIVE} --lang en"},
                    headers=auth(keys["banker"]))
    offer = r.json()["offer"]
    assert offer["a_gives"]["cash"] == 10 and offer["b_gives"]["deeds"] == ["Piazza Università"]
    other = Trade("Anna", "Carla", Items((), 11, 0), Items((), 0, 0), ())
    monkeypatch.setitem(parse.BUILDERS, "trade", lambda *args, **kwargs: other)
    for who in ("anna", "carla"):
        done = client.post(f"/api/offers/{offer['id']}", json={"answer": "accept"},
                           headers=auth(keys[who]))
    assert done.status_code == 200, done.json()
    traded = next(e["data"] for e in done.json()["events"] if e["type"] == "TradeCompleted")
    assert traded["a_gives"]["cash"] == 10 and traded["b_gives"]["properties"], traded
    after = table(db)
    square = next(s.position for s in after.edition.properties if s.name == "Piazza Università")
    assert after.owners[square] == "Anna"
    assert seq(db) > before


# --- a phone's line, however spelt, is what its typed command says ---------------------------

@pytest.mark.parametrize("who, line, status", [
    # Anna to roll: her phone rolls for her, never for another, whatever the spelling
    ("anna", "roll 3 4 --player=Anna --lang it", 200),
    ("anna", "tira 3 4 --giocatore Anna --lang=it", 200),
    # two players named: no one player read (a usage error, nothing recorded)
    ("anna", "ROLL 3 4 --player Bruno --player Anna", 400),
    ("anna", "roll 3 4 --player Anna --player Bruno", 400),
    ("anna", "roll 3 4 --player Anna --player Anna", 200),  # one player, twice
    ("anna", "roll 3 4 --player=Bruno --lang it", 403),
    ("anna", "roll 3 4 --lang", 400), ("anna", "roll 3 4 --LANG en", 400),
    ("anna", "roll 3 4 -- --lang en", 400), ("anna", "'roll' \"3\" 4 --lang en", 200),
    ("anna", "roll 3 4 --game 1", 403), ("anna", "roll 3 4 --id=k", 403),
    ("anna", "annulla", 403), ("anna", "HAMMER", 403),
    # Carla is not on turn: a roll for her is hers but the rules refuse it; one for Anna is not
    ("carla", "tira 3 4 --giocatore=Carla --lang en", 422),
    ("carla", "--lang en roll 3 4", 403), ("carla", "roll --lang=en 3 4", 403),
    ("carla", "TIRA 3 4", 403),
    ("banker", "roll 3 4 --lang", 400), ("banker", "roll 3 4 --game=1", 403),
    ("banker", "roll 3 4 -- --game 2", 400), ("banker", "ruling rent 3 --lang en", 403),
    ("banker", "TIRA 3 4 --lang=en", 200),
])
def test_a_phones_line_is_refused_or_run_exactly_as_its_typed_command_says(
        db, client, keys, who, line, status):
    before = seq(db)
    r = client.post("/api/commands", json={"line": line}, headers=auth(keys[who]))
    assert r.status_code == status, (line, r.json())
    if status == 200:
        rows = r.json()["events"]
        rolled = next(e for e in rows if e["type"] == "DiceRolled")
        assert rolled["data"]["player"] == "Anna"
        assert {e["actor"] for e in rows} == {"Anna" if who == "anna" else "banker"}
    else:
        assert seq(db) == before


def test_a_named_referee_records_as_the_referee_his_typed_command_names(db, client):
    """A named referee's token is held to the referee its typed correction records: another
    name is refused (403); `--referee` twice with two names reads as no one referee (a usage
    error, 400); its own name, in any case, is recorded as typed."""
    from banco.ledger.store import tokens as issued

    rita = issued.issue(db, "referee", 1, NOW, "Rita")[0]
    before = seq(db)
    for line, status in (("correct Anna 5 --reason test --referee Rita --referee Otto", 400),
                         ("correct Anna 5 --reason test --referee Otto --referee Rita", 400),
                         ("correggi Anna 5 --motivo test --arbitro=Otto", 403)):
        r = client.post("/api/commands", json={"line": line}, headers=auth(rita))
        assert r.status_code == status, (line, r.json())
        assert status == 400 or "Rita" in r.json()["error"], (line, r.json())
    assert seq(db) == before
    r = client.post("/api/commands", json={"line": "correct Anna 5 --reason test --referee "
                                                    "RITA --lang en"},
                    headers=auth(rita))
    assert r.status_code == 200, r.json()
    corrected = next(e for e in r.json()["events"] if e["type"] != "CommandRecorded")
    assert corrected["data"]["referee"] == "RITA", corrected  # as typed


# --- revoking a token ------------------------------------------------------------------------

@pytest.fixture
def chosen(db, monkeypatch):
    """Tokens whose secrets the test chose: two that begin with `-G`, two that share a label."""
    secrets = iter(["-GbankerAAAAAAAAAAAAAAAAAAAAAAAA", "-GcarlaBBBBBBBBBBBBBBBBBBBBBBBBBB",
                    "twinlabeCCCCCCCCCCCCCCCCCCCCCCCC", "twinlabeDDDDDDDDDDDDDDDDDDDDDDDD"])
    monkeypatch.setattr(tokens.secrets, "token_urlsafe", lambda n: next(secrets))
    return {name: tokens.issue(db, role, 1, NOW, player)[0] for name, role, player in (
        ("banker", "banker", None), ("carla", "player", "Carla"), ("twin1", "viewer", None),
        ("twin2", "referee", None))}


def revoke(db: str, given: str):
    return CliRunner().invoke(cli, ["--db", db, "token", "--revoke", given])


def live(db: str) -> set[str]:
    return {t.prefix for t in tokens.listed(db) if not t.revoked_at}


@pytest.mark.parametrize("form", ["whole", "link", "label", "bt_label"])
def test_a_token_is_revoked_by_the_whole_token_its_link_or_its_label(db, chosen, form):
    """The whole token and the pairing link failed ("no live token starts with bt_...") and
    the token stayed live."""
    secret = chosen["carla"]
    given = {"whole": secret, "link": f"http://10.0.0.5:8000/player#t={secret}",
             "label": secret[3:11], "bt_label": secret[:11]}[form]
    said = revoke(db, given)
    assert said.exit_code == 0, said.output
    assert said.output == "revoked -GcarlaB (player Carla)\n"
    assert keyring.Keyring(db).find(secret) is None
    assert live(db) == {"-Gbanker", "twinlabe"}
    assert secret not in said.output


def test_a_label_that_begins_like_a_token_is_revoked_by_it(db, monkeypatch):
    """A label's own letters may begin `bt_` (its secret `bt_bt_...`): `--revoke bt_p2dK6`,
    as `--list` shows it, found no token (a CI run's token met it)."""
    monkeypatch.setattr(tokens.secrets, "token_urlsafe",
                        lambda n: "bt_p2dK6" + "E" * 24)
    secret = tokens.issue(db, "player", 1, NOW, "Carla")[0]
    assert secret.startswith("bt_bt_p2dK6")
    said = revoke(db, "bt_p2dK6")
    assert said.exit_code == 0, said.output
    assert said.output == "revoked bt_p2dK6 (player Carla)\n"
    assert keyring.Keyring(db).find(secret) is None


@pytest.mark.parametrize("given, named", [
    ("-G", ["-Gbanker (banker, game 1)", "-GcarlaB (player Carla, game 1)"]),
    ("-Gc", ["-GcarlaB (player Carla, game 1)"]),
    ("twinlabe", ["twinlabe (viewer, game 1)", "twinlabe (referee, game 1)"]),
])
def test_a_prefix_shorter_than_the_label_or_shared_is_refused_with_the_tokens_it_names(
        db, chosen, given, named):
    """`--revoke -G` revoked the banker's own token, silently."""
    said = revoke(db, given)
    assert said.exit_code == 2, said.output
    assert ", ".join(named) in said.output and "nothing was revoked" in said.output
    assert live(db) == {"-Gbanker", "-GcarlaB", "twinlabe"}
    assert {keyring.Keyring(db).find(s).role for s in chosen.values()} == {
        "banker", "player", "viewer", "referee"}


def test_a_whole_token_is_told_apart_from_another_of_its_label(db, chosen):
    """Two tokens share a label: the whole token names one, by its digest; a whole token with
    a typo after the label names none, and revokes nothing."""
    typo = chosen["twin1"][:-1] + "X"
    said = revoke(db, typo)
    assert said.exit_code == 2 and "no live token is bt_twinlabe…" in said.output
    assert typo not in said.output
    assert revoke(db, chosen["twin2"]).exit_code == 0
    assert keyring.Keyring(db).find(chosen["twin2"]) is None
    assert keyring.Keyring(db).find(chosen["twin1"]).role == "viewer"
    again = revoke(db, chosen["twin2"])
    assert again.exit_code == 2 and "no live token is" in again.output
    assert revoke(db, "twinlabe").exit_code == 0  # the label now names one live token
    assert live(db) == {"-Gbanker", "-GcarlaB"}
    for nothing in ("", "bt_", "http://h:1/player", "zzzzzzzz"):
        assert revoke(db, nothing).exit_code == 2
    assert live(db) == {"-Gbanker", "-GcarlaB"}


# --- the Host a request comes under ------------------------------------------------------------

def get(base: str, path: str, host: str | None, headers: dict | None = None) -> int:
    import http.client

    address, port = base.removeprefix("http://").rsplit(":", 1)
    conn = http.client.HTTPConnection(address, int(port), timeout=30)
    try:
        conn.putrequest("GET", path, skip_host=True)
        if host is not None:
            conn.putheader("Host", host)
        for k, v in (headers or {}).items():
            conn.putheader(k, v)
        conn.endheaders()
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


def test_a_request_under_another_site_s_name_is_refused(db, keys):
    """Any Host was served: a page of another site whose name an attacker re-points at the
    table's address (DNS rebinding) could read the table.  The server answers the names it
    listens and is announced under, and 400 to any other, with or without a token."""
    from banco.cli.web.serve import start

    base, _, stop = start(db, port=0)
    port = base.rsplit(":", 1)[1]
    try:
        for host in (f"127.0.0.1:{port}", f"localhost:{port}", "localhost", f"[::1]:{port}",
                     f"LOCALHOST:{port}"):
            assert get(base, "/api/table", host) == 200, host
        for host in (f"evil.example:{port}", "evil.example", f"127.0.0.1.evil.example:{port}",
                     "www.localhost", "", None):
            assert get(base, "/api/table", host) == 400, host
            assert get(base, "/api/table", host, auth(keys["banker"])) == 400, host
            assert get(base, "/", host) == 400, host
    finally:
        stop()


def test_the_names_allowed_are_the_ones_serve_listens_and_is_announced_under():
    import socket

    from banco.cli.web.serve import allowed_hosts

    assert allowed_hosts("127.0.0.1", "127.0.0.1") == ["127.0.0.1", "[::1]", "localhost"]
    assert "tavolo" in allowed_hosts("Tavolo", "Tavolo")
    everywhere = allowed_hosts("0.0.0.0", "192.168.1.20")  # the LAN address it prints
    assert {"192.168.1.20", "127.0.0.1", "localhost", socket.gethostname().lower()} <= set(
        everywhere)
    assert "0.0.0.0" not in everywhere and "[fe80::1]" in allowed_hosts("fe80::1", "fe80::1")


# --- what a viewer's screen keeps hidden ------------------------------------------------------

PADS = {"estate", "undo", "no_bid", "no_bid_to", "debt_pad", "cards", "speedy"}


def test_a_viewer_token_under_championship_rules_sees_no_cash_and_no_pads(tmp_path):
    """A `viewer` token (the TV) shown every player's cash and the banker's pads under rules
    that hide cash (000 FAQ 4) failed no test: its table, its event stream and its page show
    what no token shows, and none of it."""
    import json

    from banco.cli.web.app import Hub

    db = str(tmp_path / "c.db")
    run = CliRunner()
    for line in (["new", "Anna", "Bruno", "Carla", "--rules", "championship"],
                 ["roll", "1", "2"], ["buy"], ["roll", "6", "5"], ["roll", "1", "2"]):
        assert run.invoke(cli, ["--db", db, *line]).exit_code in (0, 1)
    viewer = tokens.issue(db, "viewer", 1, NOW)[0]
    banker = tokens.issue(db, "banker", 1, NOW)[0]
    hub = Hub(db, None, poll=0.05)
    with make_client(hub) as c:
        full = c.get("/api/table", headers=auth(banker)).json()
        assert PADS <= set(full) and None not in {p["cash"] for p in full["players"]}
        for lang in ("en", "it"):
            doc = c.get(f"/api/table?lang={lang}", headers=auth(viewer)).json()
            assert doc["role"] == "viewer" and not doc["cash_shown"]
            assert {p["cash"] for p in doc["players"]} == {None}
            assert {p["cash"] for p in doc["state"]["players"]} == {None}
            assert not PADS & set(doc) and doc["offers"] == []
            anonymous = c.get(f"/api/table?lang={lang}").json()
            assert doc == anonymous  # the TV's token sees what no token sees
            _, streamed = hub.document(hub.keyring.find(viewer), lang, with_state=False)
            assert not PADS & set(streamed) and {p["cash"] for p in streamed["players"]} == {None}
            for p in full["players"]:  # no figure of the banker's view in any text either
                said = json.dumps(doc, ensure_ascii=False)
                assert f'"cash": {p["cash"]}' not in said
        page = c.get("/", headers=auth(viewer)).text
        assert '"cash_shown": false' in page and '"estate"' not in page
    hub.close()


def test_another_name_the_phones_use_is_allowed_by_the_banker(db):
    """Behind a reverse proxy, or under a name of the local network, the phones reach the
    server by a name it does not know: `--allow-host NAME` adds it; a pattern, a port or a
    path is refused before anything listens."""
    import os
    import re
    import signal
    import subprocess
    import sys

    from banco.cli.web.serve import allowed_hosts

    assert "tavolo.club.it" in allowed_hosts("0.0.0.0", "192.168.1.20", ("Tavolo.Club.IT",))
    for bad in ("*", "*.example", "tavolo.local:8000", "http://tavolo.local/", "a b", ""):
        said = CliRunner().invoke(cli, ["--db", db, "serve", "--port", "0", "--allow-host", bad])
        assert said.exit_code == 2 and "is not a host's name" in said.output, (bad, said.output)
    proc = subprocess.Popen([sys.executable, "-m", "banco.cli.main", "--db", db, "serve", "--port",
                             "0", "--allow-host", "tavolo.example"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        base = re.search(r"(http://127\.0\.0\.1:\d+)/", proc.stdout.readline())[1]
        assert get(base, "/api/table", "tavolo.example") == 200
        assert get(base, "/api/table", "tavolo.example:443") == 200
        assert get(base, "/api/table", "other.example") == 400
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(10)
        proc.stdout.close()
        proc.stderr.close()
