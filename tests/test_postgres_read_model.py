"""The read model on PostgreSQL (issue 21 on the league's store, ledger/store/postgres_read_model.py):
`statement`, `history` and `log --player` give byte for byte what they give on a SQLite file
for every recorded game, from the read model kept in each append's transaction (the log not
read whole); `doctor` names a read model edited by hand as it does on a file and `doctor
--repair` rebuilds it; `import` builds an imported game's, `copy` leaves it to the repair, as
on SQLite; a database installed before the read model's tables records and reads as before.

On the run's throwaway server (tests/pg_cluster.py): skipped without one, failed with CI=true.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pg_cluster
import pytest
from test_postgres_referee import admin, banco
from test_read_model import GAMES, imported_alike, readings, transcript

from banco.ledger.base.errors import EXIT_AUDIT
from banco.ledger.store.postgres import PostgresStore

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
FIXED = "2026-11-29T21:00:00Z"
# What the PostgreSQL store does differently is how it keeps and reads the read model's rows,
# not which rows a rule set makes (ledger/table/read_rows.py makes them for both stores): so
# the games here are those whose rows differ in kind, not every rule set.  championship-4p has
# nearly every event (debts, trades, mortgages reverted, a deferred claim, a bankruptcy, the
# time run out), vintage-to-a-bankruptcy a bankruptcy paid by the Bank and buildings returned,
# rent-claimed-undone an undo of a money movement.  The others (classic-4p, classic-to-the-end,
# short-to-the-end: two of them 500-command games, 60% of this file's time) are held to the
# whole log on SQLite by tests/test_read_model.py, every game.
PG_GAMES = ["championship-4p", "vintage-to-a-bankruptcy", "rent-claimed-undone"]
assert set(PG_GAMES) <= set(GAMES)


@pytest.fixture(scope="module", params=PG_GAMES)
def played(request, tmp_path_factory) -> tuple[str, str, str]:
    """(SQLite file, PostgreSQL URL, the admin's URL): one recorded game played into each
    under the same fixed time, so that both hold the same rows."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("BANCO_FIXED_TIME", FIXED)
        url, admin_url = pg_cluster.database()
        db = str(tmp_path_factory.mktemp("pgmodel") / "g.db")
        for where in (db, url):
            r = banco_code(where, "run", "-q", transcript(request.param))
            assert r in (0, 1)
    return db, url, admin_url


def banco_code(db: str, *words) -> int:
    from click.testing import CliRunner

    from banco.cli.main import cli

    return CliRunner().invoke(cli, ["--db", db, *map(str, words)]).exit_code


def pg_count(admin_url: str, sql: str) -> int:
    import psycopg

    with psycopg.connect(admin_url) as conn:
        return conn.execute(sql).fetchone()[0]


def log_rows_read(monkeypatch) -> list[int]:
    """Counts the log's rows the PostgreSQL store reads by its queries (every read of events
    but the read model's own look-ups of the rows it names, which are the answer)."""
    read = [0]
    q = PostgresStore.q

    def counting(self, sql, args=()):
        rows = q(self, sql, args)
        if "banco.events" in sql and "COUNT(" not in sql:
            read[0] += len(rows)
        return rows

    monkeypatch.setattr(PostgresStore, "q", counting)
    return read


def test_the_readings_are_the_sqlite_ones_byte_for_byte(played):
    db, url, admin_url = played
    assert pg_count(admin_url, "SELECT COUNT(*) FROM banco.read_movements") > 0
    assert pg_count(admin_url, "SELECT COUNT(*) FROM banco.read_mentions") > 0
    assert readings(url) == readings(db)
    doc = json.loads(banco(url, "doctor", "--json"))
    assert doc["healthy"] and doc["read_model"]["missing"] == []


def test_the_readings_answer_from_the_read_model_not_the_whole_log(played, monkeypatch):
    db, url, admin_url = played
    events = json.loads(banco(url, "doctor", "--json"))["events"]
    if events < 100:  # the table a reading folds is the whole of so short a game
        pytest.skip(f"{events} events: too few to tell the read model's rows from the log's")
    deed = {s["position"]: s["name"] for s in json.loads(banco(url, "board", "--json"))}[39]
    asked = [("statement", "Anna", "--json"), ("log", "--player", "Anna", "--json"),
             ("history", deed, "--json")]
    read = log_rows_read(monkeypatch)
    fast = {}
    for words in asked:
        read[0] = 0
        fast[words] = banco(url, *words)
        assert read[0] < events // 2, (words, read[0], events)
    # without its read model (a game recorded before it) the same answers, from the whole log
    admin(admin_url, ("DELETE FROM banco.read_model",))
    for words in asked:
        read[0] = 0
        assert banco(url, *words) == fast[words] == banco(db, *words)
        assert read[0] >= events, words
    doc = json.loads(banco(url, "doctor", "--json"))
    assert doc["healthy"] and doc["read_model"]["missing"] == [1]
    said = json.loads(banco(url, "doctor", "--repair", "--json"))
    assert said["healthy"] and any("read model" in str(r) for r in said["repaired"])
    assert json.loads(banco(url, "doctor", "--json"))["read_model"]["missing"] == []
    read[0] = 0
    assert banco(url, *asked[0]) == fast[asked[0]] and read[0] < events // 2


def test_a_read_model_edited_by_hand_is_named_by_doctor_as_on_sqlite(played, tmp_path):
    lite_src, url_src, _ = played
    # a fresh copy of each (the module's games stay as played)
    lite = str(tmp_path / "edited.db")
    banco(lite_src, "backup", lite)
    url, admin_url = pg_cluster.database()
    banco(lite, "copy", lite, url)
    banco(url, "doctor", "--repair")
    before = banco(url, "statement", "Anna", "--json")
    edit = ("UPDATE {t}read_movements SET amount=amount+1 WHERE seq=(SELECT MIN(seq) FROM "
            "{t}read_movements)")
    conn = sqlite3.connect(lite)
    with conn:
        conn.execute(edit.format(t=""))
    conn.close()
    admin(admin_url, (edit.format(t="banco."),))
    pg = json.loads(banco(url, "doctor", "--json", code=EXIT_AUDIT))
    assert [p["kind"] for p in pg["problems"]] == ["read model"]
    assert pg["problems"] == json.loads(banco(lite, "doctor", "--json",
                                              code=EXIT_AUDIT))["problems"]
    assert "read model differs from its log" in banco(url, "doctor", code=EXIT_AUDIT)
    # the audit names it as doctor does, and the statement is never the edited rows'
    assert "read model differs from its log" in banco(url, "audit", code=EXIT_AUDIT)
    out = banco(url, "statement", "Anna", "--json")  # the warning on stderr, mixed here
    assert before in out and "read model disagrees with its log" in out
    banco(url, "doctor", "--repair")
    assert json.loads(banco(url, "doctor", "--json"))["healthy"]
    assert banco(url, "statement", "Anna", "--json") == before == banco(url_src, "statement",
                                                                         "Anna", "--json")


def test_import_builds_the_read_model_and_copy_leaves_it_to_the_repair(played, tmp_path):
    db, _, _ = played
    exported = str(tmp_path / "g.jsonl")
    banco(db, "--game", "1", "export", "-o", exported)
    into, into_admin = pg_cluster.database()
    banco(into, "import", exported)
    assert json.loads(banco(into, "doctor", "--json"))["read_model"]["missing"] == []
    assert pg_count(into_admin, "SELECT COUNT(*) FROM banco.read_movements") > 0
    assert readings(into) == readings(db)
    # `copy`, as onto a SQLite file: no read model until `doctor --repair` builds it
    copied, _ = pg_cluster.database()
    banco(db, "copy", db, copied)
    lite = str(tmp_path / "copied.db")
    banco(db, "copy", db, lite)
    for where in (copied, lite):
        assert json.loads(banco(where, "doctor", "--json"))["read_model"]["missing"] == [1]
        banco(where, "doctor", "--repair")
        assert json.loads(banco(where, "doctor", "--json"))["read_model"]["missing"] == []
    assert readings(copied) == readings(db)


def test_import_keeps_the_read_model_a_rebuild_gives(played, tmp_path, monkeypatch):
    db, _, _ = played
    exported = str(tmp_path / "g.jsonl")
    banco(db, "--game", "1", "export", "-o", exported)
    store = PostgresStore(pg_cluster.database()[0])
    try:
        imported_alike(store, exported, monkeypatch)
    finally:
        store.close()


def test_a_refused_import_leaves_no_read_model(tmp_path, monkeypatch):
    """The read model goes in batch by batch before the audit's verdict: a history the audit
    refuses takes it back with the rows (a forger's cash, every hash recomputed)."""
    from exchange_files import rehash, rows_of, write

    from banco.projections.exchange import exchange

    monkeypatch.setenv("BANCO_FIXED_TIME", FIXED)
    db = str(tmp_path / "g.db")
    banco(db, "run", "-q", FIXTURES / "classic-4p.banco")
    exported = tmp_path / "g.jsonl"
    banco(db, "export", "-o", exported)
    header, rows = rows_of(exported)
    cash = next(i for i, r in enumerate(rows) if r["type"] == "CashIssued")
    rows[cash]["data"]["amount"] += 100
    rehash(rows, cash)
    header["head"] = rows[-1]["hash"]
    write(exported, header, rows)
    monkeypatch.setattr(exchange, "BATCH", 7)
    url, admin_url = pg_cluster.database()
    banco(url, "new", "Zoe", "Yuri")
    out = banco(url, "import", exported, code=EXIT_AUDIT)
    assert "the audit stops at event" in out and "nothing was imported" in out
    for table in ("read_model", "read_movements", "read_mentions"):
        assert pg_count(admin_url, f"SELECT COUNT(*) FROM banco.{table} WHERE game_id<>1") == 0


def test_a_database_installed_before_the_read_model_records_and_reads_as_before(
        tmp_path, monkeypatch):
    """Its owner has not added the tables yet: commands are recorded, the readings read the
    log, doctor says none is kept and a repair says who adds the tables; once the owner runs
    postgres_setup, a repair builds it."""
    from banco.ledger.store import postgres_setup

    monkeypatch.setenv("BANCO_FIXED_TIME", FIXED)
    url, admin_url = pg_cluster.database()
    admin(admin_url, ("DROP TABLE banco.read_model, banco.read_movements, banco.read_mentions",))
    db = str(tmp_path / "g.db")
    for where in (db, url):
        banco(where, "run", "-q", FIXTURES / "classic-4p.banco")
    assert banco(url, "statement", "Anna", "--json") == banco(db, "statement", "Anna", "--json")
    doc = json.loads(banco(url, "doctor", "--json"))
    assert doc["healthy"] and doc["read_model"]["missing"] == [1]
    out = banco(url, "doctor", "--repair", code=EXIT_AUDIT)
    assert "postgres_setup" in out and "read model" in out
    assert postgres_setup.main([admin_url, "--role", pg_cluster.APP_ROLE]) == 0
    banco(url, "doctor", "--repair")
    assert json.loads(banco(url, "doctor", "--json"))["read_model"]["missing"] == []
    assert banco(url, "log", "--player", "Anna") == banco(db, "log", "--player", "Anna")


def test_a_rebuild_holds_up_no_command_and_leaves_no_wrong_answer():
    """A command recorded while `doctor --repair` rebuilds its game's read model is recorded
    at once (the game's lock is taken only at the rebuild's end); the rows then stop short
    of the game's end, so the readings read the log, and the next rebuild reaches it."""
    from store_suite import AT, start

    from banco.ledger.store.protocol import NewEvent, ReadRows
    from banco.ledger.table.read_rows import read_model_rows

    url, _ = pg_cluster.database()
    store, other = PostgresStore(url), PostgresStore(url, wait=1.0)
    try:
        g = start(store, "Anna", "Bruno").game_id

        def pay(on: PostgresStore, expected: int, cid: str) -> None:
            on.append(g, expected, [NewEvent("FeePaid", {"player": "Anna", "amount": 10})],
                      recorded_at=AT, actor="test", command_id=cid,
                      read_model=lambda rows: read_model_rows(on, rows, ["Anna", "Bruno"]))

        pay(store, 2, "c1")

        def chunks():
            yield ReadRows([], [("p:Anna", 3)])
            pay(other, 3, "meanwhile")  # refused after 1 s if the rebuild held the game
            yield ReadRows([], [])

        store.put_read_model(g, chunks(), 3)
        assert store.last_seq(g) == 4
        assert store.movements(g, "Anna") is None and store.mentioning(g, ["p:Anna"]) is None
        store.put_read_model(g, [ReadRows([], [("p:Anna", 3), ("p:Anna", 4)])], 4)
        assert [r["seq"] for r in store.mentioning(g, ["p:Anna"])] == [3, 4]
        pay(store, 4, "c2")  # and the next command extends it
        assert [r["seq"] for r in store.mentioning(g, ["p:Anna"])] == [3, 4, 5]
    finally:
        store.close()
        other.close()


def test_a_deeds_history_is_held_to_the_table_as_on_sqlite(monkeypatch):
    """`history` on PostgreSQL: a mention row of the read model deleted is read past (the
    log's story shown, with the warning naming the read model), as on a file."""
    from click.testing import CliRunner

    from banco.cli.main import cli

    monkeypatch.setenv("BANCO_FIXED_TIME", FIXED)
    url, admin_url = pg_cluster.database()
    for line in (["new", "Anna", "Bruno"], ["roll", "1", "2"], ["buy"]):
        banco(url, *line)
    true = banco(url, "history", "vicolo", "stretto")
    assert "Anna" in true and "WARNING" not in true
    admin(admin_url, ("DELETE FROM banco.read_mentions WHERE subject='d:3'",))
    r = CliRunner().invoke(cli, ["--db", url, "history", "vicolo", "stretto"])
    assert r.exit_code == 0 and r.stdout == true, r.output
    assert "read model disagrees with its log (its history of Vicolo Stretto)" in r.stderr
