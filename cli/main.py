"""`banco`: the click command group.  A thin layer: parse, resolve names, call the book, print.

Commands live in modules by who uses them (cli/banker.py, cli/referee.py, cli/organiser.py)
and are imported only when invoked (click's lazy-loading group pattern), so a command pays
only for what it needs.
"""

from __future__ import annotations

import importlib
import os
import sys

import click

from ledger.errors import EXIT_DATABASE, BancoError, RuleViolation

from .session import ARGS, Session

EPILOG = """\b
Exit codes:
  0  done
  1  refused by the rules (nothing appended, except the recorded refusal of a late claim)
  2  usage error (unknown name, bad number, no such game)
  3  audit found a problem
  4  the database cannot be used (missing, locked, corrupt, newer format)
  5  conflict: the game changed while the command was decided (nothing appended; retry)"""

# Command word -> "module:function".  Grouped by who uses them.
COMMANDS = {
    # the banker: setting up, the turn, what players own, the table
    "new": "cli.banker:new", "roll": "cli.banker:roll", "buy": "cli.banker:buy",
    "move": "cli.banker:move", "go": "cli.banker:go", "advance": "cli.banker:advance",
    "decline": "cli.banker:decline", "bid": "cli.banker:bid", "hammer": "cli.banker:hammer",
    "claim": "cli.banker:claim", "card": "cli.banker:card", "pay-fine": "cli.banker:pay_fine",
    "misdraw": "cli.banker:misdraw", "shuffle": "cli.banker:shuffle",
    "use-card": "cli.banker:use_card", "pay": "cli.banker:pay", "build": "cli.banker:build",
    "sell": "cli.banker:sell", "break-up": "cli.banker:break_up",
    "mortgage": "cli.banker:mortgage", "unmortgage": "cli.banker:unmortgage",
    "trade": "cli.banker:trade", "bankrupt": "cli.banker:bankrupt",
    "auction-building": "cli.banker:auction_building", "undo": "cli.banker:undo",
    "state": "cli.banker:state", "board": "cli.banker:board", "cards": "cli.banker:cards",
    "run": "cli.banker:run", "shell": "cli.banker:shell",
    # the rule sets beyond classic (vintage, short, timed, championship) and tournaments
    "deal": "cli.table_rules:deal", "time-up": "cli.table_rules:time_up",
    "auction-deed": "cli.table_rules:auction_deed", "tournament": "cli.table_rules:tournament",
    # the referee
    "log": "cli.referee:log", "audit": "cli.referee:audit", "show": "cli.referee:show",
    "replay": "cli.referee:replay", "ruling": "cli.referee:ruling",
    "correct": "cli.referee:correct",
    # the organiser
    "games": "cli.organiser:games", "statement": "cli.organiser:statement",
    "history": "cli.organiser:history", "standings": "cli.organiser:standings",
    "export": "cli.organiser:export", "import": "cli.organiser:import_",
    "report": "cli.organiser:report",
    # the database file
    "backup": "cli.database:backup",
    "doctor": "cli.integrity:doctor", "keygen": "cli.integrity:keygen",
    "seal": "cli.integrity:seal",
}


class BancoGroup(click.Group):
    """Loads a command's module only when that command runs; turns a user's mistake into one
    `error:` or `refused:` line and its documented exit code."""

    def list_commands(self, ctx):
        return sorted(COMMANDS)

    def get_command(self, ctx, name):
        target = COMMANDS.get(name)
        if target is None:
            return None
        module, attr = target.split(":")
        return getattr(importlib.import_module(module), attr)

    def resolve_command(self, ctx, args):
        name = args[0] if args else None
        if name is not None and name not in COMMANDS and not name.startswith("-"):
            import difflib

            close = difflib.get_close_matches(name, list(COMMANDS), n=3, cutoff=0.6)
            hint = f": did you mean {' or '.join(close)}?" if close else "; `banco --help` lists them"
            ctx.fail(f"no command called {name!r}{hint}")
        return super().resolve_command(ctx, args)

    def parse_args(self, ctx, args):
        # The words as given, for the line a write records (cli/session.py's typed_line).
        ctx.meta[ARGS] = list(args)
        return super().parse_args(ctx, args)

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except BancoError as exc:
            prefix = "refused" if isinstance(exc, RuleViolation) else "error"
            click.echo(f"{prefix}: {exc}", err=True)
            ctx.exit(exc.exit_code)
        except BrokenPipeError:
            # `banco log | head -1`: the reader has gone; that is not an error (click itself
            # would exit 1).  Point stdout at devnull so that the last flush is quiet too.
            _quiet_stdout()
            ctx.exit(0)
        except Exception as exc:
            # The store turns its own sqlite3 errors into DatabaseError; one raised elsewhere
            # (a projection's query, say) is still the database's, not a traceback.
            import sqlite3

            if not isinstance(exc, sqlite3.Error):
                raise
            db = getattr(ctx.obj, "db", "the database")
            click.echo(f"error: cannot use {db}: {exc}", err=True)
            ctx.exit(EXIT_DATABASE)


@click.group(cls=BancoGroup, epilog=EPILOG)
@click.option("--db", envvar="BANCO_DB", default="banco.db", show_default=True,
              help="SQLite file holding the games (env BANCO_DB).")
@click.option("--game", type=int, default=None,
              help="Game number; default: the latest unfinished game.")
@click.version_option("0.1.0", prog_name="banco")
@click.pass_context
def cli(ctx, db, game):
    """banco: the banker's book for a Monopoly table."""
    if not isinstance(ctx.obj, Session):
        ctx.obj = Session(db, game)
        ctx.call_on_close(ctx.obj.close)
    elif game is not None:
        ctx.obj.game_option = game
        ctx.obj._game = None


def _quiet_stdout() -> None:
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def main() -> None:
    try:
        cli(prog_name="banco")
    except BrokenPipeError:
        _quiet_stdout()
        sys.exit(0)
    except KeyboardInterrupt:
        click.echo("\ninterrupted", err=True)
        sys.exit(130)


if __name__ == "__main__":
    main()
