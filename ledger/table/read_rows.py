"""The read model's rows for events (issue 21): what `statement`, `history` and `log --player`
look up instead of reading the whole log, kept by the store beside it (ledger/store/read_model.py).

Two kinds of row, per event, worked out from the event alone (never from the table, so the
rows of a game are a pure function of its log and `doctor` can rebuild and check them):

- a money movement: (seq, n, payer, payee, amount, reason, type), one per transfer, `n` its
  place among the event's transfers (`statement` is these rows of one account, in order);
- a mention: (subject, seq), `p:NAME` for every player named anywhere in the event's data,
  `bank` for an event that moves the Bank's money, `d:POSITION` for every deed the event
  names (a `property` field, a `properties` list, at any depth: purchases, trades, mortgages,
  buildings, bankruptcies).  A mention is a superset: the reading applies its own exact test
  to the rows it gets, so the answer is the one a pass over the whole log gives.

An undo changes no row: the readings leave out the seqs retractions take back, as they do
reading the log.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from banco.ledger.records.events import transfers_of
from banco.ledger.records.reasons import as_text
from banco.ledger.store.protocol import ReadRows

BANK = "bank"


def _walk(value: Any, key: str | None, players: set[str], deeds: set[int]) -> None:
    if isinstance(value, dict):
        for k, v in value.items():
            _walk(v, k, players, deeds)
    elif isinstance(value, list):
        for v in value:
            if key == "properties" and isinstance(v, int) and not isinstance(v, bool):
                deeds.add(v)
            else:
                _walk(v, key, players, deeds)
    elif isinstance(value, str):
        if value != BANK:
            players.add(value)
    elif key == "property" and isinstance(value, int) and not isinstance(value, bool):
        deeds.add(value)


def read_rows(events: Iterable[dict], names: Iterable[str]) -> ReadRows:
    """The read model's rows for `events` (rows as the store returns them, data decoded).
    `names`: the game's players (a string in an event's data counts as a mention only when it
    is one of them: reasons and types are strings too)."""
    names = set(names)
    movements: list[tuple] = []
    mentions: list[tuple] = []
    for e in events:
        seq = e["seq"]
        moved = transfers_of(e)
        for n, t in enumerate(moved):
            movements.append((seq, n, t["payer"], t["payee"], t["amount"], as_text(t["reason"]),
                              e["type"]))
        players: set[str] = set()
        deeds: set[int] = set()
        _walk(e["data"], None, players, deeds)
        mentions.extend((f"p:{p}", seq) for p in sorted(players & names))
        if any(BANK in (t["payer"], t["payee"]) for t in moved):
            mentions.append((BANK, seq))
        mentions.extend((f"d:{d}", seq) for d in sorted(deeds))
    return ReadRows(movements, mentions)


def players_in(rows: Iterable[dict]) -> list[str]:
    """The players of a game from its GameStarted row among `rows` ([] when it is not there)."""
    for r in rows:
        if r["type"] == "GameStarted":
            return [p if isinstance(p, str) else p.get("name", "")
                    for p in r["data"].get("players", ())]
    return []


def read_model_rows(store, rows: list[dict], names: list[str] | None = None) -> ReadRows:
    """The rows for one command's events, inside its append (the players from its GameStarted,
    else `names` when the caller knows them, else the games table's row of its game)."""
    names = players_in(rows) or names
    if not names:
        game = store.game(rows[0]["game_id"])
        names = game["players"] if game else []
    return read_rows(rows, names)
