"""What an `undo` takes back, said in the table's words ("Bruno gets back 220 M; Via Roma is
mortgaged again"): the event types it retracts tell a banker nothing (issue 20).  The money
is said from the facts it retracts, each transfer reversed (a trade's fee to the Bank is not
the other player's: the last trial), the rest from the table before and after it."""

from __future__ import annotations

from banco.cli.words import i18n
from banco.cli.words.facts import space_name
from banco.cli.words.i18n import _, ngettext
from banco.ledger.table.state import BANK, State


def taken_back(before: State, after: State, catalog=None,
               facts: list[dict] | None = None) -> list[str]:
    """The differences `undo` makes, one phrase each: money, deeds (each once, all its changes
    in one phrase), tokens, an auction, whose turn.  `catalog`: the gettext translations to say
    them with (a server speaks each page's language); None, the user's language.  `facts`: the
    rows the undo retracts, whose transfers it reverses; without them (a preview) the money
    is read from the two tables' cash."""
    _ = catalog.gettext if catalog is not None else i18n._
    ngettext = catalog.ngettext if catalog is not None else i18n.ngettext
    money = after.edition.money
    said: list[str] = []
    was = {p.name: p for p in before.players}
    if before.ended and not after.ended:  # the bankruptcy (or the count) that ended it
        said.append(_("the game is open again"))
    for p in after.players:
        old = was.get(p.name)
        if old is None:
            continue
        if old.bankrupt and not p.bankrupt:
            said.append(_("{player} is back in the game").format(player=p.name))
    moved = _reversed(facts, before, after) if facts is not None else None
    for giver, taker, amount in moved if moved is not None else _transfers(before, after):
        if giver is None:
            said.append(_("{player} gets back {amount}").format(player=taker,
                                                                 amount=money(amount)))
        elif taker is None:
            said.append(_("{player} gives back {amount}").format(player=giver,
                                                                  amount=money(amount)))
        else:
            said.append(_("{player} gives {amount} back to {other}").format(
                player=giver, amount=money(amount), other=taker))
    cards = _cards_reversed(facts, before, after) if facts is not None else None
    for giver, taker, n in cards if cards is not None else _card_changes(before, after):
        if giver is None:  # from its deck (a card kept, taken back) or the Bank's estate
            said.append(ngettext("{player} gets back {n} jail card",
                                 "{player} gets back {n} jail cards", n).format(
                player=taker, n=n))
        elif taker is None:
            said.append(ngettext("{player} gives back {n} jail card",
                                 "{player} gives back {n} jail cards", n).format(
                player=giver, n=n))
        else:  # a trade's card: one phrase, not `Anna gets back 1; Bruno gives back 1`
            said.append(ngettext("{player} gives {n} jail card back to {other}",
                                 "{player} gives {n} jail cards back to {other}", n).format(
                player=giver, n=n, other=taker))
    for s in after.edition.properties:
        parts = _deed_changes(before, after, s.position, _, ngettext)
        if parts:  # a deed named once, however many of its changes an undo takes back
            said.append(", ".join(parts))
    for p in after.players:
        old = was.get(p.name)
        if old is not None and p.position != old.position:
            said.append(_("{player} goes back to {space}").format(
                player=p.name, space=space_name(after, p.position)))
    bank = _("the Bank")
    for d in before.debts:  # a claim that left a debt, taken back: the debt goes with it
        if d not in after.debts:
            said.append(_("{debtor}'s debt of {amount} to {creditor} is cancelled").format(
                debtor=d.debtor, amount=money(d.amount),
                creditor=bank if d.creditor == BANK else d.creditor))
    for d in after.debts:  # a payment taken back: the debt stands again
        if d not in before.debts:
            said.append(_("{debtor} owes {creditor} {amount} again").format(
                debtor=d.debtor, amount=money(d.amount),
                creditor=bank if d.creditor == BANK else d.creditor))
    choice = after.turn.card_choice
    if choice is not None and before.turn.card_choice is None:  # `draw` or `pay` taken back
        said.append(_("{player} chooses again: pay or draw (card {deck} {number})").format(
            player=after.turn.player, deck=after.edition.decks[choice[0]].word,
            number=choice[1]))
    a, b = after.auction, before.auction
    if a is not None and b is not None and (a.high_bidder, a.high_bid) != (b.high_bidder,
                                                                          b.high_bid):
        said.append(_("no bid stands any more: bids from {amount}").format(
                        amount=money(a.min_bid)) if a.high_bidder is None
                    else _("{player} leads the auction again at {amount}").format(
                        player=a.high_bidder, amount=money(a.high_bid)))
    if before.auction is not None and after.auction is None and after.turn.phase == "buy" \
            and after.turn.offer is not None:  # `decline` taken back: the choice, not an auction
        said.append(_("{player} chooses again: buy or decline {deed}").format(
            player=after.turn.player, deed=space_name(after, after.turn.offer)))
    elif before.auction is not None and after.auction is None:
        said.append(_("no auction is open any more"))
    elif after.auction is not None and before.auction is None:
        said.append(_("the auction is open again"))
    if after.turn.player != before.turn.player and not after.ended:
        said.append(_("it is {player}'s turn again").format(player=after.turn.player))
    return said


def _deed_changes(before: State, after: State, pos: int, _, ngettext) -> list[str]:
    """One deed's changes: the first with its name (`Vicolo Stretto is Anna's again`), the
    others after it without (`mortgaged again`): a trade with --lift taken back named the
    deed twice."""
    name = space_name(after, pos)
    parts: list[str] = []
    if after.owners[pos] != before.owners[pos]:
        parts.append(_("{deed} goes back to the Bank").format(deed=name)
                     if after.owners[pos] is None
                     else _("{deed} is {owner}'s again").format(deed=name,
                                                                owner=after.owners[pos]))
    if (pos in after.mortgaged) != (pos in before.mortgaged):
        if parts:
            parts.append(_("mortgaged again") if pos in after.mortgaged
                         else _("no longer mortgaged"))
        else:
            parts.append(_("{deed} is mortgaged again").format(deed=name)
                         if pos in after.mortgaged
                         else _("{deed} is no longer mortgaged").format(deed=name))
    level = after.buildings[pos]
    if level != before.buildings[pos]:
        if parts:
            parts.append(_("with a hotel again") if level == 5
                         else _("with no buildings again") if level == 0
                         else ngettext("with {n} house again", "with {n} houses again",
                                       level).format(n=level))
        else:
            parts.append(_("{deed} has a hotel again").format(deed=name) if level == 5
                         else _("{deed} has no buildings again").format(deed=name) if level == 0
                         else ngettext("{deed} has {n} house again",
                                       "{deed} has {n} houses again", level).format(deed=name,
                                                                                   n=level))
    return parts


def _reversed(facts: list[dict], before: State,
              after: State) -> list[tuple[str | None, str | None, int]] | None:
    """The money an undo moves, from the facts it retracts: each transfer reversed (its payee
    gives back to its payer; None is the Bank), the same two accounts' transfers summed, in
    the order they were made.  None when they do not account for every player's cash
    change (then the two tables' cash are read): the words never say money that did not
    move."""
    from banco.ledger.records.events import transfers_of
    from banco.ledger.records.upcast import upcast_row

    moved: dict[tuple[str | None, str | None], int] = {}
    for row in facts:
        for t in transfers_of(upcast_row(row)):
            giver = None if t["payee"] == BANK else t["payee"]
            taker = None if t["payer"] == BANK else t["payer"]
            if giver != taker and t["amount"]:
                moved[(giver, taker)] = moved.get((giver, taker), 0) + t["amount"]
    change = _net(moved)
    was = {p.name: p.cash for p in before.players}
    cash = {p.name: p.cash - was[p.name] for p in after.players
            if p.name in was and p.cash != was[p.name]}
    if {n: d for n, d in change.items() if d} != cash:
        return None
    return [(giver, taker, amount) for (giver, taker), amount in moved.items()]


def _net(moved: dict[tuple[str | None, str | None], int]) -> dict[str, int]:
    """Each player's net change from (giver, taker) -> count movements (None: a deck or the
    Bank, whose own change is not said)."""
    change: dict[str, int] = {}
    for (giver, taker), n in moved.items():
        if giver is not None:
            change[giver] = change.get(giver, 0) - n
        if taker is not None:
            change[taker] = change.get(taker, 0) + n
    return change


def _cards_reversed(facts: list[dict], before: State,
                    after: State) -> list[tuple[str | None, str | None, int]] | None:
    """The get-out-of-jail cards an undo moves, from the facts it retracts, each movement
    reversed (None: a deck, or the Bank that took a bankrupt's estate).  None when they do
    not account for every player's change of cards (then each player's change is said)."""
    from banco.ledger.records.upcast import upcast_row

    moved: dict[tuple[str | None, str | None], int] = {}
    for row in facts:
        t, d = row["type"], upcast_row(row)["data"]
        if t == "TradeCompleted":
            went = [(d["a"], d["b"], len(d["a_gives"]["jail_cards"])),
                    (d["b"], d["a"], len(d["b_gives"]["jail_cards"]))]
        elif t == "EstateTransferred":
            went = [(d["debtor"], None if d["creditor"] == BANK else d["creditor"],
                     len(d.get("jail_cards", ())))]
        elif t == "JailCardKept":
            went = [(None, d["player"], 1)]
        elif t == "JailCardUsed":
            went = [(d["player"], None, 1)]
        else:
            continue
        for giver, taker, n in went:  # reversed: who got it gives it back
            if n and giver != taker:
                moved[(taker, giver)] = moved.get((taker, giver), 0) + n
    change = _net(moved)
    if {name: d for name, d in change.items() if d} != dict(_card_counts(before, after)):
        return None
    return [(giver, taker, n) for (giver, taker), n in moved.items()]


def _card_counts(before: State, after: State) -> list[tuple[str, int]]:
    """Each player's change of get-out-of-jail cards, in seat order (those that change)."""
    was = {p.name: len(p.jail_cards) for p in before.players}
    return [(p.name, len(p.jail_cards) - was[p.name]) for p in after.players
            if p.name in was and len(p.jail_cards) != was[p.name]]


def _card_changes(before: State, after: State) -> list[tuple[str | None, str | None, int]]:
    """Without the facts (a preview from two tables), each player's change said alone."""
    return [(None, name, n) if n > 0 else (name, None, -n)
            for name, n in _card_counts(before, after)]


def _transfers(before: State, after: State) -> list[tuple[str | None, str | None, int]]:
    """The money an undo moves, one (giver, taker, amount) a transfer: a rent taken back is
    `Bruno gives 4 M back to Anna`, one line, not `Bruno gives back 4 M; Anna gets back 4 M`
    (the trial's two lines for one movement).  Read from the two tables' cash: a giver and a
    taker of the same amount are one transfer; what is left, when it nets out between the
    players (a card's `10 from each player`), is split in seat order; else each player's
    change is said alone (the Bank the other side: no transfer is made up)."""
    was = {p.name: p.cash for p in before.players}
    change = [(p.name, p.cash - was[p.name]) for p in after.players
              if p.name in was and p.cash != was[p.name]]
    givers = [[n, -d] for n, d in change if d < 0]
    takers = [[n, d] for n, d in change if d > 0]
    out: list[tuple[str | None, str | None, int]] = []
    for g in givers:
        same = next((t for t in takers if t[1] == g[1]), None)
        if same is not None:
            out.append((g[0], same[0], g[1]))
            takers.remove(same)
            g[1] = 0
    givers = [g for g in givers if g[1]]
    if givers and sum(g[1] for g in givers) == sum(t[1] for t in takers):
        for g in givers:
            for t in takers:
                moved = min(g[1], t[1])
                if moved:
                    out.append((g[0], t[0], moved))
                    g[1] -= moved
                    t[1] -= moved
        return out
    out += [(g[0], None, g[1]) for g in givers] + [(None, t[0], t[1]) for t in takers]
    return out


def undone_line(seqs: list[int], line: str | None, before: State, after: State,
                facts: list[dict] | None = None) -> str:
    """`undone: `buy` (events 23-25): Anna gets back 200 M; Stazione Sud goes back to the Bank`.
    `facts`: the rows retracted (their transfers are what is said given back)."""
    from banco.ledger.base.numbers import ranges

    what = f"`{line}`" if line else _("the last command")
    events = ngettext("event {seqs}", "events {seqs}", len(seqs)).format(seqs=ranges(seqs))
    changes = taken_back(before, after, facts=facts)
    return _("undone: {what} ({events}): {changes}").format(
        what=what, events=events,
        changes="; ".join(changes) if changes else _("nothing on the table changes"))
