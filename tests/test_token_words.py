"""The tokens' words as a newcomer reads them: a banker's token bound to no single game is
for "every game" (not "game 0"), a PostgreSQL database is no "file", a file with no token
says so, and the Italian says "mostrato una volta sola" wherever the English says "shown
once"."""

from __future__ import annotations

import json
from pathlib import Path

import pg_cluster
from click.testing import CliRunner

from banco.cli.main import cli
from banco.ledger.store import tokens

NOW = "2026-11-29T21:00:00Z"


def banco(db: str, *words: str, code: int = 0) -> str:
    done = CliRunner().invoke(cli, ["--db", db, "--lang", "en", *words])
    assert done.exit_code == code, (words, done.output)
    return done.output


def test_a_prefix_naming_the_banker_s_token_for_every_game_says_every_game(tmp_path,
                                                                          monkeypatch):
    db = str(tmp_path / "t.db")
    banco(db, "new", "Anna", "Bruno")
    secrets = iter(["-GbankerAAAAAAAAAAAAAAAAAAAAAAAA", "-GannaBBBBBBBBBBBBBBBBBBBBBBBBBBB"])
    monkeypatch.setattr(tokens.secrets, "token_urlsafe", lambda n: next(secrets))
    banco(db, "token", "banker")  # no --game: the banker of every game of the file
    banco(db, "token", "player", "Anna")
    said = banco(db, "token", "--revoke", "-G", code=2)
    assert "-Gbanker (banker, every game), -GannaBB (player Anna, game 1)" in said, said
    assert "game 0" not in said


def test_an_audit_names_an_entry_of_every_game_so():
    from banco.cli.words.i18n import say

    entry = (1, "issue", "d" * 64, "abcdefgh", "banker", None, tokens.EVERY_GAME, NOW,
             tokens.GENESIS, "0" * 64)  # a hash banco did not write
    # with a key: without it an entry banco did not hash cannot be told from a keyed one
    said = [say(p) for p in tokens.problems_in([entry], b"k" * 32)]
    assert said and said[0].startswith("token entry 1 (issue bt_abcdefgh..., banker, every "
                                       "game) is not what its hash binds"), said


def test_a_file_with_no_game_and_no_token_says_no_token_yet(tmp_path):
    from banco.cli.web.serve import create_file

    db = str(tmp_path / "sera.db")
    assert create_file(db)  # what `banco serve` makes: the banker's page starts the games
    assert banco(db, "token", "--list") == "no token yet\n"


def test_on_postgresql_the_banker_s_token_is_for_every_game_of_the_database():
    url, _ = pg_cluster.database()
    banco(url, "new", "Anna", "Bruno")
    said = banco(url, "token", "banker")
    assert said.startswith("banker's link for every game of the database (token "), said
    assert "of the file" not in said
    assert json.loads(banco(url, "token", "banker", "--json"))["game"] is None


def test_the_italian_says_shown_once_in_one_wording():
    from babel.messages.pofile import read_po

    po = Path(__file__).resolve().parents[1] / "cli/words/locale/it/LC_MESSAGES/banco.po"
    with open(po, "rb") as f:
        said = {m.id: m.string for m in read_po(f) if isinstance(m.id, str)
                and "shown once" in m.id}
    assert len(said) >= 4 and all("mostrato una volta sola" in s for s in said.values()), said
