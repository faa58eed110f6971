"""A referee's facts: corrections of the table and recorded rulings, decided like any command.

A correction never edits the past (DESIGN.md): it is a new fact, with the referee's name and a
reason, that the fold applies like any other.  The banker's `undo` does not reach behind it
(ledger/book.py): the referee corrects again, with a reason.
Money moves only to or from the Bank, as an explicit transfer.  Each function refuses what
cannot be true of a table (negative cash, a name that is not seated, buildings left on a group
split between owners) and says what would be allowed.  A ruling changes nothing on the table:
it is evidence, kept in the chain, of what the referee decided and why.
"""

from __future__ import annotations

from collections.abc import Iterable

from banco.ledger.base.errors import RuleViolation
from banco.ledger.base.text import msg
from banco.ledger.records import commands as c
from banco.ledger.records.events import RULING_KINDS
from banco.ledger.records.reasons import reason
from banco.ledger.rules.decision import Tx, money
from banco.ledger.rules.registry import handles
from banco.ledger.table.state import BANK, State

# A referee may act after the game has ended: a final ruling, a correction before scoring.
AFTER_THE_END = (c.CorrectCash, c.CorrectPosition, c.CorrectOwner, c.RecordRuling, c.Seal)


def referee_name(text: str) -> str:
    """The name given to --referee, its ends trimmed (the name the fact is recorded by),
    checked as a player's name is (ledger/table/seats.py: not blank, no control character, not too
    long...): UsageError otherwise, before anything is decided or appended."""
    from banco.ledger.base.errors import UsageError
    from banco.ledger.base.names import shown
    from banco.ledger.table.seats import name_problem

    name = text.strip()
    why = name_problem(name)
    if why:
        raise UsageError("referee name {name!r} refused: {why}", name=shown(text), why=why)
    return name


def game_referee(name: str, players: Iterable[str], recorded: Iterable[str]) -> str:
    """A referee's name (referee_name's) held to the game: not one of its `players` (a player
    would rule on his own game: RuleViolation), and spelt as the referee already `recorded` in
    it (oldest first) was, whatever the case or accents (`rita` is Rita: one referee, not two)."""
    from banco.ledger.base.names import fold

    key = fold(name)
    players = list(players)
    playing = next((p for p in players if fold(p) == key), None)
    if playing is not None:
        raise RuleViolation("--referee {name}: {player} plays in this game, and a player "
                            "cannot be its referee", allowed=msg("--referee NAME of someone who does not play "
                                                   "here, not {players}",
                                                   players=", ".join(players)),
                            name=name, player=playing)
    return next((r for r in recorded if fold(r) == key), name)


MAX_REASON = 300  # a sentence or two on the score sheet's margin, not a pasted page


def reason_text(text: str) -> str:
    """The reason given to --reason, its ends trimmed: one line of printable text.  A newline
    or a control character would let a reason print lines that look like banco's own
    (`...\nthe Bank pays 9999 M to Anna`) in `log`, `replay` and the report; an invisible
    character would make two reasons look alike.  UsageError otherwise."""
    from banco.ledger.base.errors import UsageError
    from banco.ledger.base.names import code_point, hidden_character, shown

    reason = text.strip()
    bad = hidden_character(reason)
    if bad is not None:
        raise UsageError("the reason {text!r} holds the character {code}: a reason is one line "
                         "of printable text", text=shown(text), code=code_point(bad))
    if len(reason) > MAX_REASON:
        raise UsageError("the reason is {n} characters long; at most {most}", n=len(reason),
                         most=MAX_REASON)
    return reason


def _said(cmd) -> None:
    if not cmd.referee.strip():
        raise RuleViolation("a referee's decision names the referee", allowed=msg("--referee NAME"))
    if not cmd.reason.strip():
        raise RuleViolation("a correction says why", allowed=msg("--reason TEXT"))


def _seated(state: State, name: str, what: str) -> None:
    if name not in state.index:
        raise RuleViolation("{name} is not at this table", allowed=", ".join(state.active()),
                            name=name)
    if state.player(name).bankrupt:
        raise RuleViolation("{name} is bankrupt and out of the game: nothing of {name}'s can be {what}",
                            name=name, what=what)


@handles(c.CorrectCash)
def correct_cash(tx: Tx, cmd: c.CorrectCash) -> None:
    state = tx.state
    _said(cmd)
    _seated(state, cmd.player, "corrected")
    if cmd.amount == 0:
        raise RuleViolation("a correction of 0 changes nothing",
                            allowed=msg("a whole amount, + from the Bank to {player}, - back", player=cmd.player))
    cash = state.player(cmd.player).cash
    if cmd.amount < 0 and cash < -cmd.amount:
        raise RuleViolation(
            "{player} has {cash}: taking {value} would leave the cash negative", allowed=msg("take at most {cash}", cash=cash),
            player=cmd.player, cash=money(state, cash), value=money(state, -cmd.amount))
    payer, payee = (BANK, cmd.player) if cmd.amount > 0 else (cmd.player, BANK)
    tx.emit("CashCorrected", player=cmd.player, payer=payer, payee=payee,
            amount=abs(cmd.amount), reason=reason("referee", referee=cmd.referee, said=cmd.reason),
            referee=cmd.referee)


@handles(c.CorrectPosition)
def correct_position(tx: Tx, cmd: c.CorrectPosition) -> None:
    state = tx.state
    _said(cmd)
    _seated(state, cmd.player, "moved")
    if not 0 <= cmd.position <= 39:
        raise RuleViolation("the board has spaces 0 to 39, not {position}",
                            position=cmd.position)
    p = state.player(cmd.player)
    space = state.edition.space(cmd.position).name
    if p.position == cmd.position and not p.in_jail:
        raise RuleViolation("{player} is already on {space}",
                            player=cmd.player, space=space)
    t = state.turn
    if t.player == cmd.player and t.phase not in ("roll", "over"):
        # The square's business (an offer, a card, an auction) is still on the table: moving
        # the token now would leave it waiting on a square the player is no longer on.
        from banco.ledger.table.state import next_step

        raise RuleViolation("{player}'s move is still being played out",
                            allowed=msg("{next_step}; or `undo` it, then correct", next_step=next_step(state)),
                            player=cmd.player)
    # Moved out of jail by the referee (sent there wrongly, say): the move frees him.  Moved
    # onto the jail square he is only visiting (004 §Prigione).
    tx.emit("PositionCorrected", player=cmd.player, **{"from": p.position}, to=cmd.position,
            left_jail=p.in_jail, reason=reason("referee", referee=cmd.referee, said=cmd.reason),
            referee=cmd.referee)


@handles(c.CorrectOwner)
def correct_owner(tx: Tx, cmd: c.CorrectOwner) -> None:
    state = tx.state
    _said(cmd)
    pos = cmd.property
    space = state.edition.space(pos)
    if not space.is_property:
        raise RuleViolation("{space} is not a deed: nobody owns it",
                            space=space.name)
    if cmd.owner is not None:
        _seated(state, cmd.owner, "given a deed")
    now = state.owners[pos]
    if now == cmd.owner:
        raise RuleViolation("{space} already belongs to {value}",
                            space=space.name, value=now or 'the Bank')
    group = state.edition.groups[space.group]
    built = [p for p in group if state.buildings[p]]
    if built:
        raise RuleViolation(
            "the group of {space} has buildings ({items}): a deed with buildings on its group cannot change hands (004 §Proprietà in vendita)",
            allowed=msg("sell the buildings first (`sell PROPERTY all`), then correct the owner"),
            space=space.name, items=', '.join(state.edition.space(p).name for p in built))
    a = state.auction
    if (a is not None and a.property == pos) or pos in state.auction_queue:
        raise RuleViolation("{space} is being auctioned", allowed=msg("`hammer` it first"),
                            space=space.name)
    if state.turn.phase == "buy" and state.turn.offer == pos:
        raise RuleViolation("{space} is on offer to {player}",
                            allowed=msg("`buy` or `decline` first"),
                            space=space.name, player=state.turn.player)
    # The Bank holds no mortgaged deed: one handed back comes back free, as a bankrupt's
    # deeds do (003 §10).  Between players the mortgage goes with the deed.
    mortgaged = pos in state.mortgaged and cmd.owner is not None
    tx.emit("OwnerCorrected", property=pos, **{"from": now or BANK}, to=cmd.owner or BANK,
            mortgaged=mortgaged, reason=reason("referee", referee=cmd.referee, said=cmd.reason),
            referee=cmd.referee)


@handles(c.RecordRuling)
def record_ruling(tx: Tx, cmd: c.RecordRuling) -> None:
    if not cmd.referee.strip():
        raise RuleViolation("a recorded ruling names the referee", allowed=msg("--referee NAME"))
    if cmd.kind not in RULING_KINDS:
        raise RuleViolation("no ruling of kind {kind!r}", allowed=", ".join(RULING_KINDS),
                            kind=cmd.kind)
    if not 1 <= cmd.subject <= tx.seq:  # (the seq the ruling follows: decide_tx's `seq`)
        raise RuleViolation("event {subject} is not in this game (events 1 to {seq})",
                            subject=cmd.subject, seq=tx.seq)
    if isinstance(cmd.verdict, str):  # a command an older banco recorded: its English
        if not cmd.verdict.strip() or not (cmd.text or "").strip():
            raise RuleViolation("a ruling has a verdict and its reasons")
        from banco.ledger.records.verdict_prose import ruling_from_prose

        tx.emit("RulingRecorded", **ruling_from_prose(
            {"kind": cmd.kind, "subject_seq": cmd.subject, "verdict": cmd.verdict,
             "text": cmd.text, "referee": cmd.referee}))
        return
    if not (isinstance(cmd.verdict, dict) and isinstance(cmd.verdict.get("code"), str)
            and isinstance(cmd.evidence, dict) and isinstance(cmd.rule, str)):
        raise RuleViolation("a ruling has a verdict and its reasons")
    # JSON's lists: the command read back from its record holds tuples (command_codec.py),
    # and the fact it gives must equal the one recorded
    tx.emit("RulingRecorded", kind=cmd.kind, subject_seq=cmd.subject,
            verdict=_plain(cmd.verdict), evidence=_plain(cmd.evidence), rule=cmd.rule,
            referee=cmd.referee)


def _plain(value):
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


@handles(c.Seal)
def record_seal(tx: Tx, cmd: c.Seal) -> None:
    from banco.ledger.records.seals import record_seal as decide_seal

    decide_seal(tx, cmd)
