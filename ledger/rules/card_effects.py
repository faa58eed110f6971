"""Card effects beyond the Italian decks: the US Chance deck's moves to the nearest railroad or
utility.  Called from ledger/rules/cards.py for every effect kind it does not handle itself.

"Advance to the nearest Railroad ... pay owner twice the rental to which they are otherwise
entitled": the rent the owner could claim, doubled.  "Advance token to nearest Utility ... throw
dice and pay owner a total ten times amount thrown": 004 §Fermati al campo delle imprese di servizi says a player sent
to a utility by a card throws the dice again for the rent, so the table waits for that throw
(`CardThrowRequired`) and the banker types it as `roll D1 D2`; the throw moves nobody, is no
doubles and closes no claim window.
"""

from __future__ import annotations

from banco.ledger.base.errors import RuleViolation
from banco.ledger.base.text import msg
from banco.ledger.records import commands as c
from banco.ledger.records.reasons import card, reason
from banco.ledger.rules.decision import Tx, turn_rule
from banco.ledger.rules.movement import continue_turn, land, move_token, rent_for

R_UTILITY_CARD = "004 §Fermati al campo delle imprese di servizi"


def apply_effect(tx: Tx, name: str, deck: str, number: int, effect: dict,
                 choice: str | None) -> None:
    """Apply an effect kind that ledger/rules/cards.py does not apply itself."""
    handler = _EFFECTS.get(effect["kind"])
    if handler is None:  # a deck file with an effect this version does not know
        raise RuleViolation("card effect {kind!r} is not supported by this version of banco",
                            kind=effect['kind'])
    handler(tx, name, deck, number, effect)


def nearest(edition, position: int, kind: str) -> int:
    """The first space of `kind` ahead of `position`, going round the board."""
    ahead = [s.position for s in edition.spaces if s.kind == kind]
    if not ahead:
        raise RuleViolation("the {edition} board has no {kind} to advance to",
                            edition=edition.name, kind=kind)
    return min(ahead, key=lambda p: (p - position) % 40 or 40)


def _advance_to_nearest(tx: Tx, name: str, deck: str, number: int, effect: dict) -> None:
    state = tx.state
    start = state.player(name).position
    target = nearest(state.edition, start, effect["target"])
    landed = move_token(tx, name, target, (target - start) % 40 or 40, "card", salary=True)
    the_card = card(deck, number)
    if "rent_multiplier" in effect:
        times = effect["rent_multiplier"]

        def rent(st, pos):
            amount, basis = rent_for(st, pos, 0)
            return amount * times, reason("rent_by_card", basis=basis, times=times, card=the_card)

        land(tx, name, landed, rent=rent)
        return
    times = effect["dice_multiplier"]
    state = tx.state
    owner = state.owners[target]
    if owner is None or owner == name or target in state.mortgaged:
        land(tx, name, landed)  # for sale, the player's own, or no rent due: as any landing
        return
    tx.emit("CardThrowRequired", player=name, property=target, owner=owner, multiplier=times,
            deck=deck, number=number, landed_seq=landed)


def throw_for_rent(tx: Tx, cmd: c.Roll) -> None:
    """`roll D1 D2` while a card's fresh throw is awaited: the rent is that many times the
    throw, claimed (or paid) as any rent."""
    state = tx.state
    dice = tuple(cmd.dice)
    if cmd.speedy is not None:  # two dice, 1 to 6, are checked for any roll (ledger/rules/turn.py)
        raise RuleViolation("the throw for the rent is two dice, each 1 to 6, got {items}",
                            rule=R_UTILITY_CARD,
                            allowed=msg("roll D1 D2"),
                            items=' '.join(map(str, dice + ((cmd.speedy,) if cmd.speedy else ()))))
    t = state.turn
    if t.card_throw is None:
        raise RuleViolation("no throw is awaited", rule=turn_rule(state))
    name, pos = t.player, state.player(t.player).position
    times, landed = t.card_throw
    total = dice[0] + dice[1]
    tx.emit("CardDiceThrown", player=name, dice=list(dice), property=pos)

    def rent(st, p):
        return times * total, reason("rent_fresh_throw", times=times, total=total,
                                     rule=R_UTILITY_CARD)

    land(tx, name, landed, rent=rent)
    continue_turn(tx)


_EFFECTS = {
    "advance_to_nearest": _advance_to_nearest,
}
