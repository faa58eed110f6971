"""The games table against the log, a check both stores share (SQLite's: ledger/store/
sqlite_checks.py; PostgreSQL's on its own tables: postgres_health.py).  The games table is a
mutable index (last seq, head, end, identity) kept in the append transaction: held here to the
log it summarises, so a log cut short or a row edited is caught without a seal.  Each import
mark (meta's imported:G) is held to the log too.  `doctor --repair` rebuilds from the same
readings (ledger/store/health.py repair)."""

from __future__ import annotations

import json
import sqlite3
from typing import NamedTuple

from banco.ledger.base.text import msg
from banco.ledger.store.findings import Finding, end_elsewhere, tables
from banco.ledger.store.schema import ended_seqs


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


def identity_differs(row: dict, log: dict) -> list[str]:
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
        if last > log.last_seq or (last == log.last_seq and head != log.head):
            # cut, or rewritten and re-chained: the one finding a reading warns of and a write
            # refuses, in the same words (ledger/store/findings.py)
            end = end_elsewhere(last, head or "", log.last_seq, log.head or "")
            # where the audit says the game fails: the first event cut off, or the rewritten end
            where = log.last_seq + 1 if last > log.last_seq else last
            out.append(Finding("games", msg("game {game} event {seq} {problem}", game=g,
                                            seq=end.seq, problem=end.problem), g, where, True))
        elif last < log.last_seq:
            out.append(Finding("games", msg(
                "the log of game {game} goes on to event {logged}, past the event {last} the "
                "games table knows: events {first}-{logged} were not appended by banco", game=g,
                logged=log.last_seq, last=last, first=last + 1), g, last + 1, True))
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
        for col in identity_differs(row, log)]
