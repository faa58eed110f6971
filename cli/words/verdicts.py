"""A referee's verdict in words: each code's template (ledger/records/verdicts.py keeps the
codes and their parameters as data; RulingRecorded records them, never the sentence).  The
English template is the catalogs' msgid; `said` gives a verdict's words in the language of a
catalog (English without one), its phrases (`when`, `answer`, a building's kind) in the same.

Importing the words package registers `said` with ledger/records/verdicts.py (as reasons.py
registers its sayers), so a verdict a ruling gives is said wherever it is shown.
"""

from __future__ import annotations

from banco.cli.words.i18n import N_, NN_
from banco.ledger.base.text import Text, Translations
from banco.ledger.records import verdicts

VERDICTS: dict[str, str | tuple[str, str]] = {
    # rent (projections/referee/rent_claims.py)
    "rent_taken_back": N_("no rent was owed: the landing was taken back by the undo at event "
                          "{seq}"),
    "rent_paid": N_("paid in time: {payer} paid {owner} {amount} at event {seq}"),
    "rent_debt": N_("claimed in time; {payer} owes it as a debt (event {seq}, {rule})"),
    "rent_bankruptcy": N_("never collected: a bankruptcy ended the claim at event {seq}"),
    "rent_refused": N_("too late: the window closed when {player} rolled (event {seq}); the "
                       "claim at event {late} was rightly refused and {owner} lost the rent"),
    "rent_lapsed": N_("lapsed unclaimed: {owner} did not ask before {player} rolled (event "
                      "{seq}); the rent is lost"),
    "rent_open": N_("still open: {owner} may claim {amount} until {closer} rolls"),
    "rent_auto": N_("paid at the landing: {amount} (no claim window)"),
    "rent_not_due": N_("no rent was due"),
    "claim_at": N_("a claim made {when} was {answer}"),
    "after_event": N_("after event {seq}"),
    "at_time": N_("at {time} (after event {seq})"),
    "claim_taken_back": N_("about a landing that was taken back: nothing to claim"),
    "claim_early_batch": N_("too early: the landing (event {landed}) was not yet recorded whole; "
                            "the window opened at event {seq}"),
    "claim_early": N_("too early: nothing was owed before the landing (event {seq})"),
    "claim_after_paid": N_("after the rent was paid (event {seq}): nothing more is owed"),
    "claim_after_debt": N_("after the claim became a debt (event {seq})"),
    "claim_after_bankruptcy": N_("after the bankruptcy that ended the claim (event {seq})"),
    "claim_too_late": N_("TOO LATE: {player} had rolled (the roll recorded from event {seq}), "
                         "which closed the window"),
    "claim_in_time": N_("IN TIME: the window was open from event {seq} {until}"),
    "until_roll_at": N_("until {closer}'s roll (recorded from event {seq})"),
    "until_roll": N_("until {closer} rolls"),
    # auctions (projections/referee/auctions.py)
    "auction_open_lead": N_("the auction is still open: {player} leads at {amount}"),
    "auction_open": N_("the auction is still open, without a bid"),
    "auction_won": N_("won by {player} for {amount}, paid to the Bank at event {seq}"),
    "auction_richest": N_("no bid: {player}, the player with the most cash ({cash}), took it "
                          "at the opening price {amount} (event {seq}, {rule})"),
    "auction_richest_tied": N_("no bid: {player} took it at the opening price {amount}, the "
                               "banker choosing among the richest ({names}, {cash} each) "
                               "(event {seq}, {rule})"),
    "auction_no_bid": N_("no bid: {what} stays with the Bank"),
    "auction_no_bid_building": N_("no bid: the {kind} stays with the Bank"),
    "auction_built": N_("won by {player} for {amount}, built on {space} at event {seq}"),
    "auction_game_ended": N_("the game ended at event {seq} before the hammer"),
    "auction_voided": NN_(" (after {n} voided auction: {players} could not pay)",
                          " (after {n} voided auctions: {players} could not pay)"),
    "a_building": N_("a {kind}"),
    "house": N_("house"),
    "hotel": N_("hotel"),
    "deed": N_("deed"),
    # bankruptcies (projections/referee/bankruptcies.py)
    "bankrupt": N_("{player} was bankrupt to {creditor}: owed {owed}, could raise only {can}"),
    "bankrupt_avoidable": N_("{player} was declared bankrupt to {creditor} but could have "
                             "raised {can} against {owed} owed"),
    "the_bank": N_("the Bank"),
    # jail (projections/referee/jail_stays.py)
    "jail_still": NN_("{player} is still in jail after {n} failed try",
                      "{player} is still in jail after {n} failed tries"),
    "jail_left": NN_("{player} left jail by {way} at event {seq}, after {n} failed try",
                     "{player} left jail by {way} at event {seq}, after {n} failed tries"),
}


def said(code: str, params: dict, tr: Translations | None = None) -> str:
    """The verdict `code` with its parameters, in the language of `tr` (English without);
    KeyError for a code with no words, KeyError or IndexError for parameters they do not fit."""
    words = VERDICTS[code]
    if isinstance(words, tuple):
        return Text(words[0], words[1], params["n"], params).render(tr)
    return Text(words, params=params).render(tr)


verdicts.say_with(said)
