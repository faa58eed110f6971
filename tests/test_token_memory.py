"""A running server keeps every revocation it has read for its life (issue 32, the fifth
trial): the last entry of the tokens history, a revocation, deleted with the trigger dropped
and made again, left no gap, and the revoked token answered 200 again on the server that had
refused it.  It is refused still, and the server says once that the history got shorter than
what it had read.  A fresh server cannot know (the documented limit of an unkeyed cut: the
key binds entries, not how many there are)."""

from __future__ import annotations

import sqlite3

from banco.ledger.store import tokens

NOW = "2026-12-06T12:00:00Z"


def cut_last_entry(path: str) -> None:
    """What the trial did: the delete trigger dropped, the last entry deleted, the trigger
    made again."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute(f"DROP TRIGGER {tokens.TABLE}_no_delete")
    conn.execute(f"DELETE FROM {tokens.TABLE} WHERE id = (SELECT MAX(id) FROM {tokens.TABLE})")
    conn.execute(tokens.DDL[-1])
    conn.close()


def test_a_revocation_deleted_under_a_running_server_stays_revoked(tmp_path):
    path = str(tmp_path / "t.db")
    banker, _ = tokens.issue(path, "banker", 1, NOW)
    player, row = tokens.issue(path, "player", 1, NOW, "Anna")
    ring = tokens.Keyring(path)
    try:
        assert ring.find(player) is not None
        tokens.revoke(path, row.prefix, NOW)
        assert ring.find(player) is None
        cut_last_entry(path)
        assert ring.find(player) is None  # answered 200 again before
        assert ring.find(banker) is not None
        said = ring.shorter()
        assert said is not None and "(3 entries, now 2)" in str(said)
        assert ring.shorter() is None  # said once
    finally:
        ring.close()


def test_a_server_started_after_a_revocation_keeps_it_too(tmp_path):
    path = str(tmp_path / "t.db")
    player, row = tokens.issue(path, "player", 1, NOW, "Anna")
    tokens.revoke(path, row.prefix, NOW)
    ring = tokens.Keyring(path)  # reads the revocations as it opens, before any request
    try:
        cut_last_entry(path)
        assert ring.find(player) is None
        assert ring.shorter() is not None
    finally:
        ring.close()
    fresh = tokens.Keyring(path)
    try:
        assert fresh.find(player) is not None  # the limit README states: a cut end is unseen
    finally:
        fresh.close()


def made_banker_plain(path: str, rechain_all: bool) -> None:
    """The trial's forgery with the key file deleted: entry 2 (a viewer's token) made a
    banker's and hashed with plain SHA-256, and (`rechain_all`) every entry re-hashed so."""
    import os

    from banco.ledger.store import token_key

    os.remove(token_key.key_path(path))
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute(f"DROP TRIGGER {tokens.TABLE}_no_update")
    rows = conn.execute(f"SELECT {tokens.COLUMNS} FROM {tokens.TABLE} ORDER BY id").fetchall()
    prev = tokens.GENESIS if rechain_all else rows[0][9]
    for row in rows if rechain_all else rows[1:2]:
        id_, kind, d, prefix, role, player, game, at, _, _ = row
        if id_ == 2:
            role = "banker"
        h = tokens.entry_hash(prev, id_, kind, d, prefix, role, player, game, at, None)
        conn.execute(f"UPDATE {tokens.TABLE} SET role=?, prev=?, hash=? WHERE id=?",
                     (role, prev, h, id_))
        prev = h
    conn.close()


def test_without_the_key_the_server_says_so_and_refuses_a_plain_entry_after_a_keyed_one(
        tmp_path):
    path = str(tmp_path / "t.db")
    tokens.issue(path, "banker", 1, NOW)
    viewer, _ = tokens.issue(path, "viewer", 1, NOW)
    made_banker_plain(path, rechain_all=False)
    ring = tokens.Keyring(path)
    try:
        assert ring.find(viewer) is None  # served as the banker's before
        assert "its key is not here" in str(ring.unchecked()[0])
    finally:
        ring.close()


def test_a_history_rechained_without_the_key_is_said_at_start(tmp_path):
    path = str(tmp_path / "t.db")
    tokens.issue(path, "banker", 1, NOW)
    viewer, _ = tokens.issue(path, "viewer", 1, NOW)
    made_banker_plain(path, rechain_all=True)
    ring = tokens.Keyring(path)
    try:
        # what no check here tells from banco's own history (README: the key's folder is
        # the forger's too); the server says at start that it could not check it
        assert ring.find(viewer).role == "banker"
        said = [str(t) for t in ring.unchecked()]
        assert len(said) == 1 and "no key beside it" in said[0]
    finally:
        ring.close()
