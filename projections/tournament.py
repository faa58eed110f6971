"""A tournament's standings: each entered game's points and scores, read from the game's own
log, summed by player (000 §PUNTEGGIO).

The seed ranks by points summed over the rounds and says nothing of a tie between players on
points; banco breaks it by the total of their score-sheet totals over the games played, then
by name, and says so in the document (`tie_break`).
"""

from __future__ import annotations

from ledger.score import places, points


def game_result(state) -> dict:
    """One game's points and scores by player (the bankrupt score 0)."""
    scores = {p.name: p.count for p in places(state)}
    scores.update({name: 0 for name in state.eliminated})
    return {"points": points(state) or {}, "scores": scores}


def standings(book, entries: dict) -> dict:
    by_uuid = {g["uuid"]: g["game_id"] for g in book.games() if g.get("uuid")}
    games, totals = [], {}
    for e in entries["games"]:
        game = by_uuid.get(e["game_uuid"], e["game"])
        result = game_result(book.state(game))
        games.append({"game": game, "uuid": e["game_uuid"], "round": e["round"], **result})
        for name, pts in result["points"].items():
            row = totals.setdefault(name, {"name": name, "points": 0, "score": 0, "games": 0})
            row["points"] += pts
            row["score"] += result["scores"].get(name, 0)
            row["games"] += 1
    ranked = sorted(totals.values(), key=lambda r: (-r["points"], -r["score"], r["name"]))
    for i, row in enumerate(ranked, start=1):
        row["rank"] = i
    return {"tournament": entries["tournament"],
            "rounds": max((g["round"] for g in games), default=0), "games": games,
            "players": ranked, "tie_break": "total score over the games played, then name"}
