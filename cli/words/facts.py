"""A fact in words: a line per fact as the banker reads it (`narrate`, `describe`), its
players, amount and fields, and the notes on a moment of the game (what a later undo took back).

Lines are said in the user's language (cli/words/i18n.py) from each fact's fields; a fact's English
`reason` is said through cli/words/reasons.py.  Amounts are printed as the edition prints them."""

from __future__ import annotations

from banco.cli.words.i18n import N_, _, ngettext, pgettext, say
from banco.cli.words.reasons import JAIL_WAYS, local_time, say_basis, say_reason
from banco.ledger.base.numbers import ranges
from banco.ledger.table.state import BANK, State, must_go_bankrupt, next_step


def space_name(state: State, pos: int) -> str:
    """The name of the space at `pos` on the game's board."""
    return state.edition.space(pos).name


def bank_or(account: str) -> str:
    """An account as said: a player's name, or the Bank in the user's language."""
    return _("the Bank") if account == BANK else account


# Events whose line is `PAYER pays AMOUNT to PAYEE: REASON`.
TRANSFERS = ("SalaryPaid", "TaxPaid", "FinePaid", "CardPayment", "PropertyBought", "AuctionWon",
             "RentPaid", "DebtPaid", "CashIssued", "HouseBuilt", "HotelBuilt", "BuildingSold",
             "BuildingsSold", "BuildingsBuilt",
             "PropertyMortgaged", "MortgageLifted", "MortgageInterestPaid", "EstateTransferred",
             "DeedsDealt", "MortgageReverted", "DebtPaidByBank", "DebtPaidInKind")


_TRANSFER_TYPES = frozenset(TRANSFERS)  # a set to look in, for every event said


def _transfer(d: dict, state: State) -> str:
    money = state.edition.money
    reason = say_reason(d["reason"])
    if d["payer"] == BANK:
        return _("  the Bank pays {amount} to {payee}: {reason}").format(
            amount=money(d["amount"]), payee=bank_or(d["payee"]), reason=reason)
    if d["payee"] == BANK:
        return _("  {payer} pays {amount} to the Bank: {reason}").format(
            payer=d["payer"], amount=money(d["amount"]), reason=reason)
    return _("  {payer} pays {amount} to {payee}: {reason}").format(
        payer=d["payer"], amount=money(d["amount"]), payee=d["payee"], reason=reason)


def narrate(event: dict, state: State) -> str | None:
    """One line for an event, or None for bookkeeping the banker need not read."""
    t, d = event["type"], event["data"]
    if t == "TurnEnded":  # the commonest facts first: no other branch says these
        return _("{player} to roll").format(player=d["next"])
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
                player=d["player"], space=space_name(state, d["to"]), position=d["to"])
        return _("  {player} moves to {space} ({position})").format(
            player=d["player"], space=space_name(state, d["to"]), position=d["to"])
    if t in _TRANSFER_TYPES:
        return _transfer(d, state)
    if t == "PurchaseOffered":
        return _("  {space} is for sale at {price}: `buy` or `decline`").format(
            space=space_name(state, d["property"]), price=money(d["price"]))
    if t == "PropertyDeclined":
        return _("  {player} declines {space}").format(player=d["player"],
                                                      space=space_name(state, d["property"]))
    if t == "AuctionOpened":
        return _("  auction for {space}: bids from {amount}, `bid PLAYER AMOUNT`, then "
                 "`hammer`").format(space=space_name(state, d["property"]),
                                    amount=money(d["min_bid"]))
    if t == "BidPlaced":
        return _("  {player} bids {amount}").format(player=d["player"],
                                                   amount=money(d["amount"]))
    if t == "AuctionClosed":
        if d["outcome"] != "no bid":
            return None
        what = space_name(state, d["property"]) if d["property"] is not None else _("the building")
        return _("  no bid for {what}: {reason}").format(what=what,
                                                        reason=say_reason(d["reason"]))
    if t == "RentClaimOpened":
        return _("  {owner} may claim {amount} rent on {space} ({basis}) until {closer} rolls: "
                 "`claim {owner}`").format(owner=d["owner"], amount=money(d["amount"]),
                                           space=space_name(state, d["property"]),
                                           basis=say_basis(d["basis"]), closer=d["closer"])
    if t == "RentClaimLapsed":
        claim = _("{owner}'s claim on {payer} ({amount}, {space})").format(
            owner=d["owner"], payer=d["payer"], amount=money(d["amount"]),
            space=space_name(state, d["property"]))
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
            space=space_name(state, d["property"]), landed=d.get("landed_seq", d["opened_seq"]),
            lapsed=d["lapsed_seq"])
    if t == "RentNotDue":
        return _("  no rent on {space}: {reason}").format(space=space_name(state, d["property"]),
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
    if t == "CardChoiceRequired":  # the card's text first: the banker reads out the choice
        deck = state.edition.decks[d["deck"]]
        text = deck.cards[d["number"] - 1].text  # numbered from 1, as every reader takes it
        return _("  {title} {number}: {text}; choose: `card {deck} {number} pay` or `card "
                 "{deck} {number} draw`").format(title=deck.title, text=text, deck=d["deck"],
                                                 number=d["number"])
    if t == "CardThrowRequired":
        return _("  {owner} owns {space}: {player} throws the dice again and owes {multiplier} x "
                 "the throw: `roll D1 D2`").format(owner=d["owner"],
                                                   space=space_name(state, d["property"]),
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
                                 creditor=bank_or(d["creditor"]),
                                 reason=say_reason(d["reason"]))
    if t == "JailExitDue":
        # the same words with a card in hand or a debt for the fine: `log` says this fact
        # with the table as it is now, not as it was then
        return _("  {player} failed the last try: first the fine ({fine}) or a "
                 "get-out-of-jail card, then the move of {spaces}").format(player=d["player"], fine=money(d["fine"]),
                                    spaces=d["spaces"])
    if t == "ExtraRollDue":
        if must_go_bankrupt(state, d["player"]):  # out of the game before the roll he earned
            return _("next: {step}").format(step=say(next_step(state)))
        return _("{player} rolls again (doubles)").format(player=d["player"])
    if t == "EventRetracted":
        return ngettext("undone: event {seqs} ({reason})", "undone: events {seqs} ({reason})",
                        len(d["seqs"])).format(seqs=", ".join(map(str, d["seqs"])),
                                               reason=say_reason(d["reason"]))
    if t == "TradeCompleted":
        def side(g):
            parts = [space_name(state, p) for p in g["properties"]]
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
            player=d["player"], creditor=bank_or(d["creditor"]),
            reason=say_reason(d["reason"]))
    if t == "DebtCancelled":
        return _("  {debtor}'s debt to {creditor} is cancelled ({reason})").format(
            debtor=d["debtor"], creditor=bank_or(d["creditor"]),
            reason=say_reason(d["reason"]))
    if t == "GameEnded":
        result = (_("{player} wins").format(player=d["winner"]) if d["winner"]
                  else _("a tie"))
        return _("game over: {result} ({reason})").format(result=result,
                                                         reason=say_reason(d["reason"]))
    if t == "TimeRanOut":
        return _("time is up at {at}: {reason} ({rule})").format(
            at=local_time(d["at"]), reason=say_reason(d["reason"]), rule=d["rule"])
    if t == "RentClaimDeferred":
        return _("  {owner} claims {amount} from {payer} ({space}) while the dice are on the "
                 "table: paid when {player}'s turn is over ({rule})").format(
            owner=d["owner"], amount=money(d["amount"]), payer=d["payer"],
            space=space_name(state, d["property"]), player=d["settles_after"], rule=d["rule"])
    if t == "BuildingsReturned":
        return f"  {say_reason(d['reason'])}"
    if t in REFEREE_WORDS:
        return REFEREE_WORDS[t](d, state)
    if t == "CommandRecorded":
        return f"> {d['line']}" if d["line"] else None
    if t == "GameStarted":
        return _("new game: {players}; rules {rules}, edition {edition}; {first} rolls "
                 "first").format(players=", ".join(d["players"]),
                                 rules=pgettext("rule set", d["rules"]["name"]),
                                 edition=d["edition"], first=d["first_player"])
    return None


# The kinds of building.
BUILDINGS = {"house": N_("house"), "hotel": N_("hotel")}


def _who(account: str) -> str:
    return bank_or(account)


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
        player=d["player"], origin=space_name(st, d["from"]), target=space_name(st, d["to"]),
        jail=_(" and out of jail") if d["left_jail"] else "", reason=say_reason(d["reason"])),
    "OwnerCorrected": lambda d, st: _("  correction: {space} passes from {origin} to "
                                      "{target}{mortgaged} ({reason})").format(
        space=space_name(st, d["property"]), origin=_who(d["from"]), target=_who(d["to"]),
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
            what=what, outcome=d["outcome"], reason=say_reason(d["reason"]))
    if t == "SpeedyMoveChosen":
        return _("{player} moves {spaces} to {space}: {reason}").format(
            player=d["player"], spaces=d["spaces"], space=space_name(state, d["to"]),
            reason=say_reason(d["reason"]))
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
