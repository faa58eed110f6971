"""What a usage error adds when a word got more than it takes and the banker most likely meant
another word: `pay Zorro 50` is money between players, which is a `trade`; `claim Anna 26` is
rent, which banco works out from the board.  Said under click's "unexpected extra argument" on
the command line and in the shell (cli/main.py, cli/execution.py)."""

from __future__ import annotations

import click

from banco.cli.words.i18n import N_, _, ngettext

_EXTRA = ("Got unexpected extra argument ({args})", "Got unexpected extra arguments ({args})")

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


def extra_argument_hint(exc: click.exceptions.UsageError) -> str | None:
    """The hint for a word given more than it takes (None: no hint, or another mistake), in
    the user's language."""
    ctx = exc.ctx
    if ctx is None or ctx.command is None or type(exc) is not click.exceptions.UsageError:
        return None
    said = {form.split(" (")[0] for n in (1, 2) for form in (ngettext(*_EXTRA, n), _EXTRA[n - 1])}
    if not any(exc.message.startswith(form) for form in said):
        return None
    hint = EXTRA_ARGUMENT_HINTS.get(ctx.command.name or "")
    return _(hint) if hint else None
