"""The audit's amount rules for cards: what each kind of card effect pays, to whom, from whom.
"""

from __future__ import annotations

from collections.abc import Callable

from banco.ledger.base.text import msg
from banco.ledger.table.state import BANK, State
from banco.projections.audit.amount_basis import expect, sides
from banco.projections.audit.books import who

_CARD_TEXT = msg("the card's text")


# --- cards ----------------------------------------------------------------------------------

def _repairs(t: State, drawer: str, effect: dict) -> int:
    houses = sum(lv for p, lv in enumerate(t.buildings) if t.owners[p] == drawer and lv < 5)
    hotels = sum(1 for p, lv in enumerate(t.buildings) if t.owners[p] == drawer and lv == 5)
    return houses * effect["house"] + hotels * effect["hotel"]


def _other_player(t: State, drawer: str, name: str) -> bool:
    return name != drawer and name in t.index and not t.player(name).bankrupt


def _card_from_bank(t, drawer, effect, d, what):
    return sides(d, BANK, drawer, what) + expect(t, what, d["amount"], effect["amount"],
                                                   _CARD_TEXT)


def _card_to_bank(t, drawer, effect, d, what):
    return sides(d, drawer, BANK, what) + expect(t, what, d["amount"], effect["amount"],
                                                   _CARD_TEXT)


def _card_from_each(t, drawer, effect, d, what):
    out = [] if _other_player(t, drawer, d["payer"]) else [
        msg("{what} is paid by {payer}, not by another player in the game", what=what,
            payer=who(d["payer"]))]
    return out + sides(d, d["payer"], drawer, what) + expect(t,
        what, d["amount"], effect["amount"], _CARD_TEXT)


def _card_to_each(t, drawer, effect, d, what):
    out = [] if _other_player(t, drawer, d["payee"]) else [
        msg("{what} is paid to {payee}, not to another player in the game", what=what,
            payee=who(d["payee"]))]
    return out + sides(d, drawer, d["payee"], what) + expect(t,
        what, d["amount"], effect["amount"], _CARD_TEXT)


def _card_repairs(t, drawer, effect, d, what):
    return sides(d, drawer, BANK, what) + expect(t,
        what, d["amount"], _repairs(t, drawer, effect),
        lambda: msg("{house} a house and {hotel} a hotel of {player}'s", house=effect["house"],
                    hotel=effect["hotel"], player=drawer))


# card effect kind -> (table, drawer, effect, event data, card name) -> problems
CARD_PAYMENTS: dict[str, Callable] = {
    "collect": _card_from_bank,
    "pay": _card_to_bank,
    "pay_or_draw": _card_to_bank,
    "collect_from_each": _card_from_each,
    "pay_each": _card_to_each,
    "repairs": _card_repairs,
}
# Card effects that never move money themselves (a move's salary or rent is its own fact).
CARD_NO_PAYMENT = frozenset({"advance_to", "back_to", "back", "go_to_jail", "jail_free",
                             "advance_to_nearest"})


def card_payment(t: State, d: dict, prev) -> list[str]:
    deck = t.edition.decks.get(d["deck"])
    if deck is None or not 1 <= d["number"] <= len(deck.cards):
        return [msg("a payment for card {deck} {number}, which is not in the edition",
                    deck=d["deck"], number=d["number"])]
    card = deck.cards[d["number"] - 1]
    # the card's title and number: a name, the same in every language
    what = f"{deck.title} {d['number']}"
    rule = CARD_PAYMENTS.get(card.effect["kind"])
    if rule is None:
        if card.effect["kind"] in CARD_NO_PAYMENT:
            return [msg("{card} ({kind}) pays nothing itself", card=what,
                        kind=card.effect["kind"])]
        return []  # a kind this audit does not know: tests/test_books.py names it
    return rule(t, t.turn.player, card.effect, d, what)
