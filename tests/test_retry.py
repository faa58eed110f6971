"""Safe to retry, through the CLI: --id and --expect on every write, `run` resuming a
transcript, the last recorded command shown, the shell's own ids, `backup`."""

import json
import shutil
import sqlite3

import pytest
from click.testing import CliRunner
from freezegun import freeze_time

from banco.cli.main import cli

UID = "1b4e28ba-2fa1-11d2-883f-0016d3cca427"
GAME = [f"new Anna Bruno Carla --uuid {UID}", "roll 1 2", "buy", "roll 2 1", "claim Anna",
        "roll 3 3", "decline", "bid Anna 30", "bid Carla 40", "hammer", "roll 1 1", "buy",
        "roll 2 3", "buy", "roll 4 5", "buy", "undo", "decline", "hammer", "roll 5 6"]


@pytest.fixture
def db(tmp_path):
    return str(tmp_path / "r.db")


def banco(db, *args, code=0):
    result = CliRunner().invoke(cli, ["--db", db, *args], catch_exceptions=False)
    assert result.exit_code == code, (args, result.output)
    assert "Traceback" not in result.output
    return result.output


def log(db, game=None):
    extra = ["--game", str(game)] if game else []
    return json.loads(banco(db, *extra, "log", "--json"))


def facts(db, game=None):
    return [(e["seq"], e["type"], e["data"]) for e in log(db, game)]


def transcript(tmp_path, lines, name="game.banco"):
    path = tmp_path / name
    path.write_text("# a test game\n" + "\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


# --- --id and --expect ------------------------------------------------------------------------

def test_a_write_repeated_with_its_id_is_recorded_once(db):
    banco(db, "new", "Anna", "Bruno")
    first = banco(db, "roll", "1", "2", "--id", "t1")
    before = log(db)
    again = banco(db, "roll", "1", "2", "--id", "t1")
    assert log(db) == before
    assert again.startswith("already recorded (events 5-") and first in again
    # after a later command too: the key still names what it recorded
    banco(db, "buy", "--id", "t2")
    assert "already recorded" in banco(db, "roll", "1", "2", "--id", "t1")
    assert len(log(db)) == len(before) + 3  # CommandRecorded, PropertyBought, TurnEnded


def test_an_id_given_again_to_another_command_is_refused(db):
    # it reported the first command's facts and exited 0: the correction was never made
    banco(db, "new", "Anna", "Bruno")
    banco(db, "roll", "1", "2", "--id", "kitchen-7")
    before = log(db)
    out = banco(db, "correct", "Anna", "500", "--reason", "x", "--referee", "Rita",
                "--id", "kitchen-7", code=2)
    assert "the id kitchen-7 already recorded `roll 1 2` (events 5-8), not this command" in out
    assert "give a new --id to a new command; nothing was recorded" in out
    assert "already recorded (" not in out
    out = banco(db, "roll", "1", "1", "--player", "Bruno", "--id", "kitchen-7", code=2)
    assert "the id kitchen-7 already recorded" in out
    assert "the id kitchen-7" in banco(db, "undo", "--id", "kitchen-7", code=2)
    assert log(db) == before
    # the same command again is still a retry
    assert "already recorded" in banco(db, "roll", "1", "2", "--id", "kitchen-7")


def test_new_repeated_with_its_id_starts_one_game(db):
    banco(db, "new", "Anna", "Bruno", "--id", "n1")
    again = banco(db, "new", "Anna", "Bruno", "--id", "n1")
    assert "already recorded (game 1 was started by this command)" in again
    assert len(json.loads(banco(db, "games", "--json"))) == 1


def test_expect_refuses_a_write_on_a_table_that_moved(db):
    banco(db, "new", "Anna", "Bruno")
    banco(db, "roll", "1", "2")
    before = log(db)
    out = banco(db, "buy", "--expect", "4", code=5)
    assert "game 1 has moved past event 4: it is at event 8; the last command was `roll 1 2`" in out
    assert "nothing was recorded" in out and log(db) == before
    banco(db, "buy", "--expect", "8")
    assert log(db)[-1]["type"] == "TurnEnded"


def test_reads_take_no_id():
    result = CliRunner().invoke(cli, ["state", "--id", "x"])
    assert result.exit_code == 2 and "No such option '--id'" in result.output


def test_the_line_recorded_is_the_command_as_typed(db):
    banco(db, "new", "Anna", "Bruno", "--first", "Bruno")
    banco(db, "--game", "1", "roll", "1", "2", "--player", "bru", "--id", "k", "--expect", "4")
    lines = [e["data"]["line"] for e in log(db) if e["type"] == "CommandRecorded"]
    assert lines == ["new Anna Bruno --first Bruno", "roll 1 2 --player bru"]
    from banco.cli.session import typed_line

    assert typed_line(["--db", "roll", "roll", "4", "6", "--expect=9"], "roll") == "roll 4 6"
    assert typed_line(["new", "Anna", "O'Neil"], "new") == "new Anna 'O'\"'\"'Neil'"
    recorded = [e["data"]["command"] for e in log(db) if e["type"] == "CommandRecorded"]
    assert recorded[1] == {"kind": "Roll", "fields": {"dice": [1, 2], "player": "Bruno",
                                                         "speedy": None}}


def test_the_line_recorded_leaves_out_the_language_and_where_to_record(db):
    # `tira 1 2 --lang it` was recorded with `--lang it` in it; a shell's or a transcript's
    # line kept its --game, --id and --expect too: the line is the command as the banker meant it
    from banco.cli.execution import execute
    from banco.cli.session import Session

    banco(db, "new", "Anna", "Bruno")
    banco(db, "tira", "1", "2", "--lang", "it")
    session = Session(db, None)
    for line in ("rifiuta --lang=it --game 1", "bid  bruno 10 --id k1 --expect 11",
                 "--game 1 --lang it offerta Anna 20", "hammer   # Anna wins"):
        assert execute(session, line, commands=cli).code == 0, line
    session.close()
    lines = [e["data"]["line"] for e in log(db) if e["type"] == "CommandRecorded"]
    assert lines[1:] == ["tira 1 2", "rifiuta", "bid bruno 10", "offerta Anna 20",
                         "hammer   # Anna wins"]  # a line without them: exactly as typed


def test_the_line_recorded_leaves_out_a_double_dash_that_changes_nothing(db):
    """`roll -- 1 2` was recorded with its `--`: the command as meant is `roll 1 2`.  After
    `--` every word is the command's (an `--id` there is not the option), and the `--` stays
    where a word after it looks like an option."""
    from banco.cli.execution import execute
    from banco.cli.session import Session, typed_line

    banco(db, "new", "--", "Anna", "Bruno")
    banco(db, "roll", "--", "1", "2")
    session = Session(db, None)
    assert execute(session, "decline -- ").code == 0
    session.close()
    lines = [e["data"]["line"] for e in log(db) if e["type"] == "CommandRecorded"]
    assert lines == ["new Anna Bruno", "roll 1 2", "decline"]
    assert typed_line(["correct", "--", "Anna", "-50"], "correct") == "correct -- Anna -50"
    assert typed_line(["roll", "--", "1", "2", "--id", "k"], "roll") == "roll -- 1 2 --id k"


def test_state_shows_the_last_recorded_command(db):
    with freeze_time("2026-11-29 21:00:00"):
        banco(db, "new", "Anna", "Bruno")
        banco(db, "roll", "4", "6")
    with freeze_time("2026-11-29 21:00:12"):
        out = banco(db, "state")
    assert out.rstrip().endswith("last: roll 4 6 (events 5-8, 12 s ago)")
    with freeze_time("2026-11-29 21:05:12"):
        assert "last: roll 4 6 (events 5-8, 5 min ago)" in banco(db, "state")


# --- run --------------------------------------------------------------------------------------

@freeze_time("2026-11-29 21:00:00")
def test_a_transcript_cut_short_resumes_to_the_same_log_and_head(tmp_path, db):
    whole = str(tmp_path / "whole.db")
    elsewhere = tmp_path / "elsewhere"  # the same file name in another folder: the same ids
    elsewhere.mkdir()
    banco(whole, "run", "-q", transcript(elsewhere, GAME))
    # the same file, as far as a crash let it get, then the whole of it again
    banco(db, "run", "-q", transcript(tmp_path, GAME[:7]))
    out = banco(db, "run", transcript(tmp_path, GAME))
    assert "resuming game 1: lines 1-8 already recorded" in out
    assert "> roll 3 3" not in out and "> bid Anna 30" in out
    assert facts(db) == facts(whole)
    assert banco(db, "audit").splitlines()[-1] == banco(whole, "audit").splitlines()[-1]
    assert "all 20 lines already recorded in game 1" in banco(db, "run", transcript(tmp_path,
                                                                                       GAME))


@freeze_time("2026-11-29 21:00:00")
def test_a_transcript_fixed_at_the_line_it_stopped_at_goes_on_in_the_same_game(tmp_path, db):
    typo = [*GAME[:5], "roll 3 three", *GAME[6:]]
    out = banco(db, "run", "-q", transcript(tmp_path, typo), code=2)
    assert "game.banco:7: `roll 3 three` is not a command banco can run" in out
    recorded = facts(db)
    out = banco(db, "run", "-q", "--resume", transcript(tmp_path, GAME))
    assert "resuming game 1: lines 1-6 already recorded" in out
    assert facts(db)[:len(recorded)] == recorded
    assert len(json.loads(banco(db, "games", "--json"))) == 1
    lines = [e["data"]["line"] for e in log(db) if e["type"] == "CommandRecorded"]
    assert lines == GAME[:1] + GAME[1:]  # each line once, none twice


def test_resume_needs_something_recorded(tmp_path, db):
    banco(db, "new", "Zoe", "Yan")
    out = banco(db, "run", "--resume", transcript(tmp_path, GAME), code=2)
    assert "--resume: no line of" in out and "renamed" in out


def test_fresh_records_the_transcript_again_as_a_new_game(tmp_path, db):
    plain = [line.split(" --uuid")[0] for line in GAME]
    banco(db, "run", "-q", transcript(tmp_path, plain))
    banco(db, "run", "-q", "--fresh", transcript(tmp_path, plain))
    games = json.loads(banco(db, "games", "--json"))
    assert [g["game"] for g in games] == [1, 2] and games[0]["events"] == games[1]["events"]


def test_a_game_that_went_on_without_the_transcript_is_not_resumed(tmp_path, db):
    banco(db, "run", "-q", transcript(tmp_path, GAME[:3]))
    banco(db, "roll", "2", "1")  # typed by hand meanwhile
    before = log(db)
    out = banco(db, "run", transcript(tmp_path, GAME), code=5)
    assert "game 1 went on without this transcript" in out and "--fresh" in out
    assert log(db) == before


def test_a_dry_run_writes_nothing(tmp_path, db):
    out = banco(db, "run", "--dry-run", "-q", transcript(tmp_path, GAME))
    assert "dry run: checked on a copy; nothing was written" in out
    assert not (tmp_path / "r.db").exists()
    banco(db, "run", "-q", transcript(tmp_path, GAME[:4]))
    before = log(db)
    bad = transcript(tmp_path, [*GAME, "hammer"])
    out = banco(db, "run", "--dry-run", bad, code=1)
    assert "resuming game 1" in out and "`hammer` was refused" in out and "dry run" in out
    assert log(db) == before


def test_ctrl_c_during_a_run_says_what_was_recorded(tmp_path, db, monkeypatch):
    import banco.cli.banker.transcript as transcript_module

    real = transcript_module._execute
    calls = []

    def interrupted(session, line, seen, **options):
        calls.append(line.number)
        if len(calls) == 4:
            raise KeyboardInterrupt
        return real(session, line, seen, **options)

    monkeypatch.setattr(transcript_module, "_execute", interrupted)
    out = banco(db, "run", "-q", transcript(tmp_path, GAME), code=130)
    last = log(db)[-1]["seq"]
    assert f"game.banco: interrupted after line 4 (event {last} recorded); re-run to continue" in out
    assert "refused" not in out
    monkeypatch.setattr(transcript_module, "_execute", real)
    assert "resuming game 1: lines 1-4 already recorded" in banco(db, "run", transcript(
        tmp_path, GAME))


def test_ctrl_c_inside_a_command_is_not_a_refusal(db, monkeypatch):
    from banco.cli.execution import execute
    from banco.cli.session import Session
    from banco.ledger.book import Book

    banco(db, "new", "Anna", "Bruno")

    def interrupt(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(Book, "execute", interrupt)
    session = Session(db, None)
    with pytest.raises(KeyboardInterrupt):
        execute(session, "roll 1 2")
    session.close()


# --- the shell --------------------------------------------------------------------------------

def test_the_shell_records_its_lines_with_its_own_ids_and_the_seq_it_showed(db, capsys):
    from banco.cli.banker.shell import BancoShell
    from banco.cli.main import cli as banco_cli
    from banco.cli.session import Session
    from banco.ledger.book import Book
    from banco.ledger.records import commands as c

    banco(db, "new", "Anna", "Bruno")
    session = Session(db, None)
    shell = BancoShell(session, banco_cli)
    shell.preloop()
    assert "last: new Anna Bruno (events 1-4" in capsys.readouterr().out
    shell.onecmd("roll 1 2")
    shell.postcmd(False, "roll 1 2")
    other = Book(db)  # another terminal writes meanwhile
    other.execute(1, c.Decline(), now="2026-11-29T21:00:00.000000Z", line="decline")
    other.close()
    before = log(db)
    shell.onecmd("buy")
    out = capsys.readouterr()
    assert "game 1 has moved past event 8" in out.err and "last: decline" in out.out
    assert log(db) == before
    recorded = [e for e in before if e["type"] == "CommandRecorded"]
    assert recorded[1]["data"]["line"] == "roll 1 2"
    session.close()
    conn = sqlite3.connect(db)
    ids = [r[0] for r in conn.execute("SELECT command_id FROM events WHERE type='CommandRecorded' "
                                      "ORDER BY seq")]
    conn.close()
    assert ids[1].startswith("shell-") and ids[1].endswith("-1")


# --- backup -----------------------------------------------------------------------------------

def test_backup_copies_a_live_database_with_what_is_still_in_its_wal(tmp_path, db):
    banco(db, "new", "Anna", "Bruno")
    reader = sqlite3.connect(db)  # an open connection: the WAL is not folded back on close
    reader.execute("SELECT COUNT(*) FROM events").fetchone()
    banco(db, "roll", "1", "2")
    banco(db, "buy")
    assert (tmp_path / "r.db-wal").stat().st_size > 0
    naive = tmp_path / "cp.db"
    shutil.copy(db, naive)  # what `cp` gives: the main file without the WAL
    assert len(json.loads(banco(str(naive), "log", "--json"))) < len(log(db))
    out = banco(db, "backup", str(tmp_path / "copy.db"))
    assert "backed up" in out and "1 game," in out and "quick_check ok" in out
    assert log(str(tmp_path / "copy.db")) == log(db)
    assert banco(str(tmp_path / "copy.db"), "audit") == banco(db, "audit")
    reader.close()


def test_backup_to_a_stick_without_hard_links(tmp_path, db, monkeypatch):
    # FAT (a USB stick) and some network shares refuse os.link: the copy still lands, whole
    import os

    def no_links(src, dst):
        raise PermissionError(1, "Operation not permitted")

    banco(db, "new", "Anna", "Bruno")
    monkeypatch.setattr(os, "link", no_links)
    target = tmp_path / "stick.db"
    assert "backed up" in banco(db, "backup", str(target))
    assert log(str(target)) == log(db)
    target.write_text("precious")  # and it still never replaces a file unless forced
    assert "exists" in banco(db, "backup", str(target), code=2)
    assert target.read_text() == "precious"
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".banco-backup")]


def test_backup_never_overwrites_unless_forced(tmp_path, db):
    banco(db, "new", "Anna", "Bruno")
    target = tmp_path / "copy.db"
    target.write_text("precious")
    out = banco(db, "backup", str(target), code=2)
    assert "exists: give another name, or --force" in out and target.read_text() == "precious"
    banco(db, "backup", str(target), "--force")
    assert len(log(str(target))) == 4
    assert "another file than the database" in banco(db, "backup", db, "--force", code=2)
    assert "no database at" in banco(str(tmp_path / "none.db"), "backup", str(tmp_path / "x.db"),
                                     code=4)
    assert not (tmp_path / "x.db").exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".banco-backup")]
