"""What the banker reads: a line per fact, the table, and the stable JSON documents."""

from __future__ import annotations

from ledger.state import BANK, State


def _name(state: State, pos: int) -> str:
    return state.edition.space(pos).name


def narrate(event: dict, state: State) -> str | None:
    """One line for an event, or None for bookkeeping the banker need not read."""
    t, d = event["type"], event["data"]
    cur = state.edition.currency
    if t == "DiceRolled":
        dice = "+".join(map(str, d["dice"]))
        extra = f" (doubles, {d['in_row']} in a row)" if d["doubles"] and d["in_row"] else (
            " (doubles)" if d["doubles"] else "")
        if "speedy" in d:
            return _speedy_roll(d, dice, extra)
        return f"{d['player']} rolls {dice} = {sum(d['dice'])}{extra}"
    if t == "SpeedyMoveDue":
        if d["move"] == "bus":
            ways = _either([f"`move {n}`" for n in d["choices"]])
            return f"  the Bus: {d['player']} moves by one die or both: {ways}"
        if d["move"] == "triple":
            return f"  a triple: {d['player']} goes to any space: `go SPACE`"
        return f"  Mr Monopoly: {d['player']} moves on: `advance`"
    if t == "SpeedyMoveChosen":
        # A Bus or a triple is said by the TokenMoved line after it; Mr Monopoly says why.
        return f"  Mr Monopoly: {d['reason']}" if d["move"] == "mr_monopoly" else None
    if t == "TokenMoved":
        return f"  {d['player']} moves to {_name(state, d['to'])} ({d['to']})"
    if t in ("SalaryPaid", "TaxPaid", "FinePaid", "CardPayment", "PropertyBought", "AuctionWon",
             "RentPaid", "DebtPaid", "CashIssued", "HouseBuilt", "HotelBuilt", "BuildingSold",
             "BuildingsSold", "BuildingsBuilt",
             "PropertyMortgaged", "MortgageLifted", "MortgageInterestPaid", "EstateTransferred",
             "DeedsDealt", "MortgageReverted", "DebtPaidByBank", "DebtPaidInKind"):
        payer = "the Bank" if d["payer"] == BANK else d["payer"]
        payee = "the Bank" if d["payee"] == BANK else d["payee"]
        return f"  {payer} pays {d['amount']} {cur} to {payee}: {d['reason']}"
    if t == "PurchaseOffered":
        return f"  {_name(state, d['property'])} is for sale at {d['price']} {cur}: `buy` or `decline`"
    if t == "PropertyDeclined":
        return f"  {d['player']} declines {_name(state, d['property'])}"
    if t == "AuctionOpened":
        return (f"  auction for {_name(state, d['property'])}: bids from {d['min_bid']} {cur}, "
                f"`bid PLAYER AMOUNT`, then `hammer`")
    if t == "BidPlaced":
        return f"  {d['player']} bids {d['amount']} {cur}"
    if t == "AuctionClosed":
        if d["outcome"] != "no bid":
            return None
        what = _name(state, d["property"]) if d["property"] is not None else "the building"
        return f"  no bid for {what}: {d['reason']}"
    if t == "RentClaimOpened":
        return (f"  {d['owner']} may claim {d['amount']} {cur} rent on "
                f"{_name(state, d['property'])} ({d['basis']}) until {d['closer']} rolls: "
                f"`claim {d['owner']}`")
    if t == "RentClaimLapsed":
        claim = (f"{d['owner']}'s claim on {d['payer']} ({d['amount']} {cur}, "
                 f"{_name(state, d['property'])})")
        if d["closed_by"] == "debt":
            return None  # the DebtIncurred line that follows says it
        if d["closed_by"] == "bankruptcy":
            return f"  {claim} closed: a bankruptcy ended it"
        return f"  {claim} lapsed: {d['closed_by']} rolled"
    if t == "RentClaimRefused":
        where = f" as event {event['seq']}" if "seq" in event else ""
        return (f"  late claim recorded{where}: {d['owner']} asked {d['payer']} for "
                f"{d['amount']} {cur} ({_name(state, d['property'])}); landed at event "
                f"{d.get('landed_seq', d['opened_seq'])}, window closed at event {d['lapsed_seq']}")
    if t == "RentNotDue":
        return f"  no rent on {_name(state, d['property'])}: {d['reason']}"
    if t == "CardDrawRequired":
        deck = state.edition.decks[d["deck"]]
        return f"  {d['player']} draws from {deck.title}: `card {d['deck']} CARD`"
    if t == "CardDrawn":
        return f"  {state.edition.decks[d['deck']].title} {d['number']}: {d['text']}"
    if t == "CardMisdrawn":
        return (f"  {state.edition.decks[d['deck']].title} {d['number']} turned by mistake "
                f"({d['text']}): shown, then under its deck without effect")
    if t == "DeckShuffled":
        return f"  {state.edition.decks[d['deck']].title} shuffled: its order is unknown again"
    if t == "CardChoiceRequired":
        return (f"  choose: `card {d['deck']} {d['number']} pay` or "
                f"`card {d['deck']} {d['number']} draw`")
    if t == "CardThrowRequired":
        return (f"  {d['owner']} owns {_name(state, d['property'])}: {d['player']} throws the "
                f"dice again and owes {d['multiplier']} x the throw: `roll D1 D2`")
    if t == "CardDiceThrown":
        return f"{d['player']} throws {'+'.join(map(str, d['dice']))} = {sum(d['dice'])} for the rent"
    if t == "JailCardKept":
        return f"  {d['player']} keeps the get-out-of-jail card"
    if t == "JailCardUsed":
        return f"  {d['player']} uses a get-out-of-jail card; it goes back under its deck"
    if t == "SentToJail":
        return f"  {d['player']} goes to jail: {d['reason']}"
    if t == "JailRollFailed":
        return f"  no doubles: {d['player']} stays in jail (try {d['attempt']})"
    if t == "LeftJail":
        return f"  {d['player']} leaves jail ({d['how']})"
    if t == "DebtIncurred":
        creditor = "the Bank" if d["creditor"] == BANK else d["creditor"]
        return (f"  {d['debtor']} cannot pay {d['amount']} {cur} to {creditor} ({d['reason']}): "
                f"in debt until `pay`")
    if t == "JailExitDue":
        return (f"  {d['player']} failed the last try: `use-card` or `pay-fine` ({d['fine']} "
                f"{cur}), then moves {d['spaces']}")
    if t == "ExtraRollDue":
        return f"{d['player']} rolls again (doubles)"
    if t == "TurnEnded":
        return f"{d['next']} to roll"
    if t == "EventRetracted":
        return f"undone: events {', '.join(map(str, d['seqs']))} ({d['reason']})"
    if t == "TradeCompleted":
        def side(g):
            parts = [_name(state, p) for p in g["properties"]]
            if g["cash"]:
                parts.append(f"{g['cash']} {cur}")
            if g["jail_cards"]:
                parts.append(f"{len(g['jail_cards'])} jail card(s)")
            return ", ".join(parts) or "nothing"
        return f"  trade: {d['a']} gives {side(d['a_gives'])}; {d['b']} gives {side(d['b_gives'])}"
    if t == "HotelsBrokenUp":
        return "\n".join(f"  the Bank pays {x['amount']} {cur} to {x['payee']}: {x['reason']}"
                         for x in d["transfers"])
    if t == "AuctionVoided":
        return f"  auction cancelled: {d['reason']}"
    if t == "BuildingAuctionOpened":
        return (f"  auction for a {d['kind']}: bids from {d['min_bid']} {cur}, "
                f"`bid PLAYER AMOUNT`, then `hammer [PROPERTY]`")
    if t == "BankruptcyDeclared":
        creditor = "the Bank" if d["creditor"] == BANK else d["creditor"]
        return f"{d['player']} is bankrupt to {creditor} ({d['reason']})"
    if t == "DebtCancelled":
        return f"  {d['debtor']}'s debt to {d['creditor']} is cancelled ({d['reason']})"
    if t == "GameEnded":
        result = f"{d['winner']} wins" if d["winner"] else "a tie"
        return f"game over: {result} ({d['reason']})"
    if t == "TimeRanOut":
        return f"time is up at {d['at']}: {d['reason']} ({d['rule']})"
    if t == "RentClaimDeferred":
        return (f"  {d['owner']} claims {d['amount']} {cur} from {d['payer']} "
                f"({_name(state, d['property'])}) while the dice are on the table: paid when "
                f"{d['settles_after']}'s turn is over ({d['rule']})")
    if t == "BuildingsReturned":
        return f"  {d['reason']}"
    if t in REFEREE_WORDS:
        return REFEREE_WORDS[t](d, state)
    if t == "CommandRecorded":
        return f"> {d['line']}" if d["line"] else None
    if t == "GameStarted":
        return (f"new game: {', '.join(d['players'])}; rules {d['rules']['name']}, edition "
                f"{d['edition']}; {d['first_player']} rolls first")
    return None


def _who(account: str) -> str:
    return "the Bank" if account == BANK else account


# A referee's facts (ledger/referee.py), in the words of `log`, `replay` and the report.
REFEREE_WORDS = {
    "RulingRecorded": lambda d, st: (f"ruling on event {d['subject_seq']} ({d['kind']}) by "
                                     f"referee {d['referee']}: {d['verdict']}"),
    "CashCorrected": lambda d, st: (f"  correction: {_who(d['payer'])} pays {d['amount']} "
                                    f"{st.edition.currency} to {_who(d['payee'])} "
                                    f"({d['reason']})"),
    "PositionCorrected": lambda d, st: (
        f"  correction: {d['player']} moved from {_name(st, d['from'])} to "
        f"{_name(st, d['to'])}{' and out of jail' if d['left_jail'] else ''} ({d['reason']})"),
    "OwnerCorrected": lambda d, st: (
        f"  correction: {_name(st, d['property'])} passes from {_who(d['from'])} to "
        f"{_who(d['to'])}{', mortgaged' if d['mortgaged'] else ''} ({d['reason']})"),
    "SealRecorded": lambda d, st: (f"sealed by referee {d['referee']}: event {d['seq']}, head "
                                   f"{d['head'][:12]}... (key {d['fingerprint']})"),
}


_FACES = {"bus": "the Bus", "mr": "Mr Monopoly"}


def _either(options: list[str]) -> str:
    return options[0] if len(options) == 1 else f"{', '.join(options[:-1])} or {options[-1]}"


def _speedy_roll(d: dict, dice: str, extra: str) -> str:
    """`Anna rolls 3+4, Speedy 1 = 8`; a Speedy die that does not count says why."""
    face = d["speedy"]
    shown = _FACES.get(face, face)
    total = sum(d["dice"])
    if "speedy_ignored" in d:
        return (f"{d['player']} rolls {dice} = {total}{extra}; the Speedy die ({shown}) does "
                f"not count: {d['speedy_ignored']}")
    if face.isdigit():
        if d["dice"][0] == d["dice"][1] == int(face):
            return f"{d['player']} rolls {dice}, Speedy die {face}: a triple"
        return f"{d['player']} rolls {dice}, Speedy die {face} = {total + int(face)}{extra}"
    return f"{d['player']} rolls {dice} = {total}, Speedy die: {shown}{extra}"


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
    cur = state.edition.currency
    if t == "RentClaimLapsed":  # closed by a debt
        return (f"{d['owner']}'s claim on {d['payer']} ({d['amount']} {cur}, "
                f"{_name(state, d['property'])}) became a debt: {d['payer']} could not pay it "
                f"in cash")
    if t == "AuctionClosed":
        what = _name(state, d["property"]) if d["property"] is not None else "the building"
        return f"auction closed ({what}): {d['outcome']}, {d['reason']}"
    if t == "SpeedyMoveChosen":
        return f"{d['player']} moves {d['spaces']} to {_name(state, d['to'])}: {d['reason']}"
    return None


def local_time(recorded_at: str) -> str:
    """`2026-11-30T06:12:03.000000Z` as the table's clock reads it: local time with its UTC
    offset (`2026-11-30 07:12:03+01:00`); the TZ environment variable is honoured."""
    from datetime import datetime

    moment = datetime.fromisoformat(recorded_at.replace("Z", "+00:00"))
    return moment.astimezone().isoformat(sep=" ", timespec="seconds")


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
    for *_, name in sorted(found, key=lambda f: f[:2]):  # the event's own fields first
        if name not in out:
            out.append(name)
    return out


def amount_of(event: dict) -> int | None:
    """The figure an event is about: its amount, or the total of its transfers."""
    from ledger.events import transfers_of

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
            return f"{value} ({_name(state, value)})"
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


def _marks(state: State, pos: int) -> str:
    level = state.buildings[pos]
    mark = " (M)" if pos in state.mortgaged else ""
    if level == 5:
        mark += " [hotel]"
    elif level:
        mark += f" [{level}h]"
    return mark


def _turn_document(state: State) -> dict:
    """`turn`: player, phase, doubles; under a rule set with the Speedy die also `speedy`
    (the face that counts for the roll, or null) and `choices` (the Bus's moves in phase
    `move`, else empty)."""
    t = state.turn
    doc = {"player": t.player, "phase": t.phase, "doubles": t.doubles}
    if state.rules.speedy_die:
        doc["speedy"] = t.speedy
        from ledger.speedy import choices_of

        doc["choices"] = choices_of(t)
    return doc


def _player_document(state: State, p) -> dict:
    """A player; under a rule set with the Speedy die also `passed_go` (he throws it)."""
    doc = {"name": p.name, "cash": p.cash, "position": p.position, "in_jail": p.in_jail,
           "jail_turns": p.jail_turns, "jail_cards": len(p.jail_cards), "bankrupt": p.bankrupt}
    if state.rules.speedy_die:
        doc["passed_go"] = p.passed_go
    return doc


def state_document(state: State) -> dict:
    """`banco state --json`: the stable document described in README."""
    space = state.edition.space
    auction = None
    if state.auction:
        a = state.auction
        auction = {"property": space(a.property).name if a.property is not None else None,
                   "kind": a.kind, "min_bid": a.min_bid, "step": a.step,
                   "high_bidder": a.high_bidder, "high_bid": a.high_bid,
                   "queue": [space(p).name for p in state.auction_queue]}
    from ledger.decks import deck_views
    from ledger.state import dealing_left
    from ledger.worth import raisable

    debt = [{"debtor": d.debtor, "creditor": d.creditor, "amount": d.amount, "reason": d.reason,
             "can_raise": raisable(state, d.debtor)} for d in state.debts]
    return {
        "game": state.game_id,
        "seq": state.seq,
        "rules": state.rules.name,
        "edition": state.edition.name,
        "turn": _turn_document(state),
        "players": [_player_document(state, p) for p in state.players],
        "properties": [{"name": s.name, "position": s.position, "owner": state.owners[s.position],
                        "houses": state.buildings[s.position] % 5,
                        "hotel": state.buildings[s.position] == 5,
                        "mortgaged": s.position in state.mortgaged}
                       for s in state.edition.properties],
        "bank": {"houses": state.bank_houses, "hotels": state.bank_hotels},
        "pending": {
            "rent": [{"payer": cl.payer, "owner": cl.owner, "property": space(cl.property).name,
                      "amount": cl.amount, "closes_when": f"{cl.closer} rolls",
                      # claimed while the dice were on the table: paid after that turn (000 FAQ 8)
                      "paid_after_turn_of": cl.settle_after or None}
                     for cl in state.claims],
            # deeds still to deal before the first roll (002, 004 short and timed)
            "deal": [{"player": n, "deeds": k} for n, k in dealing_left(state)],
            "auction": auction,
            "debt": debt[0] if debt else None,
            "debts": debt,
        },
        "decks": deck_views(state),
        "ended": state.ended,
        "winner": state.winner,
        # the agreed time ran out (000 FAQ 6, 002, 004 timed): when, and whether the game ends
        # at once or after the turn in progress; null while the game runs on
        "time_up": ({"at": state.time_up[0], "ends": state.time_up[1]} if state.time_up
                    else None),
        "final": state.final,
    }


WIDTH = 88  # deed lines wrap here: an 80-column terminal stays readable


def deed_groups(state: State, name: str) -> list[str]:
    """A player's deeds by colour group, in board order, each with the group's completeness:
    `marrone 2/2: Vicolo Corto [1h], Vicolo Stretto [2h]`, `stazioni 1/4: Stazione Sud`."""
    import textwrap

    lines = []
    for group, lots in state.edition.groups.items():
        mine = [pos for pos in lots if state.owners[pos] == name]
        if not mine:
            continue
        head = f"{group} {len(mine)}/{len(lots)}: "
        body = ", ".join(_name(state, pos) + _marks(state, pos) for pos in mine)
        lines.extend(textwrap.wrap(head + body, WIDTH - 4, subsequent_indent=" " * len(head),
                                   break_long_words=False, break_on_hyphens=False))
    return lines


def _where(state: State, p) -> str:
    if p.bankrupt:
        return "bankrupt"
    if p.in_jail:
        return f"IN JAIL (tries {p.jail_turns})"
    return state.edition.space(p.position).name


def state_text(state: State) -> str:
    doc = state_document(state)
    cur = state.edition.currency
    lines = [f"game {doc['game']} at event {doc['seq']} - rules {doc['rules']}, "
             f"edition {doc['edition']}"]
    if state.ended:
        lines.append(f"game over: {state.winner} wins" if state.winner else "game over: a tie")
    else:
        lines.append(f"turn: {doc['turn']['player']} ({doc['turn']['phase']}"
                     + (f", {doc['turn']['doubles']} doubles" if doc['turn']['doubles'] else "")
                     + ")")
    lines.append("")
    lines.append(f"{'player':<12}{'cash':>8}  where")
    for p in state.players:
        flags = ""
        if p.jail_cards:
            n = len(p.jail_cards)
            flags = f"+{n} get-out-of-jail card{'s' if n > 1 else ''}"
        lines.append(f"{p.name:<12}{p.cash:>8}  {_where(state, p):<24}{flags}".rstrip())
        lines.extend("    " + g for g in deed_groups(state, p.name))
    pend = doc["pending"]
    if pend["rent"] or pend["auction"] or pend["debts"]:
        lines.append("")
    for r in pend["rent"]:
        if r["paid_after_turn_of"]:
            lines.append(f"claimed: {r['owner']} is paid {r['amount']} {cur} by {r['payer']} "
                         f"({r['property']}) when {r['paid_after_turn_of']}'s turn is over")
            continue
        lines.append(f"open claim: {r['owner']} may claim {r['amount']} {cur} from {r['payer']} "
                     f"({r['property']}) until {r['closes_when']}")
    if pend["auction"]:
        a = pend["auction"]
        lead = f"{a['high_bidder']} leads at {a['high_bid']}" if a["high_bidder"] else "no bid yet"
        lines.append(f"auction: {a['property'] or 'a ' + a['kind']} ({lead})"
                     + (f"; then {', '.join(a['queue'])}" if a["queue"] else ""))
    for d in pend["debts"]:
        lines.append(f"debt: {d['debtor']} owes {d['amount']} {cur} to {d['creditor']} "
                     f"({d['reason']}); can raise {d['can_raise']}")
    lines.append("")
    lines.append(f"bank: {doc['bank']['houses']} houses, {doc['bank']['hotels']} hotels")
    for d in doc["decks"].values():
        if d["next"]:
            lines.append(f"{d['title']}: next card {d['next']} ({d['next_text']})")
        else:
            lines.append(f"{d['title']}: next card unseen, one of {len(d['unseen'])}")
    return "\n".join(lines)


def seq_ranges(seqs) -> str:
    """`25, 26, 27, 30` -> `25-27, 30`."""
    seqs = sorted(seqs)
    out: list[str] = []
    for s in seqs:
        if out and s == int(out[-1].split("-")[-1]) + 1:
            out[-1] = f"{out[-1].split('-')[0]}-{s}"
        else:
            out.append(str(s))
    return ", ".join(out)


def _few(names: list[str], shown: int = 4) -> str:
    more = len(names) - shown
    return ", ".join(names[:shown]) + (f" and {more} more" if more > 0 else "")


def moment_notes(events: list[dict], at: int) -> tuple[list[str], int | None]:
    """What a referee must know about the table as it was after event `at`: which of the
    events it includes a later undo took back, and whether `at` falls inside a command (then
    the table is half-way through that command).  Returns the notes and, when `at` is inside
    a command, the seq of that command's last event (else None)."""
    notes = []
    for e in events[at:]:
        if e["type"] == "EventRetracted":
            taken = [s for s in e["data"]["seqs"] if s <= at]
            if taken:
                notes.append(f"note: event{'s' if len(taken) > 1 else ''} {seq_ranges(taken)} "
                             f"in this table {'were' if len(taken) > 1 else 'was'} taken back "
                             f"later, by the undo at event {e['seq']}")
    end = None
    if at < len(events) and events[at]["command_id"] == events[at - 1]["command_id"]:
        cid = events[at - 1]["command_id"]
        batch = [e for e in events if e["command_id"] == cid]
        first, last = batch[0]["seq"], batch[-1]["seq"]
        done = _few([e["type"] for e in batch if e["seq"] <= at])
        rest = _few([e["type"] for e in batch if e["seq"] > at])
        notes.append(f"note: event {at} is inside a command (events {first}-{last}): the table "
                     f"is half-way, after {done} and before {rest}")
        end = last
    return notes, end


def space_amount(space, rules) -> int | None:
    """The money a non-deed space moves, from the edition (taxes) or the rule set (the salary
    on Via!, the fine to leave jail); None where no fixed amount applies."""
    if space.kind == "tax":
        return space.amount
    if space.kind == "go":
        return rules.go_salary
    if space.kind == "jail":
        return rules.jail_fine
    return None


def board_document(edition, rules) -> list[dict]:
    """`banco board --json`: the 40 spaces.  `amount` was added after the first release: a
    tax's amount, the salary on Via!, the jail fine; null elsewhere."""
    return [{"position": s.position, "name": s.name, "kind": s.kind, "group": s.group,
             "price": s.price, "mortgage": s.mortgage, "house_cost": s.house_cost,
             "rents": list(s.rents), "amount": space_amount(s, rules)} for s in edition.spaces]


def board_text(edition, rules) -> str:
    cur = edition.currency
    lines = [f"{'pos':>3}  {'space':<24}{'kind':<10}details"]
    for s in board_document(edition, rules):
        if s["price"]:
            rents = s["rents"]
            if s["kind"] == "utility":  # multipliers of the dice, by utilities owned
                rents = " or ".join(f"{r}x dice" for r in s["rents"])
            extra = f"price {s['price']:>3}  mortgage {s['mortgage']:>3}  rents {rents}"
            if s["house_cost"]:
                extra += f"  house {s['house_cost']}"
        elif s["kind"] == "tax":
            extra = f"pay {s['amount']} {cur} to the Bank"
        elif s["kind"] == "go":
            extra = f"salary {s['amount']} {cur} on passing or landing"
        elif s["kind"] == "jail":
            extra = f"fine {s['amount']} {cur} to leave before rolling"
        elif s["kind"] == "go_to_jail":
            extra = f"straight to {edition.space(edition.jail_position).name}"
        elif s["kind"] == "card":
            deck = edition.space(s["position"]).deck
            extra = f"draw from {edition.decks[deck].title}" if deck in edition.decks else ""
        else:
            extra = ""
        lines.append(f"{s['position']:>3}  {s['name']:<24}{s['kind']:<10}{extra}".rstrip())
    lines.append(f"amounts in {cur}; salary and fine from the rule set {rules.name}")
    return "\n".join(lines)


def cards_document(edition, deck: str | None) -> list[dict]:
    decks = [edition.decks[deck]] if deck else list(edition.decks.values())
    return [{"deck": d.name, "number": card.number, "text": card.text, "effect": dict(card.effect)}
            for d in decks for card in d.cards]
