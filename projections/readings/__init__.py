"""Read models over a game's log: statements, standings, the replay, the report, the screen."""
