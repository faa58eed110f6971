"""The shell's and the command line's small faults the ninth round found: a system shell's pipe
typed in the shell, `help` of no word, a look-alike letter in a name, `--id` before a word that
takes none, the words that only read, and a line that is no word searched for near words once."""

import difflib
import io
import os
import subprocess

from helpers import Bid
from installed import BANCO, FIXED, INSTALLED, banco, rows
from test_shell import Typed, drive

from banco.cli.banker.shell import BancoShell
from banco.cli.main import cli as banco_cli
from banco.cli.session import Session


def fed(db, text, *lang, code=2):
    """`banco shell` fed `text` on a pipe: its stderr's lines (the errors), and its stdout."""
    r = subprocess.run([str(BANCO), "--db", str(db), *lang, "shell"], input=text,
                       capture_output=True, text=True, timeout=60, env={**os.environ, **FIXED, "BANCO_HISTORY": ""})
    assert "Traceback" not in r.stderr and r.returncode == code, (r.stdout, r.stderr)
    return r.stderr.splitlines(), r.stdout


@INSTALLED
def test_a_system_shell_s_pipe_says_the_shell_runs_banco_s_words(tmp_path):
    """`log | head -1` was answered "No such option '-1'", which said nothing of the pipe: the
    pipe is named, with the terminal's line that does it, and nothing is run (exit 2)."""
    db = tmp_path / "p.db"
    banco("--db", db, "new", "Anna", "Bruno", env=FIXED)
    before = rows(db)
    errors, _out = fed(db, "log | head -1\nstate>out.txt\nroll 1 2; buy\n")
    assert errors == [
        "error: `|` is a system shell's (bash, zsh), not banco's: banco runs its own words "
        "only; `banco log | head -1` at the terminal does it (nothing was run)",
        "error: `>` is a system shell's (bash, zsh), not banco's: banco runs its own words "
        "only; `banco state>out.txt` at the terminal does it (nothing was run)",
        "error: `;` is a system shell's (bash, zsh), not banco's: banco runs one command a "
        "line; type each on a line of its own (nothing was run)"]
    errors, _out = fed(db, "registro | head -1\n", "--lang", "it")
    assert errors == ["errore: `|` è di una shell di sistema (bash, zsh), non di banco: banco "
                      "esegue solo le sue parole; `banco registro | head -1` al terminale lo fa "
                      "(nulla è stato eseguito)"]
    assert rows(db) == before and not (tmp_path / "out.txt").exists()


@INSTALLED
def test_help_of_no_word_is_an_error_with_its_near_word(tmp_path):
    """`help nosuch` said "no word 'nosuch'" on stdout with no `error:`, unlike every other
    mistake, and a pipe's exit code did not count it."""
    db = tmp_path / "h.db"
    banco("--db", db, "new", "Anna", "Bruno", env=FIXED)
    errors, out = fed(db, "help nosuch\nhelp rol\n")
    assert errors == ["error: no word 'nosuch'; `help` lists the words",
                      "error: no word 'rol': did you mean roll?"]
    assert "no word" not in out
    errors, _out = fed(db, "aiuto nosuch\naiuto tria\n", "--lang", "it")
    assert errors == ["errore: nessuna parola 'nosuch'; `aiuto` elenca le parole",
                      "errore: nessuna parola 'tria': intendevi storia o tira o mostra?"]


@INSTALLED
def test_a_look_alike_letter_in_a_name_is_named_as_in_a_command_word(tmp_path):
    """`rоll` named its Cyrillic о ("U+043E"), `claim Аnna` (a Cyrillic А) only suggested Anna,
    whom it prints as: a player's, a deck's name says the letter no name has."""
    db = tmp_path / "n.db"
    banco("--db", db, "new", "Anna", "Bruno", env=FIXED)
    banco("--db", db, "roll", "3", "4", env=FIXED)  # Anna on Imprevisti
    r = banco("--db", db, "claim", "Аnna", code=2)
    assert r.stderr == ("error: no player called 'Аnna' (its 'А' is U+0410, a letter none of "
                        "the names has): did you mean 'Anna'?\n")
    r = banco("--db", db, "--lang", "it", "carta", "Imprеvisti", "3", code=2)
    assert r.stderr == ("errore: nessun nome corrisponde a 'Imprеvisti' (mazzo) (la sua 'е' è "
                        "U+0435, una lettera che nessun nome ha): intendevi 'Imprevisti'?\n")
    r = banco("--db", db, "claim", "Annà", code=1)  # an accent is no odd letter
    assert "U+" not in r.stderr
    _errors, out = fed(db, "claim Аnna\n")  # the shell still offers the name meant
    assert "`y` and Enter: `claim Anna`" in out


@INSTALLED
def test_an_id_before_a_word_that_takes_none_is_said_so_on_the_command_line(tmp_path):
    """`banco --id k state` was told `banco state ... --id KEY`, an option `state` has not;
    the shell's answer to the same was fixed the round before: now the command line's is the
    same, with `banco`."""
    db = tmp_path / "i.db"
    banco("--db", db, "new", "Anna", "Bruno", env=FIXED)
    before = rows(db)
    assert banco("--db", db, "--id", "k", "state", code=2).stderr == (
        "error: `state` takes no --id; a line that records takes it after its word (`banco "
        "roll ... --id KEY`)\n")
    assert banco("--db", db, "--lang", "it", "--expect", "3", "stato", code=2).stderr == (
        "errore: `stato` non prende --expect; una riga che registra lo prende dopo la sua "
        "parola (`banco tira ... --expect SEQ`)\n")
    assert banco("--db", db, "--expect", "3", "ruling", "rent", "3", code=2).stderr == (
        "error: --expect goes after the command's word: `banco ruling ... --expect SEQ`\n")
    assert rows(db) == before


def test_the_words_that_only_read_are_the_vocabulary_s_readings(banco, capsys):
    """The shell kept its own list of the words that run after another terminal's change
    (`READS`), beside the one table of words: `doctor`, a reading, was held, `STATO` (caps
    lock) too, and `ruling ... --record`, a write, was run on a table the banker had not
    seen."""
    banco("new", "Anna", "Bruno", "Carla")
    banco("roll", "1", "2")
    banco("decline")  # an auction for Vicolo Stretto
    other = Session(banco.db, None)
    out = io.StringIO()
    sh = BancoShell(Session(banco.db, None), banco_cli, stdin=Typed(), stdout=out)
    sh.cmdloop(intro="")
    def after_a_bid(n, bidder, line):
        other.book.execute(other.game(), Bid(bidder, 60 + n), now=f"2026-11-30T06:00:0{n}Z")
        sh.stdin = Typed(line)
        sh.cmdloop(intro="")
        ran = capsys.readouterr()
        return ran.out + ran.err

    assert "Bruno" in after_a_bid(0, "Bruno", "STATO")  # the table, read
    assert after_a_bid(1, "Carla", "ruling auction 9 --record --referee Rita") == ""
    assert after_a_bid(2, "Bruno", "ruling auction 9") != ""
    said = out.getvalue()
    assert "`STATO` was not run" not in said
    assert "`ruling auction 9 --record --referee Rita` was not run: the table changed" in said
    assert "`ruling auction 9` was not run" not in said
    other.close()
    sh.session.close()


def test_a_line_that_is_no_word_is_searched_for_near_words_once(banco, monkeypatch, capsys):
    """`rol 1 2` ran difflib three times: the library's reading, click's, and the shell's offer
    of the line meant.  Once, and the shell still offers `roll 1 2`."""
    banco("new", "Anna", "Bruno")
    calls = []
    searched = difflib.get_close_matches

    def counted(*args, **kwargs):
        calls.append(args[0])
        return searched(*args, **kwargs)

    monkeypatch.setattr(difflib, "get_close_matches", counted)
    _sh, out = drive(banco.db, "rol 1 2")
    assert calls == ["rol"]
    assert "`y` and Enter: `roll 1 2`" in out
    assert capsys.readouterr().err == "error: no command called 'rol': did you mean roll?\n"


def test_what_the_shell_in_a_terminal_showed(banco, capsys):
    """Found typing into `banco shell` in tmux: `help hlep` offered "help or help" (the word
    listed as a command and as the shell's own), `help rоll` (a Cyrillic о) did not name the
    letter a line names, and `y` with nothing offered was "no command called 'y'"."""
    banco("new", "Anna", "Bruno")
    capsys.readouterr()
    sh, _out = drive(banco.db, "help hlep", "help rоll", "y")
    assert capsys.readouterr().err.splitlines() == [
        "error: no word 'hlep': did you mean help?",
        "error: no word 'rоll' (its 'о' is U+043E, no plain letter: a command word is typed in "
        "a-z): did you mean roll?",
        "error: `y` accepts a line the shell offers after a mistake (\"`y` and Enter: ...\"); "
        "none is offered now"]
    assert sh.first_failure == 2


def test_tab_after_a_dash_offers_no_name(banco):
    """Tab after `state --` listed the players: readline splits words at `-`, so the text
    completed was "" and `--Anna` was offered; an option's value (`--player `) still is."""
    banco("new", "Anna", "Bruno")
    sh = BancoShell(Session(banco.db, None), banco_cli, stdin=io.StringIO(), stdout=io.StringIO())
    assert sh.completedefault("", "state --", 8, 8) == []
    assert sh.completedefault("", "roll 1 2 -", 10, 10) == []
    assert sh.completedefault("", "claim --player ", 15, 15) == ["Anna", "Bruno"]
    sh.session.close()


def test_a_line_of_dashes_is_said_to_be_no_command(banco, capsys):
    """`--` alone was answered nothing at all (exit 2 on a pipe, no word), `-` with click's
    "No such command '-'.": a line of dashes is no command, said in banco's words."""
    banco("new", "Anna", "Bruno")
    capsys.readouterr()
    sh, _out = drive(banco.db, "--", "-")
    assert capsys.readouterr().err.splitlines() == [
        f"error: `{dashes}` is no command: a line starts with a command's word (`roll 3 4`); "
        "`help` lists them" for dashes in ("--", "-")]
    assert sh.first_failure == 2


def test_a_ruling_s_usage_points_to_help_that_exists(banco, capsys):
    """`ruling rent` with no SEQ ended "(`help rent` says more)", and `help rent` is no word:
    it points to `help ruling rent`, which gives the ruling's usage (Italian alike)."""
    banco("new", "Anna", "Bruno")
    capsys.readouterr()
    _sh, out = drive(banco.db, "help ruling rent")
    assert out.count("Usage: ruling rent [OPTIONS] SEQ|TIME") == 1 and "--claim-at" in out
    from banco.cli.execution import execute

    session = Session(banco.db, None)
    said = execute(session, "ruling rent", echo=False, commands=banco_cli)
    session.close()
    assert said.code == 2
    assert "  Usage: ruling rent [OPTIONS] SEQ|TIME  (`help ruling rent` says more)" \
        in said.errors.splitlines()


def test_the_italian_refusal_of_a_trade_with_oneself_gives_no_gender():
    """A trial in Italian: "Anna non può scambiare con se stesso", a man's word for Anna;
    banco knows no player's gender (tests/test_banker_words.py holds it for English)."""
    from banco.cli.words import i18n

    said = i18n.catalog("it").gettext("{a} cannot trade with themselves")
    assert "stess" not in said and said.startswith("{a} non può scambiare con sé")
