"""What a word given more than it takes most likely meant instead, one hint a word: said
under "unexpected extra argument" by the command line and the shell (cli/words/usage_hints.py,
click's error) and by the library (cli/lines/shape_words.py, the line's own): one table, no
click here."""

from __future__ import annotations

from banco.cli.words.i18n import N_

# word (its English name, as the command is registered) -> the hint; the Italian names the
# Italian words, as every Italian advice does
EXTRA_ARGUMENT_HINTS = {
    "pay": N_("`pay DEBTOR` settles a debt the rules already worked out (a rent, a tax, a "
              "card), so it takes no amount; players hand each other cash only in a trade with "
              "something on both sides: `trade A B --give 50 --get PROPERTY` (003 §06)"),
    "claim": N_("`claim OWNER` takes no amount: banco works the rent out from the board (`board` "
                "shows it)"),
    "buy": N_("`buy` takes no words: the current player buys the property where the token "
              "stands, at its printed price"),
    "decline": N_("`decline` takes no words: the property the current player stands on goes to "
                  "auction"),
    "hammer": N_("`hammer` takes no words: the highest bid wins (`bid PLAYER AMOUNT` first)"),
    "mortgage": N_("`mortgage PROPERTY` takes no amount: the Bank pays the deed's mortgage value "
                   "(`board` shows it)"),
    "unmortgage": N_("`unmortgage PROPERTY` takes no amount: the mortgage value and 10% are "
                     "paid to the Bank"),
}
