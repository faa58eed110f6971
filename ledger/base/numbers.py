"""Numbers as a banker types them: the digits 0-9, nothing else.

int() also reads `1_000`, full-width `６` and the digits of other scripts (str.isdecimal
agrees with it).  At a table those come only by a slip (an input method left on, a paste), so
they are refused as `²` is, never read as a number the banker did not see typed.  A leading
zero is harmless (`05` is 5); a sign is for the rules to judge (`-5`, `+50`).
"""

from __future__ import annotations

from banco.ledger.base.errors import UsageError
from banco.ledger.base.text import msg, plural

# The longest number a banker types: no amount, seq or die at a table comes near it, and int()
# refuses a text of more than 4,300 digits with a ValueError that would reach the banker as a
# traceback (a stuck key, a paste).
MAX_DIGITS = 15


def is_digits(text: str) -> bool:
    """One or more of 0-9 and nothing else (no sign, no space, no `_`).  A UsageError for more
    than MAX_DIGITS of them: a number nobody meant, said as such wherever a number is read."""
    if not (text.isascii() and text.isdecimal()):
        return False
    if len(text) > MAX_DIGITS:
        from banco.ledger.base.names import shown

        raise UsageError("{text} has {n} digits: no number at the table is that long (at most "
                         "{most})", text=shown(text), n=len(text), most=MAX_DIGITS)
    return True


def whole(text: str) -> int | None:
    """The whole number `text` is (a sign, then 0-9), or None."""
    body = text[1:] if text[:1] in ("+", "-") else text
    return int(text) if is_digits(body) else None


def number_like(text: str) -> bool:
    """A word meant as a number but not written as banco reads one: `６`, `1_000`, `²`."""
    body = text[1:] if text[:1] in ("+", "-") else text
    return (not is_digits(body) and any(ch.isnumeric() for ch in body)
            and all(ch.isnumeric() or ch == "_" for ch in body))


def check_dice(dice: tuple[int, ...]) -> None:
    """The numbered dice of a roll: two, each 1 to 6.  Anything else no rule set accepts, so it
    is a usage error (exit 2), whatever the table waits for; whether a third die, the Speedy
    die, may be thrown is the rule set's (ledger/rules/speedy.py: a refusal)."""
    # on every roll the audit re-derives: the common case costs two comparisons
    if len(dice) == 2 and 1 <= dice[0] <= 6 and 1 <= dice[1] <= 6:
        return
    if len(dice) != 2:
        raise UsageError(plural("roll D1 D2, or roll D1 D2 S with the Speedy die; got {n} die",
                                "roll D1 D2, or roll D1 D2 S with the Speedy die; got {n} dice",
                                len(dice)))
    if not (1 <= dice[0] <= 6 and 1 <= dice[1] <= 6):  # no die shows that: a typing slip
        first, second = (not 1 <= d <= 6 for d in dice)  # which die, said with its value
        which = (msg("the first die shows {a} and the second {b}", a=dice[0], b=dice[1])
                 if first and second else
                 msg("the first die shows {a}", a=dice[0]) if first else
                 msg("the second die shows {b}", b=dice[1]))
        raise UsageError("a die shows 1 to 6, not {items}: {which}; roll D1 D2 with each die "
                         "1-6", items=" ".join(map(str, dice)), which=which)


_LOOKALIKES = str.maketrans({"O": "0", "o": "0", "l": "1", "I": "1"})


def other_digits(text: str) -> int | None:
    """The number `text` would be in the digits 0-9, when it is written in digits of another
    width (`１２`, an input method left on), or None.  Only said, never read (see above)."""
    import unicodedata

    meant = unicodedata.normalize("NFKC", text)
    if meant != text and meant.isascii() and meant.isdigit() and len(meant) <= MAX_DIGITS:
        return int(meant)
    return None


def not_a_number(text: str, hint=None):
    """The error for a word meant as a number but not written as one (`６`, `1_000`): click's
    own words for a bad number, so that it reads as any other.  A letter typed for a digit
    (`5O`, `l00`: O for zero, l for one) is said, with the number it was likely meant to be,
    and so is a full-width digit (`１０`)."""
    meant = text.translate(_LOOKALIKES)
    if meant != text and meant.isascii() and meant.isdigit():
        return UsageError("{value!r} is not a valid {number_type}: did you mean {meant}? (a "
                          "letter typed for a digit)", value=text, number_type=msg("integer"),
                          meant=int(meant))
    wide = other_digits(text)
    if wide is not None:
        return UsageError("{value!r} is not a valid {number_type}: did you mean {meant}? (type "
                          "the digits 0-9)", value=text, number_type=msg("integer"),
                          meant=wide)
    if hint is not None:  # what the word takes, where the caller knows it
        return UsageError("{value!r} is not a valid {number_type}: {hint}", value=text,
                          number_type=msg("integer"), hint=hint)
    return UsageError("{value!r} is not a valid {number_type}.", value=text,
                      number_type=msg("integer"))


def ranges(numbers) -> str:
    """1, 2, 3, 7 -> "1-3, 7" (in order): a long list of games or events stays one line."""
    out: list[str] = []
    for n in sorted(numbers):
        if out and n == int(out[-1].split("-")[-1]) + 1:
            out[-1] = f"{out[-1].split('-')[0]}-{n}"
        else:
            out.append(str(n))
    return ", ".join(out)
