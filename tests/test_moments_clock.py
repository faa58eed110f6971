"""A time of day alone (`--from 11:40`, `state --at 11:40`, `--claim-at 11:40`), on the game's
day, as `replay --help` offers it: a trial found the help offering it and every reading refusing
it ("'11:40' is neither an event number nor a time").  A game over midnight takes the day on
which the time falls while it was played, or is refused naming the days."""


import pytest
from click.testing import CliRunner
from freezegun import freeze_time

from banco.cli.main import cli
from banco.ledger.base.errors import UsageError
from banco.projections.referee.moments import first_seq_from, parse_moment, seq_at


def timed(*times):
    return [{"seq": i, "recorded_at": t} for i, t in enumerate(times, start=1)]


def test_a_time_of_day_is_on_the_games_day(rome):
    events = timed("2026-11-29T21:00:00.000000Z", "2026-11-29T21:05:00.400000Z",
                   "2026-11-29T21:10:00.000000Z")  # 22:00 to 22:10 in Rome
    assert seq_at(events, parse_moment("22:05")) == 2
    assert seq_at(events, parse_moment("22:05:00")) == 2
    assert first_seq_from(events, parse_moment("22:05")) == 2
    with pytest.raises(UsageError, match="nothing was recorded by 21:59"):
        seq_at(events, parse_moment("21:59"))
    with pytest.raises(UsageError, match="'25:00' is not a time of day"):
        parse_moment("25:00")


def test_a_game_over_midnight_takes_the_day_the_time_falls_on_or_asks(rome):
    events = timed("2026-11-29T22:30:00Z", "2026-11-29T23:30:00Z",  # 23:30, 00:30 in Rome
                   "2026-11-30T00:10:00Z")  # 01:10
    assert seq_at(events, parse_moment("23:45")) == 1  # the first evening
    assert seq_at(events, parse_moment("00:40")) == 2  # after midnight
    with pytest.raises(UsageError, match=r"over more than one day: say which day's 12:00 "
                                         r"\(for example `2026-11-29 12:00`, "
                                         r"`2026-11-30 12:00`\)"):
        seq_at(events, parse_moment("12:00"))


def test_the_readings_take_a_time_of_day_as_the_help_says(tmp_path, rome):
    db = str(tmp_path / "g.db")
    runner = CliRunner()
    for minute, line in enumerate(("new Anna Bruno", "roll 1 2", "buy", "roll 3 4")):
        with freeze_time(f"2026-11-30 20:{40 + minute}:00"):  # 21:40 on in Rome
            assert runner.invoke(cli, ["--db", db, *line.split()]).exit_code == 0
    for words, said in ((["replay", "--from", "21:41", "--to", "21:41"], "> roll 1 2"),
                        (["state", "--at", "21:41"], "game 1 at event")):
        r = runner.invoke(cli, ["--db", db, *words])
        assert r.exit_code == 0 and said in r.output, r.output
    # the same table as by the full time (the time echoed as typed)
    by_clock, by_day = (runner.invoke(cli, ["--db", db, "state", "--at", t]).output
                        for t in ("21:41", "2026-11-30 21:41"))
    assert by_clock == by_day.replace("2026-11-30 21:41", "21:41")
    help_text = runner.invoke(cli, ["replay", "--help"]).output
    assert "`21:14`" in help_text
