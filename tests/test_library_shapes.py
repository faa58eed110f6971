"""A word given words it does not take, or missing one, is said alike at every door (the last
trial): `banco.open(...).execute("compra Anna")` said `unexpected extra argument: `compra
Anna`` in English whatever the caller's language, where the command line and the shell say
click's words for it, the word's usage and what was most likely meant.  Each door keeps its own
advice only (the shell's `help WORD`)."""

from __future__ import annotations

import re

import phones_tables
import pytest
from click.testing import CliRunner
from phones_tables import auth, make_client

import banco
from banco.cli.main import cli

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx`")
recorded, db = phones_tables.recorded, phones_tables.db

# (line, its language, what every door says of it)
LINES = [
    ("compra Anna", "it", ["Argomento in più inatteso (Anna)", "Uso: compra [OPZIONI]",
                           "`compra` non prende parole: il giocatore di turno compra"]),
    ("buy Anna", "en", ["Got unexpected extra argument (Anna)", "buy [OPTIONS]",
                        "`buy` takes no words: the current player buys"]),
    ("claim Anna 26", "en", ["Got unexpected extra argument (26)", "claim [OPTIONS] OWNER",
                             "`claim OWNER` takes no amount"]),
    ("riscuoti", "it", ["Argomento mancante 'PROPRIETARIO'", "riscuoti [OPZIONI] PROPRIETARIO"]),
    ("bid Anna", "en", ["Missing argument 'AMOUNT'", "bid [OPTIONS] BIDDER AMOUNT"]),
    ("tira 1 2 --giocatore", "it", ["L'opzione '--giocatore' richiede un argomento",
                                    "tira [OPZIONI] D1 D2 [S]"]),
]


@pytest.fixture
def book(tmp_path):
    with banco.open(str(tmp_path / "g.db"), create=True) as b:
        b.new(["Anna", "Bruno"])
        yield b


@pytest.mark.parametrize("line,lang,words", LINES)
def test_the_library_says_a_line_s_shape_as_the_command_line_does(book, line, lang, words):
    seq = book.table(1).seq
    out = book.execute(line, game=1, lang=lang)
    assert out.refusal is not None and out.refusal.code == 2 and book.table(1).seq == seq
    said = out.say(lang)
    for text in words:
        assert text in said, said
    assert said.startswith("errore: " if lang == "it" else "error: ")
    assert f"`{line}`" in said.splitlines()[0]  # the line it refuses, on the first line


@pytest.mark.parametrize("line,lang,words", LINES)
def test_the_shell_says_the_same_words_with_its_own_advice(book, line, lang, words):
    said = CliRunner().invoke(cli, ["--db", book.db, "--lang", lang, "shell"],
                              input=line + "\n").output
    for text in words:
        assert text in said, said
    assert ("`aiuto " if lang == "it" else "`help ") in said  # the shell's own advice


def test_a_phone_s_line_gets_the_same_words(db):
    from banco.cli.web.app import Hub
    from banco.ledger.store import tokens

    banker = tokens.issue(db, "banker", 1, phones_tables.NOW)[0]
    hub = Hub(db, None, poll=60)
    with make_client(hub) as c:
        for line, lang, words in LINES[:2] + LINES[3:4]:
            r = c.post(f"/api/commands?lang={lang}", json={"line": line}, headers=auth(banker))
            assert r.status_code == 400, r.json()
            for text in words:  # a phone quotes a line in its language's marks, not backticks
                quoted = re.sub(r"`([^`]*)`", "«\\1»" if lang == "it" else "“\\1”", text)
                assert quoted in r.json()["errors"], (line, r.json())
    hub.close()
