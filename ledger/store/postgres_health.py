"""The PostgreSQL store's checks (`PostgresStore.checks()`, ledger/store/protocol.py
StoreChecks), as ledger/store/sqlite_checks.py for a SQLite file: the games its log holds, a game's hashes, the
events a head line's digits name, and the database beside the chains: the log's triggers and
the store's indexes present and switched on, the games table against each log (the same check
as SQLite's, ledger/store/health.py, on these tables), the phones' tokens history and the
tournaments' chains (the same checks as the file's, on the rows as PostgreSQL holds them).

What is SQLite's alone is not checked here, and doctor says so: the file's quick_check, its
text bytes (PostgreSQL refuses text that is not in the database's encoding), its write-ahead
log; the maintenance history (PostgreSQL keeps none).  Its backup is a new SQLite file."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from banco.ledger.base.text import msg
from banco.ledger.store import token_key
from banco.ledger.store.findings import Finding
from banco.ledger.store.games_health import Sql, games_findings
from banco.ledger.store.health import tournament_chain_findings
from banco.ledger.store.postgres_connection import guarded
from banco.ledger.store.postgres_schema import SCHEMA
from banco.ledger.store.postgres_tokens import entries as token_entries
from banco.ledger.store.postgres_tokens import has_table as has_token_table
from banco.ledger.store.postgres_tournaments import has_table as has_fact_table
from banco.ledger.store.postgres_tournaments import rows as fact_rows
from banco.ledger.store.protocol import StoreHealth
from banco.ledger.store.tokens import problems_in, unchecked_in

if TYPE_CHECKING:
    from banco.ledger.store.postgres import PostgresStore

PG = Sql(events=f"{SCHEMA}.events", games=f"{SCHEMA}.games", meta=f"{SCHEMA}.meta", mark="%s")
# The guards of the log and of the phones' tokens (ledger/store/postgres_schema.py TABLES):
# refused UPDATE, DELETE, TRUNCATE.
TRIGGERS = ("events_no_update", "events_no_delete", "events_no_truncate")
TOKEN_TRIGGERS = ("tokens_no_update", "tokens_no_delete", "tokens_no_truncate")
FACT_TRIGGERS = ("tournament_facts_no_update", "tournament_facts_no_delete",
                 "tournament_facts_no_truncate")
INDEXES = ("events_command", "events_type", "games_ended", "tokens_digest",
           "read_movements_payer", "read_movements_payee")
TOKENS = f"{SCHEMA}.tokens"
FACTS = f"{SCHEMA}.tournament_facts"


class PgChecks:
    """The checks of one PostgreSQL store, through its connection (asked for each time:
    `revive` may have replaced it)."""

    def __init__(self, store: PostgresStore):
        self.store = store
        self.path = store.path

    @property
    def conn(self):
        return self.store.conn

    @property
    def format(self) -> int:
        return self.store.format

    def has_tables(self) -> bool:
        return self.store.has_tables()

    def explain(self, exc: Exception, writing: bool):
        return self.store.explain(exc, writing)

    def q(self, sql: str, args: tuple | list = ()) -> list[tuple]:
        return self.store.q(sql, args)

    def one(self, sql: str, args: tuple | list = ()) -> tuple | None:
        return self.store.one(sql, args)

    @guarded(writing=False)
    def missing_guards(self) -> list[str]:
        if not self.has_tables():
            return []
        return [name for name in TRIGGERS if name not in self._triggers_on(PG.events)]

    def _triggers_on(self, table: str) -> set[str]:
        return {name for (name,) in self.q(
            "SELECT tgname FROM pg_trigger WHERE tgrelid = %s::regclass AND NOT "
            "tgisinternal AND tgenabled <> 'D'", (table,))}

    @guarded(writing=False)
    def logged_games(self) -> list[int]:
        if not self.has_tables():
            return []
        return [g for (g,) in self.q(f"SELECT DISTINCT game_id FROM {PG.events} "
                                     "ORDER BY game_id")]

    @guarded(writing=False)
    def hashes(self, game_id: int, upto: int | None = None) -> list[tuple[int, str]]:
        if not self.has_tables():
            return []
        return self.q(f"SELECT seq, hash FROM {PG.events} WHERE game_id=%s AND seq<=%s "
                      "ORDER BY seq", (game_id, 2**62 if upto is None else upto))

    @guarded(writing=False)
    def hash_prefix(self, prefix: str) -> list[tuple[int, int]]:
        if not self.has_tables():
            return []
        return self.q(f"SELECT game_id, seq FROM {PG.events} WHERE left(hash, %s) = %s "
                      "ORDER BY game_id, seq", (len(prefix), prefix))

    @guarded(writing=False)
    def games_row_findings(self) -> list:
        """What doctor finds of the games table against the logs (Finding each): `banco
        games` warns of a row that is not its log's."""
        if not self.has_tables():
            return []
        with self.conn.transaction():
            self.conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            return [f for f in games_findings(self.conn, PG) if f.kind == "games"]

    @guarded(writing=False)
    def health(self, *, tournaments: bool = True, file: bool = False) -> StoreHealth:
        not_checked = [msg("the file's own checks (SQLite's quick_check, its text bytes, its "
                           "write-ahead log) are SQLite's: PostgreSQL checks its own pages")]
        known = (len(TRIGGERS) + len(TOKEN_TRIGGERS) + len(FACT_TRIGGERS), len(INDEXES))
        if not self.has_tables():
            return StoreHealth([], [], [], [], not_checked, known)
        # the tokens' and the tournaments' tables are checked once they exist (a database
        # installed before them has neither)
        tokens, facts = has_token_table(self.conn), has_fact_table(self.conn)
        guarded_tables = [(PG.events, TRIGGERS)] + [(t, names) for t, names, there in (
            (TOKENS, TOKEN_TRIGGERS, tokens), (FACTS, FACT_TRIGGERS, facts)) if there]
        missing = []
        for table, names in guarded_tables:
            on = self._triggers_on(table)
            missing += [(name, table) for name in names if name not in on]
        triggers = [name for name, _ in missing]
        have = {name for (name,) in self.q("SELECT indexname FROM pg_indexes WHERE "
                                           "schemaname = %s", (SCHEMA,))}
        # the read model's indexes once its tables exist (a database installed before has none)
        model = self.one("SELECT to_regclass(%s)", (f"{SCHEMA}.read_movements",))[0] is not None
        indexes = [name for name in INDEXES if name not in have
                   and (tokens or not name.startswith("tokens_"))
                   and (model or not name.startswith("read_"))]
        findings = [Finding("trigger", msg(
            "the trigger {name} of {table} is missing or switched off: its rows can be changed "
            "without a trace but the chain's (the database's owner puts it back: `ALTER TABLE "
            "{table} ENABLE TRIGGER USER`, or `python -m banco.ledger.store.postgres_setup URL "
            "--role USER` for one dropped)", name=name, table=table)) for name, table in missing]
        findings += [Finding("index", msg("the index {name} is missing: lookups are slow (`python "
                                          "-m banco.ledger.store.postgres_setup URL --role USER` "
                                          "recreates it)", name=name)) for name in indexes]
        # one snapshot of the log and the games table: with tables writing meanwhile, two
        # reads a moment apart would see a games row ahead of (or behind) its log
        with self.conn.transaction():
            self.conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            findings += games_findings(self.conn, PG)
            # the phones' tokens history: an entry deleted, edited or written by hand
            history = token_entries(self.conn)  # checked with its key, where it is here
            key = token_key.load(self.path) if history else None
            findings += [Finding("tokens", p) for p in problems_in(history, key)]
            not_checked += unchecked_in(history, key, str(token_key.key_path(self.path)))
            if tournaments and facts:
                known_games = {u for (u,) in self.q(f"SELECT game_uuid FROM {PG.games}")}
                findings += tournament_chain_findings(fact_rows(self.conn, by_name=True),
                                                      known_games)
        return StoreHealth(findings, [], triggers, indexes, not_checked, known)

    def engine_check(self) -> str | None:
        return None  # PostgreSQL checks its own pages (and refuses to serve a damaged one)

    def refuse_damaged(self, whole: bool = False) -> None:
        """Nothing: PostgreSQL checks its own pages (and refuses to serve a damaged one)."""

    def worker_path(self) -> str | None:
        return None  # the parallel audit's workers open a file; here, one pass

    def repair(self, *, now: Callable[[], str], why: str,
               snapshots: Iterable[tuple[int, int, str]] = ()) -> None:
        """None: the guards, the indexes and the games table are the database's owner's
        (postgres_setup), and so are its snapshots; doctor rebuilds the read model only, a
        cache banco's role keeps."""
        return None

    def backup(self, target: str) -> None:
        """Every game into `target`, a new SQLite file (ledger/store/copy.py), verified."""
        from banco.ledger.base.errors import NoDatabase
        from banco.ledger.store.copy import copy_store
        from banco.ledger.store.sqlite import SQLiteStore

        if not self.has_tables():
            raise NoDatabase("{path} has no banco games yet (no `banco` tables)",
                             path=self.store.shown)
        dst = SQLiteStore(target, create=True)
        try:
            copy_store(self.store, dst)
        finally:
            dst.close()
