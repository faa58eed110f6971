"""The Chance and Community Chest decks (004 §Fermati ai campi Probabilità e Tesoro; 003 §09;
000 FAQ 18): `card DECK N`, `misdraw`, `shuffle`, and what the Italian cards do; the other
effects are ledger/rules/card_effects.py's."""

from __future__ import annotations

from banco.ledger.base.errors import RuleViolation
from banco.ledger.base.text import msg
from banco.ledger.board.rule_sets import cited
from banco.ledger.records import commands as c
from banco.ledger.records.reasons import card, reason
from banco.ledger.rules.card_effects import apply_effect
from banco.ledger.rules.decision import Tx, check_turn, need_phase, pay
from banco.ledger.rules.movement import continue_turn, land, move_token
from banco.ledger.rules.registry import handles
from banco.ledger.table.decks import describe_next, drawable, where_is
from banco.ledger.table.state import BANK, State, next_step

R_CARDS = "004 §Fermati ai campi Probabilità e Tesoro; 003 §09"
R_DECK = "003 §09; 000 §IMPREVISTI E PROBABILITA'"
_DRAW_A_CARD = msg("draw a card")
_DRAW = msg("draw")  # made once, as the words above: a refusal's, asked of every card drawn


@handles(c.DrawCard)
def _card(tx: Tx, cmd: c.DrawCard) -> None:
    state = tx.state
    check_turn(state, cmd.player, _DRAW_A_CARD)
    t = state.turn
    deck = state.edition.decks[cmd.deck]
    if t.phase == "choice":
        want = t.card_choice
        if (cmd.deck, cmd.number) != want:
            raise RuleViolation("a card's choice is pending", rule=cited(state.rules, "cards", R_CARDS),
                                allowed=next_step(state))
    else:
        need_phase(state, "card", _DRAW_A_CARD)
        if cmd.deck != t.card_deck:
            assert t.card_deck is not None  # phase "card" names the deck
            raise RuleViolation(
                "{player} is on a {decks} square, not {title}",
                rule=cited(state.rules, "cards", R_CARDS),
                allowed=msg("`card {card_deck} N`; a {title} card turned by mistake: `misdraw {deck} {number}` (000 FAQ 18)", card_deck=state.edition.decks[t.card_deck].word, title=deck.title, deck=deck.word, number=cmd.number),
                player=t.player, decks=state.edition.decks[t.card_deck].title, title=deck.title)
    if t.phase == "card":
        _check_on_top(state, cmd.deck, cmd.number, _DRAW)
    card = deck.cards[cmd.number - 1]
    effect = card.effect
    name = t.player
    if effect["kind"] == "pay_or_draw":
        if cmd.choice is None:
            if t.phase == "choice":
                raise RuleViolation("say which", rule=cited(state.rules, "cards", R_CARDS), allowed=next_step(state))
            tx.emit("CardChoiceRequired", player=name, deck=cmd.deck, number=cmd.number)
            return
        if cmd.choice not in ("pay", "draw"):
            raise RuleViolation("the choice is `pay` or `draw`, not {choice!r}",
                                choice=cmd.choice)
    elif cmd.choice is not None:
        raise RuleViolation("{title} {number} offers no choice", rule=cited(state.rules, "cards", R_CARDS),
                            allowed=msg("`card {deck} {number}`", deck=deck.word, number=cmd.number),
                            title=deck.title, number=cmd.number)
    tx.emit("CardDrawn", player=name, deck=cmd.deck, number=cmd.number)
    _apply_card(tx, name, card.deck, card.number, effect, cmd.choice)
    continue_turn(tx)


def _check_on_top(state: State, deck: str, number: int, action: str) -> None:
    """The card must be one that can be on top: a drawn card went to the bottom (003 §09), so
    in the deck's first round it cannot come again, and once the order is known only the next
    card can come.  The refusal says where the card is and what the next one is."""
    cards = state.edition.decks[deck].cards
    if not 1 <= number <= len(cards):
        raise RuleViolation("{decks} has cards 1 to {count}, not {number}", allowed=msg("`banco cards {deck}` lists them", deck=deck),
                            decks=state.edition.decks[deck].title, count=len(cards), number=number)
    if number in drawable(state, deck):
        return
    raise RuleViolation(
        "cannot {action} {decks} {number}: {where_is}; {describe_next}", rule=cited(state.rules, "cards", R_DECK),
        allowed=(msg("the card on top; if the deck was shuffled, `shuffle {deck}` first; a card turned by mistake: `misdraw {deck} N` (000 FAQ 18)", deck=deck)),
        action=action, decks=state.edition.decks[deck].title, number=number,
        where_is=where_is(state, deck, number), describe_next=describe_next(state, deck))


@handles(c.Misdraw)
def _misdraw(tx: Tx, cmd: c.Misdraw) -> None:
    """000 FAQ 18: the banker shows the card turned by mistake and puts it under its deck."""
    _check_on_top(tx.state, cmd.deck, cmd.number, msg("turn"))
    tx.emit("CardMisdrawn", deck=cmd.deck, number=cmd.number)


@handles(c.Shuffle)
def _shuffle(tx: Tx, cmd: c.Shuffle) -> None:
    tx.emit("DeckShuffled", deck=cmd.deck)


def _apply_card(tx: Tx, name: str, deck: str, number: int, effect: dict,
                choice: str | None) -> None:
    state = tx.state
    kind = effect["kind"]
    pos = state.player(name).position
    the_card = card(deck, number)
    extra = {"deck": deck, "number": number}
    if kind == "advance_to":
        target = effect["position"]
        spaces = (target - pos) % 40 or 40
        land(tx, name, move_token(tx, name, target, spaces, "card", salary=True))
    elif kind == "back_to":
        target = effect["position"]
        land(tx, name, move_token(tx, name, target, -((pos - target) % 40), "card", salary=False))
    elif kind == "back":
        n = effect["spaces"]
        land(tx, name, move_token(tx, name, (pos - n) % 40, -n, "card", salary=False))
    elif kind == "go_to_jail":
        tx.emit("SentToJail", player=name, reason=the_card)
    elif kind == "jail_free":
        tx.emit("JailCardKept", player=name, deck=deck, number=number)
    elif kind == "collect":
        pay(tx, "CardPayment", BANK, name, effect["amount"], the_card, **extra)
    elif kind == "pay":
        pay(tx, "CardPayment", name, BANK, effect["amount"], the_card, **extra)
    elif kind == "collect_from_each":
        for other in state.active():
            if other != name:
                pay(tx, "CardPayment", other, name, effect["amount"], the_card, **extra)
    elif kind == "pay_each":
        # One payment to each player, in seat order; what the cash cannot cover becomes a debt
        # to that player, not to the Bank, so paying it later reaches the player it is owed to
        # (003 §10; as two rents in one turn are two debts, 000 FAQ 42).
        for other in state.active():
            if other != name:
                pay(tx, "CardPayment", name, other, effect["amount"],
                    reason("card_each_player", card=the_card, amount=effect["amount"]), **extra)
    elif kind == "repairs":
        houses = sum(b for p, b in enumerate(state.buildings)
                     if state.owners[p] == name and b < 5)
        hotels = sum(1 for p, b in enumerate(state.buildings)
                     if state.owners[p] == name and b == 5)
        amount = houses * effect["house"] + hotels * effect["hotel"]
        pay(tx, "CardPayment", name, BANK, amount,
             reason("card_repairs", card=the_card, houses=houses, house=effect["house"],
                    hotels=hotels, hotel=effect["hotel"]),
             **extra)
    elif kind == "pay_or_draw":
        if choice == "pay":
            pay(tx, "CardPayment", name, BANK, effect["amount"], the_card, **extra)
        else:
            tx.emit("CardDrawRequired", player=name, deck=effect["deck"])
    else:  # kinds beyond the Italian decks (the US Chance moves), or unknown: refused there
        apply_effect(tx, name, deck, number, effect, choice)
