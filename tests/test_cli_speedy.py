"""The Speedy die's words through click's CliRunner: `roll D1 D2 S`, `move N`, `go SPACE`,
`advance`, their narration, exit codes, and the JSON the state shows while they wait."""

import json

import pytest

from banco.cli.lines.turn import parse_dice
from banco.ledger.base.errors import UsageError

# Anna passes Via! on her fourth roll (two players): her fifth throws the Speedy die.
LAP = ["roll 5 6", "buy", "roll 2 3", "buy", "roll 4 6", "buy", "roll 3 4", "buy", "roll 4 6",
       "buy", "roll 3 5", "roll 4 6", "buy", "roll 2 3", "buy"]


@pytest.fixture
def lap(banco):
    banco("new", "Anna", "Bruno", "--rules", "championship")
    for line in LAP:
        banco(*line.split())
    return banco


def state(banco):
    return json.loads(banco("state", "--json").output)


def log_length(banco):
    return len(json.loads(banco("log", "--json").output))


def test_parse_dice_takes_the_speedy_words_and_their_short_forms():
    assert parse_dice(["4", "3"]) == ((4, 3), None)
    assert parse_dice(["4", "3", "BUS"]) == ((4, 3), "bus")
    assert parse_dice(["4", "3", "b"]) == ((4, 3), "bus")
    assert parse_dice(["4", "3", "m"]) == ((4, 3), "mr")
    assert parse_dice(["4", "3", "2"]) == ((4, 3), "2")
    # any other face goes on to decide, which first asks whether the rule set has the die
    assert parse_dice(["4", "3", "6"]) == ((4, 3), "6")
    with pytest.raises(UsageError, match="got 4 dice"):
        parse_dice(["4", "3", "2", "1"])


def test_the_state_says_what_the_speedy_die_leaves_to_do(lap):
    s = state(lap)
    assert s["turn"] == {"player": "Anna", "phase": "roll", "doubles": 0, "speedy": None,
                         "choices": []}
    assert [p["passed_go"] for p in s["players"]] == [True, False]
    assert "next: Anna to `roll D1 D2 S`" in lap("state").output
    out = lap("roll", "5", "6", "b").output
    assert "Anna rolls 5+6 = 11, Speedy die: the Bus" in out
    assert "`move 5`, `move 6` or `move 11`" in out
    s = state(lap)
    assert s["turn"] == {"player": "Anna", "phase": "move", "doubles": 0, "speedy": "bus",
                         "choices": [5, 6, 11]}
    before = log_length(lap)
    r = lap("move", "7", code=1)
    assert "not 7 (000 FAQ 38)" in r.output and log_length(lap) == before
    assert "Anna moves to Società Elettrica (12)" in lap("move", "11").output


def test_mr_monopoly_then_advance(lap):
    out = lap("roll", "3", "4", "mr").output  # 1 + 7 = 8 Viale Monterosa
    assert "Anna rolls 3+4 = 7, Speedy die: Mr Monopoly" in out
    lap("buy")
    assert state(lap)["turn"]["phase"] == "advance"
    assert "`advance` (to Viale Vesuvio, the next free property" in lap("state").output
    out = lap("advance").output
    assert "Mr Monopoly: to Viale Vesuvio, the next free property (000 §SVOLGIMENTO 3)" in out
    assert "Anna moves to Viale Vesuvio (9)" in out
    # the audit: the chain, every Speedy fact through its schema, the books after each event
    assert "books balance" in lap("audit").output


def test_a_triple_goes_to_a_space_by_name_or_number(lap):
    out = lap("roll", "2", "2", "2").output
    assert "Speedy die 2: a triple" in out and "`go SPACE`" in out
    assert state(lap)["turn"]["phase"] == "go"
    before = log_length(lap)
    r = lap("go", "imprevisti", code=2)  # on three spaces: which?
    assert "say which by number, 7, 22 or 36" in r.output
    r = lap("go", "40", code=2)
    assert "0 to 39" in r.output
    r = lap("go", "vicolo strett", code=0)
    assert "Anna moves to Vicolo Stretto (3)" in r.output
    assert log_length(lap) > before


def test_before_the_first_pass_the_roll_says_the_speedy_die_does_not_count(banco):
    banco("new", "Anna", "Bruno", "--rules", "championship")
    out = banco("roll", "1", "2", "mr").output
    assert ("Anna rolls 1+2 = 3; the Speedy die (Mr Monopoly) does not count: Anna has not "
            "passed Via! yet (000 §SVOLGIMENTO 2; 000 FAQ 35)") in out


def test_classic_refuses_a_third_die_and_keeps_its_documents(banco):
    banco("new", "Anna", "Bruno")
    r = banco("roll", "1", "2", "3", code=1)
    assert "the Speedy die, is the championship's (000 §SVOLGIMENTO 3; 004 §Svolgimento del gioco)" in r.output
    r = banco("move", "3", code=1)
    assert "no Bus move is waiting" in r.output
    r = banco("advance", code=1)
    assert "no Mr Monopoly move is waiting" in r.output
    r = banco("go", "via", code=1)
    assert "no triple is waiting" in r.output
    s = state(banco)
    assert s["turn"] == {"player": "Anna", "phase": "roll", "doubles": 0}  # no Speedy keys
    assert "passed_go" not in s["players"][0]
    assert log_length(banco) == 4  # new's command, GameStarted, two CashIssued


def test_roll_usage_errors(banco):
    banco("new", "Anna", "Bruno", "--rules", "championship")
    assert "1, 2, 3, bus or mr" in banco("roll", "1", "2", "5", code=2).output
    assert "got 4 dice" in banco("roll", "1", "2", "3", "4", code=2).output
    assert "not a valid integer" in banco("roll", "x", "2", code=2).output


# --- the shell ------------------------------------------------------------------------------

def test_the_shell_prompt_says_what_the_speedy_die_waits_for(lap):
    import io

    from banco.cli.banker.shell import BancoShell
    from banco.cli.main import cli as banco_cli
    from banco.cli.session import Session

    class Typed(io.StringIO):
        def __init__(self, *lines):
            super().__init__()
            self.lines = list(lines)

        def readline(self, *args):
            return self.lines.pop(0) + "\n" if self.lines else ""

    out = io.StringIO()
    sh = BancoShell(Session(lap.db, None), banco_cli, stdin=Typed("roll 5 6 bus", "move 5", "buy",
                                                       "roll 2 3", "roll 1 1 1"),
                    stdout=out)
    assert sh.completedefault("imp", "go imp", 3, 6) == ["Imprevisti "]
    assert sh.completedefault("gran", "go bastioni gran", 12, 16) == ["Gran Sasso "]
    sh.cmdloop()
    sh.session.close()
    shown = out.getvalue()
    assert "Anna (roll D1 D2 S)> " in shown
    assert "Anna (bus: move 5 or 6 or 11)> " in shown
    assert "Anna (triple: go SPACE)> " in shown


def test_the_shell_prompt_for_mr_monopoly():
    from helpers import new_table

    from banco.cli.banker.shell import prompt_for

    t = new_table(rules="championship")
    assert prompt_for(t._replace(turn=t.turn._replace(phase="advance"))) == (
        "Anna (Mr Monopoly: advance)> ")
    assert prompt_for(t) == "Anna (roll)> "  # she has not passed Via! yet


def test_reading_a_speedy_table_imports_no_write_machinery(lap):
    """Cold start is budgeted: `state` on a table waiting for the Bus imports neither
    marshmallow nor sqlite_utils, nor the rules that decide a command."""
    import subprocess
    import sys

    lap("roll", "5", "6", "bus")
    code = ("import sys; from banco.cli.main import cli\n"
            "try: cli(['--db', sys.argv[1], 'state'])\n"
            "except SystemExit: pass\n"
            "heavy = {'marshmallow', 'sqlite_utils', 'banco.ledger.rules.decide', 'banco.ledger.rules.decision',"
            " 'banco.ledger.records.events', 'banco.ledger.records.commands'} & set(sys.modules)\n"
            "print('HEAVY', sorted(heavy))")
    out = subprocess.run([sys.executable, "-c", code, lap.db], capture_output=True, text=True,
                         check=True).stdout
    assert "`move 5`, `move 6` or `move 11`" in out
    assert "HEAVY []" in out
