"""What a referee reasons from the log: rulings, what another rule set would have made of a game,
moments named by seq or time."""
