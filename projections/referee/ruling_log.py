"""The log as a ruling reads it, and the Ruling it gives: the lookups every kind of ruling
shares (an event by seq, the rows of its command, what an undo took back, the table after any
event) and the few words they all say (money, a square's name, the nearest events of a kind).
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import dataclass, field

from banco.ledger.base.errors import UsageError
from banco.ledger.base.text import Text, msg, render
from banco.ledger.board.rule_sets import RuleSet, cited
from banco.ledger.table.state import State, fold, retracted_seqs
from banco.projections.referee.moments import Moment, seq_at


@dataclass
class Ruling:
    kind: str
    subject: int
    verdict: str
    lines: list[str]
    rule: str
    facts: dict = field(default_factory=dict)

    def text(self, tr=None) -> str:
        """The ruling in words: English (as recorded) without `tr`, else in its language."""
        return "\n".join([*(render(line, tr) for line in self.lines),
                          render(msg("verdict: {verdict}", verdict=self.verdict), tr),
                          render(msg("rule: {rule}", rule=self.rule), tr)])

    def recorded(self) -> dict:
        """What RulingRecorded keeps of it (ledger/records/verdicts.py): the verdict's code
        and parameters, the evidence as data, the rule; its words are said where it is shown."""
        from banco.ledger.records.verdicts import as_data, evidence

        return {"verdict": as_data(self.verdict), "evidence": evidence(self.facts),
                "rule": self.rule}

    def document(self) -> dict:
        return _plain({"kind": self.kind, "subject_seq": self.subject, "verdict": self.verdict,
                       "reasons": self.lines, "rule": self.rule, "facts": self.facts})


def _plain(value):
    """A document holds plain English strings (a Text is its English sentence)."""
    if isinstance(value, Text):
        return str(value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


class Log:
    """A game's rows with the lookups rulings need: an event by seq, the rows of its command,
    what an undo took back, the rows of some types in a stretch, and the table after any
    event.  This one holds the whole log in a list; cli/referee/ruling_log.py's reads a long game's
    book for each lookup (the same answers, in bounded memory)."""

    def __init__(self, events: list[dict], game_id: int | None = None):
        self.events = events
        self.game_id = game_id
        self.by_seq = {e["seq"]: e for e in events}
        self.gone = retracted_seqs(events)
        self.undone_by = {s: e["seq"] for e in events if e["type"] == "EventRetracted"
                          for s in e["data"]["seqs"]}
        self._tables: dict[int, State] = {}

    @property
    def last_seq(self) -> int:
        return self.events[-1]["seq"] if self.events else 0

    def at(self, seq: int) -> dict:
        e = self.by_seq.get(seq)
        if e is None:
            raise UsageError("the game has events 1 to {last}; there is no event {seq}",
                             last=self.last_seq, seq=seq)
        return e

    def batch(self, seq: int) -> list[dict]:
        cid = self.at(seq)["command_id"]
        i = self.events.index(self.at(seq))
        lo = i
        while lo > 0 and self.events[lo - 1]["command_id"] == cid:
            lo -= 1
        hi = i
        while hi + 1 < len(self.events) and self.events[hi + 1]["command_id"] == cid:
            hi += 1
        return self.events[lo:hi + 1]

    def effective(self, types: Collection[str], after: int = 0,
                  until: int | None = None) -> Iterator[dict]:
        """The rows of these types after `after` up to `until` that no undo took back."""
        return (e for e in self.events if e["seq"] > after and e["seq"] not in self.gone
                and (until is None or e["seq"] <= until) and e["type"] in types)

    def last_effective(self, types: Collection[str], until: int, where) -> dict | None:
        """The last row of these types up to `until`, in force, for which `where(row)`."""
        found = None
        for e in self.effective(types, until=until):
            if where(e):
                found = e
        return found

    def nearest(self, types: Collection[str], seq: int) -> list[int]:
        """The seqs of the (at most six) rows of these types nearest to `seq`, in order."""
        seqs = [e["seq"] for e in self.events if e["type"] in types]
        return sorted(sorted(seqs, key=lambda s: abs(s - seq))[:6])

    def seq_at(self, moment: Moment) -> int:
        return seq_at(self.events, moment)

    def table(self, seq: int) -> State:
        """The table after event `seq`, as it was then (later undos not yet applied)."""
        if seq not in self._tables:
            self._tables[seq] = fold([e for e in self.events if e["seq"] <= seq], self.game_id)
        return self._tables[seq]

    def before(self, seq: int) -> State:
        """The table just before the command that wrote event `seq`."""
        first = self.batch(seq)[0]["seq"]
        return self.table(max(first - 1, self._start()))

    def _start(self) -> int:
        return next(e["seq"] for e in self.events if e["type"] == "GameStarted")

    def line(self, seq: int) -> str | None:
        head = self.batch(seq)[0]
        return head["data"]["line"] if head["type"] == "CommandRecorded" else None

    def when(self, seq: int) -> str:
        return self.at(seq)["recorded_at"]

    def taken_back(self, seq: int) -> str:
        by = self.undone_by.get(seq)
        return msg(" (taken back by the undo at event {seq})", seq=by) if by else ""


def log_of(events: list[dict] | Log, game_id: int | None) -> Log:
    """A ruling reads a Log: the whole log given as a list is wrapped in one."""
    return events if not isinstance(events, list) else Log(events, game_id)



def money(state: State, amount: int) -> str:
    """An amount as the edition prints it, that a recorded verdict keeps as its integer."""
    from banco.ledger.records.verdicts import Amount

    return Amount(amount, state.edition.money(amount))


def estate_rule(rules: RuleSet) -> str:
    """Where the rule set says what becomes of a bankrupt's deeds (the Bank auctions them one by
    one, or they pass as its rulebook says): its estate section (002 §Fallimento), else its
    bankruptcy section (000 §BANCAROTTA), else the classic rules' (003 §10)."""
    return cited(rules, "estate", cited(rules, "bankrupt", "003 §10"))


def space_name(state: State, pos: int) -> str:
    return state.edition.space(pos).name



def nearby(log: Log, types: set[str], seq: int) -> str:
    near = log.nearest(types, seq)
    if not near:
        return msg("this game has none")
    return msg("the nearest: {seqs}", seqs=", ".join(map(str, near)))

