"""The phones' tokens history under its key (issue 32 item 3; ledger/store/token_key.py): a
running server holds each entry it loads to the entry before it, and a history rewritten and
re-chained to its end (a player's token made a banker's, a revocation taken back, a token moved
to another game) is named by `audit` and `doctor` and refused by the server, since no one
without the key kept outside the database can hash an entry as banco does.  A history written
before the key keeps working and is chained on with it."""

from __future__ import annotations

import json
import os
import sqlite3
import stat

import pytest
from click.testing import CliRunner
from forge import drop_triggers

from banco.cli.main import cli
from banco.ledger.book import Book
from banco.ledger.store import keyring, token_key, tokens

NOW = "2026-11-29T10:00:00.000000Z"


def banco(db, *args, code=0):
    result = CliRunner().invoke(cli, ["--db", str(db), *map(str, args)], catch_exceptions=False)
    assert result.exit_code == code, (args, result.output)
    return result.output


def finds(db, secret):
    ring = keyring.Keyring(str(db))
    try:
        return ring.find(secret)
    finally:
        ring.close()


def token_problems(db, command="audit"):
    doc = json.loads(banco(db, command, "--json", code=3))
    return [f["problem"] for f in doc["database" if command == "audit" else "problems"]
            if f["kind"] == "tokens"]


@pytest.fixture
def paired(tmp_path):
    """Game 1 (Anna, Bruno); entries 1 (banker), 2 (Anna), 3 (Anna revoked), 4 (Bruno)."""
    db = str(tmp_path / "t.db")
    book = Book(db)
    book.new_game(["Anna", "Bruno"], now=NOW)
    book.new_game(["Carla", "Dario"], now=NOW)
    book.close()
    keys = {"banker": tokens.issue(db, "banker", 1, NOW)[0],
            "anna": tokens.issue(db, "player", 1, NOW, "Anna")[0]}
    tokens.revoke(db, keys["anna"][3:11], NOW)
    keys["bruno"] = tokens.issue(db, "player", 1, NOW, "Bruno")[0]
    return db, keys


def rewrite(db, *statements, key=None, args=(), named=None):
    """A forger with the file: the statements, then every entry re-chained from the first, each
    hashed as banco hashes (with `key`: one who has the key; None: one who has not).  `named`:
    whether doctor names it after (default: unless the forger had the key)."""
    conn = sqlite3.connect(db)
    drop_triggers(conn)
    for i, sql in enumerate(statements):
        conn.execute(sql, args[i] if args else ())
    prev = tokens.GENESIS
    for entry in conn.execute(f"SELECT {tokens.COLUMNS} FROM tokens ORDER BY id").fetchall():
        id_, kind, d, prefix, role, player, game, at = entry[:8]
        h = tokens.entry_hash(prev, id_, kind, d, prefix, role, player, game, at, key)
        conn.execute("UPDATE tokens SET prev=?, hash=? WHERE id=?", (prev, h, id_))
        prev = h
    conn.commit()
    conn.close()
    # the triggers back; the history stays named, unless the forger had the key
    banco(db, "doctor", "--repair", code=(0 if key else 3) if named is None else 3 * named)


def test_the_key_is_made_beside_the_file_for_its_owner_only(paired):
    db, keys = paired
    path = token_key.key_path(db)
    assert str(path) == db + ".token-key"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert len(bytes.fromhex(path.read_text().strip())) == 32
    assert finds(db, keys["bruno"]).player == "Bruno"
    doc = json.loads(banco(db, "audit", "--json"))
    assert [f for f in doc["database"] if f["kind"] == "tokens"] == []


def test_banco_token_key_names_the_key_file(tmp_path, monkeypatch):
    monkeypatch.setenv(token_key.ENV, str(tmp_path / "keys" / "k"))
    db = str(tmp_path / "t.db")
    secret = tokens.issue(db, "banker", 1, NOW)[0]
    assert (tmp_path / "keys" / "k").exists() and not os.path.exists(db + ".token-key")
    assert finds(db, secret).role == "banker"


def test_a_postgresql_key_s_file_keeps_its_name_when_the_url_is_shown_differently(
        tmp_path, monkeypatch):
    """The key's file is named by the URL with its user part's password masked, as the first
    keyed banco named it: showing a URL more carefully (a password= in the query masked too)
    must not move it, or every keyed entry would read as edited."""
    import hashlib

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    monkeypatch.delenv(token_key.ENV, raising=False)
    for url, named in [("postgresql://banco:pw@h/db", "postgresql://banco:***@h/db"),
                       ("postgresql://banco@h/db?password=pw", "postgresql://banco@h/db?password=pw")]:
        digest = hashlib.sha256(named.encode()).hexdigest()[:16]
        assert token_key.key_path(url) == tmp_path / "banco" / "token-keys" / f"{digest}.key"


@pytest.mark.parametrize("edit, entry", [
    ("UPDATE tokens SET role='banker', player=NULL WHERE id=4", 4),  # made a banker's
    ("UPDATE tokens SET game=2 WHERE id=4", 4),  # moved to another game
], ids=["banker", "game"])
def test_a_history_rewritten_and_rechained_without_the_key_is_named_and_refused(
        paired, edit, entry):
    db, keys = paired
    rewrite(db, edit)
    for command in ("audit", "doctor"):
        assert token_problems(db, command)[-1].startswith(
            "no entry of the tokens history is hashed with its key"), command
    assert finds(db, keys["bruno"]) is None
    assert finds(db, keys["banker"]) is None  # the whole history is not banco's any more


def test_a_revocation_taken_back_and_rechained_is_named_and_refused(paired):
    db, keys = paired
    rewrite(db, "DELETE FROM tokens WHERE id=3", "UPDATE tokens SET id=3 WHERE id=4")
    assert any("no entry of the tokens history is hashed with its key" in p
               for p in token_problems(db))
    assert finds(db, keys["anna"]) is None  # Anna is not back


def test_an_entry_slipped_in_at_the_end_without_the_key_is_named_and_refused(paired):
    db, _ = paired
    secret = "bt_" + "x" * 32
    conn = sqlite3.connect(db)
    last = conn.execute("SELECT hash FROM tokens WHERE id=4").fetchone()[0]
    conn.close()
    h = tokens.entry_hash(last, 5, "issue", tokens.digest(secret), "xxxxxxxx", "banker", None,
                          1, NOW)
    conn = sqlite3.connect(db)
    conn.execute("INSERT INTO tokens VALUES (5, 'issue', ?, 'xxxxxxxx', 'banker', NULL, 1, ?, "
                 "?, ?)", (tokens.digest(secret), NOW, last, h))
    conn.commit()
    conn.close()
    assert token_problems(db) == [
        "token entry 5 (issue bt_xxxxxxxx..., banker, game 1) is hashed without the tokens' "
        "key, after entry 1 which is hashed with it: written by hand"]
    assert finds(db, secret) is None


def test_the_same_rewrite_with_the_key_passes_as_banco_s_own(paired):
    """What the key adds, and no more: whoever holds it writes entries as banco does."""
    db, keys = paired
    rewrite(db, "UPDATE tokens SET role='banker', player=NULL WHERE id=4",
            key=token_key.load(db))
    assert finds(db, keys["bruno"]).role == "banker"


def plain_history(db):
    """Entries written before the key (by hand here, as the banco before it did): Anna's
    token issued, Bruno's issued, each hashed plain."""
    conn = sqlite3.connect(db, isolation_level=None)
    for sql in tokens.DDL:
        conn.execute(sql)
    secrets = {}
    prev = tokens.GENESIS
    for id_, player in ((1, "Anna"), (2, "Bruno")):
        secrets[player] = secret = f"bt_{player.lower():x<32}"
        fields = ("issue", tokens.digest(secret), secret[3:11], "player", player, 1, NOW)
        h = tokens.entry_hash(prev, id_, *fields)
        conn.execute(f"INSERT INTO tokens ({tokens.COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?)",
                     (id_, *fields, prev, h))
        prev = h
    conn.close()
    return secrets


def test_an_entry_whose_hash_was_made_again_over_a_broken_link_is_refused_as_it_loads(
        tmp_path):
    """No key (a history from before it): the entry's own hash is sound, its link is not."""
    db = str(tmp_path / "t.db")
    book = Book(db)
    book.new_game(["Anna", "Bruno"], now=NOW)
    book.close()
    secrets = plain_history(db)
    assert finds(db, secrets["Bruno"]).player == "Bruno"
    conn = sqlite3.connect(db)
    drop_triggers(conn)
    row = conn.execute(f"SELECT {tokens.COLUMNS} FROM tokens WHERE id=2").fetchone()
    prev = "f" * 64
    conn.execute("UPDATE tokens SET prev=?, hash=? WHERE id=2",
                 (prev, tokens.entry_hash(prev, *row[:8])))
    conn.commit()
    conn.close()
    assert finds(db, secrets["Bruno"]) is None
    assert finds(db, secrets["Anna"]).player == "Anna"
    assert any("token entry 2 (issue bt_brunoxxx..., player Bruno, game 1) does not follow"
               in p for p in token_problems(db))


def test_a_history_from_before_the_key_keeps_working_and_is_chained_on_with_it(tmp_path):
    db = str(tmp_path / "t.db")
    book = Book(db)
    book.new_game(["Anna", "Bruno"], now=NOW)
    book.close()
    secrets = plain_history(db)
    assert not os.path.exists(db + ".token-key")
    assert finds(db, secrets["Anna"]).player == "Anna"
    assert json.loads(banco(db, "audit", "--json"))["ok"]
    banker = tokens.issue(db, "banker", 1, NOW)[0]  # the key is made, entry 3 is keyed
    assert os.path.exists(db + ".token-key")
    for secret in (secrets["Anna"], secrets["Bruno"], banker):
        assert finds(db, secret) is not None
    assert json.loads(banco(db, "audit", "--json"))["ok"]
    # the old entries are vouched for from here: rewritten, they break the keyed entry's link
    conn = sqlite3.connect(db)
    drop_triggers(conn)
    row = conn.execute(f"SELECT {tokens.COLUMNS} FROM tokens WHERE id=1").fetchone()
    conn.execute("UPDATE tokens SET role='banker', player=NULL, hash=? WHERE id=1",
                 (tokens.entry_hash(row[8], 1, "issue", row[2], row[3], "banker", None, 1,
                                    row[7]),))
    conn.commit()
    conn.close()
    problems = token_problems(db)
    assert any(p.startswith("token entry 2 (issue bt_brunoxxx..., player Bruno, game 1) does "
                            "not follow") for p in problems), problems


def test_a_key_file_that_is_not_banco_s_is_said(paired):
    db, keys = paired
    token_key.key_path(db).write_text("not a key\n")
    out = banco(db, "token", "viewer", code=4)
    assert "is not one banco made (64 hex digits)" in out


def test_a_backup_carries_the_key_and_audits_wherever_it_is_put(paired, tmp_path):
    """Issue 32's note: `backup` copied the tokens but not their key, so an audit of the backup
    anywhere else named every keyed entry as edited."""
    db, keys = paired
    away = tmp_path / "away"
    away.mkdir()
    (away / "b.db.token-key").write_text("ab" * 32 + "\n")  # another file's key, left behind
    out = banco(db, "backup", away / "b.db")
    assert f"{away / 'b.db.token-key'} (mode 0600)" in out
    far = tmp_path / "far"
    far.mkdir()
    for name in ("b.db", "b.db.token-key"):
        os.rename(away / name, far / name)
    key = far / "b.db.token-key"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    assert key.read_bytes() == token_key.key_path(db).read_bytes()
    assert json.loads(banco(far / "b.db", "audit", "--json"))["ok"]
    assert json.loads(banco(far / "b.db", "doctor", "--json"))["healthy"]
    assert finds(far / "b.db", keys["bruno"]).player == "Bruno"


def test_a_backup_without_tokens_makes_no_key(tmp_path):
    db = str(tmp_path / "t.db")
    Book(db).new_game(["Anna", "Bruno"], now=NOW)
    assert "key" not in banco(db, "backup", tmp_path / "b.db")
    assert not os.path.exists(tmp_path / "b.db.token-key")


def test_a_copy_carries_no_tokens_so_needs_no_key(paired, tmp_path):
    db, _ = paired
    result = CliRunner().invoke(cli, ["copy", db, str(tmp_path / "c.db")],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "phone tokens were not copied" in result.output
    assert not os.path.exists(tmp_path / "c.db.token-key")
    assert json.loads(banco(tmp_path / "c.db", "audit", "--json"))["ok"]


def test_a_copy_without_its_key_is_no_forgery_but_says_what_it_cannot_check(paired, tmp_path):
    """A file copied without its `.token-key` exited 3 on every keyed entry, while
    docs/referee.md said such an entry is "named as either": an honest copy looked forged.
    Where the key is not, audit and doctor check each entry's link, find no problem, and say
    what they could not check; beside its key the same file's rewritten entry is named."""
    import shutil

    db, _ = paired
    copy = str(tmp_path / "copy.db")
    shutil.copy(db, copy)  # the file alone, as `cp` copies it
    audit = json.loads(banco(copy, "audit", "--json"))
    doctor = json.loads(banco(copy, "doctor", "--json"))
    assert audit["ok"] and doctor["healthy"] and audit["database"] == []
    for doc in (audit, doctor):
        said = [n for n in doc["not_checked"] if n.startswith("the tokens' history")]
        assert len(said) == 1 and f"its key is not here ({copy}.token-key)" in said[0]
        assert "so 4 of its 4 entries" in said[0] and "re-chained" in said[0]
    assert "not checked here: the tokens' history" in banco(copy, "audit")
    # a player's token made a banker's and re-chained without the key: the copy cannot tell,
    # and says so (above); beside the key, it is named
    rewrite(copy, "UPDATE tokens SET role='banker', player=NULL WHERE id=4", named=False)
    assert json.loads(banco(copy, "audit", "--json"))["not_checked"]
    shutil.copy(token_key.key_path(db), f"{copy}.token-key")
    for command in ("audit", "doctor"):
        assert any("no entry of the tokens history is hashed with its key" in p
                   for p in token_problems(copy, command)), command
