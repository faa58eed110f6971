"""The referee's readings' moments as typed: an event's seq or a time for `log --from/--to`,
`replay --from/--to` and the rulings (projections/referee/moments.py reads them), and the one
SEQ|TIME word a reading takes past click's options (`-5` is a number, not an option)."""

from __future__ import annotations

from banco.ledger.base.errors import UsageError


def log_bound(session, text: str | None, starting: bool) -> int | None:
    """`log --from/--to`: a seq as given (a filter: a seq past the game matches nothing), or a
    time as `replay` reads it (--from: the first event recorded at or after it)."""
    if text is None:
        return None
    from banco.projections.referee.moments import parse_moment

    moment = parse_moment(text)
    return moment.seq if moment.seq is not None else seq_or_time(session, text,
                                                                  starting=starting)


def one_moment(words: tuple[str, ...], times: bool = True) -> str:
    """The one SEQ (or TIME) a reading takes, its words read past click's options (`-5` is a
    number to refuse in words; `--jsn` is still no option, with click's suggestion)."""
    from banco.cli.groups import no_stray_options

    no_stray_options(words)
    if len(words) > 1 and times:
        raise UsageError("one SEQ or TIME, not {words}: a time with a space goes in quotes "
                         "(\"2026-11-30 21:14\")", words=" ".join(words))
    if len(words) > 1:
        raise UsageError("one SEQ, not {words}", words=" ".join(words))
    return words[0]


def seq_or_time(session, text: str | None, *, starting: bool = False) -> int | None:
    """A --from/--to/--at value: an event's seq or a time (projections/referee/moments.py).
    `starting` (`replay --from`): a time names the first event recorded in it or after it (a
    time before the game, its start); else the last event recorded by it."""
    if text is None:
        return None
    from banco.projections.referee.moments import moment_seq, moment_start_seq, parse_moment

    moment, store, game = parse_moment(text), session.book.store, session.game()
    return moment_start_seq(store, game, moment) if starting else moment_seq(store, game, moment)
