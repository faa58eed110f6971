"""The tournaments' facts on PostgreSQL (`banco tournament` with `--db postgresql://...`): the
log of ledger/tournaments.py in `banco.tournament_facts` (ledger/store/postgres_schema.py),
the same rows and the same chain as the SQLite file's table (ledger/store/tournament_log.py
fact_hash), so a tournament has the same head on either store.  Append-only for everyone
(triggers refuse UPDATE, DELETE and TRUNCATE; banco's role may SELECT and INSERT); two
organisers entering games at once are serialised by an advisory lock.
"""

from __future__ import annotations

from banco.ledger.base.errors import DatabaseError, NoDatabase
from banco.ledger.store.canonical import GENESIS, canonical_json
from banco.ledger.store.postgres_schema import LOCKS, SCHEMA, TOURNAMENT_LOCK, install_missing
from banco.ledger.store.tournament_log import fact_hash

TABLE = f"{SCHEMA}.tournament_facts"
FACT_COLUMNS = "tournament, seq, type, data, recorded_at, actor, prev_hash, hash"


def has_table(conn) -> bool:
    return conn.execute("SELECT to_regclass(%s)", (TABLE,)).fetchone()[0] is not None


def rows(conn, name: str | None = None, by_name: bool = False) -> list[tuple]:
    """The facts as stored (FACT_COLUMNS), in the order written (`by_name`: by tournament and
    seq, as the audit walks them); [] without the table."""
    if not has_table(conn):
        return []
    where, args = (" WHERE tournament = %s", (name,)) if name is not None else ("", ())
    order = 'tournament COLLATE "C", seq' if by_name else "n"
    return conn.execute(f"SELECT {FACT_COLUMNS} FROM {TABLE}{where} ORDER BY {order}",
                        args).fetchall()


def append_facts(conn, name: str, facts: list[tuple[str, dict, str, str | None]]) -> None:
    """Inside a write transaction: append (type, data, recorded_at, actor) facts to the
    tournament's chain (ledger/tournaments.py append_facts, on PostgreSQL)."""
    install_missing(conn, TABLE)  # an archive imported into a database installed before it
    conn.execute("SELECT pg_advisory_xact_lock(%s, %s)", (LOCKS, TOURNAMENT_LOCK))
    last = conn.execute(f"SELECT seq, hash FROM {TABLE} WHERE tournament = %s ORDER BY seq "
                        "DESC LIMIT 1", (name,)).fetchone()
    seq, prev = last if last else (0, GENESIS)
    for type_, data, now, actor in facts:
        seq += 1
        row = {"tournament": name, "seq": seq, "type": type_, "data": canonical_json(data),
               "recorded_at": now, "actor": actor}
        prev_hash, prev = prev, fact_hash(prev, row)
        conn.execute(f"INSERT INTO {TABLE} ({FACT_COLUMNS}) VALUES "
                     f"({', '.join(['%s'] * 8)})",
                     (name, seq, type_, row["data"], now, actor, prev_hash, prev))


def read(store, name: str | None = None) -> list[tuple]:
    """The facts through the PostgreSQL store (its errors in one line)."""
    import psycopg

    if not store.has_tables():
        return []
    try:
        return rows(store.conn, name)
    except psycopg.Error as exc:
        raise store.explain(exc, False) from None


def write(store, name: str, facts: list[tuple[str, dict, str, str | None]]) -> None:
    """Append facts in a transaction of their own, through the PostgreSQL store."""
    import psycopg

    if not store.has_tables():
        raise NoDatabase("{path} has no banco games yet (no `banco` tables)\n"
                         "  `banco new PLAYER PLAYER ...` starts a game there",
                         path=store.shown)
    try:
        with store.conn.transaction():
            if not install_missing(store.conn, TABLE):
                raise DatabaseError("{path} has no table for the tournaments yet, and its "
                                    "user may not create it; nothing was recorded: the "
                                    "database's owner installs it with `python -m "
                                    "banco.ledger.store.postgres_setup URL --role USER`",
                                    path=store.shown)
            append_facts(store.conn, name, facts)
    except psycopg.Error as exc:
        raise store.explain(exc, True) from None
