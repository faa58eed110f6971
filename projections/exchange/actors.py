"""Who a row of an imported game says acted (its `actor`), held to what a command could have
recorded, and the values a refusal quotes, cut to a line.

A file's rows, chain recomputed, could carry an actor of 5,000 characters, one with a
terminal's escapes (`Ev\\x1b[2J...`) or a blank one, and the import said "audit passed": `log`
and `show` then printed it to the referee's terminal."""

from __future__ import annotations

from banco.ledger.base.text import Text, msg

MAX_ACTOR = 64  # `banker`, a player's name (24), a library caller's own: a line of a log


def actor_problem(actor: str | None) -> Text | None:
    """Why `actor` is not what a command could have recorded (who acted: one printable line
    of a name's length, as the terminal shows it in `log` and `show`), or None.  An older row
    may have none."""
    from banco.ledger.base.names import code_point, hidden_character

    if actor is None:
        return None
    if not actor.strip() or actor != actor.strip():
        return msg("blank, or spaces at its ends")
    bad = hidden_character(actor)
    if bad is not None and not "\ud800" <= bad <= "\udfff":  # a lone surrogate: said as one  # a terminal's escape would repaint the referee's screen
        return msg("it contains the character {code}, which cannot be shown",
                   code=code_point(bad))
    if len(actor) > MAX_ACTOR:
        return msg("it is {n} characters long; at most {most}", n=len(actor), most=MAX_ACTOR)
    return None


def actor_refused(where: Text, actor: str | None) -> Text | None:
    """The refusal of a row whose actor no command could have recorded, or None."""
    why = actor_problem(actor)
    if why is None:
        return None
    return msg("{where}: the actor {value!r} is not one banco records ({why}); nothing was "
               "imported", where=where, value=bounded(actor), why=why)


def bounded(value):
    """A value a refusal quotes, cut to a line (an actor of 5,000 characters was printed
    whole): a long text cut, anything else long shown as its cut repr."""
    from banco.ledger.base.names import shown

    if isinstance(value, str):
        return shown(value, 80)
    text = repr(value)
    return value if len(text) <= 80 else shown(text, 80)
