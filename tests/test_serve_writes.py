"""What the table's server answers about its writes (issue 32): what a 200 answered every later
read shows, a retry sent to two servers on one file is answered with what its id recorded, and
a client that goes away mid-request leaves no traceback in the server's terminal."""

from __future__ import annotations

import phones_tables
import pytest
from phones_tables import NOW, auth, make_client, seq

from banco.cli.web.app import Hub
from banco.cli.web.hub import Table
from banco.ledger.book import Book
from banco.ledger.store import tokens

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx`")
# the fixtures the phones' HTTP tests share (tests/phones_tables.py)
recorded, db = phones_tables.recorded, phones_tables.db


@pytest.fixture
def keys(db):
    return {name: tokens.issue(db, role, 1, NOW, player)[0] for name, role, player in (
        ("banker", "banker", None), ("carla", "player", "Carla"))}


# --- read your writes ------------------------------------------------------------------------

def test_every_read_after_a_200_shows_what_it_answered(db, keys, monkeypatch):
    """`GET /api/table` right after a 200 showed the table before it (the TV's table waited
    for its watcher's next look).  No watcher looks here (never nudged, polling once a
    minute): every view shows each line's table as soon as its answer is given."""
    monkeypatch.setattr(Table, "nudge", lambda self: None)
    hub = Hub(db, None, poll=60)
    views = {"viewer": {}, "banker": auth(keys["banker"]), "carla": auth(keys["carla"])}
    with make_client(hub) as c:
        for headers in views.values():  # each view's table shown once before the lines
            assert c.get("/api/table", headers=headers).json()["seq"] == seq(db)
        for line in ("roll 3 4", "claim Carla", "roll 1 2", "undo", "roll 2 2"):
            r = c.post("/api/commands", json={"line": line}, headers=views["banker"])
            assert r.status_code == 200, r.json()
            answered = r.json()["seq"]
            for who, headers in views.items():
                doc = c.get("/api/table", headers=headers).json()
                assert (doc["seq"], doc["state"]["seq"]) == (answered, answered), (line, who)
    hub.close()


# --- two servers on one file -----------------------------------------------------------------

@pytest.mark.parametrize("with_expect", [False, True])
def test_a_retry_sent_to_two_servers_is_answered_with_what_its_id_recorded(db, keys,
                                                                           with_expect):
    """Two servers on one file, one line with one id and no expect, sent to both (a phone's
    retry through another server): the second looked the id up, found nothing, then read the
    table the first had just left and answered 422 ("cannot roll now") for a command recorded
    under that id, and kept that answer for the retries (with the expect the first saw: 409,
    the game moved).  Here the first records it between the second's look at the id and its
    look at the table."""
    first, second = Hub(db, None, poll=0.05), Hub(db, None, poll=0.05)
    line, key = "roll 2 4", "k1"  # to a deed for sale: no roll after it until buy or decline
    command_id = f"web-{keys['banker'][3:11]}-{key}"
    with make_client(first) as a, make_client(second) as b:
        before = seq(db)
        for c in (a, b):
            assert c.get("/api/table", headers=auth(keys["banker"])).status_code == 200
        writer = second.writers.of(1)  # game 1's writer thread, and its library
        store = writer.submit(lambda: second.library().book.store).result()
        look = store.command_events

        def meanwhile(game, wanted):
            found = look(game, wanted)
            if wanted == command_id and not found and seq(db) == before:
                # the first server records the line now (this thread holds the servers' line
                # lock, which the first's run_line takes again)
                status, _ = first.run_line(1, line, "en", command_id, None)
                assert status == 200
            return found

        store.command_events = meanwhile
        sent = {"line": line, "id": key, **({"expect": before} if with_expect else {})}
        r = b.post("/api/commands", json=sent, headers=auth(keys["banker"]))
        assert seq(db) > before
        assert r.status_code == 200, r.json()
        assert r.json()["replayed"] and "Anna rolls 2+4 = 6" in r.json()["said"]
        again = b.post("/api/commands", json=sent, headers=auth(keys["banker"]))
        assert again.status_code == 200 and again.json()["replayed"]
    book = Book(db, create=False)
    try:  # recorded once, by the first
        assert [e["type"] for e in book.recorded(1, command_id)][0] == "CommandRecorded"
        assert book.recorded(1, command_id)[-1]["seq"] == seq(db)
    finally:
        book.close()
    writer.submit(first.close_library).result()  # opened there
    first.close()
    second.close()


# --- a client that goes away mid-request ------------------------------------------------------

def test_a_client_gone_mid_body_leaves_no_traceback_in_the_servers_terminal(db, keys):
    """A phone that sent half a body and went away printed "Exception in ASGI application" and
    a traceback (starlette's ClientDisconnect) in `banco serve`'s terminal: now nothing, and
    the server goes on answering."""
    import json
    import os
    import re
    import signal
    import socket
    import struct
    import subprocess
    import sys

    proc = subprocess.Popen([sys.executable, "-m", "banco.cli.main", "--db", db, "serve", "--port",
                             "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        port = int(re.search(r"127\.0\.0\.1:(\d+)/", proc.stdout.readline())[1])
        head = (f"POST /api/commands HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: "
                f"Bearer {keys['banker']}\r\nContent-Type: application/json\r\n").encode()
        for path in (b"/api/commands", b"/api/offers/abc"):
            for reset in (False, True):
                with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
                    s.sendall(head.replace(b"/api/commands", path)
                              + b'Content-Length: 100\r\n\r\n{"line": "ro')
                    if reset:  # an RST rather than a FIN: the phone's network gone
                        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        body = b'{"line": "roll 3 4"}'
        # a wait, not a timed check: a fresh server's first write (its writer's imports and
        # fold) took over 5 s once at load 18
        with socket.create_connection(("127.0.0.1", port), timeout=60) as s:
            s.sendall(head + b"Content-Length: %d\r\nConnection: close\r\n\r\n" % len(body)
                      + body)
            answer = b""
            while chunk := s.recv(65536):
                answer += chunk
        assert answer.startswith(b"HTTP/1.1 200 ")  # it goes on serving, and ran nothing else
        assert json.loads(answer.split(b"\r\n\r\n", 1)[1])["seq"] == seq(db)
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(10)
        err = proc.stderr.read()
        proc.stdout.close()
        proc.stderr.close()
    assert "Traceback" not in err and "Exception in ASGI" not in err, err


def test_a_disconnect_uvicorn_reports_is_one_line():
    """h11's LocalProtocolError (an answer to a connection the client closed) reaches
    uvicorn's log as "Exception in ASGI application" with its traceback: one line instead."""
    import logging

    import h11
    from starlette.requests import ClientDisconnect

    from banco.cli.web.serve import QuietDisconnects

    for exc in (ClientDisconnect(), h11.LocalProtocolError("can't send data when our state "
                                                           "is ERROR")):
        record = logging.LogRecord("uvicorn.error", logging.ERROR, __file__, 1,
                                   "Exception in ASGI application\n", (), (type(exc), exc, None))
        assert QuietDisconnects().filter(record)
        assert record.getMessage() == (f"a client went away mid-request "
                                       f"({type(exc).__name__})")
        assert record.exc_info is None
    other = ValueError("a real bug")
    record = logging.LogRecord("uvicorn.error", logging.ERROR, __file__, 1,
                               "Exception in ASGI application\n", (), (ValueError, other, None))
    assert QuietDisconnects().filter(record) and record.exc_info[1] is other


def test_an_undo_recorded_meanwhile_by_another_writer_is_its_answer(tmp_path):
    """The same race at the book, for `undo`: the other writer's undo (same id) took back the
    only command, and this one, reading the table it left, said "nothing to undo"."""
    from click.testing import CliRunner

    from banco.cli.main import cli

    db = str(tmp_path / "u.db")
    for line in (["new", "Anna", "Bruno"], ["roll", "1", "2"]):
        assert CliRunner().invoke(cli, ["--db", db, *line]).exit_code == 0
    first, second = Book(db), Book(db)
    look = second.store.command_events

    def meanwhile(game, wanted):
        found = look(game, wanted)
        if wanted == "u1" and not found and not first.recorded(1, "u1"):
            first.undo(1, now=NOW, command_id="u1", line="undo")
        return found

    second.store.command_events = meanwhile
    try:
        out = second.undo(1, now=NOW, command_id="u1", line="undo")
        assert out.replayed and [e["type"] for e in out.events] == ["CommandRecorded",
                                                                    "EventRetracted"]
        assert second.store.last_seq(1) == out.events[-1]["seq"]
    finally:
        first.close()
        second.close()


# --- a player's act, checked on the table it is recorded on ---------------------------------

def test_a_players_act_is_checked_on_the_very_table_it_is_recorded_on(db, monkeypatch):
    """`roll 3 4` from Anna's phone names no player: it is hers while it is her turn.  The
    check (cli/web/acts.py) read the table before the book's write, so the banker's `roll 1 2`
    for Anna recorded between the two (her turn over, Bruno's now) made the phone's line
    Bruno's roll, recorded as Anna's act.  The other writer comes here in the check itself,
    once it has passed: the line is checked and decided on one table, and the append on any
    other refused (409, nothing recorded); sent again, it is Bruno's turn: 403."""
    from banco.cli.library import Library
    from banco.cli.web import acts

    anna = tokens.issue(db, "player", 1, NOW, "Anna")[0]
    passed = acts.check
    others = []

    def meanwhile(role, player, command, state, *, banker_only):
        passed(role, player, command, state, banker_only=banker_only)  # Anna's turn: hers
        if not others:  # the banker's terminal, on the same file, between check and record
            with Library(db) as banker:
                others.append(banker.execute("roll 1 2", game=1))
                assert others[0].refusal is None and banker.table(1).turn.player == "Bruno"

    monkeypatch.setattr(acts, "check", meanwhile)
    hub = Hub(db, None, poll=60)
    with make_client(hub) as c:
        r = c.post("/api/commands", json={"line": "roll 3 4"}, headers=auth(anna))
        assert r.status_code == 409, r.json()
        assert seq(db) == others[0].seq  # the banker's roll, and nothing after it
        r = c.post("/api/commands", json={"line": "roll 3 4"}, headers=auth(anna))
        assert r.status_code == 403 and "Bruno" in r.json()["error"], r.json()
        assert seq(db) == others[0].seq
    hub.close()
    book = Book(db, create=False)
    try:
        assert "Anna" not in {e["actor"] for e in book.stream(1, 1, seq(db))}
    finally:
        book.close()


# --- a writer thread a game --------------------------------------------------------------------

def test_a_files_games_share_one_writer_and_postgresql_s_have_one_each(db):
    """On a SQLite file every write takes the file's one lock: a thread a game would only meet
    there, at more CPU a line (docs/performance.md's phones row), so a file's games share the
    writer of no game; on PostgreSQL each game's lines have a thread of their own
    (tests/test_postgres_serve.py holds one table's busy writer beside another's line)."""
    from banco.cli.web.writers import WRITERS, Writers

    hub = Hub(db, None, poll=60)
    try:
        assert hub.writers.of(1) is hub.writers.of(2) is hub.writer
    finally:
        hub.close()
    many = Writers(lambda: None, many=True)
    try:
        assert many.of(1) is not many.of(2) and many.of(1) is many.of(1 + WRITERS)
        assert many.of(None) not in (many.of(1), many.of(2))
    finally:
        many.close()
