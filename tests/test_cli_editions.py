"""Every edition through the command line: `new --edition`, the board's header, the cards,
and a US Chance card that waits for a fresh throw."""

import os

import pytest

from ledger.edition import EDITIONS, load_edition


@pytest.mark.parametrize("edition", EDITIONS)
def test_new_accepts_every_edition_and_board_prints_its_header(banco, edition):
    out = banco("new", "Anna", "Bruno", "--edition", edition).output
    assert f"edition {edition}" in out
    e = load_edition(edition)
    lines = banco("board").output.splitlines()
    assert lines[0] == f"{e.title} ({edition})" and lines[1] == e.notes
    assert len(lines) == 2 + 1 + 40 + 1  # title, notes, column header, spaces, footer
    assert banco("cards").output.count("\n") == sum(len(d.cards) for d in e.decks.values())


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
    assert "Bob may claim 110 $ rent on Electric Company" in out
    assert "Ann pays 110 $ to Bob" in banco("claim", "Bob").output


def test_disney_cards_by_deck_title(banco):
    banco("new", "Anna", "Bruno", "--edition", "disney")
    out = banco("cards", "momenti").output
    assert "Hai sconfitto Malefica. Ottieni 100 unità." in out
    assert "Robin Hood ti aiuta a scappare" in banco("cards", "show time").output


def test_new_warns_when_the_rules_do_not_fit_the_board(banco):
    out = banco("new", "Anna", "Bruno", "--edition", "it-lire").output
    assert "warning: go_salary is 200 £ in the classic rules but 20.000 £ on the it-lire board" in out
    assert "warning" not in banco("new", "Anna", "Bruno", "--edition", "us").output
