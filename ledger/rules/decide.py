"""`decide(state, command) -> events`: the rules that turn a banker's command into facts.

Pure: no I/O, no clock.  A refusal raises RuleViolation naming the rule (seed file and section)
and what would be allowed instead.  Every amount is worked out here, never in `evolve`.
"""

from __future__ import annotations

from collections.abc import Sequence

from ledger.base.errors import RuleViolation, UsageError
from ledger.base.numbers import check_dice
from ledger.base.text import Fact, Joined, Text, msg
from ledger.board.edition import Space
from ledger.board.rule_sets import cited
from ledger.records import commands as c
from ledger.rules import referee
from ledger.rules.dealing import check_dealt
from ledger.rules.decision import (
    R_DEBT,
    Tx,
    check_active,
    check_turn,
    money,
    need_phase,
    no_debts,
    pay,
)
from ledger.rules.ending import maybe_end, no_new_turn
from ledger.rules.speedy import (
    R_JAIL_ENDS,
    bus_choices,
    check_face,
    face_value,
    ignored_because,
    is_triple,
    throw_value,
)
from ledger.table.decks import describe_next, drawable, where_is
from ledger.table.state import (
    BANK,
    State,
    debt_step,
    hammer_step,
    next_step,
    richest_bidders,
    turn_in_progress,
)

R_BUY = "004 §Acquisto di proprietà"
R_AUCTION = "004 §Acquisto di proprietà; 003 §03"
R_RENT = "004 §Fermarsi nella proprietà di qualcun altro; 003 §04"
R_DOUBLES = "004 §Stesso numero di punti su entrambi i dadi; 003 §01"
R_JAIL = "004 §Prigione; 003 §08"
R_CARDS = "004 §Fermati ai campi Probabilità e Tesoro; 003 §09"
R_DECK = "003 §09; 000 §IMPREVISTI E PROBABILITA'"
R_UNPAID = "000 §COMPRARE I CONTRATTI"
R_NO_BID = "000 FAQ 22"
R_CAPITAL = "002 §Preparazione"


def decide(state: State, command: c.Command) -> list[dict]:
    return decide_tx(state, command).events


def decide_tx(state: State, command: c.Command) -> Tx:
    """`decide`, with its Tx: the events and the table after each (Tx.states)."""
    after_the_end = isinstance(command, referee.AFTER_THE_END)
    if state.ended and not after_the_end:
        result = msg("{player} wins", player=state.winner) if state.winner else msg("a tie")
        raise RuleViolation("the game is over ({result}); nothing more can be recorded",
                            rule=state.end_rule,
                            allowed=msg("banco state, banco standings, banco log, banco audit"),
                            result=result)
    if not after_the_end:  # a referee's correction may come at any time
        check_dealt(state, command)
    handler = _HANDLERS[type(command)]
    tx = Tx(state)
    handler(tx, command)
    maybe_end(tx)  # the time ran out and nothing is left to finish, or the last bankruptcy
    return tx


# --- rent -----------------------------------------------------------------------------------

def rent_for(state: State, position: int, dice_total: int) -> tuple[int, str]:
    """Rent due on a landing, with how it was worked out (for the referee's evidence)."""
    space = state.edition.space(position)
    owner = state.owners[position]
    assert space.group is not None  # rent is asked on deeds, and every deed is in a group
    group = state.edition.groups[space.group]
    owned = [p for p in group if state.owners[p] == owner]
    if space.kind == "station":
        n = len(owned)
        return space.rents[n - 1], f"{n} station(s) owned: {space.rents[n - 1]}"
    if space.kind == "utility":
        n = len(owned)
        factor = space.rents[n - 1]
        return factor * dice_total, f"{n} utility(ies) owned: {factor} x dice {dice_total}"
    built = state.buildings[position]
    if built == 5:
        return space.rents[5], "hotel"
    if built:
        return space.rents[built], f"{built} house(s)"
    base = space.rents[0]
    if len(owned) < len(group):
        return base, "unbuilt lot"
    mortgaged = [p for p in group if p in state.mortgaged]
    if mortgaged and not state.rules.double_rent_with_mortgage:
        return base, "complete group but a lot is mortgaged: no double rent (004)"
    return base * 2, f"complete group, unbuilt: double {base}"


def seat_after(state: State, name: str, n: int) -> str:
    """The player n seats after `name`, skipping the bankrupt."""
    seats = state.seats
    i = state.index[name]
    steps = 0
    while True:
        i = (i + 1) % len(seats)
        if not state.players[i].bankrupt:
            steps += 1
            if steps == n:
                return seats[i]


# --- moving and landing ---------------------------------------------------------------------

def _move(tx: Tx, player: str, to: int, spaces: int, cause: str, salary: bool) -> int:
    """Move a token; return the seq of its TokenMoved, the landing a rent claim points at.
    decide numbers its events from the table's seq + 1: a store that puts a fact of its own
    before them must decide on the table after that fact."""
    start = tx.state.player(player).position
    passed = salary and (start + spaces >= 40 if spaces > 0 else False)
    tx.emit("TokenMoved", player=player, **{"from": start}, to=to, spaces=spaces, cause=cause,
            passed_go=passed)
    landed = tx.state.seq
    if passed:
        reason = "landed on Via!" if to == 0 else "passed Via!"
        tx.emit("SalaryPaid", payer=BANK, payee=player, amount=tx.state.rules.go_salary,
                reason=reason)
    return landed


def _land(tx: Tx, player: str, landed: int, rent=None) -> None:
    """Do what the square says (004 §Svolgimento del gioco); `landed` is the seq of the
    TokenMoved that brought the player here, the evidence a rent claim points at.
    `rent(state, position) -> (amount, basis)` replaces the deed's rent when a card says
    otherwise (ledger/rules/card_effects.py)."""
    state = tx.state
    pos = state.player(player).position
    space: Space = state.edition.space(pos)
    if space.is_property:
        owner = state.owners[pos]
        if owner is None:
            tx.emit("PurchaseOffered", player=player, property=pos, price=space.price)
        elif owner != player:
            if pos in state.mortgaged:
                tx.emit("RentNotDue", payer=player, owner=owner, property=pos,
                        reason="the lot is mortgaged (004 §Impegno)")
                return
            amount, basis = (rent(state, pos) if rent else
                             rent_for(state, pos, throw_value(state.turn)))
            if state.rules.rent == "auto":
                pay(tx, "RentPaid", player, owner, amount, f"rent on {space.name}",
                     property=pos, opened_seq=0)
            else:
                closer = seat_after(state, player, state.rules.claim_window)
                tx.emit("RentClaimOpened", payer=player, owner=owner, property=pos,
                        amount=amount, basis=basis, closer=closer, landed_seq=landed)
    elif space.kind == "tax":
        assert space.amount is not None  # a tax square prints its amount
        pay(tx, "TaxPaid", player, BANK, space.amount, space.name)
    elif space.kind == "card":
        tx.emit("CardDrawRequired", player=player, deck=space.deck)
    elif space.kind == "go_to_jail":
        tx.emit("SentToJail", player=player, reason=f"landed on {space.name}")


def _continue(tx: Tx) -> None:
    """When nothing waits on the current player: another roll after doubles, or the next turn;
    or, when the time is up, the end of the game (000 FAQ 6)."""
    state = tx.state
    t = state.turn
    if t.phase in ("buy", "auction", "card", "choice", "throw", "jail_exit", "move", "go",
                   "advance"):
        return
    p = state.current
    if t.speedy == "mr" and not p.in_jail and not p.bankrupt:
        # The first square is done: Mr Monopoly's move comes next (000 §SVOLGIMENTO 3); in
        # jail it is lost (§SVOLGIMENTO 8).  The turn is not over until it is made.
        tx.emit("SpeedyMoveDue", player=p.name, move="mr_monopoly", choices=[])
        return
    turn_over(tx)
    if tx.state.ended:
        return
    state = tx.state
    p = state.current
    if not p.in_jail and t.extra_roll and not p.bankrupt:
        tx.emit("ExtraRollDue", player=p.name, in_row=t.doubles)
    else:
        tx.emit("TurnEnded", player=p.name, next=seat_after(state, p.name, 1))


def turn_over(tx: Tx) -> None:
    """The current turn is over: the claims made while it was in progress are paid now (000
    FAQ 8), and if the time is up, the game ends instead of passing the turn (000 FAQ 6)."""
    ending = tx.state.turn.player
    for cl in tx.state.claims:
        if cl.made_seq and cl.settle_after == ending:
            _settle(tx, cl)
    maybe_end(tx, turn_over=True)


def _settle(tx: Tx, cl) -> None:
    """Pay a claim, or turn it into the payer's debt when his cash is short (003 §10)."""
    space = tx.state.edition.space(cl.property).name
    paid = pay(tx, "RentPaid", cl.payer, cl.owner, cl.amount, f"rent on {space}",
               property=cl.property, opened_seq=cl.opened_seq)
    if not paid:  # the claim becomes the debt; it is no longer an open claim
        tx.emit("RentClaimLapsed", owner=cl.owner, payer=cl.payer, property=cl.property,
                amount=cl.amount, opened_seq=cl.opened_seq, closed_by="debt")


def rent_rule(state: State) -> str:
    return cited(state.rules, "rent", R_RENT)


def _lapse_claims(tx: Tx, roller: str) -> None:
    """The roll of the player N seats after the payer closes the payer's claims (003 §04);
    a claim already made waits only for its payment (000 FAQ 8)."""
    state = tx.state
    for claim in state.claims:
        if claim.made_seq:
            continue
        closer = claim.closer
        if state.player(closer).bankrupt:  # the closer went out: the next one in play
            closer = seat_after(state, claim.payer, state.rules.claim_window)
        if closer == roller:
            tx.emit("RentClaimLapsed", owner=claim.owner, payer=claim.payer,
                    property=claim.property, amount=claim.amount, opened_seq=claim.opened_seq,
                    closed_by=roller)


# --- the commands ---------------------------------------------------------------------------

# The words a refusal names its action by, made once: the commands an audit re-derives by
# the hundred thousand check them on every call, refused or not.
_ROLL = msg("roll")
_DRAW_A_CARD = msg("draw a card")
_CLAIM_RENT = msg("claim rent")


def _roll(tx: Tx, cmd: c.Roll) -> None:
    state = tx.state
    dice = tuple(cmd.dice)
    check_dice(dice)  # two dice, 1 to 6: a slip of the keyboard whatever the table waits for
    check_turn(state, cmd.player, _ROLL)
    if state.turn.phase == "throw":  # a card's fresh throw for a utility's rent
        from ledger.rules.card_effects import throw_for_rent

        return throw_for_rent(tx, cmd)
    need_phase(state, "roll", _ROLL)
    no_debts(state, _ROLL)
    no_new_turn(state)
    name = state.turn.player
    player = state.current
    check_face(state, player, cmd.speedy)
    # The Speedy die as thrown, and why it does not count when it does not (000 FAQ 34-35).
    speedy = {} if cmd.speedy is None else {"speedy": cmd.speedy}
    ignored = ignored_because(state, player, cmd.speedy)
    if ignored:
        speedy["speedy_ignored"] = ignored
    face = None if ignored else cmd.speedy
    doubles = dice[0] == dice[1]  # the numbered dice only (000 §SVOLGIMENTO 7)
    total = dice[0] + dice[1]
    _lapse_claims(tx, name)
    if player.in_jail:
        _roll_in_jail(tx, name, dice, doubles, total, speedy)
        return
    in_row = state.turn.doubles + 1 if doubles else 0
    if in_row >= state.rules.doubles_to_jail:
        # A triple after two doubles is the third double too (000 FAQ 36): jail, and no Bus
        # or Mr Monopoly after it (000 §SVOLGIMENTO 8).
        if face is not None:
            speedy["speedy_ignored"] = f"the third doubles send {name} to jail ({R_JAIL_ENDS})"
        tx.emit("DiceRolled", player=name, dice=list(dice), doubles=True, in_row=in_row,
                extra_roll=False, **speedy)
        tx.emit("SentToJail", player=name,
                reason=f"doubles {in_row} times in a row ({R_DOUBLES}); the token does not move")
        _continue(tx)
        return
    if is_triple(dice, face):
        # Any space, and the turn ends there: no second roll for the doubles (000 FAQ 36).
        tx.emit("DiceRolled", player=name, dice=list(dice), doubles=True, in_row=in_row,
                extra_roll=False, **speedy)
        tx.emit("SpeedyMoveDue", player=name, move="triple", choices=[])
        return
    tx.emit("DiceRolled", player=name, dice=list(dice), doubles=doubles, in_row=in_row,
            extra_roll=doubles, **speedy)
    if face == "bus":  # one die or both: the table waits for `move N` (000 FAQ 38)
        tx.emit("SpeedyMoveDue", player=name, move="bus", choices=bus_choices(dice))
        return
    total += face_value(face)  # 1 2 3 are added; Mr Monopoly moves by the dice first
    _land(tx, name, _move(tx, name, (player.position + total) % 40, total, "dice", salary=True))
    _continue(tx)


def _roll_in_jail(tx: Tx, name: str, dice, doubles: bool, total: int, speedy: dict) -> None:
    state = tx.state
    player = state.player(name)
    if doubles:
        # 004 §Prigione: doubles free the player, who moves by that roll; 000 FAQ 16 (004 and
        # 003 silent): he does not roll again.
        tx.emit("DiceRolled", player=name, dice=list(dice), doubles=True, in_row=0,
                extra_roll=False, **speedy)
        tx.emit("LeftJail", player=name, how="doubles")
    else:
        attempt = player.jail_turns + 1
        tx.emit("DiceRolled", player=name, dice=list(dice), doubles=False, in_row=0,
                extra_roll=False, **speedy)
        tx.emit("JailRollFailed", player=name, attempt=attempt)
        if attempt < state.rules.jail_max_attempts:
            _continue(tx)
            return
        if player.jail_cards:
            # 000 FAQ 17: a card may stand for the fine; the prisoner chooses, the table waits.
            tx.emit("JailExitDue", player=name, fine=state.rules.jail_fine, spaces=total)
            return
        # 003 §08: after the third failed try, pay the fine and move by that roll.
        pay(tx, "FinePaid", name, BANK, state.rules.jail_fine,
             f"jail fine after {attempt} failed tries")
        tx.emit("LeftJail", player=name, how="fine after the last try")
    _land(tx, name, _move(tx, name, (player.position + total) % 40, total, "dice", salary=True))
    _continue(tx)


def _forced_out(tx: Tx, name: str) -> None:
    """After the choice of the last failed try (000 FAQ 17): move by that roll."""
    total = sum(tx.state.turn.dice[:2])
    position = tx.state.player(name).position
    _land(tx, name, _move(tx, name, (position + total) % 40, total, "dice", salary=True))
    _continue(tx)


def _offer_check(tx: Tx, player: str | None, action: str) -> int:
    state = tx.state
    check_turn(state, player, action)
    need_phase(state, "buy", action)
    offer = state.turn.offer
    assert offer is not None  # phase "buy" names the deed offered
    return offer


def _buy(tx: Tx, cmd: c.Buy) -> None:
    state = tx.state
    pos = _offer_check(tx, cmd.player, msg("buy"))
    space = state.edition.space(pos)
    name = state.turn.player
    no_debts(state, msg("buy"), name)
    cash = state.current.cash
    assert space.price is not None  # a deed on offer has a price
    if cash < space.price:
        raise RuleViolation(
            "{name} has {cash} in cash and {space} costs {price}",
            rule=R_BUY, allowed=msg("`decline`: {space} then goes to auction, where {name} may bid too", space=space.name, name=name),
            name=name, cash=money(state, cash), space=space.name, price=money(state, space.price))
    tx.emit("PropertyBought", player=name, property=pos, payer=name, payee=BANK,
            amount=space.price, reason=f"bought {space.name}")
    _continue(tx)


def _decline(tx: Tx, cmd: c.Decline) -> None:
    state = tx.state
    pos = _offer_check(tx, cmd.player, msg("decline"))
    tx.emit("PropertyDeclined", player=state.turn.player, property=pos)
    # 003 §02: a declined property goes to auction at once; it is not optional.
    tx.emit("AuctionOpened", property=pos, min_bid=state.rules.auction_min_bid,
            step=state.rules.auction_step)


def _bid(tx: Tx, cmd: c.Bid) -> None:
    state = tx.state
    need_phase(state, "auction", msg("bid"))
    check_active(state, cmd.bidder, msg("bid"))
    a = state.auction
    assert a is not None  # phase "auction"
    if cmd.bidder == a.seller:
        assert a.property is not None  # a seller's auction is a deed's
        raise RuleViolation("{bidder} is selling {space}: the deed goes to one of the other players", rule="002 §Varie",
                            allowed=msg("another player's bid, or `hammer`"),
                            bidder=cmd.bidder, space=state.edition.space(a.property).name)
    no_debts(state, msg("bid"), cmd.bidder)
    if cmd.bidder in a.excluded:
        raise RuleViolation("{bidder} won this auction and could not pay: kept out of the new one", rule=R_UNPAID,
                            bidder=cmd.bidder)
    if a.kind == "deed":
        assert a.property is not None  # a deed's auction names its deed
        name = state.edition.space(a.property).name
    else:
        from ledger.rules.shortage import check_bid

        name = f"the {a.kind}"
        check_bid(state, cmd.bidder, cmd.amount)
    if a.high_bidder is None:
        lowest = a.min_bid
        if cmd.amount < lowest:
            raise RuleViolation("bids for {name} open at {lowest}; {amount} is too low",
                                rule=cited(state.rules, "auction", R_AUCTION),
                                allowed=msg("bid {lowest} or more", lowest=lowest),
                                name=name, lowest=money(state, lowest), amount=cmd.amount)
    else:
        lowest = a.high_bid + a.step
        if cmd.amount < lowest:
            raise RuleViolation(
                "{high_bidder} already bids {high_bid} for {name}; a bid must raise by at least {step}", rule=cited(state.rules, "auction", R_AUCTION),
                allowed=msg("bid {lowest} or more", lowest=lowest),
                high_bidder=a.high_bidder, high_bid=money(state, a.high_bid), name=name,
                step=a.step)
    cash = state.player(cmd.bidder).cash
    if cmd.amount > cash:
        # No loans and no promises (003 §06): a bid is paid from cash in hand.
        raise RuleViolation("{bidder} has {cash} in cash and cannot bid {amount}",
                            rule="003 §06",
                            allowed=(msg("bid at most {cash}", cash=cash) if cash >= lowest else msg("{bidder} cannot outbid {amount} with {cash}: another bidder, or `hammer`", bidder=cmd.bidder, amount=money(state, lowest - 1), cash=money(state, cash))),
                            bidder=cmd.bidder, cash=money(state, cash), amount=cmd.amount)
    tx.emit("BidPlaced", player=cmd.bidder, property=a.property, amount=cmd.amount)


def _winner_cannot_take_it(state: State) -> str | None:
    """Why the highest bidder cannot have what he won, if he cannot: he has no longer the cash
    (000 §COMPRARE I CONTRATTI), or, for a building, no longer a lot where his bid would put it
    (he mortgaged or sold since he bid; 000 §PENURIA DI EDIFICI: only players with room bid)."""
    a = state.auction
    assert a is not None  # phase "auction"
    if not a.high_bidder:
        return None
    what = (state.edition.space(a.property).name if a.kind == "deed" and a.property is not None
            else f"the {a.kind}")
    cash = state.player(a.high_bidder).cash
    if cash < a.high_bid:
        return f"{a.high_bidder} cannot pay {a.high_bid} for {what} ({cash} in cash)"
    if a.kind != "deed":
        from ledger.rules.shortage import winner_lots

        if not winner_lots(state):
            return (f"{a.high_bidder} has no lot left where {what} could go for his bid "
                    f"(000 §PENURIA DI EDIFICI)")
    return None


def _hammer(tx: Tx, cmd: c.Hammer) -> None:
    state = tx.state
    need_phase(state, "auction", msg("close the auction"))
    a = state.auction
    assert a is not None  # phase "auction"
    why = _winner_cannot_take_it(state)
    if why:
        # 000 §COMPRARE I CONTRATTI: the auction is cancelled and a new one held without him.
        tx.emit("AuctionVoided", player=a.high_bidder, property=a.property, amount=a.high_bid,
                reason=f"{why}: a new auction without {a.high_bidder} ({R_UNPAID})")
        excluded = list(a.excluded) + [a.high_bidder]
        if a.kind == "deed":
            seller = {"seller": a.seller} if a.seller else {}
            tx.emit("AuctionOpened", property=a.property, min_bid=a.min_bid, step=a.step,
                    resume=a.resume, excluded=excluded, **seller)
        else:
            tx.emit("BuildingAuctionOpened", kind=a.kind, min_bid=a.min_bid, step=a.step,
                    resume=a.resume, excluded=excluded, wanted=dict(a.wanted))
        return
    if a.kind != "deed":
        from ledger.rules.shortage import hammer_building

        if cmd.player is not None:
            raise RuleViolation("`hammer PLAYER` is for a deed nobody bid for", rule=R_NO_BID,
                                allowed=msg("`hammer` or `hammer PROPERTY`"))
        hammer_building(tx, cmd.lot)
        return
    if cmd.lot is not None:
        raise RuleViolation("`hammer PROPERTY` is for building auctions",
                            allowed=hammer_step(state))
    assert a.property is not None  # a deed's auction names its deed
    space = state.edition.space(a.property)
    if a.high_bidder is not None:
        if cmd.player is not None:
            raise RuleViolation("{high_bidder} bid {high_bid}: the highest bid wins", rule=R_AUCTION, allowed=msg("`hammer`"),
                                high_bidder=a.high_bidder, high_bid=money(state, a.high_bid))
        if a.seller:  # a debtor's own deed: the price is his (002 §Varie)
            tx.emit("AuctionWon", player=a.high_bidder, property=a.property,
                    payer=a.high_bidder, payee=a.seller, amount=a.high_bid,
                    reason=f"won {space.name} at {a.seller}'s auction (002 §Varie)")
            from ledger.rules.estate import receive_mortgaged

            receive_mortgaged(tx, a.high_bidder, [a.property])
        else:
            tx.emit("AuctionWon", player=a.high_bidder, property=a.property,
                    payer=a.high_bidder, payee=BANK, amount=a.high_bid,
                    reason=f"won {space.name} at auction")
    elif a.seller:
        if cmd.player is not None:
            raise RuleViolation("nobody bid: {space} stays with {seller}",
                                rule="002 §Varie", allowed=msg("`hammer`"),
                                space=space.name, seller=a.seller)
        tx.emit("AuctionClosed", property=a.property, outcome="no bid",
                reason=f"nobody bid: {space.name} stays with {a.seller} (002 §Varie)")
    elif state.rules.auction_no_bid == "richest":
        _no_bid_to_the_richest(tx, cmd.player)
    else:
        if cmd.player is not None:
            raise RuleViolation("nobody bid: under the {rules} rules {space} stays with the Bank", allowed=msg("`hammer`"),
                                rules=state.rules.name, space=space.name)
        tx.emit("AuctionClosed", property=a.property, outcome="no bid",
                reason="nobody bid: the deed stays with the Bank (house rules: auction_no_bid "
                       "= bank_keeps)")
    if tx.state.auction_queue:  # a bankrupt's deeds, one by one (003 §10)
        tx.emit("AuctionOpened", property=tx.state.auction_queue[0], min_bid=a.min_bid,
                step=a.step, resume=a.resume)
    elif a.resume == "moving":
        after_auctions(tx)


def _no_bid_to_the_richest(tx: Tx, chosen: str | None) -> None:
    """000 FAQ 22: nobody bid, so the banker gives the deed to the player with the most cash
    at the opening bid.  The FAQ does not break a tie: the banker does (`hammer PLAYER`)."""
    state = tx.state
    a = state.auction
    assert a is not None and a.property is not None  # a deed's auction (_hammer)
    space = state.edition.space(a.property)
    tied = richest_bidders(state)
    if not tied:
        if chosen is not None:
            raise RuleViolation("nobody can pay {min_bid} for {space}",
                                rule=R_NO_BID, allowed=msg("`hammer`"),
                                min_bid=money(state, a.min_bid), space=space.name)
        tx.emit("AuctionClosed", property=a.property, outcome="no bid",
                reason=f"nobody bid and nobody can pay {money(state, a.min_bid)}: the deed "
                       f"stays with the Bank ({R_NO_BID})")
        return
    if chosen is None and len(tied) == 1:
        chosen = tied[0]
    if chosen not in tied:
        cash = money(state, state.player(tied[0]).cash)
        ask = Joined([msg("`hammer {name}`", name=n) for n in tied], msg(" or "))
        price = money(state, a.min_bid)
        if len(tied) > 1:
            raise RuleViolation(
                "nobody bid for {space}: it goes to the richest player at {price}, and {names} "
                "and {last} have {cash} each; the banker says who", space=space.name,
                price=price, names=", ".join(tied[:-1]), last=tied[-1], cash=cash,
                rule=R_NO_BID, allowed=ask)
        raise RuleViolation(
            "nobody bid for {space}: it goes to the richest player at {price}, and {player} has "
            "the most cash ({cash})", space=space.name, price=price, player=tied[0], cash=cash,
            rule=R_NO_BID, allowed=ask)
    tx.emit("AuctionWon", player=chosen, property=a.property, payer=chosen, payee=BANK,
            amount=a.min_bid,
            reason=f"nobody bid for {space.name}: given to the richest player at the opening "
                   f"bid ({R_NO_BID})" + (", the banker choosing among the tied"
                                          if len(tied) > 1 else ""))


def after_auctions(tx: Tx) -> None:
    """The current player's turn goes on, or passes if he has gone bankrupt."""
    state = tx.state
    if state.ended:
        return
    if state.current.bankrupt:
        turn_over(tx)
        if tx.state.ended:
            return
        tx.emit("TurnEnded", player=state.turn.player,
                next=seat_after(state, state.turn.player, 1))
    else:
        _continue(tx)


def _claim(tx: Tx, cmd: c.Claim) -> None:
    state = tx.state
    check_active(state, cmd.owner, _CLAIM_RENT)
    mine = [cl for cl in state.claims if cl.owner == cmd.owner]
    if not mine:
        late = [cl for cl in state.lapsed if cl.owner == cmd.owner]
        if late:
            cl = late[-1]
            space = state.edition.space(cl.property).name
            if state.rules.late_claims == "last_landing":
                _owed_nothing(state, cl, space)
            why = msg("{owner}'s claim for {amount} rent on {space} from {payer} is too late: "
                      "{payer} landed at event {landed} and the window closed when {closer} "
                      "rolled (event {lapsed})", owner=cmd.owner,
                      amount=money(state, cl.amount), space=space, payer=cl.payer,
                      landed=cl.landed_seq, closer=cl.closer, lapsed=cl.lapsed_seq)
            if state.rules.late_claims == "last_landing" and cl.made_seq:
                # its evidence is recorded once (the book says the same of a retried command)
                raise RuleViolation("already recorded as refused (event {seq}): {reason}",
                                    rule=rent_rule(state), allowed=_open_claims(state),
                                    seq=cl.made_seq, reason=why)
            refusal = {"type": "RentClaimRefused",
                       "data": {"owner": cmd.owner, "payer": cl.payer, "property": cl.property,
                                "amount": cl.amount, "opened_seq": cl.opened_seq,
                                "landed_seq": cl.landed_seq, "lapsed_seq": cl.lapsed_seq,
                                "closer": cl.closer, "rule": rent_rule(state),
                                "reason": str(why)}}
            raise RuleViolation(why, rule=rent_rule(state), allowed=_open_claims(state),
                                record=[refusal])
        # nobody landed, or the last landing was paid (or became a debt): either way nothing
        # is open, and the message must not say nobody landed when somebody paid
        raise RuleViolation("no rent is owed to {owner}: since the window last closed, nobody has landed on an unmortgaged property of {owner}'s without paying",
                            rule=rent_rule(state), allowed=_open_claims(state),
                            owner=cmd.owner)
    fresh = [cl for cl in mine if not cl.made_seq]
    if not fresh:
        cl = mine[0]
        raise RuleViolation("{owner} has already claimed the rent from {payer}: it is paid when {settle_after}'s turn is over", rule="000 FAQ 8",
                            allowed=next_step(state),
                            owner=cmd.owner, payer=cl.payer, settle_after=cl.settle_after)
    for cl in fresh:
        if _dice_on_the_table(state, cl):
            # 000 FAQ 8: "il giocatore che li ha lanciati muove il segnalino e svolge il proprio
            # turno. Una volta finito il turno, l'altro giocatore può finalmente riscuotere".
            tx.emit("RentClaimDeferred", owner=cl.owner, payer=cl.payer, property=cl.property,
                    amount=cl.amount, opened_seq=cl.opened_seq,
                    settles_after=state.turn.player, rule="000 FAQ 8")
        else:
            _settle(tx, cl)


def _owed_nothing(state: State, cl, space: str) -> None:
    """A claim after the window is judged against the owner's most recent landing (state's
    `lapsed`): the rent is owed for a landing "before the next player rolls" (003 §04; 000
    FAQ 7-8), so a landing that owed nothing answers it, not an older lapsed one."""
    if not cl.opened_seq:  # the landing owed nothing (RentNotDue)
        raise RuleViolation(
            "no rent is owed to {owner}: the last landing on {owner}'s deeds, {payer}'s on {space} at event {seq}, owed nothing ({reason})",
            rule=rent_rule(state), allowed=_open_claims(state),
            owner=cl.owner, payer=cl.payer, space=space, seq=cl.landed_seq,
            reason=Fact(cl.basis))


def _dice_on_the_table(state: State, cl) -> bool:
    """A claim made after a later roll, while that roll's turn is in progress: the rule set
    may settle it when that turn is over (000 FAQ 8) rather than at once."""
    if state.rules.claim_settles != "after_turn" or not turn_in_progress(state):
        return False
    return state.last_roll[1] > cl.landed_seq  # that turn's dice came after the landing


def _open_claims(state: State) -> Text:
    """The claims that can still be made, for a refused one."""
    if not state.claims:
        if state.rules.claim_window == 1:
            return msg("no rent claim is open now: an owner asks before the player after the "
                       "payer rolls")
        return msg("no rent claim is open now: an owner asks before the player {n} seats after "
                   "the payer rolls", n=state.rules.claim_window)
    return msg("open claims: {claims}", claims=Joined(
        [msg("`claim {owner}` ({amount} from {payer}, until {closer} rolls)", owner=cl.owner,
             amount=money(state, cl.amount), payer=cl.payer, closer=cl.closer)
         for cl in state.claims], ", "))


def _card(tx: Tx, cmd: c.DrawCard) -> None:
    state = tx.state
    check_turn(state, cmd.player, _DRAW_A_CARD)
    t = state.turn
    deck = state.edition.decks[cmd.deck]
    if t.phase == "choice":
        want = t.card_choice
        if (cmd.deck, cmd.number) != want:
            raise RuleViolation("a card's choice is pending", rule=R_CARDS,
                                allowed=next_step(state))
    else:
        need_phase(state, "card", _DRAW_A_CARD)
        if cmd.deck != t.card_deck:
            assert t.card_deck is not None  # phase "card" names the deck
            raise RuleViolation(
                "{player} is on a {decks} square, not {title}",
                rule=R_CARDS,
                allowed=msg("`card {card_deck} N`; a {title} card turned by mistake: `misdraw {deck} {number}` (000 FAQ 18)", card_deck=t.card_deck, title=deck.title, deck=cmd.deck, number=cmd.number),
                player=t.player, decks=state.edition.decks[t.card_deck].title, title=deck.title)
    if t.phase == "card":
        _check_on_top(state, cmd.deck, cmd.number, msg("draw"))
    card = deck.cards[cmd.number - 1]
    effect = card.effect
    name = t.player
    if effect["kind"] == "pay_or_draw":
        if cmd.choice is None:
            if t.phase == "choice":
                raise RuleViolation("say which", rule=R_CARDS, allowed=next_step(state))
            tx.emit("CardChoiceRequired", player=name, deck=cmd.deck, number=cmd.number)
            return
        if cmd.choice not in ("pay", "draw"):
            raise RuleViolation("the choice is `pay` or `draw`, not {choice!r}",
                                choice=cmd.choice)
    elif cmd.choice is not None:
        raise RuleViolation("{title} {number} offers no choice", rule=R_CARDS,
                            allowed=msg("`card {deck} {number}`", deck=cmd.deck, number=cmd.number),
                            title=deck.title, number=cmd.number)
    tx.emit("CardDrawn", player=name, deck=cmd.deck, number=cmd.number, text=card.text)
    _apply_card(tx, name, card.deck, card.number, effect, cmd.choice)
    _continue(tx)


def _check_on_top(state: State, deck: str, number: int, action: str) -> None:
    """The card must be one that can be on top: a drawn card went to the bottom (003 §09), so
    in the deck's first round it cannot come again, and once the order is known only the next
    card can come.  The refusal says where the card is and what the next one is."""
    cards = state.edition.decks[deck].cards
    if not 1 <= number <= len(cards):
        raise RuleViolation("{decks} has cards 1 to {count}, not {number}", allowed=msg("`banco cards {deck}` lists them", deck=deck),
                            decks=state.edition.decks[deck].title, count=len(cards), number=number)
    if number in drawable(state, deck):
        return
    raise RuleViolation(
        "cannot {action} {decks} {number}: {where_is}; {describe_next}", rule=R_DECK,
        allowed=(msg("the card on top; if the deck was shuffled, `shuffle {deck}` first; a card turned by mistake: `misdraw {deck} N` (000 FAQ 18)", deck=deck)),
        action=action, decks=state.edition.decks[deck].title, number=number,
        where_is=where_is(state, deck, number), describe_next=describe_next(state, deck))


def _misdraw(tx: Tx, cmd: c.Misdraw) -> None:
    """000 FAQ 18: the banker shows the card turned by mistake and puts it under its deck."""
    _check_on_top(tx.state, cmd.deck, cmd.number, msg("turn"))
    card = tx.state.edition.decks[cmd.deck].cards[cmd.number - 1]
    tx.emit("CardMisdrawn", deck=cmd.deck, number=cmd.number, text=card.text)


def _shuffle(tx: Tx, cmd: c.Shuffle) -> None:
    tx.emit("DeckShuffled", deck=cmd.deck)


def _apply_card(tx: Tx, name: str, deck: str, number: int, effect: dict,
                choice: str | None) -> None:
    state = tx.state
    kind = effect["kind"]
    pos = state.player(name).position
    reason = f"{state.edition.decks[deck].title} {number}"
    extra = {"deck": deck, "number": number}
    if kind == "advance_to":
        target = effect["position"]
        spaces = (target - pos) % 40 or 40
        _land(tx, name, _move(tx, name, target, spaces, "card", salary=True))
    elif kind == "back_to":
        target = effect["position"]
        _land(tx, name, _move(tx, name, target, -((pos - target) % 40), "card", salary=False))
    elif kind == "back":
        n = effect["spaces"]
        _land(tx, name, _move(tx, name, (pos - n) % 40, -n, "card", salary=False))
    elif kind == "go_to_jail":
        tx.emit("SentToJail", player=name, reason=reason)
    elif kind == "jail_free":
        tx.emit("JailCardKept", player=name, deck=deck, number=number)
    elif kind == "collect":
        pay(tx, "CardPayment", BANK, name, effect["amount"], reason, **extra)
    elif kind == "pay":
        pay(tx, "CardPayment", name, BANK, effect["amount"], reason, **extra)
    elif kind == "collect_from_each":
        for other in state.active():
            if other != name:
                pay(tx, "CardPayment", other, name, effect["amount"], reason, **extra)
    elif kind == "pay_each":
        # One payment to each player, in seat order; what the cash cannot cover becomes a debt
        # to that player, not to the Bank, so paying it later reaches the player it is owed to
        # (003 §10; as two rents in one turn are two debts, 000 FAQ 42).
        for other in state.active():
            if other != name:
                pay(tx, "CardPayment", name, other, effect["amount"],
                    f"{reason}: {effect['amount']} to each player", **extra)
    elif kind == "repairs":
        houses = sum(b for p, b in enumerate(state.buildings)
                     if state.owners[p] == name and b < 5)
        hotels = sum(1 for p, b in enumerate(state.buildings)
                     if state.owners[p] == name and b == 5)
        amount = houses * effect["house"] + hotels * effect["hotel"]
        pay(tx, "CardPayment", name, BANK, amount,
             f"{reason}: {houses} house(s) x {effect['house']} + {hotels} hotel(s) x {effect['hotel']}",
             **extra)
    elif kind == "pay_or_draw":
        if choice == "pay":
            pay(tx, "CardPayment", name, BANK, effect["amount"], reason, **extra)
        else:
            tx.emit("CardDrawRequired", player=name, deck=effect["deck"])
    else:  # kinds beyond the Italian decks (the US Chance moves), or unknown: refused there
        from ledger.rules.card_effects import apply_effect

        apply_effect(tx, name, deck, number, effect, choice)


def _jail_exit_check(tx: Tx, player: str | None, action: str):
    state = tx.state
    check_turn(state, player, action)
    if state.turn.phase != "jail_exit":
        need_phase(state, "roll", action)
    p = state.current
    if not p.in_jail:
        raise RuleViolation("{player} is not in jail", rule=R_JAIL, allowed=next_step(state),
                            player=p.name)
    return p


def _pay_fine(tx: Tx, cmd: c.PayFine) -> None:
    state = tx.state
    p = _jail_exit_check(tx, cmd.player, msg("pay the fine"))
    fine = state.rules.jail_fine
    if state.turn.phase == "jail_exit":
        # The fine is due now: short of cash, it is a debt to raise (003 §08, 003 §10).
        pay(tx, "FinePaid", p.name, BANK, fine, f"jail fine after {p.jail_turns} failed tries")
        tx.emit("LeftJail", player=p.name, how="fine after the last try")
        _forced_out(tx, p.name)
        return
    no_debts(state, msg("pay the fine"), p.name)
    if p.cash < fine:
        other = msg("`use-card`, or ") if p.jail_cards else ""
        raise RuleViolation("{player} has {cash}; the fine is {fine}",
                            rule=cited(state.rules, "jail", R_JAIL),
                            allowed=msg("{other}`roll D1 D2` to try for doubles", other=other),
                            player=p.name, cash=money(state, p.cash), fine=money(state, fine))
    tx.emit("FinePaid", payer=p.name, payee=BANK, amount=fine, reason="jail fine before rolling")
    tx.emit("LeftJail", player=p.name, how="fine")


def _use_card(tx: Tx, cmd: c.UseCard) -> None:
    state = tx.state
    p = _jail_exit_check(tx, cmd.player, msg("use a card"))
    if not p.jail_cards:
        fine = msg("`pay-fine`, or ") if p.cash >= state.rules.jail_fine else ""
        raise RuleViolation("{player} holds no get-out-of-jail card", rule=R_JAIL,
                            allowed=msg("{fine}`roll D1 D2` to try for doubles", fine=fine),
                            player=p.name)
    deck, number = p.jail_cards[0]
    tx.emit("JailCardUsed", player=p.name, deck=deck, number=number)
    # 003 §09: the card goes back to the bottom of its deck.
    if state.turn.phase == "jail_exit":
        tx.emit("LeftJail", player=p.name, how="card instead of the fine, after the last try")
        _forced_out(tx, p.name)
        return
    tx.emit("LeftJail", player=p.name, how="card")


def _pay_debt(tx: Tx, cmd: c.PayDebt) -> None:
    state = tx.state
    debts = [d for d in state.debts if cmd.debtor is None or d.debtor == cmd.debtor]
    if not debts:
        from ledger.rules.estate import debts_or_next

        raise RuleViolation(msg("there is no debt to settle") if cmd.debtor is None else msg("{debtor} owes nothing", debtor=cmd.debtor),
                            allowed=debts_or_next(state))
    d = debts[0]
    cash = state.player(d.debtor).cash
    if cash < d.amount:
        creditor = msg("the Bank") if d.creditor == BANK else d.creditor
        raise RuleViolation(
            "{debtor} has {cash} and owes {amount} to {creditor}",
            rule=R_DEBT, allowed=debt_step(state, d.debtor),
            debtor=d.debtor, cash=money(state, cash), amount=money(state, d.amount),
            creditor=creditor)
    tx.emit("DebtPaid", payer=d.debtor, payee=d.creditor, amount=d.amount, reason=d.reason,
            debt_seq=d.seq)


def _bankrupt(tx: Tx, cmd: c.Bankrupt) -> None:
    from ledger.rules.estate import bankrupt

    bankrupt(tx, cmd, after_auctions)


def _shortage(tx: Tx, cmd: c.BuildingAuction) -> None:
    from ledger.rules.shortage import building_auction

    building_auction(tx, cmd)


def _estate(name: str):
    def handler(tx: Tx, cmd) -> None:
        from ledger.rules import estate

        getattr(estate, name)(tx, cmd)

    return handler


def _speedy(name: str):
    def handler(tx: Tx, cmd) -> None:
        from ledger.rules import speedy

        getattr(speedy, name)(tx, cmd)

    return handler


def _module(module: str, name: str):
    """A handler living in a module of its own, imported when its command comes."""
    def handler(tx: Tx, cmd) -> None:
        import importlib

        getattr(importlib.import_module(f"ledger.rules.{module}"), name)(tx, cmd)

    return handler


_HANDLERS = {
    c.Build: _estate("build"), c.Sell: _estate("sell"), c.BuildTo: _estate("build_to"),
    c.SellTo: _estate("sell_to"), c.BreakUp: _estate("break_up"), c.Mortgage: _estate("mortgage"),
    c.Unmortgage: _estate("unmortgage"), c.Trade: _estate("trade"),
    c.BuildingAuction: _shortage, c.Bankrupt: _bankrupt,
    c.Roll: _roll, c.Buy: _buy, c.Decline: _decline, c.Bid: _bid, c.Hammer: _hammer,
    c.Claim: _claim, c.DrawCard: _card, c.PayFine: _pay_fine, c.UseCard: _use_card,
    c.Misdraw: _misdraw, c.Shuffle: _shuffle,
    c.BusMove: _speedy("bus_move"), c.GoTo: _speedy("go_to"), c.Advance: _speedy("advance"),
    c.PayDebt: _pay_debt,
    c.Deal: _module("dealing", "deal"), c.TimeUp: _module("ending", "time_up"),
    c.PayInKind: _module("debts", "pay_in_kind"),
    c.AuctionDeed: _module("debts", "auction_deed"),
}
_HANDLERS.update(referee.HANDLERS)  # corrections and recorded rulings (ledger/rules/referee.py)


def start_game(players: Sequence[str], rules, edition: str, first_player: str | None = None,
               final: bool = False) -> list[dict]:
    """The events that open a game: seats, the rules in full, and each player's starting cash
    (by the number of players where the rule set says so, 002 §Preparazione).  `final`: a
    championship final or semi-final, where 000 FAQ 31 does not apply."""
    from ledger.board.rule_sets import starting_cash

    if len(players) < 2:
        raise RuleViolation("a game needs at least two players", rule="004 §Inizio del gioco")
    if len(players) > rules.max_players:
        seats = msg("eight players sit at a table") if rules.max_players == 8 else msg(
            "the {rules} rules seat {n} players", rules=rules.name, n=rules.max_players)
        raise RuleViolation("at most {seats}, not {count}",
                            rule=cited(rules, "players", "004 §Inizio del gioco"),
                            seats=seats, count=len(players))
    if final and rules.trades_two_left:
        raise UsageError("--final: the {rules} rules make no difference between preliminary games and finals (that is 000 FAQ 31, --rules championship)",
                         rules=rules.name)
    from ledger.table.seats import check_names

    check_names(players)
    first = first_player or players[0]
    if first not in players:
        raise UsageError("{first!r} is not one of the players ({items})",
                         first=first, items=', '.join(players))
    data = {"players": list(players), "rules": rules.params(), "edition": edition,
            "first_player": first}
    if final:
        data["final"] = True
    events = [{"type": "GameStarted", "data": data}]
    cash = starting_cash(rules, len(players))
    for p in players:
        events.append({"type": "CashIssued",
                       "data": {"payer": BANK, "payee": p, "amount": cash,
                                "reason": "starting cash"
                                + (f" for {len(players)} players ({cited(rules, 'deal', R_CAPITAL)})"
                                   if rules.starting_cash_by_players else "")}})
    return events
