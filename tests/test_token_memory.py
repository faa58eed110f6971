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
