"""cli/execution.py: one way to execute a line, and what it says it did (LineOutcome)."""

import io

import pytest

from banco.cli.execution import LineOutcome, execute
from banco.cli.main import cli
from banco.cli.session import Session
from banco.ledger.base.errors import ConflictError, RuleViolation, UsageError


@pytest.fixture
def session(tmp_path, monkeypatch):
    monkeypatch.setenv("BANCO_FIXED_TIME", "2026-11-29T21:00:00Z")
    s = Session(str(tmp_path / "e.db"), None)
    assert execute(s, "new Anna Bruno", echo=False).code == 0
    yield s
    s.close()


def test_a_roll_accepted_says_what_it_appended(session):
    out = execute(session, "roll 1 2", command_id="k1", echo=False)
    assert isinstance(out, LineOutcome)
    assert out.code == 0 and out.refusal is None and not out.replayed
    assert out.errors == ""
    assert out.events[0]["type"] == "CommandRecorded"
    assert out.events[0]["data"]["line"] == "roll 1 2"
    assert "DiceRolled" in [e["type"] for e in out.events]
    seqs = [e["seq"] for e in out.events]
    assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))
    assert seqs[-1] == session.state().seq
    assert out.said  # the narration, captured


def test_echo_prints_what_it_captures(session, capsys):
    out = execute(session, "roll 1 2")
    printed = capsys.readouterr()
    assert out.said == printed.out and out.errors == printed.err and out.said


def test_a_refusal_carries_its_rule_and_appends_nothing(session):
    before = session.state().seq
    out = execute(session, "buy", echo=False)  # nobody has rolled: nothing to buy
    assert out.code == 1 and out.events == () and not out.replayed
    assert isinstance(out.refusal, RuleViolation)
    assert out.refusal.rule
    assert out.errors.startswith("refused:")
    assert session.state().seq == before


def test_a_usage_error_is_exit_2(session):
    out = execute(session, "roll 7 1", echo=False)
    assert out.code == 2 and out.events == () and isinstance(out.refusal, UsageError)
    out = execute(session, "rol 1 2", echo=False, commands=cli)  # the library's, said once
    assert out.code == 2 and isinstance(out.refusal, UsageError)
    assert out.errors == "error: no command called 'rol': did you mean roll?\n"
    assert out.refusal.meant == "roll 1 2"  # the line the shell offers
    out = execute(session, "claim 'Anna", echo=False)
    assert out.code == 2 and "a quote is not closed" in out.errors
    for word in ("shell", "run x", "serve", "SHELL", "Esegui x"):  # caps lock: the same word
        assert execute(session, word, echo=False).code == 2, word


def test_a_replayed_id_appends_nothing(session):
    first = execute(session, "roll 1 2", command_id="same", echo=False)
    again = execute(session, "roll 1 2", command_id="same", echo=False)
    assert again.code == 0 and again.replayed and again.events == ()
    assert "already recorded" in again.said
    assert session.state().seq == first.events[-1]["seq"]


def test_a_conflict_on_expect_is_exit_5(session):
    seq = session.state().seq
    out = execute(session, "roll 1 2", expected=(None, seq - 1), echo=False)
    assert out.code == 5 and out.events == () and isinstance(out.refusal, ConflictError)
    assert session.state().seq == seq


def test_a_blank_line_or_a_comment_does_nothing(session):
    assert execute(session, "  # a note", echo=False) == LineOutcome(0, "", "", (), False, None)


def test_a_reading_prints_as_it_runs_and_run_quiet_only_checks_its_shape(session, capsys):
    """Nothing is captured: a reading in the shell prints straight to the terminal (its
    LineOutcome says nothing), and under `run --quiet` a reading is not run (it changes
    nothing) but a mistaken one still stops the transcript with click's words."""
    capsys.readouterr()
    out = execute(session, "state", commands=cli)
    assert out.code == 0 and out.said == "" and "Anna" in capsys.readouterr().out
    out = execute(session, "state", echo=False, commands=cli)
    assert out.code == 0 and capsys.readouterr() == ("", "")
    out = execute(session, "state --jsn", echo=False, commands=cli)
    assert out.code == 2 and "--jsn" in out.errors and capsys.readouterr() == ("", "")


def test_a_ruling_is_read_by_the_library_and_stops_run_quiet_where_run_stops(session, capsys):
    """A ruling only read is the library's (Library.read rules it from the log): said from
    its outcome, and its refusal the same quiet or not, so `run --quiet` stops at the line
    a plain `run` stops at (it went on, the ruling never asked)."""
    capsys.readouterr()
    loud = execute(session, "ruling rent 1", commands=None)
    quiet = execute(session, "ruling rent 1", echo=False, commands=None)
    assert loud.code == quiet.code == 2 and isinstance(quiet.refusal, UsageError)
    assert "is not a landing" in capsys.readouterr().err and "is not a landing" in quiet.errors


def test_a_correction_and_a_recorded_ruling_go_through_the_library(session, monkeypatch):
    import banco.cli.execution as execution

    def no_click(*args, **kwargs):
        raise AssertionError("a recorded line reached click")

    monkeypatch.setattr(execution, "_click_context", no_click)
    monkeypatch.setattr(execution, "_run", no_click)
    out = execute(session, "correct Anna +10 --reason x --referee Rita", echo=False)
    assert out.code == 0 and "CashCorrected" in [e["type"] for e in out.events]
    assert "referee Rita" in out.said
    out = execute(session, "new Carla Dario", echo=False)
    assert out.code == 0 and session.game() == 2
    assert "game 1 (Anna, Bruno) is left unfinished" in out.errors


def test_a_file_word_under_run_quiet_runs_with_the_transcript_s_write_context(session,
                                                                            monkeypatch):
    """`import`, `tournament add` ... write: under `run --quiet` they run (not only their
    shape checked), with the id the transcript derived for the line, so a re-run resumes."""
    import banco.cli.execution as execution

    seen = []
    # _run's answer: the exit code, and whether a group was given no word
    monkeypatch.setattr(execution, "_run", lambda *args: seen.append(args) or (0, False))
    assert execute(session, "backup copy.db", command_id="t:4", expected=(None, 3),
                   echo=False, commands=cli).code == 0
    assert [(a[2], a[4], a[5]) for a in seen] == [("backup copy.db", "t:4", (None, 3))]


@pytest.mark.parametrize("quiet", [(), ("--quiet",)])
@pytest.mark.parametrize("lang, word, stop", [
    ("en", "ruling", "t.txt:2: `ruling` needs one of the words its help above lists; "
                     "stopped after 1 line"),
    ("it", "decisione", "t.txt:2: `decisione` vuole una delle parole che il suo aiuto qui "
                        "sopra elenca; fermato dopo 1 riga")])
def test_a_transcript_s_group_without_its_word_says_its_help_once(banco, tmp_path, quiet,
                                                                  lang, word, stop):
    """A line `ruling` alone ended a `run` with "`ruling` is not a command banco can run":
    it is one, which needs a word; its help is said once, as the shell says it."""
    transcript = tmp_path / "t.txt"
    transcript.write_text(f"new Anna Bruno\n{word}\n")
    out = banco("--lang", lang, "run", *quiet, str(transcript), code=2).output
    assert out.rstrip("\n").endswith(stop), out
    usage = [n for n in out.splitlines() if n.startswith(("Usage: ", "Uso: "))]
    assert usage == [n for n in usage if f" {word} " in n] and len(usage) == 1, out
    assert "banco can run" not in out and "jail" in out  # its words, listed


def test_the_library_reads_each_line_once_and_its_reading_decides(session, monkeypatch):
    """One reading of a line, the library's (Library.read), `new` too: whether the library
    records it or the command line runs it is that reading's, not a second one beside it."""
    from banco.cli.library import Library, Refusal
    from banco.cli.lines.referee import NotRecordedHere

    real, seen = Library.read, []

    def reading(self, line, **options):
        seen.append(line)
        read = real(self, line, **options)
        if line == "buy":  # read as the command line's: it runs it, never the library
            return read._replace(command=None, refusal=read.refusal or Refusal(
                NotRecordedHere(UsageError("the command line's"), known=True)))
        return read

    monkeypatch.setattr(Library, "read", reading)
    lines = ["new Carla Dario", "roll 1 2", "correct Anna +10 --reason x --referee Rita",
             "state", "rol 1 2"]
    for line in lines:
        execute(session, line, echo=False, commands=cli)
    assert seen == lines
    out = execute(session, "buy", echo=False, commands=cli)  # quiet: a reading's shape alone
    assert out.code == 0 and out.events == () and session.state().turn.phase == "buy"


def test_a_line_the_library_records_nothing_for_runs_through_the_group_handed_down(session,
                                                                                    capsys):
    """No registry of the click group: the one the shell or `run` was started from is handed
    to execute, and a reading runs through that one."""
    import click

    from banco.cli.banker.shell import BancoShell

    @click.group()
    def other():
        pass

    @other.command("state")
    def state():
        """The other group's state."""
        click.echo("the other group's state")

    capsys.readouterr()
    assert execute(session, "state", commands=other).code == 0
    assert capsys.readouterr().out == "the other group's state\n"
    shell = BancoShell(session, other, stdin=io.StringIO(), stdout=io.StringIO())
    shell.onecmd("state")
    shell.onecmd("help state")
    assert capsys.readouterr().out == "the other group's state\n"
    assert "The other group's state." in shell.stdout.getvalue()
