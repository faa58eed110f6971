"""Re-derivation: each recorded command worked out again, to find a fact no command produced.

Every command is recorded as CommandRecorded (the line and the parsed command) followed by its
facts, in one transaction (ledger/book.py).  The audit gives each one to the re-deriver of its
kind, with the table as it stood after its CommandRecorded, and compares what comes back with
the facts recorded, type and data exactly.  A forged event, forged dice (the dice are in the
command and in its DiceRolled), forged money: whatever the forger re-chained, the command does
not give it.

A re-deriver is registered by the command's kind, so a new kind of command plugs in here:

    @rederiver("Seal")
    def _seal(ctx: Context, cmd: Recorded) -> list[dict]:
        ...  # the facts this command must have recorded, or raise Refused(why not)

The kind is the recorded command's `kind` (its class in ledger/records/commands.py); `new` and `undo`
record no command object and are told apart by where they stand (`new` opens the game).  A
kind with no re-deriver of its own goes through `decide`, as the book decided it: every
command of ledger/records/commands.py, the referee's corrections and recorded rulings included.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any, NamedTuple

from banco.ledger.base.errors import BancoError, RuleViolation
from banco.ledger.base.text import Joined, Text, msg, plural


class Recorded(NamedTuple):
    """One recorded command: its CommandRecorded and the facts after it, as stored."""
    seq: int  # the seq of its CommandRecorded
    line: str | None
    command: dict | None  # the command document (ledger/records/command_codec.py), None: new, undo
    facts: list[dict]  # rows: seq, type, data, command_id
    key: str | None = None  # the command as stored text: the same text decodes the same


class Derived:
    """Facts worked out by `decide`, with the table after each (`states`): the audit checks
    them against those tables instead of folding the same facts again.  Read as the list of
    the facts (len, index, slice, iteration), as a re-deriver's plain list is; the audit
    takes `events` itself, decide's own list, never copied."""

    def __init__(self, events: list[dict], states: list):
        self.events = events
        self.states = states

    @classmethod
    def of(cls, events: list[dict], states: list) -> Derived:
        return cls(events, states)

    def __len__(self) -> int:
        return len(self.events)

    def __getitem__(self, index: Any) -> Any:  # an int gives a fact, a slice a list of them
        return self.events[index]

    def __iter__(self) -> Iterator[dict]:
        return iter(self.events)


class Context:
    """What a re-deriver may look at: the table before the command (its CommandRecorded, at
    `seq`, folds to the same table but for its seq), the game's
    rows before the command (newest first, read on demand: an undo reads only the tail) and
    the chain's hash of an earlier event (a seal signs one)."""

    def __init__(self, game_id: int, state, before: Callable[[int], Iterable[dict]],
                 hash_at: Callable[[int], str | None], identity: str | None,
                 data: Callable[[dict], dict] | None = None):
        self.game_id = game_id
        self.state = state
        self._before = before
        self._hash_at = hash_at
        self.identity = identity  # the game's uuid, or None for a game from before uuids
        # the command's CommandRecorded's seq: `state` is the table before that row, which
        # folds to nothing but this seq (decide is given it apart: no copy of the table)
        self.seq = 0 if state is None else state.seq
        self._data = data or (lambda row: row["data"])

    def data(self, row: dict) -> dict:
        """A recorded fact's data (the audit parses a row's data only when it is needed)."""
        return self._data(row)

    def before(self, seq: int) -> Iterable[dict]:
        """The rows before event `seq`, newest first."""
        return self._before(seq)

    def hash_at(self, seq: int) -> str | None:
        return self._hash_at(seq)


class Refused(Exception):
    """The command cannot have produced anything here: why (a Text, said in the user's
    language by the audit's reader)."""


# what a re-deriver gives: the facts, as a list or as decide's Derived (with the tables)
Facts = list[dict] | Derived
Rederiver = Callable[[Context, Recorded], Facts]
REDERIVERS: dict[str, Rederiver] = {}


def rederiver(kind: str) -> Callable[[Rederiver], Rederiver]:
    def register(fn: Rederiver) -> Rederiver:
        REDERIVERS[kind] = fn
        return fn

    return register


def expected_facts(ctx: Context, cmd: Recorded) -> Facts:
    """The facts the command gives here ({type, data} each), or Refused: by the re-deriver of
    its kind (its own for `new`, `undo` and a few more), else by decide."""
    command = cmd.command
    if command is None:
        kind = "new" if ctx.state is None else "undo"
    else:  # (the kind found here, not by a call of its own: a call a command)
        kind = command.get("kind") if isinstance(command, dict) else None
        if not isinstance(kind, str):
            kind = "?"
    return REDERIVERS.get(kind, _by_decide)(ctx, cmd)


# ledger.rules.decide.decide_tx, imported by the first command re-derived
_decide_tx: Callable[..., Any] | None = None


def _by_decide(ctx: Context, cmd: Recorded) -> Facts:
    global _decide_tx
    decide_tx = _decide_tx
    if decide_tx is None:  # an import statement costs even when done: once, not per command
        from banco.ledger.rules.decide import decide_tx as imported

        decide_tx = _decide_tx = imported
    if ctx.state is None:
        raise Refused(msg("a command before the game was started"))
    command = _decoded(cmd)
    try:
        tx = decide_tx(ctx.state, command, ctx.seq)
        return Derived(tx.events, tx.states)
    except RuleViolation as refusal:
        if refusal.record:
            return refusal.record
        raise Refused(refusal.text) from None
    except BancoError as exc:
        raise Refused(exc.text) from None
    except Exception as exc:  # a command decide cannot even look at is not one it decided
        raise Refused(msg("decide cannot take it ({error}: {why})",
                          error=type(exc).__name__, why=_said(exc))) from None


def _said(exc: Exception):
    """An exception's message: a Text when it carries one (said in the user's language),
    else its English str()."""
    first = exc.args[0] if exc.args else None
    return first if isinstance(first, Text) else str(exc)


# The same few commands come back again and again (36 throws of the dice, `buy`, `claim
# Anna`...): each stored text is decoded once.
_DECODED: dict = {}


def _decoded(cmd: Recorded):
    key = cmd.key
    found = _DECODED.get(key) if key is not None else None
    if found is None:
        from banco.ledger.records.command_codec import CommandDecodeError, decode

        try:
            # `new` and `undo` (no command) have re-derivers of their own: a command is here
            found = (decode(cmd.command), None)  # type: ignore[arg-type]
        except CommandDecodeError as exc:
            found = (None, msg("the recorded command cannot be read: {why}", why=_said(exc)))
        if key is not None:
            if len(_DECODED) > 4096:
                _DECODED.clear()
            _DECODED[key] = found
    if found[1] is not None:
        raise Refused(found[1])
    return found[0]


@rederiver("new")
def _new(ctx: Context, cmd: Recorded) -> list[dict]:
    """`new`: the opening facts, rebuilt with start_game from what GameStarted records; its
    game_uuid is the one thing start_game does not choose."""
    from banco.ledger.board.rule_sets import RuleSet
    from banco.ledger.rules.decide import start_game

    started = ctx.data(cmd.facts[0]) if cmd.facts and cmd.facts[0]["type"] == "GameStarted" \
        else None
    if started is None:
        raise Refused(msg("a game opens with GameStarted"))
    try:
        rules = RuleSet.from_params(started["rules"])
        events = start_game(started["players"], rules, started["edition"],
                            started["first_player"], bool(started.get("final", False)))
    except (BancoError, KeyError, TypeError, ValueError) as exc:
        raise Refused(msg("`new` refuses this start: {why}", why=_said(exc))) from None
    data = events[0]["data"]
    # The rules as recorded stand (a later banco reads older parameter sets, filling in what
    # they lack), so long as they read as these very rules.
    if RuleSet.from_params(data["rules"]) == rules:
        data["rules"] = started["rules"]
    if "game_uuid" in started:
        data["game_uuid"] = started["game_uuid"]
    return events


@rederiver("undo")
def _undo(ctx: Context, cmd: Recorded) -> list[dict]:
    from banco.ledger.book import undo_facts

    try:
        return undo_facts(ctx.before(cmd.seq), behind_refusals=True)
    except RuleViolation as refusal:
        raise Refused(refusal.text) from None


def first_difference(expected: list[dict], facts: list[dict]) -> tuple[int, Text] | None:
    """Where the recorded facts part from the expected ones: (index in `facts`, why), or
    None when they are the same, type and data."""
    for i, (want, got) in enumerate(zip(expected, facts, strict=False)):
        if want["type"] != got["type"]:
            return i, msg("the command gives {type} {data} here, the log has {found}",
                          type=want["type"], data=_brief(want["data"]), found=got["type"])
        if want["data"] != got["data"] and plain(want["data"]) != got["data"]:
            return i, msg("{type} {differences}", type=got["type"],
                          differences=_differences(plain(want["data"]), got["data"]))
    if len(facts) > len(expected):
        extra = facts[len(expected)]
        return len(expected), msg("{type}: no fact is left for it: the command gives {count}",
                                  type=extra["type"], count=_count(len(expected)))
    if len(expected) > len(facts):
        missing = expected[len(facts)]
        return len(facts), msg("the command's facts stop short: it gives {type} {data} next",
                               type=missing["type"], data=_brief(missing["data"]))
    return None


def _count(n: int) -> Text:
    return msg("no fact") if n == 0 else plural("one fact", "{n} facts", n)


def plain(value):
    """Data as JSON gives it back: tuples as lists."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def _brief(data, limit: int = 120) -> str:
    import json

    text = json.dumps(data, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _differences(want: dict, got) -> Text:
    if not isinstance(got, dict):
        return msg("is {found}, the command gives {data}", found=_brief(got), data=_brief(want))
    parts = []
    for key in sorted(set(want) | set(got)):
        if key not in got:
            parts.append(msg("lacks {key} (the command gives {data})", key=key,
                             data=_brief(want[key], 40)))
        elif key not in want:
            parts.append(msg("has {key} {found}, which the command does not give", key=key,
                             found=_brief(got[key], 40)))
        elif want[key] != got[key]:
            parts.append(msg("has {key} {found} where the command gives {data}", key=key,
                             found=_brief(got[key], 40), data=_brief(want[key], 40)))
    return Joined(parts) if parts else msg("differs from what the command gives")


def newest_first(chunks: Iterator[list[dict]]) -> Iterator[dict]:
    for chunk in chunks:
        yield from reversed(chunk)


@rederiver("Seal")
def _seal(ctx: Context, cmd: Recorded) -> Facts:
    """`seal`: decided like any command (the head it names is the one before it), and what
    decide cannot see: the head is the chain's hash of that event, the game is this one, the
    signature is the named key's (ledger/records/seals.py)."""
    from banco.ledger.records import seals

    facts = _by_decide(ctx, cmd)
    seal = _decoded(cmd)
    at = ctx.hash_at(seal.seq)
    if at != seal.head:
        raise Refused(msg("it seals the head {head}... as event {seq}'s, but event {seq}'s hash "
                          "is {found}...: the history it sealed was not this one",
                          head=seal.head[:12], seq=seal.seq, found=str(at)[:12]))
    if seal.game_uuid != ctx.identity:
        raise Refused(msg("it seals game {uuid}, not this game ({identity})",
                          uuid=seal.game_uuid, identity=ctx.identity))
    text = seals.message(seal.game_uuid, seal.seq, seal.head, seal.referee)
    if not seals.verify(seal.public_key, seal.signature, text):
        raise Refused(msg("its signature is not the key {key}'s on this head: a forged seal",
                          key=seals.fingerprint(seal.public_key)))
    return facts
