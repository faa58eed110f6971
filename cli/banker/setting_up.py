"""The banker setting up: `new` starts a game (its players, rule set, edition)."""

from __future__ import annotations

import click

from banco.cli.session import (
    pass_session,
    records,
)
from banco.cli.words.i18n import _, pgettext
from banco.cli.words.table_lines import turn_line
from banco.ledger.base.errors import UsageError

# --- setting up -----------------------------------------------------------------------------


def _reproducible_uuid(session, players, rules, edition) -> str | None:
    """Under BANCO_FIXED_TIME (a reproducible recording: tests, README's examples, never a real
    table) a game's identity follows from what is recorded, so that the same transcript gives
    the same history, hashes included; otherwise None: a new random identity."""
    import os

    fixed = os.environ.get("BANCO_FIXED_TIME")
    if not fixed:
        return None
    import uuid

    number = len(session.book.games()) + 1
    seed = f"banco:{fixed}:{number}:{' '.join(players)}:{rules}:{edition}"
    return str(uuid.uuid5(uuid.NAMESPACE_URL, seed))


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
    _once(("--rules", "--edition", "--first", "--uuid"))
    if first is not None and first.startswith("-"):  # `new A B --first --db x.db`
        raise UsageError("--first takes the name of the player who rolls first (`--first {name}`), not the option {option}",
                         name=players[0] if players else "Anna", option=first)
    if first is not None:
        from banco.ledger.base.names import resolve

        first = resolve(first, list(players), "player")
    session.create = True
    left = _unfinished(session)
    if game_uuid is None:
        game_uuid = _reproducible_uuid(session, players, rules, edition)
    args = session.write_args(0)
    del args["expect"]
    outcome = session.written(session.book.start(
        list(players), rules=rules, edition=edition, first_player=first, game_uuid=game_uuid,
        final=final, **args))
    game = outcome.game_id
    session.use_game(game)
    if outcome.replayed:
        click.echo(_("already recorded (game {game} was started by this command): nothing new "
                     "was appended").format(game=game))
    state = session.book.state(game)
    from banco.ledger.board.rule_sets import starting_cash

    cash = state.edition.money(starting_cash(state.rules, len(state.seats)))
    click.echo(_("game {game}: {players} with {cash} each; rules {rules}, edition "
                 "{edition}").format(game=game, players=", ".join(players), cash=cash,
                                     rules=pgettext("rule set", state.rules.name),
                                     edition=state.edition.name)
               + (_(", a final") if state.final else ""))
    for mismatch in state.edition.rules_mismatches(state.rules):  # a house-rules file's choice
        click.echo(_("warning: {message}").format(message=mismatch), err=True)
    if state.dealt or state.rules.deeds_dealt or state.rules.deeds_dealt_by_players:
        click.echo(turn_line(state))
    else:
        click.echo(_("{player} to roll").format(player=state.turn.player))
    if left is not None and left["game_id"] != game:
        # a tournament keeps several games in one file: `new` starts this one all the same,
        # but the banker who typed it by mistake must know where the other went
        back = (_("`game {game}` goes back to it") if session.in_shell
                else _("`--game {game}` goes back to it"))
        click.echo(_("warning: {message}").format(message=_(
            "game {game} ({players}) is left unfinished; {back}").format(
                game=left["game_id"], players=", ".join(left["players"]),
                back=back.format(game=left["game_id"]))), err=True)


def _unfinished(session) -> dict | None:
    """The unfinished game the commands addressed before `new` (None in a new file)."""
    import os

    from banco.ledger.base.errors import BancoError

    if not os.path.exists(session.db):
        return None
    try:
        game = session.book.store.game(session.game())
    except BancoError:
        return None
    return game if game is not None and not game["ended"] else None
