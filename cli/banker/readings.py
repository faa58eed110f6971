"""The table's readings: `state` (now or at a moment), `board` and `cards`."""

from __future__ import annotations

import click

from banco.cli.session import (
    deck_key,
    dump,
    json_option,
    pass_session,
)
from banco.cli.words import i18n
from banco.cli.words.i18n import _
from banco.cli.words.table_lines import finished_line, last_line, turn_line
from banco.ledger.base.errors import UsageError
from banco.ledger.base.numbers import not_a_number, number_like

# --- the table ------------------------------------------------------------------------------

@click.command()
@click.option("--at", "when", default=None, metavar="SEQ|TIME",
              help="The table as it was after event SEQ, or after the last event recorded at "
                   "or before TIME (as `log` prints it, ISO 8601 with a zone, or a time of the "
                   "game's day, `16:28`).  TIME runs to the end of its last figure: "
                   "`2026-11-30 16:28` takes in 16:28:59, `2026-11-30 16:28:00` only that "
                   "second, `2026-11-30` the whole day.")
@json_option
@pass_session
def state(session, when, as_json):
    """The table: cash, positions, deeds by colour group, whose turn, what is pending, and
    what the table waits for next.  With --at, it also says which of the events shown a later
    undo took back, and when SEQ falls inside a command."""
    from banco.cli.words.table_text import state_document, state_text

    at = moment = rows = undos = None
    if when is not None:
        from banco.projections.referee.moments import parse_moment, seq_at, stored_games_day

        if number_like(when.strip()):  # `--at ５７`: what int() reads, the banker did not type
            raise not_a_number(when.strip())
        # a time of day alone (`11:40`): on the game's day, from its first and last times
        moment = stored_games_day(session.book.store, session.game(), parse_moment(when))
        # the rows read from the file as they are needed: a long game is never held whole,
        # and a SEQ is checked against the last seq alone (the table then is folded from the
        # nearest snapshot bound to the log before it: Book.state)
        last = session.book.last_seq(session.game())
        rows = _rows(session, last)
        at = seq_at(rows, moment, last=last)
        # the game's undos, read once (by the type index) for the table and for the notes
        undos = session.book.rows_of_type(session.game(), "EventRetracted")
    st = session.book.state(session.game(), at, undos)
    if as_json:
        doc = state_document(st)
        if at is not None:  # what the text's notes say, for a script
            doc["moment"] = _moment_document(session, at, rows, undos)
        # the warning the terminal prints on stderr, in the document as the phones' has it
        # (cli/web/hub.py): a script reading the JSON alone learns the chain is broken.  Only
        # when there is one: a sound table's document stays as the golden files hold it.
        broken = session.book.broken.get(st.game_id)
        if broken is not None:
            from banco.ledger.store.chain import broken_warning

            doc["warning"] = i18n.say(broken_warning(st.game_id, broken))
        dump(doc)
        return
    click.echo(state_text(st))
    end = None
    if moment is not None and moment.seq is None and _in_the_future(session, moment):
        click.echo(_("({moment} is in the future: the table as it is now, after event {at})")
                   .format(at=at, moment=moment.text))
    elif moment is not None and moment.seq is None:
        click.echo(_("(the table after event {at}, the last recorded by {moment})").format(
            at=at, moment=moment.text))
    if at is not None:
        notes, end = _moment_notes(session, at, rows, undos)
        for note in notes:
            click.echo(note)
    if end is not None:
        click.echo(_("next: the command goes on to event {end} (`state --at {end}` shows where "
                     "it ended)").format(end=end))
    else:
        click.echo(turn_line(st))
        if at is None:
            last = last_line(session.book, st.game_id)
            if last:
                click.echo(last)
            if st.ended:
                click.echo(finished_line(session.book, st.game_id) or "")


def _rows(session, last: int):
    """The game's rows, read on demand; `last`, its last seq, is how many there are (rows
    are numbered from 1 with no gap): not counted again (11 ms at 300,000 events)."""
    rows = session.book.rows_view(session.game(), last)
    if not rows:
        raise UsageError("no game {game} in this database", game=session.game())
    return rows


def _moment_notes(session, at: int, rows, undos: list[dict]):
    """moment_notes from the few rows they need: the undos (`undos`, read by `state` by the
    type index) and the command `at` falls inside (by the command-id index)."""
    from banco.cli.words.facts import moment_notes

    store, game = session.book.store, session.game()
    return moment_notes(rows, at, undos, lambda cid: store.command_events(game, cid))


def _moment_document(session, at: int, rows, undos: list[dict]) -> dict:
    """The table after event `at`: the events in it a later undo took back (with the undo's
    seq), and the last event of the command `at` falls inside (None: between commands)."""
    from banco.cli.words.facts import taken_back

    later = [{"seq": seq, "by": undo} for seq, undo in sorted(taken_back(undos).items())
             if seq <= at < undo]
    _, end = _moment_notes(session, at, rows, undos)
    return {"at": at, "taken_back_later": later, "inside_command_until": end}


def _edition(session):
    from banco.ledger.base.errors import NoDatabase
    from banco.ledger.board.edition import load_edition

    try:
        return session.state().edition
    except (UsageError, NoDatabase):  # no game, or no database yet: the default board
        return load_edition("it")


@click.command()
@json_option
@pass_session
def board(session, as_json):
    """The 40 spaces: prices, rents, house costs, mortgage values, taxes, the Via! salary and
    the jail fine (the current game's rule set, or classic when there is no game)."""
    from banco.cli.words.table_text import board_document, board_text
    from banco.ledger.base.errors import NoDatabase

    try:
        st = session.state()
        edition, rules = st.edition, st.rules
    except (UsageError, NoDatabase):  # no game, or no database yet: the default board
        from banco.ledger.board.rule_sets import load_rules

        edition, rules = _edition(session), load_rules("classic")
    if as_json:
        dump(board_document(edition, rules))
    else:
        click.echo(f"{edition.title} ({edition.name})")
        notes = (edition.notes_it if edition.notes_it and i18n.language() == "it"
                 else edition.notes)
        if notes:
            click.echo(notes)
        click.echo(board_text(edition, rules))


@click.command()
@click.argument("deck", required=False)
@json_option
@pass_session
def cards(session, deck, as_json):
    """The card decks and what each card does."""
    from banco.cli.words.table_text import cards_document

    edition = _edition(session)
    key = deck_key(edition, deck) if deck else None
    doc = cards_document(edition, key)
    if as_json:
        dump(doc)
        return
    # the deck as the edition titles it (Probabilità, Momenti Magici); --json keeps its key
    titles = {d.name: d.title for d in edition.decks.values()}
    width = max((len(titles.get(c["deck"], c["deck"])) for c in doc), default=0) + 1
    for c in doc:
        click.echo(f"{titles.get(c['deck'], c['deck']):<{width}}{c['number']:>3}  {c['text']}")


def _in_the_future(session, moment) -> bool:
    """A time after now (`--at 2099-01-01`, a year mistyped): said, not passed off as a
    moment of the game."""
    from datetime import datetime

    now = datetime.fromisoformat(session.now().replace("Z", "+00:00"))
    # the moment's start: its last instant is up to a day later than what was typed
    return moment.until is not None and moment.until.timestamp() - 86400 > now.timestamp()
