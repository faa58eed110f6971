"""The referee's corrections: `correct PLAYER AMOUNT`, `correct --move PLAYER SPACE` and
`correct --owner PROPERTY PLAYER|bank`, each with its reason and the referee's name, appended
as facts (nothing recorded is edited).  The click adapter of cli/lines/referee.py's
correction, which the library calls too."""

from __future__ import annotations

import click

from banco.cli.session import pass_session, records


@click.command(context_settings={"ignore_unknown_options": True})
@click.argument("words", nargs=-1, type=click.UNPROCESSED, required=True)
@click.option("--move", is_flag=True, help="Put PLAYER's token on SPACE (a name or 0-39).")
@click.option("--owner", is_flag=True, help="Give PROPERTY to PLAYER, or back to the `bank`.")
@click.option("--reason", default=None, metavar="TEXT", help="Why: kept with the correction.")
@click.option("--referee", default=None, metavar="NAME", help="Who corrects.")
@pass_session
@records
def correct(session, words, move, owner, reason, referee):
    """A referee's correction, recorded as a fact (never an edit of the past):

    \b
      correct PLAYER AMOUNT
          money from the Bank (+) or back to it (-)
      correct --move PLAYER SPACE
          the token put on SPACE (out of jail, if in it)
      correct --owner PROPERTY WHO
          the deed given to a player, or back to the `bank`
    """
    from banco.cli.lines.referee import correction
    from banco.cli.referees import referee_of

    # the name the fact is recorded by: not a player's, spelt as the game first recorded it
    from banco.cli.session import record, tell

    cmd = correction(session.state, words, move, owner, reason, referee,
                     lambda name: referee_of(session.book.store, session.game(), name))
    tell(record(session, cmd))  # recorded in the referee's name (Book.execute)
