"""The audit names the first bad event, whatever was done to the log."""

import hashlib
import json
import sqlite3

import pytest

from ledger import commands as c
from ledger.book import Book
from ledger.canonical import GENESIS, HASHED_FIELDS, canonical_json
from projections.audit import audit

NOW = "2026-11-29T10:00:00.000000Z"


@pytest.fixture
def book(tmp_path):
    b = Book(str(tmp_path / "a.db"))
    g = b.new_game(["Anna", "Bruno", "Carla"], now=NOW)
    for cmd in (c.Roll((1, 2)), c.Buy(), c.Roll((2, 1)), c.Claim("Anna"), c.Roll((3, 4))):
        b.execute(g, cmd, now=NOW)
    yield b
    b.close()


def tamper(book, *sql, rechain=False):
    conn = sqlite3.connect(book.store.path)
    conn.execute("DROP TRIGGER events_no_update")
    conn.execute("DROP TRIGGER events_no_delete")
    for s in sql:
        conn.execute(s)
    if rechain:  # a forger who recomputes every hash after the edit
        prev = GENESIS
        rows = conn.execute("SELECT game_id, seq, type, data, recorded_at, actor, command_id, "
                            "schema_version, chain_version FROM events ORDER BY seq").fetchall()
        for g, seq, t, d, at, actor, cid, v, chain in rows:
            row = {"game_id": g, "seq": seq, "type": t, "data": json.loads(d),
                   "recorded_at": at, "actor": actor, "command_id": cid, "schema_version": v,
                   "chain_version": chain}
            # the row's own field set (canonical.HASHED_FIELDS), floats let through
            body = json.dumps({k: row[k] for k in HASHED_FIELDS[chain]}, sort_keys=True,
                              separators=(",", ":"), ensure_ascii=False)
            h = hashlib.sha256((prev + body).encode()).hexdigest()
            conn.execute("UPDATE events SET prev_hash=?, hash=? WHERE seq=?", (prev, h, seq))
            prev = h
    conn.commit()
    conn.close()


def rent_seq(book):
    return next(e["seq"] for e in book.store.read(1) if e["type"] == "RentPaid")


def test_clean_game(book):
    r = audit(1, book.store.read(1))
    assert r.ok and r.events == len(book.store.read(1)) and r.head == book.store.head(1)


def test_edited_event(book):
    seq = rent_seq(book)
    tamper(book, f"UPDATE events SET data=replace(data, '\"amount\":4', '\"amount\":40') WHERE seq={seq}")
    r = audit(1, book.store.read(1))
    assert (r.bad_seq, r.problem.startswith("hash chain")) == (seq, True)


def test_deleted_event(book):
    tamper(book, "DELETE FROM events WHERE seq=7")
    r = audit(1, book.store.read(1))
    assert r.bad_seq == 7 and "missing" in r.problem


def test_reordered_events(book):
    tamper(book, "UPDATE events SET seq=-6 WHERE seq=6", "UPDATE events SET seq=6 WHERE seq=7",
           "UPDATE events SET seq=7 WHERE seq=-6")
    assert audit(1, book.store.read(1)).bad_seq == 6


def test_rechained_float_is_caught(book):
    seq = rent_seq(book)
    tamper(book, f"UPDATE events SET data=replace(data, '\"amount\":4', '\"amount\":4.5') WHERE seq={seq}",
           rechain=True)
    r = audit(1, book.store.read(1))
    assert r.bad_seq == seq and "float" in r.problem


def test_rechained_unknown_field_is_caught_by_the_schema(book):
    seq = rent_seq(book)
    tamper(book, f"UPDATE events SET data=replace(data, '\"amount\":4', '\"amount\":4,\"tip\":1') WHERE seq={seq}",
           rechain=True)
    r = audit(1, book.store.read(1))
    assert r.bad_seq == seq and r.problem.startswith("schema") and "tip" in r.problem


def test_rechained_money_from_nowhere_is_caught_by_the_fold(book):
    seq = rent_seq(book)
    tamper(book, f"UPDATE events SET data=replace(data, '\"amount\":4', '\"amount\":4000') WHERE seq={seq}",
           rechain=True)
    r = audit(1, book.store.read(1))
    assert r.bad_seq == seq
    # Vicolo Stretto unbuilt, its group incomplete: the deed's base rent, 4 M; Bruno still had
    # his 1500 M starting cash, so 1500 - 4000.
    opened = next(e["seq"] for e in book.store.read(1) if e["type"] == "RentClaimOpened")
    assert r.problem == (f"the rent on Vicolo Stretto is 4000 M; the claim opened at event "
                         f"{opened} gives 4 M; Bruno's cash is negative (-2500)")


def test_rechained_history_is_caught_by_a_printed_head(book):
    printed = book.store.head(1)
    seq = rent_seq(book)
    # An edit no rule can see (the wording of a reason), by a forger who re-chains:
    tamper(book, f"UPDATE events SET data=replace(data, 'rent on', 'rent asked on') WHERE seq={seq}",
           rechain=True)
    assert audit(1, book.store.read(1)).ok  # the chain alone is consistent again...
    r = audit(1, book.store.read(1), expect_head=printed)
    assert not r.ok and "rewritten" in r.problem  # ...but the printed head is gone


def test_canonical_json_is_stable():
    assert canonical_json({"b": 1, "a": [2, "è"]}) == '{"a":[2,"è"],"b":1}'
    with pytest.raises(TypeError, match='got the float 1.0'):
        canonical_json({"amount": 1.0})


def test_rechained_house_from_nowhere_is_caught_by_the_table_checks(book):
    """A forged house on a lot nobody owns whole: chain and schema are fine, the table is not."""
    from ledger.store import NewEvent

    book.store.append(1, book.store.last_seq(1), [NewEvent("HouseBuilt", {
        "player": "Carla", "property": 39, "level": 1, "bank_houses": -1, "bank_hotels": 0,
        "payer": "Carla", "payee": "bank", "amount": 200, "reason": "forged"})],
        recorded_at=NOW, actor="forger", command_id="forged")
    r = audit(1, book.store.read(1))
    assert r.bad_seq == book.store.last_seq(1) and "nobody owns whole" in r.problem
