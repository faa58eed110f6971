"""Issue 22, live on PostgreSQL: `banco serve` on a database learns of every committed command
through LISTEN/NOTIFY (ledger/store/postgres_listen.py), not by looking at the log: two servers
on one database both show every table's commands at once, whether a command came through one's
banker console, the other's, or the terminal.  The watchers on PostgreSQL never poll (their
poll is None), so a stream that shows a command made elsewhere shows it because it was told.

On the run's throwaway server (tests/pg_cluster.py): skipped without one, failed with CI=true.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import subprocess
import sys
import time

import pg_cluster
import pytest
from click.testing import CliRunner
from games import record

from banco.cli.main import cli
from banco.cli.web.hub import open_read_only
from banco.cli.web.serve import start

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx`")
PATIENCE = 20  # seconds before a test gives up on a stream: a guard against a hang, not a limit


def banco(db: str, *words, code: int = 0) -> str:
    result = CliRunner().invoke(cli, ["--db", db, *map(str, words)], catch_exceptions=False)
    assert result.exit_code == code, (words, result.output)
    return result.output


def token(url: str, *words) -> str:
    return json.loads(banco(url, "token", *words, "--json"))["token"]


class Stream:
    """A server's /api/events as a token (None: the TV) sees it."""

    def __init__(self, base: str, secret: str | None = None):
        host, port = base.removeprefix("http://").rstrip("/").split(":")
        self.conn = http.client.HTTPConnection(host, int(port), timeout=PATIENCE)
        headers = {"Authorization": f"Bearer {secret}"} if secret else {}
        self.conn.request("GET", "/api/events", headers=headers)
        self.response = self.conn.getresponse()
        assert self.response.status == 200
        self.first = self.next()

    def next(self, deadline: float | None = None) -> dict:
        """The next document; past `deadline` (the stream's heartbeats keep the socket busy,
        so its timeout alone would wait for ever), a failure rather than a hang."""
        deadline = deadline or time.monotonic() + PATIENCE
        line = self.response.fp.readline()
        while not line.startswith(b"data: "):
            if time.monotonic() > deadline:
                pytest.fail("the stream did not show the command: no one told this server",
                            pytrace=False)
            line = self.response.fp.readline()
        return json.loads(line[6:])

    def until(self, game: int, seq: int) -> dict:
        """The first document showing `game` at `seq` or later."""
        deadline = time.monotonic() + PATIENCE
        doc = self.next(deadline)
        while (doc["game"], doc["seq"]) < (game, seq) or doc["game"] != game:
            doc = self.next(deadline)
        return doc

    def close(self) -> None:
        self.conn.close()


def post(base: str, secret: str, line: str) -> dict:
    host, port = base.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=PATIENCE)
    try:
        conn.request("POST", "/api/commands", body=json.dumps({"line": line}),
                     headers={"Authorization": f"Bearer {secret}",
                              "Content-Type": "application/json"})
        response = conn.getresponse()
        body = json.loads(response.read())
        assert response.status == 200, body
        return body
    finally:
        conn.close()


def last_seq(url: str, game: int) -> int:
    from banco.ledger.store.open import open_store

    store = open_store(url, create=False)
    try:
        return store.last_seq(game)
    finally:
        store.close()


@pytest.fixture(scope="module")
def recorded():
    """A database with game 1 (classic-4p, Anna to roll) and game 2 (Ugo, Vera)."""
    url, _ = pg_cluster.database()
    record(url, "classic-4p")
    banco(url, "new", "Ugo", "Vera")
    return url


@pytest.fixture
def two_servers(recorded):
    """Two servers on one new database holding the two games (copied from `recorded` the way
    a league brings games in: `banco copy`): (url, (base A, base B))."""
    url, _ = pg_cluster.database()
    CliRunner().invoke(cli, ["copy", recorded, url], catch_exceptions=False)
    assert last_seq(url, 2) > 0
    servers = [start(url, port=0) for _ in range(2)]
    yield url, [base for base, _, _ in servers]
    for _, _, stop in servers:
        stop()


def test_two_servers_on_one_database_show_every_table_s_commands_at_once(two_servers):
    url, (a, b) = two_servers
    bank1, bank2 = token(url, "banker", "--game", 1), token(url, "banker", "--game", 2)
    seen_by_b = {1: Stream(b, bank1), 2: Stream(b, bank2)}
    tv_b, table1_a = Stream(b), Stream(a, bank1)  # B's TV follows the latest game: game 2
    try:
        assert (seen_by_b[1].first["game"], seen_by_b[2].first["game"]) == (1, 2)
        assert tv_b.first["game"] == 2
        # game 1 through A's banker console: B shows it (and A, of course)
        said = post(a, bank1, "roll 3 4")
        doc = seen_by_b[1].until(1, said["seq"])
        assert doc["seq"] == said["seq"] == last_seq(url, 1)
        assert [c["until"] for c in doc["claims"]] == ["Bruno"]  # Anna owes Carla, as on A
        assert table1_a.until(1, said["seq"])["claims"] == doc["claims"]
        # game 2 at the terminal: both servers' game 2, and B's TV
        banco(url, "roll", 1, 2, "--game", 2)
        at = last_seq(url, 2)
        assert seen_by_b[2].until(2, at)["commands"][0]["line"] == "roll 1 2"
        assert tv_b.until(2, at)["seq"] == at
        # game 2 through B's console: A's game 2 shows it
        table2_a = Stream(a, bank2)
        said = post(b, bank2, "buy")
        assert table2_a.until(2, said["seq"])["commands"][0]["line"] == "buy"
        table2_a.close()
    finally:
        for s in (*seen_by_b.values(), tv_b, table1_a):
            s.close()


def test_a_server_that_lost_its_listening_connection_hears_again(two_servers):
    import psycopg

    url, (a, _) = two_servers
    stream = Stream(a)
    try:
        admin = pg_cluster.server().admin_url
        with psycopg.connect(admin, autocommit=True) as conn:  # the backend ended under it
            ended = conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                 "WHERE application_name = 'banco-listen'").fetchall()
        assert ended  # the two servers' listeners
        banco(url, "roll", 1, 2, "--game", 2)
        at = last_seq(url, 2)
        assert stream.until(2, at)["seq"] == at
    finally:
        stream.close()


def test_the_watchers_connection_cannot_write_on_postgresql(two_servers):
    import psycopg

    url, _ = two_servers
    book = open_read_only(url)
    try:
        assert book.state(1).seq > 0
        with pytest.raises(psycopg.errors.ReadOnlySqlTransaction):
            book.store.conn.execute("INSERT INTO banco.meta (key, value) VALUES ('x', 'y')")
    finally:
        book.close()


def test_banco_serve_runs_on_a_postgresql_url_and_follows_the_terminal(two_servers):
    url, _ = two_servers
    proc = subprocess.Popen([sys.executable, "-m", "banco.cli.main", "--db", url, "serve", "--port",
                             "0", "--game", "1"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        first = proc.stdout.readline()
        found = re.match(r"the table is on (http://127\.0\.0\.1:\d+)/ \(`banco token`", first)
        assert found, (first, proc.stderr.read() if proc.poll() is not None else "")
        stream = Stream(found[1])
        banco(url, "roll", 3, 4, "--game", 1)
        at = last_seq(url, 1)
        assert stream.until(1, at)["claims"][0]["until"] == "Bruno"
        stream.close()
        proc.send_signal(signal.SIGINT)
        assert proc.wait(10) == 0
        rest = proc.stdout.read()  # the banker's link for every game (issue 34), then
        assert "/banker#t=bt_" in rest and rest.endswith("\nstopped\n")
        assert pg_cluster.APP_PASSWORD not in first + rest
    finally:
        if proc.poll() is None:
            proc.terminate()
            proc.wait(10)
        proc.stdout.close()
        proc.stderr.close()


def test_a_game_brought_in_by_copy_is_shown_at_once_by_a_tv_following_the_latest(two_servers,
                                                                                  tmp_path):
    url, (a, _) = two_servers
    tv = Stream(a)
    try:
        assert tv.first["game"] == 2
        hall = str(tmp_path / "hall.db")
        banco(hall, "new", "Zoe", "Yuri")
        CliRunner().invoke(cli, ["copy", hall, url], catch_exceptions=False)
        doc = tv.until(3, last_seq(url, 3))  # the import's transaction announced it
        assert [p["name"] for p in doc["players"]] == ["Zoe", "Yuri"]
    finally:
        tv.close()


def ask(base: str, method: str, path: str, secret: str | None = None, body: dict | None = None):
    """(status, Retry-After, JSON body) of one request."""
    host, port = base.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=PATIENCE)
    try:
        headers = {"Authorization": f"Bearer {secret}"} if secret else {}
        conn.request(method, path, body=None if body is None else json.dumps(body),
                     headers={**headers, "Content-Type": "application/json"})
        response = conn.getresponse()
        return response.status, response.getheader("Retry-After"), json.loads(response.read())
    finally:
        conn.close()


def test_a_server_rides_out_a_postgresql_restart(two_servers):
    """PostgreSQL restarted under `serve`: every request with a token answered 500 until
    `serve` was restarted (the keyring and the writer kept their dead connections) and the
    event streams ended.  While it is away: 503 and Retry-After, nothing recorded, the streams
    and the TV's table go on; once it is back, a request after Retry-After is answered."""
    url, (a, _) = two_servers
    banker, carla = token(url, "banker", "--game", 1), token(url, "player", "carla", "--game", 1)
    before = last_seq(url, 1)
    stream = Stream(a, banker)
    try:
        offer = ask(a, "POST", "/api/commands", banker,
                    {"line": "trade Anna Carla --give 'vicolo corto' --get 20"})[2]["offer"]
        shown = ask(a, "GET", "/api/table")[2]  # the TV: the latest game
        with pg_cluster.stopped():
            for path, secret in (("/api/table", banker), ("/api/me", carla),
                                 ("/api/table", carla)):
                status, retry, body = ask(a, "GET", path, secret)
                assert (status, retry) == (503, "1"), body
                assert "PostgreSQL" in body["error"]
            status, retry, body = ask(a, "POST", "/api/commands", banker,
                                      {"line": "roll 3 4", "id": "r1"})
            assert (status, retry) == (503, "1"), body  # the token not looked up: not run
            status, retry, _ = ask(a, "POST", f"/api/offers/{offer['id']}", carla,
                                   {"answer": "accept"})
            assert (status, retry) == (503, "1")
            tv = ask(a, "GET", "/api/table")
            assert tv[0] == 200 and tv[2]["seq"] == shown["seq"]  # the TV's table, as it was
        for _ in range(PATIENCE):  # as a phone does: again after Retry-After, while 503
            status, retry, body = ask(a, "GET", "/api/table", banker)
            if status != 503:
                break
            time.sleep(int(retry))
        assert status == 200 and body["seq"] == before
        status, _, done = ask(a, "POST", "/api/commands", banker, {"line": "roll 3 4",
                                                                    "id": "r1"})
        assert status == 200 and not done["replayed"], done  # the 503 was not kept for r1
        assert stream.until(1, done["seq"])["seq"] == done["seq"]  # the stream went on
        status, _, accepted = ask(a, "POST", f"/api/offers/{offer['id']}", carla,
                                  {"answer": "accept"})
        assert status == 200 and accepted["code"] == 0, accepted  # the offer waited
        assert last_seq(url, 1) == accepted["seq"] > done["seq"]
    finally:
        stream.close()


def test_a_server_whose_idle_connections_were_dropped_answers_the_next_request(two_servers,
                                                                               capfd):
    """PostgreSQL ended banco's connections while nothing was asked (an idle timeout, an
    administrator's pg_terminate_backend): nothing had failed on them yet, so `revive` took
    them for alive, and the first use failed on the dead one: a trade accepted answered 503,
    a table's watcher said "lost the PostgreSQL server" and looked again a second later.  The
    first request after the drop is answered, each connection new (the keyring's, the
    writer's, the watchers'; the listener's hears again)."""
    import psycopg

    url, (a, _) = two_servers
    banker, carla = token(url, "banker", "--game", 1), token(url, "player", "carla", "--game", 1)
    stream = Stream(a, banker)
    try:
        status, _, done = ask(a, "POST", "/api/commands", banker, {"line": "roll 3 4"})
        assert status == 200, done  # the writer's connection used once
        offer = ask(a, "POST", "/api/commands", banker,
                    {"line": "trade Anna Carla --give 'vicolo corto' --get 20"})[2]["offer"]
        assert stream.until(1, done["seq"])["seq"] == done["seq"]
        capfd.readouterr()
        with psycopg.connect(pg_cluster.server().admin_url, autocommit=True) as conn:
            ended = conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE "
                                 "application_name LIKE 'banco%' AND state = 'idle'").fetchall()
        assert len(ended) >= 4  # both servers' keyrings, writers, listeners and watchers
        status, _, accepted = ask(a, "POST", f"/api/offers/{offer['id']}", carla,
                                  {"answer": "accept"})
        assert status == 200 and accepted["code"] == 0, accepted  # 503 before
        assert stream.until(1, accepted["seq"])["seq"] == accepted["seq"] == last_seq(url, 1)
        banco(url, "claim", "Carla", "--game", 1)  # the terminal's: heard, looked at, shown
        assert stream.until(1, last_seq(url, 1))["seq"] == last_seq(url, 1)
        assert "lost the PostgreSQL server" not in capfd.readouterr().err
    finally:
        stream.close()


def test_one_tables_busy_writer_does_not_hold_another_tables_line(recorded):
    """All tables' lines queued behind one writer thread: a slow line at one table (a lock
    wait on PostgreSQL, whose lock is a game's) held every other table's.  Game 1's writer is
    held here until game 2's line is answered: it is answered at once (with one writer, only
    after the hold gave up); game 1's lines then run, in order."""
    import threading

    from phones_tables import make_client

    from banco.cli.web.app import Hub

    url, _ = pg_cluster.database()
    CliRunner().invoke(cli, ["copy", recorded, url], catch_exceptions=False)
    banker1, banker2 = token(url, "banker", "--game", 1), token(url, "banker", "--game", 2)
    hub = Hub(url, None, poll=60)
    answered, waited = threading.Event(), []
    try:
        with make_client(hub) as c:
            held = hub.writers.of(1).submit(lambda: waited.append(answered.wait(PATIENCE)))
            r = c.post("/api/commands", json={"line": "roll 1 2"},
                       headers={"Authorization": f"Bearer {banker2}"})
            answered.set()
            held.result()
            assert r.status_code == 200 and waited == [True], r.json()
            for line in ("roll 3 4", "undo"):  # game 1's, after the hold, in order
                r = c.post("/api/commands", json={"line": line},
                           headers={"Authorization": f"Bearer {banker1}"})
                assert r.status_code == 200 and r.json()["code"] == 0, r.json()
    finally:
        hub.close()
