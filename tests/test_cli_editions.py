"""Every edition through the command line: `new --edition`, the board's header, the cards,
and a US Chance card that waits for a fresh throw."""

import os

import pytest

from banco.ledger.board.edition import EDITIONS, load_edition

# The rule set whose money fits each board (a built-in set on another board is refused).
FITS = {"it-lire": "vintage", "it-euro": "euro"}


@pytest.mark.parametrize("edition", EDITIONS)
def test_new_accepts_every_edition_and_board_prints_its_header(banco, edition):
    out = banco("new", "Anna", "Bruno", "--edition", edition, "--rules",
                FITS.get(edition, "classic")).output
    assert f"edition {edition}" in out
    e = load_edition(edition)
    lines = banco("board").output.splitlines()
    assert lines[0] == f"{e.title} ({edition})" and lines[1] == e.notes
    assert len(lines) == 2 + 1 + 40 + 1  # title, notes, column header, spaces, footer
    # the kind column is wider than every kind: "go_to_jailstraight to Prigione" ran together
    details_at = lines[2].index("details")
    for line in lines[3:43]:
        assert line[details_at - 2:details_at] == "  " or len(line.rstrip()) <= details_at, line
    assert banco("cards").output.count("\n") == sum(len(d.cards) for d in e.decks.values())


@pytest.mark.parametrize("edition", ["it-lire", "us"])
def test_the_board_says_every_amount_with_its_currency(banco, edition):
    """`board` on the lire edition printed `price 6000  mortgage 3000  rents [200, ...]`
    bare, the only reading without the currency (the last trial)."""
    import re

    banco("new", "Anna", "Bruno", "--edition", edition, "--rules", FITS.get(edition, "classic"))
    e = load_edition(edition)
    digits, cur = f"[\\d{re.escape(e.thousands)}]+", re.escape(e.currency)
    amount = re.compile(f"{cur}{digits}" if e.currency_first else f"{digits} {cur}")
    out = banco("board").output
    for line in out.splitlines()[3:43]:
        # what is left of a line, the position, its amounts and a utility's dice multiples
        # aside, holds no number: none is said bare
        said = re.sub(r"\d+x dice", "", amount.sub("", line[5:]))
        assert not re.search(r"\d", said), line
    if edition == "it-lire":
        assert "price  6.000 £  mortgage  3.000 £  rents 200 £, 1.000 £" in out
        assert "house 5.000 £" in out


def test_an_unknown_edition_lists_them_and_suggests_one(banco):
    err = banco("new", "Anna", "Bruno", "--edition", "it-lira", code=2).output
    assert "unknown edition 'it-lira' (did you mean 'it-lire'?)" in err
    assert "available: it, it-lire, it-euro, disney, us" in err
    assert not os.path.exists(banco.db)  # nothing was written, not even the file


def test_the_nearest_utility_card_waits_for_the_throw(banco):
    banco("new", "Bob", "Ann", "--edition", "us")
    for line in (("roll", "6", "6"), ("buy",), ("roll", "1", "2"), ("decline",), ("hammer",),
                 ("roll", "3", "4")):
        banco(*line)
    out = banco("card", "chance", "7").output
    assert "Bob owns Electric Company: Ann throws the dice again" in out
    refused = banco("card", "chance", "8", code=1).output
    assert "`roll D1 D2`" in refused
    out = banco("roll", "5", "6").output
    assert "Ann throws 5+6 = 11 for the rent" in out
    assert "Bob may claim $110 rent on Electric Company" in out
    assert "Ann pays $110 to Bob" in banco("claim", "Bob").output


def test_disney_cards_by_deck_title(banco):
    banco("new", "Anna", "Bruno", "--edition", "disney")
    out = banco("cards", "momenti").output
    assert "Hai sconfitto Malefica. Ottieni 100 unità." in out
    assert "Robin Hood ti aiuta a scappare" in banco("cards", "show time").output
    assert out.splitlines()[0].startswith("Momenti Magici")  # the deck's title, not its key


def test_cards_say_the_decks_title_with_its_accent(banco):
    banco("new", "Anna", "Bruno")
    lines = banco("cards", "probabilità").output.splitlines()
    assert lines[0].split()[:2] == ["Probabilità", "1"] and len(lines) == 16, lines[:2]
    assert banco("cards", "--json").output.count('"deck": "probabilita"') == 16  # the key


def test_new_refuses_a_built_in_rule_set_on_a_board_it_does_not_fit(banco):
    # Every salary would be wrong: 200 £ for passing Via! on the lire board.  Nothing written.
    err = banco("new", "Anna", "Bruno", "--edition", "it-lire", code=2).output
    assert "go_salary is 200 £ in the classic rules but 20.000 £ on the it-lire board" in err
    assert "--rules vintage" in err and not os.path.exists(banco.db)
    err = banco("new", "Anna", "Bruno", "--rules", "vintage", "--edition", "it", code=2).output
    assert "the vintage rules do not fit the it board" in err and "--edition it-lire" in err
    assert "warning" not in banco("new", "Anna", "Bruno", "--edition", "us").output


def test_new_only_warns_when_a_house_rules_file_does_not_fit_the_board(banco, tmp_path):
    # A house-rules file is the table's own choice: recorded, with the warning.
    house = tmp_path / "lire.toml"
    house.write_text('extends = "classic"\nstarting_cash = 150000\n', encoding="utf-8")
    out = banco("new", "Anna", "Bruno", "--rules", str(house), "--edition", "it-lire").output
    assert "warning: go_salary is 200 £ in the lire rules but 20.000 £ on the it-lire board" in out
    assert "game 1" in out
