"""A game's replay steps (projections/readings/replay.py) read from the book a chunk at a time, from any
command on: a referee replays a long game, or its last few commands, in bounded memory."""

from __future__ import annotations

from collections.abc import Iterator

from banco.projections.readings.replay import SNAPSHOTS, Step, steps, taken_back_by


def head_before(book, game: int, seq: int, back: int) -> int:
    """The first seq of the command `back` commands before the one that wrote event `seq`
    (the game's first command's when there are fewer), read backwards from `seq`."""
    seen = 0
    cid = head = None
    for e in book.backwards(game, seq + 1):
        if e["command_id"] != cid or head is None:
            if seen > back:
                break
            seen += 1
            cid = e["command_id"]
        head = e["seq"]
    return head or 1


def game_steps(book, game: int, first: int | None = None,
               last: int | None = None) -> Iterator[Step]:
    """The steps with an event between `first` and `last` (seqs, both included: what
    `select` keeps), read from the book as they are used.  A replay from the middle of a game
    starts from the table at a seq (`Book.state(game, at=...)`), not from the game's start."""
    taken = taken_back_by(book.rows_of_type(game, "EventRetracted"))

    def refold(seq: int):
        return book.state(game, at=seq)

    start, state, number = 1, None, 0
    if first is not None and first > 1:
        # from there the replay holds, by the time it reaches `first`, every table from before
        # a command an undo in the range could take back, as a replay from the start would
        begin = head_before(book, game, first, SNAPSHOTS)
        started = book.game_start(game)
        if started is not None and begin - 1 >= started["seq"]:
            start, state = begin, book.state(game, at=begin - 1)
            number = book.commands_before(game, begin)
    for step in steps(book.checked(game, start), game, taken=taken, state=state, commands=number,
                      refold=refold):
        if last is not None and step.first_seq > last:
            return
        if first is None or step.last_seq >= first:
            yield step
