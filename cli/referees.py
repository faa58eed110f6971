"""Who may be a game's referee, and how the name is spelt: `--referee NAME` of `ruling --record`,
`correct` and `seal`, read against the game's players and the referees it has recorded."""

from __future__ import annotations

from banco.ledger.store.reading import game_start


def referee_of(store, game: int, text: str) -> str:
    """The name to record for `--referee TEXT` on `game`: checked as a name
    (ledger/rules/referee.py referee_name), refused if a player of the game (RuleViolation,
    exit 1), and spelt as the first recorded referee of the same name (`rita` after `Rita`)."""
    from banco.ledger.records.events import REFEREE_EVENTS
    from banco.ledger.rules.referee import game_referee, referee_name

    name = referee_name(text)
    start = game_start(store, game) or {"data": {}}
    players = start["data"].get("players") or ()  # the chain's, not the games row's
    # the referee's facts only, from the type index: a handful, not the game
    facts = sorted((r for t in REFEREE_EVENTS for r in store.read(game, types=(t,))),
                   key=lambda r: r["seq"])
    return game_referee(name, players, (r["data"].get("referee", "") for r in facts))
