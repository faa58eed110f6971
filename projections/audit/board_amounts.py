"""The audit's amount rules for what the board pays and charges: starting cash, the Via!
salary, taxes, the jail fine, a move's salary.
"""

from __future__ import annotations

from banco.ledger.base.text import msg
from banco.ledger.table.state import BANK, State
from banco.projections.audit.amount_basis import expect, rules_of, sides, starting_cash

_STARTING_CASH = msg("starting cash")
_SALARY = msg("the Via! salary")
_JAIL_FINE = msg("the jail fine")
_BOARD = msg("the board")


def cash_issued(t: State, d: dict, prev) -> list[str]:
    return (sides(d, BANK, d["payee"], _STARTING_CASH)
            + expect(t, lambda: msg("starting cash for {player}", player=d["payee"]),
                     d["amount"], starting_cash(t), lambda: rules_of(t)))


def salary(t: State, d: dict, prev) -> list[str]:
    out = sides(d, BANK, d["payee"], _SALARY)
    out += expect(t, lambda: msg("the Via! salary to {player}", player=d["payee"]), d["amount"],
                  t.rules.go_salary, lambda: rules_of(t))
    if not (prev and prev["type"] == "TokenMoved" and prev["data"]["player"] == d["payee"]
            and prev["data"]["passed_go"]):
        out.append(msg("a Via! salary to {player} without a move past Via! just before it",
                       player=d["payee"]))
    return out


def tax(t: State, d: dict, prev) -> list[str]:
    if d["payer"] not in t.index:
        return []  # the books name the account
    space = t.edition.space(t.player(d["payer"]).position)
    if space.kind != "tax":
        return [msg("tax paid by {player} on {space}, which is not a tax square",
                    player=d["payer"], space=space.name)]

    def what():
        return msg("the tax on {space}", space=space.name)
    return (sides(d, d["payer"], BANK, what)
            + expect(t, what, d["amount"], space.amount, _BOARD))


def fine(t: State, d: dict, prev) -> list[str]:
    out = sides(d, d["payer"], BANK, _JAIL_FINE)
    if d["payer"] in t.index and not t.player(d["payer"]).in_jail:
        out.append(msg("a jail fine paid by {player}, who is not in jail", player=d["payer"]))
    return out + expect(t, _JAIL_FINE, d["amount"], t.rules.jail_fine, lambda: rules_of(t))


def moved(t: State, d: dict, prev) -> list[str]:
    """A move starts where the token stands and ends `spaces` further on; only a forward move
    that reaches or passes square 0 passes Via! (what a salary rests on)."""
    if d["player"] not in t.index:
        return []
    out: list[str] = []
    at = t.player(d["player"]).position
    if d["from"] != at:
        out.append(msg("{player} moves from square {start} but stands on {at}",
                       player=d["player"], start=d["from"], at=at))
    if d["to"] != (d["from"] + d["spaces"]) % 40:
        out.append(msg("{player} moves {spaces} from {start} and lands on {end}",
                       player=d["player"], spaces=d["spaces"], start=d["from"], end=d["to"]))
    if d["passed_go"] and d["from"] + d["spaces"] < 40:
        out.append(msg("{player} passes Via! moving {spaces} from square {start}",
                       player=d["player"], spaces=d["spaces"], start=d["from"]))
    return out
