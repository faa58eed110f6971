"""The steps of a turn more than one rule module takes: the rent due on a landing, moving a
token (and the salary for passing Via!), doing what the square says, and carrying the turn on
when nothing waits on the current player (another roll, the next turn, or the end)."""

from __future__ import annotations

from banco.ledger.board.edition import Space
from banco.ledger.records.reasons import reason
from banco.ledger.rules.decision import Tx, pay
from banco.ledger.rules.ending import maybe_end
from banco.ledger.table.speedy_die import throw_value
from banco.ledger.table.state import BANK, State


def rent_for(state: State, position: int, dice_total: int) -> tuple[int, dict]:
    """Rent due on a landing, with how it was worked out (for the referee's evidence)."""
    space = state.edition.space(position)
    owner = state.owners[position]
    assert space.group is not None  # rent is asked on deeds, and every deed is in a group
    group = state.edition.groups[space.group]
    owned = [p for p in group if state.owners[p] == owner]
    if space.kind == "station":
        n = len(owned)
        return space.rents[n - 1], reason("rent_stations", n=n, rent=space.rents[n - 1])
    if space.kind == "utility":
        n = len(owned)
        factor = space.rents[n - 1]
        return factor * dice_total, reason("rent_utilities", n=n, factor=factor, dice=dice_total)
    built = state.buildings[position]
    if built == 5:
        return space.rents[5], reason("rent_hotel")
    if built:
        return space.rents[built], reason("rent_houses", n=built)
    base = space.rents[0]
    if len(owned) < len(group):
        return base, reason("rent_unbuilt")
    mortgaged = [p for p in group if p in state.mortgaged]
    if mortgaged and not state.rules.double_rent_with_mortgage:
        return base, reason("rent_mortgaged_group")
    return base * 2, reason("rent_double", rent=base)


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


def move_token(tx: Tx, player: str, to: int, spaces: int, cause: str, salary: bool) -> int:
    """Move a token; return the seq of its TokenMoved, the landing a rent claim points at.
    decide numbers its events from the table's seq + 1: a store that puts a fact of its own
    before them must decide on the table after that fact."""
    start = tx.state.player(player).position
    passed = salary and (start + spaces >= 40 if spaces > 0 else False)
    tx.emit("TokenMoved", player=player, **{"from": start}, to=to, spaces=spaces, cause=cause,
            passed_go=passed)
    landed = tx.seq
    if passed:
        tx.emit("SalaryPaid", payer=BANK, payee=player, amount=tx.state.rules.go_salary,
                reason=reason("landed_go" if to == 0 else "passed_go"))
    return landed


def land(tx: Tx, player: str, landed: int, rent=None) -> None:
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
                        reason=reason("lot_mortgaged"))
                return
            amount, basis = (rent(state, pos) if rent else
                             rent_for(state, pos, throw_value(state.turn)))
            if state.rules.rent == "auto":
                pay(tx, "RentPaid", player, owner, amount, reason("rent", space=space.position),
                     property=pos, opened_seq=0)
            else:
                closer = seat_after(state, player, state.rules.claim_window)
                tx.emit("RentClaimOpened", payer=player, owner=owner, property=pos,
                        amount=amount, basis=basis, closer=closer, landed_seq=landed)
    elif space.kind == "tax":
        assert space.amount is not None  # a tax square prints its amount
        pay(tx, "TaxPaid", player, BANK, space.amount, reason("tax", space=space.position))
    elif space.kind == "card":
        tx.emit("CardDrawRequired", player=player, deck=space.deck)
    elif space.kind == "go_to_jail":
        tx.emit("SentToJail", player=player, reason=reason("landed", space=space.position))


def continue_turn(tx: Tx) -> None:
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
            settle_claim(tx, cl)
    maybe_end(tx, turn_over=True)


R_LANDING_ORDER = "000 FAQ 42"


def earlier_rents(state: State, cl) -> int:
    """What the payer owes first for squares he landed on before this one, still open as
    claims: with the Speedy die two rents of one turn are paid in landing order ("Paga la
    rendita al primo spazio su cui ti sei fermato", 000 FAQ 42), whoever claims first."""
    if not state.rules.speedy_die:
        return 0
    return sum(o.amount for o in state.claims
               if o.payer == cl.payer and o.landed_seq < cl.landed_seq and o != cl)


def settle_claim(tx: Tx, cl) -> None:
    """Pay a claim, or turn it into the payer's debt when his cash is short (003 §10); cash
    the payer owes first for an earlier square is not his to pay this claim with (000 FAQ 42)."""
    state = tx.state
    first = earlier_rents(state, cl)
    if first and state.player(cl.payer).cash - first < cl.amount:
        # the earlier rent keeps the cash: this one waits as a debt, the last to be settled
        tx.emit("DebtIncurred", debtor=cl.payer, creditor=cl.owner, amount=cl.amount,
                reason=reason("rent_after_earlier", space=cl.property, rule=R_LANDING_ORDER))
        paid = False
    else:
        paid = pay(tx, "RentPaid", cl.payer, cl.owner, cl.amount, reason("rent", space=cl.property),
                   property=cl.property, opened_seq=cl.opened_seq)
    if not paid:  # the claim becomes the debt; it is no longer an open claim
        tx.emit("RentClaimLapsed", owner=cl.owner, payer=cl.payer, property=cl.property,
                amount=cl.amount, opened_seq=cl.opened_seq, closed_by="debt")


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
        continue_turn(tx)
