"""How a game ends: one player left (003 §11), or before that the time limit and the short
game's second bankruptcy, where the richest player wins (ledger/table/score.py counts).

- `time-up` (000 FAQ 6, 002 §Conclusione del gioco, 004 timed game) records the moment as a
  fact.  Championship: "il giocatore attivo finisce il proprio turno; dopodiché il gioco è
  concluso"; a doubles re-roll is a turn of its own (000 FAQ 11), so with no turn in progress
  the game ends at once.  Vintage and timed: the game ends at the hour agreed, at once.
- The short game ends at the second bankruptcy (004 short game 3).
- Either way a debt still owed is settled first (paid, or a bankruptcy): money owed at the
  end is not a count of its own (003 §10).
"""

from __future__ import annotations

from banco.ledger.base.errors import RuleViolation
from banco.ledger.base.text import msg
from banco.ledger.board.rule_sets import cited, shown
from banco.ledger.records import commands as c
from banco.ledger.records.reasons import reason
from banco.ledger.rules.decision import Tx
from banco.ledger.rules.registry import handles
from banco.ledger.table.score import places, winner
from banco.ledger.table.state import turn_in_progress

R_TIME = "000 FAQ 6; 002 §Conclusione del gioco"
R_LAST = "003 §11"  # one player left


@handles(c.TimeUp)
def time_up(tx: Tx, cmd: c.TimeUp) -> None:
    state = tx.state
    rules = state.rules
    if rules.time_limit == "none":
        raise RuleViolation(
            "the {rules} rules have no time limit: the game goes on until one player is left", rule=cited(rules, "end", "004 §Vincitore; 003 §11"),
            allowed=msg("a game with an agreed end time is `new ... --rules timed` (004), "
                    "`--rules vintage` (002) or `--rules championship` (000)"),
            rules=shown(rules))
    if state.time_up:
        if open_rent(state) and not turn_in_progress(state):
            # The banker closes the game: rent nobody asked for is lost, as it would be at
            # the next roll (003 §04); then the count (maybe_end, after this command).
            for cl in open_rent(state):
                tx.emit("RentClaimLapsed", owner=cl.owner, payer=cl.payer, property=cl.property,
                        amount=cl.amount, opened_seq=cl.opened_seq, closed_by="time")
            return
        raise RuleViolation("time was already up at {time_up}",
                            rule=cited(rules, "time", R_TIME), allowed=msg("the turn in progress, "
                            "then the game ends"),
                            time_up=state.time_up[0])
    after = rules.time_limit == "finish_turn" and turn_in_progress(state)
    how = (reason("turn_finishes", player=state.turn.player) if after
           else reason("ends_now"))
    tx.emit("TimeRanOut", at=cmd.at, ends="after_turn" if after else "at_once",
            rule=cited(rules, "time", R_TIME), reason=how)


def open_rent(state) -> list:
    """Rent claims still open and not yet made (a claim made during a turn in progress is
    settled when that turn is over, 000 FAQ 8)."""
    return [cl for cl in state.claims if not getattr(cl, "made_seq", 0)]


def no_new_turn(state) -> None:
    """Once the time is up and the turn in progress is over, nobody rolls again: the game
    waits only for rent still to be asked, then ends."""
    if state.time_up and not state.ended and not turn_in_progress(state):
        owners = ", ".join(dict.fromkeys(cl.owner for cl in open_rent(state)))
        raise RuleViolation(
            "time is up ({time}): no new turn begins; the game ends once the rent still open "
            "is asked", rule=cited(state.rules, "time", R_TIME),
            allowed=(msg("`claim OWNER` ({owners}), or `time-up` again to end the game and let "
                         "it go", owners=owners) if owners else "`time-up`"),
            time=state.time_up[0])


def _due(state, turn_over: bool) -> tuple[str, str, dict] | None:
    """(rule, reason's code, its parameters) when the game must end now, else None."""
    if state.ended or state.debts:
        return None
    rules = state.rules
    # (the players left are counted only once one has gone out: asked after every command,
    # so without the list of them state.active() makes, stopping at the second one)
    if state.eliminated:
        last = None
        for p in state.players:
            if not p.bankrupt:
                if last is not None:
                    break
                last = p.name
        else:
            if last is not None:
                return (cited(rules, "end", R_LAST), "last_player_left",
                        {"player": state.eliminated[-1], "winner": last})
    if state.time_up:
        at, ends = state.time_up
        if ends == "after_turn" and turn_in_progress(state) and not turn_over:
            return None
        if open_rent(state):
            # Rent a landing of the last turn opened is still to be asked: the owner's window
            # is open until the next roll, and no roll comes now; the count waits for it
            # (`claim OWNER`), or for `time-up` again, which lets it go.
            return None
        return cited(rules, "time", R_TIME), "time_up", {"at": at}
    n = rules.end_after_bankruptcies
    if n and len(state.eliminated) >= n:
        return cited(rules, "end", R_LAST), "bankruptcy_ends", {"n": len(state.eliminated)}
    return None


def maybe_end(tx: Tx, turn_over: bool = False) -> bool:
    """End the game if its time is up or its last bankruptcy has come; True if it ended.
    `turn_over`: the caller is passing the turn, so the turn in progress is over."""
    due = _due(tx.state, turn_over)
    if due is None:
        return False
    rule, why, params = due
    state = tx.state
    best = winner(state)
    ranked = places(state)
    if len(ranked) == 1:  # the last player left wins, whatever the count
        tx.emit("GameEnded", winner=best, reason=reason(why, **params), rule=rule)
        return True
    amount = ranked[0].count  # an integer: the edition prints it where it is said
    if best is not None:
        said = reason(f"{why}_richest", **params, player=best, amount=amount)
    else:  # the tied, as a list: cli/words/reasons.py says it in the user's language
        said = reason(f"{why}_tie", **params,
                      players=[p.name for p in ranked if p.place == 1], amount=amount)
    tx.emit("GameEnded", winner=best, reason=said, rule=rule)
    return True
