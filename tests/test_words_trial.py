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
    assert names == {"classic": "classico", "quick": "quick", "championship": "campionato",
                     "vintage": "vintage", "euro": "euro", "short": "gioco breve",
                     "timed": "gioco con limite di tempo"}
    assert render(said("classic"), it) == "classiche"  # `le regole classiche`
    assert {n: render(named(n), en) for n in BUILTIN} == {n: n for n in BUILTIN}
    assert words(it)["rules_classic"] == "classico" and words(en)["rules_short"] == "short"
    assert named("house.toml") == "house.toml"  # a house file's as its file names it
