"""The referee's readings say what decided a ruling and cite the game's own rulebook: a deed
nobody bid for (000 FAQ 22) with the cash behind "the richest", a debt under championship rules
(000 §MANCANZA DI FONDI, not classic's 003 §10)."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner


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
                     "opening price 1 M (000 FAQ 22)"]
    # a deed with a bid is still won at auction, though the bid is the opening price
    no_bid("roll", "2", "3")  # Anna: Viale Monterosa
    no_bid("decline")
    no_bid("bid", "Anna", "1")
    no_bid("hammer")
    notes = [r["note"] for r in doc(no_bid("history", "viale monterosa", "--json"))]
    assert notes == ["Anna declined it", "Anna won it at auction for 1 M"]


def test_a_ruling_on_a_tie_for_the_most_cash_names_the_tied(banco):
    banco("new", "Anna", "Bruno", "Carla")
    banco("roll", "6", "5")  # Anna: Via Accademia
    banco("decline")
    banco("hammer", "Carla")  # all three have 1500 M: the banker says who
    won = _seq(banco, "AuctionWon")
    out = banco("ruling", "auction", str(won)).output
    assert ("verdict: no bid: Carla took it at the opening price 1 M, the banker choosing among "
            "the richest (Anna, Bruno, Carla, 1500 M each)") in out


FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def _played(tmp_path_factory, name):
    """fixtures/NAME.banco played into a fresh file: `call(*args)` reads its game."""
    from banco.cli.main import cli

    db = str(tmp_path_factory.mktemp(name) / "g.db")
    runner = CliRunner()
    played = runner.invoke(cli, ["--db", db, "run", "-q", str(FIXTURES / f"{name}.banco")])
    assert played.exit_code == 0, played.output

    def call(*args):
        result = runner.invoke(cli, ["--db", db, "--game", "1", *args], catch_exceptions=False)
        assert result.exit_code == 0, (args, result.output)
        return result.output

    events = json.loads(call("log", "--json"))
    call.first = lambda kind, where=lambda d: True: next(
        e["seq"] for e in events if e["type"] == kind and where(e["data"]))
    return call


@pytest.fixture(scope="module")
def championship(tmp_path_factory):
    return _played(tmp_path_factory, "championship-4p")


def test_a_championship_rent_debt_cites_000_not_classics_003(championship):
    """A rent owed as a debt under the championship rules: 000 §SVOLGIMENTO 5 and §MANCANZA DI
    FONDI say it (the rule set's `debt` citation), not 003 §10 of the classic card."""
    debt = championship.first("DebtIncurred", lambda d: d["reason"]["code"] == "rent")
    out = championship("ruling", "rent", str(debt))
    assert (f"owes it as a debt (event {debt}, 000 §SVOLGIMENTO 5; 000 §MANCANZA DI FONDI)"
            in out)
    assert out.rstrip().endswith("rule: 000 §PAGARE LA RENDITA; 000 FAQ 7-8; 000 §SVOLGIMENTO 5; "
                                 "000 §MANCANZA DI FONDI")
    assert "003 §10" not in out


def test_championship_rulings_cite_the_championship_rulebook(championship):
    """The auction (a declined deed: 000 §ASTE), the jail (000 §PRIGIONE, a debt per 000) and
    the bankruptcy (000 §BANCAROTTA, the 10% fee per 000 §IPOTECHE) rulings cite 000 where it
    says the same as the classic rulebooks."""
    nobody = championship.first("AuctionWon", lambda d: d["reason"].get("rule") == "000 FAQ 22")
    out = championship("ruling", "auction", str(nobody))
    assert "declined to buy it: the Bank auctions it at once (000 §ASTE)" in out
    assert out.rstrip().endswith("rule: 000 FAQ 22; 000 §ASTE")
    jailed = championship.first("SentToJail")
    out = championship("ruling", "jail", str(jailed))
    assert ("before moving by that roll (000 §PRIGIONE; short of cash, a debt settled first, "
            "000 §SVOLGIMENTO 5; 000 §MANCANZA DI FONDI)") in " ".join(out.split())
    assert out.rstrip().endswith("rule: 000 §PRIGIONE")
    bankrupt = championship.first("BankruptcyDeclared")
    out = championship("ruling", "bankruptcy", str(bankrupt))
    assert out.rstrip().endswith("rule: 000 §BANCAROTTA; 000 §IPOTECHE; 000 FAQ 33")


def test_classic_rulings_keep_the_classic_citations(no_bid):
    """The same rulings under the classic rules cite 003 and 004 as before."""
    won = _seq(no_bid, "AuctionWon")
    out = no_bid("ruling", "auction", str(won)).output
    assert "declined to buy it: the Bank auctions it at once (003 §02)" in out
    assert out.rstrip().endswith("rule: 000 FAQ 22; 004 §Acquisto di proprietà; 003 §03")


def test_a_vintage_bankrupts_deeds_are_auctioned_per_002(tmp_path_factory):
    """Vintage: the Bank takes the estate and auctions the deeds (002 §Fallimento), which the
    auction and bankruptcy rulings cite, not 003 §10."""
    vintage = _played(tmp_path_factory, "vintage-to-a-bankruptcy")
    bankrupt = vintage.first("BankruptcyDeclared")
    opened = vintage.first("AuctionOpened", lambda d: d["property"] == 5)  # Stazione Sud
    assert opened > bankrupt
    out = vintage("ruling", "auction", str(opened))
    assert "their deeds are auctioned one by one (002 §Fallimento)" in out
    assert out.rstrip().endswith("rule: 002 §Fallimento; 002 §Fermata su proprietà libera")
    out = vintage("ruling", "bankruptcy", str(bankrupt))
    assert "the Bank auctions the deeds one by one, first Stazione Sud (002 §Fallimento)" in out
    assert "003 §10;" in out and out.rstrip().endswith("002 §Fallimento")
