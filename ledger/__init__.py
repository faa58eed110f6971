"""The book: what a game is and how it is kept, in layers (each imports only from those below):

    ledger/book.py        a game's log in a store, commands decided and appended (the one I/O)
    ledger/batches.py, tournaments.py, snapshot_check.py   a command's batch and undo facts; the
                          tournaments; doctor's check of the snapshots
    ledger/rules/         decide(state, command): the rules, one module per part, pure
    ledger/table/         the table as a value and the fold (evolve), with readings over it
    ledger/board/ records/ store/   editions and rule sets (data); commands, events and seals as
                          written; the append-only store, its chain and protocol (independent)
    ledger/base/          errors, messages, names and numbers as typed

pyproject.toml's [tool.importlinter] holds these layers (tests/test_architecture.py)."""
