"""banco: the banker's book for a physical Monopoly table, as a library.

Installed as the package `banco` itself (pyproject.toml maps this file to banco/__init__.py):

    import banco
    book = banco.open("game.db")
    out = book.execute("roll 3 4", game=1, actor="banker")
    print(out.say("it"))

The command line, the shell, `run` and the phones' server are adapters over the same calls.
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what a reader and a type checker see; at run time, __getattr__ below
    from banco.cli.library import Library, Outcome, Refusal, open

__all__ = ["Library", "Outcome", "Refusal", "open"]


def __getattr__(name: str):
    # The library is imported when first asked for, not by `import banco`: every `banco`
    # command starts by importing this package, and a cold `state` must not pay for it.
    if name in __all__:
        from banco.cli import library

        return getattr(library, name)
    raise AttributeError(f"module 'banco' has no attribute {name!r}")
