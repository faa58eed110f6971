"""The banker setting up: `new` starts a game (its players, rule set, edition)."""

from __future__ import annotations

import click

from banco.cli.session import (
    pass_session,
    records,
)
from banco.cli.words import i18n
from banco.ledger.base.errors import UsageError

# --- setting up -----------------------------------------------------------------------------


def _once(options: tuple[str, ...]) -> None:
    """`new A B --rules classic --rules short`: click keeps the last; a game started under
    rules the banker did not mean is worse than the question, so it is asked."""
    from banco.cli.session import ARGS

    given = [a.split("=", 1)[0] for a in click.get_current_context().meta.get(ARGS, ())]
    for option in options:
        if given.count(option) > 1:
            raise UsageError("{option} is given {n} times: say it once", option=option,
                             n=given.count(option))


@click.command()
@click.argument("players", nargs=-1, required=True)
@click.option("--rules", default="classic", show_default=True,
              help="classic, quick, championship, vintage, euro, short, timed, or a TOML file "
                   "that extends one.")
@click.option("--edition", default=None,
              help="Board and decks: it, it-lire, it-euro, disney, us (default: the rule set's "
                   "own: it-lire for vintage, it-euro for euro, else it).")
@click.option("--final", is_flag=True,
              help="A championship final or semi-final: trades go on with two players left "
                   "(000 FAQ 31 is for preliminary games).")
@click.option("--first", default=None, help="Who rolls first (default: the first name).")
@click.option("--uuid", "game_uuid", default=None, metavar="UUID",
              help="The game's identity (default: a new one); to re-record a game under the "
                   "identity it already has elsewhere.")
@pass_session
@records(expect=False)
def new(session, players, rules, edition, first, game_uuid, final):
    """Start a game: PLAYERS in seating order."""
    from banco.cli.lines.referee import new as new_game
    from banco.cli.session import start, tell

    _once(("--rules", "--edition", "--first", "--uuid"))
    # the words read before the file is opened (and made): a mistake in them makes none
    out, left = start(session, new_game(players, rules, edition, first, final, game_uuid))
    tell(out, [*out.lines(i18n.language()), *([left] if left else [])])
