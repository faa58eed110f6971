"""The card decks as the table knows them: which card can come next, and a card by its words.

A drawn card goes to the bottom of its deck (003 §09; 004 §Fermati ai campi Probabilità e
Tesoro): once a deck has gone round, banco knows the order (ledger/table/model.py `DeckOrder`).
"""

from __future__ import annotations

import re

from banco.ledger.base.errors import UsageError
from banco.ledger.base.text import Joined, Text, msg, plural
from banco.ledger.table.model import State


def drawable(state: State, deck: str) -> list[int]:
    """The cards that can be on top of `deck` now: the unseen ones, or the known next one."""
    order = state.decks[deck]
    if order.unseen:
        return sorted(order.unseen)
    return [order.known[0][0]] if order.known else []


def next_card(state: State, deck: str) -> int | None:
    """The number of the next card when banco knows it (a single candidate), else None."""
    cards = drawable(state, deck)
    return cards[0] if len(cards) == 1 else None


def where_is(state: State, deck: str, number: int) -> Text:
    """Where a card that cannot be drawn now is, in the banker's words (in their language)."""
    title = state.edition.decks[deck].title
    holder = state.held_cards.get((deck, number))
    if holder:
        return msg("{title} {number} is not in the deck: {holder} holds it", title=title,
                   number=number, holder=holder)
    order = state.decks[deck]
    for place, (n, seq) in enumerate(order.known):
        if n == number:
            below = len(order.known) - 1 - place
            if below == 0:
                return msg("{title} {number} went to the bottom at event {seq} and is now at "
                           "the bottom", title=title, number=number, seq=seq)
            return plural("{title} {number} went to the bottom at event {seq} and is now with "
                          "{n} card under it", "{title} {number} went to the bottom at event "
                          "{seq} and is now with {n} cards under it", below, title=title,
                          number=number, seq=seq)
    return msg("{title} {number} is not in the deck", title=title, number=number)


def describe_next(state: State, deck: str) -> Text:
    title = state.edition.decks[deck].title
    cards = drawable(state, deck)
    if not cards:
        return msg("{title} is empty: every card is held", title=title)
    if len(cards) == 1:
        return msg("the next card is {title} {number}", title=title, number=cards[0])
    return msg("the next card is unseen: one of {cards}",
               cards=Joined([str(c) for c in cards], ", "))


def deck_views(state: State) -> dict:
    """`state --json` `decks`: per deck the next card when known, the unseen cards, the known
    order under them (top to bottom) and the held jail cards."""
    out = {}
    for key, deck in state.edition.decks.items():
        order = state.decks[key]
        nxt = next_card(state, key)
        out[key] = {
            "title": deck.title,
            "next": nxt,
            "next_text": deck.cards[nxt - 1].text if nxt else None,
            "unseen": sorted(order.unseen),
            "known": [n for n, _ in order.known],
            "held": {str(n): holder for (k, n), holder in sorted(state.held_cards.items())
                     if k == key},
        }
    return out


def card_by_words(state: State, deck: str, words: list[str]) -> int:
    """A card named by its number (`card imprevisti 8`) or by words of its text (`card
    imprevisti terno`): physical cards carry no numbers.  Every word must begin a word of the
    text (any case, any accents); among several matches the one that can be drawn now wins;
    otherwise the candidates are listed, those that can be drawn first."""
    from banco.ledger.base.names import fold  # only a typed card pays for name matching
    from banco.ledger.base.numbers import is_digits, not_a_number, number_like

    cards = state.edition.decks[deck].cards
    title = state.edition.decks[deck].title
    if len(words) == 1 and number_like(words[0]):
        raise not_a_number(words[0])
    if len(words) == 1 and is_digits(words[0]):
        if not 1 <= int(words[0]) <= len(cards):
            raise UsageError("{title} has cards 1 to {count}, not {words}: `banco cards {deck}` lists them",
                             title=title, count=len(cards), words=words[0], deck=deck)
        return int(words[0])
    want = [fold(w) for w in words if fold(w)]
    if not want:
        raise UsageError("name the {title} card by its number or a word of its text",
                         title=title)
    matches = []
    for card in cards:
        text_words = re.findall(r"\w+", fold(card.text))
        if all(any(tw.startswith(w) for tw in text_words) for w in want):
            matches.append(card.number)
    if not matches:
        raise UsageError("no {title} card reads {items!r}: `banco cards {deck}` lists them",
                         title=title, items=' '.join(words), deck=deck)
    if len(matches) == 1:
        return matches[0]
    now = set(drawable(state, deck))
    ready = [n for n in matches if n in now]
    if len(ready) == 1:
        return ready[0]
    first = ready + [n for n in matches if n not in now]
    listed = "; ".join(f"{n}: {cards[n - 1].text}" for n in first[:6])
    more = f" (and {len(first) - 6} more)" if len(first) > 6 else ""
    raise UsageError("{items!r} is on several {title} cards: {listed}{more}; add a word or give the number",
                     items=' '.join(words), title=title, listed=listed, more=more)
