"""The read model's tables in the SQLite file (issue 21): money movements and mentions per game,
kept beside the log so that `statement`, `history` and `log --player` cost what their answer
holds, not what the game holds.  What the rows are: ledger/table/read_rows.py (the store only
keeps them, as it keeps snapshots).

A cache, never evidence: the audit and `decide` never read it.  It is written in the append's
transaction (SQLiteStore.append, `read_model=`), and a game's rows are trusted only while
`read_model.through` is the game's last seq: a game recorded by a banco before it has none,
and its readings read the log as before until `doctor --repair` builds it (`import` builds an
imported game's as it writes it).  `doctor`
checks every game's rows against the ones worked out from its log.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable

from banco.ledger.store.many_rows import ManyRows
from banco.ledger.store.protocol import ReadRows

DDL = (
    "CREATE TABLE IF NOT EXISTS read_model (game_id INTEGER PRIMARY KEY, "
    "through INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS read_movements (game_id INTEGER NOT NULL, seq INTEGER NOT NULL, "
    "n INTEGER NOT NULL, payer TEXT NOT NULL, payee TEXT NOT NULL, amount INTEGER NOT NULL, "
    "reason TEXT NOT NULL, type TEXT NOT NULL, PRIMARY KEY (game_id, seq, n)) WITHOUT ROWID",
    "CREATE INDEX IF NOT EXISTS read_movements_payer ON read_movements (game_id, payer, seq)",
    "CREATE INDEX IF NOT EXISTS read_movements_payee ON read_movements (game_id, payee, seq)",
    "CREATE TABLE IF NOT EXISTS read_mentions (game_id INTEGER NOT NULL, "
    "subject TEXT NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY (game_id, subject, seq)) "
    "WITHOUT ROWID",
)
# many rows to a statement (ledger/store/many_rows.py), after the game's number
MOVEMENTS = ManyRows("INSERT OR REPLACE INTO read_movements (game_id, seq, n, payer, payee, "
                     "amount, reason, type)", 7)
MENTIONS = ManyRows("INSERT OR IGNORE INTO read_mentions (game_id, subject, seq)", 2)


def through(conn: sqlite3.Connection, game_id: int) -> int | None:
    """The last seq the game's rows cover, None without any (or without the tables)."""
    try:
        row = conn.execute("SELECT through FROM read_model WHERE game_id=?",
                           (game_id,)).fetchone()
    except sqlite3.OperationalError as exc:
        if "no such table" in str(exc):
            return None
        raise
    return row[0] if row else None


def keep(conn: sqlite3.Connection, game_id: int, rows: ReadRows, last: int) -> None:
    """Inside a write transaction: add rows and say they now cover the game up to `last`."""
    if rows.movements:
        MOVEMENTS.insert(conn, game_id, rows.movements)
    if rows.mentions:
        MENTIONS.insert(conn, game_id, rows.mentions)
    conn.execute("INSERT OR REPLACE INTO read_model (game_id, through) VALUES (?, ?)",
                 (game_id, last))


def append(conn: sqlite3.Connection, game_id: int, before: int, rows: ReadRows,
           last: int) -> None:
    """Inside the append's transaction: the command's rows, when the game's rows reach up to
    the command (`before`, the seq it was decided on: 0 for a new game); otherwise nothing
    (the game has no read model to extend, and its readings read the log)."""
    if before == 0:
        for sql in DDL:
            conn.execute(sql)
    elif through(conn, game_id) != before:
        return
    keep(conn, game_id, rows, last)


def replace(conn: sqlite3.Connection, game_id: int, chunks: Iterable[ReadRows],
            last: int) -> None:
    """Inside a write transaction: the game's rows rebuilt (doctor), a chunk at a time."""
    for sql in DDL:
        conn.execute(sql)
    forget(conn, game_id)
    for rows in chunks:
        keep(conn, game_id, rows, last)
    keep(conn, game_id, ReadRows([], []), last)


def forget(conn: sqlite3.Connection, game_id: int) -> None:
    conn.execute("DELETE FROM read_movements WHERE game_id=?", (game_id,))
    conn.execute("DELETE FROM read_mentions WHERE game_id=?", (game_id,))
    conn.execute("DELETE FROM read_model WHERE game_id=?", (game_id,))


def movements(conn: sqlite3.Connection, game_id: int, account: str) -> list[tuple]:
    """(seq, n, payer, payee, amount, reason, type) of every movement in or out of `account`,
    in order (two index lookups, merged)."""
    return conn.execute(
        "SELECT seq, n, payer, payee, amount, reason, type FROM read_movements "
        "WHERE game_id=? AND payer=? UNION SELECT seq, n, payer, payee, amount, reason, type "
        "FROM read_movements WHERE game_id=? AND payee=? ORDER BY 1, 2",
        (game_id, account, game_id, account)).fetchall()


def mentioned(conn: sqlite3.Connection, game_id: int, subjects: list[str], after: int,
              upto: int) -> list[int]:
    """The seqs after `after`, up to `upto`, that mention any of `subjects`, in order."""
    marks = ",".join("?" * len(subjects))
    return [s for (s,) in conn.execute(
        f"SELECT DISTINCT seq FROM read_mentions WHERE game_id=? AND subject IN ({marks}) "
        "AND seq>? AND seq<=? ORDER BY seq", (game_id, *subjects, after, upto))]


def rows_between(conn: sqlite3.Connection, game_id: int, after: int, upto: int) -> ReadRows:
    """The game's rows as kept for seqs after `after` up to `upto`, in the order read_rows
    gives them (doctor compares them with the log's a stretch at a time)."""
    try:
        moves = conn.execute("SELECT seq, n, payer, payee, amount, reason, type FROM "
                             "read_movements WHERE game_id=? AND seq>? AND seq<=? "
                             "ORDER BY seq, n", (game_id, after, upto)).fetchall()
        ments = conn.execute("SELECT subject, seq FROM read_mentions WHERE game_id=? AND "
                             "seq>? AND seq<=? ORDER BY seq, subject",
                             (game_id, after, upto)).fetchall()
    except sqlite3.OperationalError as exc:
        if "no such table" in str(exc):
            return ReadRows([], [])
        raise
    return ReadRows(moves, ments)


class ReadModelStore:
    """The read model's part of SQLiteStore (ledger/store/protocol.py's read-model methods);
    mixed in, as GameIndex is, to keep sqlite.py about the log."""

    conn: sqlite3.Connection | None

    def _current(self, game_id: int) -> bool:
        """Whether the game's rows reach its last seq (then the readings may use them)."""
        if not self.has_tables():
            return False
        kept = through(self.conn, game_id)
        return kept is not None and kept == self.last_seq(game_id)

    def movements(self, game_id: int, account: str) -> list[tuple] | None:
        if not self._current(game_id):
            return None
        return movements(self.conn, game_id, account)

    def mentioning(self, game_id: int, subjects: list[str], after: int = 0,
                   upto: int | None = None):
        if not self._current(game_id):
            return None
        seqs = mentioned(self.conn, game_id, subjects, after,
                         self.last_seq(game_id) if upto is None else upto)
        return self._rows_at(game_id, seqs)

    def _rows_at(self, game_id: int, seqs: list[int], chunk: int = 500):
        """The rows of these seqs, a chunk of primary-key lookups at a time."""
        from banco.ledger.store.schema import event_dict

        for i in range(0, len(seqs), chunk):
            part = seqs[i:i + chunk]
            marks = ",".join("?" * len(part))
            raw = self.conn.execute(f"SELECT {self.columns} FROM events WHERE game_id=? AND "
                                    f"seq IN ({marks}) ORDER BY seq", (game_id, *part))
            yield from self.with_chain_ids(game_id, [event_dict(r) for r in raw])

    def read_model_rows(self, game_id: int, after: int, upto: int) -> ReadRows | None:
        if not self.has_tables() or through(self.conn, game_id) is None:
            return None
        return rows_between(self.conn, game_id, after, upto)

    def put_read_model(self, game_id: int, chunks: Iterable[ReadRows], through: int) -> None:
        self.write(lambda conn: replace(conn, game_id, chunks, through))
