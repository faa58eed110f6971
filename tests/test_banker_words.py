"""What a banker trial found in the words typed at the table: each mistake said for what it is,
the short word accepted where it is unambiguous, and each answer ending with what the table
waits for."""

import json

import pytest


@pytest.fixture
def game(banco):
    banco("new", "Anna", "Bruno", "Carla")
    return banco


def events(banco):
    return json.loads(banco("log", "--json").output)


def test_a_die_after_player_is_no_player_and_the_line_meant_is_suggested(game):
    # `roll --player 1 2`: the option took `1` for a name, and the answer was `got 1 die`
    before = events(game)
    out = game("roll", "--player", "1", "2", code=2).output
    assert "no player called '1': --player takes a player's name (Anna, Bruno, Carla)" in out
    assert "did you mean `roll 1 2 --player Anna`?" in out
    assert "got 1 die" not in out
    out = game("roll", "3", "4", "--player", "5", code=2).output
    assert "did you mean `roll 3 4 --player Anna`?" in out
    out = game("--lang", "it", "tira", "--giocatore", "1", "2", code=2).output
    assert "'1'" in out and "`tira 1 2 --giocatore Anna`" in out
    assert events(game) == before



def test_json_before_the_word_is_the_command_s_option(game, tmp_path, capsys):
    # `banco --json state` was `No such option '--json'. Did you mean '--version'?`
    assert json.loads(game("--json", "state").output) == json.loads(game("state", "--json").output)
    assert json.loads(game("--json", "--game", "1", "LOG").output)[0]["seq"] == 1
    out = game("--json", "roll", "1", "2", code=2).output
    assert "`roll` has no --json; --json goes after the word of a reading that has it" in out
    assert "--version" not in out
    out = game("--json", code=2).output
    assert "--json is an option of a reading, after its word: `banco state --json`" in out
    game("roll", "1", "2")
    game("buy")
    game("roll", "1", "2")  # Bruno lands on Anna's Vicolo Stretto: event 16 opens a claim
    ruled = json.loads(game("--json", "ruling", "rent", "16").output)  # a group's word
    assert ruled == json.loads(game("ruling", "rent", "16", "--json").output)
    assert ruled["subject_seq"] == 16
    from banco.cli.execution import execute
    from banco.cli.main import cli
    from banco.cli.session import Session

    session = Session(game.db, None)
    try:  # a line of the shell: a reading prints as it runs (nothing captured)
        capsys.readouterr()
        said = execute(session, "--json state", commands=cli)
        assert said.code == 0 and json.loads(capsys.readouterr().out)["game"] == 1
    finally:
        session.close()


def shell(db, *typed, lang="en"):
    """A shell on `db` fed `typed`; what it said (its own lines, and the lines' output)."""
    import subprocess
    import sys
    from pathlib import Path

    banco = Path(sys.executable).parent / "banco"
    import os

    result = subprocess.run([str(banco), "--db", db, "shell"], input="\n".join(typed) + "\n",
                            capture_output=True, text=True, timeout=60,
                            env={**os.environ, "BANCO_LANG": lang, "BANCO_HISTORY": ""})
    return result.stdout + result.stderr


def test_the_shell_offers_a_unique_suggestion_and_runs_it_on_yes_only(game):
    # `did you mean 'Parco della Vittoria'?` had to be typed again whole
    game("roll", "1", "2")
    game("buy")
    said = shell(game.db, "claim anan", "y", "mortgage vicolo stretto", "rol 1 2", "s")
    assert "`y` and Enter: `claim Anna`" in said
    assert "no rent is owed to Anna" in said  # `y` ran `claim Anna`
    assert "mortgaged Vicolo Stretto" in said  # a line of its own: no offer left
    assert said.count("`y` and Enter") == 2  # `rol` offers `roll 1 2`, and `s` accepts it
    rolled = [e["data"] for e in events(game) if e["type"] == "DiceRolled"]
    assert [r["player"] for r in rolled] == ["Anna", "Bruno"]


def test_the_shell_runs_only_what_the_banker_confirmed(game):
    # a line other than yes drops the offer; several suggestions are no offer
    said = shell(game.db, "rol 1 2", "state", "y", "mortgage vicolo strettto", "y")
    assert said.count("`y` and Enter: `roll 1 2`") == 1
    assert said.count("error: `y` accepts a line the shell offers after a mistake") == 2
    assert not [e for e in events(game) if e["type"] == "DiceRolled"]


def test_the_offer_in_italian_quotes_a_name_with_spaces(game):
    said = shell(game.db, "ipoteca parco della vitoria", "sì", lang="it")
    assert "`s` e Invio: `ipoteca 'Parco della Vittoria'`" in said
    assert "Parco della Vittoria" in said.split("Invio")[1]


def test_no_message_gives_a_player_a_gender():
    """`Carla may claim rent only as himself`: a player's gender is not known to banco, so no
    English message says he, him, his (nor she, her)."""
    import re
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent / "tools"))
    import catalogs

    gendered = re.compile(r"\b(he|him|his|himself|she|her|hers|herself)\b", re.IGNORECASE)
    found = [m.id for m in catalogs.read_po("en") if m.id and gendered.search(
        m.id if isinstance(m.id, str) else " ".join(m.id))]
    assert found == []


def poor(banco, tmp_path, cash, *players):
    rules = tmp_path / "poor.toml"
    rules.write_text(f'extends = "classic"\nstarting_cash = {cash}\n')
    banco("new", *players, "--rules", str(rules))


def test_a_debt_paid_ends_with_whose_roll_it_is(banco, tmp_path):
    # `pay` ended with the payment: the banker had to ask whose roll it was
    poor(banco, tmp_path, 200, "Anna", "Bruno")
    banco("roll", "1", "2")
    banco("buy")  # Vicolo Stretto: 140 M left
    banco("roll", "6", "4")
    banco("roll", "1", "3")  # Imprevisti
    drawn = banco("card", "imprevisti", "12").output  # 150 M
    assert "in debt until `pay`" in drawn
    # "Bruno to roll" alone read as if he could (the last trial): every roll waits for Anna
    assert drawn.splitlines()[-2:] == [
        "Bruno to roll",
        "  Bruno rolls once this debt is settled: Anna owes 150 M to the Bank (Imprevisti 12) "
        "with 140 M in cash: raise 10 M (`sell`, `mortgage`, `trade`), then `pay Anna`"]
    assert "cannot roll" in banco("roll", "2", "3", code=1).output
    banco("mortgage", "vicolo", "stretto")
    out = banco("pay").output
    assert out.splitlines() == ["  Anna pays 150 M to the Bank: Imprevisti 12", "Bruno to roll"]
    banco("undo")
    assert banco("--lang", "it", "paga").output.endswith("tocca a Bruno tirare\n")


def test_a_bankruptcy_ends_with_whose_roll_it_is(banco, tmp_path):
    poor(banco, tmp_path, 150, "Anna", "Bruno", "Carla")
    banco("roll", "1", "3")  # Tassa Patrimoniale: 200 M with 150 M
    out = banco("bankrupt").output
    assert out.splitlines()[-2:] == [
        "Anna is bankrupt to the Bank (owed 200 M, could raise 150 M)", "Bruno to roll"]


def test_an_italian_session_is_offered_italian_words(game):
    # `scambai`/`trad` offered `trade`, the English word, beside the Italian ones
    out = game("--lang", "it", "trad", code=2).output
    assert "intendevi tira o storia o mostra?" in out and "trade" not in out
    out = game("--lang", "it", "stat", code=2).output
    assert "stato" in out and "state" not in out
    assert "intendevi token o torneo?" in game("--lang", "it", "tokne", code=2).output
    said = shell(game.db, "aiuto trad", "tradde", lang="it")
    assert "nessuna parola 'trad': intendevi tira o storia o mostra?" in said
    assert "trade" not in said.replace("'tradde'", "")
    assert "did you mean trade?" in game("trad", code=2).output  # English: English words


def test_tab_lists_a_deck_s_card_numbers_in_their_order(game, tmp_path):
    """Through a pseudo-terminal (tmux): readline listed `1 10 11 ... 16 2 3`, as text."""
    import os
    import shutil
    import subprocess
    import sys
    import time
    import uuid

    if shutil.which("tmux") is None:
        pytest.skip("no tmux")
    game("roll", "1", "1")  # Probabilità
    sock = f"banco-test-{uuid.uuid4().hex[:8]}"
    env = {**os.environ, "BANCO_HISTORY": "", "BANCO_DB": game.db, "TERM": "xterm"}
    tmux = ["tmux", "-L", sock]
    subprocess.run(tmux + ["-f", os.devnull, "new-session", "-d", "-x", "120", "-y", "20",
                           f"{sys.executable} -m cli.main shell; sleep 30"], check=True, env=env)

    def wait_for(text, timeout=15.0):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = subprocess.run(tmux + ["capture-pane", "-p"], capture_output=True,
                                    text=True).stdout
            if text in screen:
                return screen
            time.sleep(0.05)
        raise AssertionError(f"{text!r} never appeared:\n{screen}")

    try:
        wait_for("(card Probabilità)>")
        subprocess.run(tmux + ["send-keys", "card probabilita ", "Tab", "Tab"], check=True)
        screen = wait_for(" 16")
        listed = screen.split("card probabilita", 1)[1].split()
        assert listed[:16] == [str(n) for n in range(1, 17)]
    finally:
        subprocess.run(tmux + ["kill-server"], capture_output=True)


def test_the_list_orders_numbers_by_value_in_columns():
    from banco.cli.banker.completion import in_order, listing

    assert in_order(["1", "10", "11", "2", "9"]) == ["1", "2", "9", "10", "11"]
    assert in_order(["Bruno", "anna"]) == ["anna", "Bruno"]
    assert listing([str(n) for n in range(1, 17)], 16).splitlines() == [
        "1   5   9   13", "2   6   10  14", "3   7   11  15", "4   8   12  16"]


def test_the_shell_offers_the_line_an_error_names_whole(game):
    # `roll 12`: `did you mean roll 1 2?`, to be typed again; so `roll --player 1 2`
    said = shell(game.db, "roll 12", "y", "decline", "bid 50 bruno", "y", "hammer",
                 "roll --player 1 2", "", "roll --player 1 2", "sì")
    assert "`y` and Enter: `roll 1 2`" in said and "Anna rolls 1+2 = 3" in said
    assert "`y` and Enter: `bid bruno 50`" in said and "Bruno bids 50 M" in said
    assert said.count("`y` and Enter: `roll 1 2 --player Bruno`") == 2  # Enter alone: no
    rolled = [e["data"] for e in events(game) if e["type"] == "DiceRolled"]
    assert [(r["player"], r["dice"]) for r in rolled] == [("Anna", [1, 2]), ("Bruno", [1, 2])]
