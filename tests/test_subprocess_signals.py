"""The installed `banco` on pipes and under signals: a reader that stops, Ctrl-C during a run,
and a run killed anywhere then run again, ending as if never killed."""

import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from installed import (
    BANCO,
    FIXED,
    FIXTURES,
    INSTALLED,
    UID,
    banco,
    one_error_line,
    rows,
    wait_for_events,
)

from banco.cli.main import cli

pytestmark = INSTALLED


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
