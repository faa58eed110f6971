"""Issue 22, the league on PostgreSQL: the referee's and the organiser's commands (`audit`,
`seal`, `export`, `import`, `report`, `doctor`) on a PostgreSQL database give what they give on
the same game in a SQLite file: the same verdict and head, the same event named when a row is
tampered with, the same exported bytes.  The same transcript is played into both stores under
BANCO_FIXED_TIME, so both hold the same rows, hashes included.

On the run's throwaway server (tests/pg_cluster.py): skipped without one, failed with CI=true.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pg_cluster
import pytest
from click.testing import CliRunner

from banco.cli.main import cli
from banco.ledger.base.errors import EXIT_AUDIT, EXIT_USAGE

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
BANCO = Path(sys.executable).parent / "banco"
FIXED = "2026-11-29T21:00:00Z"


def banco(db: str, *words, code: int = 0) -> str:
    """`banco --db DB WORDS` in this process; its output, the exit code checked."""
    result = CliRunner().invoke(cli, ["--db", db, *map(str, words)], catch_exceptions=False)
    assert result.exit_code == code, (words, result.output)
    return result.output


def admin(url: str, *statements: tuple) -> None:
    """Statements as the tables' owner (past banco's role's grants), in one transaction."""
    import psycopg

    with psycopg.connect(url) as conn, conn.transaction():
        for sql, *args in statements:
            conn.execute(sql, tuple(args))


def tamper_pg(admin_url: str, game: int, seq: int, data: str) -> None:
    """What the database's owner can do: the log's triggers off for a moment."""
    admin(admin_url, ("ALTER TABLE banco.events DISABLE TRIGGER USER",),
          ("UPDATE banco.events SET data=%s WHERE game_id=%s AND seq=%s", data, game, seq),
          ("ALTER TABLE banco.events ENABLE TRIGGER USER",))


def tamper_sqlite(path: Path, game: int, seq: int, data: str) -> None:
    import sqlite3

    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("DROP TRIGGER events_no_update")
    conn.execute("UPDATE events SET data=? WHERE game_id=? AND seq=?", (data, game, seq))
    conn.close()


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> tuple[Path, str]:
    """(SQLite file, the admin's URL of a PostgreSQL database): classic-4p played into each
    once a module, under the same fixed time, so that both hold the same rows; never handed
    to a test, which tampers with a copy of each (`both`)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("BANCO_FIXED_TIME", FIXED)
        url, admin_url = pg_cluster.database()
        db = tmp_path_factory.mktemp("referee") / "table.db"
        for where in (str(db), url):
            banco(where, "run", "-q", FIXTURES / "classic-4p.banco")
    return db, admin_url


@pytest.fixture
def both(played, tmp_path, monkeypatch):
    """(SQLite file, PostgreSQL URL, the admin's URL): a copy of the same game in each (the
    file copied, the database cloned from its template: 13 tests replayed the transcript
    twice each, a sixth of this file's time in PostgreSQL's inserts)."""
    monkeypatch.setenv("BANCO_FIXED_TIME", FIXED)
    db = tmp_path / "table.db"
    for tail in ("", "-wal"):  # a write-ahead log left beside it goes with it
        if Path(f"{played[0]}{tail}").exists():
            shutil.copy(f"{played[0]}{tail}", f"{db}{tail}")
    url, admin_url = pg_cluster.clone(played[1])
    return db, url, admin_url


def audited(db, *words, code: int = 0) -> dict:
    return json.loads(banco(str(db), "audit", "--json", *words, code=code))


# --- audit ---------------------------------------------------------------------------------

def test_audit_passes_on_postgresql_with_the_head_it_has_on_sqlite(both):
    db, url, _ = both
    lite, pg = audited(db), audited(url)
    assert pg["ok"] and pg == lite
    assert pg["games"][0]["head"] and pg["games"][0]["events"] > 100
    head = pg["games"][0]["head"]
    line = f"banco/1/{pg['games'][0]['events']}/{head[:12]}"
    assert audited(url, "--expect-head", line)["ok"]
    assert audited(url, "--expect-head", head[:12])["ok"]  # the game found by its digits


def test_a_tampered_postgresql_row_is_named_by_game_and_seq_as_on_sqlite(both):
    db, url, admin_url = both
    forged = '{"amount":1,"from":"bank","reason":"x","to":"Anna"}'
    tamper_sqlite(db, 1, 40, forged)
    tamper_pg(admin_url, 1, 40, forged)
    lite, pg = audited(db, code=EXIT_AUDIT), audited(url, code=EXIT_AUDIT)
    assert (pg["games"][0]["bad_seq"], pg["games"][0]["game"]) == (40, 1)
    assert pg["games"] == lite["games"]
    text = banco(url, "audit", code=EXIT_AUDIT)
    assert "game 1: FAILED at event 40" in text


def test_a_games_row_edited_on_postgresql_is_named_as_on_sqlite(both):
    import sqlite3

    db, url, admin_url = both
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("UPDATE games SET head='0000' || substr(head, 5)")
    conn.close()
    admin(admin_url, ("UPDATE banco.games SET head='0000' || substr(head, 5)",))
    lite, pg = audited(db, code=EXIT_AUDIT), audited(url, code=EXIT_AUDIT)
    assert pg["games"] == lite["games"] and pg["database"] == lite["database"]
    assert "the log was rewritten or cut" in pg["games"][0]["problem"]


def test_an_audit_with_workers_asked_for_is_the_sqlite_one_on_postgresql(both, monkeypatch):
    db, url, _ = both
    monkeypatch.setenv("BANCO_AUDIT_WORKERS", "2")  # no file the workers open: each game here
    assert audited(url) == audited(db)


# --- seal ----------------------------------------------------------------------------------

def test_a_seal_made_on_postgresql_is_the_sqlite_one_and_its_audit_passes(both, tmp_path):
    db, url, admin_url = both
    key, pub = FIXTURES / "demo-referee.key", FIXTURES / "demo-referee.pub"
    files = []
    for where, name in ((str(db), "lite.txt"), (url, "pg.txt")):
        banco(where, "seal", "--key", key, "--out", tmp_path / name)
        files.append((tmp_path / name).read_text())
    assert files[0] == files[1]
    checked = audited(url, "--seal", tmp_path / "pg.txt", "--pubkey", pub)
    assert checked["ok"] and checked["seal"]["ok"] and checked["seal"]["game"] == 1
    tamper_pg(admin_url, 1, 12, '{"x":1}')  # a sealed event rewritten
    checked = audited(url, "--seal", tmp_path / "pg.txt", "--pubkey", pub, code=EXIT_AUDIT)
    assert checked["seal"]["bad_seq"] == 12


# --- export, import, report ------------------------------------------------------------------

def test_export_of_a_postgresql_game_is_the_sqlite_export_byte_for_byte(both, tmp_path):
    db, url, _ = both
    banco(str(db), "export", "-o", tmp_path / "lite.jsonl")
    banco(url, "export", "-o", tmp_path / "pg.jsonl")
    assert (tmp_path / "pg.jsonl").read_bytes() == (tmp_path / "lite.jsonl").read_bytes()


def test_a_game_imported_into_postgresql_audits_with_its_head(both, tmp_path):
    db, _, _ = both
    banco(str(db), "export", "-o", tmp_path / "game.jsonl")
    into, _ = pg_cluster.database()
    banco(into, "import", tmp_path / "game.jsonl")
    lite, pg = audited(db), audited(into)
    assert pg["ok"] and pg["games"][0]["head"] == lite["games"][0]["head"]
    banco(into, "export", "-o", tmp_path / "again.jsonl")
    assert (tmp_path / "again.jsonl").read_bytes() == (tmp_path / "game.jsonl").read_bytes()
    again = banco(into, "import", tmp_path / "game.jsonl", code=EXIT_USAGE)  # the same game
    assert "already game 1 in postgresql://banco:***@" in again
    assert pg_cluster.APP_PASSWORD not in again


def test_the_report_of_a_postgresql_game_is_the_sqlite_report(both, tmp_path):
    db, url, _ = both
    banco(str(db), "report", "-o", tmp_path / "lite.html")
    banco(url, "report", "-o", tmp_path / "pg.html")
    assert (tmp_path / "pg.html").read_bytes() == (tmp_path / "lite.html").read_bytes()


# --- doctor ----------------------------------------------------------------------------------

def test_doctor_on_postgresql_checks_what_applies_and_says_what_it_skips(both):
    db, url, admin_url = both
    doc = json.loads(banco(url, "doctor", "--json"))
    assert doc["healthy"] and doc["problems"] == [] and doc["games"] == 1
    assert doc["events"] == json.loads(banco(str(db), "doctor", "--json"))["events"]
    assert "password" not in doc["database"] and "***" in doc["database"]
    assert any("quick_check" in t for t in doc["not_checked"])
    text = banco(url, "doctor")
    assert "not checked here:" in text and "healthy" in text
    admin(admin_url, ("ALTER TABLE banco.events DISABLE TRIGGER events_no_update",))
    doc = json.loads(banco(url, "doctor", "--json", code=EXIT_AUDIT))
    assert doc["triggers"]["missing"] == ["events_no_update"]
    # a repair on PostgreSQL rebuilds the read model only: the guards are the owner's
    out = banco(url, "doctor", "--repair", code=EXIT_AUDIT)
    assert "postgres_setup" in out and "events_no_update" in out
    assert json.loads(banco(url, "doctor", "--json", code=EXIT_AUDIT))["triggers"][
        "missing"] == ["events_no_update"]


def test_a_snapshot_edited_on_postgresql_is_named_by_doctor_as_on_sqlite(both):
    import sqlite3

    db, url, admin_url = both
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("UPDATE snapshots SET state = state || ' '")
    conn.close()
    admin(admin_url, ("UPDATE banco.snapshots SET state = state || ' '",))
    lite = json.loads(banco(str(db), "doctor", "--json", code=EXIT_AUDIT))
    pg = json.loads(banco(url, "doctor", "--json", code=EXIT_AUDIT))
    assert pg["snapshots"]["checked"] == lite["snapshots"]["checked"] > 0
    assert pg["problems"] == lite["problems"] and pg["problems"][0]["kind"] == "snapshot"
    assert pg["problems"][0]["game"] == 1 and pg["problems"][0]["seq"]


# --- the installed banco, as a process ---------------------------------------------------------

@pytest.mark.skipif(not BANCO.exists(), reason="banco is not installed in this venv")
def test_the_installed_banco_audits_and_doctors_postgresql_without_a_traceback(both,
                                                                              tmp_path):
    _, url, admin_url = both
    env = {**os.environ, "BANCO_FIXED_TIME": FIXED}
    page = tmp_path / "report.html"
    for words, code in ((["audit"], 0), (["doctor"], 0), (["report", "-o", str(page)], 0)):
        done = subprocess.run([str(BANCO), "--db", url, *words], capture_output=True,
                              text=True, env=env, timeout=120)
        assert done.returncode == code, (words, done.stdout, done.stderr)
        assert "Traceback" not in done.stderr and pg_cluster.APP_PASSWORD not in done.stdout
    tamper_pg(admin_url, 1, 40, '{"x":1}')
    done = subprocess.run([str(BANCO), "--db", url, "audit"], capture_output=True, text=True,
                          env=env, timeout=120)
    assert done.returncode == EXIT_AUDIT and "Traceback" not in done.stderr
    assert "game 1: FAILED at event 40" in done.stdout


def test_a_write_onto_a_log_without_its_guards_is_recorded_with_a_warning(both, tmp_path):
    """A dropped (SQLite) or switched-off (PostgreSQL) trigger lets a recorded row be changed
    with no trace but the chain's: the banker's next write says so, in either store, and still
    records; with the guards in place, not a word."""
    import sqlite3

    db, url, admin_url = both
    for where in (str(db), url):
        banco(where, "new", "Anna", "Bruno")
        assert "WARNING" not in banco(where, "roll", "1", "2")
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("DROP TRIGGER events_no_delete")
    conn.close()
    admin(admin_url, ("ALTER TABLE banco.events DISABLE TRIGGER events_no_update",))
    for where, name in ((str(db), "events_no_delete"), (url, "events_no_update")):
        out = banco(where, "buy")
        assert f"WARNING: the log's guard {name} is missing" in out, out
        assert "Anna pays 60 M to the Bank" in out  # recorded all the same
        assert "protezione del registro" in banco(where, "--lang", "it", "undo")
        assert "WARNING" not in banco(where, "state")  # a reading changes nothing
    banco(str(db), "doctor", "--repair")
    assert "WARNING" not in banco(str(db), "buy")


def test_games_warns_of_a_games_row_edited_in_either_store(both):
    """`games` holds each row to its log in PostgreSQL as in SQLite (the owner's edit)."""
    import sqlite3

    db, url, admin_url = both
    assert "WARNING" not in banco(url, "games")
    admin(admin_url, ("UPDATE banco.games SET rules='championship' WHERE game_id=1",))
    conn = sqlite3.connect(db)
    conn.execute("UPDATE games SET rules='championship' WHERE game_id=1")
    conn.commit()
    conn.close()
    for where in (str(db), url):
        out = banco(where, "games")
        assert "WARNING: the games table says game 1's rules is championship, but its log " \
               "says classic" in out, (where, out)
