"""A deed nobody bid for, said once: with the house rule auction_no_bid = "bank_keeps" the
answer read "no bid for Piazza Dante: nobody bid: the deed stays with the Bank"."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from banco.cli.main import cli


def banco(db: str, *words: str) -> str:
    done = CliRunner().invoke(cli, ["--db", db, *words])
    assert done.exit_code == 0, (words, done.output)
    return done.output


@pytest.mark.parametrize("lang, line", [
    ("en", "  no bid for Vicolo Stretto: the deed stays with the Bank (house rules: "
           "auction_no_bid = bank_keeps)\n"),
    ("it", "  nessuna offerta per Vicolo Stretto: il contratto resta alla Banca (regole della "
           "casa: auction_no_bid = bank_keeps)\n"),
])
def test_a_deed_the_bank_keeps_when_nobody_bids_is_said_once(tmp_path, lang, line):
    house = tmp_path / "house.toml"
    house.write_text('extends = "classic"\nauction_no_bid = "bank_keeps"\n')
    db = str(tmp_path / "t.db")
    banco(db, "new", "Anna", "Bruno", "--rules", str(house))
    banco(db, "roll", "1", "2")
    banco(db, "decline")
    said = banco(db, "--lang", lang, "hammer")
    assert said.startswith(line), said
    assert "nobody bid" not in said and said.count("nessuna offerta") <= 1, said
    # the log's line of the fact says it once too
    logged = banco(db, "--lang", lang, "log").splitlines()
    closed = [t for t in logged if "AuctionClosed" in t]
    assert len(closed) == 1 and line.strip() in closed[0], closed
