"""The fold's handlers for the decks: cards drawn, shown, shuffled, kept and used, and the
order of each deck (a drawn card goes to the bottom, 003 §09)."""

from __future__ import annotations

from typing import Any

from banco.ledger.table.model import DeckOrder, State, set_player


def _bottom(decks: dict, deck: str, number: int, seq: int) -> dict:
    """The decks after a card leaves the top (or a hand) and goes under its deck.  Robust to
    any order of facts, so a log written before decks were tracked still folds."""
    order = decks[deck]
    if number in order.unseen:  # the first round: the common case, no search
        moved = DeckOrder(order.unseen - {number}, order.known + ((number, seq),))
    else:
        moved = DeckOrder(order.unseen,
                          tuple(k for k in order.known if k[0] != number) + ((number, seq),))
    decks = dict(decks)
    decks[deck] = moved
    return decks


def to_bottom(state: State, deck: str, number: int, seq: int) -> State:
    return state._replace(decks=_bottom(state.decks, deck, number, seq))


def out_of_deck(state: State, deck: str, number: int) -> State:
    """A jail card kept: it is in a player's hand, not in the deck."""
    order = state.decks[deck]
    decks = dict(state.decks)
    decks[deck] = DeckOrder(order.unseen - {number},
                            tuple(k for k in order.known if k[0] != number))
    return state._replace(decks=decks)


def move_cards(state, giver: str, taker: str | None, cards) -> State:
    """Get-out-of-jail cards change hands; taker None puts them back under their decks."""
    cards = [tuple(c) for c in cards]
    if not cards:
        return state
    held = dict(state.held_cards)
    g = state.player(giver)
    state = set_player(state, giver, jail_cards=tuple(c for c in g.jail_cards if c not in cards))
    for c in cards:
        if taker is None:
            held.pop(c, None)
        else:
            held[c] = taker
    if taker is not None:
        t = state.player(taker)
        state = set_player(state, taker, jail_cards=t.jail_cards + tuple(cards))
    return state._replace(held_cards=held)


def _card_draw_required(state: State, d: Any, seq: Any) -> State:
    return state._replace(turn=state.turn._replace(phase="card", card_deck=d["deck"]))


def _card_drawn(state: State, d: Any, seq: Any) -> State:
    return state._replace(decks=_bottom(state.decks, d["deck"], d["number"], seq),
                          turn=state.turn._replace(phase="moving", card_deck=None,
                                                   card_choice=None))


def _card_misdrawn(state: State, d: Any, seq: Any) -> State:
    return to_bottom(state, d["deck"], d["number"], seq)


def _deck_shuffled(state: State, d: Any, seq: Any) -> State:
    deck = d["deck"]
    held = {n for (k, n) in state.held_cards if k == deck}
    decks = dict(state.decks)
    decks[deck] = DeckOrder(frozenset(c.number for c in state.edition.decks[deck].cards) - held)
    return state._replace(decks=decks)


def _card_choice_required(state: State, d: Any, seq: Any) -> State:
    return state._replace(turn=state.turn._replace(phase="choice",
                                                   card_choice=(d["deck"], d["number"])))


def _card_throw_required(state: State, d: Any, seq: Any) -> State:
    # Logs written before landed_seq point at the throw's request itself.
    throw = (d["multiplier"], d.get("landed_seq", seq))
    return state._replace(turn=state.turn._replace(phase="throw", card_throw=throw))


def _card_dice_thrown(state: State, d: Any, seq: Any) -> State:
    return state._replace(turn=state.turn._replace(phase="moving", card_throw=None))


def _jail_card_kept(state: State, d: Any, seq: Any) -> State:
    p = state.player(d["player"])
    key = (d["deck"], d["number"])
    held = dict(state.held_cards)
    held[key] = d["player"]
    state = set_player(state, d["player"], jail_cards=p.jail_cards + (key,))
    return out_of_deck(state._replace(held_cards=held), d["deck"], d["number"])


def _jail_card_used(state: State, d: Any, seq: Any) -> State:
    p = state.player(d["player"])
    key = (d["deck"], d["number"])
    held = dict(state.held_cards)
    held.pop(key, None)
    state = set_player(state, d["player"],
                        jail_cards=tuple(c for c in p.jail_cards if c != key))
    return to_bottom(state._replace(held_cards=held), d["deck"], d["number"], seq)


HANDLERS = {
    "CardDrawRequired": _card_draw_required,
    "CardDrawn": _card_drawn,
    "CardChoiceRequired": _card_choice_required,
    "CardMisdrawn": _card_misdrawn,
    "DeckShuffled": _deck_shuffled,
    "CardThrowRequired": _card_throw_required,
    "CardDiceThrown": _card_dice_thrown,
    "JailCardKept": _jail_card_kept,
    "JailCardUsed": _jail_card_used,
}
