"""What a command line gets wrong that click would take without a word, said before click
reads it: an option that takes one value given twice (click keeps the last), and BANCO_GAME
that names no game (click blamed `--game`, an option nobody typed).  cli/main.py's group asks."""

from __future__ import annotations

import os

import click

from banco.cli.command_table import ALIASES, english_option_words
from banco.cli.session import ARGS
from banco.cli.words import i18n

# The group's options that take a value (`banco --db x.db --json state`): their value is no word
GROUP_VALUE_OPTIONS = frozenset({"--db", "--game", "--lang"})


def from_environment(exc: click.exceptions.UsageError, ctx: click.Context):
    """`BANCO_GAME=abc banco state` was told "Invalid value for '--game'", an option nobody
    typed: the variable is named, with what it takes and how to be rid of it."""
    typed = ctx.meta.get(ARGS, ())
    if not isinstance(exc, click.BadParameter) or exc.param is None \
            or exc.param.name != "game" or os.environ.get("BANCO_GAME") is None \
            or any(a == "--game" or a.startswith("--game=") for a in typed):
        return exc
    return click.UsageError(i18n._(
        "BANCO_GAME={value} is not a game number: a whole number, as `banco games` lists "
        "them (or unset BANCO_GAME for the latest unfinished game)").format(
            value=os.environ["BANCO_GAME"]), ctx)


def given_twice(ctx: click.Context, group: click.Group, args: list[str]) -> None:
    """An option that takes one value given twice with two values (cli/lines/parse.py's
    given_twice, the one check a line read by the library makes too), over click's
    parameters: the group's options and its word's (a subcommand's too) are one, `banco
    --game 1 state --game 2` is twice."""
    from banco.cli.lines.twice import given_twice as twice_in

    commands, word_at = [group], None
    for i, a in enumerate(args):  # the word and, for a group of words, its subcommand
        if a == "--":
            break
        if not a.startswith("-") and (i == 0 or args[i - 1] not in GROUP_VALUE_OPTIONS):
            word_at = i
            break
    if word_at is not None:
        command = group.get_command(ctx, ALIASES.get(args[word_at].lower(),
                                                     args[word_at].lower()))
        if command is not None:
            commands.append(command)
            if isinstance(command, click.Group):
                sub = next((a for a in args[word_at + 1:] if not a.startswith("-")), None)
                inner = command.get_command(ctx, sub) if sub is not None else None
                if inner is not None:
                    commands.append(inner)
    single = {name: max(p.opts, key=len) for command in commands for p in command.params
              if isinstance(p, click.Option) and not p.is_flag and not p.multiple
              and p.nargs == 1 and not p.count for name in p.opts}
    twice = twice_in(english_option_words(args), single, args)
    if twice is not None:
        raise click.UsageError(twice.render(i18n.translations()), ctx)
