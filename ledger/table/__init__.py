"""The table as a value and the one fold that rebuilds it from events (state), with the pure
readings over it: what things are worth, who may sit, the decks, the score."""
