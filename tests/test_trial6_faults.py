"""What the sixth round's newcomer's trial found, each held by a test that failed before its fix:
`banco stato` typed in the shell was offered as `bancarotta` (one letter from recording a
bankruptcy), a stray word after `roll` was refused as a rule (exit 1) instead of a mistake in
the line (2), `import` in the shell said the next commands went to the imported game but the
shell stayed where it was, and the library recorded after `close()` and took `id=""`."""

from __future__ import annotations

import sqlite3

import pytest
from installed import INSTALLED, banco

import banco as library

pytestmark = INSTALLED


def events(db) -> int:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT COUNT(*) FROM events").fetchone()[0]


@pytest.fixture
def game(tmp_path):
    db = tmp_path / "g.db"
    banco("--db", db, "new", "Anna", "Bruno", env={"BANCO_LANG": "en"})
    return db


def test_the_program_s_name_typed_in_the_shell_is_said_and_never_taken_for_bankrupt(game):
    before = events(game)
    r = banco("--db", game, "--lang", "it", "shell", code=2,  # a piped shell's first failure
              input="banco anna\nbanco stato\ns\nbanco\n")
    said = r.stdout + r.stderr
    assert "bancarotta" not in said
    assert "scrivi la riga senza: `stato`" in r.stderr and "`s` e Invio: `stato`" in r.stdout
    assert said.count("`s` e Invio") == 1  # `banco anna` offers no line: `anna` is no word
    assert "turno: Anna (tirare)" in r.stdout  # the `s` ran `stato`; the game as it was
    assert "`banco` è il nome del programma, non un comando: scrivi un comando" in r.stderr
    assert events(game) == before


def test_the_program_s_name_twice_on_the_command_line_and_in_the_library(game):
    r = banco("--db", game, "banco", "state", code=2, env={"BANCO_LANG": "en"})
    assert "`banco` is the program's own name, not a command: type the line without it: " \
           "`state`" in r.stderr and "bankrupt" not in r.stderr
    with library.open(str(game)) as book:
        out = book.execute("banco roll 1 2", game=1)
    assert out.refusal is not None and out.refusal.error.exit_code == 2 and not out.events
    assert out.refusal.error.meant == "roll 1 2"


@pytest.mark.parametrize("third", ["buy", "x9"])
def test_a_word_after_the_two_dice_of_classic_is_a_mistake_in_the_line(game, third):
    r = banco("--db", game, "roll", "1", "2", third, code=2, env={"BANCO_LANG": "en"})
    assert f"`roll` takes two dice under the classic rules, not a third word '{third}'" \
        in r.stderr
    r = banco("--db", game, "roll", "1", "2", "3", code=1, env={"BANCO_LANG": "en"})
    assert "a third die, the Speedy die, is the championship's" in r.stderr  # a die: the rule


def test_import_in_the_shell_moves_the_shell_to_the_game_it_says(tmp_path, game):
    other = tmp_path / "other.db"
    banco("--db", other, "new", "Carla", "Dario", env={"BANCO_LANG": "en"})
    banco("--db", other, "export", "-o", tmp_path / "g.json")
    out = banco("--db", game, "shell", input=f"import {tmp_path / 'g.json'}\nstate\n",
                env={"BANCO_LANG": "en"})
    assert "commands without --game now address game 2" in out.stderr
    assert "turn: Carla (roll)" in out.stdout and "#2 Carla" in out.stdout


def test_a_closed_book_records_nothing_and_an_empty_id_is_refused(game):
    book = library.open(str(game))
    before = events(game)
    empty = book.execute("roll 1 2", game=1, id="")
    assert empty.refusal is not None and "--id needs a key" in str(empty.refusal.error)
    assert book.new(["Carla", "Dario"], id="").refusal is not None
    assert events(game) == before
    book.close()
    out = book.execute("roll 1 2", game=1)
    assert out.refusal is not None and not out.events and events(game) == before
    with pytest.raises(ValueError, match="closed"):
        book.table(1)
    book.close()  # twice, as a file


def test_the_shell_opening_on_a_broken_chain_names_the_shell_s_word(game):
    conn = sqlite3.connect(game)
    with conn:
        conn.execute("DROP TRIGGER events_no_update")
        conn.execute("UPDATE events SET data=replace(data, '1500', '1600') WHERE seq=3")
    conn.close()
    r = banco("--db", game, "shell", input="", env={"BANCO_LANG": "en"})
    assert "does not match its hash: run `audit`" in r.stdout + r.stderr
    assert "`banco audit`" not in r.stdout + r.stderr


@pytest.mark.parametrize("typed, english, italian", [
    ("tira 1 2 --giocatore carla", "roll 1 2 --player carla", "tira 1 2 --giocatore carla"),
    ("roll 1 2 --player carla", "roll 1 2 --player carla", "tira 1 2 --giocatore carla"),
    ("decisione affitto 14", "ruling rent 14", "decisione affitto 14"),
    ("carta probabilita 11 paga", "card probabilita 11 pay", "carta probabilita 11 paga"),
    ("scambia Anna Bruno --dai vicolo --ricevi 100",
     "trade Anna Bruno --give vicolo --get 100", "scambia Anna Bruno --dai vicolo --ricevi 100"),
])
def test_the_pages_say_a_recorded_line_wholly_in_their_own_language(typed, english, italian):
    """The English pages showed `tira 1 2 --player carla`: the Italian verb as typed beside an
    option said in English, where the Italian pages translated the whole line."""
    from banco.cli.web.choices import line_in

    assert line_in(typed, "en") == english
    assert line_in(typed, "it") == italian


def test_a_name_with_a_backtick_is_refused_as_new_is_read_and_a_line_is_one_line(tmp_path):
    """``Ann`a`` broke every hint quoted in backticks; `execute("roll 1 2\\nbuy")` was read as
    one line, a roll with a third word."""
    db = tmp_path / "n.db"
    r = banco("--db", db, "new", "Ann`a", "Bruno", code=2, env={"BANCO_LANG": "en"})
    assert "player name 'Ann`a' refused: '`' quotes the commands banco suggests" in r.stderr
    with library.open(str(db), create=True) as book:
        assert book.new(["Ann`a", "Bruno"]).refusal is not None
        assert book.new(["Anna", "Bruno"]).refusal is None
        before = events(db)
        out = book.execute("roll 1 2\nbuy", game=1)
        assert "a line is one command: this one has 2 lines" in str(out.refusal.error)
        assert not out.events and events(db) == before
