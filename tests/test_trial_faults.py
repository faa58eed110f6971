"""What a newcomer's trial broke on main: an export written over the open database, a `--db`
on a shell's or transcript's line, HTTP bodies with fields no one asked for.  The installed
`banco` as a separate process, for the exit codes a shell sees."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

BANCO = Path(sys.executable).parent / "banco"
pytestmark = [pytest.mark.skipif(not BANCO.exists(), reason="banco is not installed"),
              pytest.mark.filterwarnings("ignore:Using `httpx`")]


def banco(*args, code=0, cwd=None, stdin=None):
    result = subprocess.run([str(BANCO), *map(str, args)], capture_output=True, text=True,
                            env={**os.environ, "BANCO_LANG": "en"}, cwd=cwd, input=stdin,
                            timeout=60)
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == code, (args, result.stdout, result.stderr)
    return result


def events(db) -> int:
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT COUNT(*) FROM events").fetchone()[0]
    finally:
        conn.close()


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    folder = tmp_path_factory.mktemp("trial")
    db = folder / "t.db"
    banco("--db", db, "new", "Anna", "Bruno")
    banco("--db", db, "roll", "1", "2")
    banco("--db", db, "tournament", "new", "Coppa")
    return db


@pytest.fixture
def db(played, tmp_path):
    copy = tmp_path / "evc.db"
    copy.write_bytes(played.read_bytes())
    return copy


@pytest.mark.parametrize("command", [["export"], ["report"], ["tournament", "export"]])
def test_no_output_replaces_the_open_database_or_its_files(db, command):
    """`-o evc.db --force` renamed the export over the database: exit 0, every game gone."""
    before = db.read_bytes()
    os.symlink(db.name, db.parent / "link.db")
    os.link(db, db.parent / "hard.db")
    targets = ("evc.db", "./evc.db", "link.db", "hard.db", "evc.db-wal", "evc.db-shm",
               "evc.db-journal", "evc.db.token-key")
    # every spelling through export; the others share its one check (cli/safe_output.py)
    for target in targets if command == ["export"] else targets[2::3]:
        said = banco("--db", "evc.db", *command, "-o", target, "--force", code=2, cwd=db.parent)
        assert "part of the open database" in said.stderr, said.stderr
    assert db.read_bytes() == before
    assert not (db.parent / "evc.db-journal").exists()
    assert not (db.parent / "evc.db.token-key").exists()
    banco("--db", db, "state")
    banco("--db", db, *command, "-o", db.parent / "out.txt")  # another file: written
    assert (db.parent / "out.txt").stat().st_size > 0


def test_no_backup_over_the_open_database_s_own_files(db):
    before = db.read_bytes()
    for target in ("evc.db-wal", "./evc.db-shm", "evc.db-journal", "evc.db.token-key"):
        said = banco("--db", "evc.db", "backup", target, "--force", code=2, cwd=db.parent)
        assert "part of the open database" in said.stderr, said.stderr
        assert not (db.parent / target).exists()
    assert db.read_bytes() == before


def test_a_transcript_line_naming_another_file_stops_the_run_before_any_line(db):
    other = db.parent / "other.db"
    for line in ("--db other.db roll 1 2", "buy --db other.db", "buy --db=other.db"):
        script = db.parent / "r5.banco"
        script.write_text(f"buy\n{line}\n")
        said = banco("--db", db, "run", script, code=2, cwd=db.parent)
        assert "r5.banco:2:" in said.stderr and "banco --db FILE shell" in said.stderr
        assert events(db) == 8 and not other.exists()


def test_a_shell_line_naming_another_file_is_a_usage_error(db):
    other = db.parent / "o3.db"
    said = banco("--db", db, "shell", code=2, cwd=db.parent,
                 stdin="--db o3.db buy\nroll 1 2 --db o3.db\n")
    assert said.stderr.count("banco --db FILE shell") == 2, said.stderr
    assert events(db) == 8 and not other.exists()


def test_the_italian_words_for_another_file(db):
    said = banco("--db", db, "--lang", "it", "export", "-o", db, "--force", code=2)
    assert "database aperto" in said.stderr, said.stderr
    script = db.parent / "r.banco"
    script.write_text("roll 1 2 --db x.db\n")
    said = banco("--db", db, "--lang", "it", "run", script, code=2)
    assert "banco --db FILE shell" in said.stderr and "--db" in said.stderr
    assert "cannot" not in said.stderr


# --- the phones' bodies ---------------------------------------------------------------------

@pytest.fixture
def client(db):
    from starlette.testclient import TestClient

    from banco.cli.web.app import Hub, make_app
    from banco.ledger.store import tokens

    secret = tokens.issue(str(db), "banker", 1, "2026-11-29T21:00:00Z", None)[0]
    hub = Hub(str(db), None, poll=0.05)
    with TestClient(make_app(hub)) as c:
        c.headers["Authorization"] = f"Bearer {secret}"
        yield c
    hub.close()


def post(client, path, text, lang="en"):
    return client.post(f"{path}?lang={lang}", content=text,
                       headers={"Content-Type": "application/json"})


@pytest.mark.parametrize("path, text, said", [
    ("/api/games", '{"players":["A","B"],"rules":"championship","editon":"us"}',
     "“editon”", ),
    ("/api/commands", '{"line":"decline","expcet":3}', "“expcet”"),
    ("/api/commands", '{"line":"buy","line":"undo"}', "“line” twice"),
    ("/api/commands", '{"line":"buy","id":""}', "“id” is not text, not empty"),
    ("/api/commands", '{"line":"buy","expect":"8"}', "a whole number, 0 or more"),
    ("/api/games/1/tokens", '{"role":"viewer","plaer":"Anna"}', "“plaer”"),
    ("/api/join", '{"code":"x","player":"A","kye":1}', "“kye”"),
])
def test_a_body_is_held_to_its_schema(client, db, path, text, said):
    answer = post(client, path, text)
    assert answer.status_code == 400, answer.text
    assert said in answer.json()["error"], answer.json()
    assert events(db) == 8  # no game started, no line run


def test_an_unknown_field_is_named_with_the_allowed_and_the_close_one(client):
    error = post(client, "/api/games", '{"players":["A","B"],"editon":"us"}').json()["error"]
    # a phone's words quote in its language's marks (“…”, «…»), never a terminal's backticks
    assert "did you mean “edition”?" in error and "“players”, “rules”" in error
    error = post(client, "/api/commands", '{"line":"buy","expcet":3}', "it").json()["error"]
    assert "forse «expect»?" in error and "nulla" in error
    assert post(client, "/api/commands", '{"line":"buy","id":"k1","expect":8}').status_code == 200


# --- an imported actor ------------------------------------------------------------------------

def forged(export: Path, actor: str, out: Path) -> Path:
    """The export with one command's rows given `actor`, the chain recomputed to its end."""
    import json

    from banco.ledger.store.chain import GENESIS, row_hash

    lines = export.read_text().splitlines()
    head, rows = json.loads(lines[0]), [json.loads(line) for line in lines[1:]]
    for r in rows:
        if r["command_id"] == rows[6]["command_id"]:
            r["actor"] = actor
    prev = GENESIS
    for r in rows:
        r["prev_hash"], r["hash"] = prev, row_hash(prev, r)
        prev = r["hash"]
    head["head"] = prev
    out.write_text("\n".join(json.dumps(x) for x in [head, *rows]) + "\n")
    return out


@pytest.mark.parametrize("actor, why", [("x" * 5000, "5000 characters long; at most 64"),
                                        ("Ev\x1b[2J\x1b[31mil", "U+001B"),
                                        ("", "blank"), (" banker", "spaces at its ends")])
def test_an_imported_actor_is_one_a_command_could_have_recorded(exported, tmp_path, actor,
                                                               why):
    bad = forged(exported, actor, tmp_path / "f.jsonl")
    said = banco("--db", tmp_path / "imp.db", "import", bad, code=3).stderr
    assert why in said and "nothing was imported" in said
    assert len(said) < 400 and "\x1b" not in said, said  # the field cut, never printed whole
    assert not (tmp_path / "imp.db").exists()
    if actor == "":
        said = banco("--db", tmp_path / "imp.db", "--lang", "it", "import", bad, code=3).stderr
        assert "nulla è stato importato" in said and "l'autore" in said
        good = forged(exported, "Anna", tmp_path / "g.jsonl")  # a player's act, from his phone
        banco("--db", tmp_path / "ok.db", "import", good)


@pytest.fixture(scope="module")
def exported(played):
    export = played.parent / "e.jsonl"
    banco("--db", played, "export", "-o", export, "--force")
    return export


# --- smaller ----------------------------------------------------------------------------------

@pytest.mark.parametrize("names", [("Bea", "B\u0435a"), ("\u0392ea", "Bea"),
                                   ("Olga", "\u041elga")])
def test_two_names_that_look_the_same_are_refused(tmp_path, names):
    """A Cyrillic е or a Greek Β prints as the Latin letter: the table could not tell them
    apart, and a claim or a trade would name either."""
    said = banco("--db", tmp_path / "n.db", "new", *names, code=2).stderr
    assert "look the same" in said and not (tmp_path / "n.db").exists()
    if names[0] == "Bea":
        said = banco("--db", tmp_path / "n.db", "--lang", "it", "new", *names, code=2).stderr
        assert "sembrano uguali" in said
        banco("--db", tmp_path / "n.db", "new", "Bea", "Bruno")  # two names: still welcome


def test_a_correction_with_a_blank_reason_is_a_usage_error(db):
    for reason in ("", "  "):
        said = banco("--db", db, "correct", "Anna", "50", "--referee", "Rita", "--reason",
                     reason, code=2).stderr
        assert "give the reason" in said
    assert events(db) == 8


def test_a_reading_from_a_snapshot_says_the_rows_behind_it_went_unguarded(tmp_path):
    """Triggers dropped, a rent behind the kept table edited (25 -> 925): `state` started from
    the snapshot at event 500, never read event 39 and said nothing; `state --at 40` warned."""
    from games import record

    db = record(str(tmp_path / "g.db"), "classic-4p")  # 643 events: a snapshot at 500
    conn = sqlite3.connect(db)
    with conn:
        assert conn.execute("SELECT MAX(seq) FROM snapshots").fetchone()[0] > 39
        conn.execute("DROP TRIGGER events_no_update")
        conn.execute("UPDATE events SET data = replace(data, '\"amount\":25,', '\"amount\":925,')"
                     " WHERE seq = 39")
    conn.close()
    for reading in (["state"], ["statement", "Dario"]):
        said = banco("--db", db, *reading).stderr
        assert "events_no_update is missing" in said and "banco audit" in said, said
    said = banco("--db", db, "--lang", "it", "state").stderr
    assert "manca la protezione events_no_update" in said
    assert "does not match its hash" in banco("--db", db, "state", "--at", "40").stderr
