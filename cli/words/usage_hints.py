"""What a usage error adds when a word got more than it takes and the banker most likely meant
another word: `pay Zorro 50` is money between players, which is a `trade`; `claim Anna 26` is
rent, which banco works out from the board.  Said under click's "unexpected extra argument" on
the command line and in the shell (cli/main.py, cli/execution.py)."""

from __future__ import annotations

import re

import click

from banco.cli.words.extra_words import EXTRA_ARGUMENT_HINTS
from banco.cli.words.i18n import _, ngettext

_EXTRA = ("Got unexpected extra argument ({args})", "Got unexpected extra arguments ({args})")

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


def option_hint(exc: click.exceptions.UsageError) -> str | None:
    """For an option given without its value, or a flag given one (`roll 1 2 --player`,
    `state --json=1`): that option's line of help, which says what it takes, and where more
    is said; None for any other mistake."""
    ctx = exc.ctx
    if not isinstance(exc, click.BadOptionUsage) or ctx is None:
        return None
    name = exc.option_name  # the English name click parsed (the message names it as typed)
    record = next((p.get_help_record(ctx) for p in ctx.command.params
                   if name in (*getattr(p, "opts", ()), *getattr(p, "secondary_opts", ()))),
                  None)
    where = ctx.command_path if ctx.parent is not None else ctx.info_name or "banco"
    more = _("(`{command} --help` says more)").format(command=where)
    if record is None:
        return more
    first = re.split(r"(?<=\.)\s", record[1].strip(), maxsplit=1)[0]  # its first sentence
    said = f"{record[0]}: {first}" if first else record[0]
    return f"{said}  {more}"
