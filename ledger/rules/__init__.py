"""`decide(state, command)`: the rules that turn a banker's command into facts, one module per part
of the rules.  Pure: no I/O, no clock."""
