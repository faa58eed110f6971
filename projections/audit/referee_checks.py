"""What an audit checks of a referee's facts (ledger/rules/referee.py), as pure functions over the
table just before the fact, in the shape of the audit's per-event money checks:
`(table before, event data, previous event) -> problems`.

A referee's cash correction is a money fact of its own kind: no rule of the game gives its
amount, the referee does, so its amount is not checked against a figure.  What is checked is
what makes it a correction and not money from nowhere: it moves money between the Bank and
the one player it names, a whole positive amount, never more than the player holds, with the
referee's name and a reason, and the player is seated and in the game.
"""

from __future__ import annotations

from banco.ledger.base.text import Text, msg
from banco.ledger.table.state import BANK, State


def cash_correction_problems(t: State, d: dict, previous: dict | None = None) -> list[Text]:
    out = []
    player = d.get("player")
    if player not in t.index:
        return [msg("a referee's correction for {player!r}, who is not seated", player=player)]
    if t.player(player).bankrupt:
        out.append(msg("a referee's correction for {player}, who is out of the game",
                       player=player))
    sides = {d["payer"], d["payee"]}
    if sides != {BANK, player}:
        out.append(msg("a referee's correction moves money between {payer} and {payee}: a "
                       "correction goes between the Bank and {player}",
                       payer=d["payer"], payee=d["payee"], player=player))
    if d["amount"] <= 0:
        out.append(msg("a referee's correction of {amount}", amount=d["amount"]))
    if d["payer"] == player and t.player(player).cash < d["amount"]:
        out.append(msg("a referee's correction takes {amount} from {player}, who has {cash}",
                       amount=d["amount"], player=player, cash=t.player(player).cash))
    if not str(d.get("referee", "")).strip():
        out.append(msg("a correction that names no referee"))
    said = d.get("reason")
    if not str(said.get("said", "") if isinstance(said, dict) else said or "").strip():
        out.append(msg("a correction without a reason"))
    return out


# For the audit's table of money checks (event type -> check), when it has one.
MONEY_CHECKS = {"CashCorrected": cash_correction_problems}
