"""The database's integrity: `doctor`, the file's health (its engine's check, the tables
beside the games, the read models and snapshots) and `--repair`.  A game's history is
`audit`'s (cli/referee/audit_report.py), a referee's seal cli/referee/sealing.py's."""

from __future__ import annotations

import sys

import click

from banco.cli.session import dump, json_option, pass_session
from banco.cli.words.i18n import _, counted, ngettext, say
from banco.ledger.base.errors import EXIT_AUDIT
from banco.ledger.base.text import msg
from banco.ledger.store.games import listed_games

# --- doctor ---------------------------------------------------------------------------------

@click.command()
@click.option("--repair", is_flag=True,
              help="Recreate missing triggers and indexes, rebuild the games table from the "
                   "logs; each thing done is kept in the maintenance history.  Rebuild the "
                   "read model (`statement`, `history`, `log --player`) where it is wrong or "
                   "missing (on PostgreSQL, only that).")
@click.option("--reason", default="banco doctor --repair", metavar="TEXT",
              help="Why (with --repair): kept in the maintenance history.")
@json_option
@pass_session
def doctor(session, repair, reason, as_json):
    """The database file's health: format, triggers, indexes, the games table against the
    logs, the tournaments' chains, snapshots, the maintenance history.  `banco audit` checks
    the games themselves.  Exit 0 healthy, 3 a problem found, 4 the file is unusable."""
    from banco.ledger.base.errors import DatabaseError
    from banco.ledger.store import health
    from banco.ledger.store.schema import FORMAT

    store = session.book.store
    if store.conn is None:
        from banco.ledger.store.sqlite import missing_database

        raise missing_database(session.db)
    if store.format < 1 and not store.checks().health().findings:
        # a file with nothing in it (what sqlite3.connect leaves): nothing is missing from it
        # yet, and nothing in it is banco's; saying "triggers: all present" would be a lie
        if as_json:
            dump({"database": store.shown, "format": 0, "writes": FORMAT, "games": 0,
                  "events": 0, "empty": True, "problems": [], "healthy": True})
        else:
            click.echo(_("database {db}: empty, no banco tables yet: nothing to check (`banco "
                         "new PLAYER PLAYER ...` starts a game in it)").format(db=store.shown))
        return
    check = store.checks().engine_check()
    if check is not None:
        raise DatabaseError("{db} is damaged (SQLite's quick_check: {check}): restore it from "
                            "a backup", db=session.db, check=check)
    done: list[str] = []
    unchecked: list[str] = []
    from banco.cli.progress import Progress

    # a bar on a terminal (never with --json): each game's snapshots, then its read model
    bar = Progress(2 * sum(g["events"] or 0 for g in listed_games(store)), "doctor", quiet=as_json)
    with bar:
        broken: list = []  # games whose log is not its chain: no repair makes them healthy
        model, snapshots, done = _doctor_work(session, store, repair, reason, bar, unchecked,
                                              broken)
    state = store.checks().health(file=True)
    findings = (state.findings
                + [health.Finding("log", b.text, b.game_id, b.seq) for b in broken]
                + [health.Finding("snapshot", f.text, f.game_id, f.seq, repairable=True)
                   for f in snapshots]
                + [health.Finding("read model", f.text, f.game_id, f.seq, repairable=True)
                   for f in model if not f.missing])
    if store.format > FORMAT:
        findings.append(health.Finding(
            "format", msg("{db} is format {format}, written by a newer banco: this banco reads "
                          "it but cannot vouch for what that format added, nor repair it: "
                          "upgrade banco", db=store.shown, format=store.format)))
    games = listed_games(store)
    doc = {"database": store.shown, "format": store.format,
           "writes": FORMAT, "games": len(games), "events": sum(g["events"] for g in games),
           "triggers": {"missing": state.missing_triggers, "known": state.known[0]},
           "indexes": {"missing": state.missing_indexes, "known": state.known[1]},
           "snapshots": {"checked": sum(len(store.snapshots(g["game_id"])) for g in games
                                        if g["game_id"] not in {b.game_id for b in broken}),
                         "problems": [str(f) for f in snapshots], "unchecked": unchecked},
           "read_model": {"missing": [f.game_id for f in model if f.missing]},
           "not_checked": list(state.not_checked),
           "repaired": done,
           "problems": [f.document() for f in findings],
           "maintenance": state.maintenance, "healthy": not findings}
    if as_json:
        dump(doc)
    else:
        _print_doctor(doc, findings, repaired=repair)
    if findings:
        sys.exit(EXIT_AUDIT)


def _doctor_work(session, store, repair: bool, reason: str, bar, unchecked: list,
                 broken: list):
    """doctor's costly part, telling `bar` the events done: (the read model's findings, the
    snapshots', what was repaired).  Each snapshot is checked against a fresh fold of its log
    once; a repair deletes the bad ones, and the ones left were found sound."""
    done: list = []
    snapshots = _snapshot_findings(store, unchecked, bar.step, broken)
    # PostgreSQL: the guards, the indexes and the games table are the database's owner's
    # (postgres_setup); a repair there rebuilds the read model only, a cache banco's role keeps
    repaired = store.checks().repair(
        now=session.now, why=reason,
        snapshots=[(f.game_id, f.seq, f.problem) for f in snapshots]) if repair else None
    if repaired is not None:
        done, snapshots = repaired, []
    # the read model beside the logs (issue 21): checked against each log, rebuilt by a repair
    model = _read_model(store, repair, done, bar, (bar.total or 0) // 2, broken)
    return model, snapshots, done


def _read_model(store, repair: bool, done: list, bar, base: int, broken: list) -> list:
    """Each game's read model against its log; with `repair`, the wrong or missing ones
    rebuilt (a cache: not in the maintenance history) and nothing left to report.  A game
    whose log breaks its chain is added to `broken`: its read model neither judged nor
    rebuilt from rows edited under the chain."""
    from banco.ledger.base.errors import DatabaseError
    from banco.ledger.snapshot_check import ChainBroken
    from banco.projections.readings.read_model_check import check, rebuild

    def chain_broken(exc: ChainBroken) -> None:
        if exc.game_id not in {b.game_id for b in broken}:  # said once, by the first to see it
            broken.append(exc)

    count = [0]

    def tick(n: int) -> None:
        count[0] += n
        bar.step(base + count[0])

    found = []
    for g in listed_games(store):
        try:
            f = check(store, g["game_id"], tick)
        except ChainBroken as exc:
            chain_broken(exc)
            continue
        except DatabaseError:  # a log that cannot be read: the audit names its seq
            continue
        if f is not None:
            found.append(f)
    if not repair or store.readonly:
        return found
    left = []
    for f in found:
        try:
            rebuild(store, f.game_id, tick)
        except ChainBroken as exc:  # (a game with no read model: its log first read here)
            chain_broken(exc)
            continue
        except DatabaseError as exc:
            # left as it was (its readings read the log), and said: a repair asked for and
            # not done (a log that cannot be read, a role that may not create the tables)
            left.append(f._replace(text=exc.text, missing=False))
            continue
        done.append(msg("rebuilt game {game}'s read model from its log", game=f.game_id))
    return left


def _snapshot_findings(store, skipped: list | None = None, tick=None,
                       broken: list | None = None) -> list:
    """Every game's snapshots against a fresh fold of its log (ledger/snapshot_check.py).  A snapshot
    whose head matches the log is what `state` and the next command start from, so one that
    is not the folded table (an edit) is a problem even though the audit never reads it."""
    from banco.ledger.base.errors import DatabaseError
    from banco.ledger.snapshot_check import ChainBroken, verify_snapshots

    found = []
    events = 0
    for g in listed_games(store):
        events += g["events"] or 0
        if tick is not None:  # a bar (doctor): the games before this one are done
            tick(events)
        if not store.snapshots(g["game_id"]):
            continue
        try:
            found += verify_snapshots(store, g["game_id"])
        except ChainBroken as exc:  # its snapshots not judged on a log that is not its chain's
            if broken is not None:
                broken.append(exc)
            if skipped is not None:
                skipped.append(msg("game {game}'s snapshots not checked: its log does not "
                                   "match its chain at event {seq}", game=exc.game_id,
                                   seq=exc.seq))
        except DatabaseError as exc:  # a log that cannot be folded: the audit names its seq
            if skipped is not None:
                skipped.append(msg("game {game}'s snapshots not checked: {why}",
                                   game=g["game_id"], why=exc.text))
    return found


def _print_doctor(doc: dict, findings, repaired: bool = False) -> None:
    click.echo(_("database {db}: format {format} (this banco writes {writes}), {games}, "
                 "{events}").format(
                     db=doc["database"], format=doc["format"], writes=doc["writes"],
                     games=counted("game", doc["games"]), events=counted("event", doc["events"])))
    for what in doc["repaired"]:
        click.echo(_("repaired: {what}").format(what=say(what)))
    missing_t, missing_i = doc["triggers"]["missing"], doc["indexes"]["missing"]
    known_t, known_i = doc["triggers"]["known"], doc["indexes"]["known"]
    click.echo(_("triggers: all present ({known} known)").format(known=known_t)
               if not missing_t else
               _("triggers: missing {names} ({known} known)").format(
                   names=", ".join(missing_t), known=known_t))
    click.echo(_("indexes: all present ({known} known)").format(known=known_i)
               if not missing_i else
               _("indexes: missing {names} ({known} known)").format(
                   names=", ".join(missing_i), known=known_i))
    games_bad = [f for f in findings if f.kind == "games"]
    click.echo(_("games table: matches the logs") if not games_bad else
               _("games table: {problems}").format(problems=counted("problem", len(games_bad))))
    snap = doc["snapshots"]
    if not snap["checked"] and not snap["unchecked"]:
        click.echo(_("snapshots: none kept"))
    elif not snap["checked"]:
        click.echo(_("snapshots: none checked"))
    elif not snap["problems"]:
        click.echo(_("snapshots: {n} checked against a fresh fold: each is the table its log "
                     "folds to").format(n=snap["checked"]))
    else:
        click.echo(_("snapshots: {n} checked against a fresh fold: {problems}").format(
            n=snap["checked"], problems=counted("problem", len(snap["problems"]))))
    for note in snap["unchecked"]:
        click.echo(f"  {say(note)}")
    missing = doc["read_model"]["missing"]
    if missing:  # a cache not built yet (a copied or older game): no problem, but said
        click.echo(_("read model: none yet for {games} (`banco doctor --repair` builds it; "
                     "their readings read the log meanwhile)").format(
                         games=", ".join(_("game {game}").format(game=g) for g in missing)))
    for f in findings:
        click.echo(_("problem: {problem}").format(problem=say(f.problem)))
    for note in doc["not_checked"]:
        click.echo(_("not checked here: {what}").format(what=say(note)))
    history = doc["maintenance"]
    click.echo(_("maintenance history: none") if not history else
               ngettext("maintenance history: {n} entry", "maintenance history: {n} entries",
                        len(history)).format(n=len(history)))
    for m in history:
        # the history's own words, as recorded
        click.echo(_("  {at}  {what}  (why: {why})").format(at=m["at"], what=m["what"],
                                                           why=m["why"]))
    if doc["healthy"]:
        click.echo(_("healthy"))
    elif not repaired:
        click.echo(_("problems found: `banco doctor --repair` mends what it can; `banco audit` "
                     "checks every game's history"))
    else:  # what a repair left (an edited row): the same hint again after it was a loop
        click.echo(_("problems found that `banco doctor --repair` cannot mend: `banco audit` "
                     "names the first event that differs; `banco export` writes each game "
                     "that is sound; else restore the last `banco backup` (docs/referee.md)"))
