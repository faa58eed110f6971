"""The turn's words into typed commands: the dice, the moves of the Speedy die, buying or
declining, the auction, rent, cards, jail, paying a debt.  Pure: the table, the words as
typed (`typed`: the command's word as the banker gave it, `offerta` for `bid`) and the
language in; a command (ledger/records/commands.py) or a UsageError out."""

from __future__ import annotations

from banco.cli.lines.names import deck_key, player_name, property_position, said, space_position
from banco.cli.lines.vocabulary import SPEEDY_WORDS, english_value, spoken_option
from banco.ledger.base.errors import UsageError
from banco.ledger.base.numbers import check_dice, is_digits, not_a_number
from banco.ledger.base.numbers import whole as whole_number
from banco.ledger.base.text import msg
from banco.ledger.records import commands as c


class Undo:
    """`undo`: the book's own act (Book.undo), not a command decide judges."""

    def __eq__(self, other) -> bool:
        return isinstance(other, Undo)

    def __hash__(self) -> int:
        return hash(Undo)

    def __repr__(self) -> str:
        return "Undo()"


def roll(state, typed: str, language: str, dice, player=None):
    player_not_a_die(state, typed, language, player, dice)
    numbers, speedy = parse_dice(dice, typed)
    return c.Roll(numbers, player_name(state, player, "in play"), speedy)


def player_not_a_die(state, typed: str, language: str, player: str | None, dice) -> None:
    """`roll --player 1 2`: the option took the first die for a name, leaving one die.  Said
    as what it is, with the line meant, before the dice are counted (`got 1 die` hid it)."""
    if player is None or whole_number(player.strip()) is None:
        return  # (`new` refuses a name of digits: a number names nobody)
    option = spoken_option("--player", language)
    words = [player.strip(), *dice] if len(dice) == 1 else list(dice)  # the die it took
    players = ", ".join(state.active())
    if len(words) not in (2, 3):
        raise UsageError("no player called {player!r}: {option} takes a player's name "
                         "({players}), not a die; the dice come first: `{word} D1 D2`",
                         player=player, option=option, players=players, word=typed)
    meant = f"{typed} {' '.join(words)} {option} {state.turn.player}"
    raise UsageError("no player called {player!r}: {option} takes a player's name ({players}), "
                     "not a die; did you mean `{meant}`?", player=player, option=option,
                     players=players, meant=meant).meaning(meant)


def parse_dice(words, typed: str = "roll") -> tuple[tuple[int, ...], str | None]:
    """`4 3` or `4 3 bus`: the numbered dice, and the Speedy die's face if a third is given
    (the rule set decides whether it may be).

    What no rule set accepts is a usage error (exit 2): one die or four, a word or a number
    no die shows.  Whether a third die, the Speedy die, may be thrown is the rule set's
    (a refusal, exit 1, from decide)."""
    words = list(words)
    numbered = words[:2] if len(words) == 3 else words
    numbers = []
    for w in numbered:
        number = whole_number(w)
        if number is None:
            from banco.ledger.base.numbers import other_digits

            meant = other_digits(w)
            if meant is not None:  # `tira １ ２`: an input method left on
                raise UsageError("{w!r} is not a valid integer: did you mean {meant}? (type the digits 0-9; a die shows 1 to 6)",
                                 w=w, meant=meant)
            raise UsageError("{w!r} is not a valid integer: a die shows 1 to 6 (roll D1 D2)",
                             w=w)
        numbers.append(number)
    if len(words) == 1 and len(words[0]) == 2 and all(ch in "123456" for ch in words[0]):
        # `roll 34`: two dice typed without the space between them
        raise UsageError("roll D1 D2: two dice, a space between them; `{w}` is one word: did you mean `{word} {d1} {d2}`?",
                         w=words[0], word=typed, d1=words[0][0], d2=words[0][1]
                         ).meaning(f"{typed} {words[0][0]} {words[0][1]}")
    check_dice(tuple(numbers))
    speedy = None
    if len(words) == 3:  # `b` and `m` for short; any other face is for decide to judge, after
        face = words[2].lower()  # whether the rule set throws a Speedy die at all (exit 1)
        speedy = SPEEDY_WORDS.get(face, face)
    return tuple(numbers), speedy


def move(state, typed: str, language: str, spaces: int, player=None):
    return c.BusMove(spaces, player_name(state, player, "in play"))


def go(state, typed: str, language: str, words, player=None):
    return c.GoTo(space_position(state, " ".join(words)), player_name(state, player, "in play"))


def advance(state, typed: str, language: str, player=None):
    return c.Advance(player_name(state, player, "in play"))


def buy(state, typed: str, language: str, player=None):
    return c.Buy(player_name(state, player, "in play"))


def decline(state, typed: str, language: str, player=None):
    return c.Decline(player_name(state, player, "in play"))


def bid(state, typed: str, language: str, bidder: str, amount: str):
    number = whole_number(amount.strip())
    if number is None:
        if whole_number(bidder.strip()) is not None:  # `bid 50 bea`: the words swapped
            raise UsageError("the amount comes after the name: `{word} {bidder} {amount}`",
                             word=typed, bidder=amount, amount=bidder
                             ).meaning(said([typed, amount, bidder]))
        # `1e9`, `1.5`: not read (a bid is whole money, typed in digits), but said how
        raise not_a_number(amount, msg("a bid is a whole amount in the digits 0-9, e.g. "
                                       "`{word} {bidder} 120`", word=typed,
                                       bidder=bidder.strip()))
    from banco.ledger.base.names import fold

    if fold(bidder.strip()) in ("bank", "banca", "the bank", "la banca") \
            and bidder.strip() not in state.seats:
        raise UsageError("the Bank does not bid: the players in play do ({players})",
                         players=", ".join(state.active()))
    return c.Bid(player_name(state, bidder, "bidder"), number)


def refusal_said(command, exc):
    """The rules' refusal of a command, said as the banker's words mean it: a negative bid is
    refused as `a bid is a positive amount`."""
    from banco.ledger.base.errors import RuleViolation

    if isinstance(command, c.Bid) and command.amount < 0 and isinstance(exc, RuleViolation):
        from banco.ledger.base.text import msg

        return RuleViolation(msg("a bid is a positive amount: {refusal}", refusal=exc.text),
                             rule=exc.rule, allowed=exc.allowed_text)
    return exc


def hammer(state, typed: str, language: str, words=()):
    if not words or state.auction is None:  # no auction: the rules say so, not the board
        return c.Hammer()
    if state.auction.kind == "deed":
        return c.Hammer(player=player_name(state, " ".join(words), "bidder"))
    return c.Hammer(property_position(state, " ".join(words)))


def claim(state, typed: str, language: str, owner: str):
    return c.Claim(player_name(state, owner, "owner"))


def card(state, typed: str, language: str, deck: str, words, player=None):
    from banco.ledger.table.decks import card_by_words

    key = deck_key(state.edition, deck)
    words = list(words)
    choice = None
    if len(words) > 1 and english_value(words[-1]) in ("pay", "draw"):
        choice = english_value(words.pop())
    number = card_by_words(state, key, words)
    return c.DrawCard(key, number, choice, player_name(state, player, "in play"))


def misdraw(state, typed: str, language: str, deck: str, words):
    from banco.ledger.table.decks import card_by_words

    key = deck_key(state.edition, deck)
    return c.Misdraw(key, card_by_words(state, key, list(words)))


def shuffle(state, typed: str, language: str, deck: str):
    return c.Shuffle(deck_key(state.edition, deck))


def pay_fine(state, typed: str, language: str, player=None):
    return c.PayFine(player_name(state, player, "in play"))


def use_card(state, typed: str, language: str, player=None):
    return c.UseCard(player_name(state, player, "in play"))


def pay(state, typed: str, language: str, debtor=None, deeds=()):
    if not deeds and not state.debts and state.turn.phase == "choice":
        # `pay` at a pay-or-draw card, with no debt to settle, is the card's choice (the prompt
        # says `pay or draw`): `card probabilita 11 pay`
        deck, number = state.turn.card_choice
        return c.DrawCard(deck, number, "pay", player_name(state, debtor, "in play"))
    if not deeds:
        return c.PayDebt(player_name(state, debtor, "debtor"))
    priced = []
    for item in deeds:
        name, sep, price = item.rpartition("=")
        price = price.strip().replace(".", "").replace(",", "")  # 13.000 as the lire print it
        if not sep or not name.strip() or not is_digits(price):
            raise UsageError("--with {item!r}: say a deed and its price as PROPERTY=PRICE, e.g. --with \"Viale Vesuvio=13000\"",
                             item=item)
        priced.append((property_position(state, name.strip()), int(price)))
    return c.PayInKind(tuple(priced), player_name(state, debtor, "debtor"))


def undo(state, typed: str, language: str):
    return Undo()
