"""`doctor`'s part of the read model (ledger/table/read_rows.py): each game's rows kept beside
the log checked against the rows worked out from the log again, a stretch at a time (bounded
memory), and rebuilt by `doctor --repair` where they are wrong or missing."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import NamedTuple

from banco.ledger.base.text import msg
from banco.ledger.store.protocol import ReadRows
from banco.ledger.table.read_rows import players_in, read_rows

STRETCH = 4096  # events compared at a time


class ReadModelFinding(NamedTuple):
    game_id: int
    seq: int | None
    text: object  # a Text
    missing: bool  # no rows reaching the game's end (not a problem: the readings read the log)


def _names(store, game: int) -> list[str]:
    g = store.game(game)
    return g["players"] if g else []


def stretches(store, game: int, last: int) -> Iterator[tuple[int, int, list[dict]]]:
    """(after, upto, rows) of the game's log a stretch at a time, each row checked against the
    chain (`read_chained`; ChainBroken at the first break): a read model is never judged, nor
    rebuilt, from a log edited under its chain (doctor --repair used to rebuild it from the
    forged rows, and said healthy)."""
    from banco.ledger.snapshot_check import ChainBroken
    from banco.ledger.store.chain import GENESIS, read_chained

    after = 0
    for rows, broken in read_chained(store, game, 0, GENESIS, last, STRETCH):
        if broken is not None:
            raise ChainBroken(game, broken.seq, broken.problem)
        upto = min(last, after + STRETCH)
        yield after, upto, rows
        after = upto


def check(store, game: int, tick: Callable[[int], None] | None = None
          ) -> ReadModelFinding | None:
    """The first stretch where the game's read model and its log disagree, or None.  A game
    with no read model, or one short of its end, is a finding `missing`.  ChainBroken where the
    log does not match its chain."""
    last = store.last_seq(game)
    names = _names(store, game) or players_in(store.read(game, 0, 4))
    if store.movements(game, "") is None:
        return ReadModelFinding(game, None, msg("game {game} has no read model up to its end "
                                                "(its readings read the log; `banco doctor "
                                                "--repair` builds it)", game=game), True)
    for after, upto, rows in stretches(store, game, last):
        kept = store.read_model_rows(game, after, upto)
        want = read_rows(rows, names)
        want = ReadRows(sorted(want.movements, key=lambda m: m[:2]),
                        sorted(want.mentions, key=lambda m: (m[1], m[0])))
        if [tuple(m) for m in kept.movements] != want.movements or \
                [tuple(m) for m in kept.mentions] != want.mentions:
            return ReadModelFinding(game, after + 1, msg(
                "game {game}'s read model differs from its log between events {first} and "
                "{last} (`banco doctor --repair` rebuilds it)", game=game, first=after + 1,
                last=upto), False)
        if tick is not None:
            tick(upto - after)
    return None


def rebuild(store, game: int, tick: Callable[[int], None] | None = None) -> None:
    """The game's read model worked out again from its log, in one transaction."""
    last = store.last_seq(game)
    names = _names(store, game) or players_in(store.read(game, 0, 4))

    def chunks() -> Iterator[ReadRows]:
        for after, upto, rows in stretches(store, game, last):
            yield read_rows(rows, names)
            if tick is not None:
                tick(upto - after)

    store.put_read_model(game, chunks(), last)


def audit_findings(store, games) -> list:
    """`audit`'s part of the read model: each game's read model that disagrees with its log,
    as `doctor` finds it (`check`), a Finding of the file.  A game with no read model is no
    problem (its readings read the log); a log that breaks its chain or cannot be read is
    the audit's own finding, not this one's."""
    from banco.ledger.base.errors import DatabaseError
    from banco.ledger.snapshot_check import ChainBroken
    from banco.ledger.store.health import Finding

    found = []
    for game in games:
        try:
            f = check(store, game)
        except (ChainBroken, DatabaseError):
            continue
        if f is not None and not f.missing:
            found.append(Finding("read model", f.text, f.game_id, f.seq, repairable=True))
    return found

