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
        return f"{d['player']} rolls {dice} = {sum(d['dice'])}{extra}"
    if t == "TokenMoved":
        return f"  {d['player']} moves to {_name(state, d['to'])} ({d['to']})"
    if t in ("SalaryPaid", "TaxPaid", "FinePaid", "CardPayment", "PropertyBought", "AuctionWon",
             "RentPaid", "DebtPaid", "CashIssued", "HouseBuilt", "HotelBuilt", "BuildingSold",
             "BuildingsSold", "BuildingsBuilt",
             "PropertyMortgaged", "MortgageLifted", "MortgageInterestPaid", "EstateTransferred"):
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
        if d["closed_by"] == "debt":
            return None
        return (f"  {d['owner']}'s claim on {d['payer']} ({d['amount']} {cur}, "
                f"{_name(state, d['property'])}) lapsed: {d['closed_by']} rolled")
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
        return f"game over: {d['winner']} wins ({d['reason']})"
    if t == "GameStarted":
        return (f"new game: {', '.join(d['players'])}; rules {d['rules']['name']}, edition "
                f"{d['edition']}; {d['first_player']} rolls first")
    return None


def _marks(state: State, pos: int) -> str:
    level = state.buildings[pos]
    mark = " (M)" if pos in state.mortgaged else ""
    if level == 5:
        mark += " [hotel]"
    elif level:
        mark += f" [{level}h]"
    return mark


def state_document(state: State) -> dict:
    """`banco state --json`: the stable document described in README."""
    space = state.edition.space
    t = state.turn
    auction = None
    if state.auction:
        a = state.auction
        auction = {"property": space(a.property).name if a.property is not None else None,
                   "kind": a.kind, "min_bid": a.min_bid, "step": a.step,
                   "high_bidder": a.high_bidder, "high_bid": a.high_bid,
                   "queue": [space(p).name for p in state.auction_queue]}
    from ledger.decks import deck_views
    from ledger.worth import raisable

    debt = [{"debtor": d.debtor, "creditor": d.creditor, "amount": d.amount, "reason": d.reason,
             "can_raise": raisable(state, d.debtor)} for d in state.debts]
    return {
        "game": state.game_id,
        "seq": state.seq,
        "rules": state.rules.name,
        "edition": state.edition.name,
        "turn": {"player": t.player, "phase": t.phase, "doubles": t.doubles},
        "players": [{"name": p.name, "cash": p.cash, "position": p.position,
                     "in_jail": p.in_jail, "jail_turns": p.jail_turns,
                     "jail_cards": len(p.jail_cards), "bankrupt": p.bankrupt}
                    for p in state.players],
        "properties": [{"name": s.name, "position": s.position, "owner": state.owners[s.position],
                        "houses": state.buildings[s.position] % 5,
                        "hotel": state.buildings[s.position] == 5,
                        "mortgaged": s.position in state.mortgaged}
                       for s in state.edition.properties],
        "bank": {"houses": state.bank_houses, "hotels": state.bank_hotels},
        "pending": {
            "rent": [{"payer": cl.payer, "owner": cl.owner, "property": space(cl.property).name,
                      "amount": cl.amount, "closes_when": f"{cl.closer} rolls"}
                     for cl in state.claims],
            "auction": auction,
            "debt": debt[0] if debt else None,
            "debts": debt,
        },
        "decks": deck_views(state),
        "ended": state.ended,
        "winner": state.winner,
    }


def state_text(state: State) -> str:
    doc = state_document(state)
    cur = state.edition.currency
    lines = [f"game {doc['game']} at event {doc['seq']} - rules {doc['rules']}, "
             f"edition {doc['edition']}"]
    if state.ended:
        lines.append(f"game over: {state.winner} wins")
    else:
        lines.append(f"turn: {doc['turn']['player']} ({doc['turn']['phase']}"
                     + (f", {doc['turn']['doubles']} doubles" if doc['turn']['doubles'] else "")
                     + ")")
    lines.append("")
    lines.append(f"{'player':<12}{'cash':>8}  {'where':<24}deeds")
    for p in state.players:
        deeds = [s.name + _marks(state, s.position)
                 for s in state.edition.properties if state.owners[s.position] == p.name]
        where = state.edition.space(p.position).name
        if p.in_jail:
            where = f"IN JAIL (tries {p.jail_turns})"
        if p.bankrupt:
            where = "bankrupt"
        flags = f" +{len(p.jail_cards)} jail card" if p.jail_cards else ""
        lines.append(f"{p.name:<12}{p.cash:>8}  {where:<24}{', '.join(deeds) or '-'}{flags}")
    pend = doc["pending"]
    if pend["rent"] or pend["auction"] or pend["debts"]:
        lines.append("")
    for r in pend["rent"]:
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


def board_document(edition) -> list[dict]:
    return [{"position": s.position, "name": s.name, "kind": s.kind, "group": s.group,
             "price": s.price, "mortgage": s.mortgage, "house_cost": s.house_cost,
             "rents": list(s.rents)} for s in edition.spaces]


def cards_document(edition, deck: str | None) -> list[dict]:
    decks = [edition.decks[deck]] if deck else list(edition.decks.values())
    return [{"deck": d.name, "number": card.number, "text": card.text, "effect": dict(card.effect)}
            for d in decks for card in d.cards]
