"""The referee's corrections: `correct PLAYER AMOUNT`, `correct --move PLAYER SPACE` and
`correct --owner PROPERTY PLAYER|bank`, each with its reason and the referee's name, appended
as facts (nothing recorded is edited)."""

from __future__ import annotations

import click

from banco.cli.session import pass_session, player_name, records
from banco.ledger.base.errors import UsageError


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
      correct PLAYER AMOUNT           money from the Bank (+) or back to it (-)
      correct --move PLAYER SPACE     the token put on SPACE (out of jail, if in it)
      correct --owner PROPERTY WHO    the deed given to a player, or back to the `bank`
    """
    from banco.ledger.base.text import msg
    from banco.ledger.records import commands as c
    from banco.ledger.rules.referee import reason_text, referee_name

    if move and owner:
        raise UsageError("--move or --owner, not both: one correction at a time")
    # banco's own words, not click's "Missing option": whose a correction is, and its form
    form = (msg("correct --move PLAYER SPACE --reason TEXT --referee NAME") if move else
            msg("correct --owner PROPERTY PLAYER|bank --reason TEXT --referee NAME") if owner
            else msg("correct PLAYER AMOUNT --reason TEXT --referee NAME"))
    # the amount's sign said after the form, outside its backticks
    note = "" if move or owner else msg(" (AMOUNT: +50 from the Bank, -50 back to it)")
    if referee is None:
        raise UsageError("a correction is the referee's: name the referee, as in `{form}`{note}",
                         form=form, note=note)
    if reason is None or not reason.strip():  # `--reason ""`: missing too, not a rule's refusal
        raise UsageError("a correction says why: give the reason, as in `{form}`{note}",
                         form=form, note=note)
    referee_name(referee)  # a name that is no name is said before the reason's problems
    reason = reason_text(reason)
    from banco.cli.referee.referees import referee_of

    # the name the fact is recorded by: not a player's, spelt as the game first recorded it
    referee = referee_of(session.book.store, session.game(), referee)
    state = session.state()
    words = list(words)
    from banco.ledger.base.names import fold
    from banco.ledger.table.seats import BANK_NAMES

    if move and words and fold(words[0]) in BANK_NAMES:
        raise UsageError("{name} is the Bank, not a player: the Bank has no token to move; name "
                         "the player, as in `{form}`", name=words[0], form=form)
    if not move and not owner and words and fold(words[0]) in BANK_NAMES:
        # the Bank is the other side of every cash correction: `correct Bank 10` suggested Anna
        raise UsageError("{name} is the Bank, not a player: a correction moves a player's cash "
                         "to or from the Bank, so name the player, as in `{form}`{note}",
                         name=words[0], form=form, note=note)
    if move:
        if len(words) < 2:
            raise UsageError("correct --move PLAYER SPACE --reason TEXT --referee NAME")
        cmd = c.CorrectPosition(player_name(state, words[0]), _space(state, words[1:]),
                                reason, referee)
    elif owner:
        if len(words) < 2:
            raise UsageError("correct --owner PROPERTY PLAYER|bank --reason TEXT --referee NAME")
        from banco.cli.session import property_position

        who = words[-1]
        new = None if fold(who) in BANK_NAMES else player_name(state, who)
        cmd = c.CorrectOwner(property_position(state, " ".join(words[:-1])), new, reason,
                             referee)
    else:
        if len(words) != 2:
            raise UsageError("correct PLAYER AMOUNT --reason TEXT --referee NAME (AMOUNT: +50 "
                             "from the Bank, -50 back to it)")
        from banco.ledger.base.numbers import whole  # 0-9 only: `1_000` and `５０` are slips

        amount = whole(words[1])
        if amount is None:
            raise UsageError("{words!r} is not a whole amount (+50 or -50)", words=words[1])
        from banco.ledger.board.rule_sets import starting_cash

        # A slip of the keyboard (a zero too many, twenty of them), not a rule: the recorded
        # history stays re-derivable whatever this limit, since it is checked only here.
        most = 1000 * starting_cash(state.rules, len(state.seats))
        if abs(amount) > most:
            raise UsageError("a correction of {amount} is more than a table ever holds (at most "
                             "{most}, a thousand times the starting cash): a slip of the keyboard?",
                             amount=state.edition.money(amount), most=state.edition.money(most))
        cmd = c.CorrectCash(player_name(state, words[0]), amount, reason, referee)
    game = session.game()
    write = session.write_args(game)  # recorded in the referee's name (Book.execute)
    from banco.cli.session import report

    report(session.written(session.book.execute(game, cmd, **write)))


def _space(state, words: list[str]) -> int:
    """A space by number (0-39) or name; a name several spaces share needs the number."""
    from banco.ledger.base.numbers import is_digits

    text = " ".join(words)
    if is_digits(text):
        return int(text)
    from banco.ledger.base.names import resolve

    spaces: dict[str, list[int]] = {}
    for s in state.edition.spaces:
        spaces.setdefault(s.name, []).append(s.position)
    name = resolve(text, list(spaces), "space")
    if len(spaces[name]) > 1:
        raise UsageError("{name} is at {items}: give the number",
                         name=name, items=', '.join(map(str, spaces[name])))
    return spaces[name][0]
