"""The banker's commands: setting up, the turn, what players own (estate), the table's readings;
the shell and `run`."""
