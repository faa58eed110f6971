"""The referee's readings say what decided a ruling and cite the game's own rulebook: a deed
nobody bid for (000 FAQ 22) with the cash behind "the richest", a debt under championship rules
(000 §MANCANZA DI FONDI, not classic's 003 §10)."""

import json

import pytest


def doc(result):
    return json.loads(result.output)


@pytest.fixture
def no_bid(banco):
    """Bruno declines Via Accademia and nobody bids: Bruno, with 1500 M to Anna's 1440 M,
    takes it at the opening price (000 FAQ 22)."""
    banco("new", "Anna", "Bruno")
    banco("roll", "1", "2")  # Anna: Vicolo Stretto, 60
    banco("buy")
    banco("roll", "6", "5")  # Bruno: Via Accademia
    banco("decline")
    banco("hammer")
    return banco


def _seq(banco, kind):
    return next(e["seq"] for e in doc(banco("log", "--json")) if e["type"] == kind)


def test_a_ruling_on_a_deed_nobody_bid_for_shows_the_cash_that_made_the_richest(no_bid):
    won = _seq(no_bid, "AuctionWon")
    out = no_bid("ruling", "auction", str(won)).output
    assert ("cash when the hammer fell (nobody bid: the player with the most cash takes it, "
            "000 FAQ 22): Bruno 1500 M, Anna 1440 M") in out
    assert ("verdict: no bid: Bruno, the player with the most cash (1500 M), took it at the "
            "opening price 1 M") in out
    facts = doc(no_bid("ruling", "auction", str(won), "--json"))["facts"]
    assert facts["auctions"][0]["cash_at_hammer"] == {"Bruno": 1500, "Anna": 1440}
    it = no_bid("--lang", "it", "ruling", "auction", str(won)).output
    assert "Bruno 1500 M, Anna 1440 M" in it and "cash when" not in it


def test_history_says_a_deed_nobody_bid_for_was_given_not_won(no_bid):
    notes = [r["note"] for r in doc(no_bid("history", "via accademia", "--json"))]
    assert notes == ["Bruno declined it",
                     "nobody bid: the deed went to Bruno, the player with the most cash, at the "
                     "opening price 1 (000 FAQ 22)"]
    # a deed with a bid is still won at auction, though the bid is the opening price
    no_bid("roll", "2", "3")  # Anna: Viale Monterosa
    no_bid("decline")
    no_bid("bid", "Anna", "1")
    no_bid("hammer")
    notes = [r["note"] for r in doc(no_bid("history", "viale monterosa", "--json"))]
    assert notes == ["Anna declined it", "Anna won it at auction for 1"]


def test_a_ruling_on_a_tie_for_the_most_cash_names_the_tied(banco):
    banco("new", "Anna", "Bruno", "Carla")
    banco("roll", "6", "5")  # Anna: Via Accademia
    banco("decline")
    banco("hammer", "Carla")  # all three have 1500 M: the banker says who
    won = _seq(banco, "AuctionWon")
    out = banco("ruling", "auction", str(won)).output
    assert ("verdict: no bid: Carla took it at the opening price 1 M, the banker choosing among "
            "the richest (Anna, Bruno, Carla, 1500 M each)") in out
