"""The wording faults a trial of the evening found (issue 31 item 4), each in both languages."""

from __future__ import annotations

import pytest

from banco.ledger.base.text import cited


@pytest.mark.parametrize("lang,refused", [
    ("en", "refused: the classic rules roll two dice; a third die, the Speedy die, is the "
           "championship's (000 §SVOLGIMENTO 3; 004 §Svolgimento del gioco)\n"),
    ("it", "non ammesso: le regole classiche tirano due dadi; un terzo dado, il dado Speedy, è "
           "del campionato (000 §SVOLGIMENTO 3; 004 §Svolgimento del gioco)\n"),
])
def test_a_refusal_cites_its_rules_in_one_bracket(banco, lang, refused):
    """`roll 1 2 3` at a classic table said `(000 §SVOLGIMENTO 3) (004 §Svolgimento del
    gioco)`: the words' own citation and the refusal's rule, each in its own bracket."""
    banco("new", "Anna", "Bruno")
    out = banco("--lang", lang, "roll", "1", "2", "3", code=1).output
    assert out.startswith(refused), out


def test_a_rule_joins_only_a_citation_and_is_cited_once():
    assert cited("a (000 FAQ 7)", "004 §Prigione") == "a (000 FAQ 7; 004 §Prigione)"
    # a bracket of words is no citation: the rule gets its own
    assert cited("buildings (Vicolo Corto)", "000 §IPOTECHE") == \
        "buildings (Vicolo Corto) (000 §IPOTECHE)"
    assert cited("as 000 FAQ 7 says", "000 FAQ 7") == "as 000 FAQ 7 says"
    assert cited("no rule", "") == "no rule"


def shell(banco, *lines, lang="en"):
    """What `banco shell` says to `lines` typed (stdout and stderr, as the banker sees them)."""
    from click.testing import CliRunner

    from banco.cli.main import cli

    result = CliRunner().invoke(cli, ["--db", banco.db, "--lang", lang, "shell"],
                                input="".join(line + "\n" for line in lines))
    return result.output


@pytest.mark.parametrize("lang,word,usage", [("en", "ruling", "Usage: ruling "),
                                             ("it", "decisione", "Uso: decisione ")])
def test_a_group_without_its_word_gives_its_usage_once(banco, lang, word, usage):
    """`ruling` alone in the shell printed its help behind `error:`, then its usage line again
    under it; the command line prints the help once."""
    banco("new", "Anna", "Bruno")
    said = shell(banco, word, lang=lang)
    assert said.count(usage) == 1 and "banco ruling" not in said, said
    assert "error" not in said and "errore" not in said
    line = banco("--lang", lang, word, code=2).output
    assert line.count(usage.split()[0]) == 1  # `Usage: cli ruling ...`, once


@pytest.mark.parametrize("lang", ["en", "it"])
def test_every_amount_in_the_prompt_carries_the_currency(lang):
    """The Italian prompt said `Anna può chiedere 4`: an amount without its M reads as a
    count.  Each amount the prompt can show, in either language, as the edition prints it."""
    from helpers import debt, new_table

    from banco.cli.words import i18n
    from banco.cli.words.waiting import prompt_text
    from banco.ledger.table.state import Auction, Claim

    t = new_table(("Anna", "Bruno", "Carla"))
    auction = t._replace(auction=Auction(property=3, min_bid=1, step=1),
                         turn=t.turn._replace(phase="auction"))
    lead = auction._replace(auction=auction.auction._replace(high_bidder="Bruno", high_bid=120))
    claim = t._replace(claims=(Claim(payer="Carla", owner="Anna", property=39, amount=4,
                                     opened_seq=5, closer="Bruno", basis="unbuilt lot"),))
    with i18n.in_language(lang):
        prompts = [prompt_text(s) for s in (auction, lead, debt(t, "Carla", "Anna", 300), claim)]
    assert [p.rstrip("> )").rsplit(" ", 2)[1:] for p in prompts] == [
        ["1", "M"], ["120", "M"], ["300", "M"], ["4", "M"]], prompts


def _cash(state, **cash):
    return state._replace(players=tuple(p._replace(cash=cash.get(p.name, p.cash))
                                        for p in state.players))


@pytest.mark.parametrize("lang,said", [
    ("en", ["Anna gives 4 M back to Bruno"]),
    ("it", ["Anna restituisce 4 M a Bruno"]),
])
def test_an_undo_says_one_line_per_transfer(lang, said):
    """An undone rent said `Anna gives back 4 M; Bruno gets back 4 M`: one movement, told
    from both sides.  One line a transfer; a card's `from each player` one line a payer; money
    to or from the Bank, the player's line alone."""
    from helpers import new_table

    from banco.cli.words import i18n
    from banco.cli.words.undo_text import taken_back

    table = new_table(("Anna", "Bruno", "Carla"))
    with i18n.in_language(lang):
        assert taken_back(_cash(table, Anna=1504, Bruno=1496), table) == said
    each = taken_back(_cash(table, Anna=1520, Bruno=1490, Carla=1490), table)
    assert each == ["Anna gives 10 M back to Bruno", "Anna gives 10 M back to Carla"]
    assert taken_back(_cash(table, Anna=1440), table) == ["Anna gets back 60 M"]
    # a trade's cash and a fee to the Bank: no transfer between them is made up
    assert taken_back(_cash(table, Anna=1400, Bruno=1590), table) == [
        "Bruno gives back 90 M", "Anna gets back 100 M"]


def test_a_rule_set_is_named_from_one_table_in_both_languages():
    """The Italian TV said `classiche` (how a message says the rule set after `regole`) where
    the rule set's name stands alone.  Both forms come from one table, for every built-in
    rule set, in both languages; the pages name it from there."""
    from banco.cli.web.words import words
    from banco.cli.words import i18n
    from banco.ledger.base.text import render
    from banco.ledger.board.rule_sets import BUILTIN, NAMES, named, said

    assert set(NAMES) == set(BUILTIN)
    it, en = i18n.catalog("it"), i18n.catalog("en")
    names = {n: render(named(n), it) for n in BUILTIN}
    assert names == {"classic": "classico", "quick": "regole rapide", "championship": "campionato",
                     "vintage": "vintage", "euro": "euro", "short": "gioco breve",
                     "timed": "gioco con limite di tempo"}
    assert render(said("classic"), it) == "classiche"  # `le regole classiche`
    assert {n: render(named(n), en) for n in BUILTIN} == {n: n for n in BUILTIN}
    assert words(it)["rules_classic"] == "classico" and words(en)["rules_short"] == "short"
    assert named("house.toml") == "house.toml"  # a house file's as its file names it


def test_a_hint_is_said_for_the_door_it_is_said_at():
    """`banco new ...` on the command line, `new ...` in the shell, for a word the shell
    takes; a word it does not take (`serve`), an option, a placeholder keep `banco`."""
    from banco.cli.banker.shell import words
    from banco.cli.words import i18n

    shell = frozenset(words())
    said = "`banco new PLAYER PLAYER ...`; `banco nuova X`, `banco serve`, `banco --db F shell`"
    assert i18n.for_door(said) == said  # no door: the command line's
    assert i18n.for_door(said, shell) == ("`new PLAYER PLAYER ...`; `nuova X`, `banco serve`, "
                                          "`banco --db F shell`")
    with i18n.at_door(shell):
        for lang in i18n.LANGUAGES:
            tr = i18n.catalog(lang)
            # a word given as a parameter is said for the door once filled
            assert "`banco " not in tr.gettext("; `banco {command} --help` lists them").format(
                command="tournament")
    assert "`banco tournament" in i18n.catalog("en").gettext(
        "; `banco {command} --help` lists them").format(command="tournament")


@pytest.mark.parametrize("lang,hint", [("en", "`{}new PLAYER PLAYER ...` starts a game"),
                                       ("it", "`{}nuova GIOCATORE GIOCATORE ...` inizia")])
def test_the_shell_s_hints_name_its_words_without_banco(tmp_path, lang, hint):
    """The trial's shell said "`banco new ...`" for a line it takes as `new ...`."""
    from click.testing import CliRunner

    from banco.cli.main import cli

    db = str(tmp_path / "none.db")
    runner = CliRunner()
    inside = runner.invoke(cli, ["--db", db, "--lang", lang, "shell"], input="games\n").output
    outside = runner.invoke(cli, ["--db", db, "--lang", lang, "games"]).output
    # (but the one line to run after leaving it: `banco --db FILE shell`, for another file)
    assert hint.format("") in inside and "`banco " not in inside.split("\n", 1)[1].replace(
        "`banco --db FILE shell`", ""), inside
    assert hint.format("banco ") in outside, outside


def test_every_hint_to_type_passes_through_the_catalogs():
    """The door is said in one place, the catalogs: a literal with "`banco " that is no
    catalog message would reach the shell as the command line writes it."""
    import ast
    from pathlib import Path

    from babel.messages.pofile import read_po

    root = Path(__file__).resolve().parents[1]
    with open(root / "cli/words/locale/en/LC_MESSAGES/banco.po", "rb") as f:
        ids = [m.id if isinstance(m.id, str) else " ".join(m.id) for m in read_po(f) if m.id]
    found = []
    for package in ("cli", "ledger", "projections"):
        for path in sorted((root / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            docs = {id(n.body[0].value) for n in ast.walk(tree)
                    if isinstance(n, (ast.FunctionDef, ast.ClassDef, ast.Module)) and n.body
                    and isinstance(n.body[0], ast.Expr)}
            for node in ast.walk(tree):
                if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                        and "`banco " in node.value and id(node) not in docs \
                        and "([" not in node.value \
                        and not any(node.value.strip() in i for i in ids):
                    found.append(f"{path.relative_to(root)}:{node.lineno}")
    assert found == []


def test_a_help_said_in_the_shell_and_then_on_the_command_line_names_each_door(banco):
    """A command's help is put in the language once and kept (cli/words/click_words.py):
    kept per door too, or the command line's help would say `keygen` after the shell's."""
    banco("new", "Anna", "Bruno")
    assert "(`keygen`)" in shell(banco, "help seal")
    assert "(`banco keygen`)" in banco("seal", "--help").output
    assert "(`keygen`)" in shell(banco, "help seal")


def test_the_games_list_names_the_rule_set_in_italian(banco):
    """`partite` listed `classiche` (the words after `regole`) in its column of names."""
    banco("new", "Anna", "Bruno")
    said = banco("--lang", "it", "games").output.splitlines()[1]
    assert "classico" in said and "classiche" not in said
    assert "classic " in banco("games").output.splitlines()[1]


class _Hinting:
    """An Outcome (cli/library.py's) whose words hint at two lines: one a phone's field runs
    (`claim`), one only the terminal runs (`cards`); `inside` runs once its door is set."""

    refusal = None

    def __init__(self, inside=lambda: None):
        self.inside = inside

    def lines(self, lang):
        from banco.cli.words import i18n

        self.inside()
        with i18n.in_language(lang):
            return [(True, i18n._("ask with `banco {word} Anna`; `banco cards {deck}` lists "
                                  "them").format(word="claim", deck="imprevisti"))]


def test_a_phone_s_answer_names_its_field_s_words_without_banco():
    """The phones' answers said "`banco WORD ...`" for a line typed into the phone's field;
    a word the field does not run (`cards`: "run it at the terminal") is no hint there and is
    left out; a phone names a line in quotes, never in a terminal's backticks."""
    from banco.cli.web.answers import said

    # `cards`, which the field does not run, is no hint a phone can act on: left out
    assert said(_Hinting(), "en")["errors"] == "ask with “claim Anna”\n"


def test_each_door_is_its_caller_s_alone():
    """A phone's request, a shell and a command line saying the same words at once, each in
    a thread of its own: none sees another's door (a context variable, no process-wide
    state)."""
    import threading

    from banco.cli.banker.shell import words
    from banco.cli.web.answers import said
    from banco.cli.words import i18n

    together = threading.Barrier(3, timeout=30)  # all three inside their doors at once
    got = {}

    def phone():
        got["phone"] = said(_Hinting(together.wait), "en")["errors"]

    def shell():
        with i18n.at_door(words()):
            got["shell"] = _Hinting(together.wait).lines("en")[0][1]

    def command_line():
        got["cli"] = _Hinting(together.wait).lines("en")[0][1]

    threads = [threading.Thread(target=f) for f in (phone, shell, command_line)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == {"phone": "ask with “claim Anna”\n",
                   "shell": "ask with `claim Anna`; `cards imprevisti` lists them",
                   "cli": "ask with `banco claim Anna`; `banco cards imprevisti` lists them"}
