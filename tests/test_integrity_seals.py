"""A referee's seal: written, verified, refused with another key or an edited file; the seal
file read back as written; an undo that does not reach behind a seal or a referee's decision,
and one forged there named by the audit; an import held to a seal."""

from __future__ import annotations

import json
import sqlite3

import pytest
from click.testing import CliRunner
from forge import append_forged_undo, drop_triggers, rechain_stored
from hypothesis import given, settings
from hypothesis import strategies as st
from integrity_files import banco, edited_amount, forge_rows, rows, sealed_seq

from banco.cli.main import cli
from banco.ledger.store.canonical import canonical_json


def test_a_seal_made_with_another_key_or_edited_does_not_verify(copy):
    db = copy / "t.db"
    banco(db, "keygen", "--out", str(copy / "mallory"))
    out = banco(db, "audit", "--seal", copy / "seal.txt", "--pubkey", copy / "mallory.pub",
                code=3)
    assert "the seal was made with the key" in out and "not with this public key" in out
    text = (copy / "seal.txt").read_text()
    seq = sealed_seq(copy)
    assert seq
    (copy / "seal.txt").write_text(text.replace("referee: Rita", "referee: Mallory"))
    out = banco(db, "audit", "--seal", copy / "seal.txt", "--pubkey", copy / "rita.pub", code=3)
    assert "the seal file's signature does not verify with this public key" in out


def test_a_seal_file_whose_trail_was_edited_blames_the_file_not_the_history(copy):
    """The trail is not signed: with the signed head in the database, a trail that parts from
    it was edited in the file (it once said "the history was changed there")."""
    db, seal = copy / "t.db", copy / "seal.txt"
    text = seal.read_text()
    first = next(line for line in text.splitlines() if line.strip().startswith("1 "))
    digest = first.split()[1]
    edited = "0" * 8 if digest != "0" * 8 else "1" * 8
    seal.write_text(text.replace(first, first.replace(digest, edited, 1)))
    out = banco(db, "audit", "--seal", seal, "--pubkey", copy / "rita.pub", code=3)
    assert (f"the seal file's trail has {edited} for event 1, whose hash begins {digest}, yet "
            "the database holds the signed head: the trail (not signed) was edited in the file, "
            "not the history") in out
    assert "the history was changed there" not in out


def test_seal_writes_the_file_and_the_short_line(copy):
    db = copy / "t.db"
    out = banco(db, "--game", "2", "seal", "--key", copy / "rita.key", "--out",
                copy / "two.txt")
    last = 643
    assert f"sealed game 2 at event {last} (head " in out and "referee rita" in out
    line = out.strip().splitlines()[-1]
    conn = sqlite3.connect(db)
    head = conn.execute("SELECT hash FROM events WHERE game_id=2 AND seq=?", (last,)).fetchone()[0]
    conn.close()
    assert line == f"banco/2/{last}/{head[:12]}"
    text = (copy / "two.txt").read_text()
    assert f"line: {line}" in text and "referee: rita" in text and f"head: {head}" in text
    assert rows(db, 2)[-1][1] == "SealRecorded"
    # the seal is re-derived by the audit, and it verifies with the key
    out = banco(db, "audit", "--seal", copy / "two.txt", "--pubkey", copy / "rita.pub")
    assert "nothing was recorded after the seal" not in out  # the seal's own events came after
    assert f"events {last + 1}-{last + 2}: seal --key" in out
    # the file is never overwritten
    err = banco(db, "--game", "2", "seal", "--key", copy / "rita.key", "--out", copy / "two.txt",
                code=2)
    assert "exists: banco never overwrites a seal" in err


def test_seal_refuses_a_history_that_does_not_audit(copy):
    db = copy / "t.db"
    seq = edited_amount(db)
    before = rows(db)
    err = banco(db, "--game", "1", "seal", "--key", copy / "rita.key", "--out", copy / "x.txt",
                code=3)
    assert f"FAILED at event {seq}" in err and "not sealed" in err
    assert rows(db) == before and not (copy / "x.txt").exists()


def test_keygen_never_overwrites_and_keys_are_checked(copy):
    err = banco(copy / "t.db", "keygen", "--out", str(copy / "rita"), code=2)
    assert "rita.key exists: banco never overwrites a key" in err
    err = banco(copy / "t.db", "seal", "--key", copy / "rita.pub", code=2)
    assert "is not a private key in PEM form (that is the public key" in err
    err = banco(copy / "t.db", "audit", "--seal", copy / "seal.txt", "--pubkey",
                copy / "rita.key", code=2)
    assert "not a public key in PEM form (that is a private key" in err
    err = banco(copy / "t.db", "audit", "--seal", copy / "seal.txt", code=2)
    assert "--seal FILE and --pubkey FILE go together" in err
    assert (copy / "rita.key").stat().st_mode & 0o077 == 0  # keygen made it private
    # a control character in the name: a file `ls` would show as another name
    err = banco(copy / "t.db", "keygen", "--out", str(copy / "ri\x01ta"), code=2)
    assert "holds the character U+0001: give --out PREFIX in printable characters" in err
    assert not list(copy.glob("ri?ta.*"))


# --- the seal file ---------------------------------------------------------------------------

@settings(max_examples=50, deadline=None)
@given(referee=st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")),
                       min_size=1, max_size=20).filter(lambda s: s.strip() == s and s),
       seq=st.integers(1, 60), game=st.integers(1, 10**6), seed=st.binary(min_size=1))
def test_a_seal_file_reads_back_as_written(referee, seq, game, seed):
    from hashlib import sha256

    from banco.ledger.records import seals

    def hexed(i, n):
        return (sha256(seed + bytes([i % 256, n])).hexdigest() * 2)[:n]

    seal = seals.SealFile(game, "6f1c1c5e-1d6b-4a53-9d2c-0c8a1b1b2f11", seq, hexed(1, 64),
                          referee, hexed(2, 64), hexed(3, 128), "2026-11-29T21:00:00.000000Z",
                          [hexed(10 + i, 8) for i in range(seq)])
    assert seals.parse_seal(seals.seal_text(seal)) == seal


def test_a_seal_file_that_is_not_one_is_named():
    from banco.ledger.records import seals

    with pytest.raises(ValueError, match="it is not a banco seal"):
        seals.parse_seal("hello: world\n")
    with pytest.raises(ValueError, match="it has no `head:` line"):
        seals.parse_seal("format: banco seal 1\ngame: 1\ngame uuid: -\nevent: 3\n")


def test_seal_refuses_a_referee_name_on_two_lines(copy):
    """Checked as a player's name is, before the key signs (exit 2); the rules refuse it too,
    for a command that reached them some other way."""
    before = rows(copy / "t.db", 2)
    err = banco(copy / "t.db", "--game", "2", "seal", "--key", copy / "rita.key", "--referee",
                "Rita\nforged: yes", code=2)
    assert "referee name 'Rita\\nforged: yes' refused: it contains the control character " \
           "U+000A" in err
    assert rows(copy / "t.db", 2) == before
    from helpers import new_table

    from banco.ledger.base.errors import RuleViolation
    from banco.ledger.records import commands as c
    from banco.ledger.rules.decide import decide

    with pytest.raises(RuleViolation, match="a referee's name is one line of printable text"):
        decide(new_table(), c.Seal(0, "0" * 64, "u", "0" * 64, "0" * 128, "Rita\nforged: yes"))


def test_an_undo_does_not_reach_behind_a_seal(copy):
    """What the referee sealed is final: the banker's undo stops at the seal (a newcomer's
    trial found it taking back the referee's correction and the roll before the seal); what
    came after the seal is undone as before; a sealed game is changed by a correction."""
    db = copy / "t.db"
    banco(db, "--game", "2", "seal", "--key", copy / "rita.key", "--out", copy / "two.txt")
    before = rows(db, 2)
    result = CliRunner().invoke(cli, ["--db", str(db), "--game", "2", "undo"])
    assert result.exit_code == 1, result.output
    seal = next(s for s, t, _ in before if t == "SealRecorded")
    assert f"game sealed at event {seal}: an undo does not reach behind a seal" in result.output
    assert "`correct PLAYER AMOUNT --reason TEXT --referee NAME`" in result.output
    assert rows(db, 2) == before  # nothing appended
    banco(db, "--game", "2", "correct", "Anna", "10", "--reason", "miscount", "--referee", "Rita")
    result = CliRunner().invoke(cli, ["--db", str(db), "--game", "2", "undo"])
    assert result.exit_code == 1, result.output
    # the seal named its referee after the key file, `rita`: Rita is that referee, spelt so
    assert "is referee rita's CashCorrected: the banker's undo does not reach" in result.output
    banco(db, "--game", "2", "audit")


@pytest.mark.parametrize("decision", [
    ("correct", "Anna", "10", "--reason", "miscount", "--referee", "Rita"),
    ("ruling", "rent", "1", "--record", "--referee", "Rita")])
def test_an_undo_forged_behind_a_referee_decision_is_named_by_the_audit(copy, decision):
    """The banker's undo stops at a referee's correction or recorded ruling (a refusal naming
    the event and the referee, nothing appended); one forged behind it, re-chained, is named
    by the audit at its seq, with the same refusal."""
    db = copy / "t.db"
    if decision[0] == "ruling":  # a ruling on the game's last landing
        landed = [s for s, t, _ in rows(db, 2) if t == "RentPaid"][-1]
        decision = ("ruling", "rent", str(landed), *decision[3:])
    banco(db, "--game", "2", *decision)
    before = rows(db, 2)
    fact = before[-1][0]
    result = CliRunner().invoke(cli, ["--db", str(db), "--game", "2", "undo"])
    assert result.exit_code == 1, result.output
    assert f"event {fact} is referee Rita's {before[-1][1]}: the banker's undo does not " \
           "reach behind a referee's decision" in result.output
    assert "the referee corrects again" in result.output
    assert rows(db, 2) == before  # nothing appended
    retract = fact if before[-1][1] != "RulingRecorded" else next(
        s for s, t, _ in reversed(before) if t not in (
            "CommandRecorded", "RentClaimRefused", "RulingRecorded", "EventRetracted"))
    last = append_forged_undo(db, 2, retract)
    doc = json.loads(banco(db, "--game", "2", "audit", "--json", code=3))
    game = doc["games"][0]
    assert game["bad_seq"] in (last + 1, last + 2), game
    assert "the banker's undo does not reach behind a referee's decision" in game["problem"]


def test_an_undo_forged_behind_a_seal_is_named_by_the_audit(copy):
    """A forger appends the undo the banker could not make, with its command, and re-chains:
    re-deriving the undo gives the refusal, so the audit names it."""
    db = copy / "t.db"
    banco(db, "--game", "2", "seal", "--key", copy / "rita.key", "--out", copy / "two.txt")
    before = rows(db, 2)
    last = before[-1][0]
    seal = next(s for s, t, _ in before if t == "SealRecorded")
    retract = next(s for s, t, _ in reversed(before) if s < seal and t not in (
        "CommandRecorded", "SealRecorded", "RentClaimRefused", "RulingRecorded",
        "EventRetracted"))
    conn = sqlite3.connect(db)
    drop_triggers(conn)
    cols = "game_id, seq, type, data, recorded_at, actor, command_id, schema_version, " \
           "prev_hash, hash, chain_version"
    at, = conn.execute("SELECT recorded_at FROM events WHERE game_id=2 AND seq=?",
                       (last,)).fetchone()
    undo = canonical_json({"command": None, "line": "undo"})
    fact = canonical_json({"command_id": "x", "reason": "undo", "seqs": [retract]})
    for seq, type_, data in ((last + 1, "CommandRecorded", undo),
                             (last + 2, "EventRetracted", fact)):
        conn.execute(f"INSERT INTO events ({cols}) VALUES (2,?,?,?,?,'banker','forged',1,'',"
                     "'',2)", (seq, type_, data, at))
    head = rechain_stored(conn, 2, last + 1)
    conn.execute("UPDATE games SET head=?, last_seq=? WHERE game_id=2", (head, last + 2))
    conn.commit()
    conn.close()
    doc = json.loads(banco(db, "--game", "2", "audit", "--json", code=3))
    game = doc["games"][0]
    assert game["bad_seq"] in (last + 1, last + 2), game
    assert "an undo does not reach behind a seal" in game["problem"]


def test_import_holds_the_history_to_a_referees_seal(copy):
    """`import --seal --pubkey`: the sealed prefix must be in the file, intact, as `audit
    --seal` holds a database to it; what came after the seal is listed.  A history rewritten
    before the seal (re-chained, so the import's own checks pass), another game's seal or
    another key: the whole import refused, exit 3, nothing written."""
    db, sealed = copy / "t.db", sealed_seq(copy)
    banco(db, "--game", "1", "export", "-o", copy / "one.jsonl")
    out = banco(copy / "new.db", "import", copy / "one.jsonl", "--seal", copy / "seal.txt",
                "--pubkey", copy / "rita.pub")
    assert "(referee Rita, key " in out and f"signature good; game 1's events 1-{sealed} are " \
           "the ones sealed, none missing" in out
    assert "after the seal: events" in out or "nothing was recorded after the seal" in out
    doc = json.loads(banco(copy / "json.db", "import", copy / "one.jsonl", "--seal",
                           copy / "seal.txt", "--pubkey", copy / "rita.pub", "--json"))
    assert doc["seal"]["ok"] and doc["seal"]["seq"] == sealed
    # another game's seal, and the right seal with another key
    banco(db, "--game", "2", "export", "-o", copy / "two.jsonl")
    out = banco(copy / "other.db", "import", copy / "two.jsonl", "--seal", copy / "seal.txt",
                "--pubkey", copy / "rita.pub", code=3)
    assert "not the game sealed; nothing was imported" in out
    banco(db, "keygen", "--out", copy / "ugo")
    out = banco(copy / "other.db", "import", copy / "one.jsonl", "--seal", copy / "seal.txt",
                "--pubkey", copy / "ugo.pub", code=3)
    assert "does not hold: the seal was made with the key" in out
    # the seal's own fact taken out with what followed, every time moved a day on and the
    # chain re-computed: a consistent history (its import's audit passes), not the one sealed
    forge_rows(db, f"DELETE FROM events WHERE game_id=1 AND seq>{sealed}",
           "UPDATE events SET recorded_at=replace(recorded_at, '2026-11-29', '2026-11-30') "
           "WHERE game_id=1", rechain_from=1)
    # the database's audit sees it (a snapshot vouches for the history before the edit): the
    # export --audit says so (exit 3) and is written all the same; the file itself is a history
    out = banco(db, "--game", "1", "export", "-o", copy / "forged.jsonl", "--force", "--audit",
                code=3)
    assert "game 1: FAILED at event" in out and "the book's snapshot at event" in out
    banco(copy / "other.db", "import", copy / "forged.jsonl")  # no seal: it is a history
    out = banco(copy / "sealed.db", "import", copy / "forged.jsonl", "--seal",
                copy / "seal.txt", "--pubkey", copy / "rita.pub", code=3)
    assert "does not hold: event 1 is not the one sealed" in out and "nothing was imported" in out
    assert not (copy / "sealed.db").exists()
    banco(copy / "kept.db", "import", copy / "two.jsonl")  # a database with a game in it
    before = rows(copy / "kept.db", 1)
    banco(copy / "kept.db", "import", copy / "forged.jsonl", "--seal", copy / "seal.txt",
          "--pubkey", copy / "rita.pub", code=3)
    assert rows(copy / "kept.db", 2) == [] and rows(copy / "kept.db", 1) == before
