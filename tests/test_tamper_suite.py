"""The tamper suite (issue 19): each kind of row banco keeps, changed as an attacker with the
file and sqlite3 can (triggers dropped, the chain recomputed where there is one), and what
`banco audit` names.  What only a seal or a printed head can prove (a whole game rewritten
consistently) is README's "Integrity"; the damaged file is tests/test_integrity.py's."""

from __future__ import annotations

import json
import sqlite3

import pytest
from click.testing import CliRunner
from forge import drop_triggers, rechain_stored

from cli.main import cli
from ledger.book import Book
from ledger.records import commands as c
from projections.audit.audit import audit

NOW = "2026-11-29T10:00:00.000000Z"
ENV = {"BANCO_FIXED_TIME": "2026-11-29T21:00:00Z"}


@pytest.fixture
def traded(tmp_path):
    """Anna buys Vicolo Stretto and sells it to Bruno for 100 (event 14, TradeCompleted)."""
    db = str(tmp_path / "t.db")
    book = Book(db)
    g = book.new_game(["Anna", "Bruno", "Carla"], now=NOW)
    for cmd in (c.Roll((1, 2)), c.Buy(), c.Trade("Anna", "Bruno", c.Items(properties=(3,)),
                                                 c.Items(cash=100)), c.Roll((2, 1))):
        book.execute(g, cmd, now=NOW)
    book.close()
    return db


def edit_rechained(db: str, seq: int, data: dict) -> None:
    conn = sqlite3.connect(db)
    drop_triggers(conn)
    conn.execute("UPDATE events SET data=? WHERE game_id=1 AND seq=?",
                 (json.dumps(data, sort_keys=True, separators=(",", ":")), seq))
    head = rechain_stored(conn, 1)
    conn.execute("UPDATE games SET head=? WHERE game_id=1", (head,))
    conn.commit()
    conn.close()


def test_a_trade_s_cash_rewritten_and_rechained_is_not_what_the_command_gives(traded):
    """The books still balance (one transfer, both sides changed): only the re-derivation of
    the `trade` command from its CommandRecorded can tell."""
    book = Book(traded)
    (trade,) = [e for e in book.store.read(1) if e["type"] == "TradeCompleted"]
    book.close()
    data = trade["data"]
    data["b_gives"]["cash"] = 150
    data["transfers"][0]["amount"] = 150
    edit_rechained(traded, trade["seq"], data)
    book = Book(traded)
    report = audit(1, book.store.read(1))
    book.close()
    assert not report.ok and report.bad_seq == trade["seq"]
    assert report.problem.startswith("not what the command (event 13) gives here: "
                                     "TradeCompleted has b_gives")
    result = CliRunner().invoke(cli, ["--db", traded, "audit", "--json"], env=ENV)
    assert result.exit_code == 3
    (game,) = json.loads(result.output)["games"]
    assert game["game"] == 1
    assert game["bad_seq"] == trade["seq"] and "gives here" in game["problem"]
