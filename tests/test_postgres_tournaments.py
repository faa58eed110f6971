"""Issue 22: tournaments on PostgreSQL (ledger/store/postgres_tournaments.py) as in a SQLite
file (tests/test_tournament*.py): the same games played into both stores under
BANCO_FIXED_TIME give the same standings and the same tournament head; the facts are
append-only (for the owner too); a fact edited or a game reopened after it was entered is named
by `audit` as on the file; a tournament's archive moves between the stores.

On the run's throwaway server (tests/pg_cluster.py): skipped without one, failed with CI=true.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pg_cluster
import pytest
from test_postgres_referee import admin, banco

from banco.ledger.base.errors import EXIT_AUDIT

FIXED = "2026-11-29T21:00:00Z"
GAMES = ((("Anna", "Bruno", "Carla"), ("roll 1 2", "buy")),
         (("Dario", "Elena", "Fabio"), ()),
         (("Anna", "Bruno", "Dario"), ("roll 1 2", "buy")))


def play(db: str) -> None:
    """'Coppa': games 1 and 2 in round 1, game 3 in round 2."""
    for players, lines in GAMES:
        banco(db, "new", *players, "--rules", "championship")
        for line in lines:
            banco(db, *line.split())
        banco(db, "time-up")
    banco(db, "tournament", "new", "Coppa")
    banco(db, "tournament", "add", 1, 2)
    banco(db, "tournament", "add", 3)


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> tuple[Path, str]:
    """(SQLite file, the admin's URL of a PostgreSQL database): the tournament played into
    each once a module; never handed to a test, which tampers with a copy of each (`both`)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("BANCO_FIXED_TIME", FIXED)
        url, admin_url = pg_cluster.database()
        db = tmp_path_factory.mktemp("tournament") / "t.db"
        for where in (str(db), url):
            play(where)
    return db, admin_url


@pytest.fixture
def both(played, tmp_path, monkeypatch):
    """(SQLite file, PostgreSQL URL, the admin's URL): a copy of the same tournament in each
    (the file copied, the database cloned from its template, as test_postgres_referee.py
    does: each test played the three games into both stores again)."""
    monkeypatch.setenv("BANCO_FIXED_TIME", FIXED)
    db = tmp_path / "t.db"
    for tail in ("", "-wal"):  # a write-ahead log left beside it goes with it
        if Path(f"{played[0]}{tail}").exists():
            shutil.copy(f"{played[0]}{tail}", f"{db}{tail}")
    url, admin_url = pg_cluster.clone(played[1])
    return str(db), url, admin_url


def audit_problems(db: str) -> list[str]:
    doc = json.loads(banco(db, "audit", "--json", code=EXIT_AUDIT))
    return [f["problem"] for f in doc["database"]]


def test_the_same_tournament_has_the_same_standings_and_head_on_either_store(both):
    db, url, _ = both
    lite = json.loads(banco(db, "tournament", "standings", "--json"))
    pg = json.loads(banco(url, "tournament", "standings", "--json"))
    assert pg == lite and pg["rounds"] == 2 and pg["head"]
    assert banco(url, "tournament", "standings") == banco(db, "tournament", "standings")
    assert json.loads(banco(url, "audit", "--json"))["ok"]
    assert "there is already a tournament" in banco(url, "tournament", "new", "Coppa", code=2)


def test_the_facts_refuse_change_to_banco_s_role_and_to_their_owner(both):
    import psycopg

    _, url, admin_url = both
    with psycopg.connect(url, autocommit=True) as conn:
        for sql in ("UPDATE banco.tournament_facts SET data='{}'",
                    "DELETE FROM banco.tournament_facts", "TRUNCATE banco.tournament_facts"):
            with pytest.raises(psycopg.Error, match="permission denied"):
                conn.execute(sql)
    with psycopg.connect(admin_url, autocommit=True) as conn:
        for sql, op in (("UPDATE banco.tournament_facts SET data='{}'", "UPDATE"),
                        ("DELETE FROM banco.tournament_facts", "DELETE"),
                        ("TRUNCATE banco.tournament_facts", "TRUNCATE")):
            with pytest.raises(psycopg.Error, match=f"tournament facts are append-only: {op}"):
                conn.execute(sql)


def test_a_fact_edited_is_named_by_audit_as_on_the_file(both):
    db, url, admin_url = both
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("DROP TRIGGER tournament_facts_no_update")
    conn.execute("UPDATE tournament_facts SET data = replace(data, '\"round\":2', '\"round\":1') "
                 "WHERE seq = 4")
    conn.close()
    admin(admin_url, ("ALTER TABLE banco.tournament_facts DISABLE TRIGGER USER",),
          ("UPDATE banco.tournament_facts SET data = replace(data, '\"round\":2', "
           "'\"round\":1') WHERE seq = 4",),
          ("ALTER TABLE banco.tournament_facts ENABLE TRIGGER USER",))
    pg = audit_problems(url)
    assert "tournament 'Coppa', fact 4: its content does not match its hash: the row was edited" in pg
    assert [p for p in pg if "tournament" in p] == [
        p for p in audit_problems(db) if "tournament" in p and "trigger" not in p]


def test_a_game_reopened_after_it_was_entered_is_said_on_postgresql(both):
    db, url, _ = both
    for where in (db, url):
        banco(where, "--game", 1, "undo")  # takes back time-up: game 1 goes on
    said = "game 1 (round 1) changed after it was entered at event"
    assert said in banco(url, "tournament", "standings")
    pg = audit_problems(url)
    assert any("game 1 changed after it was entered at event" in p for p in pg), pg
    assert pg == audit_problems(db)


def test_the_switched_off_triggers_of_the_facts_are_named_by_doctor(both):
    _, url, admin_url = both
    admin(admin_url, ("ALTER TABLE banco.tournament_facts DISABLE TRIGGER "
                      "tournament_facts_no_update",))
    doc = json.loads(banco(url, "doctor", "--json", code=EXIT_AUDIT))
    assert doc["triggers"]["missing"] == ["tournament_facts_no_update"]


def test_a_tournament_s_archive_moves_between_the_stores(both, tmp_path):
    db, url, _ = both
    out = str(tmp_path / "coppa.jsonl")
    banco(db, "tournament", "export", "Coppa", "-o", out)
    target, _ = pg_cluster.database()
    assert "imported the tournament 'Coppa'" in banco(target, "import", out)
    assert banco(target, "tournament", "standings") == banco(db, "tournament", "standings")
    assert json.loads(banco(target, "audit", "--json"))["ok"]
    back = str(tmp_path / "back.jsonl")
    banco(target, "tournament", "export", "Coppa", "-o", back)
    with open(out, "rb") as a, open(back, "rb") as b:
        assert a.read() == b.read()  # the same bytes from either store
    again = str(tmp_path / "again.db")
    banco(again, "import", back)
    assert banco(again, "tournament", "standings") == banco(db, "tournament", "standings")


def test_a_database_without_the_facts_table_says_so_in_one_line_until_its_owner_adds_it(
        capsys):
    from banco.ledger.store.postgres_setup import main

    url, admin_url = pg_cluster.database()
    banco(url, "new", "Anna", "Bruno", "--rules", "championship")
    admin(admin_url, ("DROP TABLE banco.tournament_facts",))
    assert "no tournament in this database yet" in banco(url, "tournament", "standings",
                                                         code=2)
    out = banco(url, "tournament", "new", "Coppa", code=4)
    assert "has no table for the tournaments yet" in out and "postgres_setup" in out
    assert len(out.strip().splitlines()) == 1 and pg_cluster.APP_PASSWORD not in out
    assert json.loads(banco(url, "audit", "--json"))["ok"]
    assert main([admin_url, "--role", pg_cluster.APP_ROLE]) == 0
    capsys.readouterr()
    assert "tournament 'Coppa'" in banco(url, "tournament", "new", "Coppa")
