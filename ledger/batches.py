"""A command's batch in the log, and the undo of one: the facts the book writes around a
command's own (its CommandRecorded first), which facts are evidence an undo steps over, and the
EventRetracted that takes back the last command still in force (pure; ledger/book.py writes
them, the audit and the referee's counterfactuals read them the same way).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator
from typing import NamedTuple

from banco.ledger.base.errors import RuleViolation, UsageError
from banco.ledger.base.text import msg
from banco.ledger.records.reasons import reason

COMMAND_RECORDED = "CommandRecorded"
# Facts that are evidence, not table changes (a referee's rulings and seals among them): `undo`
# steps over them and never retracts them.
EVIDENCE = frozenset({"RentClaimRefused", "EventRetracted", COMMAND_RECORDED, "RulingRecorded",
                      "SealRecorded"})
# A referee's facts (ledger/rules/referee.py): the banker's undo stops at them, as at a seal.
REFEREE_FACTS = frozenset({"CashCorrected", "PositionCorrected", "OwnerCorrected",
                           "RulingRecorded"})
# Evidence a refused command leaves (RuleViolation.record): a retry of it is refused again.
REFUSAL_EVIDENCE = frozenset({"RentClaimRefused"})


class LastCommand(NamedTuple):
    """The last command recorded in a game, for `state` and the shell after a lost answer."""
    line: str | None  # None for rows written before commands were recorded
    command_id: str
    first_seq: int
    last_seq: int
    recorded_at: str
    types: tuple[str, ...]  # the facts, CommandRecorded left out


def last_command_of(rows: list[dict]) -> LastCommand | None:
    """The last command from its rows (ledger/store/reading.py last_command), or None for no rows."""
    if not rows:
        return None
    first = rows[0]
    line = first["data"].get("line") if first["type"] == COMMAND_RECORDED else None
    return LastCommand(line, first["command_id"], first["seq"], rows[-1]["seq"],
                       rows[-1]["recorded_at"],
                       tuple(r["type"] for r in rows if r["type"] != COMMAND_RECORDED))


class RecordedCommand(NamedTuple):
    """One command of a game's log and the facts it produced (see `Book.commands`)."""
    command_id: str
    line: str | None  # the words as typed; None before commands were recorded
    command: dict | None  # the parsed command (command_codec.decode turns it back), or None
    recorded_seq: int | None  # seq of its CommandRecorded, None for a row written before
    events: list[dict]  # its facts in seq order, CommandRecorded left out


def commands_in(events: Iterable[dict]) -> Iterator[RecordedCommand]:
    """A game's rows as (command, facts) pairs in order: a command's rows are contiguous (one
    transaction) and share its command_id; from format 2 the first is CommandRecorded.
    Rows written before that have line and command None."""
    batch: list[dict] = []
    for e in [*events, None]:
        if batch and (e is None or e["command_id"] != batch[0]["command_id"]):
            head = batch[0]
            if head["type"] == COMMAND_RECORDED:
                yield RecordedCommand(head["command_id"], head["data"]["line"],
                                      head["data"]["command"], head["seq"], batch[1:])
            else:
                yield RecordedCommand(head["command_id"], None, None, None, batch)
            batch = []
        if e is not None:
            batch.append(e)


def undo_events(events: list[dict]) -> list[dict]:
    """The EventRetracted fact that takes back the last command still in force (pure)."""
    return undo_facts(reversed(events))


def undo_facts(newest_first: Iterable[dict], *, behind_refusals: bool = False) -> list[dict]:
    """`undo_events` over a game's rows read backwards from its last one: it stops at the
    command it retracts, so an undo reads only the tail of a long game.  A retraction comes
    after what it retracts, so by the time a row is reached every retraction of it has been
    seen (pure).

    A refusal kept as evidence (a late rent claim) was judged on the table the commands
    before it left: an undo reaching behind it would reopen what it closed (the claim, refused
    as late, then paid in time), so the book refuses that.  `behind_refusals`: how the audit
    and the counterfactuals read a log an earlier banco wrote, which allowed it."""
    gone: set[int] = set()
    batch: list[dict] = []  # one command's rows, newest first
    for e in itertools.chain(newest_first, (None,)):  # lazily: it stops at the command found
        if batch and (e is None or e["command_id"] != batch[0]["command_id"]):
            found = _undo_of(batch[::-1], gone)
            if found is not None:
                return found
            batch = []
        if e is None:
            break
        if e["type"] == "SealRecorded" and e["seq"] not in gone:
            # What a referee sealed is final: a later change to it is the referee's correction,
            # a fact of its own, never an undo reaching behind the seal.
            raise RuleViolation("game sealed at event {seq}: an undo does not reach behind a "
                                "seal", seq=e["seq"],
                                allowed=msg("the referee corrects a sealed game: `correct "
                                            "PLAYER AMOUNT --reason TEXT --referee NAME`"))
        if e["type"] in REFEREE_FACTS and e["seq"] not in gone:
            # A referee's correction or ruling is the referee's decision, not the banker's to
            # take back: the referee corrects again, with a reason, as after a seal.
            raise RuleViolation("event {seq} is referee {referee}'s {type}: the banker's undo "
                                "does not reach behind a referee's decision", seq=e["seq"],
                                referee=e["data"].get("referee", "?"), type=e["type"],
                                allowed=msg("the referee corrects again: `correct "
                                            "PLAYER AMOUNT --reason TEXT --referee NAME`"))
        if e["type"] in REFUSAL_EVIDENCE and not behind_refusals and e["seq"] not in gone:
            raise RuleViolation("event {seq} keeps {owner}'s rent claim refused as too late: "
                                "the banker's undo does not reach behind a refusal kept as "
                                "evidence (the claim would be in time again)", seq=e["seq"],
                                owner=e["data"].get("owner", "?"),
                                # a token on the wrong square too (a trial took `correct`
                                # for cash alone, and the roll behind for lost)
                                allowed=msg("the referee decides: `ruling rent {seq}`, then "
                                            "corrects if need be: cash with `correct PLAYER "
                                            "AMOUNT`, a token with `correct --move PLAYER "
                                            "SPACE` (each with `--reason TEXT --referee NAME`)",
                                            seq=e["seq"]))
        if e["type"] == "EventRetracted":
            gone.update(e["data"]["seqs"])
        if e["seq"] not in gone:
            batch.append(e)
    raise RuleViolation("nothing to undo: the game is as it was dealt",
                        allowed=msg("the first roll is the first command that can be undone"))


def _undo_of(evs: list[dict], gone: set[int]) -> list[dict] | None:
    """The retraction of one command's rows still in force (in seq order), None to look at
    the command before it; RuleViolation at the command that started the game."""
    if not evs or all(e["type"] in EVIDENCE for e in evs):
        return None
    if any(e["type"] == "GameStarted" for e in evs):
        raise RuleViolation("nothing to undo: the game is as it was dealt",
                            allowed=msg("the first roll is the first command that can be undone"))
    facts = [e for e in evs if e["type"] not in EVIDENCE]
    typed = next((e["data"]["line"] for e in evs if e["type"] == COMMAND_RECORDED), None)
    types = [e["type"] for e in facts]
    why = reason("undo_line", types=types, line=typed) if typed else reason("undo", types=types)
    return [{"type": "EventRetracted",
             "data": {"seqs": [e["seq"] for e in facts], "command_id": evs[0]["command_id"],
                      "reason": why}}]


def referee_actor(referee: str) -> str:
    """Who recorded a referee's command: the referee, by name (the audit holds it to that)."""
    return f"referee:{referee}"


def command_recorded(line: str | None, command) -> dict:
    """The CommandRecorded fact for a command (None for `new` and `undo`)."""
    doc = None
    if command is not None:
        from banco.ledger.records.command_codec import encode

        doc = encode(command)
    return {"type": COMMAND_RECORDED, "data": {"line": line, "command": doc}}


def same_command(done: list[dict], command_id: str, command: dict | None) -> None:
    """A retry must be the command recorded under its id: the same id given to another
    command would otherwise report the first one's facts as this one's, and exit 0 with
    nothing done.  Compared as recorded (JSON: a tuple comes back a list)."""
    if command is None or not done or done[0]["type"] != COMMAND_RECORDED:
        return
    import json

    from banco.ledger.store.canonical import canonical_json

    said = done[0]["data"]
    if said.get("command") == json.loads(canonical_json(command["command"])):
        return
    line = said.get("line") or "?"
    raise UsageError("the id {id} already recorded `{line}` (events {first}-{last}), not this "
                     "command: give a new --id to a new command; nothing was recorded",
                     id=command_id, line=line, first=done[0]["seq"], last=done[-1]["seq"])


def recorded_meanwhile(store, game_id: int, command_id: str | None,
                       command: dict | None) -> list[dict]:
    """Before a command with an id is refused: the rows that id recorded since the book looked
    it up ([] if none).  Another writer on the database (a second server, a retry sent to
    both) may record it between that look and the table's read, and the table it leaves
    refuses the command again ("cannot roll now"): no answer to a command already recorded
    (issue 32).  An id given meanwhile to another command is said so (same_command)."""
    done = store.command_events(game_id, command_id) if command_id is not None else []
    if done:
        same_command(done, command_id, command)
    return done
