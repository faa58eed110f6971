"""Whose act a typed command is, and whether a phone may record it (`banco serve`, issue 34).

A player with a paired phone records his own acts: on his turn his roll, buy or decline, the
jail choices, the card he drew and the pay-or-draw answer, his debt and his bankruptcy; at any
time his bids, his claims, building, selling, mortgaging and lifting his own deeds, and a trade
he is a side of (held for the other side: cli/web/offers.py).  Everything else (`hammer`,
`undo`, corrections, an act for another player) stays the banker's.  `serve --banker-only`
leaves a player his claims alone, as before.

The check reads the typed command (ledger/records/commands.py) the line was parsed into, and
the table it is decided on: the player an act is for is the one decide will act for (`buy`
with no name is the turn's player's; `pay` with none the first debtor's), so no spelling,
alias or `--lang` reaches another player's act.  The library (cli/library.py's execute) runs
the check `acting` gives before anything is decided.
"""

from __future__ import annotations

from collections.abc import Callable

from banco.cli.words.i18n import N_
from banco.ledger.base.errors import EXIT_REFUSED, BancoError
from banco.ledger.records import commands as c

# acts of the turn: for the named player, else for the one whose turn it is
TURN = (c.Roll, c.BusMove, c.GoTo, c.Advance, c.Buy, c.Decline, c.PayFine, c.UseCard,
        c.DrawCard)
ESTATE = (c.Build, c.Sell, c.Mortgage, c.Unmortgage)
EVENLY = (c.BuildTo, c.SellTo)

class NotPermitted(BancoError):
    """The caller may not record this command (a player's phone acting for another player):
    raised by the check before anything is appended; answered 403."""

    exit_code = EXIT_REFUSED


NOT_HIS = N_("{player}'s phone records {player}'s own acts: this one is {other}'s, for the "
             "banker")
BANKERS = N_("this act is the banker's to record, not {player}'s")
CLAIMS_ONLY = N_("{player}'s phone claims rent and answers trades: the banker records the rest "
                 "(the server was started with --banker-only)")


def acts_for(command, state) -> tuple[str, ...] | None:
    """The players a command acts for, or None for an act that is the banker's alone."""
    if isinstance(command, TURN):
        return (command.player or state.turn.player,)
    if isinstance(command, c.Bid):
        return (command.bidder,)
    if isinstance(command, c.Claim):
        return (command.owner,)
    if isinstance(command, (c.PayDebt, c.PayInKind)):
        if command.debtor is not None:
            return (command.debtor,)
        return (state.debts[0].debtor,) if state.debts else (state.turn.player,)
    if isinstance(command, c.Bankrupt):
        debtors = sorted({d.debtor for d in state.debts})
        if command.debtor is not None:
            return (command.debtor,)
        return (debtors[0],) if len(debtors) == 1 else None  # "say who": the banker's
    if isinstance(command, ESTATE):
        owner = state.owners[command.property]
        return ((command.player,) if command.player else ()) + (owner,)
    if isinstance(command, EVENLY):
        owners = tuple(state.owners[p] for p in command.properties)
        return ((command.player,) if command.player else ()) + owners
    if isinstance(command, c.Trade):
        return (command.a, command.b)
    return None


def check(role: str, player: str | None, command, state, *, banker_only: bool) -> None:
    """Raise NotPermitted unless this token may record `command` on this table."""
    if role != "player":
        return  # the banker sees and may do everything; cli/web/permissions.py kept the rest out
    from banco.ledger.base.text import msg

    whose = None if command is None else acts_for(command, state)
    if banker_only and not isinstance(command, c.Claim):
        raise NotPermitted(msg(CLAIMS_ONLY, player=player))
    if whose is None:
        raise NotPermitted(msg(BANKERS, player=player))
    if isinstance(command, c.Trade):
        if player in whose:
            return  # a side offering: the other side answers (cli/web/offers.py)
        raise NotPermitted(msg(NOT_HIS, player=player, other=" & ".join(whose)))
    others = [w for w in whose if w != player]
    if others:
        raise NotPermitted(msg(NOT_HIS, player=player, other=others[0] or "?"))


def as_referee(name: str, command) -> None:
    """A named referee's token (`token referee NAME`) records as its referee only: the typed
    correction's or ruling's referee (cli/web/permissions.py decides it on the same command
    before the line runs; a script's own Library calls get it here)."""
    from banco.cli.web.permissions import AS_REFEREE, records_as
    from banco.ledger.base.text import msg

    if not records_as(name, command):
        raise NotPermitted(msg(AS_REFEREE, name=name))


def acting(role: str | None, player: str | None, *,
           banker_only: bool) -> tuple[str, Callable | None]:
    """Who a phone's line is recorded by (`actor`: the player, for a player's token) and the
    check the library runs on its typed command before anything is decided (its `authorize`;
    None: the banker's, or a held trade both sides accepted, run with its offerer's name)."""
    if role == "referee" and player is not None:  # a named referee's token: as him only
        return "banker", lambda command, table: as_referee(player, command)
    if role != "player":
        return "banker", None
    # on the table the library decides the command on, never one read before it: another
    # writer between the two could make `buy` or `roll` another player's act
    return player, lambda command, table: check(role, player, command, table,
                                                banker_only=banker_only)
