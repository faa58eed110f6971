"""What the checks of a store find (ledger/store/health.py, games_health.py, file_checks.py,
postgres_health.py): one Finding each, and the tables a SQLite file has."""

from __future__ import annotations

import sqlite3
from typing import NamedTuple


class Finding(NamedTuple):
    """One thing wrong with the file.  `game` and `seq` name where, when it is one game's."""
    kind: str  # trigger | index | games | tournament | format | log | snapshot | maintenance | tokens
    problem: str  # a Text (ledger/base/text.py): English as a str, said in the user's language
    game: int | None = None
    seq: int | None = None
    repairable: bool = False

    def document(self) -> dict:
        return {"kind": self.kind, "game": self.game, "seq": self.seq, "problem": self.problem,
                "repairable": self.repairable}


def tables(conn: sqlite3.Connection) -> set[str]:
    return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
