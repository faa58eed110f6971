"""Tournaments: which finished championship games count, round by round (000 §PUNTEGGIO: "La
somma dei punteggi ottenuti durante i vari turni contribuiranno a creare la classifica
generale").

Kept in the game database, in a table of its own beside the games' (created by the first
`tournament new`), append-only like the events: one fact per row, hash-chained per
tournament, and triggers that refuse UPDATE and DELETE.

    tournament_facts(tournament, seq, type, data, recorded_at, actor, prev_hash, hash)
      TournamentStarted  {"name"}
      GameEntered        {"game_uuid", "game", "round", "seq", "head"}

`seq` and `head` are the game's last event and its hash when it was entered (facts written
before them have neither): the result entered is the game's at that event, a prefix of an
append-only chain, so a game changed after it was entered (an undo that reopened it, a
correction) is seen as such by the standings and the audit (projections/readings/tournament.py), and a
game's log rewritten under the tournament no longer has the head the tournament holds.

A game is entered by its identity (its GameStarted's game_uuid), with its local number as an
alias: the points are always worked out from the game's own log (projections/readings/tournament.py),
never copied here.  A game played at another table reaches this database by `banco import`
(the referee's words, which keep the game's identity); once imported it is added like any
other with `tournament add GAME`; a whole tournament comes in from its archive (`tournament
export`, projections/exchange/tournament_archive.py), its facts re-created by `append_facts`.
"""

from __future__ import annotations

import hashlib
import json
import re

from banco.ledger.base.errors import RuleViolation, UsageError
from banco.ledger.base.text import msg
from banco.ledger.board.rule_sets import shown
from banco.ledger.store.canonical import GENESIS, canonical_json
from banco.ledger.store.tournament_log import CREATE, TABLE, fact_hash

R_POINTS = "000 §PUNTEGGIO"

# What two recordings of the same moves differ by: the game's identity and the clock's times
# (in a command's fields, TimeRanOut, the end's reason).  Left out of `moves_digest`.
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)")


def moves_digest(store, game: int, upto: int) -> str | None:
    """A digest of game `game`'s moves, events 1..`upto`: each event's type and data (the
    banker's command lines and the facts they gave), its identity and times left out.  The
    same game entered twice under two identities (imported again with its uuid changed, its
    transcript run again with `run --fresh`) has the same digest; two games really played
    differ in their dice.  None for a game with no roll: two games ended before any roll
    (`new`, `time-up`) are alike whether or not they are one, and are not told apart."""
    h, rolled = hashlib.sha256(), False
    for r in store.raw_rows(game):
        seq, type_, data = r[1], r[2], r[3]
        if seq > upto:
            break
        rolled = rolled or type_ == "DiceRolled"
        h.update(f"{type_}\x00{_TIME.sub('T', _UUID.sub('U', data))}\x00".encode())
    return h.hexdigest() if rolled else None


def _twin(store, game: int, seq: int, players: list, entered: list[dict]) -> dict | None:
    """The entry among `entered` ({"game_uuid", "seq", "round"...}) with the same moves as
    `game` up to `seq`: only games of the same players and length are read."""
    mine = None
    for e in entered:
        other = store.find_game(uuid=e["game_uuid"])
        if other is None or other == game:
            continue
        info = store.game(other) or {}
        if (e.get("seq") or info.get("events")) != seq or info.get("players") != players:
            continue
        mine = mine or moves_digest(store, game, seq)
        if mine is None:
            return None  # no roll: nothing tells two such games apart
        if moves_digest(store, other, seq) == mine:
            return {**e, "game": other}
    return None


def heads(facts: list[dict]) -> list[str]:
    """The tournament's head after each fact, as printed under its standings: a sha256 chain
    over its facts' canonical JSON (tournament, seq, type, data, recorded_at, actor) with each
    game's local number left out, so that it is the same in every file that holds the
    tournament (its archive brings it to another database, where the games have other
    numbers), and a head printed earlier is found among them while the tournament goes on.
    The stored chain itself is the audit's (`verify`, ledger/store/health.py)."""
    out, prev = [], GENESIS
    for f in facts:
        body = {"tournament": f["tournament"], "seq": f["seq"], "type": f["type"],
                "data": {k: v for k, v in f["data"].items() if k != "game"},
                "recorded_at": f["recorded_at"], "actor": f["actor"]}
        prev = hashlib.sha256((prev + canonical_json(body)).encode("utf-8")).hexdigest()
        out.append(prev)
    return out


class Tournaments:
    """The tournaments of one database: a SQLiteStore's table, or a PostgresStore's
    (ledger/store/postgres_tournaments.py: the same rows and chain)."""

    def __init__(self, store):
        from banco.ledger.store.postgres_connection import is_postgres_url

        self.store = store
        self.pg = is_postgres_url(store.path)

    # --- reading -------------------------------------------------------------------------

    def facts(self, name: str | None = None) -> list[dict]:
        if self.pg:
            from banco.ledger.store import postgres_tournaments

            rows = postgres_tournaments.read(self.store, name)
        else:
            sql = (f"SELECT tournament, seq, type, data, recorded_at, actor, prev_hash, hash "
                   f"FROM {TABLE}")
            args: tuple = ()
            if name is not None:
                sql += " WHERE tournament=?"
                args = (name,)
            rows = self.store.read_table(sql + " ORDER BY rowid", args)
        keys = ("tournament", "seq", "type", "data", "recorded_at", "actor", "prev_hash", "hash")
        out = []
        for r in rows:
            row = dict(zip(keys, r, strict=True))
            row["data"] = json.loads(row["data"])
            out.append(row)
        return out

    def names(self) -> list[str]:
        return [f["tournament"] for f in self.facts() if f["type"] == "TournamentStarted"]

    def resolve(self, name: str | None) -> str:
        known = self.names()
        if not known:
            raise UsageError("no tournament in this database yet: `banco tournament new NAME`")
        if name is None:
            return known[-1]
        if name in known:
            return name
        from banco.ledger.base.names import resolve

        return resolve(name, known, "tournament")

    def entries(self, name: str | None = None) -> dict:
        """{"tournament", "games": [{"game_uuid", "game", "round", "seq", "head"}], "head"},
        the games in the order entered; `head`: the last of `heads(facts)`, which a printed
        copy of the standings holds the tournament to (`heads`: all of them)."""
        name = self.resolve(name)
        facts = self.facts(name)
        games = [f["data"] for f in facts if f["type"] == "GameEntered"]
        chain = heads(facts)
        return {"tournament": name, "games": games, "head": chain[-1] if chain else None,
                "heads": chain}

    def verify(self, name: str) -> str | None:
        """The first break in a tournament's chain (a message), or None."""
        prev = GENESIS
        for i, f in enumerate(self.facts(name), start=1):
            row = {**f, "data": canonical_json(f["data"])}
            if f["seq"] != i or f["prev_hash"] != prev or fact_hash(prev, row) != f["hash"]:
                return msg("tournament fact {n} does not match its hash chain", n=i)
            prev = f["hash"]
        return None

    # --- writing -------------------------------------------------------------------------

    def _append(self, name: str, facts: list[tuple[str, dict]], *, now: str,
                actor: str) -> None:
        dated = [(type_, data, now, actor) for type_, data in facts]
        if self.pg:
            from banco.ledger.store import postgres_tournaments

            postgres_tournaments.write(self.store, name, dated)
            return
        self.store.write(lambda conn: append_facts(conn, name, dated))

    def create(self, name: str, *, now: str, actor: str = "organiser") -> None:
        name = name.strip()
        if not name:
            raise UsageError("a tournament needs a name")
        if name in self.names():
            raise UsageError("there is already a tournament called {name!r}",
                             name=name)
        if self.store.conn is None and not self.pg:
            from banco.ledger.store.sqlite import missing_database

            raise missing_database(self.store.path)
        self._append(name, [("TournamentStarted", {"name": name})], now=now, actor=actor)

    def add(self, book, games: list[int], *, name: str | None = None, round_: int | None = None,
            now: str, actor: str = "organiser") -> list[dict]:
        """Enter games of this database as one round; returns what was entered with its
        points.  Each must be over and played by rules that give points."""
        from banco.ledger.table.score import points

        name = self.resolve(name)
        current = self.entries(name)["games"]
        rounds = [g["round"] for g in current]
        last = max(rounds, default=0)
        if round_ is None:
            round_ = last + 1
        elif round_ > last + 1:
            raise UsageError("round {round_}: the rounds so far are 1-{last}; the next is {amount}",
                             round_=round_, last=last, amount=last + 1)
        entered_uuids = {g["game_uuid"] for g in current}
        seated = {}
        for g in current:
            if g["round"] == round_:
                for p in book.state(g["game"]).seats:
                    seated[p] = g["game"]
        out, facts, entering = [], [], []
        for game in dict.fromkeys(games):
            info = book.store.game(game)
            if info is None:
                raise UsageError("no game {game} in this database (a game from another table comes in with `banco import` first)",
                                 game=game)
            state = book.state(game)
            if not state.rules.tournament_points:
                raise RuleViolation("game {game} is played by the {rules} rules, which give no tournament points", rule=R_POINTS,
                                    allowed=msg("games played with --rules championship"),
                                    game=game, rules=shown(state.rules))
            if not state.ended:
                raise RuleViolation("game {game} is still in progress: its points come at the end", rule=R_POINTS, allowed=msg("`time-up` ends it"),
                                    game=game)
            uid = info.get("uuid")
            if not uid:
                raise UsageError("game {game} has no identity (recorded by an older banco): it cannot be entered",
                                 game=game)
            if uid in entered_uuids:
                raise UsageError("game {game} is already in {name!r}",
                                 game=game, name=name)
            twin = _twin(book.store, game, state.seq, info.get("players"), current + entering)
            if twin is not None:  # the same game under another identity would count twice
                raise UsageError("game {game} has the same moves as game {twin}, already in "
                                 "{name!r} (round {round}): the same game twice (imported "
                                 "again under another identity, or its transcript run again); "
                                 "nothing was entered", game=game, twin=twin["game"],
                                 name=name, round=twin["round"])
            for p in state.seats:
                if p in seated:
                    raise UsageError("{player} plays game {seated} and game {game}: one table a round (round {round_})",
                                     player=p, seated=seated[p], game=game, round_=round_)
                seated[p] = game
            entered_uuids.add(uid)
            # the result entered is the game's at this event (projections/readings/tournament.py)
            head = book.hash_at(game, state.seq)
            fact = {"game_uuid": uid, "game": game, "round": round_, "seq": state.seq,
                    "head": head}
            facts.append(("GameEntered", fact))
            entering.append(fact)
            out.append({"tournament": name, "game": game, "round": round_,
                        "points": points(state)})
        self._append(name, facts, now=now, actor=actor)
        return out


def append_facts(conn, name: str, facts: list[tuple[str, dict, str, str | None]]) -> None:
    """Inside a write transaction: append (type, data, recorded_at, actor) facts to the
    tournament's chain (a tournament's archive re-creates its facts as they were recorded).
    `conn`: a SQLite file's, or a PostgreSQL store's (postgres_tournaments.append_facts)."""
    import sqlite3

    if not isinstance(conn, sqlite3.Connection):
        from banco.ledger.store import postgres_tournaments

        postgres_tournaments.append_facts(conn, name, facts)
        return
    for sql in CREATE:
        conn.execute(sql)
    last = conn.execute(f"SELECT seq, hash FROM {TABLE} WHERE tournament=? ORDER BY "
                        "seq DESC LIMIT 1", (name,)).fetchone()
    seq, prev = last if last else (0, GENESIS)
    for type_, data, now, actor in facts:
        seq += 1
        row = {"tournament": name, "seq": seq, "type": type_,
               "data": canonical_json(data), "recorded_at": now, "actor": actor}
        prev_hash, prev = prev, fact_hash(prev, row)
        conn.execute(f"INSERT INTO {TABLE} (tournament, seq, type, data, recorded_at, "
                     "actor, prev_hash, hash) VALUES (?,?,?,?,?,?,?,?)",
                     (name, seq, type_, row["data"], now, actor, prev_hash, prev))
