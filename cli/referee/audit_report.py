"""The body of `audit` (cli/referee/commands.py declares its options): every game of the
database, or the one --game, an --expect-head or a seal is about, the file beside the games,
and what it found, said line by line."""

from __future__ import annotations

import sys

import click

from banco.cli.referee.sealing import print_seal, read_seal
from banco.cli.session import dump
from banco.cli.words.i18n import _, ngettext, say
from banco.ledger.base.errors import EXIT_AUDIT, UsageError
from banco.ledger.store.games import listed_games


def run_audit(session, expect_head: str | None, seal_path: str | None,
              pubkey_path: str | None, as_json: bool) -> None:
    """`audit`: every game of the database (or the one --game names, the one an
    --expect-head or a seal is about), the file's triggers, games table, tournaments."""
    from banco.projections.audit.database_audit import audit_database
    from banco.projections.audit.rows import check_expected_head

    try:
        check_expected_head(expect_head)
    except ValueError as exc:
        raise UsageError(exc.args[0]) from None  # a Text (projections/audit/audit.py): said in the user's language
    seal = public = None
    game = session.game() if session.game_option is not None else None
    if seal_path is not None or pubkey_path is not None:
        seal, public = read_seal(seal_path, pubkey_path)
        if game is None:
            game = _sealed_game(session, seal)
    elif expect_head is not None and game is None:
        game = _game_of_head(session, expect_head)
    store = session.book.store
    from banco.cli.progress import Progress

    # a bar on a terminal for a long audit (nothing with --json or when piped)
    total = sum(g["events"] or 0 for g in listed_games(store)
                if game is None or g["game_id"] == game)
    with Progress(total, "audit", quiet=as_json) as bar:
        report = audit_database(store, game, expect_head, seal, public, progress=bar.step)
    from banco.projections.readings.read_model_check import audit_findings

    # the read model kept beside each sound log, checked as doctor checks it: a forged figure
    # there is what `statement` and `history` would show
    report.findings.extend(audit_findings(store, [r.game_id for r in report.games if r.ok]))
    if not report.games and not report.findings and report.seal is None:
        raise UsageError("no game in {db} yet: nothing to audit", db=session.book.shown)
    if as_json:
        dump(report.document())
    else:
        _print_report(report, expect_head)
    if not report.ok:
        sys.exit(EXIT_AUDIT)


def _sealed_game(session, seal) -> int | None:
    store = session.book.store
    if seal.game_uuid:
        return store.find_game(uuid=seal.game_uuid)
    return seal.game


def _game_of_head(session, expect_head: str) -> int:
    """The game an --expect-head is about: a head line names it; a hash (or its first digits)
    is looked for in every game's log; found in none, the current game (which says so)."""
    from banco.ledger.records.seals import parse_head_line

    line = parse_head_line(expect_head)
    if line is not None:
        session.use_game(line.game)
        return session.game()
    store = session.book.store
    prefix = expect_head.strip().lower()
    if store.format >= 1:
        found = sorted({g for g, _ in store.checks().hash_prefix(prefix)})
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            raise UsageError("the head {head} begins a hash in games {games}: give more of "
                             "its digits or --game N", head=prefix[:12],
                             games=", ".join(str(g) for g in found))
    return session.game()


def _head_matched(r, expect_head: str | None) -> bool:
    """Whether --expect-head is this game's head now (an earlier event's is a note of the
    audit's: the log went on past it)."""
    from banco.ledger.records.seals import parse_head_line

    if expect_head is None or not r.ok or not r.events:
        return False
    line = parse_head_line(expect_head)
    if line is not None:
        return line.game == r.game_id and line.seq == r.events and r.head.startswith(line.prefix)
    return r.head.startswith(expect_head.strip().lower())


def _print_report(report, expect_head: str | None = None) -> None:
    from banco.ledger.records.seals import head_line

    for r in report.games:
        if r.ok:
            if r.commands:
                click.echo(ngettext(
                    "game {game}: {events} events, chain intact, schemas valid, books balance, "
                    "{n} command re-derived",
                    "game {game}: {events} events, chain intact, schemas valid, books balance, "
                    "{n} commands re-derived", r.commands).format(
                        game=r.game_id, events=r.events, n=r.commands))
            else:
                click.echo(_("game {game}: {events} events, chain intact, schemas valid, books "
                             "balance").format(game=r.game_id, events=r.events))
            if r.events:
                click.echo(_("  head {head}  ({line})").format(
                    head=r.head, line=head_line(r.game_id, r.events, r.head)))
            if _head_matched(r, expect_head):  # said, not left to the absence of a failure
                click.echo(_("  expected head {expected}: matched, the head at event {seq}, "
                             "the last: the history is as it was when it was printed").format(
                                 expected=expect_head.strip(), seq=r.events))
        elif r.bad_seq is not None:
            click.echo(_("game {game}: FAILED at event {seq}: {problem}").format(
                game=r.game_id, seq=r.bad_seq, problem=say(r.problem)))
        else:
            click.echo(_("game {game}: FAILED: {problem}").format(game=r.game_id,
                                                                  problem=say(r.problem)))
        for note in r.notes:
            click.echo(_("  note: {note}").format(note=say(note)))
    for f in report.findings:
        click.echo(_("database: {problem}").format(problem=say(f.problem)))
    for note in report.not_checked:  # as doctor says it: no problem, but not vouched for
        click.echo(_("not checked here: {what}").format(what=say(note)))
    for m in report.maintenance:
        # what was done and why are the history's own words, as recorded
        click.echo(_("maintenance {at}: {what} ({why})").format(at=m["at"], what=m["what"],
                                                                 why=m["why"]))
    if report.seal is not None:
        print_seal(report.seal)
