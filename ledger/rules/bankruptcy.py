"""Bankruptcy: `bankrupt`, the estate handed to the creditor or the Bank, and the game's end
when one player is left (003 §10-§11; 004 §Fallimento; 002 §Fallimento; 000 FAQ 32-33)."""

from __future__ import annotations

from banco.ledger.base.errors import RuleViolation
from banco.ledger.base.text import Joined, Text, both, either, msg
from banco.ledger.board.rule_sets import cited
from banco.ledger.records import commands as c
from banco.ledger.records.reasons import reason
from banco.ledger.rules.buildings import sell_group
from banco.ledger.rules.decision import Tx, money
from banco.ledger.rules.ending import maybe_end
from banco.ledger.rules.estate import R_BANKRUPT, R_SHORT_GAME, R_VINTAGE, name_of
from banco.ledger.rules.mortgages import receive_mortgaged
from banco.ledger.rules.movement import after_auctions
from banco.ledger.rules.registry import handles
from banco.ledger.table.state import BANK, State, debt_step, next_step
from banco.ledger.table.worth import (
    building_sale_value,
    deeds_of,
    interest,
    lift_cost,
    mortgage_of,
    raisable,
)


def _check_lift(state: State, debtor: str, creditor: str, lift) -> None:
    """The creditor of a bankrupt may free a mortgaged deed he receives at once, for the
    mortgage + 10% (004 §Fallimento, 003 §10), with the cash he has once the estate is his."""
    if not lift:
        return
    if creditor == BANK:
        raise RuleViolation("--lift is for a player who receives a bankrupt's deeds: the Bank "
                            "takes them back and cancels their mortgages",
                            rule=cited(state.rules, "bankrupt", R_BANKRUPT),
                            allowed=msg("`bankrupt {debtor}`", debtor=debtor))
    mortgaged = [p for p in deeds_of(state, debtor) if p in state.mortgaged]
    for pos in lift:
        if pos not in mortgaged:
            names = ", ".join(name_of(state, p) for p in mortgaged) or "none"
            raise RuleViolation("--lift names {name}, which is not a mortgaged deed of {debtor}'s",
                                rule=cited(state.rules, "fee", R_BANKRUPT),
                                allowed=msg("--lift among {debtor}'s mortgaged deeds: {names}", debtor=debtor, names=names),
                                name=name_of(state, pos), debtor=debtor)
    if len(set(lift)) != len(lift):
        raise RuleViolation("--lift names a deed twice")
    # What the creditor will hold: his cash, the debtor's, and the debtor's buildings at half.
    cash = (state.player(creditor).cash + state.player(debtor).cash
            + sum(building_sale_value(state, p) for p in deeds_of(state, debtor)))
    due = sum(lift_cost(state, p) if p in lift else interest(state, mortgage_of(state, p))
              for p in mortgaged)
    if due > cash:
        raise RuleViolation(
            "{creditor} would have {cash} once {debtor}'s estate is {creditor}'s, and freeing {items} with 10% on the other mortgaged deeds costs {due}",
            rule=cited(state.rules, "fee", R_BANKRUPT),
            allowed=msg("lift fewer deeds: the others cost only their 10% now"),
            creditor=creditor, cash=money(state, cash), debtor=debtor,
            items=', '.join(name_of(state, p) for p in lift), due=money(state, due))


def debts_or_next(state: State) -> Text | str:
    """For a command that needs a debt where there is none (`pay`, `bankrupt dario`): what
    each player in debt must do, or else what the table waits for."""
    debtors = sorted({d.debtor for d in state.debts})
    if debtors:
        return Joined([debt_step(state, d) for d in debtors])
    return next_step(state)


@handles(c.Bankrupt)
def bankrupt(tx: Tx, cmd: c.Bankrupt) -> None:
    state = tx.state
    debtors = sorted({d.debtor for d in state.debts})
    if cmd.debtor is None:
        if len(debtors) != 1:
            if not debtors:  # the next step, not `bankrupt X`, which would be refused too
                raise RuleViolation("nobody is in debt", allowed=next_step(state))
            raise RuleViolation("say who: {items} owe money", items=both(debtors),
                                allowed=either(["`bankrupt " + d + "`" for d in debtors]))
        name = debtors[0]
    else:
        name = cmd.debtor
    debts = [d for d in state.debts if d.debtor == name]
    if not debts:
        raise RuleViolation("{name} owes nothing: bankruptcy comes only from a debt that cannot be paid", rule=cited(state.rules, "bankrupt", R_BANKRUPT),
                            allowed=debts_or_next(state), name=name)
    if state.auction:
        raise RuleViolation("an auction is open: the bankruptcy waits for the hammer",
                            allowed=next_step(state))
    owed = sum(d.amount for d in debts)
    can = raisable(state, name)
    if can >= owed:
        raise RuleViolation(
            "{name} owes {owed} and can pay it: {can} with the cash, the buildings sold and the deeds mortgaged", rule=cited(state.rules, "bankrupt", R_BANKRUPT),
            allowed=debt_step(state, name),
            name=name, owed=money(state, owed), can=money(state, can))
    creditor = debts[0].creditor
    estate = state.rules.bankruptcy_estate
    # Who takes the estate: the creditor, or the Bank (always, in 002: it pays the creditors)
    receiver = BANK if estate == "bank_pays_creditors" else creditor
    _check_lift(state, name, receiver, cmd.lift)
    was_current = state.turn.player == name
    resume = "moving" if was_current else state.turn.phase
    with_buildings = estate == "all_to_creditor" and receiver != BANK
    if estate == "bank_pays_creditors":
        _return_buildings(tx, name)
    elif not with_buildings:
        # Buildings go back to the Bank at half price first (004 §Fallimento).
        # in board order: a set of names iterates in an order that changes from one process
        # to the next (PYTHONHASHSEED), and so did these sales' order in the log
        for group in dict.fromkeys(state.edition.space(p).group for p in deeds_of(state, name)):
            assert group is not None  # every deed is in a group
            lots = state.edition.groups[group]
            if any(tx.state.buildings[p] for p in lots):
                sell_group(tx, lots, name)
    if state.rules.bankruptcy_start_of_turn and receiver != BANK:
        _as_when_the_turn_began(tx, name)
    state = tx.state
    deeds = deeds_of(state, name)
    player = state.player(name)
    extra = {"buildings": True} if with_buildings and any(state.buildings[p] for p in deeds) else {}
    tx.emit("EstateTransferred", debtor=name, creditor=receiver, properties=deeds,
            jail_cards=[list(x) for x in player.jail_cards], payer=name, payee=receiver,
            amount=player.cash,
            reason=reason("bankrupt_to_bank" if receiver == BANK else "bankrupt_to", player=name,
                          **({} if receiver == BANK else {"creditor": receiver}),
                          **({"buildings_rule": cited(state.rules, "estate", R_SHORT_GAME)}
                             if extra else {}),
                          **({"bank_pays_rule": cited(state.rules, "estate", R_VINTAGE)}
                             if estate == "bank_pays_creditors" else {})),
            **extra)
    if estate == "bank_pays_creditors":
        for d in [d for d in tx.state.debts if d.debtor == name and d.creditor != BANK]:
            tx.emit("DebtPaidByBank", payer=BANK, payee=d.creditor, amount=d.amount,
                    debtor=name, debt_seq=d.seq,
                    reason=reason("bank_pays_debt", player=name, reason=d.reason))
    for claim in tx.state.claims:
        if name in (claim.payer, claim.owner):
            tx.emit("RentClaimLapsed", owner=claim.owner, payer=claim.payer,
                    property=claim.property, amount=claim.amount, opened_seq=claim.opened_seq,
                    closed_by="bankruptcy")
    for d in tx.state.debts:
        if d.creditor == name:  # nothing is owed to a player who is out of the game
            tx.emit("DebtCancelled", debtor=d.debtor, creditor=name, amount=d.amount,
                    reason=reason("went_bankrupt", player=name), debt_seq=d.seq)
    tx.emit("BankruptcyDeclared", player=name, creditor=creditor,
            reason=reason("owed_could_raise", owed=owed, can=can))
    last = len(tx.state.active()) == 1
    if receiver != BANK and (not last or state.rules.final_estate_interest):
        # The creditor "deve immediatamente pagare il 10% alla Banca" (004 §Fallimento, 003
        # §10), and cannot refuse the deeds (000 FAQ 33): at the bankruptcy that ends the game
        # too, whose final cash the count and the tie-breaks read (000 §PUNTEGGIO 3).  A game
        # recorded by an older banco, which skipped it there, replays as it was played.
        receive_mortgaged(tx, receiver, [p for p in deeds if p in state.mortgaged], cmd.lift)
    if last:
        _last_player_owes(tx, receiver)
        maybe_end(tx)  # at once, or once the last player has paid the Bank its 10%
        return
    if maybe_end(tx):  # the short game's second bankruptcy (004 short game 3)
        return
    if tx.state.auction_queue:
        first = tx.state.auction_queue[0]
        tx.emit("AuctionOpened", property=first, min_bid=state.rules.auction_min_bid,
                step=state.rules.auction_step, resume=resume)
        return
    if was_current:
        after_auctions(tx)


def _last_player_owes(tx: Tx, winner: str) -> None:
    """The last player left has won (003 §11; 002 §Fallimento: "Quando il penultimo giocatore
    è fallito, l'ultimo giocatore rimasto vince la partita"), and owes the Bank the 10% on the
    mortgaged deeds he received.  Short of cash, he raises it as any debtor does (003 §10) and
    the game ends when it is paid.  If even all he has cannot raise it, going bankrupt to the
    Bank (000 FAQ 33) would leave a game with no winner: the part he cannot pay is written off,
    recorded as such, and the game ends."""
    state = tx.state
    debts = [d for d in state.debts if d.debtor == winner]
    if not debts or raisable(state, winner) >= sum(d.amount for d in debts):
        return
    for d in debts:
        tx.emit("DebtCancelled", debtor=winner, creditor=d.creditor, amount=d.amount,
                reason=reason("won_debt_written_off", player=winner), debt_seq=d.seq)


def _return_buildings(tx: Tx, name: str) -> None:
    """002 §Fallimento: "tutto quanto egli possiede passa alla Banca": the buildings too,
    unpaid, and the land is auctioned without them."""
    state = tx.state
    built = [p for p in deeds_of(state, name) if state.buildings[p]]
    if not built:
        return
    hotels = sum(1 for p in built if state.buildings[p] == 5)
    houses = sum(state.buildings[p] for p in built if state.buildings[p] < 5)
    what = [{"space": p, "level": state.buildings[p]} for p in built]
    tx.emit("BuildingsReturned", player=name, properties=built, bank_houses=houses,
            bank_hotels=hotels, reason=reason("estate_to_bank", what=what, player=name))


def _as_when_the_turn_began(tx: Tx, name: str) -> None:
    """000 FAQ 32: a player bankrupt to another during his turn hands over his deeds "nello
    stato in cui si trovavano all'inizio del tuo turno".  His turn began with his last roll and
    lasts until someone else rolls (FAQ 11: a doubles re-roll is a turn of its own).  A deed he
    mortgaged since then passes unmortgaged, and the money it brought goes back to the Bank
    (else the Bank's loan would vanish), as far as his cash reaches."""
    state = tx.state
    if not state.last_roll or state.last_roll[0] != name:
        return
    for pos in sorted(state.since_roll):
        state = tx.state
        if state.owners[pos] != name or pos not in state.mortgaged:
            continue
        space = state.edition.space(pos)
        mortgage = mortgage_of(state, pos)
        back = min(mortgage, state.player(name).cash)
        why = (reason("mortgage_reverted", space=space.position, player=name,
                      amount=mortgage) if back == mortgage else
               reason("mortgage_reverted_short", space=space.position, player=name,
                      amount=mortgage, debtor=name, left=back))
        tx.emit("MortgageReverted", player=name, property=pos, payer=name, payee=BANK,
                amount=back, reason=why)
