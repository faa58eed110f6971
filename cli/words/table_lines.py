"""The lines a reading of the table ends with: what the table waits for, the last command
recorded (for a banker whose terminal lost an answer) and a finished game's head line: words
the readings, the turn's commands, the shell and the session share."""

from __future__ import annotations

from banco.cli.words.i18n import _, say


def head_line_text(game: int, seq: int, head: str) -> str:
    """What a finished game prints last: its short head line, for the score sheet."""
    from banco.ledger.records.seals import head_line

    line = head_line(game, seq, head)
    return _("head line for the score sheet: {line}  (`banco audit --expect-head {line}` checks "
             "it)").format(line=line)


def finished_line(book, game: int) -> str | None:
    """The head line of a game that is over (None while it goes on): two index lookups."""
    info = book.game(game)
    if info is None or not info["ended"]:
        return None
    return head_line_text(game, info["events"], info["head"])


def last_line(book, game: int) -> str | None:
    """`last: roll 4 6 (events 88-91, 12 s ago)`: the last recorded command, for a banker
    whose terminal may have lost the answer to a write."""
    last = book.last_command(game)
    if last is None:
        return None
    what = last.line or ", ".join(last.types) or _("a command")
    seqs = (_("event {seq}").format(seq=last.first_seq) if last.first_seq == last.last_seq
            else _("events {first}-{last}").format(first=last.first_seq, last=last.last_seq))
    return _("last: {what} ({events}, {ago})").format(what=what, events=seqs,
                                                      ago=ago(last.recorded_at))


def ago(recorded_at: str) -> str:
    import os
    from datetime import UTC, datetime

    try:
        then = datetime.fromisoformat(recorded_at.replace("Z", "+00:00"))
        # The clock the facts are recorded by: BANCO_FIXED_TIME in a reproducible recording.
        fixed = os.environ.get("BANCO_FIXED_TIME")
        now = (datetime.fromisoformat(fixed.replace("Z", "+00:00")) if fixed
               else datetime.now(UTC))
    except ValueError:
        return recorded_at
    seconds = int((now - then).total_seconds())
    if seconds < 0:
        return recorded_at[:19].replace("T", " ") + " UTC"
    if seconds < 120:
        return _("{n} s ago").format(n=seconds)
    if seconds < 7200:
        return _("{n} min ago").format(n=seconds // 60)
    if seconds < 2 * 86400:
        return _("{n} h ago").format(n=seconds // 3600)
    return recorded_at[:16].replace("T", " ") + " UTC"


def turn_line(state) -> str:
    """`next: ...`: what the table waits for, open rent claims included (cli/words/waiting.py,
    which the phones' pages call too)."""
    from banco.cli.words.waiting import next_words

    return _("next: {step}").format(step=say(next_words(state)))
