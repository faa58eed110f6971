"""The installed `banco` (the venv's console script) as a separate process: every bad --db,
pipes, signals, crashes and several processes at once.  What CliRunner cannot show: exit
codes as a shell sees them, tracebacks on stderr, files left behind, real locks and kills."""

import json
import os
import random
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from banco.cli.main import cli

BANCO = Path(sys.executable).parent / "banco"
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
UID = "1b4e28ba-2fa1-11d2-883f-0016d3cca427"
FIXED = {"BANCO_FIXED_TIME": "2026-11-29T21:00:00Z"}

pytestmark = pytest.mark.skipif(not BANCO.exists(), reason="banco is not installed in this venv")


def banco(*args, code=0, env=None, cwd=None):
    result = subprocess.run([str(BANCO), *map(str, args)], capture_output=True, text=True,
                            env={**os.environ, **(env or {})}, cwd=cwd, timeout=60)
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == code, (args, result.stdout, result.stderr)
    return result


def rows(db):
    conn = sqlite3.connect(db)
    try:
        if not conn.execute("SELECT 1 FROM sqlite_master WHERE name='events'").fetchone():
            return []  # killed before its first commit: an empty file, as banco treats it
        return conn.execute("SELECT game_id, seq, type, data, command_id, hash FROM events "
                            "ORDER BY game_id, seq").fetchall()
    finally:
        conn.close()


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A database holding the recorded classic game (made in-process: quicker)."""
    db = tmp_path_factory.mktemp("played") / "played.db"
    result = CliRunner().invoke(cli, ["--db", str(db), "run", "-q",
                                      str(FIXTURES / "classic-4p.banco")])
    assert result.exit_code == 0, result.output
    return db


def copy_of(played, tmp_path, name="b.db"):
    db = tmp_path / name
    shutil.copy(played, db)
    return db


# --- every bad --db: one `error:` line, exit 4, nothing created or appended -------------------

def one_error_line(result, *words):
    lines = [x for x in result.stderr.splitlines() if not x.startswith("WARNING")]
    assert lines and lines[0].startswith("error: "), result.stderr
    assert all(w in result.stderr for w in words), result.stderr


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
        one_error_line(result, "locked by another banco writing to it; waited 1 s; nothing "
                               "was recorded, retry")
        assert 1 <= waited < 5
        assert "\nnext: " in banco("--db", db, "state").stdout  # reads do not wait
        assert rows(db) == before
    finally:
        holder.kill()
        holder.wait()


# --- pipes and signals ------------------------------------------------------------------------

@pytest.fixture(scope="module")
def long_game(tmp_path_factory):
    db = tmp_path_factory.mktemp("long") / "long.db"
    result = CliRunner().invoke(cli, ["--db", str(db), "run", "-q",
                                      str(FIXTURES / "classic-to-the-end.banco")])
    assert result.exit_code == 0, result.output
    return db


def test_the_standings_say_how_the_bankrupt_are_ranked(long_game):
    """Three players out at net worth 0: the order is when they went out, and it is said."""
    out = banco("--db", long_game, "standings").stdout.splitlines()
    assert [line.split()[1] for line in out[1:5]] == ["Bruno", "Dario", "Anna", "Carla"]
    assert out[5] == "the bankrupt rank by when they went out, the last out first"
    out = banco("--db", long_game, "--lang", "it", "classifica").stdout.splitlines()
    assert out[5] == "chi è in bancarotta è in ordine di uscita, l'ultimo uscito per primo"


def test_a_report_to_standard_output_is_the_page_alone(long_game):
    """`report -o -`: the page on stdout, its summary on stderr (it followed the page)."""
    done = banco("--db", long_game, "report", "-o", "-")
    assert done.stdout.startswith("<!DOCTYPE html>") and done.stdout.endswith("</html>\n")
    assert done.stderr.startswith("game 1: report written to - (")


def test_a_referee_s_slips_are_one_line_each(long_game):
    """A referee's trial: `log --tail 0` printed the whole log; `replay --from 20 --to 10`
    said 'no command in that range' with exit 0; an offset of +99:00 was answered in
    Python's words."""
    r = banco("--db", long_game, "log", "--tail", "0")
    assert r.stdout == "no event of game 1 matches (it has events 1 to 1721)\n"
    assert banco("--db", long_game, "log", "--tail", "0", "--json").stdout.strip() == "[]"
    one_error_line(banco("--db", long_game, "history", "Via!", code=2),
                   "Via! is a space of the board, not a deed")  # it said "ambiguous"
    one_error_line(banco("--db", long_game, "log", "--type", "", code=2),
                   "--type takes an event type or the start of one")
    r = banco("--db", long_game, "replay", "--from", "20", "--to", "10", code=2)
    one_error_line(r, "--from 20 comes after --to 10: give the earlier moment first")
    r = banco("--db", long_game, "state", "--at", "2026-12-02 18:28:14+99:00", code=2)
    one_error_line(r, "a UTC offset is between -23:59 and +23:59")
    assert "timedelta" not in r.stderr


def test_show_of_a_deleted_event_says_it_is_missing(long_game, tmp_path):
    """A referee's trial: with row 185 deleted, `show 185` printed event 186 as event 185."""
    import shutil

    db = tmp_path / "cut.db"
    shutil.copyfile(long_game, db)
    conn = sqlite3.connect(db)
    conn.execute("DROP TRIGGER events_no_delete")
    conn.execute("DELETE FROM events WHERE game_id=1 AND seq=185")
    conn.commit()
    conn.close()
    r = banco("--db", db, "show", "185", code=4)
    assert r.stdout == ""
    assert ("error: event 185 of game 1 is missing from the log (the next row is event 186): "
            "a row was deleted; run `banco audit`") in r.stderr


def test_log_into_a_reader_that_stops_after_one_line(long_game):
    proc = subprocess.Popen([str(BANCO), "--db", str(long_game), "log"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    first = proc.stdout.readline()
    proc.stdout.close()  # `| head -1`: the reader has gone, ~150 kB still to write
    err = proc.stderr.read()
    assert proc.wait(30) == 0 and err == b"" and b"what happened" in first  # the header row
    shell = subprocess.run(f"set -o pipefail; '{BANCO}' --db '{long_game}' log | head -1",
                           shell=True, executable="/bin/bash", capture_output=True, text=True)
    assert shell.returncode == 0 and shell.stderr == "" and len(shell.stdout.splitlines()) == 1


def wait_for_events(db, at_least, proc, timeout=20):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            if len(rows(db)) >= at_least:
                return
        except sqlite3.Error:
            pass
        time.sleep(0.02)


def test_ctrl_c_during_a_run_reports_what_was_recorded(tmp_path):
    db = tmp_path / "int.db"
    script = FIXTURES / "classic-to-the-end.banco"
    proc = subprocess.Popen([str(BANCO), "--db", str(db), "run", "-q", str(script)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wait_for_events(db, 200, proc)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, (out, err)
    assert "Traceback" not in err and "was refused" not in err
    recorded = rows(db)
    last_seq = recorded[-1][1]
    last_line = json.loads(next(r[3] for r in reversed(recorded) if r[2] == "CommandRecorded"))
    lines = script.read_text(encoding="utf-8").splitlines()
    reported = [x for x in err.splitlines() if "interrupted after line" in x]
    assert reported, err
    number = int(reported[0].split("interrupted after line ")[1].split()[0])
    assert f"(event {last_seq} recorded); re-run to continue" in reported[0]
    assert lines[number - 1].lstrip("! ").startswith(last_line["line"].lstrip("! "))


def _transcript(folder: Path) -> Path:
    """The recorded classic game under a fixed identity, so that two runs hash alike."""
    folder.mkdir(exist_ok=True)
    text = (FIXTURES / "classic-4p.banco").read_text(encoding="utf-8")
    text = text.replace("--edition it\n", f"--edition it --uuid {UID}\n", 1)
    path = folder / "classic.banco"
    path.write_text(text, encoding="utf-8")
    return path


def _last_seq(db: Path) -> int:
    """The last seq in the file (0 before its first commit), read again on a busy moment:
    a 0 for "busy" would aim a kill at a point already behind, and it would record nothing."""
    if not db.exists():
        return 0
    for _ in range(200):
        conn = sqlite3.connect(db, timeout=5)
        try:
            return conn.execute("SELECT MAX(seq) FROM events").fetchone()[0] or 0
        except sqlite3.OperationalError as exc:
            if "no such table" in str(exc):
                return 0
            time.sleep(0.01)
        finally:
            conn.close()
    raise AssertionError(f"{db} could not be read for two seconds")


def test_a_run_killed_anywhere_then_run_again_ends_as_if_never_killed(tmp_path, monkeypatch):
    """SIGKILL at 20 random points of the log (and at a random moment after each: inside a
    transaction, between two, while a snapshot is written), re-run after each: the file always
    holds an exact prefix of the uninterrupted run's log ending where a command ends, and the
    last run ends with the same log, the same head and the same snapshots' tables."""
    env = {**FIXED, "BANCO_LOCK_WAIT": "5"}
    whole = tmp_path / "whole.db"
    banco("--db", whole, "run", "-q", _transcript(tmp_path / "a"), env=env)
    reference = rows(whole)
    db = tmp_path / "killed.db"
    script = _transcript(tmp_path / "b")
    rng = random.Random(2026)
    # points in the first 80% of the log: a run killed late may go on a few commands before
    # it dies, and the game must not end before the twentieth kill
    targets = sorted(rng.sample(range(1, len(reference) * 4 // 5), 20))
    kills = []
    for target in targets:
        if kills and kills[-1] == len(reference):
            break  # a fast machine: the runs overshot their aims and the game is recorded whole
        target = max(target, _last_seq(db) + 1)  # the last run went past it: the next event
        errors = tmp_path / "run.err"
        with errors.open("w") as err:
            proc = subprocess.Popen([str(BANCO), "--db", str(db), "run", "-q", str(script)],
                                    stdout=subprocess.DEVNULL, stderr=err,
                                    env={**os.environ, **env})
        deadline = time.monotonic() + 20
        while proc.poll() is None and _last_seq(db) < target and time.monotonic() < deadline:
            time.sleep(0.003)
        time.sleep(rng.uniform(0, 0.01))
        # a run that stopped by itself before the kill: only by getting to the game's end
        ended = proc.poll()
        assert ended is None or (ended == 0 and rows(db) == reference), (
            target, ended, errors.read_text())
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        got = rows(db) if db.exists() else []  # an empty file if killed before its first commit
        kills.append(len(got))
        # an exact prefix of the uninterrupted log, ending where a command ends
        assert got == reference[:len(got)], kills
        if got and len(got) < len(reference):
            assert reference[len(got)][4] != got[-1][4], kills
    # at least a dozen kills before the end, each after at least one more event was recorded
    # (each run goes a few commands past its aim before the kill lands: on a fast machine the
    # twenty aims can take the game to its end sooner)
    before_end = [k for k in kills if k < len(reference)]
    assert len(before_end) >= 12 and kills == sorted(set(kills)), kills
    banco("--db", db, "run", "-q", script, env=env)
    assert rows(db) == reference, kills
    head = banco("--db", db, "audit").stdout.splitlines()[-1]
    assert head == banco("--db", whole, "audit").stdout.splitlines()[-1]
    state = banco("--db", db, "state", "--json").stdout
    assert state == banco("--db", whole, "state", "--json").stdout


# --- several processes at once ----------------------------------------------------------------

def test_four_processes_starting_games_on_a_new_file(tmp_path):
    db = tmp_path / "many.db"
    procs = []
    for rnd in range(2):
        for w in range(4):
            procs.append(subprocess.Popen([str(BANCO), "--db", str(db), "new", f"P{w}",
                                           f"Q{rnd}"], stdout=subprocess.PIPE,
                                          stderr=subprocess.PIPE, text=True))
    for p in procs:
        out, err = p.communicate(timeout=60)
        # a process that starts after another's game is in the file says, rightly, which game
        # it leaves unfinished (cli/banker/setting_up.py); nothing else may be said
        assert p.returncode == 0, err
        assert re.fullmatch(r"(warning: game \d \(P\d, Q\d\) is left unfinished; `--game \d` "
                            r"goes back to it\ncommands without --game now go to game \d, the "
                            r"latest; a table sharing this database with others names its own: "
                            r"`export BANCO_GAME=\d`\n)?", err), err
    games = json.loads(banco("--db", db, "games", "--json").stdout)
    assert [g["game"] for g in games] == list(range(1, 9))
    assert sorted("".join(g["players"]) for g in games) == sorted(
        f"P{w}Q{r}" for w in range(4) for r in range(2))
    assert len({g["uuid"] for g in games}) == 8


WORKER = """
import random, subprocess, sys, time
banco, db, worker, lot, rounds = sys.argv[1:6]
banco = banco.split("\\x1f")  # the program, or python -c a banco that snapshots often
for r in range(int(rounds)):
    for word in ("mortgage", "unmortgage"):
        key = f"w{worker}-{r}-{word}"
        for attempt in range(200):  # exit 5 (the table moved) or 4 (locked): same key again
            code = subprocess.run([*banco, "--db", db, word, *lot.split(), "--id", key],
                                  stdout=subprocess.DEVNULL).returncode
            if code == 0:
                break
            assert code in (4, 5), code
            time.sleep(random.uniform(0, 0.2))
        else:
            sys.exit(f"{key} never went through")
"""


SNAPPING_BANCO = ("import sys; from banco.ledger.book import Book; Book.SNAPSHOT_EVERY = 1; "
                  "sys.argv[0] = 'banco'; from banco.cli.main import main; main()")


def test_four_processes_writing_to_one_game_lose_and_duplicate_nothing(tmp_path):
    db = tmp_path / "shared.db"
    setup = ["new Anna Bruno Carla Dario", "roll 1 2", "buy", "roll 2 3", "buy", "roll 2 4",
             "buy", "roll 4 5", "buy"]  # each player owns one deed, which he may mortgage
    (tmp_path / "setup.banco").write_text("\n".join(setup) + "\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["--db", str(db), "run", "-q",
                                      str(tmp_path / "setup.banco")])
    assert result.exit_code == 0, result.output
    start = rows(db)
    lots = {"Anna": "vicolo stretto", "Bruno": "stazione sud", "Carla": "bastioni gran sasso",
            "Dario": "viale vesuvio"}
    rounds = 2
    # two of the four write a snapshot of the table inside every append (ledger/book.py), so
    # that snapshots are written while the others write and are refused for conflicts
    snapping = "\x1f".join([sys.executable, "-c", SNAPPING_BANCO])
    procs = [subprocess.Popen([sys.executable, "-c", WORKER, snapping if i % 2 else str(BANCO),
                               str(db), name, lot, str(rounds)])
             for i, (name, lot) in enumerate(lots.items())]
    for p in procs:
        assert p.wait(120) == 0
    new = rows(db)[len(start):]
    assert rows(db)[:len(start)] == start
    recorded = [json.loads(r[3])["line"] for r in new if r[2] == "CommandRecorded"]
    assert sorted(recorded) == sorted(f"{word} {lot}" for lot in lots.values()
                                      for word in ("mortgage", "unmortgage")
                                      for _ in range(rounds))
    ids = [r[4] for r in new if r[2] == "CommandRecorded"]
    assert len(ids) == len(set(ids)) == 8 * rounds  # each key once
    mortgaged = [json.loads(r[3])["player"] for r in new if r[2] == "PropertyMortgaged"]
    assert sorted(mortgaged) == sorted(list(lots) * rounds)
    audit = banco("--db", db, "audit").stdout
    assert "chain intact, schemas valid, books balance" in audit
    state = json.loads(banco("--db", db, "state", "--json").stdout)
    assert not any(p["mortgaged"] for p in state["properties"])
    # the snapshots left behind are each the table folded from the log to their seq
    from banco.ledger.snapshot_check import verify_snapshots
    from banco.ledger.store.sqlite import SQLiteStore

    store = SQLiteStore(str(db), create=False)
    snaps = store.snapshots(1)
    # the newest three, and the game's first (ledger/store/kept_snapshots.py: the first of
    # every 500 events stays too)
    assert len(snaps) == 4 and snaps[0].seq > len(start) and snaps[-1].seq < 500
    assert verify_snapshots(store, 1) == []
    store.close()


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


# --- click's own usage mistakes: banco's one `error:` line, exit 2 ----------------------------

def test_click_usage_mistakes_are_one_error_line(tmp_path):
    """`bid bea 5O`, `buy buy`, `pay Bea 50`, `--game abc`, a transcript that is not there: once
    click's block (`Usage: ... Try 'banco bid --help' ... Error: Invalid value`)."""
    db = tmp_path / "u.db"
    banco("--db", db, "new", "Anna", "Bea")
    before = rows(db)
    for args, said in [
            (["bid", "Bea", "5O"], "error: '5O' is not a valid integer: did you mean 50? (a "
                                   "letter typed for a digit)\n"),
            (["bid", "Bea", "５"], "error: '５' is not a valid integer: did you mean 5? (type "
                                   "the digits 0-9)\n"),
            (["bid", "50", "Bea"], "error: the amount comes after the name: `bid Bea 50`"),
            (["buy", "buy"], "error: Got unexpected extra argument (buy); usage: banco buy "
                             "[OPTIONS]\n  `buy` takes no words: the current player buys the "
                             "property where the token stands, at its printed price\n"),
            (["pay", "Bea", "50"], "error: Got unexpected extra argument (50); usage: banco "
                                   "pay [OPTIONS] [DEBTOR]\n  `pay DEBTOR` settles a debt the "
                                   "rules already worked out (a rent, a tax, a card), so it "
                                   "takes no amount; players hand each other cash only in a "
                                   "trade with something on both sides: `trade A B --give 50 "
                                   "--get PROPERTY` (003 §06)\n"),
            (["--lang", "it", "riscuoti", "Bea", "26"], "errore: Argomento in più inatteso "
             "(26); uso: banco riscuoti [OPZIONI] PROPRIETARIO\n  `riscuoti PROPRIETARIO` non "
             "prende un importo: banco calcola l'affitto dal tabellone (`tabellone` lo "
             "mostra)\n"),
            (["claim"], "error: Missing argument 'OWNER'; usage: banco claim [OPTIONS] OWNER\n"),
            (["--game", "abc", "state"],
             "error: Invalid value for '--game': 'abc' is not a valid integer."),
            (["run", tmp_path / "nofile.banco"], "error: Invalid value for 'TRANSCRIPT': ")]:
        result = banco("--db", db, *args, code=2)
        # one line; a word given more than it takes says under it what was likely meant
        assert result.stderr.startswith(said) and len(result.stderr.splitlines()) == \
            said.count("\n  ") + 1, (args, result.stderr)
        assert "Usage:" not in result.stderr and "Try 'banco" not in result.stderr
    assert rows(db) == before


def test_an_accepted_line_expected_refused_is_counted_recorded_and_exits_2(tmp_path):
    """A `!` line the rules accept is recorded: run says so, with its events and `undo`, and
    exits 2 (the transcript is mistaken), not 1, which says nothing was appended."""
    db = tmp_path / "r.db"
    script = tmp_path / "g.banco"
    script.write_text("new Anna Bea\nroll 1 2\n! buy\nroll 2 3\n")
    result = banco("--db", db, "run", "-q", script, code=2)
    assert result.stderr.strip().splitlines()[-1] == (
        f"{script}:3: `buy` was expected to be refused, but was accepted and recorded "
        "(events 9-11: `undo` takes it back, or remove its `!` if the table was right); "
        "stopped after 3 lines")
    assert [r[2] for r in rows(db)][-3:] == ["CommandRecorded", "PropertyBought", "TurnEnded"]
    assert [r[1] for r in rows(db)][-3:] == [9, 10, 11]
    # a re-run does not go on past it as if the table had refused it
    again = banco("--db", db, "run", "-q", script, code=2)
    assert again.stderr.strip() == (
        f"{script}:3: `buy` was expected to be refused, but an earlier run recorded it as "
        "accepted (events 9-11): remove its `!` if the table was right; nothing was recorded "
        "by this run")
    assert len(rows(db)) == 11
    # the table was right: without the `!` (not part of a line's id) the run goes on
    script.write_text("new Anna Bea\nroll 1 2\nbuy\nroll 2 3\n")
    assert "1 line done (3 were recorded before)" in banco("--db", db, "run", "-q", script).stdout
    assert "undone" in banco("--db", db, "undo").stdout


def test_a_shell_fed_on_a_pipe_exits_with_its_first_failed_line_s_code(tmp_path):
    """`banco shell < lines`: a script learns that a line failed, as `banco run` tells it; the
    lines after it still run (a shell goes on), and a clean feed exits 0."""
    db = tmp_path / "p.db"
    banco("--db", db, "new", "Anna", "Bruno", env=FIXED)

    def fed(text):
        return subprocess.run([str(BANCO), "--db", str(db), "shell"], input=text,
                              capture_output=True, text=True, timeout=60)

    r = fed("rol 3 4\nbuy\nroll 3 4\n")  # a usage error first, then a refusal, then a roll
    assert "Traceback" not in r.stderr
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert "did you mean roll?" in r.stderr and "refused: cannot buy now" in r.stderr
    assert "Anna rolls 3+4 = 7" in r.stdout  # the line after the failures was run
    r = fed("buy\nstate\n")  # Anna on Imprevisti: a refusal first
    assert r.returncode == 1, (r.stdout, r.stderr)
    r = fed("state\nlog --tail 1\n")
    assert r.returncode == 0, (r.stdout, r.stderr)


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


def test_a_recorded_command_whose_answer_is_lost_says_it_was_recorded(tmp_path):
    """`banco card imprevisti 8 > /dev/full` said only 'cannot write the answer' though the
    card was recorded: a banker would type it again.  The error says the command was
    recorded, which events, and not to type it again (exit 4 still); a reading says only
    that its answer is lost, and the card is in the book once."""
    db = tmp_path / "full.db"
    banco("--db", db, "new", "Ada", "Bea", "Cy")
    banco("--db", db, "roll", "3", "4")  # Ada on Imprevisti, events up to 9
    with open("/dev/full", "w") as full:
        r = subprocess.run([str(BANCO), "--db", str(db), "card", "imprevisti", "8"], stdout=full,
                           stderr=subprocess.PIPE, text=True, timeout=60)
        state = subprocess.run([str(BANCO), "--db", str(db), "state"], stdout=full,
                               stderr=subprocess.PIPE, text=True, timeout=60)
    assert r.returncode == 4 and "Traceback" not in r.stderr, r.stderr
    assert r.stderr == ("error: the command was recorded (events 10-13); its answer could not "
                        "be written: No space left on device; `banco state` shows the table: "
                        "do not type it again\n")
    assert state.returncode == 4
    assert state.stderr == "error: cannot write the answer: No space left on device\n"
    assert "last: card imprevisti 8" in banco("--db", db, "state").stdout
