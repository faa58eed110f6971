"""The database file's health, beside the games' chains: what `audit` and `doctor` look at.

- the triggers that keep the logs append-only (events, tournament facts, maintenance);
- the indexes the store's lookups rely on;
- the games table: a mutable index (last seq, head, end) kept in the append transaction,
  checked against the log it summarises (ledger/store/games_health.py), so a log cut short
  is caught without a seal;
- the maintenance history: what `doctor --repair` did, when and why, in an append-only,
  chained table (ledger/store/maintenance.py).

No game is folded here (that is projections/audit/audit.py): only the file's own structure.
"""

from __future__ import annotations

import json
import re
import sqlite3

from banco.ledger.base.text import msg
from banco.ledger.store.canonical import GENESIS
from banco.ledger.store.findings import Finding, tables
from banco.ledger.store.games_health import IDENTITY, identity_differs, log_ends, log_identity
from banco.ledger.store.maintenance import MAINTENANCE_DDL, record
from banco.ledger.store.maintenance import (
    maintenance as maintenance,  # the store's health reads it here
)
from banco.ledger.store.maintenance import problems as maintenance_problems
from banco.ledger.store.schema import INSERT_GAME, game_row_format1
from banco.ledger.store.schema import TRIGGERS as EVENT_TRIGGERS
from banco.ledger.store.tokens import DDL as TOKENS_DDL
from banco.ledger.store.tokens import problems as token_problems
from banco.ledger.store.tokens import unchecked as tokens_unchecked
from banco.ledger.store.tournament_log import CREATE as TOURNAMENT_DDL
from banco.ledger.store.tournament_log import TABLE as TOURNAMENTS

_NAME = re.compile(r"CREATE (?:UNIQUE )?(?:TRIGGER|INDEX) IF NOT EXISTS (\w+) ON (\w+)")
_TRIGGER_NAME = re.compile(r"CREATE TRIGGER IF NOT EXISTS (\w+) \w+ \w+ ON (\w+)")

# The indexes the store creates (ledger/store/sqlite.py, by sqlite-utils' names): the store's
# lookups by command id, by type (the end of a game), by identity and by unfinished game.
INDEXES = {
    "idx_events_game_id_command_id": "CREATE INDEX IF NOT EXISTS idx_events_game_id_command_id "
                                     "ON events (game_id, command_id)",
    "idx_events_type": "CREATE INDEX IF NOT EXISTS idx_events_type ON events (type)",
    "idx_games_game_uuid": "CREATE UNIQUE INDEX IF NOT EXISTS idx_games_game_uuid ON games "
                           "(game_uuid)",
    "idx_games_command_id": "CREATE UNIQUE INDEX IF NOT EXISTS idx_games_command_id ON games "
                            "(command_id)",
    "idx_games_ended_seq_game_id": "CREATE INDEX IF NOT EXISTS idx_games_ended_seq_game_id ON "
                                   "games (ended_seq, game_id)",
}


def _triggers_of(ddl) -> dict[str, tuple[str, str]]:
    """name -> (table, DDL) of the CREATE TRIGGER statements among `ddl`."""
    out = {}
    for sql in ddl:
        m = _TRIGGER_NAME.match(sql)
        if m:
            out[m.group(1)] = (m.group(2), sql)
    return out


# Every trigger banco keeps, by the table it guards (a table that does not exist yet needs none).
TRIGGERS = {**_triggers_of(EVENT_TRIGGERS), **_triggers_of(TOURNAMENT_DDL),
            **_triggers_of(MAINTENANCE_DDL), **_triggers_of(TOKENS_DDL)}


# A format-1 file (no `meta` table) is read as it is: it never had these.
FORMAT_2_ONLY = frozenset({"events_format_2"})


def _names(conn: sqlite3.Connection, kind: str) -> set[str]:
    return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type=?", (kind,))}


def missing_triggers(conn: sqlite3.Connection) -> list[str]:
    have, present = _names(conn, "trigger"), tables(conn)
    return [name for name, (table, _) in TRIGGERS.items()
            if table in present and name not in have
            and (name not in FORMAT_2_ONLY or "meta" in present)]


def missing_indexes(conn: sqlite3.Connection) -> list[str]:
    have, present = _names(conn, "index"), tables(conn)
    return [name for name, sql in INDEXES.items()
            if _NAME.match(sql).group(2) in present and name not in have]


def structure_findings(conn: sqlite3.Connection) -> list[Finding]:
    """Missing triggers and indexes."""
    out = []
    for name in missing_triggers(conn):
        table = TRIGGERS[name][0]
        if name == "events_format_2":
            what = msg("an older banco could append rows hashed the old way")
        elif "update" in name:
            what = msg("rows of {table} can be changed without a trace but the chain's",
                       table=table)
        else:
            what = msg("rows of {table} can be deleted without a trace but the chain's",
                       table=table)
        out.append(Finding("trigger", msg("the trigger {name} is missing: {what} (`banco doctor "
                                          "--repair` recreates it)", name=name, what=what),
                           repairable=True))
    for name in missing_indexes(conn):
        out.append(Finding("index", msg("the index {name} is missing: lookups are slow (`banco "
                                        "doctor --repair` recreates it)", name=name),
                           repairable=True))
    return out


# --- the tournaments' own chains ------------------------------------------------------------

TOURNAMENT_FACTS = {"TournamentStarted", "GameEntered"}


def tournament_findings(conn: sqlite3.Connection) -> list[Finding]:
    """Each tournament's chain in a SQLite file (tournament_chain_findings)."""
    if TOURNAMENTS not in tables(conn):
        return []
    rows = conn.execute(f"SELECT tournament, seq, type, data, recorded_at, actor, prev_hash, "
                        f"hash FROM {TOURNAMENTS} ORDER BY tournament, seq").fetchall()
    known = ({u for (u,) in conn.execute("SELECT game_uuid FROM games")}
             if "games" in tables(conn) else None)
    return tournament_chain_findings(rows, known)


def tournament_chain_findings(rows: list[tuple], known: set | None) -> list[Finding]:
    """Each tournament's chain, from its rows as stored (tournament, seq, type, data,
    recorded_at, actor, prev_hash, hash; by tournament and seq; the data as its text, which is
    what was hashed), every fact's data a JSON object of a type banco writes, every game it
    enters among the identities `known` (None: no games table to hold them to)."""
    from banco.ledger.store.tournament_log import fact_hash

    out = []
    state: dict[str, tuple[int, str]] = {}
    broken: set[str] = set()
    entered: list[tuple] = []
    for name, seq, type_, data, at, actor, prev_hash, hsh in rows:
        if name in broken:
            continue
        expected, prev = state.get(name, (1, GENESIS))

        def bad(problem: str, at_seq: int = seq, name: str = name) -> None:
            out.append(Finding("tournament", msg("tournament {name}, fact {seq}: {problem}",
                                                 name=repr(name), seq=at_seq, problem=problem),
                               seq=at_seq))
            broken.add(name)

        if seq != expected:
            bad(msg("is missing (the next one is fact {seq}): a row was deleted", seq=seq),
                expected)
            continue
        if prev_hash != prev:
            bad(msg("its prev_hash is not the hash of the fact before it: facts were moved or "
                    "taken out"))
            continue
        row = {"tournament": name, "seq": seq, "type": type_, "data": data,
               "recorded_at": at, "actor": actor}
        try:
            same = fact_hash(prev, row) == hsh
        except TypeError as exc:
            bad(msg("its content is not banco's ({why})", why=str(exc)))
            continue
        if not same:
            bad(msg("its content does not match its hash: the row was edited"))
            continue
        try:
            value = json.loads(data)
        except (TypeError, ValueError):
            bad(msg("its data is not JSON"))
            continue
        if not isinstance(value, dict):
            bad(msg("its data is not a JSON object"))
            continue
        if type_ not in TOURNAMENT_FACTS:
            bad(msg("{type} is not a tournament fact banco writes", type=type_))
            continue
        state[name] = (seq + 1, hsh)
        if type_ == "GameEntered":
            entered.append((name, seq, value.get("game_uuid"), value.get("game")))
    # A game is entered by its identity: it must still be in this file.
    if known is not None:
        for name, seq, uid, game in entered:
            if uid not in known:
                out.append(Finding("tournament", msg(
                    "tournament {name}, fact {seq}: it enters game {game} ({uuid}), which is not "
                    "in this database any more", name=repr(name), seq=seq, game=game, uuid=uid),
                    seq=seq))
    return out


# --- the maintenance history (ledger/store/maintenance.py) -----------------------------------

def maintenance_findings(conn: sqlite3.Connection) -> list[Finding]:
    """An entry of the maintenance history deleted, edited, dated back or written by hand."""
    return [Finding("maintenance", p) for p in maintenance_problems(conn)]


def token_findings(conn: sqlite3.Connection) -> list[Finding]:
    """The phones' tokens history (ledger/store/tokens.py): an entry deleted, edited or
    written by hand is a way into `serve` that no `banco token` gave."""
    return [Finding("tokens", p) for p in token_problems(conn)]


def token_not_checked(conn: sqlite3.Connection) -> list:
    """What of the tokens history cannot be checked here (its key elsewhere): not a problem."""
    return tokens_unchecked(conn)


def repair(conn: sqlite3.Connection, *, now: str, why: str) -> list[str]:
    """Inside a write transaction: recreate missing triggers and indexes, rebuild the games
    table's rows that disagree with the log, and record each thing done in the maintenance
    history.  Returns what was done (nothing: []), as messages (the history keeps their
    English)."""
    done = []
    present = tables(conn)
    for name in missing_triggers(conn):
        conn.execute(TRIGGERS[name][1])
        done.append(msg("recreated the trigger {name}", name=name))
    for name in missing_indexes(conn):
        conn.execute(INDEXES[name])
        done.append(msg("recreated the index {name}", name=name))
    if "games" in present:
        logs = log_ends(conn)
        indexed = {g: (last, head, ended) for g, last, head, ended in conn.execute(
            "SELECT game_id, last_seq, head, ended_seq FROM games")}
        for g in sorted(set(indexed) | set(logs)):
            log = logs.get(g)
            if log is None:
                continue  # a row with no log: kept, the audit goes on naming it
            if g in indexed:
                done += _repair_identity(conn, g)
            if indexed.get(g) == (log.last_seq, log.head, log.ended_seq):
                continue
            was = indexed.get(g)
            row = game_row_format1(conn, g, log.ended_seq)
            if was is None:
                conn.execute(INSERT_GAME, row)
                done.append(msg("added game {game} to the games table from its log (event "
                                "{seq}, head {head}...)", game=g, seq=log.last_seq,
                                head=log.head[:12]))
                _repair_identity(conn, g)  # a format-2 log begins with its command, not GameStarted
            else:
                conn.execute("UPDATE games SET last_seq=?, head=?, ended_seq=? WHERE game_id=?",
                             (log.last_seq, log.head, log.ended_seq, g))
                done.append(msg("rebuilt game {game}'s row of the games table from its log: "
                                "event {was_seq} -> {seq}, head {was_head}... -> {head}..., end "
                                "{was_end} -> {end}", game=g, was_seq=was[0], seq=log.last_seq,
                                was_head=was[1][:12], head=log.head[:12], was_end=was[2],
                                end=log.ended_seq))
    record(conn, done, now=now, why=why)
    return done


def _repair_identity(conn: sqlite3.Connection, g: int) -> list:
    found = log_identity(conn, g)
    if found is None:
        return []
    log = found[0]
    row = conn.execute(f"SELECT {', '.join(IDENTITY)} FROM games WHERE game_id=?",
                       (g,)).fetchone()
    wrong = identity_differs(dict(zip(IDENTITY, row, strict=True)), log)
    if not wrong:
        return []
    values = [json.dumps(log[c], ensure_ascii=False) if c == "players" else log[c]
              for c in wrong]
    conn.execute(f"UPDATE games SET {', '.join(f'{c}=?' for c in wrong)} WHERE game_id=?",
                 (*values, g))
    return [msg("rebuilt game {game}'s {columns} in the games table from its log", game=g,
                columns=", ".join(wrong))]


def forget_snapshots(conn: sqlite3.Connection, bad: list[tuple[int, int, str]], *, now: str,
                     why: str) -> list[str]:
    """Inside a write transaction: delete the snapshots (game, seq, problem) that are not the
    table their log folds to, recorded in the maintenance history.  A snapshot is a cache:
    the next command folds from the log and writes a sound one."""
    done = []
    for game, seq, problem in bad:
        conn.execute("DELETE FROM snapshots WHERE game_id=? AND seq=?", (game, seq))
        done.append(msg("deleted game {game}'s snapshot at event {seq} ({problem})",
                        game=game, seq=seq, problem=problem))
    record(conn, done, now=now, why=why)
    return done
