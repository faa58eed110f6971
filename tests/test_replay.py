"""`replay`: the game command by command, with what each changed on the table; `state --at`
and `replay --from/--to` by seq or by time."""

import json
import random
import re
import shutil

import pytest
from format1 import OLD_DB
from games import batch, lines, record, recorded_back, seqs

from banco.ledger.book import Book
from banco.ledger.records import commands as c
from banco.ledger.table.state import fold
from banco.projections.readings.replay import steps
from banco.projections.referee.moments import parse_moment, seq_at

NOW = "2026-11-29T21:00:00.000000Z"


@pytest.fixture(scope="module")
def four(tmp_path_factory):
    return record(str(tmp_path_factory.mktemp("replay") / "4p.db"), "classic-4p")


def test_each_step_is_a_command_with_its_line_facts_and_changes(four):
    book = Book(four)
    all_steps = list(steps(book.events(1), 1))
    assert len(all_steps) == 180  # the transcript's 180 lines
    new, roll, buy = all_steps[:3]
    assert new.line.startswith("new Anna Bruno Carla Dario")
    assert new.changes == {"cash": {"Anna": 1500, "Bruno": 1500, "Carla": 1500, "Dario": 1500}}
    assert roll.line == "roll 3 2 --player Anna" and roll.seqs == (7, 10)
    assert [e["type"] for e in roll.events] == ["DiceRolled", "TokenMoved", "PurchaseOffered"]
    assert roll.changes == {"moves": [{"player": "Anna", "from": 0, "to": 5}],
                            "turn": {"player": "Anna", "phase": "buy"}}
    assert buy.changes["cash"] == {"Anna": -200}
    assert buy.changes["deeds"] == [{"property": 5, "name": "Stazione Sud", "from": "bank",
                                     "to": "Anna"}]
    late = next(s for s in all_steps if s.line.startswith("claim Dario"))
    assert [e["type"] for e in late.events] == ["RentClaimRefused"] and late.changes == {}


def test_every_step_shows_the_table_as_it_was(four):
    """Before and after each step are the folds of the log up to that point: what `state --at`
    shows, computed once for the whole game."""
    book = Book(four)
    events = book.events(1)
    for s in steps(events, 1):
        assert s.after == fold(events[:s.last_seq], 1)
        if s.number > 1:
            assert s.before == fold(events[:s.first_seq - 1], 1)


def test_an_undo_changes_the_table_back_and_marks_what_it_took(tmp_path):
    book = Book(str(tmp_path / "u.db"))
    g = book.new_game(["Anna", "Bruno"], now=NOW)
    rng = random.Random(3)
    for _ in range(60):  # rolls, buys, claims and undos, some undone twice in a row
        st = book.state(g)
        options = [c.Roll((rng.randint(1, 6), rng.randint(1, 6)))] if st.turn.phase == "roll" \
            else [c.Buy()] if st.turn.phase == "buy" and st.current.cash > 400 else []
        if st.claims:
            options.append(c.Claim(st.claims[0].owner))
        if not options or rng.random() < 0.25:
            try:
                book.undo(g, now=NOW)
            except Exception:
                pass
            continue
        try:
            book.execute(g, options[0], now=NOW)
        except Exception:
            book.undo(g, now=NOW)
    events = book.events(g)
    assert any(e["type"] == "EventRetracted" for e in events)
    for s in steps(events, g):
        assert s.after == fold(events[:s.last_seq], g), s.line
    undone = [s for s in steps(events, g) if s.taken_back_by]
    assert undone
    for s in undone:
        undo = events[s.taken_back_by - 1]
        assert undo["type"] == "EventRetracted" and undo["data"]["command_id"] == s.command_id


def test_the_undo_step_shows_the_reversal(banco):
    banco("new", "Anna", "Bruno")
    banco("roll", "3", "2")
    banco("buy")
    banco("undo")
    doc = json.loads(banco("replay", "--json").output)
    buy, undo = doc["steps"][-2], doc["steps"][-1]
    assert buy["changes"]["cash"] == {"Anna": -200} and buy["taken_back_by"] == undo["seqs"][1]
    assert undo["line"] == "undo"
    assert undo["changes"]["cash"] == {"Anna": 200}
    assert undo["changes"]["deeds"] == [{"property": 5, "name": "Stazione Sud", "from": "Anna",
                                         "to": "bank"}]
    text = banco("replay").output
    assert "(taken back by the undo at event" in text
    assert "deed: Stazione Sud Anna -> Bank" in text


def late_claim_steps(db):
    """The fixture's disputed claim: the seqs of the landing's command, the closing roll's,
    and the refused claim's."""
    book = Book(db)
    events = book.events(1)
    book.close()
    refused = seqs(events, "RentClaimRefused")[0]
    opened = events[refused - 1]["data"]["opened_seq"]
    lapsed = seqs(events, "RentClaimLapsed", opened_seq=opened)[0]
    return events, [(b[0]["seq"], b[-1]["seq"]) for b in
                    (batch(events, opened), batch(events, lapsed), batch(events, refused))]


def test_replay_text_and_range(four, banco):
    events, (landing, roll, claim) = late_claim_steps(four)
    first, last = str(landing[0] + 2), str(claim[1])
    out = banco("--db", four, "replay", "--from", first, "--to", last).output
    assert out.splitlines()[0] == "game 1: Anna, Bruno, Carla, Dario; rules classic, edition it"
    assert "> roll 1 2 --player Anna" in out and "> roll 2 3 --player Bruno" in out
    assert f"late claim recorded as event {claim[1]}" in out
    assert "> buy" not in out.split("> claim Dario")[1]  # stops at the command of the claim
    assert "changed: Anna: Viale Monterosa -> Via Accademia" in out
    doc = json.loads(banco("--db", four, "replay", "--from", first, "--to", last,
                           "--json").output)
    assert [tuple(s["seqs"]) for s in doc["steps"]] == [landing, roll, claim]
    assert doc["steps"][0]["events"][0] == {
        "seq": landing[0] + 1, "type": "DiceRolled", "text": "Anna rolls 1+2 = 3",
        "data": {"dice": [1, 2], "doubles": False, "extra_roll": False, "in_row": 0,
                 "player": "Anna"}}


def test_a_game_recorded_before_commands_were_kept_still_replays(tmp_path, banco):
    db = str(tmp_path / "old.db")
    shutil.copy(OLD_DB, db)
    out = banco("--db", db, "--game", "1", "replay", "--to", "12").output
    assert "(no line recorded: written before banco kept them)" in out
    assert "Anna rolls 3+2 = 5" in out


# --- moments --------------------------------------------------------------------------------

def test_a_time_is_read_as_log_prints_it_or_as_iso(rome):
    events = [{"seq": i, "recorded_at": t} for i, t in enumerate(
        ["2026-11-29T21:00:00.000000Z", "2026-11-29T21:05:00.400000Z",
         "2026-11-29T21:05:00.900000Z", "2026-11-29T21:10:00.000000Z"], start=1)]
    # log prints local time to the second: 22:05:00 covers both events of that second
    assert seq_at(events, parse_moment("2026-11-29 22:05:00+01:00")) == 3
    assert seq_at(events, parse_moment("2026-11-29 22:05:00")) == 3  # local, no offset
    assert seq_at(events, parse_moment("2026-11-29T21:05:00.5Z")) == 2  # to the microsecond
    assert seq_at(events, parse_moment("2026-11-29 22:09")) == 3  # a minute: all of it
    assert seq_at(events, parse_moment("2026-11-29T21:10Z")) == 4
    assert seq_at(events, parse_moment("3")) == 3
    from banco.ledger.base.errors import UsageError

    with pytest.raises(UsageError, match="nothing was recorded by 2026-11-29 21:59:59: the "
                                         "game's first event is at 2026-11-29 22:00:00"):
        seq_at(events, parse_moment("2026-11-29 21:59:59"))
    with pytest.raises(UsageError, match="neither an event number nor a time"):
        parse_moment("after dinner")
    with pytest.raises(UsageError, match="there is no event 9"):
        seq_at(events, parse_moment("9"))


def test_a_time_where_the_clock_went_back_is_refused_not_guessed(rome):
    from banco.ledger.base.errors import UsageError

    # 21:00, 21:10, then the clock set back: 21:04, 21:06
    events = [{"seq": i, "recorded_at": t} for i, t in enumerate(
        ["2026-11-29T21:00:00.000000Z", "2026-11-29T21:10:00.000000Z",
         "2026-11-29T21:04:00.000000Z", "2026-11-29T21:06:00.000000Z"], start=1)]
    # 21:05 is after event 1 and 3, before 2 and 4: two places in the game
    with pytest.raises(UsageError, match=r"the game's times go back: event 2 was recorded at "
                                         r"2026-11-29 22:10:00\+01:00, after 2026-11-29 22:05, "
                                         r"but event 3, later in the game, at 2026-11-29 "
                                         r"22:04:00\+01:00: .* give an event's seq instead"):
        seq_at(events, parse_moment("2026-11-29 22:05"))
    # a time before every later one, or after them all, still names one place
    assert seq_at(events, parse_moment("2026-11-29 22:02")) == 1
    assert seq_at(events, parse_moment("2026-11-29 22:11")) == 4
    assert seq_at(events, parse_moment("4")) == 4  # a seq always does


def test_state_and_replay_at_a_time(tmp_path, banco, rome):
    db = str(tmp_path / "t.db")
    lines(db, "new Anna Bruno", at="2026-11-29 21:00:00")
    lines(db, "roll 3 2", at="2026-11-29 21:05:00")
    lines(db, "buy", at="2026-11-29 21:10:00")
    at = json.loads(banco("--db", db, "state", "--at", "2026-11-29 22:07", "--json").output)
    assert at["seq"] == 8 and at["players"][0]["position"] == 5 and at["players"][0]["cash"] == 1500
    same = json.loads(banco("--db", db, "state", "--at", "2026-11-29T21:07:00Z", "--json").output)
    assert same == at
    text = banco("--db", db, "state", "--at", "2026-11-29 22:07").output
    assert "the table after event 8, the last recorded by 2026-11-29 22:07" in text
    out = banco("--db", db, "replay", "--from", "2026-11-29 22:05:00").output
    assert "> roll 3 2" in out and "> buy" in out and "> new" not in out
    assert "nothing was recorded by" in banco("--db", db, "state", "--at", "2026-11-28",
                                              code=2).output


def test_replay_from_a_minute_starts_at_its_first_command_and_to_a_minute_ends_at_its_last(
        tmp_path, banco, rome):
    """`--from 22:14` takes in the command at 22:14:10 (it began with the last command by
    22:14:59, leaving out the earlier ones of that minute); `--to 22:14` takes in 22:14:40."""
    db = str(tmp_path / "t.db")
    lines(db, "new Anna Bruno", at="2026-11-29 21:13:30")  # UTC: 22:13:30 in Rome
    lines(db, "roll 3 2", at="2026-11-29 21:14:10")
    lines(db, "buy", at="2026-11-29 21:14:40")
    lines(db, "roll 1 2", at="2026-11-29 21:15:05")

    def commands(*words):
        return re.findall(r"(?m)^  > (.+)$", banco("--db", db, "replay", *words).output)

    assert commands("--from", "2026-11-29 22:14") == ["roll 3 2", "buy", "roll 1 2"]
    assert commands("--from", "2026-11-29 22:14:40") == ["buy", "roll 1 2"]
    assert commands("--to", "2026-11-29 22:14") == ["new Anna Bruno", "roll 3 2", "buy"]
    assert commands("--from", "2026-11-29 22:14", "--to", "2026-11-29 22:14") == [
        "roll 3 2", "buy"]
    assert commands("--from", "2026-11-29T21:14:00Z") == ["roll 3 2", "buy", "roll 1 2"]
    assert commands("--from", "2026-11-28") == commands()  # before the game: all of it
    out = banco("--db", db, "replay", "--from", "2026-11-29 22:16", code=2).output
    assert "nothing was recorded from 2026-11-29 22:16 on: the game's last event, 15" in out, out
    assert "22:15:05+01:00" in out


def test_state_at_a_time_the_clock_passed_twice(tmp_path, banco, rome):
    db = str(tmp_path / "t.db")
    lines(db, "new Anna Bruno", at="2026-11-29 21:00:00")
    lines(db, "roll 3 2", at="2026-11-29 21:10:00")
    recorded_back(db, "buy", at="2026-11-29 21:04:00")  # a clock set back, by an older banco
    out = banco("--db", db, "state", "--at", "2026-11-29 22:05", code=2).output
    assert "the game's times go back" in out and "give an event's seq instead" in out
    assert json.loads(banco("--db", db, "state", "--at", "9", "--json").output)["seq"] == 9


# --- in the shell ---------------------------------------------------------------------------

def test_the_shell_steps_through_the_game(tmp_path, four):
    from test_shell import drive

    db = str(tmp_path / "s.db")
    shutil.copy(four, db)
    events, (landing, roll, claim) = late_claim_steps(db)
    all_steps = list(steps(events, 1))
    n, at = len(all_steps), next(s.number for s in all_steps if s.first_seq == claim[0])
    sh, out = drive(db, "replay", "", "next 2", "back", f"jump {claim[1]}", "where",
                    "next 5000", "sideways", "jump 99999", "quit")
    assert f"replay of game 1: {n} commands, {len(events)} events" in out
    shown = re.findall(r"#(\d+) +events? ", out)
    assert shown == ["1", "2", "4", "3", str(at), str(n)]
    assert f"late claim recorded as event {claim[1]}" in out
    assert f"(step {at} of {n}: events {claim[0]}-{claim[1]}," in out
    assert "that was the last command" in out
    assert "in the replay: next [N] (Enter), back [N], jump SEQ|TIME" in out
    assert f"error: the game has events 1 to {len(events)}; there is no event 99999" in out
    assert re.search(r"end of the replay\n(?!replay)[^\n]+> ", out)  # the shell's own prompt


def test_replay_with_options_in_the_shell_is_the_command(tmp_path, four, capsys):
    from test_shell import drive

    db = str(tmp_path / "s.db")
    shutil.copy(four, db)
    events, (landing, roll, claim) = late_claim_steps(db)
    sh, out = drive(db, f"replay --from {claim[1]} --to {claim[1]}", "quit")
    assert "replay of game" not in out  # no stepping
    printed = capsys.readouterr().out
    assert "> claim Dario" in printed
    assert f"late claim recorded as event {claim[1]}" in printed


def test_the_referees_reads_import_neither_marshmallow_nor_sqlite_utils(four):
    """DESIGN.md's cold-start budget: a read pays for neither.  (`report` is not among them
    since it runs the game's audit for the verdict it shows: the audit's schema checks are
    compiled from marshmallow's schemas, about 130 ms on a page that takes 0.2 s to 13 s.)"""
    import os
    import subprocess
    import sys

    claim = late_claim_steps(four)[1][2][1]
    script = (
        "import sys\n"
        "from banco.cli.main import cli\n"
        f"db = {four!r}\n"
        f"for args in (['replay'], ['replay', '--json'], ['ruling', 'rent', '{claim}'],\n"
        "             ['state', '--at', '2026-11-29 21:00'], ['export'],\n"
        "             ['export', '--format', 'csv'], ['replay', '--rules', 'quick']):\n"
        "    try:\n"
        "        cli(['--db', db, *args], standalone_mode=False)\n"
        "    except SystemExit:\n"
        "        pass\n"
        "print('marshmallow' in sys.modules, 'sqlite_utils' in sys.modules, file=sys.stderr)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "TZ": "UTC"})
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip().splitlines()[-1] == "False False"
