"""`replay --rules NAME`: the recorded commands re-run under another rule set, in memory: the
first divergence, where the other rules refuse a command, the tables and standings side by
side.  Nothing is written."""

import hashlib
import json
import re
from pathlib import Path

import pytest
from games import lines, record

from banco.ledger.book import Book
from banco.projections.readings.replay import command_batches
from banco.projections.referee.counterfactual import rerun


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


def expected(events):
    """Where quick must part from the recorded classic game: the first auction (quick opens
    at 10, classic at 1), and the first bid under 10 (refused by quick)."""
    steps = list(command_batches(events))
    first = next(i for i, b in enumerate(steps, start=1)
                 if any(e["type"] == "AuctionOpened" for e in b))
    low = next(i for i, b in enumerate(steps, start=1)
               if re.fullmatch(r"bid \w+ [1-9]", b[0]["data"]["line"] or ""))
    return steps, first, low


def test_classic_4p_under_quick_first_divergence_then_a_refused_bid(four):
    events = events_of(four)
    steps, first, low = expected(events)
    r = rerun(events, "quick", game_id=1)
    d = r.divergence
    # The first command whose facts differ: an auction opens at 1 under classic, 10 under quick
    assert d.step == first and d.seqs == (steps[first - 1][0]["seq"], steps[first - 1][-1]["seq"])
    assert d.line == "decline"
    opened = [e for e in d.recorded if e["type"] == "AuctionOpened"][0]["data"]
    other = [e for e in d.other if e["type"] == "AuctionOpened"][0]["data"]
    assert (opened["min_bid"], other["min_bid"]) == (1, 10)
    assert {**opened, "min_bid": 10} == other
    # A bid under 10 is refused under quick: the re-run stops there
    s = r.stopped
    assert (s.step, s.line) == (low, steps[low - 1][0]["data"]["line"])
    assert re.match(r"bids for .+ open at 10 M; \d is too low", s.refused)
    assert r.commands == low - 1 and r.total == len(steps)
    # side by side at that point: the recorded table just before it, and quick's
    assert r.recorded_final.seq == steps[low - 1][0]["seq"] - 1
    assert [p.cash for p in r.recorded_final.players] == [p.cash for p in r.other_final.players]


def test_skipping_refused_commands_goes_to_the_end(four):
    events = events_of(four)
    steps, first, low = expected(events)
    r = rerun(events, "quick", skip_refused=True, game_id=1)
    assert r.stopped is None and r.skipped[0].step == low
    assert r.commands + len(r.skipped) == r.total
    assert r.recorded_final.seq == events[-1]["seq"]


def test_skipped_commands_wait_in_a_file_and_print_byte_for_byte(banco, monkeypatch):
    """`replay --rules --skip-refused` spools each skipped command (60,199 of them on a
    300,000-event game held 402 MB): no more than three are alive at once, and the output,
    text and --json, is byte for byte what the whole re-run held in memory gives."""
    import weakref

    from click.testing import CliRunner

    from banco.cli.main import cli
    from banco.cli.referee.counterfactual_text import counterfactual_lines
    from banco.cli.words.facts import describe
    from banco.projections.referee import counterfactual

    # a bid of 5 is refused under quick (bids open at 10), and so is all that follows it
    for line in ("new Anna Bruno", "roll 1 2", "decline", "bid Bruno 5", "hammer", "roll 2 4",
                 "decline", "bid Anna 12", "hammer"):
        banco(*line.split())
    events = events_of(banco.db)
    whole = rerun(events, "quick", skip_refused=True, game_id=1)
    skipped = len(whole.skipped)
    assert skipped == 4, skipped  # several commands skipped: a fair test of the spool
    alive, most = set(), [0]

    class Counted(counterfactual.Divergence):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            alive.add(id(self))
            most[0] = max(most[0], len(alive))
            weakref.finalize(self, alive.discard, id(self))

    monkeypatch.setattr(counterfactual, "Divergence", Counted)
    args = ["--db", banco.db, "replay", "--rules", "quick", "--skip-refused"]
    text = CliRunner().invoke(cli, args, catch_exceptions=False)
    assert text.exit_code == 0, text.output
    # the first divergence, the command before and the one at hand, however many skipped
    assert 1 <= most[0] <= 3, most
    assert text.output == "\n".join(counterfactual_lines(whole, 1)) + "\n"
    assert text.output.count("skipped (refused under quick)") == skipped
    doc = CliRunner().invoke(cli, [*args, "--json"], catch_exceptions=False)
    assert doc.output == json.dumps(whole.document(describe), ensure_ascii=False,
                                    indent=2) + "\n"
    assert len(json.loads(doc.output)["skipped"]) == skipped


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
    # The first landing's claim is closed by the roll two seats on, not the next one
    seats = ["Anna", "Bruno", "Carla", "Dario"]
    recorded = [e for e in r.divergence.recorded if e["type"] == "RentClaimOpened"][0]["data"]
    other = [e for e in r.divergence.other if e["type"] == "RentClaimOpened"][0]["data"]
    payer = seats.index(recorded["payer"])
    assert recorded["closer"] == seats[(payer + 1) % 4]
    assert other["closer"] == seats[(payer + 2) % 4]
    assert {**recorded, "closer": other["closer"]} == other


def test_undo_is_re_run_too(tmp_path):
    db = str(tmp_path / "u.db")
    lines(db, "new Anna Bruno", "roll 3 2", "buy", "undo", "decline", "bid Bruno 30", "hammer")
    r = rerun(events_of(db), "quick", game_id=1)
    assert r.stopped is None
    assert r.other_final.owners[5] == "Bruno" and r.other_final.player("Anna").cash == 1500
    assert r.divergence.line == "decline"  # quick opens the auction at 10


def test_the_command_line_reports_and_writes_nothing(four, banco):
    steps, first, low = expected(events_of(four))
    before = digest(four)
    out = banco("--db", four, "replay", "--rules", "quick").output
    assert digest(four) == before
    a, b = steps[first - 1][0]["seq"], steps[first - 1][-1]["seq"]
    assert f"first divergence: command #{first} (events {a}-{b}): `decline`" in out
    line = steps[low - 1][0]["data"]["line"]
    assert f"stopped: command #{low} (events " in out and f"`{line}`" in out
    assert re.search(r"refused: bids for .+ open at 10 M; \d is too low", out)
    assert f"the tables before command #{low}" in out and "standings:" in out
    doc = json.loads(banco("--db", four, "replay", "--rules", "quick", "--json").output)
    assert doc["rules"] == {"recorded": "classic", "other": "quick"}
    assert doc["first_divergence"]["step"] == first and doc["stopped"]["step"] == low
    assert [r["name"] for r in doc["standings"]["other"]] == \
        [r["name"] for r in doc["standings"]["recorded"]]
    assert "unknown rule set 'quik'" in banco("--db", four, "replay", "--rules", "quik",
                                              code=2).output
    assert digest(four) == before
