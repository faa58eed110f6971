"""Every tampering of issue 9, done with the triggers dropped, caught by `audit` naming the
game and the seq; a referee's seal verified, then broken by each; `doctor` and its repair."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from forge import append_forged_undo, drop_triggers, rechain_stored
from games import record
from hypothesis import given, settings
from hypothesis import strategies as st

from banco.cli.main import cli
from banco.ledger.store.canonical import canonical_json

FORGED_AT = "2026-11-29T22:00:00.000000Z"


def banco(db, *args, code=0):
    result = CliRunner().invoke(cli, ["--db", str(db), *map(str, args)], catch_exceptions=False)
    assert result.exit_code == code, (args, result.output)
    return result.output


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> Path:
    """Game 1: a short game played to its end, then sealed by referee Rita; game 2: a classic
    game in progress (the latest).  Each test tampers with a copy."""
    d = tmp_path_factory.mktemp("integrity")
    db = d / "t.db"
    record(str(db), "short-to-the-end")
    banco(db, "keygen", "--out", str(d / "rita"))
    banco(db, "--game", "1", "seal", "--key", str(d / "rita.key"), "--referee", "Rita",
          "--out", str(d / "seal.txt"))
    record(str(db), "classic-4p")
    return d


@pytest.fixture
def copy(template, tmp_path) -> Path:
    for name in ("t.db", "rita.key", "rita.pub", "seal.txt"):
        shutil.copy(template / name, tmp_path / name)
    return tmp_path


def rows(db, game=1) -> list[tuple]:
    conn = sqlite3.connect(db)
    out = conn.execute("SELECT seq, type, data FROM events WHERE game_id=? ORDER BY seq",
                       (game,)).fetchall()
    conn.close()
    return out


def seq_of(db, type_, nth=0, game=1) -> int:
    return [s for s, t, _ in rows(db, game) if t == type_][nth]


def sealed_seq(d: Path) -> int:
    return int(next(line.split(":")[1] for line in (d / "seal.txt").read_text().splitlines()
                    if line.startswith("event:")))


# --- the tamperings: each returns the seq the audit must name ------------------------------

def _forge(db, *sql, args=(), rechain_from=None, fix_index=True):
    """A forger with the file: triggers gone, the edit, the chain recomputed from the edit on
    and (a thorough one) the games table made to agree."""
    conn = sqlite3.connect(db)
    drop_triggers(conn)
    for s, a in zip(sql, args or [()] * len(sql), strict=True):
        conn.execute(s, a)
    if rechain_from is not None:
        head = rechain_stored(conn, 1, rechain_from)
        if fix_index:
            last = conn.execute("SELECT MAX(seq) FROM events WHERE game_id=1").fetchone()[0]
            conn.execute("UPDATE games SET head=?, last_seq=? WHERE game_id=1", (head, last))
    conn.commit()
    conn.close()


def forged_cash_issue(db) -> int:
    seq = seq_of(db, "SalaryPaid", 3)
    money = canonical_json({"amount": 200, "payee": "Anna", "payer": "bank",
                            "reason": "starting cash"})
    _forge(db, "UPDATE events SET type='CashIssued', data=? WHERE game_id=1 AND seq=?",
           args=[(money, seq)], rechain_from=seq)
    return seq


def changed_dice(db) -> int:
    seq = seq_of(db, "DiceRolled", 40)
    data = json.loads(next(d for s, _, d in rows(db) if s == seq))
    data["dice"] = [d % 6 + 1 for d in data["dice"]]
    _forge(db, "UPDATE events SET data=? WHERE game_id=1 AND seq=?",
           args=[(canonical_json(data), seq)], rechain_from=seq)
    return seq


def duplicated_key(db) -> int:
    """A key written twice, the forged value first: JSON readers take the last one, so every
    figure still re-derives; the text is not what banco writes (found by a newcomer)."""
    seq = seq_of(db, "DiceRolled", 40)
    text = next(d for s, _, d in rows(db) if s == seq)
    assert text.startswith('{"dice":')
    _forge(db, "UPDATE events SET data=? WHERE game_id=1 AND seq=?",
           args=[('{"dice":[6,6],' + text[1:], seq)], rechain_from=seq)
    return seq


def referee_name_on_a_roll(db) -> int:
    """A whole command of the banker's put in the referee's name, re-chained (a newcomer's
    trial: it passed)."""
    seq = seq_of(db, "DiceRolled", 10) - 1  # its CommandRecorded
    _forge(db, "UPDATE events SET actor='referee:Rita' WHERE game_id=1 AND command_id="
               "(SELECT command_id FROM events WHERE game_id=1 AND seq=?)",
           args=[(seq,)], rechain_from=seq)
    return seq


def one_fact_by_another_hand(db) -> int:
    seq = seq_of(db, "DiceRolled", 12)
    _forge(db, "UPDATE events SET actor='mallory' WHERE game_id=1 AND seq=?", args=[(seq,)],
           rechain_from=seq)
    return seq


def last_30_cut_off(db) -> int:
    last = rows(db)[-1][0]
    _forge(db, f"DELETE FROM events WHERE game_id=1 AND seq>{last - 30}")
    return last - 29


def whole_commands_cut_off(db) -> int:
    """The last commands taken away whole, from a command's first row: no command is left
    half-recorded, so only the games table (which still says where the log ended) knows."""
    log = rows(db)
    cut = max(s for s, t, _ in log if t == "CommandRecorded" and s <= len(log) - 29)
    _forge(db, f"DELETE FROM events WHERE game_id=1 AND seq>={cut}")
    return cut


def append_after_the_end(db) -> int:
    last = rows(db)[-1][0]
    money = canonical_json({"amount": 5000, "payee": "Bruno", "payer": "bank",
                            "reason": "starting cash"})
    _forge(db, "INSERT INTO events (game_id, seq, type, data, recorded_at, actor, command_id, "
               "schema_version, prev_hash, hash, chain_version) VALUES (1, ?, 'CashIssued', ?, "
               "?, 'banker', 'forged', 1, '', '', 2)", args=[(last + 1, money, FORGED_AT)],
           rechain_from=last + 1)
    return last + 1


def not_json(db) -> int:
    seq = seq_of(db, "TaxPaid")
    _forge(db, "UPDATE events SET data='{' WHERE game_id=1 AND seq=?", args=[(seq,)])
    return seq


def not_an_object(db) -> int:
    seq = seq_of(db, "SalaryPaid", 2)
    _forge(db, "UPDATE events SET data='[200]' WHERE game_id=1 AND seq=?", args=[(seq,)],
           rechain_from=seq)
    return seq


def deleted_row(db) -> int:
    seq = seq_of(db, "RentPaid", 5)
    _forge(db, "DELETE FROM events WHERE game_id=1 AND seq=?", args=[(seq,)])
    return seq


def reordered_pair(db) -> int:
    seq = seq_of(db, "DiceRolled", 10)
    _forge(db, "UPDATE events SET seq=-1 WHERE game_id=1 AND seq=?",
           "UPDATE events SET seq=? WHERE game_id=1 AND seq=?",
           "UPDATE events SET seq=? WHERE game_id=1 AND seq=-1",
           args=[(seq,), (seq, seq + 1), (seq + 1,)])
    return seq


def edited_amount(db) -> int:
    seq = seq_of(db, "RentPaid", 7)
    data = json.loads(next(d for s, _, d in rows(db) if s == seq))
    data["amount"] += 100
    _forge(db, "UPDATE events SET data=? WHERE game_id=1 AND seq=?",
           args=[(canonical_json(data), seq)], rechain_from=seq)
    return seq


def forged_seal(db) -> int:
    """A forger without the key: the seal's signature changed in the command and in its
    SealRecorded alike (so the command gives the fact), the chain recomputed."""
    seq = seq_of(db, "SealRecorded")
    was = json.loads(next(d for s, _, d in rows(db) if s == seq))["signature"]
    _forge(db, "UPDATE events SET data=replace(data, ?, ?) WHERE game_id=1 AND seq IN (?, ?)",
           args=[(was, was[::-1], seq - 1, seq)], rechain_from=seq - 1)
    return seq


TAMPERINGS = [forged_cash_issue, changed_dice, duplicated_key, referee_name_on_a_roll,
              one_fact_by_another_hand, last_30_cut_off, whole_commands_cut_off,
              append_after_the_end, not_json, not_an_object,
              deleted_row, reordered_pair, edited_amount, forged_seal]


def test_the_untouched_database_audits_clean(copy):
    doc = json.loads(banco(copy / "t.db", "audit", "--json"))
    assert doc["ok"] and [g["game"] for g in doc["games"]] == [1, 2]
    assert doc["database"] == [] and doc["maintenance"] == []
    assert all(g["ok"] for g in doc["games"])


@pytest.mark.parametrize("tamper", TAMPERINGS, ids=lambda f: f.__name__)
def test_each_tampering_is_named_by_game_and_seq(copy, tamper):
    db = copy / "t.db"
    seq = tamper(db)
    out = banco(db, "audit", code=3)
    assert f"game 1: FAILED at event {seq}: " in out
    assert "game 2: 643 events, chain intact" in out  # the latest game is untouched
    doc = json.loads(banco(db, "audit", "--json", code=3))
    one, two = doc["games"]
    assert (one["game"], one["ok"], one["bad_seq"]) == (1, False, seq)
    assert two["ok"] and not doc["ok"]
    # --game 1 alone says the same; --game 2 alone is clean (the triggers aside)
    assert f"FAILED at event {seq}" in banco(db, "--game", "1", "audit", code=3)


@pytest.mark.parametrize("tamper", TAMPERINGS, ids=lambda f: f.__name__)
def test_the_seal_is_verified_then_broken_by_each_tampering(copy, tamper):
    db, seal, pub = copy / "t.db", copy / "seal.txt", copy / "rita.pub"
    out = banco(db, "audit", "--seal", seal, "--pubkey", pub)
    assert "signature good; game 1's events 1-" in out and "FAILED" not in out
    sealed = sealed_seq(copy)
    seq = tamper(db)
    out = banco(db, "audit", "--seal", seal, "--pubkey", pub, code=3)
    doc = json.loads(banco(db, "audit", "--seal", seal, "--pubkey", pub, "--json", code=3))
    assert [g["game"] for g in doc["games"]] == [1]  # the sealed game
    if seq <= sealed or tamper is forged_seal:  # before the seal, or the seal's own event:
        # the seal itself names where the history parts
        assert doc["seal"]["bad_seq"] == seq and not doc["seal"]["ok"], doc["seal"]
        assert f"FAILED at event {seq}" in out.split("seal banco/1/")[1]
    else:  # after it: the sealed prefix stands, the audit names the rest
        assert doc["seal"]["ok"] and doc["games"][0]["bad_seq"] == seq


def test_a_log_cut_short_with_its_games_row_made_to_agree_is_caught_by_the_seal(copy):
    db = copy / "t.db"
    log = rows(db)
    # the last commands taken away whole (the end of the game with them), from a command's
    # first row on: the games table made to agree, triggers put back
    cut = max(s for s, t, _ in log if t == "CommandRecorded" and s <= len(log) - 29)
    _forge(db, f"DELETE FROM events WHERE game_id=1 AND seq>={cut}",
           "UPDATE games SET ended_seq=NULL WHERE game_id=1", rechain_from=cut - 1)
    banco(db, "doctor", "--repair")  # the triggers
    assert f"game 1: {cut - 1} events, chain intact" in banco(db, "audit")  # nobody can tell..
    out = banco(db, "audit", "--seal", copy / "seal.txt", "--pubkey", copy / "rita.pub", code=3)
    assert f"FAILED at event {cut}: the seal is on event {sealed_seq(copy)}, but the log " \
           f"stops at event {cut - 1}" in out  # ...but the seal


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


# --- --expect-head ---------------------------------------------------------------------------

def test_expect_head_takes_a_prefix_in_any_case(copy):
    db = copy / "t.db"
    doc = json.loads(banco(db, "--game", "2", "audit", "--json"))
    head = doc["games"][0]["head"]
    assert "chain intact" in banco(db, "audit", "--expect-head", head[:8].upper())
    # an earlier event's hash: intact up to it, and the log went on
    conn = sqlite3.connect(db)
    earlier = conn.execute("SELECT hash FROM events WHERE game_id=2 AND seq=600").fetchone()[0]
    conn.close()
    out = banco(db, "audit", "--expect-head", earlier[:10])
    assert "is event 600's: events 1-600 are as they were" in out
    assert "events 601-643 came after" in out
    out = banco(db, "--game", "2", "audit", "--expect-head", "0123abcd0123", code=3)
    assert "the head 0123abcd0123 is not found in this history (game 2, events 1-643)" in out
    err = banco(db, "audit", "--expect-head", "abc", code=2)
    assert "at least its first 8 hex digits" in err
    err = banco(db, "audit", "--expect-head", "xyz12345", code=2)
    assert "at least its first 8 hex digits" in err


def test_a_head_line_passed_by_later_events_is_said(copy):
    """The score sheet's line of a finished game, then more events (an undo reopening it, a
    correction): the prefix is intact, and the audit says what came after it, never silent."""
    db = copy / "t.db"
    conn = sqlite3.connect(db)
    earlier = conn.execute("SELECT hash FROM events WHERE game_id=2 AND seq=600").fetchone()[0]
    conn.close()
    out = banco(db, "audit", "--expect-head", f"banco/2/600/{earlier[:12]}")
    assert (f"note: the head banco/2/600/{earlier[:12]} is event 600's: events 1-600 are as "
            "they were when it was printed; the log went on past it: events 601-643 came "
            "after") in out
    assert "--expect-head takes" in banco(db, "audit", "--expect-head", "banco/2/643/", code=2)


def test_a_head_line_with_its_event_number_miswritten_names_the_event_that_has_it(copy):
    db = copy / "t.db"
    conn = sqlite3.connect(db)
    h600 = conn.execute("SELECT hash FROM events WHERE game_id=2 AND seq=600").fetchone()[0]
    conn.close()
    out = banco(db, "audit", "--expect-head", f"banco/2/599/{h600[:12]}", code=3)
    assert (f"game 2: FAILED at event 599: the head line names event 599, but {h600[:12]} is "
            "the hash of event 600: check the event number written with it (`--expect-head "
            f"banco/2/600/{h600[:12]}`)") in out


def test_a_head_line_of_a_game_deleted_whole_fails(copy):
    """Game 1's rows and its games-table entry deleted (the triggers dropped): its score
    sheet's head line passed as '0 events, chain intact' (a newcomer found it)."""
    db = copy / "t.db"
    conn = sqlite3.connect(db)
    last, head = conn.execute("SELECT seq, hash FROM events WHERE game_id=1 ORDER BY seq DESC "
                              "LIMIT 1").fetchone()
    drop_triggers(conn)
    conn.execute("DELETE FROM events WHERE game_id=1")
    conn.execute("DELETE FROM games WHERE game_id=1")
    conn.commit()
    conn.close()
    out = banco(db, "audit", "--expect-head", f"banco/1/{last}/{head[:12]}", code=3)
    assert (f"game 1: FAILED at event 1: the head line banco/1/{last}/{head[:12]} was printed "
            f"at event {last} of game 1, but this file holds no event of game 1: the game was "
            "deleted") in out
    assert "not found in this history" in banco(db, "--game", "2", "audit", "--expect-head",
                                                  "feedfacecafe", code=3)
    out = banco(db, "audit", "--expect-head", f"banco/7/3/{head[:12]}", code=3)
    assert "this file holds no event of game 7" in out


def test_rows_moved_to_a_game_with_no_row_are_said_by_their_last_seq(copy):
    db = copy / "t.db"
    conn = sqlite3.connect(db)
    drop_triggers(conn)
    conn.execute("UPDATE events SET game_id=3 WHERE game_id=2 AND seq IN (402, 403)")
    conn.commit()
    conn.close()
    out = banco(db, "audit", code=3)
    assert "game 3 has events up to event 403 in the log but no row in the games table" in out
    assert "game 2: FAILED at event 402: hash chain: event 402 is missing" in out


def test_an_import_mark_written_by_hand_is_named(copy, tmp_path):
    """meta's imported:G (what `games` shows as "imported ... from FILE") has no trigger: one
    added to a game played here passed the audit.  What it says of the log is checked."""
    db = copy / "t.db"
    exported = tmp_path / "g1.jsonl"
    banco(db, "--game", "1", "export", "-o", str(exported))
    honest = tmp_path / "honest.db"
    banco(honest, "import", str(exported))
    assert "FAILED" not in banco(honest, "audit") and "imported" in banco(honest, "games")
    conn = sqlite3.connect(db)
    conn.execute("INSERT INTO meta VALUES ('imported:2', ?)", (json.dumps(
        {"at": "2026-11-29T20:00:00.000000Z", "events": 5, "from": "referee-rita.jsonl",
         "head": "deadbeef"}),))
    conn.commit()
    conn.close()
    out = banco(db, "audit", code=3)
    assert ("game 2: FAILED: the import mark of game 2 says it came with 5 events and the head "
            "deadbeef..., but its log has") in out and "the mark was written by hand" in out
    assert "the mark was written by hand" in banco(db, "doctor", code=3)


# --- the file beside the games ---------------------------------------------------------------

def test_dropped_triggers_are_reported_by_audit_and_doctor_and_repaired(copy):
    db = copy / "t.db"
    conn = sqlite3.connect(db)
    drop_triggers(conn)
    conn.commit()
    conn.close()
    out = banco(db, "audit", code=3)
    assert "database: the trigger events_no_update is missing" in out
    assert "database: the trigger events_no_delete is missing" in out
    assert "game 1: 1" in out and "FAILED" not in out  # the games themselves are fine
    out = banco(db, "doctor", code=3)
    assert "triggers: missing events_no_update, events_no_delete, events_format_2" in out
    out = banco(db, "doctor", "--repair", "--reason", "forger's work found at the club")
    assert "repaired: recreated the trigger events_no_update" in out and "healthy" in out
    assert "forger's work found at the club" in out
    banco(db, "audit")  # clean again, and the repair is on the record
    conn = sqlite3.connect(db)
    with pytest.raises(sqlite3.DatabaseError, match="append-only: DELETE refused"):
        conn.execute("DELETE FROM events WHERE seq=1")
    with pytest.raises(sqlite3.DatabaseError, match="maintenance history is append-only"):
        conn.execute("DELETE FROM maintenance")
    conn.close()
    doc = json.loads(banco(db, "audit", "--json"))
    assert [m["what"] for m in doc["maintenance"]][:2] == [
        "recreated the trigger events_no_update", "recreated the trigger events_no_delete"]
    assert "maintenance history: 3 entries" in banco(db, "doctor")


def test_doctor_rebuilds_the_games_table_and_keeps_what_it_was(copy):
    db = copy / "t.db"
    last = last_30_cut_off(db)  # the games table still says where the log ended
    out = banco(db, "doctor", code=3)
    assert f"events {last}-{last + 29} were cut off" in out
    out = banco(db, "doctor", "--repair")
    assert f"rebuilt game 1's row of the games table from its log: event {last + 29} -> " \
           f"{last - 1}" in out
    out = banco(db, "audit", code=3)  # the triggers are back, the games table agrees...
    assert "database:" not in out
    # ...and the seal still knows
    out = banco(db, "audit", "--seal", copy / "seal.txt", "--pubkey", copy / "rita.pub", code=3)
    assert f"the log stops at event {last - 1}" in out


def test_a_tampered_tournament_chain_is_named(tmp_path):
    db = tmp_path / "t.db"
    banco(db, "new", "Anna", "Bruno", "--rules", "championship")
    banco(db, "time-up")
    banco(db, "tournament", "new", "Coppa")
    banco(db, "tournament", "add", "1")
    banco(db, "audit")
    conn = sqlite3.connect(db)
    drop_triggers(conn)
    conn.execute("UPDATE tournament_facts SET data='{\"game\":1,\"round\":2}' WHERE seq=2")
    conn.commit()
    conn.close()
    out = banco(db, "audit", code=3)
    assert "database: tournament 'Coppa', fact 2: its content does not match its hash" in out
    assert "tournament_facts_no_update is missing" in out


def test_doctor_on_a_file_that_is_not_banco_s_is_unusable(tmp_path):
    db = tmp_path / "other.db"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE x (a)")
    conn.commit()
    conn.close()
    assert "is a SQLite database but not banco's" in banco(db, "doctor", code=4)


def test_an_empty_file_is_said_empty_not_healthy_with_all_its_triggers(tmp_path):
    # what `sqlite3.connect` leaves behind: doctor said "triggers: all present" and "healthy",
    # audit a "no such table" error
    db = tmp_path / "empty.db"
    db.write_bytes(b"")
    out = banco(db, "doctor")
    assert "empty, no banco tables yet: nothing to check" in out
    assert "all present" not in out and "healthy" not in out
    assert json.loads(banco(db, "doctor", "--json"))["empty"] is True
    assert "no game in" in banco(db, "audit", code=2) and db.read_bytes() == b""


# --- the installed banco, as a shell sees it -------------------------------------------------

def test_exit_codes_of_the_installed_banco(copy):
    import os
    import subprocess
    import sys

    exe = Path(sys.executable).parent / "banco"
    if not exe.exists():
        pytest.skip("banco is not installed in this venv")

    def run(*args, code):
        result = subprocess.run([str(exe), "--db", str(copy / "t.db"), *map(str, args)],
                                capture_output=True, text=True, timeout=120, cwd=copy,
                                env={**os.environ, "BANCO_FIXED_TIME": FORGED_AT})
        assert "Traceback" not in result.stderr, result.stderr
        assert result.returncode == code, (args, result.stdout, result.stderr)
        return result.stdout + result.stderr

    run("keygen", "--out", "ref", code=0)
    out = run("--game", "2", "seal", "--key", "ref.key", code=0)
    assert out.strip().splitlines()[-1].startswith("banco/2/643/")
    run("audit", "--seal", "game-2-seal-643.txt", "--pubkey", "ref.pub", code=0)
    run("doctor", code=0)
    seq = not_json(copy / "t.db")  # and the triggers dropped
    assert f"game 1: FAILED at event {seq}: its data is not JSON" in run("audit", code=3)
    run("doctor", code=3)
    run("doctor", "--repair", code=0)
    run("audit", "--seal", "seal.txt", "--pubkey", "rita.pub", code=3)
    run("audit", "--expect-head", "nothex!!", code=2)
    (copy / "other.db").write_bytes(b"not a database at all, just text" * 100)
    for words in (("doctor",), ("audit",)):
        result = subprocess.run([str(exe), "--db", str(copy / "other.db"), *words],
                                capture_output=True, text=True, timeout=60)
        assert result.returncode == 4 and "Traceback" not in result.stderr, result.stderr


def test_a_finished_game_prints_its_head_line(tmp_path):
    db = tmp_path / "t.db"
    banco(db, "new", "Anna", "Bruno", "--rules", "championship")
    assert "head line" not in banco(db, "state") + banco(db, "standings")  # not over yet
    out = banco(db, "time-up")  # the line that ends it
    conn = sqlite3.connect(db)
    seq, head = conn.execute("SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1").fetchone()
    conn.close()
    line = f"banco/1/{seq}/{head[:12]}"
    said = f"head line for the score sheet: {line}"
    assert said in out.splitlines()[-1]
    assert said in banco(db, "state").splitlines()[-1]
    assert said in banco(db, "standings").splitlines()[-1]
    assert "chain intact" in banco(db, "audit", "--expect-head", line)


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


def test_a_tournament_game_gone_from_the_file_is_named(tmp_path):
    db = tmp_path / "t.db"
    banco(db, "new", "Anna", "Bruno", "--rules", "championship")
    banco(db, "time-up")
    banco(db, "tournament", "new", "Coppa")
    banco(db, "tournament", "add", "1")
    conn = sqlite3.connect(db)
    drop_triggers(conn)
    conn.execute("DELETE FROM events")
    conn.execute("DELETE FROM games")
    conn.commit()
    conn.close()
    out = banco(db, "doctor", code=3)
    assert "tournament 'Coppa', fact 2: it enters game 1 (" in out
    assert "which is not in this database any more" in out


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


def test_an_edited_snapshot_is_named_by_doctor_and_deleted_by_repair(copy):
    """A snapshot with the log's head at its seq and a digest that binds its text to it, edited
    with that digest recomputed (the function is public): the chain records the digest of the
    table at that event too, so `state` does not start from it and shows the log's table;
    doctor names it, --repair deletes it and records that."""
    db = copy / "t.db"
    honest = json.loads(banco(db, "--game", "2", "state", "--json"))
    conn = sqlite3.connect(db)
    seq, state = conn.execute("SELECT seq, state FROM snapshots WHERE game_id=2 "
                              "ORDER BY seq DESC").fetchone()
    anna = json.loads(state)["v"][6]["t"][0]["v"]
    assert anna[0] == "Anna"
    forged = state.replace(json.dumps(anna, separators=(",", ":")),
                           json.dumps([anna[0], anna[1] + 5000, *anna[2:]],
                                      separators=(",", ":")), 1)
    assert forged != state
    from banco.ledger.store.snapshot_binding import snapshot_digest

    head, fmt = conn.execute("SELECT head, format FROM snapshots WHERE game_id=2 AND seq=?",
                             (seq,)).fetchone()
    conn.execute("UPDATE snapshots SET state=?, digest=? WHERE game_id=2 AND seq=?",
                 (forged, snapshot_digest(seq, head, fmt, forged), seq))
    conn.commit()
    conn.close()
    shown = CliRunner().invoke(cli, ["--db", str(db), "--game", "2", "state", "--json"])
    assert shown.exit_code == 0 and f"the snapshot at event {seq} was changed" in shown.stderr
    assert json.loads(shown.stdout) == honest
    out = banco(db, "doctor", code=3)
    assert f"game 2: the snapshot at event {seq} was changed after banco wrote it" in out
    doc = json.loads(banco(db, "doctor", "--json", code=3))
    assert [(p["kind"], p["game"], p["seq"]) for p in doc["problems"]] == [("snapshot", 2, seq)]
    out = banco(db, "doctor", "--repair", "--reason", "snapshot edited")
    assert f"repaired: deleted game 2's snapshot at event {seq}" in out and "healthy" in out
    assert "delete it" not in out  # the record of what was done carries no advice to do it
    assert json.loads(banco(db, "--game", "2", "state", "--json")) == honest
    assert "snapshot edited" in banco(db, "doctor")


@pytest.mark.parametrize("column, value, seq_is_start", [
    ("players", '["Anna","Bruno","Zoe"]', True),
    ("rules", "championship", True),
    ("edition", "us", True),
    ("game_uuid", "00000000-0000-0000-0000-000000000000", True),
    ("started_at", "2020-01-01T00:00:00.000000Z", False),
])
def test_an_edited_identity_in_the_games_table_is_named_and_rebuilt(copy, column, value,
                                                                   seq_is_start):
    """`games` and the tournaments read who played, under which rules and since when from the
    games table: each column is held to the game's own log (found by a newcomer's trial: an
    UPDATE of players, rules and started_at passed audit and doctor)."""
    db = copy / "t.db"
    conn = sqlite3.connect(db)
    started = conn.execute("SELECT seq FROM events WHERE game_id=2 AND type='GameStarted'"
                           ).fetchone()[0]
    was = conn.execute(f"SELECT {column} FROM games WHERE game_id=2").fetchone()[0]
    conn.execute(f"UPDATE games SET {column}=? WHERE game_id=2", (value,))
    conn.commit()
    conn.close()
    doc = json.loads(banco(db, "audit", "--json", code=3))
    game2 = next(g for g in doc["games"] if g["game"] == 2)
    assert game2["bad_seq"] == (started if seq_is_start else 1)
    assert game2["problem"].startswith(f"the games table says game 2's {column} is ")
    assert "the row was edited" in game2["problem"]
    assert f"game 2's {column}" in banco(db, "doctor", code=3)
    out = banco(db, "doctor", "--repair")
    assert f"rebuilt game 2's {column} in the games table from its log" in out
    conn = sqlite3.connect(db)
    assert conn.execute(f"SELECT {column} FROM games WHERE game_id=2").fetchone()[0] == was
    conn.close()
    banco(db, "audit")


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
    _forge(db, f"DELETE FROM events WHERE game_id=1 AND seq>{sealed}",
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
