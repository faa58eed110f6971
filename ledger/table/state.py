"""The table as a value, and `evolve`: the one fold that rebuilds it from events.

`evolve` applies facts.  It never checks a rule and never computes an amount: every figure it
uses is in the event.  State is made of named tuples so that a step copies only what changes.

The parts live beside this module: the State types in model.py, what the table waits for in
steps.py, the handlers by topic in fold_turns.py, fold_estate.py, fold_money.py and
fold_cards.py.  This module puts the handlers together and is where the rest of banco reads
the table from: it re-exports the names they use.
"""

from __future__ import annotations

from collections.abc import Sequence

from banco.ledger.base.errors import DatabaseError, UsageError
from banco.ledger.base.text import msg
from banco.ledger.board.edition import load_edition
from banco.ledger.board.rule_sets import RuleSet
from banco.ledger.records.bounds import Bounds, fault
from banco.ledger.records.bounds import why as field_fault
from banco.ledger.table import fold_cards, fold_estate, fold_money, fold_turns
from banco.ledger.table.model import (
    BANK,
    Auction,
    Claim,
    Debt,
    DeckOrder,
    Player,
    State,
    Turn,
    with_seq,
)
from banco.ledger.table.steps import (
    dealing_left,
    debt_step,
    fine_owed,
    fine_reason,
    hammer_step,
    must_go_bankrupt,
    next_step,
    richest_bidders,
    roll_words,
    turn_in_progress,
)

__all__ = [
    "BANK", "HANDLERS", "Auction", "Claim", "Debt", "DeckOrder", "Player", "State", "Turn",
    "dealing_left", "debt_step", "evolve", "fine_owed", "fine_reason", "fold", "fold_rows",
    "hammer_step",
    "initial_state",
    "must_go_bankrupt", "next_step", "replay", "retracted_seqs", "richest_bidders",
    "roll_words", "turn_in_progress", "with_seq",
]

# One handler per event type, each part's from its module.
HANDLERS = {**fold_turns.HANDLERS, **fold_estate.HANDLERS, **fold_money.HANDLERS,
            **fold_cards.HANDLERS}


def evolve(state: State, event: dict) -> State:
    """Apply one event ({"type", "data", "seq"}) to the table."""
    seq = event.get("seq", state.seq + 1)
    return with_seq(HANDLERS[event["type"]](state, event["data"], seq), seq)


def initial_state(game_id: int, started: dict) -> State:
    """The table right after GameStarted: seats taken, nobody has any cash yet."""
    d = started["data"]
    try:
        edition = load_edition(d["edition"])
        rules = RuleSet.from_params(d["rules"])
    except UsageError as exc:  # e.g. a board or a parameter of a newer banco
        raise ValueError(f"its rules or board cannot be read ({exc})") from None
    seats = tuple(d["players"])
    return State(
        game_id=game_id, seq=started.get("seq", 1), rules=rules, edition=edition, seats=seats,
        index={n: i for i, n in enumerate(seats)},
        players=tuple(Player(name=n) for n in seats),
        owners=(None,) * 40, mortgaged=frozenset(), buildings=(0,) * 40,
        bank_houses=edition.bank_houses, bank_hotels=edition.bank_hotels,
        turn=Turn(player=d["first_player"]), claims=(), lapsed=(), auction=None, debts=(),
        held_cards={}, bank_paid_out=0,
        decks={k: DeckOrder(frozenset(c.number for c in deck.cards))
               for k, deck in edition.decks.items()},
        final=bool(d.get("final", False)))


def retracted_seqs(events) -> set[int]:
    out: set[int] = set()
    for e in events:
        if e["type"] == "EventRetracted":
            out.update(e["data"]["seqs"])
    return out


def _started(events) -> tuple[Sequence, int]:
    """(the events as a sequence, the index of GameStarted): a game's log begins with it, or
    (from format 2) with the `new` command that recorded it."""
    if not isinstance(events, Sequence):  # a list, or rows read from the file on demand
        events = list(events)
    start = 0
    while start < len(events) and events[start]["type"] == "CommandRecorded":
        start += 1
    if start == len(events) or events[start]["type"] != "GameStarted":
        raise ValueError("a game's log must begin with GameStarted")
    return events, start


def replay(events, game_id: int | None = None):
    """Rebuild the table from a game's events (in seq order), honouring retractions, yielding
    (event, table after it) at every step: the audit checks each one."""
    events, start = _started(events)
    gone = retracted_seqs(events)
    gid = game_id if game_id is not None else events[start].get("game_id", 0)
    state = initial_state(gid, events[start])
    # the commands before the table exists are yielded with the table as dealt
    for e in events[:start + 1]:
        yield e, state
    handlers, bounds = HANDLERS, Bounds.of(state.seats, state.edition.decks)
    for e in events[start + 1:]:
        seq = e["seq"]
        if seq not in gone:
            if not bounds.fits(e["type"], e["data"]):
                raise not_foldable(state, e)
            try:
                state = handlers[e["type"]](state, e["data"], seq)
            except Exception as exc:
                raise not_foldable(state, e, exc) from None
        yield e, state


def fold_rows(state: State, rows, gone: set[int] | frozenset = frozenset(),
              bounds: Bounds | None = None) -> State:
    """The table after `rows` (in seq order, following `state`; its seq left as it was), the
    seqs in `gone` skipped, each row's fields held to `bounds` (None: rows this process has
    just decided, looked at by nobody again).  The fold's hot loop: `fold` and a fold from a
    snapshot (ledger/held_tables.py) share it; `replay` yields a table a row instead."""
    handlers = HANDLERS
    if bounds is None:
        for e in rows:
            seq = e["seq"]
            if seq not in gone:
                try:
                    state = handlers[e["type"]](state, e["data"], seq)
                except Exception as exc:
                    raise not_foldable(state, e, exc) from None
        return state
    plans, plan = bounds.plans, bounds.plan
    for e in rows:
        seq = e["seq"]
        if seq not in gone:
            type_, data = e["type"], e["data"]
            # the fields' ranges first: a square 45 or a turn passed to a stranger would be
            # taken by the table and fail a reading later (ledger/records/bounds.py); a check
            # that raises (a field lacking) is a row out of range as one that says False
            try:
                fits = (plans.get(type_) or plan(type_))(data)
            except Exception:
                fits = False
            if not fits:
                raise not_foldable(state, e)
            try:
                state = handlers[type_](state, data, seq)
            except Exception as exc:
                raise not_foldable(state, e, exc) from None
    return state


def not_foldable(state: State, event: dict, exc: Exception | None = None) -> DatabaseError:
    """A fact the table cannot take (a player who is not at it, a square off the board, a
    field of the wrong kind): banco never appends one, so the log was written by someone else,
    its chain recomputed over it (issue 32: a KeyError in `state`).  Named, exit 4; `audit`
    says more.  `exc` None: refused by the fields' ranges (ledger/records/bounds.py) before
    the table took it."""
    why = unfoldable_why(state, event, exc)
    return DatabaseError("game {game} cannot be read: event {seq} ({type}) is no fact the table "
                         "can take ({why}), and banco never writes one: run `banco audit`",
                         game=state.game_id, seq=event.get("seq"), type=event.get("type"),
                         why=why)


def unfoldable_why(state: State, event: dict, exc: Exception | None = None):
    """Why the table cannot take `event` (not_foldable's words, the audit's too): the field
    out of range, the stranger it names, else the exception's own words."""
    bad = fault(event.get("type"), event.get("data"), state.index, state.edition.decks)
    if bad is not None:
        return field_fault(*bad, state.index)
    if isinstance(exc, KeyError) and exc.args and exc.args[0] not in state.index:
        return msg("it names {name}, who is not at the table", name=repr(exc.args[0])[:60])
    if exc is None:  # the written-out checks refused what `fault` cannot name: still no
        return msg("a field out of the range banco records")  # "NoneType: None"
    return f"{type(exc).__name__}: {str(exc)[:120]}"


def fold(events, game_id: int | None = None) -> State:
    """The table after the last event."""
    events, start = _started(events)
    gid = game_id if game_id is not None else events[start].get("game_id", 0)
    state = initial_state(gid, events[start])
    rows = events[start + 1:]
    state = fold_rows(state, rows, retracted_seqs(events), Bounds.of(state.seats, state.edition.decks))
    # seq is set once at the end rather than per event: the fold's hot path
    return state._replace(seq=events[-1]["seq"])
