"""Issue 22: the phones' tokens on PostgreSQL (ledger/store/postgres_tokens.py), with the
guarantees of the SQLite file's (tests/test_phones.py, tests/test_tamper_suite.py): only the
secret's digest kept, a revocation refused at once, the history append-only (for the owner
too) and chained, so that `audit` names an entry changed, deleted or slipped in, and the
server refuses it.

On the run's throwaway server (tests/pg_cluster.py): skipped without one, failed with CI=true.
"""

from __future__ import annotations

import json
import threading

import pg_cluster
import pytest
from test_postgres_referee import admin, banco

from banco.ledger.base.errors import EXIT_AUDIT, EXIT_DATABASE, EXIT_USAGE
from banco.ledger.store import token_key
from banco.ledger.store.open import open_tokens
from banco.ledger.store.tokens import digest, problems_in

NOW = "2026-11-29T21:00:00Z"


def finds(url: str, secret: str):
    keys = open_tokens(url, serving=True)
    try:
        return keys.find(secret)
    finally:
        keys.close()


@pytest.fixture
def pg():
    """(banco's URL, the admin's URL) with game 1 (Anna, Bruno) recorded."""
    url, admin_url = pg_cluster.database()
    banco(url, "new", "Anna", "Bruno")
    return url, admin_url


@pytest.fixture
def paired(pg):
    """Entries 1 (banker), 2 (Anna), 3 (Anna revoked), 4 (Bruno), through the command line."""
    url, admin_url = pg
    keys = {}
    for who, words in (("banker", ["banker"]), ("anna", ["player", "anna"])):
        keys[who] = json.loads(banco(url, "token", *words, "--json"))["token"]
    banco(url, "token", "--revoke", keys["anna"][3:11])
    keys["bruno"] = json.loads(banco(url, "token", "player", "Bruno", "--json"))["token"]
    return url, admin_url, keys


def token_problems(url: str) -> list[str]:
    doc = json.loads(banco(url, "audit", "--json", code=EXIT_AUDIT))
    return [f["problem"] for f in doc["database"] if f["kind"] == "tokens"]


def untriggered(admin_url: str, *statements: tuple) -> None:
    """What the database's owner can do: the history's triggers off for a moment."""
    admin(admin_url, ("ALTER TABLE banco.tokens DISABLE TRIGGER USER",), *statements,
          ("ALTER TABLE banco.tokens ENABLE TRIGGER USER",))


# --- issuing, listing, revoking ---------------------------------------------------------------

def test_the_command_issues_lists_and_revokes_on_postgresql(pg):
    import psycopg

    url, admin_url = pg
    doc = json.loads(banco(url, "token", "player", "bruno", "--json",
                           "--url", "http://10.0.0.5:8000/"))
    assert (doc["role"], doc["player"], doc["game"]) == ("player", "Bruno", 1)
    assert doc["url"] == f"http://10.0.0.5:8000/player#t={doc['token']}"
    secret = doc["token"]
    with psycopg.connect(admin_url) as conn:  # the database keeps the digest, never the secret
        kept = conn.execute("SELECT digest, prefix, role, player, game FROM banco.tokens"
                            ).fetchall()
    assert kept == [(digest(secret), secret[3:11], "player", "Bruno", 1)]
    found = finds(url, secret)
    assert (found.role, found.player, found.game) == ("player", "Bruno", 1)
    assert finds(url, secret[:-1] + ("A" if secret[-1] != "A" else "B")) is None
    listed = banco(url, "token", "--list")
    assert secret not in listed and f"{secret[3:11]}  player Bruno" in listed
    assert "live" in listed
    assert "is not one token's label" in banco(url, "token", "--revoke", secret[3:9],
                                               code=EXIT_USAGE)  # a prefix names no one token
    typo = secret[:-1] + ("A" if secret[-1] != "A" else "B")
    assert "no live token is" in banco(url, "token", "--revoke", typo, code=EXIT_USAGE)
    assert finds(url, secret).player == "Bruno"  # the whole token is told by its digest
    assert banco(url, "token", "--revoke", secret).startswith(f"revoked {secret[3:11]}")
    assert finds(url, secret) is None  # revoked: refused at once
    assert "revoked" in banco(url, "token", "--list")
    assert "no live token is" in banco(url, "token", "--revoke", secret[3:11], code=EXIT_USAGE)
    assert banco(url, "token", "player", "Zeno", code=EXIT_USAGE)
    assert pg_cluster.APP_PASSWORD not in banco(url, "token", "viewer")


def test_a_running_server_s_keyring_sees_a_revocation_at_once(paired):
    url, _, keys = paired
    ring = open_tokens(url, serving=True)
    try:
        assert ring.find(keys["bruno"]).player == "Bruno"
        assert ring.paired(1) == {"Bruno"}  # Anna's was revoked
        banco(url, "token", "--revoke", keys["bruno"][3:11])
        assert ring.find(keys["bruno"]) is None and ring.paired(1) == set()
    finally:
        ring.close()


def test_tokens_issued_at_once_get_one_number_each_in_one_chain(pg):
    url, admin_url = pg
    secrets: list[str] = []

    def issue() -> None:
        keys = open_tokens(url)
        try:
            for _ in range(5):
                secrets.append(keys.issue("viewer", 1, NOW)[0])
        finally:
            keys.close()

    threads = [threading.Thread(target=issue) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    import psycopg

    from banco.ledger.store.postgres_tokens import entries

    with psycopg.connect(admin_url) as conn:
        history = entries(conn)
    assert [e[0] for e in history] == list(range(1, 21))
    # every entry hashed with the one key the first of them made (ledger/store/token_key.py)
    assert problems_in(history, token_key.load(url)) == [] and len(set(secrets)) == 20


# --- append-only and chained -----------------------------------------------------------------

def test_the_history_refuses_change_to_banco_s_role_and_to_its_owner(paired):
    import psycopg

    url, admin_url, _ = paired
    with psycopg.connect(url, autocommit=True) as conn:
        for sql in ("UPDATE banco.tokens SET role='banker'", "DELETE FROM banco.tokens",
                    "TRUNCATE banco.tokens"):
            with pytest.raises(psycopg.Error, match="permission denied"):
                conn.execute(sql)
    with psycopg.connect(admin_url, autocommit=True) as conn:
        for sql, op in (("UPDATE banco.tokens SET role='banker'", "UPDATE"),
                        ("DELETE FROM banco.tokens", "DELETE"),
                        ("TRUNCATE banco.tokens", "TRUNCATE")):
            with pytest.raises(psycopg.Error, match=f"tokens history is append-only: {op}"):
                conn.execute(sql)
        assert conn.execute("SELECT COUNT(*) FROM banco.tokens").fetchone() == (4,)
    doc = json.loads(banco(url, "audit", "--json"))
    assert [f for f in doc["database"] if f["kind"] == "tokens"] == []


def test_a_player_s_token_made_a_banker_s_is_named_and_refused(paired):
    url, admin_url, keys = paired
    untriggered(admin_url, ("UPDATE banco.tokens SET role='banker', player=NULL WHERE id=4",))
    assert token_problems(url) == [
        "token entry 4 (issue bt_" + keys["bruno"][3:11] + "..., banker, game 1) is not what "
        "its hash binds: changed after banco wrote it, or written by hand"]
    assert finds(url, keys["bruno"]) is None  # the server does not take it either


def test_a_revocation_taken_back_is_named(paired):
    url, admin_url, keys = paired
    untriggered(admin_url, ("DELETE FROM banco.tokens WHERE id=3",))
    assert token_problems(url) == [
        "token entry 3 is missing (the next one is entry 4): it was deleted; a revocation "
        "taken back reads so"]
    # a running server does not take Anna back either: an entry after hers is missing
    assert finds(url, keys["anna"]) is None


def test_a_token_slipped_in_by_hand_is_named_and_refused(paired):
    url, admin_url, _ = paired
    secret = "bt_" + "x" * 32
    admin(admin_url, ("INSERT INTO banco.tokens (id, kind, digest, prefix, role, player, game, "
                      "at, prev, hash) VALUES (5, 'issue', %s, 'xxxxxxxx', 'banker', NULL, 1, "
                      "%s, %s, %s)", digest(secret), NOW, "0" * 64, "f" * 64))
    entry = "token entry 5 (issue bt_xxxxxxxx..., banker, game 1)"
    assert token_problems(url) == [
        f"{entry} does not follow the entry before it (its prev is not that entry's hash): "
        "written by hand",
        f"{entry} is not what its hash binds: changed after banco wrote it, or written by hand"]
    assert finds(url, secret) is None


def test_a_history_rewritten_and_rechained_without_the_key_is_named_and_refused(paired):
    """Issue 32 item 3: Bruno's token made a banker's and every entry hashed again as the
    chain alone would have it: no entry is hashed with the key kept outside the database
    (ledger/store/token_key.py), so `audit` and `doctor` name it and the server refuses it."""
    import psycopg

    from banco.ledger.store.tokens import COLUMNS, GENESIS, entry_hash

    url, admin_url, keys = paired
    with psycopg.connect(admin_url) as conn, conn.transaction():
        conn.execute("ALTER TABLE banco.tokens DISABLE TRIGGER USER")
        conn.execute("UPDATE banco.tokens SET role='banker', player=NULL WHERE id=4")
        prev = GENESIS
        for entry in conn.execute(f"SELECT {COLUMNS} FROM banco.tokens ORDER BY id").fetchall():
            h = entry_hash(prev, *entry[:8])
            conn.execute("UPDATE banco.tokens SET prev=%s, hash=%s WHERE id=%s",
                         (prev, h, entry[0]))
            prev = h
        conn.execute("ALTER TABLE banco.tokens ENABLE TRIGGER USER")
    said = "no entry of the tokens history is hashed with its key"
    assert [p for p in token_problems(url) if p.startswith(said)]
    doc = json.loads(banco(url, "doctor", "--json", code=EXIT_AUDIT))
    assert [p for p in doc["problems"] if p["problem"].startswith(said)]
    assert finds(url, keys["bruno"]) is None and finds(url, keys["banker"]) is None


def test_the_history_s_triggers_switched_off_are_named_by_doctor(paired):
    url, admin_url, _ = paired
    admin(admin_url, ("ALTER TABLE banco.tokens DISABLE TRIGGER tokens_no_delete",))
    doc = json.loads(banco(url, "doctor", "--json", code=EXIT_AUDIT))
    assert doc["triggers"]["missing"] == ["tokens_no_delete"]
    assert any("tokens_no_delete of banco.tokens" in p["problem"] for p in doc["problems"])


# --- a database installed before the tokens' table ---------------------------------------------

def test_a_database_without_the_table_says_so_in_one_line_until_its_owner_adds_it(pg, capsys):
    from banco.ledger.store.postgres_setup import main

    url, admin_url = pg
    admin(admin_url, ("DROP TABLE banco.tokens",))
    assert banco(url, "token", "--list") == "no token for game 1\n"
    out = banco(url, "token", "banker", code=EXIT_DATABASE)
    assert "has no table for the phones' tokens yet" in out and "postgres_setup" in out
    assert len(out.strip().splitlines()) == 1 and pg_cluster.APP_PASSWORD not in out
    assert json.loads(banco(url, "audit", "--json"))["ok"]  # nothing to check: no problem
    assert main([admin_url, "--role", pg_cluster.APP_ROLE]) == 0
    capsys.readouterr()
    secret = json.loads(banco(url, "token", "banker", "--json"))["token"]
    assert finds(url, secret).role == "banker"
