"""The banker's commands: setting up, the turn, what players own; the shell and `run`."""
