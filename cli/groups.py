"""A command group's own words in Italian: `torneo aggiungi`, `decisione affitto`.

cli/main.py's BancoGroup does this for the top-level commands (ALIASES); a group of
subcommands (`tournament`, `ruling`) declares its Italian words here, resolved the same way:
the same command, its help in the user's language, `--lang` accepted after it, and the line
recorded as typed (cli/session.py's typed_line keeps the words as given).

And a command that takes unknown options as its words (`roll -1`, `ruling rent -5`: a number
for banco to refuse in words) still names a misspelt option as click would (no_stray_options).
"""

from __future__ import annotations

import click

from banco.cli.command_table import ITALIAN_OPTIONS, lang_option
from banco.cli.help_format import HelpContext, held_help
from banco.cli.words import i18n
from banco.cli.words.click_words import localize


class Subgroup(click.Group):
    """A click group whose subcommands also answer to Italian words (`aliases`: word ->
    English name)."""

    context_class = HelpContext  # no word broken at its hyphen (cli/help_format.py)

    def __init__(self, *args, aliases: dict[str, str] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.aliases = dict(aliases or {})

    def get_command(self, ctx, name):
        command = super().get_command(ctx, self.aliases.get(name, name))
        if command is None:
            return None
        if not any(p.name == "lang" for p in command.params):
            command.params.append(lang_option)  # `banco torneo classifica --lang it`
        from banco.cli.session import strict_numbers

        strict_numbers(command)
        localize(command, ITALIAN_OPTIONS)
        return held_help(command)

    def resolve_command(self, ctx, args):
        name = args[0] if args else None
        if name is not None and name not in self.commands and name not in self.aliases \
                and not name.startswith("-"):
            import difflib

            _ = i18n._
            close = difflib.get_close_matches(name, [*self.commands, *self.aliases], n=3,
                                              cutoff=0.6)
            hint = (_(": did you mean {words}?").format(words=_(" or ").join(close)) if close
                    else _("; `banco {command} --help` lists them").format(
                        command=ctx.info_name))
            from banco.ledger.base.names import shown

            ctx.fail(_("no command called {name!r}{hint}").format(name=shown(name), hint=hint))
        return super().resolve_command(ctx, args)

    def format_commands(self, ctx, formatter):
        """In Italian, each subcommand with its Italian word first: `aggiungi (add)`."""
        if i18n.language() == i18n.SOURCE:
            return super().format_commands(ctx, formatter)
        italian = {english: word for word, english in self.aliases.items()}
        commands = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                commands.append((f"{italian[name]} ({name})" if name in italian else name,
                                 command))
        if commands:
            limit = formatter.width - 6 - max(len(shown) for shown, _c in commands)
            with formatter.section(i18n._("Commands")):
                formatter.write_dl([(shown, c.get_short_help_str(limit))
                                    for shown, c in commands])


def no_stray_options(words) -> None:
    """A word taking unknown options as words (so that `-1` reaches the rules as a number)
    still says `--playr` is no option, with click's suggestion, rather than a bad die."""
    for w in words:
        if w.startswith("--"):
            ctx = click.get_current_context()
            import difflib

            name = w.split("=", 1)[0]
            known = [o for p in ctx.command.params for o in getattr(p, "opts", ())
                     if o.startswith("--")]
            raise click.NoSuchOption(name, possibilities=difflib.get_close_matches(name, known),
                                     ctx=ctx)
