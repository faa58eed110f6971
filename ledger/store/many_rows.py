"""Rows inserted many to a statement: `INSERT ... VALUES (...),(...),...` with up to a few
hundred rows bound at once, instead of one execution a row (executemany).  Python's sqlite3
releases and takes back the GIL, and SQLite its mutexes, around every execution: for a row of
the read model's mentions that was about half of its cost (callgrind: 10,900 instructions a
row by executemany, about 6,000 two hundred rows to a statement).  The statement is the same
text for every full chunk, so sqlite3's statement cache compiles it once."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from itertools import chain

# SQLite's smallest limit on a statement's parameters (SQLITE_MAX_VARIABLE_NUMBER before
# 3.32): a chunk stays under it whatever the build
PARAMETERS = 999


class ManyRows:
    """`head` (`INSERT [OR ...] INTO table (columns)`) for rows of `width` values each, after
    one value the same in every row (the game's number, bound once as ?1)."""

    def __init__(self, head: str, width: int) -> None:
        self.width = width
        self.per = (PARAMETERS - 1) // width
        one = lambda j: "(?1," + ",".join(f"?{2 + j * width + k}" for k in range(width)) + ")"  # noqa: E731
        self.many = f"{head} VALUES " + ",".join(one(j) for j in range(self.per))
        self.single = f"{head} VALUES " + one(0)

    def insert(self, conn: sqlite3.Connection, lead, rows: Sequence[tuple]) -> None:
        """`rows`, each exactly `width` values, in order (as executemany would insert them)."""
        per, many = self.per, self.many
        full = len(rows) - len(rows) % per
        for i in range(0, full, per):
            conn.execute(many, (lead, *chain.from_iterable(rows[i:i + per])))
        if full < len(rows):
            conn.executemany(self.single, [(lead, *r) for r in rows[full:]])
