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

from collections.abc import Iterable

from ledger.table.state import State
from projections.readings.report import GROUP_COLOURS, PLAYER_COLOURS

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
                   "min_bid": a.min_bid, "min_bid_text": money(a.min_bid)}
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
    `newest_first`: the rows read backwards (`SQLiteStore.read_backwards`)."""
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
    out = []
    for e in reversed(events):
        if e["type"] == "CommandRecorded":
            out.append({"seq": e["seq"], "line": e["data"].get("line"),
                        "at": e.get("recorded_at")})
            if len(out) == count:
                break
    return out
