"""What the banker types, as a new user types it: dice, numbers in every word that takes one,
and the exit codes a script sees (the installed `banco`, as a separate process)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from banco.ledger.base.numbers import number_like, whole

BANCO = Path(sys.executable).parent / "banco"


def run(db, *args, code):
    """The installed banco: exit codes and stderr as a shell sees them."""
    result = subprocess.run([str(BANCO), "--db", str(db), *args], capture_output=True,
                            text=True, env={**os.environ, "BANCO_LANG": "en"}, timeout=60)
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == code, (args, result.stdout, result.stderr)
    return result


def events(banco):
    return json.loads(banco("log", "--json").output)


# --- dice -------------------------------------------------------------------------------------

@pytest.mark.skipif(not BANCO.exists(), reason="banco is not installed in this venv")
def test_dice_no_rule_set_throws_are_usage_errors_and_a_third_die_is_the_rule_set_s(tmp_path):
    # `roll 1` was a refusal (exit 1) while `roll 0 7` was a usage error (exit 2)
    db = tmp_path / "d.db"
    run(db, "new", "Anna", "Bruno", code=0)
    before = run(db, "log", "--json", code=0).stdout
    said = {}
    for dice in (["1"], ["0", "7"], ["1", "2", "3", "4"], ["６", "２"], ["x", "2"],
                 ["1_0", "2"]):
        said[" ".join(dice)] = run(db, "roll", *dice, code=2).stderr
    assert "roll D1 D2, or roll D1 D2 S with the Speedy die; got 1 die" in said["1"]
    # which die, and its value (a trial: `roll -1 3` named neither)
    assert ("a die shows 1 to 6, not 0 7: the first die shows 0 and the second 7; roll D1 D2 "
            "with each die 1-6") in said["0 7"]
    assert ("a die shows 1 to 6, not -1 3: the first die shows -1; roll D1 D2 with each die "
            "1-6") in run(db, "roll", "--", "-1", "3", code=2).stderr
    assert "not 2 9: the second die shows 9;" in run(db, "roll", "2", "9", code=2).stderr
    assert "got 4 dice" in said["1 2 3 4"]
    # a full-width digit (an input method left on) is not read, but the number is said
    assert ("'６' is not a valid integer: did you mean 6? (type the digits 0-9; a die shows 1 "
            "to 6)") in said["６ ２"]
    assert "'1_0' is not a valid integer" in said["1_0 2"]
    # a Speedy die: the championship's, so the classic rules refuse it (exit 1) and say why,
    # whatever the third word (`roll 3 4 5` once answered about the Speedy die's faces)
    for third in ("bus", "5"):
        r = run(db, "roll", "1", "2", third, code=1)
        assert "a third die, the Speedy die, is the championship's" in r.stderr
        assert "allowed: `roll D1 D2`" in r.stderr
    assert run(db, "log", "--json", code=0).stdout == before  # nothing appended
    # a slip of the keyboard is said as one whatever the table waits for
    run(db, "roll", "03", "04", code=0)  # a leading zero is harmless: 7
    assert "a die shows 1 to 6, not 9 1" in run(db, "roll", "9", "1", code=2).stderr
    # where the rule set throws the Speedy die, a face it has not is a slip (exit 2)
    run(db, "new", "Anna", "Bruno", "--rules", "championship", code=0)
    r = run(db, "roll", "1", "2", "5", code=2)
    assert "the Speedy die shows 1, 2, 3, bus or mr, not '5'" in r.stderr


# --- numbers ------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, number", [("5", 5), ("05", 5), ("-5", -5), ("+50", 50),
                                           ("６", None), ("1_000", None), ("²", None),
                                           ("٣", None), ("", None), ("-", None), ("5x", None)])
def test_a_number_is_the_digits_0_to_9(text, number):
    assert whole(text) == number
    assert number_like(text) == (text in ("６", "1_000", "²", "٣"))


def test_every_number_the_banker_types_takes_only_0_to_9(banco):
    # int() reads `６` as 6 and `1_000` as 1000: `roll ６ ２` moved a token by a number the
    # banker never saw typed.  Every word that takes a number now refuses them alike.
    banco("new", "Anna", "Bruno")
    banco("roll", "3", "4")  # Imprevisti
    before = events(banco)
    for line in (["bid", "Anna", "1_000"], ["move", "３"], ["card", "imprevisti", "１"],
                 ["build", "vicolo", "corto", "２"], ["trade", "Anna", "Bruno", "--give", "５０"],
                 ["go", "５"], ["state", "--at", "５"], ["log", "--tail", "1_0"],
                 ["buy", "--expect", "１２"], ["--game", "１", "state"],
                 ["card", "imprevisti", "1", "--expect", "1_2"]):
        out = banco(*line, code=2).output
        assert "is not a valid integer" in out, (line, out)
    out = banco("correct", "Anna", "５０", "--reason", "r", "--referee", "R", code=2).output
    assert "'５０' is not a whole amount (+50 or -50)" in out
    out = banco("pay", "--with", "Vicolo Corto=1_000", code=2).output
    assert "say a deed and its price as PROPERTY=PRICE" in out
    assert events(banco) == before
    banco("card", "imprevisti", "01")  # a leading zero still names card 1


# --- names --------------------------------------------------------------------------------------

def test_a_classic_deck_answers_to_its_name_in_the_other_language(banco):
    # `card chance 1` on the Italian board was `no deck called 'chance'`
    banco("new", "Anna", "Bruno")
    banco("roll", "3", "4")  # Imprevisti
    assert "Imprevisti 1:" in banco("card", "chance", "1").output
    assert banco("cards", "community chest").output == banco("cards", "probabilita").output
    out = banco("cards", "chanse", code=2).output
    assert "no deck called 'chanse'; known: Imprevisti, Probabilità" in out
    banco("new", "Carla", "Dario", "--edition", "us")
    assert banco("cards", "imprevisti").output == banco("cards", "chance").output
    assert "no deck called 'momenti'" in banco("cards", "momenti", code=2).output


def test_a_very_long_word_is_not_echoed_back_whole(banco):
    # a stuck key or a paste: ten thousand characters came back in the error, flooding the screen
    banco("new", "Anna", "Bruno")
    for line in (["claim", "A" * 10_000], ["x" * 10_000], ["mortgage", "via" * 3000],
                 ["tournament", "y" * 10_000]):
        out = banco(*line, code=2).output
        assert "error" in out.lower() and len(out) < 700 and line[-1][:60] not in out, line
    out = banco("new", "Anna", "B" * 10_000, code=2).output
    assert "'" + "B" * 39 + "…' refused: it is 10000 characters long; at most 24" in out
    assert "no player called 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA…'" in banco(
        "claim", "A" * 10_000, code=2).output


@pytest.mark.skipif(not BANCO.exists(), reason="banco is not installed in this venv")
def test_an_empty_db_is_a_usage_error(tmp_path):
    # `--db "$DB"` with DB unset: it was exit 4, "cannot open  (unable to open database file)"
    for args in (["new", "Anna", "Bruno"], ["state"], ["state", "--db", ""]):
        r = run("", *args, code=2)
        assert "error: --db needs a file name: it is empty" in r.stderr, args


def test_a_long_line_with_an_open_quote_is_not_echoed_back_whole(banco, capsys):
    from banco.cli.execution import execute
    from banco.cli.session import Session

    banco("new", "Anna", "Bruno")
    capsys.readouterr()
    session = Session(banco.db, None)
    assert execute(session, "claim 'Anna " + "x" * 10_000).code == 2
    session.close()
    said = capsys.readouterr().err
    assert said.startswith("error: a quote is not closed: claim 'Anna xxx") and len(said) < 300


def test_moments_and_the_replay_steps_take_the_digits_0_to_9_only():
    """A seq or a time written with other digits (`１２`, `٣`) is no moment: the same rule as
    every number the banker types."""
    from banco.ledger.base.errors import UsageError
    from banco.projections.referee.moments import parse_moment

    assert parse_moment("12").seq == 12
    for text in ("１２", "٣", "２０２６-１１-３０"):
        with pytest.raises(UsageError, match="is neither an event number nor a time"):
            parse_moment(text)


def test_hammer_with_words_and_no_auction_is_the_rules_refusal(tmp_path):
    """`hammer anna` with no auction open: the table has no auction to close (it listed the
    board's 28 properties, as if `anna` were a misspelt one)."""
    from click.testing import CliRunner

    from banco.cli.main import cli

    db = str(tmp_path / "h.db")
    runner = CliRunner()
    assert runner.invoke(cli, ["--db", db, "new", "Anna", "Bruno"]).exit_code == 0
    bare = runner.invoke(cli, ["--db", db, "hammer"])
    named = runner.invoke(cli, ["--db", db, "hammer", "anna"])
    assert named.exit_code == bare.exit_code == 1
    assert named.output == bare.output and "known:" not in named.output
