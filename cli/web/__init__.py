"""`banco serve`: the table on a screen."""
