"""A fact in words for a reader of the log: a line for any fact (`describe`, from
cli/words/fact_lines.py's table of what each fact says, `narrate`), its players, amount and
fields, and the notes on a moment of the game (what a later undo took back).

Lines are said in the user's language (cli/words/i18n.py) from each fact's fields; a fact's
reason, a code and its parameters, through cli/words/reasons.py."""

from __future__ import annotations

# what each fact says lives in cli/words/fact_lines.py; these names are read from here too
from banco.cli.words.fact_lines import BUILDINGS, bank_or, narrate, space_name  # noqa: F401
from banco.cli.words.i18n import _, ngettext
from banco.cli.words.reasons import local_time, say_reason  # noqa: F401
from banco.ledger.base.numbers import ranges
from banco.ledger.table.state import BANK, State


def nothing_to_pay(event: dict, events: list[dict], state: State) -> str | None:
    """After a repairs card drawn by a player with no houses or hotels: no payment follows it,
    so the banker is told there is nothing to charge (not left to wonder); else None."""
    if event["type"] != "CardDrawn":
        return None
    d = event["data"]
    effect = state.edition.decks[d["deck"]].cards[d["number"] - 1].effect
    if effect["kind"] != "repairs" or any(
            e["type"] in ("CardPayment", "DebtIncurred") for e in events):
        return None
    return _("  {player} has no houses or hotels: nothing to pay").format(player=d["player"])


def describe(event: dict, state: State) -> str:
    """One line for any event, bookkeeping included: what `log` and `show` print.  The banker's
    live narration leaves some facts unsaid because the next line says them; a referee reading
    the log needs every one."""
    line = narrate(event, state)
    if line is None:
        line = _quiet(event, state)
    return " ".join(line.split()) if line else f"({event['type']})"


def _quiet(event: dict, state: State) -> str | None:
    """Words for the facts `narrate` leaves to the line after them."""
    t, d = event["type"], event["data"]
    money = state.edition.money
    if t == "RentClaimLapsed":  # closed by a debt
        return _("{owner}'s claim on {payer} ({amount}, {space}) became a debt: {payer} could "
                 "not pay it in cash").format(owner=d["owner"], payer=d["payer"],
                                              amount=money(d["amount"]),
                                              space=space_name(state, d["property"]))
    if t == "AuctionClosed":
        what = space_name(state, d["property"]) if d["property"] is not None else _("the building")
        return _("auction closed ({what}): {outcome}, {reason}").format(
            what=what, reason=say_reason(d["reason"], state.edition),
            outcome=f"sold to {d.get('winner')}" if d["outcome"] == "sold" else d["outcome"])
    if t == "SpeedyMoveChosen":
        return _("{player} moves {spaces} to {space}: {reason}").format(
            player=d["player"], spaces=d["spaces"], space=space_name(state, d["to"]),
            reason=say_reason(d["reason"], state.edition))
    return None


SHORT_HASH = 12  # as in the head line `banco/<game>/<seq>/<12 hex>`

# Data fields that name a player (or the Bank's account), for `log --player` and the CSV, in
# the order they are listed: who acts or pays first, then who receives.  (The stored data has
# its keys sorted, which says nothing about roles.)
PLAYER_KEYS = ("players", "player", "payer", "debtor", "a", "payee", "owner", "creditor", "b",
               "next", "winner", "first_player", "from", "to")  # from/to: a corrected owner
_RANK = {k: i for i, k in enumerate(PLAYER_KEYS)}


def players_of(event: dict) -> list[str]:
    """The players an event concerns, the actor or payer first (the Bank left out)."""
    found: list[tuple[int, int, str]] = []

    def walk(value, key=None, depth=0):
        if isinstance(value, dict):
            for k, v in value.items():
                walk(v, k, depth + 1)
        elif isinstance(value, list):
            for v in value:
                walk(v, key, depth)
        elif key in _RANK and isinstance(value, str) and value != BANK:
            found.append((depth, _RANK[key], value))

    walk(event["data"])
    out: list[str] = []
    for *_rest, name in sorted(found, key=lambda f: f[:2]):  # the event's own fields first
        if name not in out:
            out.append(name)
    return out


def amount_of(event: dict) -> int | None:
    """The figure an event is about: its amount, or the total of its transfers."""
    from banco.ledger.records.events import transfers_of

    d = event["data"]
    if isinstance(d.get("amount"), int):
        return d["amount"]
    moved = transfers_of(event)
    return sum(t["amount"] for t in moved) if moved else None


def taken_back(events: list[dict]) -> dict[int, int]:
    """seq -> the seq of the EventRetracted (undo) that took it back."""
    out: dict[int, int] = {}
    for e in events:
        if e["type"] == "EventRetracted":
            for s in e["data"]["seqs"]:
                out[s] = e["seq"]
    return out


# Data fields holding board positions: shown with the space's name beside them.
POSITION_KEYS = frozenset({"property", "properties", "from", "to", "position"})


def data_lines(data, state: State, indent: int = 2) -> list[str]:
    """An event's data, one field a line, nested values indented, positions named."""
    pad = " " * indent
    lines: list[str] = []

    def scalar(key, value) -> str:
        if key in POSITION_KEYS and isinstance(value, int) and not isinstance(value, bool):
            return f"{value} ({space_name(state, value)})"
        if key == "jail_cards" and isinstance(value, list) and len(value) == 2:
            deck = state.edition.decks.get(value[0])
            return f"{deck.title if deck else value[0]} {value[1]}"
        return json_scalar(value)

    for key, value in data.items():
        if isinstance(value, dict) and value:
            lines.append(f"{pad}{key}:")
            lines.extend(data_lines(value, state, indent + 2))
        elif isinstance(value, list) and value and (
                isinstance(value[0], (dict, list)) or key in POSITION_KEYS):
            lines.append(f"{pad}{key}:")
            for item in value:
                if isinstance(item, dict):
                    sub = data_lines(item, state, indent + 4)
                    lines.append(f"{pad}  - " + sub[0].lstrip())
                    lines.extend(sub[1:])
                else:
                    lines.append(f"{pad}  - {scalar(key, item)}")
        else:
            lines.append(f"{pad}{key}: {scalar(key, value)}")
    return lines


def json_scalar(value) -> str:
    import json

    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def _few(names: list[str], shown: int = 4) -> str:
    more = len(names) - shown
    return ", ".join(names[:shown]) + (_(" and {n} more").format(n=more) if more > 0 else "")


def moment_notes(events, at: int, retractions: list[dict] | None = None,
                 command_rows=None) -> tuple[list[str], int | None]:
    """What a referee must know about the table as it was after event `at`: which of the
    events it includes a later undo took back, and whether `at` falls inside a command (then
    the table is half-way through that command).  Returns the notes and, when `at` is inside
    a command, the seq of that command's last event (else None).  `events`: the game's rows
    (a list, or a sequence read on demand); `retractions` (its EventRetracted rows) and
    `command_rows(command_id)` spare a long game's reading all of it."""
    notes = []
    if retractions is None:
        retractions = [e for e in events[at:] if e["type"] == "EventRetracted"]
    for e in retractions:
        if e["seq"] > at:
            taken = [s for s in e["data"]["seqs"] if s <= at]
            if taken:
                notes.append(ngettext(
                    "note: event {seqs} in this table was taken back later, by the undo at "
                    "event {undo}",
                    "note: events {seqs} in this table were taken back later, by the undo at "
                    "event {undo}", len(taken)).format(seqs=ranges(taken), undo=e["seq"]))
    end = None
    if at < len(events) and events[at]["command_id"] == events[at - 1]["command_id"]:
        cid = events[at - 1]["command_id"]
        batch = (command_rows(cid) if command_rows is not None
                 else [e for e in events if e["command_id"] == cid])
        first, last = batch[0]["seq"], batch[-1]["seq"]
        done = _few([e["type"] for e in batch if e["seq"] <= at])
        rest = _few([e["type"] for e in batch if e["seq"] > at])
        notes.append(_("note: event {at} is inside a command (events {first}-{last}): the table "
                       "is half-way, after {done} and before {rest}").format(
            at=at, first=first, last=last, done=done, rest=rest))
        end = last
    return notes, end
