"""What the banker reads: a line per fact, the table, and the stable JSON documents.

Lines are said in the user's language (cli/words/i18n.py) from each fact's fields; a fact's English
`reason` is said through cli/words/reasons.py.  Amounts are printed as the edition prints them."""

from __future__ import annotations

from cli.words.i18n import N_, NN_, NP_, _, ngettext, pgettext
from cli.words.reasons import say_reason
from ledger.table.state import BANK, State


def _name(state: State, pos: int) -> str:
    return state.edition.space(pos).name


def _bank_or(account: str) -> str:
    return _("the Bank") if account == BANK else account


# Events whose line is `PAYER pays AMOUNT to PAYEE: REASON`.
TRANSFERS = ("SalaryPaid", "TaxPaid", "FinePaid", "CardPayment", "PropertyBought", "AuctionWon",
             "RentPaid", "DebtPaid", "CashIssued", "HouseBuilt", "HotelBuilt", "BuildingSold",
             "BuildingsSold", "BuildingsBuilt",
             "PropertyMortgaged", "MortgageLifted", "MortgageInterestPaid", "EstateTransferred",
             "DeedsDealt", "MortgageReverted", "DebtPaidByBank", "DebtPaidInKind")


def _transfer(d: dict, state: State) -> str:
    money = state.edition.money
    reason = say_reason(d["reason"])
    if d["payer"] == BANK:
        return _("  the Bank pays {amount} to {payee}: {reason}").format(
            amount=money(d["amount"]), payee=_bank_or(d["payee"]), reason=reason)
    if d["payee"] == BANK:
        return _("  {payer} pays {amount} to the Bank: {reason}").format(
            payer=d["payer"], amount=money(d["amount"]), reason=reason)
    return _("  {payer} pays {amount} to {payee}: {reason}").format(
        payer=d["payer"], amount=money(d["amount"]), payee=d["payee"], reason=reason)


def narrate(event: dict, state: State) -> str | None:
    """One line for an event, or None for bookkeeping the banker need not read."""
    t, d = event["type"], event["data"]
    money = state.edition.money
    if t == "DiceRolled":
        dice = "+".join(map(str, d["dice"]))
        extra = (_(" (doubles, {n} in a row)").format(n=d["in_row"]) if d["doubles"] and d["in_row"]
                 else (_(" (doubles)") if d["doubles"] else ""))
        if "speedy" in d:
            return _speedy_roll(d, dice, extra)
        return _("{player} rolls {dice} = {total}{extra}").format(
            player=d["player"], dice=dice, total=sum(d["dice"]), extra=extra)
    if t == "SpeedyMoveDue":
        if d["move"] == "bus":
            ways = _either([f"`move {n}`" for n in d["choices"]])
            return _("  the Bus: {player} moves by one die or both: {ways}").format(
                player=d["player"], ways=ways)
        if d["move"] == "triple":
            return _("  a triple: {player} goes to any space: `go SPACE`").format(
                player=d["player"])
        return _("  Mr Monopoly: {player} moves on: `advance`").format(player=d["player"])
    if t == "SpeedyMoveChosen":
        # A Bus or a triple is said by the TokenMoved line after it; Mr Monopoly says why.
        return (_("  Mr Monopoly: {reason}").format(reason=say_reason(d["reason"]))
                if d["move"] == "mr_monopoly" else None)
    if t == "TokenMoved":
        if d["to"] == state.edition.jail_position:  # sent to jail is a fact of its own
            return _("  {player} moves to {space} ({position}), just visiting").format(
                player=d["player"], space=_name(state, d["to"]), position=d["to"])
        return _("  {player} moves to {space} ({position})").format(
            player=d["player"], space=_name(state, d["to"]), position=d["to"])
    if t in TRANSFERS:
        return _transfer(d, state)
    if t == "PurchaseOffered":
        return _("  {space} is for sale at {price}: `buy` or `decline`").format(
            space=_name(state, d["property"]), price=money(d["price"]))
    if t == "PropertyDeclined":
        return _("  {player} declines {space}").format(player=d["player"],
                                                      space=_name(state, d["property"]))
    if t == "AuctionOpened":
        return _("  auction for {space}: bids from {amount}, `bid PLAYER AMOUNT`, then "
                 "`hammer`").format(space=_name(state, d["property"]),
                                    amount=money(d["min_bid"]))
    if t == "BidPlaced":
        return _("  {player} bids {amount}").format(player=d["player"],
                                                   amount=money(d["amount"]))
    if t == "AuctionClosed":
        if d["outcome"] != "no bid":
            return None
        what = _name(state, d["property"]) if d["property"] is not None else _("the building")
        return _("  no bid for {what}: {reason}").format(what=what,
                                                        reason=say_reason(d["reason"]))
    if t == "RentClaimOpened":
        return _("  {owner} may claim {amount} rent on {space} ({basis}) until {closer} rolls: "
                 "`claim {owner}`").format(owner=d["owner"], amount=money(d["amount"]),
                                           space=_name(state, d["property"]),
                                           basis=say_basis(d["basis"]), closer=d["closer"])
    if t == "RentClaimLapsed":
        claim = _("{owner}'s claim on {payer} ({amount}, {space})").format(
            owner=d["owner"], payer=d["payer"], amount=money(d["amount"]),
            space=_name(state, d["property"]))
        if d["closed_by"] == "debt":
            return None  # the DebtIncurred line that follows says it
        if d["closed_by"] == "time":
            return f"  {claim} lapsed: not asked before the game ended (time is up)"
        if d["closed_by"] == "bankruptcy":
            return _("  {claim} closed: a bankruptcy ended it").format(claim=claim)
        return _("  {claim} lapsed: {player} rolled").format(claim=claim, player=d["closed_by"])
    if t == "RentClaimRefused":
        where = _(" as event {seq}").format(seq=event["seq"]) if "seq" in event else ""
        return _("  late claim recorded{where}: {owner} asked {payer} for {amount} ({space}); "
                 "landed at event {landed}, window closed at event {lapsed}").format(
            where=where, owner=d["owner"], payer=d["payer"], amount=money(d["amount"]),
            space=_name(state, d["property"]), landed=d.get("landed_seq", d["opened_seq"]),
            lapsed=d["lapsed_seq"])
    if t == "RentNotDue":
        return _("  no rent on {space}: {reason}").format(space=_name(state, d["property"]),
                                                         reason=say_reason(d["reason"]))
    if t == "CardDrawRequired":
        deck = state.edition.decks[d["deck"]]
        return _("  {player} draws from {deck}: `card {key} CARD`").format(
            player=d["player"], deck=deck.title, key=d["deck"])
    if t == "CardDrawn":
        return f"  {state.edition.decks[d['deck']].title} {d['number']}: {d['text']}"
    if t == "CardMisdrawn":
        return _("  {deck} {number} turned by mistake ({text}): shown, then under its deck "
                 "without effect").format(deck=state.edition.decks[d["deck"]].title,
                                          number=d["number"], text=d["text"])
    if t == "DeckShuffled":
        return _("  {deck} shuffled: its order is unknown again").format(
            deck=state.edition.decks[d["deck"]].title)
    if t == "CardChoiceRequired":
        return _("  choose: `card {deck} {number} pay` or `card {deck} {number} draw`").format(
            deck=d["deck"], number=d["number"])
    if t == "CardThrowRequired":
        return _("  {owner} owns {space}: {player} throws the dice again and owes {multiplier} x "
                 "the throw: `roll D1 D2`").format(owner=d["owner"],
                                                   space=_name(state, d["property"]),
                                                   player=d["player"],
                                                   multiplier=d["multiplier"])
    if t == "CardDiceThrown":
        return _("{player} throws {dice} = {total} for the rent").format(
            player=d["player"], dice="+".join(map(str, d["dice"])), total=sum(d["dice"]))
    if t == "JailCardKept":
        return _("  {player} keeps the get-out-of-jail card").format(player=d["player"])
    if t == "JailCardUsed":
        return _("  {player} uses a get-out-of-jail card; it goes back under its deck").format(
            player=d["player"])
    if t == "SentToJail":
        return _("  {player} goes to jail: {reason}").format(player=d["player"],
                                                            reason=say_reason(d["reason"]))
    if t == "JailRollFailed":
        if d["attempt"] >= state.rules.jail_max_attempts:  # the fine or a card comes next
            return _("  no doubles on the last try ({attempt}): {player} leaves jail "
                     "now").format(player=d["player"], attempt=d["attempt"])
        return _("  no doubles: {player} stays in jail (try {attempt})").format(
            player=d["player"], attempt=d["attempt"])
    if t == "LeftJail":
        return _("  {player} leaves jail ({how})").format(player=d["player"],
                                                         how=_(JAIL_WAYS.get(d["how"], d["how"])))
    if t == "DebtIncurred":
        return _("  {debtor} cannot pay {amount} to {creditor} ({reason}): in debt until "
                 "`pay`").format(debtor=d["debtor"], amount=money(d["amount"]),
                                 creditor=_bank_or(d["creditor"]),
                                 reason=say_reason(d["reason"]))
    if t == "JailExitDue":
        return _("  {player} failed the last try: `use-card` or `pay-fine` ({fine}), then moves "
                 "{spaces}").format(player=d["player"], fine=money(d["fine"]),
                                    spaces=d["spaces"])
    if t == "ExtraRollDue":
        return _("{player} rolls again (doubles)").format(player=d["player"])
    if t == "TurnEnded":
        return _("{player} to roll").format(player=d["next"])
    if t == "EventRetracted":
        return ngettext("undone: event {seqs} ({reason})", "undone: events {seqs} ({reason})",
                        len(d["seqs"])).format(seqs=", ".join(map(str, d["seqs"])),
                                               reason=say_reason(d["reason"]))
    if t == "TradeCompleted":
        def side(g):
            parts = [_name(state, p) for p in g["properties"]]
            if g["cash"]:
                parts.append(money(g["cash"]))
            if g["jail_cards"]:
                parts.append(ngettext("{n} jail card", "{n} jail cards",
                                      len(g["jail_cards"])).format(n=len(g["jail_cards"])))
            return ", ".join(parts) or _("nothing")
        return _("  trade: {a} gives {a_gives}; {b} gives {b_gives}").format(
            a=d["a"], a_gives=side(d["a_gives"]), b=d["b"], b_gives=side(d["b_gives"]))
    if t == "HotelsBrokenUp":
        return "\n".join(_("  the Bank pays {amount} to {payee}: {reason}").format(
            amount=money(x["amount"]), payee=x["payee"], reason=say_reason(x["reason"]))
            for x in d["transfers"])
    if t == "AuctionVoided":
        return _("  auction cancelled: {reason}").format(reason=say_reason(d["reason"]))
    if t == "BuildingAuctionOpened":
        return _("  auction for a {kind}: bids from {amount}, `bid PLAYER AMOUNT`, then "
                 "`hammer [PROPERTY]`").format(kind=_(BUILDINGS.get(d["kind"], d["kind"])),
                                               amount=money(d["min_bid"]))
    if t == "BankruptcyDeclared":
        return _("{player} is bankrupt to {creditor} ({reason})").format(
            player=d["player"], creditor=_bank_or(d["creditor"]),
            reason=say_reason(d["reason"]))
    if t == "DebtCancelled":
        return _("  {debtor}'s debt to {creditor} is cancelled ({reason})").format(
            debtor=d["debtor"], creditor=_bank_or(d["creditor"]),
            reason=say_reason(d["reason"]))
    if t == "GameEnded":
        result = (_("{player} wins").format(player=d["winner"]) if d["winner"]
                  else _("a tie"))
        return _("game over: {result} ({reason})").format(result=result,
                                                         reason=say_reason(d["reason"]))
    if t == "TimeRanOut":
        return _("time is up at {at}: {reason} ({rule})").format(
            at=d["at"], reason=say_reason(d["reason"]), rule=d["rule"])
    if t == "RentClaimDeferred":
        return _("  {owner} claims {amount} from {payer} ({space}) while the dice are on the "
                 "table: paid when {player}'s turn is over ({rule})").format(
            owner=d["owner"], amount=money(d["amount"]), payer=d["payer"],
            space=_name(state, d["property"]), player=d["settles_after"], rule=d["rule"])
    if t == "BuildingsReturned":
        return f"  {say_reason(d['reason'])}"
    if t in REFEREE_WORDS:
        return REFEREE_WORDS[t](d, state)
    if t == "CommandRecorded":
        return f"> {d['line']}" if d["line"] else None
    if t == "GameStarted":
        return _("new game: {players}; rules {rules}, edition {edition}; {first} rolls "
                 "first").format(players=", ".join(d["players"]), rules=d["rules"]["name"],
                                 edition=d["edition"], first=d["first_player"])
    return None


# How a player left jail (LeftJail's `how`), and the kinds of building.
JAIL_WAYS = {"doubles": N_("doubles"), "fine": N_("fine"), "card": N_("card"),
             "fine after the last try": N_("fine after the last try"),
             "card instead of the fine, after the last try":
                 N_("card instead of the fine, after the last try")}
BUILDINGS = {"house": N_("house"), "hotel": N_("hotel")}

# How a rent was worked out (RentClaimOpened's `basis`, written by decide's rent_for).
BASES = [N_("unbuilt lot"), N_("hotel"), N_("{n} house(s)"), N_("{n} station(s) owned: {rent}"),
         N_("{n} utility(ies) owned: {factor} x dice {dice}"),
         N_("complete group but a lot is mortgaged: no double rent (004)"),
         N_("complete group, unbuilt: double {rent}")]


# The bases the log writes with a count, "1 house(s)": said with the count's plural form
COUNTED_BASES = {
    "{n} house(s)": NN_("{n} house", "{n} houses"),
    "{n} station(s) owned: {rent}": NN_("{n} station owned: {rent}",
                                        "{n} stations owned: {rent}"),
    "{n} utility(ies) owned: {factor} x dice {dice}": NN_(
        "{n} utility owned: {factor} x dice {dice}", "{n} utilities owned: {factor} x dice {dice}"),
}


def say_basis(basis: str) -> str:
    from cli.words import reasons

    for template in BASES:
        import re

        parts = re.split(r"\{(\w+)\}", template)
        pattern = "".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>.+?)"
                          for i, p in enumerate(parts))
        m = re.fullmatch(pattern, basis)
        if m:
            fields = m.groupdict()
            if template in COUNTED_BASES and fields["n"].isdigit():
                return ngettext(*COUNTED_BASES[template], int(fields["n"])).format(**fields)
            return _(template).format(**fields)
    return reasons.say_reason(basis)


def _who(account: str) -> str:
    return _bank_or(account)


# A referee's facts (ledger/rules/referee.py), in the words of `log`, `replay` and the report.
REFEREE_WORDS = {
    "RulingRecorded": lambda d, st: _("ruling on event {seq} ({kind}) by referee {referee}: "
                                      "{verdict}").format(seq=d["subject_seq"], kind=d["kind"],
                                                          referee=d["referee"],
                                                          verdict=d["verdict"]),
    # "to the Bank" is its own sentence: Italian joins the preposition ("alla Banca")
    "CashCorrected": lambda d, st: (
        _("  correction: {payer} pays {amount} to the Bank ({reason})") if d["payee"] == BANK
        else _("  correction: {payer} pays {amount} to {payee} ({reason})")).format(
        payer=_who(d["payer"]), amount=st.edition.money(d["amount"]), payee=_who(d["payee"]),
        reason=say_reason(d["reason"])),
    "PositionCorrected": lambda d, st: _("  correction: {player} moved from {origin} to "
                                         "{target}{jail} ({reason})").format(
        player=d["player"], origin=_name(st, d["from"]), target=_name(st, d["to"]),
        jail=_(" and out of jail") if d["left_jail"] else "", reason=say_reason(d["reason"])),
    "OwnerCorrected": lambda d, st: _("  correction: {space} passes from {origin} to "
                                      "{target}{mortgaged} ({reason})").format(
        space=_name(st, d["property"]), origin=_who(d["from"]), target=_who(d["to"]),
        mortgaged=_(", mortgaged") if d["mortgaged"] else "", reason=say_reason(d["reason"])),
    "SealRecorded": lambda d, st: _("sealed by referee {referee}: event {seq}, head {head}... "
                                    "(key {fingerprint})").format(
        referee=d["referee"], seq=d["seq"], head=d["head"][:12], fingerprint=d["fingerprint"]),
}


_FACES = {"bus": N_("the Bus"), "mr": N_("Mr Monopoly")}


def _either(options: list[str]) -> str:
    if len(options) == 1:
        return options[0]
    return _("{some} or {last}").format(some=", ".join(options[:-1]), last=options[-1])


def _speedy_roll(d: dict, dice: str, extra: str) -> str:
    """`Anna rolls 3+4, Speedy 1 = 8`; a Speedy die that does not count says why."""
    face = d["speedy"]
    shown = _(_FACES[face]) if face in _FACES else face
    total = sum(d["dice"])
    player = d["player"]
    if "speedy_ignored" in d:
        return _("{player} rolls {dice} = {total}{extra}; the Speedy die ({face}) does not "
                 "count: {why}").format(player=player, dice=dice, total=total, extra=extra,
                                        face=shown, why=say_reason(d["speedy_ignored"]))
    if face.isdecimal():
        if d["dice"][0] == d["dice"][1] == int(face):
            return _("{player} rolls {dice}, Speedy die {face}: a triple").format(
                player=player, dice=dice, face=face)
        return _("{player} rolls {dice}, Speedy die {face} = {total}{extra}").format(
            player=player, dice=dice, face=face, total=total + int(face), extra=extra)
    return _("{player} rolls {dice} = {total}, Speedy die: {face}{extra}").format(
        player=player, dice=dice, total=total, face=shown, extra=extra)


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
                                              space=_name(state, d["property"]))
    if t == "AuctionClosed":
        what = _name(state, d["property"]) if d["property"] is not None else _("the building")
        return _("auction closed ({what}): {outcome}, {reason}").format(
            what=what, outcome=d["outcome"], reason=say_reason(d["reason"]))
    if t == "SpeedyMoveChosen":
        return _("{player} moves {spaces} to {space}: {reason}").format(
            player=d["player"], spaces=d["spaces"], space=_name(state, d["to"]),
            reason=say_reason(d["reason"]))
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
    for *_rest, name in sorted(found, key=lambda f: f[:2]):  # the event's own fields first
        if name not in out:
            out.append(name)
    return out


def amount_of(event: dict) -> int | None:
    """The figure an event is about: its amount, or the total of its transfers."""
    from ledger.records.events import transfers_of

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
    # short marks in the state's list of deeds, in the table's language ("[2h]" is English)
    mark = pgettext("deed mark", " (M)") if pos in state.mortgaged else ""
    if level == 5:
        mark += pgettext("deed mark", " [hotel]")
    elif level:
        mark += pgettext("deed mark", " [{n}h]").format(n=level)
    return mark


def _turn_document(state: State) -> dict:
    """`turn`: player, phase, doubles; under a rule set with the Speedy die also `speedy`
    (the face that counts for the roll, or null) and `choices` (the Bus's moves in phase
    `move`, else empty)."""
    t = state.turn
    doc = {"player": t.player, "phase": t.phase, "doubles": t.doubles}
    if state.rules.speedy_die:
        doc["speedy"] = t.speedy
        from ledger.table.speedy_die import choices_of

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
    from ledger.table.decks import deck_views
    from ledger.table.state import dealing_left
    from ledger.table.worth import raisable

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
        return _("bankrupt")
    if p.in_jail:
        return _("IN JAIL (tries {n})").format(n=p.jail_turns)
    return state.edition.space(p.position).name


PHASES = {"roll": N_("roll"), "buy": N_("buy"), "auction": N_("auction"), "card": N_("card"),
          "choice": N_("choice"), "over": N_("over"), "moving": N_("moving"),
          "throw": N_("throw"), "jail_exit": N_("jail exit"), "move": N_("move"),
          "go": N_("go"), "advance": N_("advance")}


def state_text(state: State) -> str:
    doc = state_document(state)
    money = state.edition.money
    lines = [_("game {game} at event {seq} - rules {rules}, edition {edition}").format(
        game=doc["game"], seq=doc["seq"], rules=doc["rules"], edition=doc["edition"])]
    if state.ended:
        lines.append(_("game over: {player} wins").format(player=state.winner) if state.winner
                     else _("game over: a tie"))
    else:
        turn = doc["turn"]
        phase = _(PHASES[turn["phase"]]) if turn["phase"] in PHASES else turn["phase"]
        lines.append(_("turn: {player} ({phase}{doubles})").format(
            player=turn["player"], phase=phase,
            doubles=(ngettext(", {n} double", ", {n} doubles", turn["doubles"]).format(
                n=turn["doubles"]) if turn["doubles"] else "")))
    lines.append("")
    cash_width = max([8, *(len(money(p.cash)) + 1 for p in state.players)])
    # as wide as the longest name (a wide character takes two columns), 12 at least
    name_width = max([12, *(cell_width(p.name) + 1 for p in state.players)])

    def name_cell(text: str) -> str:
        return text + " " * (name_width - cell_width(text))

    lines.append(f"{name_cell(_('player'))}{_('cash'):>{cash_width}}  {_('where')}")
    for p in state.players:
        flags = ""
        if p.jail_cards:
            n = len(p.jail_cards)
            flags = ngettext("+{n} get-out-of-jail card", "+{n} get-out-of-jail cards",
                             n).format(n=n)
        lines.append(f"{name_cell(p.name)}{money(p.cash):>{cash_width}}  "
                     f"{_where(state, p):<24}{flags}".rstrip())
        lines.extend("    " + g for g in deed_groups(state, p.name))
    pend = doc["pending"]
    if pend["rent"] or pend["auction"] or pend["debts"]:
        lines.append("")
    for r in pend["rent"]:
        if r["paid_after_turn_of"]:
            lines.append(_("claimed: {owner} is paid {amount} by {payer} ({space}) when "
                           "{player}'s turn is over").format(
                owner=r["owner"], amount=money(r["amount"]), payer=r["payer"],
                space=r["property"], player=r["paid_after_turn_of"]))
            continue
        lines.append(_("open claim: {owner} may claim {amount} from {payer} ({space}) until "
                       "{closer} rolls").format(owner=r["owner"], amount=money(r["amount"]),
                                                payer=r["payer"], space=r["property"],
                                                closer=r["closes_when"].removesuffix(" rolls")))
    if pend["auction"]:
        a = pend["auction"]
        lead = (_("{player} leads at {amount}").format(player=a["high_bidder"],
                                                       amount=money(a["high_bid"]))
                if a["high_bidder"] else _("no bid yet"))
        what = a["property"] or _("a {kind}").format(kind=_(BUILDINGS.get(a["kind"], a["kind"])))
        lines.append(_("auction: {what} ({lead})").format(what=what, lead=lead)
                     + (_("; then {deeds}").format(deeds=", ".join(a["queue"]))
                        if a["queue"] else ""))
    for d in pend["debts"]:
        lines.append(_("debt: {debtor} owes {amount} to {creditor} ({reason}); can raise "
                       "{can}").format(debtor=d["debtor"], amount=money(d["amount"]),
                                       creditor=_bank_or(d["creditor"]),
                                       reason=say_reason(d["reason"]),
                                       can=money(d["can_raise"])))
    lines.append("")
    lines.append(_("bank: {houses} houses, {hotels} hotels").format(
        houses=doc["bank"]["houses"], hotels=doc["bank"]["hotels"]))
    for d in doc["decks"].values():
        if d["next"]:
            lines.append(_("{deck}: next card {number} ({text})").format(
                deck=d["title"], number=d["next"], text=d["next_text"]))
        else:
            lines.append(_("{deck}: next card unseen, one of {n}").format(
                deck=d["title"], n=len(d["unseen"])))
    return "\n".join(lines)


def cell_width(text: str) -> int:
    """The columns a terminal gives `text`: two for a wide character (CJK, most emoji), none
    for a combining mark or a joiner, one for the rest."""
    import unicodedata

    return sum(0 if unicodedata.combining(ch) or unicodedata.category(ch) in ("Me", "Cf")
               else 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text)


def columns(rows: list[list[str]], align: str, gaps: list[int] | None = None) -> list[str]:
    """Rows of cells as lines, each column as wide as its widest cell (the heading included),
    so that a long name or a big amount keeps the table straight.  align: `<` or `>` a
    column; gaps: the spaces after each column but the last (2 each by default)."""
    widths = [max(cell_width(r[i]) for r in rows) for i in range(len(align))]
    gaps = gaps or [2] * (len(align) - 1)
    lines = []
    for r in rows:
        parts = []
        for i, (cell, side) in enumerate(zip(r, align, strict=True)):
            pad = " " * (widths[i] - cell_width(cell))
            parts.append((pad + cell if side == ">" else cell + pad)
                         + (" " * gaps[i] if i < len(gaps) else ""))
        lines.append("".join(parts).rstrip())
    return lines


def standings_text(rows: list[dict], status_of) -> list[str]:
    """`banco standings` as text: rank, player, status, net worth, cash, deeds, and the
    championship's score and points where the rule set keeps them.  status_of: a status as
    said in the user's language."""
    sheet = any(r["score"] is not None for r in rows)
    points = any(r["points"] is not None for r in rows)
    table = [["", _("player"), _("status"), _("net worth"), _("cash"), _("deeds")]
             + ([_("score")] if sheet else []) + ([_("points")] if points else [])]
    for r in rows:
        table.append([f"{r['rank']}.", r["name"], status_of(r["status"]), str(r["net_worth"]),
                      str(r["cash"]), str(r["deeds"])]
                     + ([str(r["score"])] if sheet else [])
                     + (["" if r["points"] is None else str(r["points"])] if points else []))
    align = "><<>>>" + ">" * (sheet + points)
    return columns(table, align, [1] + [2] * (len(align) - 2))


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
                    "event {undo}", len(taken)).format(seqs=seq_ranges(taken), undo=e["seq"]))
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


# A space's kind, in a context of its own: "go" the space is not "go" the command (gettext's
# pgettext: the same English word, two translations).
KINDS = {"street": NP_("space kind", "street"), "station": NP_("space kind", "station"),
         "utility": NP_("space kind", "utility"), "tax": NP_("space kind", "tax"),
         "go": NP_("space kind", "go"), "jail": NP_("space kind", "jail"),
         "go_to_jail": NP_("space kind", "go to jail"), "card": NP_("space kind", "card"),
         "parking": NP_("space kind", "parking")}


def board_text(edition, rules) -> str:
    cur = edition.currency
    money = edition.money
    spaces = board_document(edition, rules)
    kinds = {s["kind"]: pgettext(*KINDS[s["kind"]]) if s["kind"] in KINDS else s["kind"]
             for s in spaces}
    # as wide as the widest kind in the user's language, and a gap: "go to jail" ran into
    # its details ("go_to_jailstraight to Prigione")
    width = max(len(k) for k in [_("kind"), *kinds.values()]) + 2
    named = max(len(s["name"]) for s in spaces) + 2  # "Bastioni Gran Sasso (classico)"
    lines = [f"{_('pos'):>3}  {_('space'):<{named}}{_('kind'):<{width}}{_('details')}"]
    for s in spaces:
        if s["price"]:
            rents = s["rents"]
            if s["kind"] == "utility":  # multipliers of the dice, by utilities owned
                rents = _(" or ").join(_("{n}x dice").format(n=r) for r in s["rents"])
            extra = _("price {price:>3}  mortgage {mortgage:>3}  rents {rents}").format(
                price=s["price"], mortgage=s["mortgage"], rents=rents)
            if s["house_cost"]:
                extra += _("  house {cost}").format(cost=s["house_cost"])
        elif s["kind"] == "tax":
            extra = _("pay {amount} to the Bank").format(amount=money(s["amount"]))
        elif s["kind"] == "go":
            extra = _("salary {amount} on passing or landing").format(amount=money(s["amount"]))
        elif s["kind"] == "jail":
            extra = _("fine {amount} to leave before rolling").format(amount=money(s["amount"]))
        elif s["kind"] == "go_to_jail":
            extra = _("straight to {space}").format(
                space=edition.space(edition.jail_position).name)
        elif s["kind"] == "card":
            deck = edition.space(s["position"]).deck
            extra = (_("draw from {deck}").format(deck=edition.decks[deck].title)
                     if deck in edition.decks else "")
        else:
            extra = ""
        lines.append(f"{s['position']:>3}  {s['name']:<{named}}{kinds[s['kind']]:<{width}}"
                     f"{extra}".rstrip())
    lines.append(_("amounts in {currency}; salary and fine from the rule set {rules}").format(
        currency=cur, rules=rules.name))
    return "\n".join(lines)


def cards_document(edition, deck: str | None) -> list[dict]:
    decks = [edition.decks[deck]] if deck else list(edition.decks.values())
    return [{"deck": d.name, "number": card.number, "text": card.text, "effect": dict(card.effect)}
            for d in decks for card in d.cards]
