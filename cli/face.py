"""banco: the banker's book for a physical Monopoly table, as a library.

Installed as the package `banco` itself (pyproject.toml maps this file to banco/__init__.py):

    import banco
    book = banco.open("game.db")
    out = book.execute("roll 3 4", game=1, actor="banker")
    print(out.say("it"))

The command line, the shell, `run` and the phones' server are adapters over the same calls.
"""

from banco.cli.library import Library, Outcome, Refusal, open

__all__ = ["Library", "Outcome", "Refusal", "open"]
