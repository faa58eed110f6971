"""What a recorded command says, as lines: rendered from its facts, in the language of the
call (cli/words/i18n.py's context), never printed here.  The command line prints these lines
(cli/session.py's report), the library's `Outcome.say(lang)` joins them, the phones' server
sends them."""

from __future__ import annotations

from typing import NamedTuple

from banco.cli.words.facts import narrate, nothing_to_pay
from banco.cli.words.i18n import N_, _, say, say_error
from banco.cli.words.table_lines import head_line_text

# What `hammer` will do if nobody bids: said when an auction opens, and by the banker's page
# before a hammer with no bid (cli/web/hub.py)
IF_NO_BID = N_("  if nobody bids: {step}")


class Line(NamedTuple):
    text: str
    error: bool = False  # said on stderr by the command line: a refusal and its evidence


def span(rows) -> str:
    seqs = [r["seq"] for r in rows]
    if not seqs:
        return _("no events")
    return (_("event {seq}").format(seq=seqs[0]) if len(seqs) == 1
            else _("events {first}-{last}").format(first=seqs[0], last=seqs[-1]))


def outcome_lines(outcome) -> list[Line]:
    """A book's Outcome (ledger/book.py) as the lines a banker reads: a refusal that left
    evidence first, a retry said as one, each fact narrated, what a hammer with no bid would
    do, and a finished game's head line."""
    lines: list[Line] = []
    if outcome.refused and not outcome.replayed:
        lines += refusal_lines(outcome)
        return lines
    if outcome.replayed:
        lines.append(Line(_("already recorded ({events}): nothing new was appended")
                          .format(events=span(outcome.events))))
    for e in outcome.events:
        if e["type"] == "CommandRecorded":
            continue
        for text in (narrate(e, outcome.state), nothing_to_pay(e, outcome.events, outcome.state)):
            if text:
                lines.append(Line(text))
    if outcome.refused:  # a retry of a refused command is a refusal again
        lines.append(Line(say_error(outcome.refused), error=True))
        return lines
    no_bid = said_no_bid(outcome)
    if no_bid:
        lines.append(Line(no_bid))
    if any(e["type"] == "GameEnded" for e in outcome.events) and outcome.events:
        last = outcome.events[-1]  # the game is over: its head for the score sheet
        lines.append(Line(head_line_text(outcome.game_id, last["seq"], last["hash"])))
    return lines


def refusal_lines(outcome) -> list[Line]:
    """A refusal that is recorded (a late rent claim, kept as evidence) is said as a refusal
    first: `late claim recorded as event 25` on the first line read like a payment."""
    lines = [Line(say_error(outcome.refused), error=True)]
    for e in outcome.events:
        if e["type"] == "CommandRecorded":
            continue
        if e["type"] == "RentClaimRefused":
            lines.append(Line(_("  the refusal is recorded as evidence (event {seq}): {owner} "
                                "asked {payer} for {amount}").format(
                seq=e["seq"], owner=e["data"]["owner"], payer=e["data"]["payer"],
                amount=outcome.state.edition.money(e["data"]["amount"])), error=True))
            continue  # on stderr with the refusal it belongs to, read in that order
        text = narrate(e, outcome.state)
        if text:
            lines.append(Line(text))
    return lines


def said_no_bid(outcome) -> str | None:
    """An auction just opened: what `hammer` will do if nobody bids (the deed to the richest
    at the opening bid, or to the Bank), said on the line that opened it, before a `hammer`
    typed in haste gives a deed away for 1 M."""
    st = outcome.state
    if st.auction is None or st.auction.high_bidder is not None \
            or not any(e["type"] == "AuctionOpened" for e in outcome.events):
        return None
    from banco.ledger.table.state import hammer_step

    return _(IF_NO_BID).format(step=say(hammer_step(st)))
