"""The database file's health, beside the games' chains: what `audit` and `doctor` look at.

- the triggers that keep the logs append-only (events, tournament facts, maintenance);
- the indexes the store's lookups rely on;
- the games table: a mutable index (last seq, head, end) kept in the append transaction,
  checked here against the log it summarises, so a log cut short is caught without a seal;
- the maintenance history: what `doctor --repair` did, when and why, in an append-only,
  chained table (ledger/store/maintenance.py).

No game is folded here (that is projections/audit/audit.py): only the file's own structure.
"""

from __future__ import annotations

import json
import re
import sqlite3
from typing import NamedTuple

from banco.ledger.base.text import msg
from banco.ledger.store.canonical import GENESIS
from banco.ledger.store.maintenance import MAINTENANCE_DDL, record
from banco.ledger.store.maintenance import (
    maintenance as maintenance,  # the store's health reads it here
)
from banco.ledger.store.maintenance import problems as maintenance_problems
from banco.ledger.store.schema import INSERT_GAME, ended_seqs, game_row_format1
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


# --- the games table against the log -------------------------------------------------------

class LogEnd(NamedTuple):
    game: int
    last_seq: int
    head: str
    ended_seq: int | None


class Sql(NamedTuple):
    """The table names and parameter mark of a store's SQL, for the checks of the games table
    that both stores share (PostgreSQL's: ledger/store/postgres_health.py)."""
    events: str = "events"
    games: str = "games"
    meta: str = "meta"
    mark: str = "?"


SQLITE = Sql()


def log_ends(conn: sqlite3.Connection, sql: Sql = SQLITE) -> dict[int, LogEnd]:
    """Every game's last seq, head and end as the log itself has them (one indexed lookup a
    game, and the type index for the ends)."""
    ended = ended_seqs(conn, events=sql.events, mark=sql.mark)
    out = {}
    for (g,) in conn.execute(f"SELECT DISTINCT game_id FROM {sql.events}").fetchall():
        seq, head = conn.execute(f"SELECT seq, hash FROM {sql.events} WHERE game_id={sql.mark} "
                                 "ORDER BY seq DESC LIMIT 1", (g,)).fetchone()
        out[g] = LogEnd(g, seq, head, ended.get(g))
    return out


# What the games table keeps of each game's identity, as its log says it: the first row's time
# and command id, GameStarted's identity, players, rules and edition.  `games` and the
# tournament's entries are read from this table, so each column is held to the log.
IDENTITY = ("game_uuid", "command_id", "started_at", "players", "rules", "edition")


def log_identity(conn: sqlite3.Connection, game_id: int,
                 sql: Sql = SQLITE) -> tuple[dict, int] | None:
    """The games table's identity columns of a game as its log has them, and the seq of its
    GameStarted; None when the log has no readable GameStarted (the audit names that)."""
    first = conn.execute(f"SELECT recorded_at, command_id FROM {sql.events} WHERE "
                         f"game_id={sql.mark} ORDER BY seq LIMIT 1", (game_id,)).fetchone()
    started = conn.execute(f"SELECT seq, data FROM {sql.events} WHERE game_id={sql.mark} AND "
                           "type='GameStarted' ORDER BY seq LIMIT 1", (game_id,)).fetchone()
    if first is None or started is None:
        return None
    try:
        d = json.loads(started[1])
    except (TypeError, ValueError):
        return None
    if type(d) is not dict:
        return None
    rules = d.get("rules")
    return {"game_uuid": d.get("game_uuid"), "command_id": first[1], "started_at": first[0],
            "players": d.get("players", []),
            "rules": rules.get("name") if isinstance(rules, dict) else None,
            "edition": d.get("edition")}, started[0]


def _identity_differs(row: dict, log: dict) -> list[str]:
    """The identity columns of a games row that are not the log's.  An imported game's row has
    no command id (the import is not a command of this file)."""
    out = []
    for col in IDENTITY:
        said, has = row[col], log[col]
        if col == "players":
            try:
                said = json.loads(said)
            except (TypeError, ValueError):
                pass
        if col == "command_id" and said is None:
            continue
        if said != has:
            out.append(col)
    return out


def _shown(value) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def games_findings(conn: sqlite3.Connection, sql: Sql = SQLITE) -> list[Finding]:
    """The games table (format 2) against the log: every game's row, last seq, head, end,
    and its identity (who plays, under which rules, since when).  `sql`: another store's
    tables (their presence is then the caller's to know)."""
    if sql == SQLITE and "games" not in tables(conn):
        return []
    try:
        logs = log_ends(conn, sql)
    except (sqlite3.Error, ValueError, TypeError, AttributeError) as exc:
        return [Finding("games", msg("the log's ends cannot be read ({why})", why=str(exc)))]
    out = []
    indexed = {g: (last, head, ended) for g, last, head, ended in conn.execute(
        f"SELECT game_id, last_seq, head, ended_seq FROM {sql.games}")}
    for g in sorted(set(indexed) | set(logs)):
        log = logs.get(g)
        if g not in indexed:
            # its last seq, not a count: rows moved in from another game have seqs from there
            out.append(Finding("games", msg("game {game} has events up to event {last} in the "
                                            "log but no row in the games table", game=g,
                                            last=log.last_seq), g, 1, True))
            continue
        last, head, ended = indexed[g]
        damaged = [(col, v) for col, v in (("last_seq", last), ("ended_seq", ended))
                   if v is not None and type(v) is not int]
        if damaged or (head is not None and type(head) is not str):
            # no number to hold to the log (SQLite keeps any text in an INTEGER column)
            col, v = damaged[0] if damaged else ("head", head)
            out.append(Finding("games", msg("the games table's row of game {game} is damaged: "
                                            "its {column} is {value}, which banco never writes",
                                            game=g, column=col, value=repr(v)[:60]),
                               g, None, True))
            out += _identity_findings(conn, g, sql)
            continue
        if log is None:
            if last:
                out.append(Finding("games", msg("the games table says game {game} runs to "
                                                "event {last}, but the log holds none of its "
                                                "events: they were deleted", game=g, last=last),
                                   g, 1, True))
            continue
        if last > log.last_seq:
            out.append(Finding("games", msg(
                "the games table says game {game} runs to event {last} (head {head}...), but "
                "the log stops at event {logged}: events {first}-{last} were cut off", game=g,
                last=last, head=head[:12], logged=log.last_seq, first=log.last_seq + 1),
                g, log.last_seq + 1, True))
        elif last < log.last_seq:
            out.append(Finding("games", msg(
                "the log of game {game} goes on to event {logged}, past the event {last} the "
                "games table knows: events {first}-{logged} were not appended by banco", game=g,
                logged=log.last_seq, last=last, first=last + 1), g, last + 1, True))
        elif head != log.head:
            out.append(Finding("games", msg(
                "event {last} of game {game} has the hash {hash}..., not the head {head}... the "
                "games table recorded with it: it was rewritten", last=last, game=g,
                hash=log.head[:12], head=head[:12]), g, last, True))
        if ended != log.ended_seq and last == log.last_seq:
            said = (msg("ended at event {seq}", seq=ended) if ended is not None
                    else msg("unfinished"))
            has = (msg("ends at event {seq}", seq=log.ended_seq) if log.ended_seq is not None
                   else msg("has no GameEnded in force"))
            out.append(Finding("games", msg("the games table says game {game} is {said}, but "
                                            "its log {has}", game=g, said=said, has=has),
                               g, log.ended_seq or ended, True))
        out += _identity_findings(conn, g, sql)
    return out + _import_mark_findings(conn, logs, sql)


# Each games row beside its log, two index lookups a game (`banco games` lists them: a 1,000
# game file within its budget): the last event (seq and hash), and GameStarted, its time (its
# command's, the first event's) and the row's identity found in its canonical data text
# (found, not parsed: a third of the cost); an ended_seq's event, where there is one.  A text
# not in canonical form (an old row) only sends the exact check to work.  What this cannot
# see cheaply (a GameEnded whose row says unfinished) is doctor's.
_ROWS_SQL = """SELECT
 (SELECT seq || ' ' || hash FROM events e WHERE e.game_id = g.game_id ORDER BY seq DESC LIMIT 1)
   IS g.last_seq || ' ' || g.head,
 (SELECT recorded_at = g.started_at AND instr(data, '"players":' || json(g.players)) > 0
   AND instr(data, '"game_uuid":' || json_quote(g.game_uuid)) > 0
   AND instr(data, '"edition":' || json_quote(g.edition)) > 0
   AND instr(data, '"name":' || json_quote(g.rules)) > 0
  FROM events e WHERE e.game_id = g.game_id AND e.seq <= 4 AND e.type = 'GameStarted'
  ORDER BY seq LIMIT 1),
 g.ended_seq IS NULL OR (SELECT type FROM events e WHERE e.game_id = g.game_id
   AND e.seq = g.ended_seq) IS 'GameEnded'
FROM games g"""


def games_rows_differ(conn: sqlite3.Connection) -> bool:
    """Whether some row of the games table (a SQLite file's, format 2) may not be its log's:
    a quick look, which `games_findings` then makes exact (never a row said wrong that doctor
    finds right)."""
    try:
        rows = conn.execute(_ROWS_SQL).fetchall()
    except sqlite3.Error:  # a players column that is no JSON: doctor's to say
        return True
    return any(row != (1, 1, 1) for row in rows)


def _import_mark_findings(conn: sqlite3.Connection, logs: dict,
                          sql: Sql = SQLITE) -> list[Finding]:
    """`games` says where an imported game came from (meta's imported:G: at, from, events,
    head).  The mark is not in the chain, but what it says of the log can be checked: the game
    is here and its event `events` has the hash `head`, and it was not started here.  A mark
    added to a game played here, or one whose head is not in the log, was written by hand."""
    if sql == SQLITE and "meta" not in tables(conn):
        return []
    out = []
    for key, value in conn.execute(f"SELECT key, value FROM {sql.meta} WHERE key LIKE "
                                   "'imported:%'").fetchall():
        game = key.partition(":")[2]
        g = int(game) if game.isascii() and game.isdecimal() else None
        try:
            mark = json.loads(value)
            seq, head = mark["events"], mark["head"]
            ok = type(seq) is int and isinstance(head, str)
        except (TypeError, ValueError, KeyError):
            ok = False
        if g is None or not ok:
            out.append(Finding("games", msg("the import mark {key!r} cannot be read: banco "
                                            "did not write it", key=key), g, None))
            continue
        log = logs.get(g)
        found = (conn.execute(f"SELECT hash FROM {sql.events} WHERE game_id={sql.mark} AND "
                              f"seq={sql.mark}", (g, seq)).fetchone()
                 if log is not None else None)
        if found is None or found[0] != head:
            has = (msg("holds no such event") if found is None else
                   msg("has {hash}... there", hash=found[0][:12]))
            out.append(Finding("games", msg(
                "the import mark of game {game} says it came with {events} events and the head "
                "{head}..., but its log {has}: the mark was written by hand", game=g,
                events=seq, head=str(head)[:12], has=has), g, None))
        elif _started_here(conn, g, sql):
            out.append(Finding("games", msg(
                "the import mark of game {game} says it came from {source}, but game {game} was "
                "started here (its games row keeps the command that started it, which an "
                "import never records): the mark was written by hand", game=g,
                source=str(mark.get("from")) if isinstance(mark, dict) else "?"), g, None))
    return out


def _started_here(conn: sqlite3.Connection, g: int, sql: Sql) -> bool:
    """Whether the games row of `g` names the command that started it: a game begun by `new`
    in this database (an import, or a copy, leaves it empty)."""
    row = conn.execute(f"SELECT command_id FROM {sql.games} WHERE game_id={sql.mark}",
                       (g,)).fetchone()
    return row is not None and row[0] is not None


def _identity_findings(conn: sqlite3.Connection, g: int, sql: Sql = SQLITE) -> list[Finding]:
    found = log_identity(conn, g, sql)
    row = conn.execute(f"SELECT {', '.join(IDENTITY)} FROM {sql.games} WHERE game_id={sql.mark}",
                       (g,)).fetchone()
    if found is None or row is None:
        return []
    log, started = found
    row = dict(zip(IDENTITY, row, strict=True))
    return [Finding("games", msg(
        "the games table says game {game}'s {column} is {said}, but its log says {has} (event "
        "{seq}): the row was edited", game=g, column=col, said=_shown(row[col]),
        has=_shown(log[col]), seq=1 if col in ("command_id", "started_at") else started),
        g, 1 if col in ("command_id", "started_at") else started, True)
        for col in _identity_differs(row, log)]


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
    wrong = _identity_differs(dict(zip(IDENTITY, row, strict=True)), log)
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
