"""`replay --rules NAME`: the recorded commands re-run under another rule set, in memory: the
first divergence, where the other rules refuse a command, the tables and standings side by
side.  Nothing is written."""

import hashlib
import json
from pathlib import Path

import pytest
from games import lines, record

from ledger.book import Book
from projections.counterfactual import rerun


@pytest.fixture(scope="module")
def four(tmp_path_factory):
    return record(str(tmp_path_factory.mktemp("cf") / "4p.db"), "classic-4p")


def digest(db):
    return hashlib.sha256(Path(db).read_bytes()).hexdigest()


def events_of(db, game=1):
    book = Book(db)
    try:
        return book.events(game)
    finally:
        book.close()


def test_classic_4p_under_quick_first_divergence_then_a_refused_bid(four):
    r = rerun(events_of(four), "quick", game_id=1)
    d = r.divergence
    # The first command whose facts differ: an auction opens at 1 under classic, 10 under quick
    assert (d.step, d.seqs, d.line) == (53, (197, 199), "decline")
    assert d.recorded[1] == {"type": "AuctionOpened",
                             "data": {"min_bid": 1, "property": 1, "step": 1}}
    assert d.other[1] == {"type": "AuctionOpened",
                          "data": {"min_bid": 10, "property": 1, "step": 1}}
    # A bid of 5 is refused under quick: the re-run stops there
    s = r.stopped
    assert (s.step, s.line) == (82, "bid Bruno 5")
    assert s.refused.startswith("bids for Largo Colombo open at 10 M; 5 is too low")
    assert r.commands == 81 and r.total == 180
    # side by side at that point: the recorded table just before it, and quick's
    assert r.recorded_final.seq == 287
    assert [p.cash for p in r.recorded_final.players] == [p.cash for p in r.other_final.players]


def test_skipping_refused_commands_goes_to_the_end(four):
    r = rerun(events_of(four), "quick", skip_refused=True, game_id=1)
    assert r.stopped is None and [d.line for d in r.skipped][0] == "bid Bruno 5"
    assert r.commands + len(r.skipped) == r.total
    assert r.recorded_final.seq == 635


def test_the_same_rules_give_the_same_game(four):
    events = events_of(four)
    r = rerun(events, "classic", game_id=1)
    assert r.divergence is None and r.stopped is None and r.commands == 180
    assert r.other_final.players == r.recorded_final.players
    assert r.other_final.owners == r.recorded_final.owners


def test_a_house_rules_file_with_a_longer_claim_window(tmp_path, four):
    rules = tmp_path / "patient.toml"
    rules.write_text('extends = "classic"\nclaim_window = 2\n', encoding="utf-8")
    r = rerun(events_of(four), str(rules), game_id=1)
    assert r.other_rules.name == "patient"
    # The first landing's claim is closed by another player's roll two seats on
    assert [e["type"] for e in r.divergence.other if e["type"].startswith("Rent")] == \
        ["RentClaimOpened"]
    assert r.divergence.recorded[-2]["data"]["closer"] == "Anna"
    assert r.divergence.other[-2]["data"]["closer"] == "Bruno"


def test_undo_is_re_run_too(tmp_path):
    db = str(tmp_path / "u.db")
    lines(db, "new Anna Bruno", "roll 3 2", "buy", "undo", "decline", "bid Bruno 30", "hammer")
    r = rerun(events_of(db), "quick", game_id=1)
    assert r.stopped is None
    assert r.other_final.owners[5] == "Bruno" and r.other_final.player("Anna").cash == 1500
    assert r.divergence.line == "decline"  # quick opens the auction at 10


def test_the_command_line_reports_and_writes_nothing(four, banco):
    before = digest(four)
    out = banco("--db", four, "replay", "--rules", "quick").output
    assert digest(four) == before
    assert "first divergence: command #53 (events 197-199): `decline`" in out
    assert "stopped: command #82 (events 288-289): `bid Bruno 5`" in out
    assert "refused: bids for Largo Colombo open at 10 M; 5 is too low" in out
    assert "the tables before command #82" in out and "standings:" in out
    doc = json.loads(banco("--db", four, "replay", "--rules", "quick", "--json").output)
    assert doc["rules"] == {"recorded": "classic", "other": "quick"}
    assert doc["first_divergence"]["step"] == 53 and doc["stopped"]["step"] == 82
    assert [r["name"] for r in doc["standings"]["other"]] == \
        [r["name"] for r in doc["standings"]["recorded"]]
    assert "unknown rule set 'quik'" in banco("--db", four, "replay", "--rules", "quik",
                                              code=2).output
    assert digest(four) == before
