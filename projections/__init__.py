"""Read models over the book, in layers (each imports only from those below it, and the ledger):

    projections/exchange/  a game's or a tournament's history as a verifiable file, and its import
    projections/audit/     could this history have been written? the one pass and its checks
    projections/referee/   rulings, what another rule set would have made of a game, moments
    projections/readings/  statements, standings, the replay, the report, the table's screen"""
