"""The banker's and referee's words a newcomer's trial found wrong: what follows a debt that
only a bankruptcy settles, what an undo gives back, names that are both a space and deeds,
tied standings, the output paths' errors."""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.usefixtures("no_locale")


@pytest.fixture
def bea_must_go_bankrupt(banco):
    """Bea owns Vicolo Stretto, has 100 M left, and rolls doubles onto the 200 M tax."""
    banco("new", "Ada", "Bea", "Cy")
    for line in ("roll 1 2", "decline", "bid bea 1400", "hammer"):
        banco(*line.split())
    return banco


def test_a_player_who_must_go_bankrupt_does_not_roll_again(bea_must_go_bankrupt):
    """`roll 2 2` said 'Bea rolls again (doubles)' and state 'then Bea rolls', though Bea
    cannot raise the tax and is out after `bankrupt`: the words say the Bank auctions her
    deed and Cy rolls, and so it goes."""
    banco = bea_must_go_bankrupt
    rolled = banco("roll", "2", "2").output
    assert "rolls again" not in rolled
    want = ("next: Bea owes 200 M to the Bank (Tassa Patrimoniale) and can raise only 130 M: "
            "`bankrupt Bea`; then the Bank auctions Bea's deeds (003 §10) and Cy rolls")
    assert rolled.rstrip().endswith(want)
    assert want in banco("state").output
    assert "auction for Vicolo Stretto" in banco("bankrupt", "Bea").output
    assert "Cy to roll" in banco("hammer", "cy").output


def test_a_bankruptcy_that_ends_the_game_is_said_to_end_it(banco):
    """Two players: the debtor's bankruptcy leaves one, and nobody rolls after it."""
    banco("new", "Ada", "Bea")
    for line in ("roll 1 2", "decline", "bid bea 1400", "hammer"):
        banco(*line.split())
    banco("roll", "2", "2")
    assert banco("state").output.count("`bankrupt Bea`; then the game ends") == 1


def test_undo_of_a_bid_says_the_lead_goes_back(banco):
    """`bid Anna 1000; bid Bruno 1001; undo` said 'nothing on the table changes', though the
    lead went back to Anna; undoing the first bid leaves no bid standing."""
    banco("new", "Anna", "Bruno")
    for line in ("roll 1 2", "decline", "bid Anna 1000", "bid Bruno 1001"):
        banco(*line.split())
    said = banco("undo").output
    assert "nothing on the table changes" not in said
    assert "Anna leads the auction again at 1000 M" in said
    assert "no bid stands any more: bids from 1 M" in banco("undo").output


def test_undo_of_the_bankruptcy_that_ended_the_game_says_it_is_open_again(banco):
    """The undo of the last bankruptcy said only the money and the deed: not that the game
    is open again nor that the bankrupt is back in it."""
    banco("new", "Ada", "Bea")
    for line in ("roll 1 2", "decline", "bid bea 1400", "hammer", "roll 2 2", "bankrupt"):
        banco(*line.split())
    said = banco("undo").output
    assert ("the game is open again; Bea is back in the game; Bea gets back 100 M; "
            "Vicolo Stretto is Bea's again") in said


def test_undo_says_the_jail_cards_that_go_back(banco):
    """A bankrupt's jail card went with the estate; its undo gives it back, and says so."""
    from banco.cli.session import Session
    from banco.cli.words.undo_text import taken_back

    banco("new", "Ada", "Bea")
    session = Session(banco.db, None)
    after = session.state()
    session.close()
    bea = after.player("Bea")
    card = after._replace(players=tuple(
        p._replace(jail_cards=(("imprevisti", 15),)) if p.name == "Bea" else p
        for p in after.players))
    assert bea.jail_cards == ()
    assert taken_back(after, card) == ["Bea gets back 1 jail card"]
    assert taken_back(card, after) == ["Bea gives back 1 jail card"]


def test_a_word_naming_a_space_and_deeds_offers_the_deeds(banco):
    """`mortgage via` and `history via` said 'Via! is a space of the board, not a deed': the
    deeds whose name begins with the word are offered (not Viale ...); `Via!` in full is
    still the space."""
    banco("new", "Anna", "Bruno")
    offer = ("error: 'via' names Via!, a space of the board, not a deed: did you mean "
             "'Via Accademia', 'Via Marco Polo', 'Via Roma' or 'Via Verdi'?")
    assert offer in banco("mortgage", "via", code=2).output
    assert offer in banco("history", "via", code=2).output
    assert ("Via! is a space of the board, not a deed"
            in banco("history", "Via!", code=2).output)


def test_tied_players_share_a_rank_in_text_and_json(banco):
    """`new Zed Amy; standings` listed '1. Amy / 2. Zed' at equal worth."""
    import json

    banco("new", "Zed", "Amy")
    lines = banco("standings").output.splitlines()
    assert lines[1].startswith("1. Amy") and lines[2].startswith("1. Zed"), lines
    assert [r["rank"] for r in json.loads(banco("standings", "--json").output)] == [1, 1]


def test_a_tie_of_three_names_them_as_a_list_and_time_up_says_local_time(tmp_path):
    """The championship's end said 'Amy and Bob and Zed tie' and time-up a raw UTC timestamp
    ('2026-12-03T12:48:05.171145Z'): a list, and the time as `log` shows it (local, TZ)."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    banco = Path(sys.executable).parent / "banco"
    env = {**os.environ, "TZ": "Europe/Rome", "BANCO_FIXED_TIME": "2026-11-29T21:00:00Z",
           "BANCO_LANG": "en"}
    db = str(tmp_path / "t.db")

    def run(*words):
        done = subprocess.run([str(banco), "--db", db, *words], capture_output=True, text=True,
                              env=env, timeout=60)
        assert done.returncode == 0, done.stderr
        return done.stdout

    run("new", "Zed", "Amy", "Bob", "--rules", "championship")
    said = run("time-up")
    assert "time is up at 2026-11-29 22:00:00+01:00: the game ends now" in said
    assert "Amy, Bob and Zed tie at 1500 M" in said
    assert "T21:00:00" not in said
    # the fact keeps the tied as a list (an older game's 'Amy and Bob and Zed' is upcast to it)
    ended = [e for e in json.loads(run("log", "--json")) if e["type"] == "GameEnded"]
    assert ended[0]["data"]["reason"]["players"] == ["Amy", "Bob", "Zed"]
    lines = run("standings").splitlines()
    assert [line[:2] for line in lines[1:4]] == ["1.", "1.", "1."]


def test_an_empty_output_name_is_said_as_such(banco):
    """`export -o ""`, `report -o ""`, `backup ""` said 'error:  is a folder: name the file'."""
    banco("new", "Anna", "Bruno")
    for words in (["export", "-o", ""], ["report", "-o", ""], ["backup", ""], ["backup", " "]):
        said = banco(*words, code=2).output
        assert "error: the file name is empty: name the file to write" in said, (words, said)
        assert "folder" not in said


def test_a_device_is_refused_as_a_backup_at_once(banco):
    """`backup /dev/full` said 'exists: ... --force to replace it', then with --force was
    refused as a device: it is refused as no file at once, --force or not."""
    banco("new", "Anna", "Bruno")
    for words in (["backup", "/dev/full"], ["backup", "/dev/full", "--force"]):
        said = banco(*words, code=2).output
        assert "error: /dev/full is not a file: a backup is a database file" in said, said


def _installed(*words, stdin="", env=None):
    import os
    import subprocess
    import sys
    from pathlib import Path

    banco = Path(sys.executable).parent / "banco"
    return subprocess.run([str(banco), *map(str, words)], input=stdin, capture_output=True,
                          text=True, timeout=60, env={**os.environ, **(env or {})})


def test_game_alone_in_the_shell_asks_for_the_number(banco):
    """`game` with no number printed "'' is not a valid integer."."""
    banco("new", "Anna", "Bruno")
    done = _installed("--db", banco.db, "shell", stdin="game\n")
    said = done.stdout + done.stderr  # the shell says its own words' errors with its prompt
    assert "`game` needs the game's number: `game N` (`games` lists them)" in said
    assert "not a valid integer" not in said


def test_a_shell_on_a_file_that_is_no_database_stops_at_once(tmp_path):
    """`banco shell` on a text file showed a prompt and complained at the first command."""
    text = tmp_path / "notes.txt"
    text.write_text("hello\n")
    done = _installed("--db", text, "shell", stdin="state\n")
    assert done.returncode == 4
    assert "is not a SQLite database" in done.stderr and "banco>" not in done.stdout
    fresh = _installed("--db", tmp_path / "new.db", "shell", stdin="")
    assert fresh.returncode == 0 and "banco>" in fresh.stdout  # `new` may still create it


def test_copy_names_the_file_that_is_no_database_by_its_role(banco, tmp_path):
    """`copy notdb.txt x.db` asked 'is --db the right file?' though no --db was given."""
    text = tmp_path / "notes.txt"
    text.write_text("hello\n")
    said = banco("copy", str(text), str(tmp_path / "x.db"), code=4).output
    assert f"{text} is not a SQLite database: copy's SRC is a banco database file" in said
    assert "--db" not in said


def test_a_card_with_a_choice_says_its_text(banco):
    """`card prob 11` alone printed only 'choose: ...' without the card's text."""
    banco("new", "Ada", "Bea")
    banco("roll", "1", "1")  # Probabilità (2)
    said = banco("card", "prob", "11").output
    assert ("Probabilità 11: Pagate una multa di 10 oppure prendete un cartoncino dagli "
            "Imprevisti; choose: `card probabilità 11 pay` or `card probabilità 11 draw`") in said


def test_the_italian_help_says_the_italian_words_and_aiuto_tutto_works(banco):
    """`aiuto carta` showed [pay|draw] where the words are paga|pesca; `banco --lang it aiuto
    tutto` said 'no command called tutto' though the shell's aiuto offers it."""
    said = banco("--lang", "it", "aiuto", "carta").output
    assert "[paga|pesca]" in said and "[pay|draw]" not in said
    every = banco("--lang", "it", "aiuto", "tutto").output
    assert "compra (buy)" in every and "tutto" not in every.splitlines()[0]
    assert "buy" in banco("help", "all").output


def test_a_word_that_is_not_utf8_is_said_as_bytes(banco, tmp_path):
    """A Latin-1 terminal typing `Annà` sends b'Ann\\xe0': it was echoed as 'Ann\\udce0'. The
    error says the bytes and the cure, on the command line and in the shell (exit 2); a file
    name with such bytes still names its file."""
    import os

    banco("new", "Anna", "Bruno")
    banco("roll", "1", "2")
    banco("decline")
    want = ("'Ann\\xe0' holds bytes that are not UTF-8 text: set the terminal to UTF-8 and "
            "type it again")
    argv = [os.fsencode(banco.db), b"bid", b"Ann\xe0", b"5"]
    import subprocess
    import sys
    from pathlib import Path

    exe = Path(sys.executable).parent / "banco"
    done = subprocess.run([os.fsencode(exe), b"--db", *argv], capture_output=True, timeout=60)
    assert done.returncode == 2
    said = done.stderr.decode()
    assert want in said and "udce0" not in said
    shell = subprocess.run([os.fsencode(exe), b"--db", os.fsencode(banco.db), b"shell"],
                           input=b"bid Ann\xe0 5\n", capture_output=True, timeout=60)
    said = (shell.stdout + shell.stderr).decode()
    assert want in said and "udce0" not in said
    latin = os.path.join(os.fsencode(tmp_path), b"caf\xe9.db")
    made = subprocess.run([os.fsencode(exe), b"--db", latin, b"new", b"Anna", b"Bruno"],
                          capture_output=True, timeout=60)
    assert made.returncode == 0 and os.path.exists(latin), made.stderr


def test_undo_says_a_debt_cancelled_or_owed_again_and_a_card_choice_open_again():
    """A second trial: `undo` of a claim that left Carla in debt said "nothing on the table
    changes", and so did the undo of `draw` at a pay-or-draw card: the debt went, the choice
    came back."""
    from helpers import debt, new_table

    from banco.cli.words.undo_text import taken_back, undone_line

    table = new_table(("Anna", "Bruno", "Carla"))
    owing = debt(table, "Carla", "Bruno", 48)
    assert taken_back(owing, table) == ["Carla's debt of 48 M to Bruno is cancelled"]
    assert taken_back(table, owing) == ["Carla owes Bruno 48 M again"]
    to_bank = debt(table, "Anna", "bank", 100)
    assert taken_back(to_bank, table) == ["Anna's debt of 100 M to the Bank is cancelled"]
    choosing = table._replace(turn=table.turn._replace(card_choice=("probabilita", 11)))
    assert taken_back(table, choosing) == ["Anna chooses again: pay or draw (card probabilità 11)"]
    assert "nothing on the table changes" not in undone_line([5, 6], "claim bruno", owing, table)
    assert undone_line([7], "roll 1 2", table, table).endswith("nothing on the table changes")


def test_the_rule_sets_name_is_said_in_the_tables_language_everywhere(tmp_path):
    """A second trial: `--lang it games` listed `classic`, `importa` said "regole classic" and
    the text export's first step "regole classic" under "regole classiche"."""
    from click.testing import CliRunner

    from banco.cli.main import cli

    db = str(tmp_path / "g.db")

    def it(*words):
        done = CliRunner().invoke(cli, ["--db", db, "--lang", "it", *words])
        assert done.exit_code == 0, done.output
        return done.output

    it("new", "Anna", "Bruno", "--rules", "championship")
    assert "campionato" in it("games") and "championship" not in it("games")
    text = it("export", "--format", "text")
    assert text.count("regole del campionato") == 2 and "regole championship" not in text
