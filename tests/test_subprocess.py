"""The installed `banco` (the venv's console script) as a separate process: every bad --db, and
numbers, times and answers at the edges.  What CliRunner cannot show: exit codes as a shell
sees them, tracebacks on stderr, files left behind, real locks.  Pipes and signals are
tests/test_subprocess_signals.py; several processes at once, tests/test_subprocess_concurrent.py;
click's usage mistakes and a shell fed on a pipe, tests/test_subprocess_usage.py."""

import json
import os
import sqlite3
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner
from installed import BANCO, FIXTURES, INSTALLED, banco, copy_of, one_error_line, rows

from banco.cli.main import cli

pytestmark = INSTALLED


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A database holding the recorded classic game (made in-process: quicker)."""
    db = tmp_path_factory.mktemp("played") / "played.db"
    result = CliRunner().invoke(cli, ["--db", str(db), "run", "-q",
                                      str(FIXTURES / "classic-4p.banco")])
    assert result.exit_code == 0, result.output
    return db


# --- every bad --db: one `error:` line, exit 4, nothing created or appended -------------------


def test_a_missing_folder(tmp_path):
    db = tmp_path / "nowhere" / "g.db"
    one_error_line(banco("--db", db, "state", code=4), "no database at", "does not exist")
    one_error_line(banco("--db", db, "new", "Anna", "Bruno", code=4), "cannot create",
                   "does not exist")
    assert not (tmp_path / "nowhere").exists()


def test_a_folder(tmp_path):
    for args in (("state",), ("new", "Anna", "Bruno"), ("log",), ("backup", tmp_path / "x.db")):
        one_error_line(banco("--db", tmp_path, *args, code=4), "is a folder")
    assert list(tmp_path.iterdir()) == []


def test_a_device_or_a_pipe(tmp_path):
    """`--db /dev/null` said "disk I/O error (is the disk full or failing?)" on a write."""
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    for db in ("/dev/null", pipe):
        for args in (("state",), ("new", "Anna", "Bruno")):
            one_error_line(banco("--db", db, *args, code=4), "is a device, not a database file")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]


def test_a_misspelt_db_is_not_created_and_the_right_one_is_suggested(tmp_path, played):
    copy_of(played, tmp_path, "banco.db")
    for read in ("state", "log", "games", "audit", "standings", "statement Anna"):
        result = banco("--db", "banoc.db", *read.split(), code=4, cwd=tmp_path)
        one_error_line(result, "no database at banoc.db", "did you mean banco.db?")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["banco.db"]
    # the board and the decks need no database: the default edition
    assert "Parco della Vittoria" in banco("--db", "banoc.db", "board", cwd=tmp_path).stdout
    assert "Imprevisti" in banco("--db", "banoc.db", "cards", cwd=tmp_path).stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == ["banco.db"]


def test_a_read_only_file_reads_but_does_not_record(tmp_path, played):
    db = copy_of(played, tmp_path)
    os.chmod(db, 0o444)
    before = rows(db)
    assert "\nnext: " in banco("--db", db, "state").stdout
    one_error_line(banco("--db", db, "roll", "1", "2", code=4), "is read-only",
                   "nothing was recorded")
    assert rows(db) == before


def test_a_file_that_is_not_sqlite(tmp_path):
    db = tmp_path / "notes.db"
    db.write_text("shopping: milk, eggs\n" * 200)
    before = db.read_bytes()
    for args in (("state",), ("new", "Anna", "Bruno"), ("games",)):
        one_error_line(banco("--db", db, *args, code=4), "is not a SQLite database")
    assert db.read_bytes() == before


def test_another_programs_events_table(tmp_path):
    db = tmp_path / "theirs.db"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE events (id INTEGER PRIMARY KEY, title TEXT, starts TEXT)")
    conn.execute("INSERT INTO events (title) VALUES ('dentist')")
    conn.commit()
    conn.close()
    for args in (("state",), ("new", "Anna", "Bruno")):
        one_error_line(banco("--db", db, *args, code=4),
                       "`events` table that is not banco's (its columns: id, title, starts)")
    conn = sqlite3.connect(db)
    assert [r[1] for r in conn.execute("PRAGMA table_info(events)")] == ["id", "title", "starts"]
    assert [r[0] for r in conn.execute("SELECT name FROM sqlite_master")] == ["events"]
    conn.close()


def test_a_database_written_by_a_newer_banco(tmp_path, played):
    db = copy_of(played, tmp_path)
    conn = sqlite3.connect(db)
    conn.execute("UPDATE meta SET value='5' WHERE key='format'")
    conn.commit()
    conn.close()
    before = rows(db)
    read = banco("--db", db, "state")
    assert "WARNING" in read.stderr and "format 5" in read.stderr and "\nnext: " in read.stdout
    one_error_line(banco("--db", db, "roll", "1", "2", code=4),
                   "is format 5, written by a newer banco", "upgrade banco")
    assert rows(db) == before


def test_a_corrupted_page(tmp_path, played):
    db = copy_of(played, tmp_path)
    conn = sqlite3.connect(db)
    pages = [p for (p,) in conn.execute("SELECT pageno FROM dbstat WHERE name='events'")]
    size = conn.execute("PRAGMA page_size").fetchone()[0]
    conn.close()
    with open(db, "r+b") as f:  # every leaf of the log, scribbled over past its header
        for page in pages[1:]:
            f.seek((page - 1) * size + 16)
            f.write(b"\xff" * 200)
    for args in (("state",), ("log",), ("roll", "1", "2"), ("audit",)):
        one_error_line(banco("--db", db, *args, code=4), "is damaged", "banco backup")


def test_a_corrupted_index_page(tmp_path, played):
    """The log's unique index damaged: the audit's list of games reads it outside the store's
    guard, and still gets the store's sentence (a fresh clone's CI met it as 'cannot use')."""
    db = copy_of(played, tmp_path)
    conn = sqlite3.connect(db)
    pages = [p for (p,) in conn.execute(
        "SELECT pageno FROM dbstat WHERE name='sqlite_autoindex_events_1'")]
    size = conn.execute("PRAGMA page_size").fetchone()[0]
    conn.close()
    with open(db, "r+b") as f:
        for page in pages:
            f.seek((page - 1) * size + 8)
            f.write(b"\xff" * 200)
    for args in (("audit",), ("roll", "1", "2")):
        one_error_line(banco("--db", db, *args, code=4), "is damaged", "banco backup")


def test_a_write_lock_held_by_another_process(tmp_path, played):
    db = copy_of(played, tmp_path)
    holder = subprocess.Popen([sys.executable, "-c", (
        "import sqlite3, sys, time\n"
        f"c = sqlite3.connect({str(db)!r}, isolation_level=None)\n"
        "c.execute('BEGIN IMMEDIATE'); print('locked', flush=True); time.sleep(30)")],
        stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        before = rows(db)
        t0 = time.monotonic()
        result = banco("--db", db, "roll", "1", "2", code=4, env={"BANCO_LOCK_WAIT": "1"})
        waited = time.monotonic() - t0
        one_error_line(result, "locked by another writer (another banco, or a tool such as "
                               "sqlite3); waited 1 s; nothing was recorded, retry")
        assert 1 <= waited < 5
        assert "\nnext: " in banco("--db", db, "state").stdout  # reads do not wait
        assert rows(db) == before
    finally:
        holder.kill()
        holder.wait()


# --- numbers and times at the edges -----------------------------------------------------------

def test_a_number_too_long_to_mean_is_a_usage_error_everywhere(tmp_path, played):
    """int() refuses more than 4,300 digits with a ValueError: it came out as a traceback (exit
    1) from every command that reads a number, and killed the shell."""
    db = copy_of(played, tmp_path)
    before = rows(db)
    huge = "9" * 5000
    for args in (("bid", "anna", huge), ("roll", "3", huge), ("--game", huge, "state"),
                 ("state", "--at", huge), ("show", huge), ("ruling", "rent", huge),
                 ("correct", "anna", huge, "--reason", "x", "--referee", "Rita"),
                 ("roll", "3", "4", "--expect", huge), ("log", "--from", "9" * 16)):
        result = banco("--db", db, *args, code=2)
        assert "digits: no number at the table is that long (at most 15)" in result.stderr
        assert huge not in result.stderr  # echoed cut short
    assert rows(db) == before


def test_a_time_at_the_calendar_s_ends(tmp_path, played):
    """year 9999 and year 1 overflowed (OverflowError, 'year 0 is out of range') into
    tracebacks: every game is after the one and before the other."""
    db = copy_of(played, tmp_path)
    last = json.loads(banco("--db", db, "state", "--json").stdout)
    at = json.loads(banco("--db", db, "state", "--at", "9999-12-31T23:59:59Z", "--json").stdout)
    assert at.pop("moment")["at"] == last["seq"] and at == last
    for args in (("state", "--at", "0001-01-01 00:00"), ("replay", "--to", "0001-01-01"),
                 ("state", "--at", "0001-01-01")):
        one_error_line(banco("--db", db, *args, code=2), "nothing was recorded by")
    # `replay --from` a time before the game: the whole game, from its start
    whole = banco("--db", db, "replay").stdout
    assert banco("--db", db, "replay", "--from", "0001-01-01").stdout == whole


def test_an_answer_that_cannot_be_written_is_one_line_and_exit_4(played):
    """`banco state > /dev/full` ended in a traceback and exit 1 (a refusal, to banco's
    contract): the disk full is said in one line, exit 4, in the table's language."""
    for words in (["state"], ["log"], ["--lang", "it", "stato"]):
        with open("/dev/full", "w") as full:
            r = subprocess.run([str(BANCO), "--db", str(played), *words], stdout=full,
                               stderr=subprocess.PIPE, text=True, timeout=60)
        assert r.returncode == 4, (words, r.stderr)
        assert "Traceback" not in r.stderr and len(r.stderr.splitlines()) == 1, r.stderr
        assert r.stderr.startswith(("error: cannot write the answer: No space left on device",
                                    "errore: impossibile scrivere la risposta: spazio esaurito"))


def test_a_game_imported_twice_is_a_usage_error_not_an_audit_finding(tmp_path, played):
    """A trial: re-importing a game already in the file exits 2, where docs/banker.md said 3.
    DESIGN's 3 is an audit that found a problem; a game already there is none (the file is
    sound, the import is not needed): 2, as the docs now say.  A forged file stays 3."""
    exported = tmp_path / "g.jsonl"
    banco("--db", played, "--game", "1", "export", "-o", exported)
    into = tmp_path / "arch.db"
    banco("--db", into, "import", exported)
    again = banco("--db", into, "import", exported, code=2)
    one_error_line(again, "this game is already game 1 in", "nothing was imported")
    with open(exported, "a") as f:  # a history that is not the one it claims: the audit's 3
        f.write(exported.read_text().splitlines()[-1] + "\n")
    banco("--db", tmp_path / "other.db", "import", exported, code=3)
    docs = (FIXTURES.parent / "docs" / "banker.md").read_text()
    usage, audit = docs.split("### Exit codes")[1].split("**3**")[:2]
    assert "already in the file" in usage and "refused a game" not in audit
