"""`banco shell` driven as a banker would: the prompt, help, Ctrl-C, history, and another
terminal writing to the same game."""

import io
import json
import os
import shutil
import subprocess
import sys
import time
import uuid

import pytest
from helpers import Bid, debt, new_table, place

from banco.cli.banker.shell import BancoShell, prompt_for
from banco.cli.banker.shell_history import HISTORY_LENGTH, ShellHistory, history_path
from banco.cli.main import cli as banco_cli
from banco.cli.session import Session
from banco.ledger.table.state import Auction


class Typed(io.StringIO):
    """What the banker types: lines, and KeyboardInterrupt where Ctrl-C is pressed."""

    def __init__(self, *items):
        super().__init__()
        self.items = list(items)

    def readline(self, *args):
        if not self.items:
            return ""
        item = self.items.pop(0)
        if item is KeyboardInterrupt:
            raise KeyboardInterrupt
        return item + "\n"


def drive(db, *typed, history=None):
    """Run a shell on `db` over `typed`; returns (shell, what the shell itself wrote)."""
    out = io.StringIO()
    sh = BancoShell(Session(db, None), banco_cli, stdin=Typed(*typed), stdout=out, history=history)
    sh.cmdloop()
    sh.session.close()
    return sh, out.getvalue()


def events(banco):
    return json.loads(banco("log", "--json").output)


def test_a_line_s_game_is_that_line_s_and_new_moves_the_shell_on(banco):
    # `state --game 1` once sent the next `roll` to game 1: a look must not move the banker
    banco("new", "Anna", "Bruno")
    banco("new", "Carla", "Dario")
    drive(banco.db, "state --game 1", "roll 1 2", "new Ada Bea", "roll 3 4")
    rolled = {g: [e["data"]["player"] for e in events_of(banco, g) if e["type"] == "DiceRolled"]
              for g in (1, 2, 3)}
    assert rolled == {1: [], 2: ["Carla"], 3: ["Ada"]}


def events_of(banco, game):
    return json.loads(banco("--game", str(game), "log", "--json").output)


# --- the prompt -----------------------------------------------------------------------------

def test_the_prompt_says_what_the_table_waits_for():
    t = new_table(("Anna", "Bruno", "Carla"))
    assert prompt_for(t) == "Anna (roll)> "
    assert prompt_for(t._replace(turn=t.turn._replace(phase="buy", offer=3))) == "Anna (buy)> "
    auction = t._replace(auction=Auction(property=3, min_bid=1, step=1),
                         turn=t.turn._replace(phase="auction"))
    assert prompt_for(auction) == "auction Vicolo Stretto: bids from 1 M> "
    lead = auction._replace(auction=auction.auction._replace(high_bidder="Bruno", high_bid=120))
    assert prompt_for(lead) == "auction Vicolo Stretto: Bruno leads 120 M> "
    assert prompt_for(debt(t, "Carla", "Anna", 300)) == "Carla owes 300 M> "
    card = t._replace(turn=t.turn._replace(phase="card", card_deck="imprevisti"))
    assert prompt_for(card) == "Anna (card Imprevisti)> "
    jailed = place(t, "Anna", 10, in_jail=True)
    assert prompt_for(jailed) == "Anna (in jail)> "
    from banco.cli.words.table_text import state_text

    # `state` says it as the prompt does (it said `(roll)` for a player in jail: the last trial)
    assert "turn: Anna (in jail)" in state_text(jailed)
    assert "turn: Anna (roll)" in state_text(t)
    assert prompt_for(t._replace(ended=True, winner="Bruno")) == "game over, Bruno won> "


def test_the_prompt_follows_the_game(banco):
    banco("new", "Anna", "Bruno")
    _, out = drive(banco.db, "roll 1 2", "decline", "bid bruno 40", "hammer")
    assert out.count("Anna (roll)> ") == 1 and "Anna (buy)> " in out
    assert "auction Vicolo Stretto: bids from 1 M> " in out and "auction Vicolo Stretto: Bruno leads 40 M> " in out
    assert "Bruno (roll)> " in out


def test_the_prompt_names_the_game_the_next_line_goes_to(banco):
    # two games in one file: the prompt says which one a `roll` would go to, and follows `new`
    banco("new", "Anna", "Bruno")
    banco("new", "Carla", "Dario")
    _, out = drive(banco.db, "state --game 1", "roll 1 2", "new Ada Bea", "roll 3 4")
    prompts = [p for p in out.split("\n") if p.startswith("#")]
    assert prompts == ["#2 Carla (roll)> #2 Carla (roll)> #2 Carla (buy)> "
                       "#3 Ada (roll)> #3 Ada (card Imprevisti)> "]


def test_the_prompt_without_a_game_is_plain(tmp_path):
    _, out = drive(str(tmp_path / "none.db"), "state")
    assert "banco> " in out and "#" not in out


# --- help -----------------------------------------------------------------------------------

def test_help_lists_every_word_with_one_line(banco, capsys):
    from banco.cli.main import COMMANDS

    banco("new", "Anna", "Bruno")
    _, out = drive(banco.db, "help all")
    listed = {line.split()[0] for line in out.splitlines() if line.startswith("  ")}
    assert listed == set(COMMANDS) - {"shell", "run", "serve"} | {"help", "quit", "game"}
    assert "  roll              Record the dice: roll D1 D2." in out
    assert "  show              One event in full" in out


def test_help_offers_no_word_the_shell_refuses(banco):
    """`aiuto` listed `esegui shell schermo` (run, shell, serve), which the shell refuses
    (the last trial): plain `help` leaves them out, in both languages."""
    banco("new", "Anna", "Bruno")
    from banco.cli.words import i18n

    for lang, refused in (("en", {"run", "shell", "serve"}),
                          ("it", {"esegui", "shell", "schermo"})):
        with i18n.in_language(lang):
            _, out = drive(banco.db, "help")
        listed = {w for line in out.splitlines() for w in line.split(":")[-1].split()}
        assert "token" in listed and not listed & refused, (lang, out)


def test_a_word_s_help_option_is_the_shell_s_usage_of_it(banco):
    """`tira --help` printed the terminal's usage (`Usage: banco roll`, with --db, --game and
    --lang, which a shell line refuses): it is `help roll` (the last trial)."""
    banco("new", "Anna", "Bruno")
    _, out = drive(banco.db, "roll --help", "trade -h")
    assert "Usage: roll [OPTIONS] D1 D2 [S]" in out and "Usage: trade" in out
    assert "banco roll" not in out and "--db" not in out and "--lang" not in out


def test_help_word_gives_its_usage(banco, capsys):
    banco("new", "Anna", "Bruno")
    capsys.readouterr()
    _, out = drive(banco.db, "help trade", "help rol", "help run", "help quit",
                   "help " + "z" * 300)
    err = capsys.readouterr().err  # a word that is none: an error, as every other mistake
    assert "error: no word '" + "z" * 39 + "…'; `help` lists the words" in err
    out += err
    assert "Usage: trade [OPTIONS] [WORDS]..." in out and "--lift" in out
    assert "no word 'rol': did you mean roll" in out
    assert "`run` is not available inside the shell: use `banco run`" in out
    assert "quit: leave the shell" in out


# --- Ctrl-C and Ctrl-D ----------------------------------------------------------------------

def test_ctrl_c_clears_the_line_and_a_second_on_an_empty_line_leaves(banco):
    banco("new", "Anna", "Bruno")
    sh = BancoShell(Session(banco.db, None), banco_cli, stdin=io.StringIO(), stdout=io.StringIO())
    assert sh.interrupted("roll 1") is False  # a line being typed: cleared
    assert sh.interrupted("bu") is False  # and again: still only cleared
    assert sh.stdout.getvalue() == "^C\n^C\n"
    # a banker pressing Ctrl-C twice to clear a line: the second lands on the empty line,
    # and it warns rather than leaves, whatever came before
    assert sh.interrupted("") is False
    assert sh.stdout.getvalue().endswith("^C (Ctrl-C again or Ctrl-D leaves)\n")
    assert sh.interrupted("") is True  # the next one leaves
    sh._interrupts = 0
    assert sh.interrupted("") is False  # a first Ctrl-C on an empty line only warns
    assert sh.interrupted("roll") is False  # a line typed after the warning: cleared
    assert sh.interrupted("") is False  # and the empty line after it warns again
    assert sh.interrupted("") is True


def test_ctrl_c_in_the_loop_goes_on_and_twice_leaves(banco, capsys):
    banco("new", "Anna", "Bruno")
    before = len(events(banco))
    sh, out = drive(banco.db, KeyboardInterrupt, "roll 1 2", KeyboardInterrupt,
                    KeyboardInterrupt, "buy")
    assert "^C (Ctrl-C again or Ctrl-D leaves)" in out
    assert "Anna rolls 1+2 = 3" in capsys.readouterr().out
    after = events(banco)
    assert len(after) == before + 4  # the roll (and its CommandRecorded); not the `buy` after leaving
    assert after[-1]["type"] == "PurchaseOffered"


def test_ctrl_d_leaves(banco):
    banco("new", "Anna", "Bruno")
    _, out = drive(banco.db, "state")  # then end of input, as Ctrl-D
    assert out.endswith("Anna (roll)> \n")


# --- history --------------------------------------------------------------------------------

def test_history_path_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.delenv("BANCO_HISTORY", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert history_path() == str(tmp_path / "data" / "banco" / "history")
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert history_path() == str(tmp_path / "home" / ".local" / "share" / "banco" / "history")
    monkeypatch.setenv("BANCO_HISTORY", str(tmp_path / "h"))
    assert history_path() == str(tmp_path / "h")
    monkeypatch.setenv("BANCO_HISTORY", "")
    assert history_path() is None


def test_history_persists_between_sessions(banco, tmp_path):
    readline = pytest.importorskip("readline")
    banco("new", "Anna", "Bruno")
    path = tmp_path / "deep" / "history"
    drive(banco.db, "roll 1 2", "", "buy", history=str(path))
    assert path.read_text().split() == ["roll", "1", "2", "buy"]
    readline.clear_history()
    drive(banco.db, "state", history=str(path))  # the next session starts with the old lines
    assert [readline.get_history_item(i) for i in range(1, 4)] == ["roll 1 2", "buy", "state"]
    assert path.read_text().splitlines()[-1] == "state"


def test_history_keeps_a_repeat_once_and_two_shells_both_keep_theirs(banco, tmp_path):
    readline = pytest.importorskip("readline")
    banco("new", "Anna", "Bruno")
    path = tmp_path / "history"
    drive(banco.db, "state", "state", "board", "state", history=str(path))
    assert path.read_text().splitlines() == ["state", "board", "state"]
    # two shells open at once: the one that leaves last used to write over the other's lines
    readline.clear_history()
    first = ShellHistory(str(path))
    first.load()
    second = ShellHistory(str(path))
    first.add("roll 1 2")
    first.save()
    readline.clear_history()
    second.load()
    second.loaded = 3  # it was opened before the first one saved
    readline.clear_history()
    for line in ("state", "board", "state", "log"):
        readline.add_history(line)
    second.save()
    assert path.read_text().splitlines() == ["state", "board", "state", "roll 1 2", "log"]
    # and the file stays within HISTORY_LENGTH lines
    path.write_text("x\n" * HISTORY_LENGTH)
    readline.clear_history()
    third = ShellHistory(str(path))
    third.load()
    third.add("buy")
    third.save()
    lines = path.read_text().splitlines()
    assert len(lines) == HISTORY_LENGTH and lines[-1] == "buy"


# --- another terminal -----------------------------------------------------------------------

def test_the_shell_says_what_another_terminal_recorded_before_recording(banco, capsys):
    banco("new", "Anna", "Bruno", "Carla")
    banco("roll", "1", "2")
    banco("decline")  # an auction for Vicolo Stretto
    other = Session(banco.db, None)
    out = io.StringIO()
    sh = BancoShell(Session(banco.db, None), banco_cli, stdin=Typed("bid bruno 50"), stdout=out)
    sh.cmdloop(intro="")
    n = len(events(banco))
    other.book.execute(other.game(), Bid("Carla", 60), now="2026-11-30T06:00:00.000000Z")
    sh.stdin = Typed("bid bruno 70", "state")  # a bid that would be accepted
    sh.cmdloop(intro="")
    said = out.getvalue()
    assert f"meanwhile, another terminal recorded events {n + 1}-{n + 2} on game 1:" in said
    assert "  Carla bids 60 M" in said
    assert "`bid bruno 70` was not run: the table changed" in said
    log = [e for e in events(banco) if e["type"] != "CommandRecorded"]
    assert [(e["type"], e["data"].get("player")) for e in log[-2:]] == [
        ("BidPlaced", "Bruno"), ("BidPlaced", "Carla")]  # Bruno's 70 was not recorded
    assert "auction Vicolo Stretto: Carla leads 60 M> " in said  # the prompt caught up
    assert "Carla leads at 60" in capsys.readouterr().out  # `state`, a read, did run
    # a long line (a paste, a stuck key) is cut in the echo, as the other messages cut it
    other.book.execute(other.game(), Bid("Carla", 65), now="2026-11-30T06:00:01.000000Z")
    sh.stdin = Typed("bid bruno 80 " + "8" * 500)
    sh.cmdloop(intro="")
    refused = [ln for ln in out.getvalue().splitlines() if "was not run" in ln][-1]
    assert "`bid bruno 80 888" in refused and "…` was not run: the table changed" in refused
    assert len(refused) < 200
    other.close()
    sh.session.close()


def test_another_terminal_s_undo_is_said_as_undo_says_it(banco):
    # the shell said "undo: AuctionWon, TurnEnded": the event types, not what came back
    banco("new", "Anna", "Bruno")
    for line in (("roll", "1", "2"), ("decline",), ("bid", "Bruno", "50"), ("hammer",)):
        banco(*line)
    out = io.StringIO()
    sh = BancoShell(Session(banco.db, None), banco_cli, stdin=Typed(), stdout=out)
    banco("undo")  # another terminal
    sh.stdin = Typed("state")
    sh.cmdloop(intro="")
    said = out.getvalue()
    assert "undone: `hammer` (events 15-16): Bruno gets back 50 M; Vicolo Stretto goes back " \
        "to the Bank; the auction is open again" in said
    assert "AuctionWon" not in said and "TurnEnded" not in said
    sh.session.close()


# --- through a terminal ---------------------------------------------------------------------

@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_the_shell_in_a_real_terminal(banco, tmp_path):
    """Ctrl-C, Ctrl-D and the history through a pseudo-terminal (tmux), as a banker types."""
    banco("new", "Anna", "Bruno")
    hist = tmp_path / "history"
    sock = f"banco-test-{uuid.uuid4().hex[:8]}"
    env = {**os.environ, "BANCO_HISTORY": str(hist), "BANCO_DB": banco.db, "TERM": "xterm"}
    cmd = f"{sys.executable} -m cli.main shell; echo SHELL-ENDED $?; sleep 30"
    tmux = ["tmux", "-L", sock]
    subprocess.run(tmux + ["-f", os.devnull, "new-session", "-d", "-x", "120", "-y", "40", cmd],
                   check=True, env=env, cwd=os.path.dirname(os.path.dirname(__file__)))

    def screen():
        return subprocess.run(tmux + ["capture-pane", "-p", "-S", "-200"], capture_output=True,
                              text=True).stdout

    def wait_for(text, timeout=15.0):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if text in screen():
                return
            time.sleep(0.05)
        raise AssertionError(f"{text!r} never appeared:\n{screen()}")

    def keys(*k):
        subprocess.run(tmux + ["send-keys", *k], check=True)

    try:
        wait_for("Anna (roll)>")  # the screen drops trailing spaces
        keys("roll 1 2", "Enter")
        wait_for("Anna (buy)>")
        keys("bu")
        wait_for("Anna (buy)> bu")
        keys("C-c")
        wait_for("Anna (buy)> bu^C")
        keys("decline", "Enter")  # the cleared `bu` is not part of this line
        wait_for("auction Vicolo Stretto: bids from 1 M>")
        keys("C-c")
        wait_for("(Ctrl-C again or Ctrl-D leaves)")
        keys("C-d")
        wait_for("SHELL-ENDED 0")
    finally:
        subprocess.run(tmux + ["kill-server"], capture_output=True)
    assert hist.read_text().splitlines() == ["roll 1 2", "decline"]
    assert [e["type"] for e in events(banco)][-2:] == ["PropertyDeclined", "AuctionOpened"]


def test_a_usage_mistake_is_one_error_line_and_the_word_s_usage(banco, capsys):
    banco("new", "Anna", "Bruno")
    capsys.readouterr()
    drive(banco.db, "buy Vicolo", "bogus")
    out = capsys.readouterr().err
    assert "error: Got unexpected extra argument (Vicolo)" in out
    assert "Usage: buy [OPTIONS]  (`help buy` says more)\n  `buy` takes no words" in out
    assert "error: no command called 'bogus'; `help` lists them" in out
    assert "Try 'banco" not in out and "banco --help" not in out  # the command line's advice


def test_an_unclosed_quote_is_said_in_the_banker_s_words(banco, capsys):
    banco("new", "Anna", "Bruno")
    capsys.readouterr()
    before = events(banco)
    drive(banco.db, "claim 'Anna", "roll 1 2\\")
    out = capsys.readouterr().err
    assert "error: a quote is not closed: claim 'Anna (a name with spaces" in out
    assert "error: the line ends with a backslash: roll 1 2\\" in out
    assert "No closing quotation" not in out and events(banco) == before


def test_the_shell_s_own_words_in_italian(banco):
    banco("new", "Anna", "Bruno")
    sh, out = drive(banco.db, "aiuto esci", "aiuto", "esci", "roll 1 2")
    assert "esci: leave the shell" in out and "the shell: help quit game" in out
    assert not [e for e in events(banco) if e["type"] == "DiceRolled"]  # `esci` left first


def test_serve_is_not_started_inside_the_shell_or_a_transcript(banco, capsys, tmp_path):
    """`serve` runs until Ctrl-C: inside the shell or `run` it would block the table."""
    banco("new", "Anna", "Bruno")
    capsys.readouterr()
    drive(banco.db, "serve", "schermo --port 0")
    err = capsys.readouterr().err
    assert "error: `serve` runs until Ctrl-C: start it in a terminal of its own" in err
    assert "error: `schermo` runs until Ctrl-C" in err
    (tmp_path / "t.banco").write_text("serve --port 0\n", encoding="utf-8")
    result = banco("run", str(tmp_path / "t.banco"), code=2)
    assert "`serve` runs until Ctrl-C" in result.output


def test_new_over_an_unfinished_game_says_how_to_get_back_to_it(banco, capsys):
    """A tournament keeps several games: `new` starts one all the same, and one line says which
    game it leaves unfinished and the way back (`--game N`; in the shell, `game N`)."""
    banco("new", "Anna", "Bruno")
    out = banco("new", "Carla", "Dario").output
    assert "warning: game 1 (Anna, Bruno) is left unfinished; `--game 1` goes back to it" in out
    # the next plain command goes to game 2: a league's other table pins its own (last trial)
    assert "commands without --game now go to game 2, the latest" in out
    assert "`export BANCO_GAME=2`" in out
    assert "left unfinished" not in banco("--game", "1", "state").output
    capsys.readouterr()
    _, said = drive(banco.db, "new Ada Bea --rules timed", "game 2", "roll 1 2", "game 9", "game x")
    err = capsys.readouterr().err
    assert "warning: game 2 (Carla, Dario) is left unfinished; `game 2` goes back to it" in err
    # the shell's own word's mistakes are errors as a line's are: stderr, a pipe's exit code
    assert "error: no game 9 in this database (games: 1-3)" in err and "no game 9" not in said
    assert "error: 'x' is not a game's number: `game N`" in err
    rolled = [e["data"]["player"] for e in events_of(banco, 2) if e["type"] == "DiceRolled"]
    assert rolled == ["Carla"]
    banco("--game", "3", "deal", "Ada", "vicolo", "corto", "vicolo", "stretto")
    banco("--game", "3", "deal", "Bea", "viale", "monterosa", "viale", "vesuvio")
    banco("--game", "3", "time-up")  # an ended game is left behind without a word: the one
    out = banco("new", "Elia", "Fede").output  # addressed now is the latest unfinished, 2
    assert "warning: game 2 (Carla, Dario) is left unfinished" in out and "game 3" not in out


def test_a_history_file_that_cannot_be_read_is_said_in_the_table_s_language(tmp_path, capsys):
    from banco.cli.banker.shell_history import ShellHistory
    from banco.cli.words import i18n

    history = ShellHistory(str(tmp_path))  # a folder where the file should be
    if history.readline is None:
        pytest.skip("no readline here")
    i18n.use("it")
    try:
        history.load()
    finally:
        i18n._release()
    err = capsys.readouterr().err
    assert "impossibile leggere la cronologia della shell" in err, err
    assert "argomento non valido" in err and "Invalid argument" not in err, err


@pytest.mark.parametrize("lang", ["en", "it"])
def test_a_missing_file_is_said_with_the_shell_s_own_way_to_open_another(tmp_path, lang):
    """The shell on a missing file said "did you mean demo.db or money.db?", which cannot be
    acted on inside it (it opens no other file): `new` starts a game in this one; for another,
    leave and run `banco --db FILE shell` (the trial's)."""
    from click.testing import CliRunner

    from banco.cli.main import cli

    for name in ("demo.db", "money.db"):
        (tmp_path / name).write_bytes(b"")
    missing = str(tmp_path / "demoo.db")
    said = CliRunner().invoke(cli, ["--lang", lang, "--db", missing, "shell"],
                              input="state\n").output
    assert "did you mean" not in said and "hai forse" not in said, said
    assert {
        "en": f"error: no database at {missing} (no such file): `new PLAYER PLAYER ...` starts "
              f"a game in it; another file ({tmp_path}/demo.db, {tmp_path}/money.db): leave "
              f"the shell (`quit`) and run `banco --db FILE shell`",
        "it": f"errore: nessun database in {missing} (il file non esiste): `nuova GIOCATORE "
              f"GIOCATORE ...` inizia una partita in questo file; un altro file ({tmp_path}/demo.db, "
              f"{tmp_path}/money.db): esci dalla shell (`esci`) e lancia `banco --db FILE shell`",
    }[lang] in said, said
    assert not os.path.exists(missing)


def test_an_id_typed_first_names_the_word_after_it_only_if_that_word_takes_it(banco, capsys):
    """`--id k state` was told `roll ... --id KEY`: the word after it is named where it takes
    the option (`correct`, a referee's; `seal`), and a word that takes none is said so."""
    banco("new", "Anna", "Bruno")
    capsys.readouterr()
    sh, _out = drive(banco.db, "--id k state", "--id k correct Anna 10", "--expect 3 seal",
                     "--id k roll 1 2", "--id k")
    assert capsys.readouterr().err.splitlines() == [
        "error: `state` takes no --id; a line that records takes it after its word "
        "(`roll ... --id KEY`)",
        "error: --id goes after the command's word: `correct ... --id KEY`",
        "error: --expect goes after the command's word: `seal ... --expect SEQ`",
        "error: --id goes after the command's word: `roll ... --id KEY`",
        "error: --id goes after the command's word: `roll ... --id KEY`"]
    assert sh.first_failure == 2 and len(events(banco)) == 4  # nothing recorded
