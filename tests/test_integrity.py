"""Every tampering of issue 9, done with the triggers dropped, caught by `audit` naming the
game and the seq, and breaking a referee's seal where it falls before it.  The seals
themselves are tests/test_integrity_seals.py; head lines, tests/test_integrity_heads.py;
`doctor` and its repair, tests/test_integrity_doctor.py."""

from __future__ import annotations

import json

import pytest
from integrity_files import TAMPERINGS, banco, forge_rows, forged_seal, rows, sealed_seq


def test_the_untouched_database_audits_clean(copy):
    doc = json.loads(banco(copy / "t.db", "audit", "--json"))
    assert doc["ok"] and [g["game"] for g in doc["games"]] == [1, 2]
    assert doc["database"] == [] and doc["maintenance"] == []
    assert all(g["ok"] for g in doc["games"])
    # the seal verifies on the untouched copy (each tampering below starts from this copy)
    out = banco(copy / "t.db", "audit", "--seal", copy / "seal.txt", "--pubkey",
                copy / "rita.pub")
    assert "signature good; game 1's events 1-" in out and "FAILED" not in out


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
    sealed = sealed_seq(copy)  # the untouched copy's seal verifies: the first test checks it
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
    forge_rows(db, f"DELETE FROM events WHERE game_id=1 AND seq>={cut}",
           "UPDATE games SET ended_seq=NULL WHERE game_id=1", rechain_from=cut - 1)
    banco(db, "doctor", "--repair")  # the triggers
    assert f"game 1: {cut - 1} events, chain intact" in banco(db, "audit")  # nobody can tell..
    out = banco(db, "audit", "--seal", copy / "seal.txt", "--pubkey", copy / "rita.pub", code=3)
    assert f"FAILED at event {cut}: the seal is on event {sealed_seq(copy)}, but the log " \
           f"stops at event {cut - 1}" in out  # ...but the seal
