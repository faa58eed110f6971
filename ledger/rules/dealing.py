"""Deeds dealt by lot before the first roll, each paid to the Bank at its price at once.

002 §Preparazione: "La distribuzione dei contratti viene effettuata dalla Banca, alla quale
ciascun giocatore, prima dell'inizio del gioco, dovrà pagare l'importo dei prezzi segnati sui
contratti stessi" (7, 6, 5, 4 or 3 each by the number of players); the short game (004, "Regole
del gioco breve" 1) and the time-limited game deal two each.  The physical deck is shuffled at
the table; banco records what each player was dealt (`deal PLAYER PROPERTY...`, in any order
and in as many lines as the banker likes) and nothing else happens until every player has his.
"""

from __future__ import annotations

from banco.ledger.base.errors import RuleViolation
from banco.ledger.base.text import msg
from banco.ledger.board.rule_sets import cited, deeds_to_deal, shown
from banco.ledger.records import commands as c
from banco.ledger.records.reasons import reason
from banco.ledger.rules.decision import Tx, check_active, money
from banco.ledger.rules.registry import handles
from banco.ledger.table.state import BANK, State, dealing_left

R_DEAL = "002 §Preparazione; 004 §Regole del gioco breve"


def rule(state: State) -> str:
    return cited(state.rules, "deal", R_DEAL)


@handles(c.Deal)
def deal(tx: Tx, cmd: c.Deal) -> None:
    state = tx.state
    due = deeds_to_deal(state.rules, len(state.seats))
    if not due:
        raise RuleViolation("the {rules} rules deal no deeds: they are bought on landing", rule=cited(state.rules, "buy", "004 §Acquisto di proprietà"),
                            allowed=msg("`roll D1 D2`"),
                            rules=shown(state.rules))
    check_active(state, cmd.player, msg("be dealt deeds"))
    have = state.dealt.get(cmd.player, 0)
    if have >= due:
        raise RuleViolation("{player} has been dealt all {due} deeds", rule=rule(state),
                            allowed=_still(state),
                            player=cmd.player, due=due)
    names = [state.edition.space(p).name for p in cmd.properties]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise RuleViolation("{twice} is named twice: each deed is dealt once",
                            rule=rule(state), allowed=_still(state),
                            twice=twice[0])
    if have + len(cmd.properties) > due:
        raise RuleViolation(
            "{player} is dealt {due} deeds in all; {have} dealt, so {amount} more, not {count}", rule=rule(state), allowed=_still(state),
            player=cmd.player, due=due, have=have, amount=due - have, count=len(cmd.properties))
    for pos, name in zip(cmd.properties, names, strict=True):
        owner = state.owners[pos]
        if owner is not None:
            raise RuleViolation("{name} has already been dealt to {owner}", rule=rule(state),
                                allowed=msg("a deed still in the Bank's deck"),
                                name=name, owner=owner)
    price = sum(state.edition.space(p).price for p in cmd.properties)
    cash = state.player(cmd.player).cash
    if price > cash:  # a house-rules capital can be too small for the deeds dealt
        raise RuleViolation("{player} has {cash} and the deeds cost {price}: they are paid at once", rule=rule(state),
                            player=cmd.player, cash=money(state, cash), price=money(state, price))
    each = [{"space": p, "price": state.edition.space(p).price} for p in cmd.properties]
    tx.emit("DeedsDealt", player=cmd.player, properties=list(cmd.properties), payer=cmd.player,
            payee=BANK, amount=price, reason=reason("deeds_dealt", deeds=each))


def _still(state: State) -> str:
    # a message, not a plain string: it came out in English on an Italian line
    left = dealing_left(state)
    if not left:
        return msg("every player has been dealt the deeds: `roll D1 D2`")
    return msg("still to deal: {who}", who=", ".join(f"{n} {k}" for n, k in left))


def check_dealt(state: State, command) -> None:
    """Nothing but `deal` until every player has his deeds: "prima dell'inizio del gioco"."""
    rules = state.rules
    if isinstance(command, c.Deal) or not (rules.deeds_dealt or rules.deeds_dealt_by_players):
        return  # (asked before every command: most rule sets deal nothing)
    left = dealing_left(state)
    if left:
        raise RuleViolation("the deeds are dealt and paid before the game begins",
                            rule=rule(state), allowed=msg("`deal PLAYER PROPERTY...`; {still}", still=_still(state)))
