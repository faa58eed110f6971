"""The game command by command: the line typed, the facts it produced, and what changed on the
table.  A pure projection over a game's events (grouped into (command, facts) pairs as
`Book.commands` groups them), so a referee gets the same answer from a live table, an import or
a file someone sent.

The table is followed as it was at each moment: a command later taken back by an undo did
change the table when it was played, and the undo changes it back (`state --at` shows the
same).  The step of an undo shows that reversal.
"""

from __future__ import annotations

from collections import OrderedDict, deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from banco.ledger.records.bounds import Bounds
from banco.ledger.table.state import BANK, State, evolve, fold, initial_state, not_foldable

COMMAND_RECORDED = "CommandRecorded"
# Facts that change nothing on the table: a retraction can skip back over them.
NEUTRAL = frozenset({COMMAND_RECORDED, "RentClaimRefused", "RulingRecorded", "EventRetracted"})
SNAPSHOTS = 64  # tables kept from before recent commands: an undo goes back to one of them


@dataclass
class Step:
    """One command of the game and what it did."""
    number: int  # 1 for `new`, in the order commands were recorded
    command_id: str
    line: str | None  # the words as typed; None for rows written before commands were recorded
    command: dict | None  # the parsed command (ledger/records/command_codec.py's document), or None
    first_seq: int
    last_seq: int
    recorded_at: str
    actor: str
    events: list[dict]  # the facts, CommandRecorded left out
    before: State | None  # None before the game's first fact
    after: State
    changes: dict = field(default_factory=dict)
    taken_back_by: int | None = None  # the seq of the undo that later retracted its facts

    @property
    def seqs(self) -> tuple[int, int]:
        return self.first_seq, self.last_seq


def command_batches(events: Iterable[dict]) -> Iterator[list[dict]]:
    """A game's rows grouped by the command that wrote them (contiguous, one transaction)."""
    batch: list[dict] = []
    for e in events:
        if batch and e["command_id"] != batch[0]["command_id"]:
            yield batch
            batch = []
        batch.append(e)
    if batch:
        yield batch


def taken_back_by(undos: Iterable[dict]) -> dict[int, int]:
    """seq -> the seq of the undo (EventRetracted) that took it back, from a game's undos."""
    taken: dict[int, int] = {}
    for e in undos:
        if e["type"] == "EventRetracted":
            for s in e["data"]["seqs"]:
                taken[s] = e["seq"]
    return taken


def steps(events: Iterable[dict], game_id: int | None = None, *,
          taken: dict[int, int] | None = None, state: State | None = None, commands: int = 0,
          refold: Callable[[int], State] | None = None,
          changes: bool = True) -> Iterator[Step]:
    """Every command of a game's log (rows in seq order), with the table before and after.

    Given a whole log (a list), that is all.  A long game's rows can be streamed instead, from
    any command on: `taken` then holds every undo of the game (`taken_back_by`), `state` the
    table before the first row (None: the rows begin with the game), `commands` the commands
    recorded before it, and `refold(seq)` gives the table after event `seq` (the undos up to it
    honoured) for an undo that reaches back past the tables kept.  Memory stays bounded: the
    rows of the last SNAPSHOTS commands and the tables from before them.  `changes` False:
    the steps' `changes` left empty, for a reader that never shows them (the report)."""
    if taken is None or refold is None:
        events = list(events)
        if taken is None:
            taken = taken_back_by(events)
        if refold is None:
            rows = events

            def refold(seq: int) -> State:
                return fold([e for e in rows if e["seq"] <= seq], game_id)
    # the fields' ranges, checked before the table takes a row (ledger/records/bounds.py)
    bounds = None if state is None else Bounds(state.seats, state.edition.decks)
    kept: OrderedDict[str, State] = OrderedDict()
    recent: deque[list[dict]] = deque(maxlen=SNAPSHOTS + 1)  # the rows of the kept commands
    for number, batch in enumerate(command_batches(events), start=commands + 1):
        head = batch[0]
        recorded = head["type"] == COMMAND_RECORDED
        facts = batch[1:] if recorded else batch
        before = state
        if state is not None:
            kept[head["command_id"]] = state
            if len(kept) > SNAPSHOTS:
                kept.popitem(last=False)
        so_far: list[dict] = []
        recent.append(so_far)
        for e in batch:
            so_far.append(e)
            if e["type"] == "GameStarted":
                state = initial_state(game_id if game_id is not None else e.get("game_id", 0), e)
                bounds = Bounds(state.seats, state.edition.decks)
                before = state._replace(seq=batch[0]["seq"] - 1) if before is None else before
                state = state._replace(seq=e["seq"])
            elif state is None:
                continue  # the `new` command's CommandRecorded, before the table exists
            elif e["type"] == "EventRetracted":
                state = table_after_undo(state, e, recent, kept, taken) or refold(e["seq"])
            else:
                if not bounds.fits(e["type"], e["data"]):
                    raise not_foldable(state, e)
                try:
                    state = evolve(state, e)
                except Exception as exc:  # a fact banco never writes: named (issue 32)
                    raise not_foldable(state, e, exc) from None
        if state is None:
            continue
        seqs = [e["seq"] for e in facts] or [head["seq"]]
        gone = {taken[s] for s in seqs if s in taken}
        yield Step(number=number, command_id=head["command_id"],
                   line=head["data"]["line"] if recorded else None,
                   command=head["data"]["command"] if recorded else None,
                   first_seq=head["seq"], last_seq=batch[-1]["seq"],
                   recorded_at=head["recorded_at"], actor=head.get("actor") or "",
                   events=facts, before=before, after=state,
                   changes=table_changes(before, state) if changes else {},
                   taken_back_by=min(gone) if gone else None)


def table_after_undo(state: State, event: dict, recent, kept,
                     taken: dict[int, int]) -> State | None:
    """The table once an undo has taken a command back: the table from before that command
    when nothing but evidence, or what earlier undos took back, came after it (what `undo`
    guarantees), else None (to be folded again)."""
    seqs = set(event["data"]["seqs"])
    before = kept.get(event["data"]["command_id"])
    if before is None:
        return None
    for rows in recent:
        for e in rows:
            if e["seq"] > before.seq and e["seq"] not in seqs and e["type"] not in NEUTRAL \
                    and taken.get(e["seq"], event["seq"]) >= event["seq"]:
                return None
    return before._replace(seq=event["seq"])


# --- what changed -----------------------------------------------------------------------------

def _owner(name: str | None) -> str:
    return BANK if name is None else name


def table_changes(before: State | None, after: State) -> dict:
    """What a command changed on the table: cash per player, moves, jail, deeds, buildings,
    mortgages, the Bank's stock, bankruptcies, whose turn.  Only what changed is listed."""
    if before is None:
        return {}
    space = after.edition.space
    out: dict = {}
    cash = {p.name: p.cash - q.cash for p, q in zip(after.players, before.players, strict=True)
            if p.cash != q.cash}
    if cash:
        out["cash"] = cash
    moves = [{"player": p.name, "from": q.position, "to": p.position}
             for p, q in zip(after.players, before.players, strict=True)
             if p.position != q.position]
    if moves:
        out["moves"] = moves
    jail = [{"player": p.name, "in_jail": p.in_jail}
            for p, q in zip(after.players, before.players, strict=True)
            if p.in_jail != q.in_jail]
    if jail:
        out["jail"] = jail
    cards = {p.name: len(p.jail_cards) - len(q.jail_cards)
             for p, q in zip(after.players, before.players, strict=True)
             if len(p.jail_cards) != len(q.jail_cards)}
    if cards:
        out["jail_cards"] = cards
    deeds = [{"property": pos, "name": space(pos).name, "from": _owner(before.owners[pos]),
              "to": _owner(after.owners[pos])}
             for pos in range(40) if before.owners[pos] != after.owners[pos]]
    if deeds:
        out["deeds"] = deeds
    buildings = [{"property": pos, "name": space(pos).name, "from": before.buildings[pos],
                  "to": after.buildings[pos]}
                 for pos in range(40) if before.buildings[pos] != after.buildings[pos]]
    if buildings:
        out["buildings"] = buildings
    flipped = sorted(before.mortgaged ^ after.mortgaged)
    if flipped:
        out["mortgages"] = [{"property": pos, "name": space(pos).name,
                             "mortgaged": pos in after.mortgaged} for pos in flipped]
    bank = {k: v for k, v in (("houses", after.bank_houses - before.bank_houses),
                              ("hotels", after.bank_hotels - before.bank_hotels)) if v}
    if bank:
        out["bank"] = bank
    out_now = [p.name for p, q in zip(after.players, before.players, strict=True)
               if p.bankrupt and not q.bankrupt]
    if out_now:
        out["bankrupt"] = out_now
    if (after.turn.player, after.turn.phase) != (before.turn.player, before.turn.phase):
        out["turn"] = {"player": after.turn.player, "phase": after.turn.phase}
    if after.ended and not before.ended:
        out["ended"] = {"winner": after.winner}
    return out


def select(all_steps: Iterable[Step], first: int | None = None,
           last: int | None = None) -> list[Step]:
    """The steps with an event between `first` and `last` (seqs, both included)."""
    return [s for s in all_steps
            if (first is None or s.last_seq >= first) and (last is None or s.first_seq <= last)]


def step_document(step: Step, describe) -> dict:
    """A step as the stable JSON of `replay --json`; `describe(event, state)` words a fact."""
    return {"step": step.number, "seqs": list(step.seqs), "time": step.recorded_at,
            "actor": step.actor, "line": step.line, "command": step.command,
            "command_id": step.command_id,
            "events": [{"seq": e["seq"], "type": e["type"], "text": describe(e, step.after),
                        "data": e["data"]} for e in step.events],
            "changes": step.changes, "taken_back_by": step.taken_back_by}
