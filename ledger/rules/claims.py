"""Rent claimed by its owner (003 §04; 000 FAQ 7-8): `claim OWNER`, the window a claim is open
in, and a late claim's refusal."""

from __future__ import annotations

from banco.ledger.base.errors import RuleViolation
from banco.ledger.base.text import Fact, Joined, Text, msg
from banco.ledger.board.rule_sets import cited
from banco.ledger.records import commands as c
from banco.ledger.records.reasons import reason
from banco.ledger.rules.decision import Tx, check_active, money
from banco.ledger.rules.movement import seat_after, settle_claim
from banco.ledger.rules.registry import handles
from banco.ledger.table.state import State, next_step, turn_in_progress

R_RENT = "004 §Fermarsi nella proprietà di qualcun altro; 003 §04"


def rent_rule(state: State) -> str:
    return cited(state.rules, "rent", R_RENT)


def lapse_claims(tx: Tx, roller: str) -> None:
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


_CLAIM_RENT = msg("claim rent")


@handles(c.Claim)
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
                                "reason": reason("late_claim", owner=cmd.owner,
                                                 amount=cl.amount, space=cl.property,
                                                 payer=cl.payer, landed=cl.landed_seq,
                                                 closer=cl.closer, lapsed=cl.lapsed_seq)}}
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
            settle_claim(tx, cl)


def _owed_nothing(state: State, cl, space: str) -> None:
    """A claim after the window is judged against the owner's most recent landing (state's
    `lapsed`): the rent is owed for a landing "before the next player rolls" (003 §04; 000
    FAQ 7-8), so a landing that owed nothing answers it, not an older lapsed one."""
    if not cl.opened_seq:  # the landing owed nothing (RentNotDue)
        raise RuleViolation(
            "no rent is owed to {owner}: the last landing on {owner}'s deeds, {payer}'s on {space} at event {seq}, owed nothing ({reason})",
            rule=rent_rule(state), allowed=_open_claims(state),
            owner=cl.owner, payer=cl.payer, space=space, seq=cl.landed_seq,
            reason=Fact(cl.basis, edition=state.edition))


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
