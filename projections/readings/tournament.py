"""A tournament's standings: each entered game's points and scores, read from the game's own
log, summed by player (000 §PUNTEGGIO); and what the audit holds a tournament's facts to
beyond their chain (ledger/store/health.py checks the chain itself).

The seed ranks by points summed over the rounds and says nothing of a tie between players on
points; banco breaks it by the total of their score-sheet totals over the games played, then
by name, and says so in the document (`tie_break`).

A game counts as it was entered: its result at the event the tournament holds (GameEntered's
`seq` and `head`), a prefix of an append-only chain.  A game changed after that (an undo that
reopened it, a correction that moved a score) is said beside the standings and named by the
audit, never counted quietly.
"""

from __future__ import annotations

from banco.ledger.base.errors import BancoError
from banco.ledger.base.text import msg
from banco.ledger.board.rule_sets import shown
from banco.ledger.store.health import Finding
from banco.ledger.table.score import places, points

R_POINTS = "000 §PUNTEGGIO"


def game_result(state) -> dict:
    """One game's points and scores by player (the bankrupt score 0)."""
    scores = {p.name: p.count for p in places(state)}
    scores.update({name: 0 for name in state.eliminated})
    return {"points": points(state) or {}, "scores": scores}


def _entered_and_now(book, game: int, entry: dict):
    """(the table at the event the game was entered at, the table now).  A fact from before
    `seq` was recorded: the table now, twice."""
    now = book.state(game)
    seq = entry.get("seq")
    if seq is None or seq == now.seq:
        return now, now
    return book.state(game, at=seq), now


def change(then, now) -> object | None:
    """What differs in a game's result between the table entered and the table now (a Text),
    or None (a ruling noted after the end changes no result)."""
    if then is now:
        return None
    if not now.ended:
        return msg("it is not over any more (events {first}-{last} came after it)",
                   first=then.seq + 1, last=now.seq)
    was, is_ = game_result(then), game_result(now)

    def say(values: dict) -> str:
        return ", ".join(f"{n} {v}" for n, v in values.items())

    if was["points"] != is_["points"]:
        return msg("its points are now {now} (entered: {was})", now=say(is_["points"]),
                   was=say(was["points"]))
    if was["scores"] != is_["scores"]:  # the tie-break's total moves with them
        return msg("its score sheet is now {now} (entered: {was})", now=say(is_["scores"]),
                   was=say(was["scores"]))
    return None


def standings(book, entries: dict) -> dict:
    by_uuid = {g["uuid"]: g["game_id"] for g in book.games() if g.get("uuid")}
    games, totals = [], {}
    for e in entries["games"]:
        game = by_uuid.get(e["game_uuid"], e["game"])
        then, now = _entered_and_now(book, game, e)
        result = game_result(then)
        changed = change(then, now)
        games.append({"game": game, "uuid": e["game_uuid"], "round": e["round"],
                      "entered_seq": e.get("seq"), "entered_head": e.get("head"),
                      "changed": changed, **result})  # a Text: English in the JSON
        for name, pts in result["points"].items():
            row = totals.setdefault(name, {"name": name, "points": 0, "score": 0, "games": 0})
            row["points"] += pts
            row["score"] += result["scores"].get(name, 0)
            row["games"] += 1
    _twins(book.store, games)
    ranked = sorted(totals.values(), key=lambda r: (-r["points"], -r["score"], r["name"]))
    for i, row in enumerate(ranked, start=1):
        row["rank"] = i
    return {"tournament": entries["tournament"],
            "rounds": max((g["round"] for g in games), default=0), "games": games,
            "players": ranked, "tie_break": "total score over the games played, then name",
            "head": entries.get("head")}


def _twins(store, games: list[dict]) -> None:
    """Each game's `twin_of`: the game entered before it with the same moves (the same game
    under two identities, entered before `tournament add` refused it, or by an archive), else
    None.  Only games of the same players and length are read (ledger/tournaments.py
    moves_digest)."""
    from banco.ledger.tournaments import moves_digest

    groups: dict[tuple, list[dict]] = {}
    for g in games:
        g["twin_of"] = None
        info = store.game(g["game"]) or {}
        seq = g["entered_seq"] or info.get("events") or 0
        groups.setdefault((tuple(info.get("players") or ()), seq), []).append(g)
    for (_, seq), same in groups.items():
        first: dict[str, int] = {}
        for g in same if len(same) > 1 else ():
            digest = moves_digest(store, g["game"], seq)  # None: no roll, not told apart
            found = first.setdefault(digest, g["game"]) if digest is not None else g["game"]
            g["twin_of"] = found if found != g["game"] else None


# --- the audit's checks beyond the chain ------------------------------------------------------

def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _entry_ok(data: dict) -> bool:
    """GameEntered's fields as banco writes them (seq and head absent only in old facts)."""
    keys = set(data)
    if keys not in ({"game_uuid", "game", "round"}, {"game_uuid", "game", "round", "seq",
                                                      "head"}):
        return False
    return (isinstance(data["game_uuid"], str) and _is_int(data["game"])
            and _is_int(data["round"]) and data["round"] >= 1
            and ("seq" not in data or (_is_int(data["seq"]) and data["seq"] >= 1
                                       and isinstance(data["head"], str))))


def tournament_findings(book, names: list[str] | None = None) -> list[Finding]:
    """What each tournament whose chain holds says that banco's `tournament new` and `add`
    would never have written: a name that is not its own, a fact out of place, a game entered
    twice, a round skipped, a player at two tables in a round, a game not over or not giving
    points at the event it was entered at, a game whose log no longer has the head entered, a
    game whose result changed after it was entered."""
    from banco.ledger.tournaments import Tournaments

    t = Tournaments(book.store)
    out: list[Finding] = []
    by_uuid = {g["uuid"]: g["game_id"] for g in book.games() if g.get("uuid")}
    for name in names if names is not None else _chained(t):
        if t.verify(name) is not None:
            continue  # ledger/store/health.py names the break
        facts = t.facts(name)

        def bad(seq: int, problem, game: int | None = None, name: str = name) -> None:
            out.append(Finding("tournament", msg("tournament {name}, fact {seq}: {problem}",
                                                 name=repr(name), seq=seq, problem=problem),
                               game, seq))

        last_round, first_of, seated = 0, {}, {}
        for f in facts:
            seq, type_, data = f["seq"], f["type"], f["data"]
            if (seq == 1) != (type_ == "TournamentStarted"):
                bad(seq, msg("{type} is out of place: a tournament begins with one "
                             "TournamentStarted, then enters games", type=type_))
                continue
            if type_ == "TournamentStarted":
                if data != {"name": name}:
                    bad(seq, msg("it starts a tournament called {said}, but its facts are "
                                 "filed under {name}: the tournament was renamed",
                                 said=repr(data.get("name")), name=repr(name)))
                continue
            if not _entry_ok(data):
                bad(seq, msg("its data is not what banco writes for {type}", type=type_))
                continue
            uid, rnd = data["game_uuid"], data["round"]
            game = by_uuid.get(uid)
            if uid in first_of:
                bad(seq, msg("it enters game {game} again (fact {first} entered it)",
                             game=data["game"], first=first_of[uid]), game)
                continue
            first_of[uid] = seq
            if rnd > last_round + 1:
                bad(seq, msg("it enters game {game} in round {round_}, but round {missing} has "
                             "no game: a round was taken out", game=data["game"], round_=rnd,
                             missing=last_round + 1), game)
            last_round = max(last_round, rnd)
            if game is None:
                continue  # ledger/store/health.py: the game is not in this database any more
            try:
                if "seq" in data and book.hash_at(game, data["seq"]) != data["head"]:
                    bad(seq, msg("game {game}'s event {at} is not the one entered (head "
                                 "{head}...): the game's history was rewritten", game=game,
                                 at=data["seq"], head=data["head"][:12]), game)
                    continue
                then, now = _entered_and_now(book, game, data)
            except BancoError as exc:
                bad(seq, exc.text, game)
                continue
            if not then.rules.tournament_points:
                bad(seq, msg("game {game} is played by the {rules} rules, which give no "
                             "tournament points", game=game, rules=shown(then.rules)), game)
                continue
            if not then.ended:
                bad(seq, msg("game {game} was not over at event {at}, where it was entered",
                             game=game, at=then.seq), game)
                continue
            for p in then.seats:
                other = seated.setdefault((rnd, p), game)
                if other != game:
                    bad(seq, msg("{player} plays game {seated} and game {game}: one table a "
                                 "round (round {round_})", player=p, seated=other, game=game,
                                 round_=rnd), game)
                    break
            changed = change(then, now)
            if changed is not None:
                bad(seq, msg("game {game} changed after it was entered at event {at}: {what}",
                             game=game, at=then.seq, what=changed), game)
    return out


def _chained(t) -> list[str]:
    """Every tournament with facts (a renamed one's TournamentStarted may say another name)."""
    return list(dict.fromkeys(f["tournament"] for f in t.facts()))
