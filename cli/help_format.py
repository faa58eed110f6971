"""Help that never breaks a word at its hyphen: click's wrapper (textwrap) breaks `carta-prigione`
into `carta-` and `prigione` across two lines (the last trial, `scambia --help`), and a
banker copying an option or a value from the help would copy half of it.  A hyphen inside a
word is held by a non-breaking hyphen while click wraps, and given back as the text is read."""

from __future__ import annotations

import re
from contextlib import contextmanager

import click

_HELD = "\u2011"  # NON-BREAKING HYPHEN: textwrap breaks only at ASCII hyphens
_INSIDE = re.compile(r"(?<=[\w\]])-(?=[\w\[])")  # `carta-prigione`, `--dry-run`, `[--lift`


def _hold(text: str) -> str:
    return _INSIDE.sub(_HELD, text)


class HeldHyphens(click.HelpFormatter):
    """click's formatter, its hyphens inside words held while it wraps."""

    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        super().write_usage(prog, _hold(args), prefix)

    def write_text(self, text: str) -> None:
        super().write_text(_hold(text))

    def write_dl(self, rows, col_max: int = 30, col_spacing: int = 2) -> None:
        super().write_dl([(first, _hold(second)) for first, second in rows], col_max,
                         col_spacing)

    def getvalue(self) -> str:
        return super().getvalue().replace(_HELD, "-")


class HelpContext(click.Context):
    formatter_class = HeldHyphens

    @contextmanager
    def scope(self, cleanup: bool = True):
        """click's parser says an option given without its value (`roll 1 2 --player`) with
        no context, so nothing knew whose usage to show under it: the context it was parsed
        in is the word's."""
        try:
            with super().scope(cleanup) as ctx:
                yield ctx
        except click.exceptions.UsageError as exc:
            if exc.ctx is None:
                exc.ctx = self
            _as_typed(exc, self)
            raise


def _as_typed(exc: click.exceptions.UsageError, ctx: click.Context) -> None:
    """The option named as the user typed it: `--giocatore` reaches click as `--player`
    (cli/lines/vocabulary.py's english_option_words), and `tira 1 2 --giocatore` was told
    that '--player' requires an argument (`registro --ultimi -1`: "'--tail'")."""
    from banco.cli.lines.vocabulary import ITALIAN_OPTIONS
    from banco.cli.session import ARGS

    typed = {w.split("=", 1)[0].lower() for w in ctx.meta.get(ARGS, ())}
    if isinstance(exc, click.BadOptionUsage):
        italian = ITALIAN_OPTIONS.get(exc.option_name)
        if italian is not None and italian in typed and exc.option_name not in typed:
            exc.message = exc.message.replace(repr(exc.option_name), repr(italian))
    elif isinstance(exc, click.BadParameter) and exc.param_hint is None \
            and isinstance(exc.param, click.Option):
        said = [ITALIAN_OPTIONS[o] for o in exc.param.opts
                if o in ITALIAN_OPTIONS and ITALIAN_OPTIONS[o] in typed and o not in typed]
        if said:
            exc.param_hint = repr(said[0])


def held_help(command: click.Command) -> click.Command:
    """`command`'s help (its subcommands' too) wrapped without breaking a word at a hyphen."""
    command.context_class = HelpContext
    return command
