"""`decide(state, command) -> events`: the rules that turn a banker's command into facts.

Pure: no I/O, no clock.  A refusal raises RuleViolation naming the rule (seed file and section)
and what would be allowed instead.  Every amount is worked out here, never in `evolve`.

The rules are by part, each module registering the commands it decides (ledger/rules/
registry.py): turn.py (roll, jail), auction.py, claims.py, cards.py, buildings.py,
mortgages.py, trade.py, bankruptcy.py, debts.py, shortage.py, speedy.py, dealing.py,
ending.py, referee.py.  This module imports them once, so that each has registered its
commands, and dispatches.
"""

from __future__ import annotations

from collections.abc import Sequence

from banco.ledger.base.errors import RuleViolation, UsageError
from banco.ledger.base.text import msg
from banco.ledger.board.rule_sets import cited, shown, starting_cash
from banco.ledger.records import commands as c
from banco.ledger.records.reasons import reason
from banco.ledger.rules import (  # noqa: F401 - imported for the commands each registers
    auction,
    bankruptcy,
    buildings,
    cards,
    claims,
    dealing,
    debts,
    ending,
    mortgages,
    referee,
    shortage,
    speedy,
    trade,
    turn,
)
from banco.ledger.rules.dealing import check_dealt
from banco.ledger.rules.decision import Tx
from banco.ledger.rules.ending import maybe_end
from banco.ledger.rules.registry import HANDLERS
from banco.ledger.table.seats import check_names
from banco.ledger.table.state import BANK, State

R_CAPITAL = "002 §Preparazione"


def decide(state: State, command: c.Command) -> list[dict]:
    return decide_tx(state, command).events


def decide_tx(state: State, command: c.Command, seq: int | None = None) -> Tx:
    """`decide`, with its Tx: the events and the table after each (Tx.states).  `seq`: the
    seq the command's facts follow, when the table's own is not it (the audit decides on the
    table before the command's CommandRecorded, which folds to nothing but its seq: one copy
    of the table a command fewer); no rule reads the table's seq, they ask `tx.seq`.  The
    tables keep the seq of the one decided on (`Tx.done` sets the last one's): `decide`'s
    callers take the events, and the audit, which takes the tables, reads no table's seq but
    sets it where it compares a whole table (projections/audit/kept_tables.py)."""
    after_the_end = isinstance(command, referee.AFTER_THE_END)
    if state.ended and not after_the_end:
        result = msg("{player} wins", player=state.winner) if state.winner else msg("a tie")
        raise RuleViolation("the game is over ({result}); nothing more can be recorded",
                            rule=state.end_rule,
                            # no `banco` before them: the shell and the phones say this too
                            allowed=msg("`state`, `standings`, `log`, `audit`"),
                            result=result)
    if not after_the_end:  # a referee's correction may come at any time
        check_dealt(state, command)
    handler = HANDLERS[type(command)]
    tx = Tx(state, seq)
    handler(tx, command)
    maybe_end(tx)  # the time ran out and nothing is left to finish, or the last bankruptcy
    return tx


def start_game(players: Sequence[str], rules, edition: str, first_player: str | None = None,
               final: bool = False) -> list[dict]:
    """The events that open a game: seats, the rules in full, and each player's starting cash
    (by the number of players where the rule set says so, 002 §Preparazione).  `final`: a
    championship final or semi-final, where 000 FAQ 31 does not apply."""
    check_names(players)  # `new ""` is a name mistyped (exit 2) before it is a count (exit 1)
    if len(players) < 2:
        raise RuleViolation("a game needs at least two players", rule="004 §Inizio del gioco")
    if len(players) > rules.max_players:
        seats = msg("eight players sit at a table") if rules.max_players == 8 else msg(
            "the {rules} rules seat {n} players", rules=shown(rules), n=rules.max_players)
        raise RuleViolation("at most {seats}, not {count}",
                            rule=cited(rules, "players", "004 §Inizio del gioco"),
                            seats=seats, count=len(players))
    if final and rules.trades_two_left:
        raise UsageError("--final: the {rules} rules make no difference between preliminary games and finals (that is 000 FAQ 31, --rules championship)",
                         rules=shown(rules))
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
                                "reason": reason("starting_cash_for", n=len(players),
                                                 rule=cited(rules, "deal", R_CAPITAL))
                                if rules.starting_cash_by_players else reason("starting_cash")}})
    return events
