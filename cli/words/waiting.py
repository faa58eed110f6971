"""What the table waits for, in the banker's words: the shell's prompt and the `next:` line.

Both are pure functions of the table, so that the shell, `run` and the phones' pages (cli/web)
say the same thing: `next_words(state)` is a message to render in any language
(ledger/base/text.py's render), `prompt_text(state)` is the prompt in the session's language.
Open rent claims are in both: a banker who types the next roll without seeing one lets the
rent lapse (issue 20)."""

from __future__ import annotations

from banco.cli.words.i18n import _, ngettext
from banco.ledger.base.text import Joined, Text, msg
from banco.ledger.table.state import State, dealing_left, next_step


def open_claims(state: State) -> list:
    """The rent claims an owner may still make: open, not yet claimed (a claim made during
    another roll's turn waits to be paid, it needs no reminder)."""
    if state.ended:
        return []
    return [cl for cl in state.claims if not cl.made_seq]


def claims_words(state: State) -> Text | None:
    """`Bruno may claim 450 M from Anna (`claim Bruno`, before Carla rolls)`, one per claim."""
    claims = open_claims(state)
    if not claims:
        return None
    money = state.edition.money
    return Joined([msg("{owner} may claim {amount} from {payer} (`claim {owner}`, before "
                       "{closer} rolls)", owner=cl.owner, amount=money(cl.amount),
                       payer=cl.payer, closer=cl.closer) for cl in claims], "; ")


def next_words(state: State) -> Text | str:
    """The `next:` line's words (without `next: `): what the table waits for, then the open
    rent claims.  The web renders it per language, the shell and `run` in the session's."""
    step = next_step(state)
    claims = claims_words(state)
    if claims is None or "`claim" in str(step):  # time-up already names the owners
        return step
    return msg("{step}; rent: {claims}", step=step, claims=claims)


def _claims_tag(state: State) -> str:
    """`; Bruno may claim 450 M` for the prompt: short, but an amount is money, said with its
    currency as everywhere else (`450` alone read as a count)."""
    claims = open_claims(state)
    if not claims:
        return ""
    money = state.edition.money
    said = [_("{owner} may claim {amount}").format(owner=cl.owner, amount=money(cl.amount))
            for cl in claims[:2]]
    more = len(claims) - len(said)
    if more:
        said.append(ngettext("{n} more", "{n} more", more).format(n=more))
    return "; " + ", ".join(said)


def prompt_text(state: State) -> str:
    """What the table waits for, in a few words: `Anna (buy)> `, `auction Stazione Sud: Bruno
    leads 120 M> `, `Carla owes 300 M> `, `Anna (roll; Bruno may claim 450 M)> `: every
    amount with the edition's currency."""
    t = state.turn
    money = state.edition.money
    if state.ended:
        return (_("game over, {winner} won> ").format(winner=state.winner) if state.winner
                else _("game over> "))
    left = dealing_left(state)
    if left:  # 002 §Preparazione: no roll before the deeds are dealt, as `next:` says
        return _("deal: {who}> ").format(who=", ".join(f"{n} {k}" for n, k in left))
    if state.debts:
        d = state.debts[0]
        return _("{debtor} owes {amount}> ").format(debtor=d.debtor, amount=money(d.amount))
    if state.auction:
        a = state.auction
        what = (_("auction {space}").format(space=state.edition.space(a.property).name)
                if a.kind == "deed" and a.property is not None else _("auction"))
        if a.high_bidder:
            return _("{auction}: {player} leads {amount}> ").format(
                auction=what, player=a.high_bidder, amount=money(a.high_bid))
        return _("{auction}: bids from {amount}> ").format(auction=what, amount=money(a.min_bid))
    return _("{player} ({waiting})> ").format(player=t.player,
                                              waiting=_waiting(state) + _claims_tag(state))


def _waiting(state: State) -> str:
    """The current player's phase, in the words of the prompt (`buy`, `in jail`, `card
    Imprevisti`)."""
    t = state.turn
    if t.phase == "card":
        return _("card {deck}").format(deck=state.edition.decks[t.card_deck].title)
    if t.phase == "choice":
        return _("pay or draw")
    if t.phase == "roll" and state.current.in_jail:
        return _("in jail")
    if t.phase == "move":  # the Bus of the Speedy die
        from banco.ledger.table.speedy_die import choices_of

        return _("bus: move {ways}").format(ways=_(" or ").join(map(str, choices_of(t))))
    if t.phase == "go":
        return _("triple: go SPACE")
    if t.phase == "advance":
        return _("Mr Monopoly: advance")
    if t.phase == "roll" and state.rules.speedy_die and state.current.passed_go:
        return _("roll D1 D2 S")
    from banco.cli.words.table_text import PHASES

    return _(PHASES[t.phase]) if t.phase in PHASES else t.phase
