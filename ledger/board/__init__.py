"""What a game is played with: the board editions and the rule sets, both data shipped in data/."""
