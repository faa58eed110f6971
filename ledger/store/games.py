"""The games of a SQLite file, as its `games` table indexes them (one row per game, kept in the
append's transaction: the log is not read to list them), and the identity of the games that
came from another file.  A part of SQLiteStore (ledger/store/sqlite.py), kept apart for its
size: it reads `conn`, `format` and `meta` of the store, and asks `has_tables()` first."""

from __future__ import annotations

import json
import sqlite3

from banco.ledger.store.connection import guarded
from banco.ledger.store.schema import GAME_COLUMNS, ended_seqs, game_dict, game_row_format1


class GameIndex:
    """The store's reads of its games table (a mixin of SQLiteStore)."""

    conn: sqlite3.Connection | None
    format: int
    meta: dict[str, str]

    def has_tables(self) -> bool:
        raise NotImplementedError  # SQLiteStore's

    GAME_COLUMNS = GAME_COLUMNS

    @guarded(writing=False)
    def games(self) -> list[dict]:
        """Every game: game_id, uuid, started_at, players, rules, edition, events, head, ended,
        and `beside`'s chain_game_id and imported.  From the games table: the log is not read
        (format 1: the old scan)."""
        if not self.has_tables():
            return []
        if self.format == 1:
            return [{**g, **self.beside(g["game_id"])} for g in self._games_format1()]
        return [{**game_dict(r), **self.beside(r[0])} for r in self.conn.execute(
            f"SELECT {GAME_COLUMNS} FROM games ORDER BY game_id")]

    @guarded(writing=False)
    def game(self, game_id: int) -> dict | None:
        """One game as `games` lists it, with where it came from (`beside`), or None."""
        if not self.has_tables():
            return None
        if self.format == 1:
            found = next((g for g in self._games_format1() if g["game_id"] == game_id), None)
        else:
            row = self.conn.execute(f"SELECT {GAME_COLUMNS} FROM games WHERE game_id=?",
                                    (game_id,)).fetchone()
            found = game_dict(row) if row else None
        return None if found is None else {**found, **self.beside(game_id)}

    @guarded(writing=False)
    def latest_game(self, unfinished: bool) -> int | None:
        """The highest game number, among the unfinished ones if asked (an index lookup)."""
        if not self.has_tables():
            return None
        if self.format == 1:
            games = [g for g in self._games_format1() if not (unfinished and g["ended"])]
            return games[-1]["game_id"] if games else None
        where = "WHERE ended_seq IS NULL " if unfinished else ""
        row = self.conn.execute(f"SELECT game_id FROM games {where}ORDER BY game_id DESC "
                                "LIMIT 1").fetchone()
        return row[0] if row else None

    def _games_format1(self) -> list[dict]:
        conn = self.conn
        ended = ended_seqs(conn)
        out = []
        for (g,) in conn.execute("SELECT DISTINCT game_id FROM events ORDER BY game_id").fetchall():
            out.append(game_dict(game_row_format1(conn, g, ended.get(g))))
        return out

    @guarded(writing=False)
    def find_game(self, *, command_id: str | None = None, uuid: str | None = None,
                  first_hash: str | None = None) -> int | None:
        """The game a command started (an idempotent `new`), the game with this identity, or
        the game whose first row has this hash (the identity of a game from before game
        uuids: a scan of every game's first row; only such imports ask); None for none."""
        column, value = asked(command_id, uuid, first_hash)
        if not self.has_tables():
            return None
        if column == "hash":
            row = self.conn.execute("SELECT game_id FROM events WHERE seq=1 AND hash=?",
                                    (value,)).fetchone()
        elif self.format < 2:  # format 1 kept neither (no games table)
            return None
        else:
            row = self.conn.execute(f"SELECT game_id FROM games WHERE {column}=?",
                                    (value,)).fetchone()
        return row[0] if row else None

    # --- games that came from another database ------------------------------------------------

    # A game's version-1 rows hash the game number they were first written under.  Imported
    # under another number, the number they hash is kept in `meta` (one row per such game,
    # read with the rest of meta when the file is opened, so a read costs nothing more).
    CHAIN_GAME_KEY = "chain_game_id:{}"
    IMPORTED_KEY = "imported:{}"

    def beside(self, game_id: int) -> dict:
        """What `game()` adds to a game's row from meta (read with the file: no query):
        `chain_game_id`, the game number its version-1 rows were hashed with when it is not
        its own (an imported game), else None; `imported`, where and when it was imported
        from (at, from, events, head), else None for a game played here."""
        number = self.meta.get(self.CHAIN_GAME_KEY.format(game_id))
        came = self.meta.get(self.IMPORTED_KEY.format(game_id))
        return {"chain_game_id": int(number) if number is not None else None,
                "imported": json.loads(came) if came is not None else None}

    def with_chain_ids(self, game_id: int, rows: list[dict]) -> list[dict]:
        """`rows` of the game, each version-1 row told the number it hashes (chain_game_id)."""
        hashed_as = self.beside(game_id)["chain_game_id"]
        if hashed_as is not None:
            for row in rows:
                if row["chain_version"] == 1:
                    row["chain_game_id"] = hashed_as
        return rows


def asked(command_id: str | None, uuid: str | None, first_hash: str | None) -> tuple[str, str]:
    """find_game's one key: (the column it is looked up by, its value)."""
    keys = [(c, v) for c, v in (("command_id", command_id), ("game_uuid", uuid),
                                ("hash", first_hash)) if v is not None]
    if len(keys) != 1:  # a caller's mistake, never a user's
        raise ValueError("find_game: name exactly one of command_id, uuid, first_hash")
    return keys[0]


def listed_games(store) -> list[dict]:
    """`store.games()`, or, where a row of the games table is damaged (DamagedGamesRow), each
    game of the log with its own last seq and head: what `audit` and `doctor` go through, so
    that they name the damage (the games table against the log, ledger/store/health.py)
    instead of stopping at it, and `doctor --repair` can rebuild the row."""
    from banco.ledger.store.schema import DamagedGamesRow

    try:
        return store.games()
    except DamagedGamesRow:
        pass
    out = []
    for g in store.checks().logged_games():
        last = store.last_seq(g)
        out.append({"game_id": g, "uuid": None, "command_id": None, "started_at": None,
                    "players": [], "rules": None, "edition": None, "events": last,
                    "head": store.head(g), "ended": False})
    return out
