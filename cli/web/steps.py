"""What the table waits for (`next`), as the pages say it.

ledger/table/steps.py words each step as the banker types it (`roll D1 D2`, `pay Anna`).  The
banker's page keeps those lines (app.js's plainNext drops their placeholders: it has buttons);
a screen nobody types at (a player's phone, the TV) says each line in words (`in_words`), and
the TV says an open auction its own way (`tv_auction`).  On every page a note that explains a
line's placeholder goes with it (`on_screen`).
"""

from __future__ import annotations

import re

from banco.cli.lines import vocabulary
from banco.cli.words.i18n import N_, NP_
from banco.ledger.base.text import Joined, Text, msg

# a note that explains what a placeholder of the line before it means: a page drops the
# placeholder (the banker's pads have a row for the Speedy die; a phone says "the dice and the
# Speedy die"), so the note was left explaining an S no longer there ("tira (S, il dado
# Speedy: 1 2 3 bus mr)", the last trial)
SPEEDY_NOTE = "`roll D1 D2 S` (S, the Speedy die: 1 2 3 bus mr)"
NOTES = {SPEEDY_NOTE: msg("`roll D1 D2 S`")}


def on_screen(step):
    """A step (a Text, as next_step words it) without the notes a page has no use for."""
    if isinstance(step, Joined):
        return Joined([on_screen(i) for i in step.items], step.sep)
    if not isinstance(step, Text) or type(step) is not Text:
        return step
    if step.template in NOTES:
        return NOTES[step.template]
    if not step.params:
        return step
    return Text(step.template, step.plural, step.n,
                {k: on_screen(v) for k, v in step.params.items()})


# each line the banker would type said in words ("Carla fa bancarotta", not "`bancarotta
# Carla`"; "paga la multa", not "paga-multa": the trial), infinitives in Italian (a step to
# do, said to nobody in particular); a line with no words here is said bare, its placeholders
# gone (as app.js's plainNext says it): "vendi, ipoteca, scambia" and "tempo-scaduto" were
STEP_WORDS = {
    "roll": NP_("a step as a screen says it", "roll the dice"),
    "pay-fine": NP_("a step as a screen says it", "pay the fine"),
    "use-card": NP_("a step as a screen says it", "use the get-out-of-jail card"),
    "pay": NP_("a step as a screen says it", "{name} pays"),
    "bankrupt": NP_("a step as a screen says it", "{name} goes bankrupt"),
    "bid": NP_("a step as a screen says it", "a higher bid"),
    "hammer": NP_("a step as a screen says it", "the hammer"),
    "claim": NP_("a step as a screen says it", "a rent claim"),
    "buy": NP_("a step as a screen says it", "buy"),
    "decline": NP_("a step as a screen says it", "decline"),
    # the ways to raise cash (003 §10), each a pad of its own on the phone
    "sell": NP_("a step as a screen says it", "sell buildings"),
    "mortgage": NP_("a step as a screen says it", "mortgage deeds"),
    "trade": NP_("a step as a screen says it", "trade"),
    # "calling time again ends the game": the banker's `time-up` a second time (000 FAQ 6)
    "time-up": NP_("a step as a screen says it", "calling time"),
    # the deeds dealt before the first roll (002 §Preparazione, 004): the banker's page does it
    "deal": NP_("a step as a screen says it", "the banker deals them"),
}
# the Bus's moves, by one die or both (000 FAQ 38): "4 spaces or 8 spaces"
MOVE_WORDS = NP_("a step as a screen says it", "{n} spaces")
SPEEDY_ROLL = NP_("a step as a screen says it", "roll the dice and the Speedy die")
CARD_WORDS = {"pay": NP_("a step as a screen says it", "pay"),
              "draw": NP_("a step as a screen says it", "draw a card")}
PLACEHOLDERS = frozenset((
    "D1 D2 S N PLAYER OWNER SPACE CARD AMOUNT PROPERTY NAME BIDDER GIOCATORE PROPRIETARIO "
    "CASELLA CARTA IMPORTO PROPRIETÀ NOME OFFERENTE").split())
CODE = re.compile(r"`([^`\n]*)`")
# the TV during an auction: who leads, or that it is open, in its own words (it read "offerta
# o aggiudica", the banker's words, on a screen nobody types at); bids are said aloud.  The
# TV draws no auction box under it (app.js): both said who leads
TV_AUCTION_LEADS = N_("auction for {what}: {name} leads with {amount}; a higher bid is said "
                      "aloud at the table")
TV_AUCTION_OPEN = N_("auction for {what}: open, no bid yet (bids from {amount}); bids are said "
                     "aloud at the table")
AUCTION_LOT = {"house": N_("a house"), "hotel": N_("a hotel")}


def again(state, step):
    """The step after doubles, as the terminal says it ("Bruno rolls again (doubles)"): the
    pages said "Bruno to roll", as at a turn's start.  Any other step as it is."""
    from banco.ledger.table.steps import roll_words

    t = state.turn
    if (isinstance(step, Text) and step.template == "{player} to {roll}" and t.phase == "roll"
            and t.extra_roll and not t.dice and not state.ended):
        return msg("{player} rolls again (doubles): {roll}", player=t.player,
                   roll=roll_words(state, state.current))
    return step


def in_words(text: str, catalog) -> str:
    """`text` (a step the table waits for, rendered) with each `line` in it said in words."""
    def said(m) -> str:
        words = m.group(1).split()
        if not words:
            return ""
        command = vocabulary.english_word(words[0])
        rest = [w for w in words[1:] if w.strip("[]").removesuffix("...") not in PLACEHOLDERS]
        if command == "card":  # `card DECK N pay|draw`, or `card DECK CARD`: a card to draw
            value = vocabulary.VALUE_ALIASES.get(words[-1], words[-1])
            return catalog.pgettext(*CARD_WORDS.get(value, CARD_WORDS["draw"]))
        if command == "roll" and "S" in words:
            return catalog.pgettext(*SPEEDY_ROLL)
        if command == "move" and rest:
            return catalog.pgettext(*MOVE_WORDS).format(n=rest[0])
        if command in ("pay", "bankrupt") and rest:
            return catalog.pgettext(*STEP_WORDS[command]).format(name=" ".join(rest))
        if command in STEP_WORDS and command not in ("pay", "bankrupt"):
            return catalog.pgettext(*STEP_WORDS[command])
        return " ".join([words[0], *rest])
    return CODE.sub(said, text)


def tv_auction(state, catalog) -> str:
    """The TV's line while an auction is open."""
    a = state.auction
    what = (state.edition.space(a.property).name if a.kind == "deed"
            else catalog.gettext(AUCTION_LOT[a.kind]))
    if a.high_bidder:
        return catalog.gettext(TV_AUCTION_LEADS).format(what=what, name=a.high_bidder,
                                                        amount=state.edition.money(a.high_bid))
    return catalog.gettext(TV_AUCTION_OPEN).format(what=what,
                                                   amount=state.edition.money(a.min_bid))
