"""A table action's click command, made from the one table of words (cli/lines/vocabulary.py):
its arguments and options as the table declares them, its help the decorated function's
docstring, its body the parser's builder (cli/lines/parse.py's BUILDERS) and the library's
execute (cli/session.py's parsed).  The click command is the command line's adapter, nothing
more."""

from __future__ import annotations

import functools

import click

from banco.cli.lines.vocabulary import BY_ENGLISH


def table_command(english: str):
    """`@table_command("roll")` over a function whose docstring is the word's help."""
    spec = BY_ENGLISH[english]

    def decorate(described):
        from banco.cli.session import pass_session, records

        def command(session, **params):
            from banco.cli.groups import no_stray_options
            from banco.cli.lines.parse import BUILDERS
            from banco.cli.session import parsed

            if spec.strays:  # `roll 1 2 --playr`: click's `No such option`, its suggestion
                no_stray_options([w for a in spec.args for w in _words(params[a.name])])
            if english == "time-up":
                params["now"] = session.now()
            parsed(session, BUILDERS[english], **params)

        functools.update_wrapper(command, described)
        del command.__wrapped__  # click reads the parameters it is given, not the described's
        if spec.records:
            command = records(command)
        command = pass_session(command)
        for o in reversed(spec.options):
            command = click.option(*o.names, o.dest, default=None, multiple=o.multiple,
                                   metavar=o.metavar, help=o.help or None)(command)
        for a in reversed(spec.args):
            kind = (click.UNPROCESSED if a.raw else click.Choice(list(a.choice)) if a.choice
                    else int if a.whole else None)
            command = click.argument(a.name, nargs=-1 if a.many else 1, type=kind,
                                     required=a.required, metavar=a.metavar)(command)
        settings = {"ignore_unknown_options": True} if spec.loose else {}
        return click.command(english, context_settings=settings)(command)

    return decorate


def _words(value) -> tuple:
    return tuple(value) if isinstance(value, (tuple, list)) else (value,)
