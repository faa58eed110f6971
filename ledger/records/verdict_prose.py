"""An older RulingRecorded (schema versions 1 and 2), its verdict and reasons in English, read
as today's: the verdict into its code where one of WRITTEN's templates reads it (its phrases,
`when` or `answer`, stay the words they were), else kept marked `said`; the rule from the
text's last line, `rule: ...`, as the ruling wrote it; the evidence, which no code reads
back, as the text it was (`{"said": text}`).

The decider reads an older recorded command (RecordRuling with a sentence as its verdict) with
the same function, so that the audit finds the fact it gives equal to the older one as read.
"""

from __future__ import annotations

import re
from functools import cache

from banco.ledger.records.jail_ways import how_from_prose
from banco.ledger.records.verdicts import FACT, SAID

# code -> the English banco wrote a verdict in before schema version 3: the history of what
# older bancos recorded, which never changes whatever the words become (cli/words/verdicts.py
# holds today's words; ledger/records/reasons.py's V1 is the same for a reason).
WRITTEN: dict[str, str | tuple[str, str]] = {
    # rent (projections/referee/rent_claims.py)
    "rent_taken_back": "no rent was owed: the landing was taken back by the undo at event {seq}",
    "rent_paid": "paid in time: {payer} paid {owner} {amount} at event {seq}",
    "rent_debt": "claimed in time; {payer} owes it as a debt (event {seq}, {rule})",
    "rent_bankruptcy": "never collected: a bankruptcy ended the claim at event {seq}",
    "rent_refused": (
        "too late: the window closed when {player} rolled (event {seq}); the claim at event "
        "{late} was rightly refused and {owner} lost the rent"),
    "rent_lapsed": (
        "lapsed unclaimed: {owner} did not ask before {player} rolled (event {seq}); the rent is "
        "lost"),
    "rent_open": "still open: {owner} may claim {amount} until {closer} rolls",
    "rent_auto": "paid at the landing: {amount} (no claim window)",
    "rent_not_due": "no rent was due",
    "claim_at": "a claim made {when} was {answer}",
    "after_event": "after event {seq}",
    "at_time": "at {time} (after event {seq})",
    "claim_taken_back": "about a landing that was taken back: nothing to claim",
    "claim_early_batch": (
        "too early: the landing (event {landed}) was not yet recorded whole; the window opened at "
        "event {seq}"),
    "claim_early": "too early: nothing was owed before the landing (event {seq})",
    "claim_after_paid": "after the rent was paid (event {seq}): nothing more is owed",
    "claim_after_debt": "after the claim became a debt (event {seq})",
    "claim_after_bankruptcy": "after the bankruptcy that ended the claim (event {seq})",
    "claim_too_late": (
        "TOO LATE: {player} had rolled (the roll recorded from event {seq}), which closed the "
        "window"),
    "claim_in_time": "IN TIME: the window was open from event {seq} {until}",
    "until_roll_at": "until {closer}'s roll (recorded from event {seq})",
    "until_roll": "until {closer} rolls",
    # auctions (projections/referee/auctions.py)
    "auction_open_lead": "the auction is still open: {player} leads at {amount}",
    "auction_open": "the auction is still open, without a bid",
    "auction_won": "won by {player} for {amount}, paid to the Bank at event {seq}",
    "auction_richest": (
        "no bid: {player}, the player with the most cash ({cash}), took it at the opening price "
        "{amount} (event {seq}, {rule})"),
    "auction_richest_tied": (
        "no bid: {player} took it at the opening price {amount}, the banker choosing among the "
        "richest ({names}, {cash} each) (event {seq}, {rule})"),
    "auction_no_bid": "no bid: {what} stays with the Bank",
    "auction_no_bid_building": "no bid: the {kind} stays with the Bank",
    "auction_built": "won by {player} for {amount}, built on {space} at event {seq}",
    "auction_game_ended": "the game ended at event {seq} before the hammer",
    "auction_voided": (
        " (after {n} voided auction: {players} could not pay)",
        " (after {n} voided auctions: {players} could not pay)",
    ),
    "a_building": "a {kind}",
    "house": "house",
    "hotel": "hotel",
    "deed": "deed",
    # bankruptcies (projections/referee/bankruptcies.py)
    "bankrupt": "{player} was bankrupt to {creditor}: owed {owed}, could raise only {can}",
    "bankrupt_avoidable": (
        "{player} was declared bankrupt to {creditor} but could have raised {can} against {owed} "
        "owed"),
    "the_bank": "the Bank",
    # jail (projections/referee/jail_stays.py)
    "jail_still": (
        "{player} is still in jail after {n} failed try",
        "{player} is still in jail after {n} failed tries",
    ),
    "jail_left": (
        "{player} left jail by {way} at event {seq}, after {n} failed try",
        "{player} left jail by {way} at event {seq}, after {n} failed tries",
    ),
}

COUNTS = frozenset({"seq", "late", "landed", "n"})
# Parameters that were phrases of the table themselves (read the same way, else kept as they
# were), and how a player left jail inside a jail verdict.
PHRASES = frozenset({"when", "answer", "until", "creditor", "what", "kind"})
WAY = "way"


@cache
def _patterns() -> list[tuple[re.Pattern, str]]:
    out = []
    for code, words in WRITTEN.items():
        for template in (words if isinstance(words, tuple) else (words,)):
            parts = re.split(r"\{(\w+)\}", template)
            pattern = "".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>.*?)"
                              for i, p in enumerate(parts))
            out.append((re.compile(pattern + r"\Z", re.S), code))
    return out


def verdict_from_prose(text: str) -> dict:
    """An older ruling's verdict, as the code and parameters it was written from."""
    for pattern, code in _patterns():
        m = pattern.match(text)
        if m:
            return {"code": code, **{k: _param(k, v) for k, v in m.groupdict().items()}}
    return {"code": SAID, "text": text}


def _param(name: str, value: str):
    if name in COUNTS and value.isdigit():
        return int(value)
    if name == WAY:
        how = how_from_prose(value)
        return value if how["code"] == SAID else {"code": FACT, "kind": "how", "value": how}
    if name in PHRASES:
        phrase = verdict_from_prose(value)
        return value if phrase["code"] == SAID else phrase
    return value


def rule_from_prose(text: str) -> str:
    """The rule a ruling's English cited on its last line (`rule: 000 FAQ 7`); else none."""
    last = text.rstrip().rsplit("\n", 1)[-1]
    return last.removeprefix("rule: ") if last.startswith("rule: ") else ""


def ruling_from_prose(data: dict) -> dict:
    """An older RulingRecorded's data as today's (the same keys but `text`, which went)."""
    text = data.get("text")
    text = text if type(text) is str else ""
    out = {k: v for k, v in data.items() if k not in ("verdict", "text")}
    out["verdict"] = verdict_from_prose(data["verdict"])
    out["evidence"] = {SAID: text}
    out["rule"] = rule_from_prose(text)
    return out
