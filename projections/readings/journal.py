"""The game's money as a journal an accounting tool reads: one row per money movement, in the
columns of hledger's CSV import (date, code, account, counterparty, amount, balance,
description).

Each movement is one row, from the receiving account's side: `account` received `amount`
from `counterparty`, and `balance` is `account`'s balance after it (a player's cash; the
Bank's account starts at 0 and goes negative as it pays out, as `statement bank` shows).  A
movement an undo took back is not in the books, so it is not here either.  The rows come as
the events do (`gone`: the seqs undos took back, as for `accounts.statement`): a long game's
journal is written as it is read.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from banco.ledger.records.events import transfers_of
from banco.ledger.records.reasons import english
from banco.projections.readings.accounts import effective


def money_rows(events: Iterable[dict], gone: set[int] | None = None,
               edition=None) -> Iterator[dict]:
    """`edition`: the game's, which names the squares a reason holds; else the one the
    game's first fact names."""
    balances: dict[str, int] = {}
    for e in effective(events, gone):
        if e["type"] == "GameStarted" and edition is None:
            from banco.ledger.board.edition import load_edition

            edition = load_edition(e["data"]["edition"])
        for t in transfers_of(e):
            payer, payee, amount = t["payer"], t["payee"], t["amount"]
            balances[payer] = balances.get(payer, 0) - amount
            balances[payee] = balances.get(payee, 0) + amount
            yield {"date": e["recorded_at"][:10], "seq": e["seq"], "account": payee,
                   "counterparty": payer, "amount": amount, "balance": balances[payee],
                   "description": f"{english(t['reason'], edition)} ({e['type']})"}
