"""The table as the players see it on a TV or a phone (`banco serve`): plain, JSON-able data.

Pure: the caller gives the folded table and the game's events (its tail is enough: the screen
reads only its last commands, `command_tail`) and gets a dict; the page
(cli/web/static/table.html) draws it and says its words in the reader's language, so nothing
here is translated.  Amounts come both as numbers and as the edition prints them (`1.500 M`).

What a player need not disclose stays off the screen: under a rule set that lets a player keep
the amount of his cash to himself (000 FAQ 4: "Non sei obbligato a dire a nessuno quanto soldi
possiedi") each player's cash is `null` unless the banker chooses to show it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from banco.ledger.base.errors import RuleViolation
from banco.ledger.table.state import State
from banco.projections.readings.report import GROUP_COLOURS, PLAYER_COLOURS

RECENT_COMMANDS = 8


def cash_private(state: State) -> str | None:
    """The section that lets a player keep his cash to himself, or None where it is public."""
    rules = state.rules
    return None if rules.cash_disclosed else rules.cite.get("cash", rules.source)


def screen(state: State, events: list[dict], *, show_cash: bool | None = None,
           recent: int = RECENT_COMMANDS) -> dict:
    """The screen's document.  `show_cash`: None follows the rule set (hidden under 000 FAQ 4,
    shown elsewhere); True or False is the banker's choice."""
    private = cash_private(state)
    shown = show_cash if show_cash is not None else private is None
    money = state.edition.money
    space = state.edition.space
    colours = {n: PLAYER_COLOURS[i % len(PLAYER_COLOURS)] for i, n in enumerate(state.seats)}
    group_colour = {pos: GROUP_COLOURS.get(min(lots), "#ccc")
                    for lots in state.edition.groups.values() for pos in lots}
    tokens: dict[int, list[str]] = {}
    for p in state.players:
        if not p.bankrupt:
            tokens.setdefault(p.position, []).append(p.name)
    auction = None
    if state.auction is not None:
        a = state.auction
        auction = {"property": space(a.property).name if a.property is not None else None,
                   "kind": a.kind, "high_bidder": a.high_bidder, "high_bid": a.high_bid,
                   "high_bid_text": money(a.high_bid) if a.high_bidder else None,
                   "min_bid": a.min_bid, "min_bid_text": money(a.min_bid),
                   # winners who could not pay, kept out of the re-run (000 FAQ 22): their
                   # phones offer no bid pad (the rules refuse their bids)
                   "excluded": list(a.excluded)}
    return {
        "game": state.game_id,
        "seq": state.seq,
        "rules": state.rules.name,
        "edition": state.edition.title,
        "cash_shown": shown,
        "cash_rule": private,
        "turn": {"player": state.turn.player, "phase": state.turn.phase,
                 "dice": list(state.turn.dice)},
        "players": [_player(state, p, colours[p.name], shown) for p in state.players],
        "board": [_space(state, s, group_colour.get(s.position), colours, tokens)
                  for s in state.edition.spaces],
        "claims": [{"payer": c.payer, "owner": c.owner, "property": space(c.property).name,
                    "amount": c.amount, "amount_text": money(c.amount), "until": c.closer,
                    "after_turn_of": c.settle_after or None}
                   for c in state.claims],
        "auction": auction,
        "debts": [{"debtor": d.debtor, "creditor": d.creditor, "amount": d.amount,
                   "amount_text": money(d.amount)} for d in state.debts],
        "commands": last_commands(events, recent),
        "ended": state.ended,
        "winner": state.winner,
    }


def _player(state: State, p, colour: str, shown: bool) -> dict:
    space = state.edition.space
    deeds = [{"name": space(pos).name, "colour": GROUP_COLOURS.get(
                 min(state.edition.groups.get(space(pos).group, (pos,))), "#ccc"),
              "houses": state.buildings[pos] % 5, "hotel": state.buildings[pos] == 5,
              "mortgaged": pos in state.mortgaged}
             for pos, owner in enumerate(state.owners) if owner == p.name]
    return {"name": p.name, "colour": colour,
            "cash": p.cash if shown else None,
            "cash_text": state.edition.money(p.cash) if shown else None,
            "space": space(p.position).name, "position": p.position,
            "in_jail": p.in_jail, "bankrupt": p.bankrupt,
            "jail_cards": len(p.jail_cards), "deeds": deeds,
            "turn": p.name == state.turn.player and not state.ended}


def _space(state: State, s, band: str | None, colours: dict, tokens: dict) -> dict:
    owner = state.owners[s.position]
    built = state.buildings[s.position]
    return {"position": s.position, "name": s.name, "kind": s.kind, "band": band,
            "owner": owner, "owner_colour": colours.get(owner) if owner else None,
            "houses": built % 5, "hotel": built == 5,
            "mortgaged": s.position in state.mortgaged,
            "tokens": [{"name": n, "colour": colours[n]} for n in tokens.get(s.position, [])]}


def command_tail(newest_first: Iterable[dict], count: int = RECENT_COMMANDS) -> list[dict]:
    """The game's last rows in seq order, back to its `count`th last command (all of them in a
    shorter game): all the screen reads of the log, so a TV on a long game does not hold it.
    `newest_first`: the rows read backwards (ledger/store/reading.py read_backwards)."""
    tail = []
    for e in newest_first:
        tail.append(e)
        count -= e["type"] == "CommandRecorded"
        if count <= 0:
            break
    return tail[::-1]


def last_commands(events: list[dict], count: int) -> list[dict]:
    """The last `count` lines the banker recorded, newest first, with the seq and time of
    each (a command recorded before lines were kept shows no line)."""
    # a command an undo took back is listed as such: shown plain, it read as if it stood
    gone = {s for e in events if e["type"] == "EventRetracted" for s in e["data"]["seqs"]}
    undone = {e.get("command_id") for e in events if e["seq"] in gone}
    out = []
    for e in reversed(events):
        if e["type"] == "CommandRecorded":
            out.append({"seq": e["seq"], "line": e["data"].get("line"),
                        "at": e.get("recorded_at"),
                        "undone": e["seq"] in gone or e.get("command_id") in undone})
            if len(out) == count:
                break
    return out


# --- each caller's view (`banco serve`'s roles) ------------------------------------------------

# What the table waits for during a debt says how much cash the debtor holds, or whether it is
# enough (ledger/table/state.py's debt_step); where cash is private that is said without it.
_DEBT_TEMPLATES = frozenset({
    "{debtor} owes {to} and has the cash: `pay {debtor}`",
    "{debtor} owes {to} and can raise only {can}: `bankrupt {debtor}`",
    "{debtor} owes {to} with {cash} in cash: raise {amount} (`sell`, `mortgage`, `trade`), "
    "then `pay {debtor}`"})


def discreet(step, hidden: Callable[[str], bool]):
    """`next_step`'s words with the debt of each player whose cash is `hidden` said without
    his cash: `Anna owes 200 M to Bruno: `pay Anna`, or raise it, or `bankrupt Anna``."""
    from banco.ledger.base.text import Joined, Text, msg

    if isinstance(step, Joined):
        return Joined([discreet(i, hidden) for i in step.items], step.sep)
    if not isinstance(step, Text) or type(step) is not Text:
        return step
    if step.template in _DEBT_TEMPLATES and hidden(step.params.get("debtor", "")):
        return msg("{debtor} owes {to}: `pay {debtor}`, or raise the cash (`sell`, `mortgage`, "
                   "`trade`), or `bankrupt {debtor}`", debtor=step.params["debtor"],
                   to=step.params["to"])
    if not step.params:
        return step
    return Text(step.template, step.plural, step.n,
                {k: discreet(v, hidden) for k, v in step.params.items()})


def view_of(state: State, full: dict, public: dict, view: str) -> tuple[dict, object]:
    """The document a caller sees, and the words of what the table waits for.  `full`: the
    screen with every cash shown (banker, referee); `public`: as the TV shows it; a view
    `player:NAME` is the public one with NAME's own cash (his always, 000 FAQ 4 or not)."""
    from banco.ledger.table.state import next_step

    step = next_step(state)
    if view == "full":
        return full, step
    doc = public
    me = view.partition(":")[2] if view.startswith("player:") else None
    if me is not None and not public["cash_shown"]:
        mine = {p["name"]: p for p in full["players"]}
        doc = {**public, "players": [mine[p["name"]] if p["name"] == me else p
                                     for p in public["players"]]}
    if public["cash_shown"]:
        return doc, step
    return doc, discreet(step, lambda name: name != me)


def card_pick(state: State) -> dict | None:
    """While a card is to be drawn: the deck's cards by their text, the known next card first
    (the banker's card picker)."""
    deck = state.turn.card_deck if state.turn.phase == "card" else None
    if deck is None:
        return None
    order = state.decks[deck]
    nxt = None
    if len(order.unseen) == 1:
        nxt = next(iter(order.unseen))
    elif not order.unseen and order.known:
        nxt = order.known[0][0]
    cards = sorted(state.edition.decks[deck].cards, key=lambda c: (c.number != nxt, c.number))
    return {"deck": deck, "title": state.edition.decks[deck].title, "next": nxt,
            "cards": [{"number": c.number, "text": c.text} for c in cards]}


def speedy_roll(state: State) -> bool:
    """Whether the roll now takes the Speedy die (000 §SVOLGIMENTO 2-3; not in jail)."""
    p = state.current
    return bool(state.rules.speedy_die and p.passed_go and not p.in_jail)


def undo_target(newest_first: Iterable[dict]) -> dict | RuleViolation:
    """What the next `undo` would take back, from the game's rows read backwards (a tail that
    reaches the command is enough): its line, the seqs of its facts, and `before`, the seq of
    the last row before its batch (the table then is the table the undo leaves).  Else the
    book's refusal, handed back so that a caller reading the whole log asks only once: nothing
    to undo (the game as dealt, or rows given that stop short of the command), or a recorded
    fact in the way (a seal, a referee's decision, a refusal kept as evidence: its `seq`)."""
    from banco.ledger.batches import COMMAND_RECORDED, undo_facts

    read: list[dict] = []

    def rows():
        for e in newest_first:
            read.append(e)
            yield e

    try:
        facts = undo_facts(rows())
    except RuleViolation as refusal:  # a store's error is no refusal: it is raised
        return refusal
    data = facts[0]["data"]
    batch = [e for e in read if e["command_id"] == data["command_id"]]
    line = next((e["data"].get("line") for e in batch if e["type"] == COMMAND_RECORDED), None)
    return {"line": line, "seqs": list(data["seqs"]), "before": min(e["seq"] for e in batch) - 1}
