"""The read model on PostgreSQL (issue 21): SQLite's three tables (ledger/store/read_model.py)
in banco's schema (ledger/store/postgres_schema.py), kept and read alike, so that
`statement`, `history` and `log --player` cost what their answer holds on either store.

A cache, never evidence: the audit and `decide` never read it.  `append` keeps a command's
rows in its own transaction, under the game's advisory lock, when the game's rows already
reach the seq it was decided on (a new game starts them); a game's rows are trusted only while
`read_model.through` is its last seq.  A database installed before these tables has none
until its owner runs `python -m banco.ledger.store.postgres_setup` (or a role that may create
tables rebuilds them): meanwhile nothing is kept and the readings read the log.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from banco.ledger.base.errors import DatabaseError
from banco.ledger.store.postgres_connection import guarded
from banco.ledger.store.postgres_schema import LOCKS, SCHEMA, install_missing
from banco.ledger.store.protocol import ReadRows

MODEL, MOVEMENTS, MENTIONS = (f"{SCHEMA}.{t}" for t in ("read_model", "read_movements",
                                                        "read_mentions"))
MOVE_COLUMNS = "seq, n, payer, payee, amount, reason, type"
MOVEMENT = (f"INSERT INTO {MOVEMENTS} (game_id, {MOVE_COLUMNS}) VALUES "
            "(%s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT (game_id, seq, n) DO UPDATE SET "
            "payer=EXCLUDED.payer, payee=EXCLUDED.payee, amount=EXCLUDED.amount, "
            "reason=EXCLUDED.reason, type=EXCLUDED.type")
MENTION = (f"INSERT INTO {MENTIONS} (game_id, subject, seq) VALUES (%s, %s, %s) "
           "ON CONFLICT DO NOTHING")
THROUGH = (f"INSERT INTO {MODEL} (game_id, through) VALUES (%s, %s) "
           "ON CONFLICT (game_id) DO UPDATE SET through=EXCLUDED.through")


def kept_through(conn: Any, game_id: int) -> int | None:
    """The last seq the game's rows cover, None without any."""
    row = conn.execute(f"SELECT through FROM {MODEL} WHERE game_id=%s", (game_id,)).fetchone()
    return row[0] if row else None


def keep(conn: Any, game_id: int, rows: ReadRows, last: int) -> None:
    """Inside a write transaction: add rows and say they now cover the game up to `last`."""
    with conn.cursor() as cur:
        if rows.movements:
            cur.executemany(MOVEMENT, [(game_id, *m) for m in rows.movements])
        if rows.mentions:
            cur.executemany(MENTION, [(game_id, *m) for m in rows.mentions])
    conn.execute(THROUGH, (game_id, last))


def copy_rows(conn: Any, game_id: int, rows: ReadRows) -> None:
    """Inside a write transaction: rows of a game that has none yet (a rebuild's after its
    DELETE, an import's), sent with COPY: nothing to collide with, so no conflict clause."""
    with conn.cursor() as cur:
        if rows.movements:
            with cur.copy(f"COPY {MOVEMENTS} (game_id, {MOVE_COLUMNS}) FROM STDIN") as copy:
                for m in rows.movements:
                    copy.write_row((game_id, *m))
        if rows.mentions:
            with cur.copy(f"COPY {MENTIONS} (game_id, subject, seq) FROM STDIN") as copy:
                for m in set(rows.mentions):
                    copy.write_row((game_id, *m))


def start_import(conn: Any, game_id: int) -> bool:
    """Inside an import's transaction: whether the game's read model can be kept (the tables
    there, made if the role may), its rows (none, for a new game) cleared."""
    if not install_missing(conn, MODEL):
        return False  # installed before the read model: its owner adds it; the log is read
    conn.execute(f"DELETE FROM {MOVEMENTS} WHERE game_id=%s", (game_id,))
    conn.execute(f"DELETE FROM {MENTIONS} WHERE game_id=%s", (game_id,))
    return True


class PgReadModel:
    """The read model's part of PostgresStore (the protocol's read-model methods), mixed in as
    ledger/store/read_model.py's ReadModelStore is into SQLiteStore."""

    conn: Any
    columns: str
    _read_tables: bool = False  # seen once: a table is not dropped under a running banco

    def has_tables(self) -> bool:
        raise NotImplementedError  # PostgresStore's

    def read_model_tables(self) -> bool:
        """Whether the database has the read model's tables (one installed before has not)."""
        if not self._read_tables and self.has_tables():
            self._read_tables = self.conn.execute("SELECT to_regclass(%s)",
                                                  (MODEL,)).fetchone()[0] is not None
        return self._read_tables

    def keep_read_model(self, game_id: int, before: int, rows: ReadRows, last: int) -> None:
        """Inside the append's transaction, the game's lock held: the command's rows, when the
        game's rows reach `before` (0: a new game); otherwise nothing (no model to extend)."""
        if not self.read_model_tables():
            return
        if before != 0 and kept_through(self.conn, game_id) != before:
            return
        keep(self.conn, game_id, rows, last)

    def _current(self, game_id: int) -> bool:
        if not self.read_model_tables():
            return False
        kept = kept_through(self.conn, game_id)
        return kept is not None and kept == self.last_seq(game_id)

    @guarded(writing=False)
    def movements(self, game_id: int, account: str) -> list[tuple] | None:
        if not self._current(game_id):
            return None
        return self.conn.execute(
            f"SELECT {MOVE_COLUMNS} FROM {MOVEMENTS} WHERE game_id=%s AND (payer=%s OR "
            "payee=%s) ORDER BY seq, n", (game_id, account, account)).fetchall()

    @guarded(writing=False)
    def mentioning(self, game_id: int, subjects: list[str], after: int = 0,
                   upto: int | None = None) -> Iterator[dict] | None:
        if not self._current(game_id):
            return None
        seqs = [s for (s,) in self.conn.execute(
            f"SELECT DISTINCT seq FROM {MENTIONS} WHERE game_id=%s AND subject = ANY(%s) AND "
            "seq>%s AND seq<=%s ORDER BY seq",
            (game_id, list(subjects), after, self.last_seq(game_id) if upto is None else upto))]
        return self._rows_at(game_id, seqs)

    def _rows_at(self, game_id: int, seqs: list[int], chunk: int = 500) -> Iterator[dict]:
        """The log's rows of these seqs, a chunk of primary-key lookups at a time."""
        from banco.ledger.store.schema import event_dict

        for i in range(0, len(seqs), chunk):
            raw = self.conn.execute(f"SELECT {self.columns} FROM {SCHEMA}.events WHERE "
                                    "game_id=%s AND seq = ANY(%s) ORDER BY seq",
                                    (game_id, seqs[i:i + chunk])).fetchall()
            yield from self.with_chain_ids(game_id, [event_dict(r) for r in raw])

    @guarded(writing=False)
    def read_model_rows(self, game_id: int, after: int, upto: int) -> ReadRows | None:
        if not self.read_model_tables() or kept_through(self.conn, game_id) is None:
            return None
        moves = self.conn.execute(f"SELECT {MOVE_COLUMNS} FROM {MOVEMENTS} WHERE game_id=%s "
                                  "AND seq>%s AND seq<=%s ORDER BY seq, n",
                                  (game_id, after, upto)).fetchall()
        ments = self.conn.execute(f"SELECT subject, seq FROM {MENTIONS} WHERE game_id=%s AND "
                                  "seq>%s AND seq<=%s ORDER BY seq, subject",
                                  (game_id, after, upto)).fetchall()
        return ReadRows(moves, ments)

    @guarded(writing=True)
    def put_read_model(self, game_id: int, chunks: Iterable[ReadRows], through: int) -> None:
        """The game's rows replaced in one transaction, written as `chunks` are worked out.
        The game's lock is taken only at the end, to say how far the rows reach: a long
        rebuild never holds up the table's commands (one recorded meanwhile leaves the rows
        short of the game's end, so untrusted, never wrong: the next repair completes them)."""
        self.ensure_tables()
        conn = self.conn
        with conn.transaction():
            if not install_missing(conn, MODEL):
                raise DatabaseError("{path} has no tables for the read model and its user may "
                                    "not create them: the database's owner adds them with "
                                    "`python -m banco.ledger.store.postgres_setup URL --role USER`",
                                    path=self.shown)
            self._read_tables = True
            conn.execute(f"DELETE FROM {MOVEMENTS} WHERE game_id=%s", (game_id,))
            conn.execute(f"DELETE FROM {MENTIONS} WHERE game_id=%s", (game_id,))
            for rows in chunks:
                copy_rows(conn, game_id, rows)
            conn.execute("SELECT pg_advisory_xact_lock(%s, %s)", (LOCKS, game_id))
            conn.execute(THROUGH, (game_id, through))
