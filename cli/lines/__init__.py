"""A banker's line into a typed command, and a command's outcome into words, with no click and
nothing printed: the one table of command words (vocabulary.py), names resolved against the
table (names.py), the builders of each word (turn.py, estate.py, trade.py), the parser
(parse.py) and what an outcome says (answer.py).  Below the click adapter (cli/session.py,
cli/banker/): the CLI, the shell, `run` and the phones' server read lines through it."""
