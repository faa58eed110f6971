"""What a decided command says: its outcome's facts as the banker reads them, the lines in
order, each for the answer or for the errors, and the exit code.  No click and no printing:
the click commands print these lines (cli/session.py's tell), cli/execution.py returns them
as text.  Said in the language the caller speaks (cli/words' catalogs)."""

from __future__ import annotations

from typing import NamedTuple

from banco.cli.words.i18n import N_, _, say

# facts whose narration already says what the table waits for next
NEXT_SAID = frozenset({"TurnEnded", "ExtraRollDue", "GameEnded"})
# after these, whose facts leave the turn where it was, the answer says what follows (a deal:
# the deeds still to deal, or after the last whose roll it is, as docs/banker.md promises)
FOLLOWED = frozenset({"PayDebt", "PayInKind", "Bankrupt", "Deal"})

# What `hammer` will do if nobody bids: said when an auction opens, and by the banker's page
# before a hammer with no bid (cli/web/hub.py)
IF_NO_BID = N_("  if nobody bids: {step}")
ROLLS_AFTER_DEBT = N_("  {player} rolls once this debt is settled: {step}")


class Answer(NamedTuple):
    lines: list[tuple[bool, str]]  # (an error line?, the text), in the order said
    refusal: Exception | None = None  # what refused the command (its exit code below)
    code: int = 0


def answer(command, outcome, before=None, taken=()) -> Answer:
    """The words of `command`'s outcome (ledger/book.py's Outcome); `before`: the table before
    it, and `taken` the rows it retracted, for `undo`'s words."""
    from banco.cli.lines.turn import Undo  # (the commands are not imported for a reading)

    lines: list[tuple[bool, str]] = []
    if isinstance(command, Undo) and not (outcome.replayed or outcome.refused):
        lines += undone(outcome, before, taken)
    else:
        said = outcome_lines(outcome)
        lines += said.lines
        if said.refusal is not None:
            return said
        if type(command).__name__ in FOLLOWED:
            lines += [(False, line) for line in what_follows(outcome)]
    if isinstance(command, Undo):
        from banco.cli.words.table_lines import turn_line

        lines.append((False, turn_line(outcome.state)))
    return Answer(lines)


def refused(exc, command=None) -> Answer:
    """A command the book refused (a BancoError: its rule, or a usage mistake), as said."""
    from banco.cli.lines.turn import refusal_said
    from banco.cli.words.i18n import say_error

    exc = refusal_said(command, exc)
    return Answer([(True, say_error(exc))], exc, exc.exit_code)


def outcome_lines(outcome) -> Answer:
    """The facts appended, narrated; a refusal that left evidence (a late rent claim) said as
    a refusal first, then what was recorded."""
    from banco.cli.words.facts import narrate, nothing_to_pay

    if outcome.refused and not outcome.replayed:
        return refused_first(outcome)
    lines: list[tuple[bool, str]] = []
    if outcome.replayed:
        lines.append((False, _("already recorded ({events}): nothing new was appended")
                      .format(events=span(outcome.events))))
    for e in outcome.events:
        if e["type"] == "CommandRecorded":
            continue
        for line in (narrate(e, outcome.state),
                     nothing_to_pay(e, outcome.events, outcome.state)):
            if line:
                lines.append((False, line))
    if outcome.refused:
        return Answer([*lines, *refused(outcome.refused).lines], outcome.refused,
                      outcome.refused.exit_code)
    lines += [(False, line) for line in no_bid_lines(outcome)]
    lines += [(False, line) for line in debt_first_lines(outcome)]
    if any(e["type"] == "GameEnded" for e in outcome.events) and outcome.events:
        from banco.cli.words.table_lines import head_line_text

        last = outcome.events[-1]  # the game is over: its head for the score sheet
        lines.append((False, head_line_text(outcome.game_id, last["seq"], last["hash"])))
    return Answer(lines)


def refused_first(outcome) -> Answer:
    """A refusal that is recorded (a late rent claim, kept as evidence) is said as a refusal
    first: `late claim recorded as event 25` on the first line read like a payment.  Then what
    was recorded, and the exit code of a refusal."""
    from banco.cli.words.facts import narrate
    from banco.cli.words.i18n import say_error

    exc = outcome.refused
    lines = [(True, say_error(exc))]
    for e in outcome.events:
        if e["type"] == "CommandRecorded":
            continue
        if e["type"] == "RentClaimRefused":
            lines.append((True, _("  the refusal is recorded as evidence (event {seq}): {owner} "
                                  "asked {payer} for {amount}").format(
                seq=e["seq"], owner=e["data"]["owner"], payer=e["data"]["payer"],
                amount=outcome.state.edition.money(e["data"]["amount"]))))
            continue  # on stderr with the refusal it belongs to, read in that order
        line = narrate(e, outcome.state)
        if line:
            lines.append((False, line))
    return Answer(lines, exc, exc.exit_code)


def debt_first_lines(outcome) -> list[str]:
    """The turn passed with a debt open: `Carla to roll` alone read as if she could, while
    every roll is refused until the debtor settles (003 §10; the last trial).  Said on the
    line that passed the turn, with the debtor's way out."""
    st = outcome.state
    turned = next((e for e in reversed(outcome.events) if e["type"] == "TurnEnded"), None)
    if turned is None or not st.debts:
        return []
    from banco.ledger.table.steps import debt_step

    debtors = list(dict.fromkeys(d.debtor for d in st.debts))
    return [_(ROLLS_AFTER_DEBT).format(player=turned["data"]["next"], step=say(debt_step(st, d)))
            for d in debtors]


def no_bid_lines(outcome) -> list[str]:
    """An auction just opened: what `hammer` will do if nobody bids (the deed to the richest
    at the opening bid, or to the Bank), said on the line that opened it, before a `hammer`
    typed in haste gives a deed away for 1 M."""
    st = outcome.state
    if st.auction is None or st.auction.high_bidder is not None \
            or not any(e["type"] == "AuctionOpened" for e in outcome.events):
        return []
    from banco.ledger.table.state import hammer_step

    return [_(IF_NO_BID).format(step=say(hammer_step(st)))]


def what_follows(outcome) -> list[str]:
    """After a debt paid or a bankruptcy, whose facts leave the turn where it was: what the
    table waits for, as `buy` ends with `Bruno to roll` (the answer ended with the payment,
    and the banker had to look up whose roll it was)."""
    from banco.cli.words.table_lines import turn_line
    from banco.cli.words.waiting import claims_words

    if outcome.refused or outcome.replayed or outcome.state.ended \
            or any(e["type"] in NEXT_SAID for e in outcome.events):
        return []
    from banco.ledger.table.steps import dealing_left

    state, t = outcome.state, outcome.state.turn
    if t.phase == "roll" and not state.debts and claims_words(state) is None \
            and not dealing_left(state):  # (deeds still to deal: the deal, not the roll)
        return [_("{player} to roll").format(player=t.player)]  # as TurnEnded says it
    return [turn_line(state)]


def undone(outcome, before, taken=()) -> list[tuple[bool, str]]:
    """What an undo takes back, in the table's words, not the event types it retracts;
    `taken`: the rows retracted (each transfer is said reversed), () when not known."""
    return [(False, undone_row(e, before, outcome.state, taken)) for e in outcome.events
            if e["type"] == "EventRetracted"]


def undone_row(row: dict, before, after, taken=()) -> str:
    """One EventRetracted in words (`undone: `hammer` (events 15-16): Bruno gets back 50 M
    ...`), from the tables before and after it and the rows it took back: what `undo` says,
    and what the shell says of another terminal's undo."""
    from banco.cli.words.undo_text import undone_line

    typed = row["data"]["reason"].get("line")  # the line it took back: its reason's parameter
    seqs = set(row["data"]["seqs"])
    facts = [r for r in taken if r["seq"] in seqs] or None
    return undone_line(row["data"]["seqs"], typed, before, after, facts)


def span(rows) -> str:
    seqs = [r["seq"] for r in rows]
    if not seqs:
        return _("no events")
    return (_("event {seq}").format(seq=seqs[0]) if len(seqs) == 1
            else _("events {first}-{last}").format(first=seqs[0], last=seqs[-1]))
