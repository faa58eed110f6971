"""The banker setting up: `new` starts a game (its players, rule set, edition)."""

from __future__ import annotations

import click

from banco.cli.session import (
    pass_session,
    records,
)
from banco.cli.words.i18n import _
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

    _once(("--rules", "--edition", "--first", "--uuid"))
    first = new_game(players, rules, edition, first, final, game_uuid).first  # its name
    session.create = True
    left = session.unfinished()
    if game_uuid is None:
        game_uuid = session.reproducible_uuid(players, rules, edition)
    args = session.write_args(0)
    del args["expect"]
    outcome = session.written(session.book.start(
        list(players), rules=rules, edition=edition, first_player=first, game_uuid=game_uuid,
        final=final, **args))
    game = outcome.game_id
    session.use_game(game)
    from banco.cli.lines.referee import new_lines

    for err, text in new_lines(session.book.state(game), players, outcome.replayed):
        click.echo(text, err=err)
    if left is not None and left["game_id"] != game:
        # a tournament keeps several games in one file: `new` starts this one all the same,
        # but the banker who typed it by mistake must know where the other went
        back = (_("`game {game}` goes back to it") if session.in_shell
                else _("`--game {game}` goes back to it"))
        click.echo(_("warning: {message}").format(message=_(
            "game {game} ({players}) is left unfinished; {back}").format(
                game=left["game_id"], players=", ".join(left["players"]),
                back=back.format(game=left["game_id"]))), err=True)
