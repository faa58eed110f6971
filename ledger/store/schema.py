"""The SQLite file's shape: its tables, triggers and indexes, the format it is in, and the
migration from the format before.

The file carries its format in a `meta` table (key/value rows: `application` = banco,
`format`, and when and from what it was migrated).  A table rather than PRAGMA user_version
because it says more than a number (who migrated it and when), is written in the same
transaction as what it describes, and anyone can read it with `sqlite3` or `sqlite-utils`.

  format 0  an empty file: the first write creates today's format (4)
  format 1  banco before this store (no `meta`): `events` only, every row hashed with its local
            game number; read as it is, migrated in place by the first write
  format 2  `meta`; `games` (one row per game: identity, players, last seq, head, whether it
            ended), kept in the same transaction as the appends so that listing the games or
            finding the current one never reads the log; `events` gains `chain_version`
            (1 for the rows of format 1, untouched; 2 for new rows, hashed without the game
            number: see canonical.HASHED_FIELDS)
  format 3  `events` gains `table_digest` (NULL but in the rows where the book keeps a
            snapshot: chain version 3 hashes it, ledger/store/snapshot_binding.py); migrated
            in place by the first write (a column added, no row rewritten)
  format 4  the rows may be of schema version 3 (typed facts: a reason is a code with its
            parameters, ledger/records/upcast.py), which a banco of format 3 cannot read: the
            number is what keeps it out (it refuses to write into a newer format, and warns
            before reading one).  Nothing else changed: an older file is migrated in place by
            its first write (`meta` says so, `migrated_to_4_at`; no row rewritten, so old rows
            keep their bytes and heads); a snapshot a reading leaves does not migrate it

An older banco meets a newer file only through this number: each refuses to record in a format
above its own (and the format-1 banco, which knows no `meta`, is refused by the trigger
events_format_2), so an older banco never appends rows of its schema after rows it cannot read.

Tables are created through sqlite-utils (imported only by the first write of a new file or a
migration: a banker's command does not pay for it, DESIGN.md budgets).
"""

from __future__ import annotations

import json
import sqlite3

from banco.ledger.base.errors import DatabaseError, UsageError
from banco.ledger.base.text import msg
from banco.ledger.store.canonical import GENESIS, now_text, snapshot_digest
from banco.ledger.store.findings import BrokenChain, end_elsewhere
from banco.ledger.store.kept_snapshots import prune_args, prune_sql

FORMAT = 4  # what this banco writes; it reads 1 to 4

# The facts the games table follows.  The store knows these three names and nothing else of
# the game: where a game starts, where it ends, and that a retraction can take the end back.
STARTED, ENDED, RETRACTED = "GameStarted", "GameEnded", "EventRetracted"

FORMAT1_COLUMNS = ["game_id", "seq", "type", "data", "recorded_at", "actor", "command_id",
                   "schema_version", "prev_hash", "hash"]
COLUMNS = ", ".join(FORMAT1_COLUMNS) + ", chain_version, table_digest"
COLUMNS_FORMAT1 = ", ".join(FORMAT1_COLUMNS) + ", 1, NULL"  # a format-1 file read as it is
COLUMNS_FORMAT2 = ", ".join(FORMAT1_COLUMNS) + ", chain_version, NULL"  # a format-2 one
INSERT = f"INSERT INTO events ({COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)"
GAME_COLUMNS = ("game_id, game_uuid, command_id, started_at, players, rules, edition, "
                "last_seq, head, ended_seq")
INSERT_GAME = f"INSERT INTO games ({GAME_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?)"

TRIGGERS = (
    "CREATE TRIGGER IF NOT EXISTS events_no_update BEFORE UPDATE ON events "
    "BEGIN SELECT RAISE(ABORT, 'events are append-only: UPDATE refused'); END",
    "CREATE TRIGGER IF NOT EXISTS events_no_delete BEFORE DELETE ON events "
    "BEGIN SELECT RAISE(ABORT, 'events are append-only: DELETE refused'); END",
    # A banco from before format 2 knows nothing of `meta` and would append rows hashed the old
    # way, without updating `games`: the database itself refuses them.
    "CREATE TRIGGER IF NOT EXISTS events_format_2 BEFORE INSERT ON events "
    "WHEN NEW.chain_version < 2 BEGIN SELECT RAISE(ABORT, 'this database is banco format 2, "
    "written by a newer banco: upgrade banco to record in it'); END",
)
FORMAT_TRIGGER = "events_format_2"  # TRIGGERS[2]'s name: lifted by the import's bulk path
# The triggers that guard recorded rows (the format's guards none): what a write looks for
EVENT_GUARDS = tuple(sql.split()[5] for sql in TRIGGERS if sql.split()[5] != FORMAT_TRIGGER)

# Snapshots of folded tables (ledger/table/snapshot_codec.py): a cache beside the log, not part
# of it.  A row is trusted only when the log's event `seq` has the hash `head`; rows are
# replaced and pruned freely (ledger/store/kept_snapshots.py: the newest few of each game, since
# an undo may reach behind the newest, and one for every stretch of the game behind them).  Created by the first snapshot written, in the same transaction.  `digest`
# binds the text to the head (ledger/store/snapshot_binding.py): a table made before it gains
# the column (NULL in its old rows: never trusted, rebuilt).
SNAPSHOTS_TABLE = ("CREATE TABLE IF NOT EXISTS snapshots (game_id INTEGER NOT NULL, "
                   "seq INTEGER NOT NULL, head TEXT NOT NULL, format TEXT NOT NULL, "
                   "state TEXT NOT NULL, made_at TEXT NOT NULL, digest TEXT, "
                   "PRIMARY KEY (game_id, seq))")


def event_dict(row: tuple) -> dict:
    """A row of `events` (COLUMNS order) as the dict the rest of banco reads."""
    (game_id, seq, type_, data, recorded_at, actor, command_id, version, prev, hsh, chain,
     table) = row
    try:
        data = json.loads(data)
    except (TypeError, ValueError):
        raise DatabaseError("game {game} event {seq}: its data is not JSON, which banco never "
                            "writes: run `banco audit`", game=game_id, seq=seq) from None
    event = {"game_id": game_id, "seq": seq, "type": type_, "data": data,
             "recorded_at": recorded_at, "actor": actor, "command_id": command_id,
             "schema_version": version, "prev_hash": prev, "hash": hsh, "chain_version": chain}
    if table is not None:  # only where the book keeps a snapshot (chain version 3)
        event["table_digest"] = table
    return event


class DamagedGamesRow(DatabaseError):
    """A row of the games table holds what banco never writes there (players that are no
    JSON list of names, a last seq that is no number; issue 32): exit 4, the column named.
    `audit` and `doctor` list the games from the log instead (ledger/store/games.py
    listed_games) and name the damage as a finding; `doctor --repair` rebuilds the row."""


def _damaged(game, column: str, value) -> DamagedGamesRow:
    return DamagedGamesRow(msg(  # a Text: the catalogs find it by `msg`
        "game {game}'s row in the games table is damaged: its {column} is {value}, which "
        "banco never writes; `banco doctor --repair` rebuilds it from the game's log",
        game=game, column=column, value=repr(value)[:60]))


def game_dict(row: tuple) -> dict:
    """A row of `games` (GAME_COLUMNS order) as `games()` lists it; DamagedGamesRow for a row
    whose columns are not what banco writes (every reader of the list would stumble on it)."""
    g, uid, cid, at, players, rules, edition, last, head, ended = row
    try:
        names = json.loads(players) if players else []
    except (TypeError, ValueError, RecursionError):
        names = None
    if type(names) is not list or not all(type(n) is str for n in names):
        raise _damaged(g, "players", players)
    for column, value in (("last_seq", last), ("ended_seq", ended)):
        if value is not None and type(value) is not int:
            raise _damaged(g, column, value)
    for column, value in (("head", head), ("rules", rules), ("edition", edition),
                          ("game_uuid", uid), ("started_at", at)):
        if value is not None and type(value) is not str:
            raise _damaged(g, column, value)
    return {"game_id": g, "uuid": uid, "command_id": cid, "started_at": at,
            "players": names, "rules": rules,
            "edition": edition, "events": last, "head": head, "ended": ended is not None}


def create(conn: sqlite3.Connection) -> None:
    """Inside the first write transaction of an empty file: today's format from nothing."""
    import sqlite_utils  # only the first command on a new database pays for this import

    db = sqlite_utils.Database(conn, execute_plugins=False)
    db["events"].create(
        {"game_id": int, "seq": int, "type": str, "data": str, "recorded_at": str,
         "actor": str, "command_id": str, "schema_version": int, "prev_hash": str,
         "hash": str, "chain_version": int, "table_digest": str},
        pk=("game_id", "seq"), not_null={"type", "data", "recorded_at", "hash", "prev_hash",
                                         "schema_version", "chain_version"},
        defaults={"chain_version": 1})
    db["events"].create_index(["game_id", "command_id"])
    db["events"].create_index(["type"])
    _create_format2(conn, db)
    conn.executemany("INSERT INTO meta (key, value) VALUES (?, ?)",
                     [("application", "banco"), ("format", str(FORMAT)),
                      ("created_at", now_text())])


def _create_format2(conn: sqlite3.Connection, db) -> None:
    db["meta"].create({"key": str, "value": str}, pk="key", not_null={"value"})
    db["games"].create(
        {"game_id": int, "game_uuid": str, "command_id": str, "started_at": str,
         "players": str, "rules": str, "edition": str, "last_seq": int, "head": str,
         "ended_seq": int},
        pk="game_id", not_null={"last_seq", "head"})
    db["games"].create_index(["game_uuid"], unique=True)
    db["games"].create_index(["command_id"], unique=True)
    db["games"].create_index(["ended_seq", "game_id"])
    for trigger in TRIGGERS:
        conn.execute(trigger)


def migrate_to_3(conn: sqlite3.Connection) -> None:
    """Inside a write transaction, format 2 to 3 in place: `events` gains `table_digest`, NULL
    in every row written before (a change of the schema only; no row is rewritten)."""
    conn.execute("ALTER TABLE events ADD COLUMN table_digest TEXT")
    conn.executemany("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                     [("format", "3"), ("migrated_to_3_at", now_text())])


def migrate_to_4(conn: sqlite3.Connection) -> None:
    """Inside a write transaction, format 3 to 4 in place: only `meta` changes (the rows of
    schema version 3 this write may add are what an older banco must not write after)."""
    conn.executemany("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                     [("format", "4"), ("migrated_to_4_at", now_text())])


def migrate(conn: sqlite3.Connection) -> None:
    """Inside a write transaction, format 1 to 4 in place: no event row is rewritten (a column
    added with a default is a change of the schema only), the games table is filled from the
    log once."""
    import sqlite_utils

    db = sqlite_utils.Database(conn, execute_plugins=False)
    db["events"].add_column("chain_version", int, not_null_default=1)
    db["events"].add_column("table_digest", str)
    _create_format2(conn, db)
    ended = ended_seqs(conn)
    games = [(g,) for (g,) in conn.execute("SELECT DISTINCT game_id FROM events")]
    for (g,) in games:
        conn.execute(INSERT_GAME, game_row_format1(conn, g, ended.get(g)))
    conn.executemany("INSERT INTO meta (key, value) VALUES (?, ?)",
                     [("application", "banco"), ("format", str(FORMAT)),
                      ("migrated_from", "1"), ("migrated_at", now_text()),
                      ("migrated_games", str(len(games)))])


def upgrade(conn: sqlite3.Connection, found: int) -> None:
    """Inside a write transaction, a file of format `found` (1 to 3) to today's."""
    if found == 1:
        migrate(conn)
        return
    if found == 2:
        migrate_to_3(conn)
    migrate_to_4(conn)


def ended_seqs(conn: sqlite3.Connection, *, events: str = "events",
               mark: str = "?") -> dict[int, int]:
    """Per game, the seq of its GameEnded unless a retraction took it back (type index).
    `events`, `mark`: the log's table and the parameter mark (PostgreSQL's, as index_game)."""
    ended = dict(conn.execute(f"SELECT game_id, seq FROM {events} WHERE type={mark}",
                              (ENDED,)).fetchall())
    for g, data in conn.execute(f"SELECT game_id, data FROM {events} WHERE type={mark}",
                                (RETRACTED,)).fetchall():
        if ended.get(g) in json.loads(data).get("seqs", ()):
            del ended[g]
    return ended


def game_row_format1(conn: sqlite3.Connection, game_id: int, ended: int | None) -> tuple:
    """A game's row of `games` (GAME_COLUMNS order) worked out from its log: the migration,
    format 1's listing, and `doctor --repair`."""
    first = conn.execute("SELECT type, data, recorded_at, command_id FROM events WHERE "
                         "game_id=? ORDER BY seq LIMIT 1", (game_id,)).fetchone()
    last = conn.execute("SELECT seq, hash FROM events WHERE game_id=? ORDER BY seq DESC LIMIT 1",
                        (game_id,)).fetchone()
    type_, data, at, cid = first
    d = json.loads(data) if type_ == STARTED else {}
    rules = d.get("rules")
    return (game_id, d.get("game_uuid"), cid, at, json.dumps(d.get("players", []),
                                                             ensure_ascii=False),
            rules.get("name") if isinstance(rules, dict) else None, d.get("edition"),
            last[0], last[1], ended)


def index_game(conn, game_id: int, last_seq: int, written: list[dict], command_id: str, *,
               games: str = "games", insert_game: str = INSERT_GAME, mark: str = "?") -> None:
    """Inside the append's transaction: keep the game's row in `games` in step with the rows
    just written.  `games`, `insert_game`, `mark`: the table, its INSERT and the parameter
    mark of the store's SQL (PostgreSQL's are ledger/store/postgres.py's)."""
    if last_seq == 0:
        started = next((r["data"] for r in written if r["type"] == STARTED), {})
        uid = started.get("game_uuid")
        if uid is not None:
            taken = conn.execute(f"SELECT game_id FROM {games} WHERE game_uuid={mark}",
                                 (uid,)).fetchone()
            if taken:
                raise UsageError("game {game} in this database already has the identity "
                                 "{uid}; nothing was recorded", game=taken[0], uid=uid)
        rules = started.get("rules")
        conn.execute(insert_game,
                     (game_id, uid, command_id, written[0]["recorded_at"],
                      json.dumps(started.get("players", []), ensure_ascii=False),
                      rules.get("name") if isinstance(rules, dict) else None,
                      started.get("edition"), 0, GENESIS, None))
    found = conn.execute(f"SELECT ended_seq, last_seq, head FROM {games} WHERE game_id={mark}",
                         (game_id,)).fetchone()
    ended = found[0] if found else None
    if found and last_seq and (found[1], found[2]) != (last_seq, written[0]["prev_hash"]):
        # the log's end is not the one the games table recorded with the last append: its tail
        # was rewritten (re-chained) or cut; a command chained onto it would vouch for it and
        # write over the only evidence (a trial's re-chained events 10-11: `roll` exited 0)
        raise BrokenChain(game_id, end_elsewhere(found[1], found[2] or "", last_seq,
                                                 written[0]["prev_hash"]))
    for r in written:
        if r["type"] == ENDED:
            ended = r["seq"]
        elif r["type"] == RETRACTED and ended in r["data"].get("seqs", ()):
            ended = None
    conn.execute(f"UPDATE {games} SET last_seq={mark}, head={mark}, ended_seq={mark} "
                 f"WHERE game_id={mark}", (written[-1]["seq"], written[-1]["hash"], ended, game_id))


def put_snapshot(conn: sqlite3.Connection, game_id: int, seq: int, head: str, fmt: str,
                 text: str, made_at: str | None = None) -> None:
    """Inside a write transaction: keep a snapshot with its digest, and only those of the
    game's that ledger/store/kept_snapshots.py keeps."""
    conn.execute(SNAPSHOTS_TABLE)
    if not any(col[1] == "digest" for col in conn.execute("PRAGMA table_info(snapshots)")):
        conn.execute("ALTER TABLE snapshots ADD COLUMN digest TEXT")
    conn.execute("INSERT OR REPLACE INTO snapshots (game_id, seq, head, format, state, made_at, "
                 "digest) VALUES (?,?,?,?,?,?,?)",
                 (game_id, seq, head, fmt, text, made_at or now_text(),
                  snapshot_digest(seq, head, fmt, text)))
    conn.execute(prune_sql("snapshots", "?"), prune_args(game_id))
