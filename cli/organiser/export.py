"""`export`: a game's history as a file (JSON Lines a third party can verify, the money as
CSV, or the history as text), audited as it is written when asked."""

from __future__ import annotations

import sys

import click

from banco.cli.safe_output import write_out
from banco.cli.session import pass_session
from banco.cli.words.i18n import _


@click.command()
@click.option("-o", "--output", default=None, metavar="FILE",
              help="Write to FILE (default: standard output).")
@click.option("--format", "fmt", type=click.Choice(["jsonl", "csv", "text"]), default="jsonl",
              show_default=True,
              help="jsonl: the verifiable history; csv: one row per money movement (hledger's "
                   "columns); text: the readable history, as `replay` prints it.")
@click.option("--force", is_flag=True, help="Replace FILE if it exists.")
@click.option("--audit", "audited", is_flag=True,
              help="Also audit the game as it is written (a whole audit's time): a game that "
                   "does not audit clean is written all the same, said on stderr, exit 3.")
@pass_session
def export(session, output, fmt, force, audited):
    """A game's history as a file: JSON Lines a third party can verify (a header, then one
    event a line in canonical JSON with its hash), `banco import` on another machine; or the
    money as CSV, or the history as text.  The chain is checked as the game is read: a row
    that does not match its hash is refused, and nothing is written.  `--audit` also
    re-derives every command (as `banco audit` and every `import` of the file do): a game
    whose chain holds but that does not audit clean is written all the same (it is the
    evidence), said on stderr with the event and the reason, and the exit is 3, as
    `audit`'s."""
    game = session.game()
    # Not by default: an export of a long game runs at the pace of reading it (about 130,000
    # events/s), its audit at the audit's (about 45,000 a core, pure Python); the file is
    # audited wherever it is imported (docs/performance.md, issue 21)
    store = session.book.store
    # the audit covers the game up to its last event now, whatever is appended meanwhile
    events = store.last_seq(game) if audited else None
    _export(session, game, output, fmt, force)
    report = None
    if events is not None:
        from banco.projections.audit.audit_games import audit_game

        report = audit_game(store, game, last=events)
    if output and output != "-":
        click.echo(_("game {game} exported to {output} ({fmt})").format(game=game, output=output, fmt=fmt), err=True)
    if report is not None and not report.ok:
        from banco.cli.words.i18n import say
        from banco.ledger.base.errors import EXIT_AUDIT

        # the verdict `banco audit` gives (a history forged under a recomputed chain, which
        # `import` refuses, or a snapshot that vouches for another history): heard now
        click.echo(_("game {game}: FAILED at event {seq}: {problem}").format(
            game=game, seq=report.bad_seq, problem=say(report.problem)), err=True)
        click.echo(_("warning: game {game} does not audit clean: the export is the history as "
                     "this database holds it, not one to trust; `banco audit --game {game}` "
                     "says more").format(game=game), err=True)
        sys.exit(EXIT_AUDIT)


def _export(session, game: int, output, fmt: str, force: bool) -> None:
    if fmt == "jsonl":
        from banco.cli.progress import Progress, counted
        from banco.projections.exchange.exchange import export_lines

        store = session.book.store
        lines = export_lines(store, game)
        first = next(lines)  # the chain is checked before anything is written

        def write(f):
            f.write(first + "\n")
            # nothing on stdout's terminal: the bar only when the file is elsewhere
            with Progress(store.last_seq(game), "export", quiet=not output or output == "-") as p:
                for line in counted(lines, p):
                    f.write(line + "\n")
    elif fmt == "csv":
        from banco.projections.readings.journal import money_rows

        book = session.book
        # read as it is written, a chunk of the log at a time; the game's absence said first
        rows = money_rows(book.checked(game), book.retracted_seqs(game))

        def write(f):
            import csv

            w = csv.writer(f, lineterminator="\n")
            w.writerow(["date", "seq", "account", "counterparty", "amount", "balance",
                        "description"])
            for r in rows:
                w.writerow([r["date"], r["seq"], r["account"], r["counterparty"], r["amount"],
                            r["balance"], r["description"]])
    else:
        from banco.cli.referee.replay_source import game_steps
        from banco.cli.referee.replay_text import header_lines, step_lines

        book = session.book

        def write(f):  # a step at a time: a long game's history in bounded memory
            f.write("\n".join(header_lines(book.state(game), game)) + "\n")
            for s in game_steps(book, game):
                f.write("\n".join(step_lines(s)) + "\n")

    write_out(output, force, write, session.db)
