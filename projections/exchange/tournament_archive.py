"""A tournament in one file: `banco tournament export` writes it, `banco import` reads it.

Line 1 is the archive's header, canonical JSON:

    {"banco_tournament": 1, "name": ..., "started_at": ..., "started_by": ...,
     "games": [{"game_uuid", "round", "events", "head", "entered_seq", "entered_head",
                "entered_at", "entered_by"}, ...]}

the tournament's facts as recorded (its name, who started it when; each game entered: its
identity, round, the event and head it was entered at, by whom and when) and each game's
length and head as exported.  Then each game's export exactly as `banco export` writes it
(projections/exchange/exchange.py: its header line, then its events), in the order the games were
entered.  No local game number is in the file: export -> import -> export gives the same bytes.

The import verifies every game as a single import does (its lines numbered as the archive's),
holds each to the archive's header, re-creates the tournament's facts as they were recorded
and holds them to what the audit holds a tournament to (projections/readings/tournament.py), all in one
transaction: one bad game, and nothing is written.  One game at a time is read: memory is
bounded by a game, not by the tournament.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from itertools import chain, islice

from banco.ledger.base.errors import BancoError, UsageError
from banco.ledger.base.text import msg
from banco.ledger.store.canonical import canonical_json
from banco.projections.exchange.exchange import (
    ExportRefused,
    ImportRefused,
    Later,
    export_lines,
    import_lines,
)

FORMAT = 1
KEYS = ("banco_tournament", "games", "name", "started_at", "started_by")
GAME_KEYS = ("entered_at", "entered_by", "entered_head", "entered_seq", "events", "game_uuid",
             "head", "round")


def is_archive(line: str | None) -> bool:
    """Whether a file's first line is a tournament archive's header."""
    if not line or "banco_tournament" not in line:
        return False
    try:
        h = json.loads(line)
    except ValueError:
        return False
    return isinstance(h, dict) and "banco_tournament" in h


# --- export -----------------------------------------------------------------------------------

def archive_lines(book, name: str | None) -> Iterator[str]:
    """The archive of a tournament, line by line (no newlines).  A tournament the audit would
    fault is refused before anything is written; each game's export is checked against what
    the header says of it as it is written (a game changed meanwhile refuses the rest)."""
    from banco.ledger.tournaments import Tournaments
    from banco.projections.readings.tournament import tournament_findings

    t = Tournaments(book.store)
    name = t.resolve(name)
    broken = t.verify(name)
    problems = [broken] if broken else [f.problem for f in tournament_findings(book, [name])]
    if problems:
        raise ExportRefused("{problem}: run `banco audit`; nothing was exported",
                            problem=problems[0])
    facts = t.facts(name)
    by_uuid = {g["uuid"]: g for g in book.games() if g.get("uuid")}
    games, numbers = [], []
    for f in facts[1:]:
        d = f["data"]
        info = by_uuid.get(d["game_uuid"])
        if info is None:
            raise ExportRefused("{problem}: run `banco audit`; nothing was exported",
                                problem=msg("tournament {name}, fact {seq}: it enters game "
                                            "{game} ({uuid}), which is not in this database "
                                            "any more", name=repr(name), seq=f["seq"],
                                            game=d["game"], uuid=d["game_uuid"]))
        numbers.append(info["game_id"])
        games.append({"game_uuid": d["game_uuid"], "round": d["round"],
                      "events": info["events"], "head": info["head"],
                      "entered_seq": d.get("seq"), "entered_head": d.get("head"),
                      "entered_at": f["recorded_at"], "entered_by": f["actor"]})
    yield canonical_json({"banco_tournament": FORMAT, "name": name,
                          "started_at": facts[0]["recorded_at"], "started_by": facts[0]["actor"],
                          "games": games})
    for g, number in zip(games, numbers, strict=True):
        lines = export_lines(book.store, number)
        first = next(lines)  # the game's chain checked, end to end
        said = json.loads(first)
        if (said["events"], said["head"]) != (g["events"], g["head"]):
            raise ExportRefused("game {game}'s log is not what the games table says of it (it "
                                "changed meanwhile, or the table is wrong): run `banco audit`; "
                                "nothing was exported", game=number)
        yield first
        yield from lines


# --- import -----------------------------------------------------------------------------------

def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _header(line: str) -> dict:
    h = json.loads(line)
    if h["banco_tournament"] != FORMAT:
        raise UsageError("this export is format {found!r}; this banco reads format {format}",
                         found=h["banco_tournament"], format=FORMAT)
    games = h.get("games")
    ok = (sorted(h) == sorted(KEYS) and isinstance(h["name"], str) and h["name"].strip()
          and isinstance(h["started_at"], str) and isinstance(games, list)
          and all(isinstance(g, dict) and sorted(g) == sorted(GAME_KEYS)
                  and isinstance(g["game_uuid"], str) and _is_int(g["round"])
                  and _is_int(g["events"]) and isinstance(g["head"], str) for g in games))
    if not ok:
        raise ImportRefused("line 1 (the header) is not a tournament archive's header as `banco "
                            "tournament export` writes it; nothing was imported")
    return h


def import_archive(store, first: str, rest: Iterator[str], *, source: str, now: str) -> dict:
    """Import the tournament archive whose header is `first`, its other lines `rest` (read
    lazily): every game, then the tournament's facts, in one transaction.  Returns
    {"tournament", "games": [what import_lines returns, each]}."""
    from banco.ledger.book import Book
    from banco.ledger.tournaments import Tournaments, append_facts
    from banco.projections.readings.tournament import tournament_findings

    h = _header(first)
    name = h["name"]
    if name in Tournaments(store).names():
        raise UsageError("there is already a tournament called {name!r}", name=name)
    imp, done, number = None, [], 2
    # the games' audits at once, one a process, as a file's games are audited (DESIGN.md), when
    # the archive holds enough events for processes to be worth starting
    # (projections/audit/audit_games.py's rule); at most `workers()` running
    from banco.projections.audit.audit_games import workers
    from banco.projections.exchange import import_audit

    most = workers()
    parallel = most > 1 and sum(g["events"] for g in h["games"]) >= import_audit.THRESHOLD
    running: list[tuple[int, dict, int, Later]] = []  # (index, game, its line, Later)

    def conclude(upto: int) -> None:
        """The games running, in order, until `upto` are left: each game's verdict, then the
        game indexed in the transaction."""
        while len(running) > upto:
            index, g, line, later = running[0]
            try:
                later.conclude()
            except BancoError as exc:
                raise _named(exc, index, g, line) from None
            running.pop(0)
            later.close()

    def refused_before() -> None:
        """Before a refusal of the game being read: a game before it the audit refuses is the
        first thing wrong, and is said (their verdicts only: nothing is indexed)."""
        for index, g, line, later in running:
            try:
                later.judged()
            except BancoError as exc:
                raise _named(exc, index, g, line) from None

    try:
        for index, g in enumerate(h["games"], start=1):
            conclude(most - 1)  # a process free before the next game's audit starts
            imp = store.begin_import() if imp is None else imp.following()
            line = next(rest, None)
            if line is None:
                refused_before()
                raise ImportRefused("the archive ends at line {line}, but its header lists {count} "
                                    "games: it was cut short; nothing was imported",
                                    line=number - 1, count=len(h["games"]))
            try:
                count = json.loads(line).get("events")
            except (ValueError, AttributeError):
                count = None
            lines = chain([line], islice(rest, count if _is_int(count) and count > 0 else 0))
            later: list[Later] = []
            try:
                got = import_lines(store, lines, source=source, now=now, imp=imp,
                                   first_line=number, commit=False,
                                   later=later if parallel else None)
            except BancoError as exc:
                refused_before()
                raise _named(exc, index, g, number) from None
            if later:
                running.append((index, g, number, later[0]))
            if (got["uuid"], got["events"], got["head"]) != (g["game_uuid"], g["events"],
                                                              g["head"]):
                refused_before()  # this game's own verdict among them, as in one process
                raise ImportRefused("line {line}: game {index} of the archive is not the one its "
                                    "header lists ({uuid}, {events} events, head {head}...); "
                                    "nothing was imported", line=number, index=index,
                                    uuid=g["game_uuid"], events=g["events"],
                                    head=g["head"][:12])
            done.append(got)
            number += got["events"] + 1
        conclude(0)
        extra = next(rest, None)
        if extra is not None:
            raise ImportRefused("line {line}: the archive's header lists {count} games, and more "
                                "lines follow; nothing was imported", line=number,
                                count=len(h["games"]))
        if imp is None:  # a tournament without games yet
            imp = store.begin_import()
        facts = [("TournamentStarted", {"name": name}, h["started_at"], h["started_by"])]
        for g, got in zip(h["games"], done, strict=True):
            data = {"game_uuid": g["game_uuid"], "game": got["game"], "round": g["round"]}
            if g["entered_seq"] is not None:
                data.update(seq=g["entered_seq"], head=g["entered_head"])
            facts.append(("GameEntered", data, g["entered_at"], g["entered_by"]))
        append_facts(imp.conn, name, facts)
        found = tournament_findings(Book(store.path, store=store), [name])
        if found:
            raise ImportRefused("{problem}; nothing was imported", problem=found[0].problem)
        imp.commit()
    except BaseException:
        if imp is not None:
            imp.abort()
        raise
    finally:
        for *_, later in running:  # refused or interrupted: no audit left running
            later.close()
    return {"tournament": name, "games": done}


def _named(exc: BancoError, index: int, g: dict, line: int) -> BancoError:
    """A game's refusal, the game named, and where it begins in the archive."""
    exc.text = msg("game {index} of the archive ({uuid}), from line {line}: {problem}",
                   index=index, uuid=g["game_uuid"], line=line, problem=exc.text)
    exc.args = (str(exc.text),)
    return exc
