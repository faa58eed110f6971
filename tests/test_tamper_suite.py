"""The tamper suite (issue 19): each kind of row banco keeps, changed as an attacker with the
file and sqlite3 can (triggers dropped, the chain recomputed where there is one), and what
`banco audit` names.  What only a seal or a printed head can prove (a whole game rewritten
consistently) is docs/referee.md's "Integrity".  The rows and where each is tampered with:

  events       tests/test_integrity.py (every kind of edit, named by game and seq), and here a
               trade re-chained so that the books still balance
  games        tests/test_integrity.py (identity, ends, heads); here under `audit --seal`
  snapshots    tests/test_snapshots.py, tests/test_snapshot_forgery.py (every reader)
  tournaments  tests/test_tournament_tamper.py
  import marks, maintenance, a seal's own events, the games' numbers, the phones' tokens: here"""

from __future__ import annotations

import json
import sqlite3

import pytest
from click.testing import CliRunner
from forge import drop_triggers, rechain_stored

from banco.cli.main import cli
from banco.ledger.book import Book
from banco.ledger.records import commands as c
from banco.projections.audit.audit import audit

NOW = "2026-11-29T10:00:00.000000Z"
ENV = {"BANCO_FIXED_TIME": "2026-11-29T21:00:00Z"}


@pytest.fixture
def traded(tmp_path):
    """Anna buys Vicolo Stretto and sells it to Bruno for 100 (event 14, TradeCompleted)."""
    db = str(tmp_path / "t.db")
    book = Book(db)
    g = book.new_game(["Anna", "Bruno", "Carla"], now=NOW)
    for cmd in (c.Roll((1, 2)), c.Buy(), c.Trade("Anna", "Bruno", c.Items(properties=(3,)),
                                                 c.Items(cash=100)), c.Roll((2, 1))):
        book.execute(g, cmd, now=NOW)
    book.close()
    return db


def edit_rechained(db: str, seq: int, data: dict) -> None:
    conn = sqlite3.connect(db)
    drop_triggers(conn)
    conn.execute("UPDATE events SET data=? WHERE game_id=1 AND seq=?",
                 (json.dumps(data, sort_keys=True, separators=(",", ":")), seq))
    head = rechain_stored(conn, 1)
    conn.execute("UPDATE games SET head=? WHERE game_id=1", (head,))
    conn.commit()
    conn.close()


def test_a_trade_s_cash_rewritten_and_rechained_is_not_what_the_command_gives(traded):
    """The books still balance (one transfer, both sides changed): only the re-derivation of
    the `trade` command from its CommandRecorded can tell."""
    book = Book(traded)
    (trade,) = [e for e in book.store.read(1) if e["type"] == "TradeCompleted"]
    book.close()
    data = trade["data"]
    data["b_gives"]["cash"] = 150
    data["transfers"][0]["amount"] = 150
    edit_rechained(traded, trade["seq"], data)
    book = Book(traded)
    report = audit(1, book.store.read(1))
    book.close()
    assert not report.ok and report.bad_seq == trade["seq"]
    assert report.problem.startswith("not what the command (event 13) gives here: "
                                     "TradeCompleted has b_gives")
    result = CliRunner().invoke(cli, ["--db", traded, "audit", "--json"], env=ENV)
    assert result.exit_code == 3
    (game,) = json.loads(result.output)["games"]
    assert game["game"] == 1
    assert game["bad_seq"] == trade["seq"] and "gives here" in game["problem"]


# --- facts outside the chain: a sealed game and a game in progress ---------------------------

def banco(db, *args, code=0):
    result = CliRunner().invoke(cli, ["--db", str(db), *map(str, args)], catch_exceptions=False)
    assert result.exit_code == code, (args, result.output)
    return result.output


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    """Game 1 played to its end and sealed by Rita; game 2 in progress; game 3 imported (a copy
    of game 2 from another file)."""
    from games import record

    d = tmp_path_factory.mktemp("tamper")
    db = d / "t.db"
    record(str(db), "short-to-the-end")
    banco(db, "keygen", "--out", str(d / "rita"))
    banco(db, "--game", "1", "seal", "--key", str(d / "rita.key"), "--referee", "Rita",
          "--out", str(d / "seal.txt"))
    other = d / "other.db"
    record(str(other), "classic-4p")
    banco(other, "--game", "1", "export", "-o", str(d / "g.jsonl"))
    record(str(db), "classic-4p")
    banco(db, "import", str(d / "g.jsonl"))
    return d


@pytest.fixture
def copy(template, tmp_path):
    import shutil

    for name in ("t.db", "rita.pub", "seal.txt"):
        shutil.copy(template / name, tmp_path / name)
    return tmp_path


def sql(db, *statements, args=()):
    conn = sqlite3.connect(db)
    drop_triggers(conn)
    for i, s in enumerate(statements):
        conn.execute(s, args[i] if args else ())
    conn.commit()
    conn.close()


def put_triggers_back(db, code=0):
    """The triggers recreated by `doctor --repair` (exit 3 while what it cannot mend stays)."""
    return banco(db, "doctor", "--repair", code=code)


def seal_doc(copy, code):
    return json.loads(banco(copy / "t.db", "audit", "--seal", copy / "seal.txt", "--pubkey",
                            copy / "rita.pub", "--json", code=code))


def test_the_untouched_file_audits_clean_with_its_seal(copy):
    doc = seal_doc(copy, 0)
    assert doc["ok"] and doc["seal"]["ok"] and doc["database"] == []
    assert json.loads(banco(copy / "t.db", "audit", "--json"))["ok"]


def test_an_edited_games_table_is_named_as_the_table_not_as_a_sealed_event(copy):
    """The issue's misreport: `--seal` said "event 2 ... is not what was sealed" of an edit of
    the games table alone; the sealed events are intact, the table is what changed."""
    sql(copy / "t.db", "UPDATE games SET players='[\"Anna\",\"Zoe\"]' WHERE game_id=1")
    doc = seal_doc(copy, 3)
    assert doc["seal"]["ok"], doc["seal"]
    (one,) = doc["games"]
    assert one["problem"].startswith("the games table says game 1's players is")


def test_swapped_game_numbers_are_named_by_the_seal_and_by_a_printed_head(copy):
    db = copy / "t.db"
    from banco.ledger.records.seals import head_line

    book = Book(str(db))
    line = head_line(1, book.store.last_seq(1), book.store.head(1))
    book.close()
    sql(db, *[f"UPDATE {t} SET game_id={b} WHERE game_id={a}"
              for t in ("events", "games", "snapshots") for a, b in ((1, 99), (2, 1), (99, 2))])
    put_triggers_back(db)
    assert json.loads(banco(db, "audit", "--json"))["ok"]  # the numbers are aliases...
    doc = seal_doc(copy, 3)  # ...but the seal remembers game 1
    assert doc["seal"]["problem"].startswith("the sealed game (identity ")
    assert "was game 1 when it was sealed and is game 2 here" in doc["seal"]["problem"]
    out = banco(db, "audit", "--expect-head", line, code=3)
    assert "the games were renumbered since the line was written" in out


def test_cutting_the_seal_s_own_events_is_named_by_the_seal(copy):
    db = copy / "t.db"
    seq = json.loads(banco(db, "audit", "--seal", copy / "seal.txt", "--pubkey",
                           copy / "rita.pub", "--json"))["seal"]["seq"]
    conn = sqlite3.connect(db)
    head = conn.execute("SELECT hash FROM events WHERE game_id=1 AND seq=?", (seq,)).fetchone()
    conn.close()
    sql(db, "DELETE FROM events WHERE game_id=1 AND seq>?",
        "UPDATE games SET last_seq=?, head=? WHERE game_id=1",
        args=[(seq,), (seq, head[0])])
    put_triggers_back(db)
    assert json.loads(banco(db, "audit", "--json"))["ok"]  # a log cut at a command's end
    doc = seal_doc(copy, 3)
    assert doc["seal"]["bad_seq"] == seq + 1
    assert doc["seal"]["problem"].startswith("the seal's own event (SealRecorded, after event")


@pytest.mark.parametrize("edit, said", [
    ("UPDATE meta SET value=replace(value, '\"events\":', '\"events\":1') "
     "WHERE key='imported:3'", "the import mark of game 3 says it came with"),
    ("INSERT INTO meta VALUES ('imported:2', '{\"events\":3,\"head\":\"00\"}')",
     "the import mark of game 2 says it came with 3 events"),
], ids=["edited", "added"])
def test_an_import_mark_changed_is_named(copy, edit, said):
    db = copy / "t.db"
    sql(db, edit)
    doc = json.loads(banco(db, "audit", "--json", code=3))
    assert any(said in g["problem"] for g in doc["games"] if g["problem"]), doc["games"]


def maintenance_problems(db, command="audit"):
    """What `audit` (the database's findings) or `doctor` names of the maintenance history."""
    doc = json.loads(banco(db, command, "--json", code=3))
    return [f["problem"] for f in doc["database" if command == "audit" else "problems"]
            if f["kind"] == "maintenance"]


def test_an_import_mark_forged_on_a_game_played_here_is_named(copy):
    """Issue 32 item 4: a mark that agrees with the log (its events and head are the game's)
    on game 2, played here: `games` would say "imported from x"; audit and doctor name it."""
    db = copy / "t.db"
    conn = sqlite3.connect(db)
    last, head = conn.execute("SELECT last_seq, head FROM games WHERE game_id=2").fetchone()
    conn.close()
    mark = json.dumps({"at": NOW, "from": "x", "events": last, "head": head})
    sql(db, "INSERT INTO meta VALUES ('imported:2', ?)", args=[(mark,)])
    put_triggers_back(db, code=3)
    said = ("the import mark of game 2 says it came from x, but game 2 was started here (its "
            "games row keeps the command that started it, which an import never records): the "
            "mark was written by hand")
    audited = json.loads(banco(db, "audit", "--json", code=3))
    assert [g["problem"] for g in audited["games"] if g["game"] == 2] == [said]
    doctored = json.loads(banco(db, "doctor", "--json", code=3))
    assert [f["problem"] for f in doctored["problems"] if f["game"] == 2] == [said]
    # the game imported here (game 3) is not named: its games row keeps no command
    assert [g["ok"] for g in audited["games"] if g["game"] == 3] == [True]


@pytest.fixture
def maintained(copy):
    """Two entries in the maintenance history: the triggers dropped, then recreated, twice."""
    db = copy / "t.db"
    sql(db)
    banco(db, "doctor", "--repair", "--reason", "first")
    sql(db)
    banco(db, "doctor", "--repair", "--reason", "second")
    return db


def test_a_maintenance_entry_deleted_or_slipped_in_is_named(maintained):
    db = maintained
    sql(db, "DELETE FROM maintenance WHERE id=1")
    put_triggers_back(db, code=3)  # doctor says it too (issue 32 item 4)
    deleted = ["maintenance entry 1 is missing (the next one is entry 2): it was deleted"]
    assert maintenance_problems(db) == deleted
    assert maintenance_problems(db, "doctor") == deleted
    sql(db, "INSERT INTO maintenance (id, at, what, why) VALUES (1, '2026-11-30T00:00:00Z', "
        "'recreated nothing', 'x')",
        "INSERT INTO maintenance (at, what, why) VALUES ('2000-01-01T00:00:00Z', 'x', 'y')")
    put_triggers_back(db, code=3)
    for command in ("audit", "doctor"):
        problems = maintenance_problems(db, command)
        assert any("is dated 2000-01-01T00:00:00Z, before the entry ahead of it" in p
                   for p in problems), problems


@pytest.mark.parametrize("edit, said", [
    ("UPDATE maintenance SET what='recreated nothing' WHERE id=1",
     "maintenance entry 1 is not what its hash binds: its date or its text was changed"),
    ("UPDATE maintenance SET at='2000-01-01T00:00:00Z' WHERE id=2",
     "maintenance entry 2 is not what its hash binds: its date or its text was changed"),
    ("INSERT INTO maintenance (at, what, why) VALUES ('2026-11-29T00:00:00Z', 'x', 'y')",
     "carries no hash, though the entries before it do: it was written by hand"),
    ("UPDATE maintenance SET prev=hash WHERE id=2",
     "maintenance entry 2 does not follow the entry before it"),
], ids=["text", "date", "slipped-in", "link"])
def test_a_maintenance_entry_edited_or_dated_back_is_named_by_audit_and_doctor(
        maintained, edit, said):
    db = maintained
    sql(db, edit)
    put_triggers_back(db, code=3)
    for command in ("audit", "doctor"):
        problems = maintenance_problems(db, command)
        assert [p for p in problems if said in p], (command, problems)


def test_the_sole_entry_slipped_into_a_chained_history_s_place_is_named(copy):
    """The table banco made (its chain's columns) with its entries gone and one without a hash
    put in their place, dated in the past: named until the next repair chains on from it."""
    db = copy / "t.db"
    sql(db)
    banco(db, "doctor", "--repair", "--reason", "first")
    sql(db, "DELETE FROM maintenance", "INSERT INTO maintenance (id, at, what, why) VALUES "
        "(1, '2000-01-01T00:00:00Z', 'restored from a backup', 'x')")
    # (a repair now would chain on from it: it vouches for the history as it finds it)
    assert any("maintenance entry 1 carries no hash, though the history is chained" in p
               for p in maintenance_problems(db, "doctor"))


def test_a_maintenance_history_from_before_the_chain_is_chained_from_its_next_entry(copy):
    """A table an older banco wrote (no prev, hash) keeps its entries; the next repair adds
    the columns and chains on from them, so an edit of an old entry is named after that."""
    db = copy / "t.db"
    sql(db, "CREATE TABLE maintenance (id INTEGER PRIMARY KEY, at TEXT NOT NULL, what TEXT NOT "
        "NULL, why TEXT NOT NULL)", "INSERT INTO maintenance (at, what, why) VALUES "
        "('2026-11-29T10:00:00Z', 'recreated the trigger events_no_update', 'old')")
    doc = json.loads(banco(db, "doctor", "--repair", "--json"))  # the triggers come back
    assert doc["healthy"] and [m["why"] for m in doc["maintenance"]][0] == "old"
    assert json.loads(banco(db, "audit", "--json"))["ok"]
    sql(db, "UPDATE maintenance SET why='older' WHERE id=1")
    put_triggers_back(db, code=3)
    assert any(p.startswith("maintenance entry 2 does not follow the entry before it")
               for p in maintenance_problems(db))


# --- the phones' tokens (ledger/store/tokens.py): a history, append-only and chained ---------

@pytest.fixture
def paired(copy):
    """Game 2's banker and Anna's phone paired, then Anna's token revoked and Bruno's issued:
    entries 1 (banker), 2 (Anna), 3 (Anna revoked), 4 (Bruno)."""
    from banco.ledger.store import tokens

    db = str(copy / "t.db")
    banker = tokens.issue(db, "banker", 2, NOW)[0]
    anna = tokens.issue(db, "player", 2, NOW, "Anna")[0]
    tokens.revoke(db, anna[3:11], NOW)
    bruno = tokens.issue(db, "player", 2, NOW, "Bruno")[0]
    return copy / "t.db", {"banker": banker, "anna": anna, "bruno": bruno}


def token_problems(db):
    doc = json.loads(banco(db, "audit", "--json", code=3))
    return [f["problem"] for f in doc["database"] if f["kind"] == "tokens"]


def keyring_finds(db, secret):
    from banco.ledger.store.keyring import Keyring

    ring = Keyring(str(db))
    try:
        return ring.find(secret)
    finally:
        ring.close()


def test_the_untouched_tokens_audit_clean(paired):
    db, keys = paired
    doc = json.loads(banco(db, "audit", "--json"))
    assert [f for f in doc["database"] if f["kind"] == "tokens"] == []
    assert keyring_finds(db, keys["bruno"]).player == "Bruno"
    assert keyring_finds(db, keys["anna"]) is None  # revoked


def test_the_tokens_history_refuses_update_and_delete(paired):
    db, _ = paired
    conn = sqlite3.connect(db)
    for statement in ("UPDATE tokens SET role='banker' WHERE id=4", "DELETE FROM tokens"):
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            conn.execute(statement)
    conn.close()


def test_a_player_s_token_made_a_banker_s_is_named_and_refused(paired):
    db, keys = paired
    sql(db, "UPDATE tokens SET role='banker', player=NULL WHERE id=4")
    assert "token entry" in put_triggers_back(db, code=3)
    assert token_problems(db) == [
        "token entry 4 (issue bt_" + keys["bruno"][3:11] + "..., banker, game 2) is not what its "
        "hash binds: changed after banco wrote it, or written by hand"]
    assert keyring_finds(db, keys["bruno"]) is None  # the server does not take it either


def test_a_revocation_taken_back_is_named(paired):
    db, keys = paired
    sql(db, "DELETE FROM tokens WHERE id=3")
    assert "token entry" in put_triggers_back(db, code=3)
    assert token_problems(db) == [
        "token entry 3 is missing (the next one is entry 4): it was deleted; a revocation "
        "taken back reads so"]
    # a running server does not take Anna back either: an entry after hers is missing
    assert keyring_finds(db, keys["anna"]) is None


def test_a_token_slipped_in_by_hand_is_named_and_refused(paired):
    from banco.ledger.store.tokens import digest

    db, _ = paired
    secret = "bt_" + "x" * 32
    sql(db, "INSERT INTO tokens (id, kind, digest, prefix, role, player, game, at, prev, hash) "
        "VALUES (5, 'issue', ?, 'xxxxxxxx', 'banker', NULL, 2, ?, ?, ?)",
        args=[(digest(secret), NOW, "0" * 64, "f" * 64)])
    assert "token entry" in put_triggers_back(db, code=3)
    problems = token_problems(db)
    entry = "token entry 5 (issue bt_xxxxxxxx..., banker, game 2)"
    assert problems == [
        f"{entry} does not follow the entry before it (its prev is not that entry's hash): "
        "written by hand",
        f"{entry} is not what its hash binds: changed after banco wrote it, or written by hand"]
    assert keyring_finds(db, secret) is None


def test_the_tokens_triggers_dropped_are_named(paired):
    db, _ = paired
    sql(db)
    doc = json.loads(banco(db, "audit", "--json", code=3))
    named = " ".join(f["problem"] for f in doc["database"])
    assert "tokens_no_update is missing" in named and "tokens_no_delete is missing" in named


def test_a_tokens_list_from_before_the_history_becomes_one(tmp_path):
    """The table as the first phones' banco wrote it (one row a token, revoked in place) is
    rewritten as a history on first use: the live token still works, the revoked one not."""
    from banco.ledger.store import tokens

    db = str(tmp_path / "old.db")
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE tokens (digest TEXT PRIMARY KEY, prefix TEXT NOT NULL, role TEXT "
                 "NOT NULL, player TEXT, game INTEGER NOT NULL, created_at TEXT NOT NULL, "
                 "revoked_at TEXT)")
    live, gone = "bt_" + "a" * 32, "bt_" + "b" * 32
    conn.executemany("INSERT INTO tokens VALUES (?, ?, ?, ?, 1, ?, ?)", [
        (tokens.digest(live), "aaaaaaaa", "player", "Anna", NOW, None),
        (tokens.digest(gone), "bbbbbbbb", "banker", None, NOW, NOW)])
    conn.commit()
    conn.close()
    assert keyring_finds(db, live).player == "Anna"
    assert keyring_finds(db, gone) is None
    assert [(t.prefix, t.revoked_at) for t in tokens.listed(db)] == [("aaaaaaaa", None),
                                                                    ("bbbbbbbb", NOW)]
    conn = sqlite3.connect(db)
    assert tokens.problems(conn) == []
    assert [r[1] for r in tokens.entries(conn)] == ["issue", "issue", "revoke"]
    conn.close()
