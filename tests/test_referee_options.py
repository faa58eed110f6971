"""The referee's options read as replay's do and refuse in words: `log --from/--to` take a seq
or a time and refuse a range given backwards (exit 2); a negative seq is a number said as such,
not click's unknown option; `correct Bank 10` says the Bank is no player (it suggested Anna);
`audit --expect-head` with the game's head says it matched."""

import subprocess
import sys
from pathlib import Path

import pytest
from freezegun import freeze_time

BANCO = str(Path(sys.executable).parent / "banco")


@pytest.fixture
def played(banco, monkeypatch):
    monkeypatch.setenv("TZ", "UTC")
    with freeze_time("2026-11-30 06:12:03"):
        banco("new", "Anna", "Bruno", "Carla")
        banco("roll", "1", "2")  # Anna: Vicolo Stretto (events 6-9)
        banco("buy")  # 10-12
    with freeze_time("2026-11-30 06:20:00"):
        banco("roll", "2", "1")  # Bruno lands on it: 13-17
        banco("claim", "anna")  # 18-19
    return banco


def seqs(result):
    return [int(x.split()[0].rstrip("x")) for x in result.output.splitlines()[1:]
            if x[:5].strip().isdigit()]


def test_log_from_and_to_take_a_time_as_replay_does(played):
    assert seqs(played("log", "--from", "2026-11-30 06:20")) == list(range(13, 20))
    assert seqs(played("log", "--to", "2026-11-30 06:12")) == list(range(1, 13))
    assert seqs(played("log", "--from", "10", "--to", "2026-11-30 06:12:03")) == [10, 11, 12]
    r = played("log", "--from", "2030-01-01", code=2)
    assert "nothing was recorded from 2030-01-01 on: the game's last event, 19" in r.output
    assert "no event of game 1 matches" in played("log", "--from", "99").output  # a filter


def test_log_from_after_to_is_a_usage_error(played):
    r = played("log", "--from", "15", "--to", "10", code=2)
    assert "--from 15 comes after --to 10: give the earlier moment first" in r.output
    r = played("log", "--from", "2026-11-30 06:20", "--to", "2026-11-30 06:12", code=2)
    assert "comes after --to 2026-11-30 06:12" in r.output


@pytest.mark.parametrize("args", [("ruling", "rent", "-5"), ("show", "-5"),
                                  ("state", "--at", "-5"), ("log", "--from", "-5")])
def test_a_negative_seq_is_said_as_such(played, args):
    r = subprocess.run([BANCO, "--db", played.db, *args], capture_output=True, text=True)
    assert r.returncode == 2, r.stderr
    assert ("-5 is a negative number: a game's events are numbered from 1 (`log` lists them)"
            in r.stderr)
    assert "No such option" not in r.stderr


def test_a_reading_still_names_a_misspelt_option(played):
    r = played("ruling", "rent", "16", "--jsn", code=2)
    assert "No such option '--jsn'" in r.output and "--json" in r.output
    r = played("show", "abc", code=2)
    assert "'abc' is not an event number: `show` takes a seq" in r.output
    r = played("ruling", "rent", "2026-11-30", "06:20", code=2)
    assert "a time with a space goes in quotes" in r.output
    assert "Anna" in played("ruling", "rent", "16").output


def test_a_cash_correction_of_the_bank_says_the_bank_is_no_player(played):
    r = played("correct", "Bank", "10", "--reason", "x", "--referee", "Rita", code=2)
    assert "Bank is the Bank, not a player: a correction moves a player's cash to or from " \
           "the Bank, so name the player" in r.output
    assert "did you mean" not in r.output
    r = played("correct", "--move", "banca", "5", "--reason", "x", "--referee", "Rita", code=2)
    assert "banca is the Bank, not a player: the Bank has no token to move" in r.output
    # the Bank as the deed's new owner is understood, in any of its names
    played("correct", "--owner", "vicolo stretto", "Banca", "--reason", "x", "--referee", "Rita")


def test_audit_says_the_expected_head_matched(played):
    head = [x for x in played("audit").output.splitlines() if "head" in x][0].split()[1]
    out = played("audit", "--expect-head", head[:12]).output
    assert (f"expected head {head[:12]}: matched, the head at event 19, the last: the history "
            "is as it was when it was printed") in out
    it = played("--lang", "it", "audit", "--expect-head", f"banco/1/19/{head[:12]}").output
    assert f"banco/1/19/{head[:12]}" in it and "expected head" not in it
    played("roll", "3", "4")
    out = played("audit", "--expect-head", head[:12]).output
    assert "matched" not in out and "the log went on past it" in out


def test_import_says_the_expected_head_matched(played, tmp_path):
    head = [x for x in played("audit").output.splitlines() if "head" in x][0].split()[1]
    exported = tmp_path / "game.jsonl"
    played("export", "-o", str(exported))
    out = played("--db", str(tmp_path / "new.db"), "import", str(exported), "--expect-head",
                 head[:12]).output
    assert (f"the expected head {head[:12]} matched: the head at event 19, the last: the "
            "history is as it was when it was printed") in out
