"""The referee's words: the log and the audit (rulings, replay and seals will join them)."""

from __future__ import annotations

import sys

import click

from .session import dump, json_option, pass_session


@click.command()
@click.option("--tail", type=int, default=None, help="Only the last N events.")
@json_option
@pass_session
def log(session, tail, as_json):
    """The events, in order, with their hashes."""
    from cli.render import narrate
    from ledger.state import retracted_seqs

    game = session.game()
    events = session.book.events(game)
    shown = events[-tail:] if tail else events
    if as_json:
        dump([{"seq": e["seq"], "type": e["type"], "data": e["data"],
               "recorded_at": e["recorded_at"], "hash": e["hash"]} for e in shown])
        return
    st = session.book.state(game)
    gone = retracted_seqs(events)
    for e in shown:
        line = (narrate(e, st) or "").strip()
        mark = "x" if e["seq"] in gone else " "
        click.echo(f"{e['seq']:>5}{mark} {e['recorded_at'][:19]}  {e['type']:<18} {line}")
    if gone & {e["seq"] for e in shown}:
        click.echo("(x: taken back by a later EventRetracted; kept, never erased)")


@click.command()
@click.option("--expect-head", default=None, metavar="HASH",
              help="A head printed earlier: fail if this history no longer contains it.")
@json_option
@pass_session
def audit(session, expect_head, as_json):
    """Verify the hash chain, every schema and the fold; print the head hash.

    Exit 0 when clean, 3 naming the first bad event otherwise.
    """
    from projections.audit import audit as run_audit

    game = session.game()
    report = run_audit(game, session.book.store.read(game), expect_head)
    if as_json:
        dump(report.document())
    elif report.ok:
        click.echo(f"game {game}: {report.events} events, chain intact, schemas valid, "
                   f"books balance\nhead {report.head}")
    else:
        click.echo(f"game {game}: FAILED at event {report.bad_seq}: {report.problem}")
    if not report.ok:
        sys.exit(3)
