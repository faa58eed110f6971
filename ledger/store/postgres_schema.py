"""The PostgreSQL store's shape (ledger/store/postgres.py): the same four tables as the SQLite
file (ledger/store/schema.py), the read model's three (ledger/store/read_model.py), the phones'
tokens history (ledger/store/tokens.py) and the
tournaments' facts (ledger/tournaments.py), in a schema of their own named `banco` so that
banco leaves the rest of an organiser's database alone; the triggers that make the log append-only; and the
grants of banco's own role.

The log's `data` is TEXT, not JSONB: it holds the canonical JSON exactly as it was hashed
(JSONB would reorder keys and respell numbers, and the chain would not verify).

Who may do what: the tables belong to the role that created them (the organiser's, through
`python -m banco.ledger.store.postgres_setup`); banco's own role, the one in the URL tables
connect with, is granted only SELECT and INSERT on the log, so that neither a bug nor a
stolen password can change the past (the tokens and the tournaments likewise); the triggers
refuse UPDATE, DELETE and TRUNCATE of the log, the tokens and the tournaments' facts to
everyone, its owner included.
"""

from __future__ import annotations

from banco.ledger.store.canonical import now_text, snapshot_digest
from banco.ledger.store.kept_snapshots import prune_args, prune_sql

SCHEMA = "banco"
FORMAT = 4  # the same format number as the SQLite file's: the same rows, the same chain

# Advisory-lock keys (pg_advisory_xact_lock(LOCKS, key)): the first of the pair is banco's
# ("banc" in ASCII) so that another program's advisory locks never collide with ours.
LOCKS = 0x62616E63
NEW_GAME_LOCK = 0  # numbering a new game (and the import's); a game's own lock is its number
SCHEMA_LOCK = -1  # creating the tables (several first commands at once)
TOKENS_LOCK = -2  # the phones' tokens history: the next entry's number and the hash before it
TOURNAMENT_LOCK = -3  # the tournaments' facts: a fact's seq and the hash before it

CHANNEL = "banco_events"  # LISTEN/NOTIFY: a payload "game:last_seq" per committed command


def _append_only(table: str, function: str, says: str) -> tuple[str, str]:
    """The function that refuses a change to `table` (saying `says: UPDATE refused`) and its
    three triggers, `{table}_no_update`, `_no_delete` and `_no_truncate`, created once: for the
    owner too, since the owner's role is no guard."""
    return (f"""CREATE OR REPLACE FUNCTION {SCHEMA}.{function}() RETURNS trigger
        LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION '{says}: % refused', TG_OP; END $$""",
            f"""DO $$ BEGIN
        IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = '{table}_no_update'
                       AND tgrelid = '{SCHEMA}.{table}'::regclass) THEN
            CREATE TRIGGER {table}_no_update BEFORE UPDATE ON {SCHEMA}.{table}
                FOR EACH ROW EXECUTE FUNCTION {SCHEMA}.{function}();
            CREATE TRIGGER {table}_no_delete BEFORE DELETE ON {SCHEMA}.{table}
                FOR EACH ROW EXECUTE FUNCTION {SCHEMA}.{function}();
            CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {SCHEMA}.{table}
                FOR EACH STATEMENT EXECUTE FUNCTION {SCHEMA}.{function}();
        END IF; END $$""")


TABLES = (
    f"CREATE SCHEMA IF NOT EXISTS {SCHEMA}",
    f"CREATE TABLE IF NOT EXISTS {SCHEMA}.meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    f"""CREATE TABLE IF NOT EXISTS {SCHEMA}.events (
        game_id BIGINT NOT NULL, seq BIGINT NOT NULL, type TEXT NOT NULL, data TEXT NOT NULL,
        recorded_at TEXT NOT NULL, actor TEXT, command_id TEXT,
        schema_version INTEGER NOT NULL, prev_hash TEXT NOT NULL, hash TEXT NOT NULL,
        chain_version INTEGER NOT NULL DEFAULT 2, table_digest TEXT,
        PRIMARY KEY (game_id, seq))""",
    # format 3: the digest of the book's snapshot a chain-version-3 row hashes
    # (ledger/store/snapshot_binding.py), added to a schema made before it
    f"ALTER TABLE {SCHEMA}.events ADD COLUMN IF NOT EXISTS table_digest TEXT",
    f"CREATE INDEX IF NOT EXISTS events_command ON {SCHEMA}.events (game_id, command_id)",
    f"CREATE INDEX IF NOT EXISTS events_type ON {SCHEMA}.events (type, game_id, seq)",
    f"""CREATE TABLE IF NOT EXISTS {SCHEMA}.games (
        game_id BIGINT PRIMARY KEY, game_uuid TEXT UNIQUE, command_id TEXT UNIQUE,
        started_at TEXT, players TEXT, rules TEXT, edition TEXT, last_seq BIGINT NOT NULL,
        head TEXT NOT NULL, ended_seq BIGINT)""",
    f"CREATE INDEX IF NOT EXISTS games_ended ON {SCHEMA}.games (ended_seq, game_id)",
    f"""CREATE TABLE IF NOT EXISTS {SCHEMA}.snapshots (
        game_id BIGINT NOT NULL, seq BIGINT NOT NULL, head TEXT NOT NULL, format TEXT NOT NULL,
        state TEXT NOT NULL, made_at TEXT NOT NULL, digest TEXT, PRIMARY KEY (game_id, seq))""",
    # the digest that binds a snapshot to the log (ledger/store/snapshot_binding.py), added to
    # a schema made before it (its rows NULL: never trusted, rebuilt)
    f"ALTER TABLE {SCHEMA}.snapshots ADD COLUMN IF NOT EXISTS digest TEXT",
    # The same words as SQLite's triggers: whoever reads the refusal learns the same thing.
    *_append_only("events", "refuse_change", "events are append-only"),
    # The phones' tokens (ledger/store/tokens.py): the same history as the SQLite file's, its
    # entries chained alike, append-only for everyone (ledger/store/postgres_tokens.py).
    f"""CREATE TABLE IF NOT EXISTS {SCHEMA}.tokens (
        id BIGINT PRIMARY KEY, kind TEXT NOT NULL CHECK (kind IN ('issue', 'revoke')),
        digest TEXT NOT NULL, prefix TEXT NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('banker', 'player', 'referee', 'viewer')),
        player TEXT, game BIGINT NOT NULL, at TEXT NOT NULL, prev TEXT NOT NULL,
        hash TEXT NOT NULL)""",
    f"CREATE INDEX IF NOT EXISTS tokens_digest ON {SCHEMA}.tokens (digest)",
    *_append_only("tokens", "refuse_token_change", "the tokens history is append-only"),
    # The tournaments' facts (ledger/tournaments.py): the SQLite file's table and chain
    # (ledger/store/tournament_log.py), with `n` for the order written (SQLite's rowid).
    f"""CREATE TABLE IF NOT EXISTS {SCHEMA}.tournament_facts (
        n BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE, tournament TEXT NOT NULL,
        seq BIGINT NOT NULL, type TEXT NOT NULL, data TEXT NOT NULL, recorded_at TEXT NOT NULL,
        actor TEXT, prev_hash TEXT NOT NULL, hash TEXT NOT NULL, PRIMARY KEY (tournament, seq))""",
    *_append_only("tournament_facts", "refuse_fact_change",
                  "tournament facts are append-only"),
    # The read model (ledger/store/read_model.py has SQLite's; ledger/store/postgres_read_model.py
    # keeps these): a cache beside the log, never evidence, so not append-only.
    f"CREATE TABLE IF NOT EXISTS {SCHEMA}.read_model (game_id BIGINT PRIMARY KEY, "
    "through BIGINT NOT NULL)",
    f"""CREATE TABLE IF NOT EXISTS {SCHEMA}.read_movements (
        game_id BIGINT NOT NULL, seq BIGINT NOT NULL, n INTEGER NOT NULL, payer TEXT NOT NULL,
        payee TEXT NOT NULL, amount BIGINT NOT NULL, reason TEXT NOT NULL, type TEXT NOT NULL,
        PRIMARY KEY (game_id, seq, n))""",
    f"CREATE INDEX IF NOT EXISTS read_movements_payer ON {SCHEMA}.read_movements "
    "(game_id, payer, seq)",
    f"CREATE INDEX IF NOT EXISTS read_movements_payee ON {SCHEMA}.read_movements "
    "(game_id, payee, seq)",
    f"""CREATE TABLE IF NOT EXISTS {SCHEMA}.read_mentions (
        game_id BIGINT NOT NULL, subject TEXT NOT NULL, seq BIGINT NOT NULL,
        PRIMARY KEY (game_id, subject, seq))""",
)

# What banco's role may do: read and append the log; keep the games index, meta and the
# snapshot cache and the read model (a cache is replaced and pruned, never evidence); read and
# append the phones' tokens history (a revocation is an entry appended, never a row changed).
GRANTS = (
    "GRANT USAGE ON SCHEMA {schema} TO {role}",
    "GRANT SELECT, INSERT ON {schema}.events, {schema}.tokens, {schema}.tournament_facts "
    "TO {role}",
    "GRANT SELECT, INSERT, UPDATE ON {schema}.games, {schema}.meta TO {role}",
    "GRANT SELECT, INSERT, UPDATE, DELETE ON {schema}.snapshots, {schema}.read_model, "
    "{schema}.read_movements, {schema}.read_mentions TO {role}",
)
REVOKES = ("REVOKE ALL ON {schema}.events, {schema}.games, {schema}.meta, {schema}.snapshots, "
           "{schema}.tokens, {schema}.tournament_facts, {schema}.read_model, "
           "{schema}.read_movements, {schema}.read_mentions FROM {role}",)


def create(conn, now: str) -> None:
    """Inside a transaction: the tables, their triggers and meta (idempotent; the caller holds
    SCHEMA_LOCK, so two first commands do not race)."""
    for statement in TABLES:
        conn.execute(statement)
    conn.execute(f"INSERT INTO {SCHEMA}.meta (key, value) VALUES ('application', 'banco'), "
                 f"('format', %s), ('created_at', %s) ON CONFLICT (key) DO NOTHING",
                 (str(FORMAT), now))


def to_format_4(conn, now: str) -> None:
    """Before the first write on a schema of format 3, in a transaction of its own: only
    `meta` changes, as in the SQLite file (ledger/store/schema.py migrate_to_4: rows of schema
    version 3 follow, which a banco of format 3 must not write after).  banco's role may
    (meta is granted it); a second process doing the same changes nothing."""
    conn.execute(f"UPDATE {SCHEMA}.meta SET value='4' WHERE key='format' AND value='3'")
    conn.execute(f"INSERT INTO {SCHEMA}.meta (key, value) VALUES ('migrated_to_4_at', %s) "
                 "ON CONFLICT (key) DO NOTHING", (now,))


def install_missing(conn, table: str) -> bool:
    """Inside a write transaction: `table` (schema-qualified) there, created with the others
    for a database installed before it; False when it is missing and the URL's role may not
    create it (the owner runs postgres_setup), the transaction still usable."""
    from psycopg import errors

    if conn.execute("SELECT to_regclass(%s)", (table,)).fetchone()[0] is not None:
        return True
    try:
        with conn.transaction():  # a savepoint: a refusal leaves the transaction usable
            conn.execute("SELECT pg_advisory_xact_lock(%s, %s)", (LOCKS, SCHEMA_LOCK))
            create(conn, now_text())  # meta kept as it is: only the new tables are made
    except errors.InsufficientPrivilege:
        return False
    return True


def grant(conn, role: str) -> None:
    """Give `role` banco's rights and no more (anything granted before is taken back first)."""
    from psycopg import sql

    name = sql.Identifier(role)
    for statement in (*REVOKES, *GRANTS):
        conn.execute(sql.SQL(statement).format(schema=sql.Identifier(SCHEMA), role=name))


def keep_snapshot(conn, game_id: int, seq: int, head: str, fmt: str, text: str,
                  made_at: str | None = None) -> None:
    """Inside a write transaction: keep a snapshot with its digest, and only those of the
    game's that ledger/store/kept_snapshots.py keeps."""
    conn.execute(f"INSERT INTO {SCHEMA}.snapshots (game_id, seq, head, format, state, made_at, "
                 "digest) VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT (game_id, seq) DO "
                 "UPDATE SET head=EXCLUDED.head, format=EXCLUDED.format, state=EXCLUDED.state, "
                 "made_at=EXCLUDED.made_at, digest=EXCLUDED.digest",
                 (game_id, seq, head, fmt, text, made_at or now_text(),
                  snapshot_digest(seq, head, fmt, text)))
    conn.execute(prune_sql(f"{SCHEMA}.snapshots", "%s"), prune_args(game_id))
