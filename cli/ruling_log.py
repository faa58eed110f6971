"""The log a ruling reads (projections/referee/ruling_log.py's Log), looked up in the book as
the ruling asks: the event, its command's rows by index, the undos, the rows of a few types in a
stretch a chunk at a time, the table at a seq.  A ruling on a long game never holds the whole
log."""

from __future__ import annotations

from collections.abc import Collection, Iterator

from banco.ledger.base.errors import UsageError
from banco.ledger.table.state import State
from banco.projections.referee.moments import Moment, moment_seq
from banco.projections.referee.ruling_log import Log

CHUNK = 2000  # rows of the asked-for types read at a time


class BookLog(Log):
    def __init__(self, book, game_id: int):
        self.book, self.store, self.game_id = book, book.store, game_id
        undos = book.rows_of_type(game_id, "EventRetracted")
        self.undone_by = {s: e["seq"] for e in undos for s in e["data"]["seqs"]}
        self.gone = set(self.undone_by)
        self._last = self.store.last_seq(game_id)
        self._rows: dict[int, dict] = {}
        self._tables: dict[int, State] = {}

    @property
    def last_seq(self) -> int:
        return self._last

    def at(self, seq: int) -> dict:
        if seq not in self._rows:
            if not 1 <= seq <= self._last:
                raise UsageError("the game has events 1 to {last}; there is no event {seq}",
                                 last=self._last, seq=seq)
            self._rows[seq] = next(self.book.checked(self.game_id, seq, seq))
        return self._rows[seq]

    def batch(self, seq: int) -> list[dict]:
        return self.book.recorded(self.game_id, self.at(seq)["command_id"])

    def _of_types(self, types: Collection[str], after: int = 0,
                  until: int | None = None) -> Iterator[dict]:
        while True:
            rows = self.book.rows_of_type(self.game_id, *types, after=after, limit=CHUNK)
            for e in rows:
                if until is not None and e["seq"] > until:
                    return
                yield e
            if len(rows) < CHUNK:
                return
            after = rows[-1]["seq"]

    def effective(self, types: Collection[str], after: int = 0,
                  until: int | None = None) -> Iterator[dict]:
        return (e for e in self._of_types(types, after, until) if e["seq"] not in self.gone)

    def last_effective(self, types: Collection[str], until: int, where) -> dict | None:
        # read backwards from `until`: the last one is usually near
        for e in self.book.backwards(self.game_id, until + 1):
            if e["type"] in types and e["seq"] not in self.gone and where(e):
                return e
        return None

    def nearest(self, types: Collection[str], seq: int) -> list[int]:
        near: list[int] = []
        for e in self._of_types(types):
            near = sorted([*near, e["seq"]], key=lambda s: abs(s - seq))[:6]
        return sorted(near)

    def seq_at(self, moment: Moment) -> int:
        return moment_seq(self.store, self.game_id, moment)

    def table(self, seq: int) -> State:
        if seq not in self._tables:
            self._tables[seq] = self.book.state(self.game_id, at=seq)
        return self._tables[seq]

    def _start(self) -> int:
        return self.book.game_start(self.game_id)["seq"]


def rule(book, game_id: int, kind: str, moment: str | int, claim_at: str | None = None):
    """The ruling of `kind` (auction, bankruptcy, jail, rent) on event `moment` (a seq, or a
    SEQ|TIME as typed) of a game, read from the log: its `.text(catalog)`, `.verdict`,
    `.document()`.  `claim_at`: rent's, a claim made at that moment.  What `ruling KIND SEQ`
    says, the click command, the library and the phones' referee alike."""
    from banco.projections.referee import rulings
    from banco.projections.referee.moments import moment_seq, parse_moment

    seq = moment if isinstance(moment, int) else moment_seq(book.store, game_id,
                                                           parse_moment(moment))
    args = {"claim_at": parse_moment(claim_at) if claim_at else None} if kind == "rent" else {}
    # the stretch of the log the ruling asks for, looked up in the book: never all of it
    return rulings.KINDS[kind](BookLog(book, game_id), seq, game_id=game_id, **args)


def recorded_ruling(found, kind: str, seq: int, referee: str):
    """The RecordRuling that keeps a ruling in the game's chain (RulingRecorded): the one
    place a ruling found is made a command."""
    from banco.ledger.records.commands import RecordRuling

    return RecordRuling(kind, seq, referee=referee, **found.recorded())


def ruling_command(book, game_id: int, kind: str, seq: int, claim_at: str | None,
                   referee: str):
    """`ruling KIND SEQ --record --referee R` as the command the book records."""
    return recorded_ruling(rule(book, game_id, kind, seq, claim_at), kind, seq, referee)
