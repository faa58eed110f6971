"""The database's integrity: `doctor` (the file's health, and `--repair`), `keygen` and `seal`
(a referee's signature on a game's head), and the body of `audit` (cli/referee/commands.py declares
its options): every game, the file beside the games, a seal."""

from __future__ import annotations

import os
import sys

import click

from banco.cli.session import dump, json_option, pass_session, records
from banco.cli.words.i18n import _, counted, ngettext, say
from banco.ledger.base.errors import EXIT_AUDIT, UsageError
from banco.ledger.base.text import Fact, msg
from banco.ledger.store.games import listed_games

# --- audit ----------------------------------------------------------------------------------


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
        raise UsageError("no game in {db} yet: nothing to audit", db=session.book.store.shown)
    if as_json:
        dump(report.document())
    else:
        _print_report(report, expect_head)
    if not report.ok:
        sys.exit(EXIT_AUDIT)


def read_seal(seal_path: str | None, pubkey_path: str | None):
    """(the seal file, the referee's public key) that --seal and --pubkey name."""
    from banco.cli.bounded_input import read_bounded
    from banco.ledger.records import seals

    if (seal_path is None) != (pubkey_path is None):
        raise UsageError("--seal FILE and --pubkey FILE go together: the seal the referee "
                         "kept, and the referee's public key (from `banco keygen`)")

    try:
        with open(seal_path, encoding="utf-8") as f:
            text = read_bounded(f, path=seal_path)  # `--seal /dev/zero` is not read whole
    except FileNotFoundError:
        raise UsageError("no seal file at {path}", path=seal_path) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError("cannot read the seal file {path}: {why}", path=seal_path,
                         why=exc) from None
    try:
        seal = seals.parse_seal(text)
    except seals.SealFileError as exc:
        raise UsageError("{path} is not a seal banco can read: {why}", path=seal_path,
                         why=exc.text) from None
    try:
        public = seals.load_public_key(pubkey_path)
    except seals.KeyFileError as exc:
        raise UsageError(exc.text) from None
    return seal, public


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


def print_seal(seal) -> None:
    """What a seal check found (projections/audit/database_audit.py SealCheck): for `audit --seal`
    and `import --seal`."""
    if seal is not None:
        who = _("referee {referee}, key {fingerprint}").format(referee=seal.referee,
                                                               fingerprint=seal.fingerprint)
        if seal.ok:
            click.echo(_("seal {line} ({who}): signature good; game {game}'s events 1-{seq} are "
                         "the ones sealed, none missing").format(line=seal.line, who=who,
                                                                 game=seal.game, seq=seal.seq))
            if seal.after:
                click.echo(_("  after the seal: events {first}-{last}:").format(
                    first=seal.seq + 1, last=seal.last_seq))
                for c in seal.after[:20]:
                    span = (_("event {seq}").format(seq=c["first"]) if c["first"] == c["last"]
                            else _("events {first}-{last}").format(first=c["first"],
                                                                   last=c["last"]))
                    click.echo(f"    {span}: {say(c['line'])}")
                if len(seal.after) > 20:
                    click.echo(_("    ... and {n} more commands").format(
                        n=len(seal.after) - 20))
            else:
                click.echo(_("  nothing was recorded after the seal"))
        elif seal.bad_seq is not None:
            click.echo(_("seal {line} ({who}): FAILED at event {seq}: {problem}").format(
                line=seal.line, who=who, seq=seal.bad_seq, problem=say(seal.problem)))
        else:
            click.echo(_("seal {line} ({who}): FAILED: {problem}").format(
                line=seal.line, who=who, problem=say(seal.problem)))


# --- keygen ---------------------------------------------------------------------------------

@click.command()
@click.option("--out", "prefix", default="referee", show_default=True, metavar="PREFIX",
              help="Write PREFIX.key (private: keep it away from the database) and PREFIX.pub.")
def keygen(prefix):
    """Make a referee's Ed25519 key pair for `banco seal`: PREFIX.key signs, PREFIX.pub
    checks (`banco audit --seal FILE --pubkey PREFIX.pub`).  Never overwrites a file."""
    from banco.ledger.base.names import code_point, hidden_character, shown
    from banco.ledger.records import seals

    # A control character in a key's name would make a file that `ls` shows as another
    # name, and the referee types the name back later (`seal --key`, `audit --pubkey`).
    bad = hidden_character(prefix)
    if bad is not None:
        raise UsageError("the name {text!r} holds the character {code}: give --out PREFIX in "
                         "printable characters", text=shown(prefix), code=code_point(bad))
    private_path, public_path = f"{prefix}.key", f"{prefix}.pub"
    for path in (private_path, public_path):
        if os.path.exists(path):
            raise UsageError("{path} exists: banco never overwrites a key (a lost key cannot "
                             "check old seals); give another --out PREFIX", path=path)
    folder = os.path.dirname(os.path.abspath(private_path))
    if not os.path.isdir(folder):
        raise UsageError("cannot write {path}: the folder {folder} does not exist",
                         path=private_path, folder=folder)
    private, public = seals.new_key_pair()
    fd = os.open(private_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(private)
    with open(public_path, "xb") as f:
        f.write(public)
    key = seals.load_public_key(public_path)
    click.echo(_("wrote {private} (private: only the referee reads it) and {public} (public: "
                 "give it to whoever checks a seal)\nfingerprint {fingerprint}").format(
                     private=private_path, public=public_path,
                     fingerprint=seals.fingerprint(key)))


# --- seal -----------------------------------------------------------------------------------

@click.command()
@click.option("--key", "key_path", required=True, metavar="FILE",
              help="The referee's private key (`banco keygen`).")
@click.option("--referee", default=None, metavar="NAME",
              help="Who seals (default: the key file's name, `rita` for rita.key).")
@click.option("--out", "out_path", default=None, metavar="FILE",
              help="The seal file (default game-<N>-seal-<seq>.txt); never overwritten.")
@pass_session
@records
def seal(session, key_path, referee, out_path):
    """Sign the game's head with the referee's key, record the seal in the game
    (SealRecorded), and write the seal file the referee keeps; print the short line for the
    score sheet, banco/<game>/<seq>/<12 hex>.  The game is audited first: a history that does
    not audit clean is not sealed."""
    from banco.ledger.records import commands as c
    from banco.ledger.records import seals
    from banco.projections.audit.audit_games import audit_game

    try:
        key = seals.load_private_key(key_path)
    except seals.KeyFileError as exc:
        raise UsageError(exc.text) from None
    if referee is None:
        referee = os.path.splitext(os.path.basename(key_path))[0]
    if not referee.strip():
        raise UsageError("a seal names the referee: --referee NAME")
    from banco.ledger.rules.referee import referee_name

    referee = referee_name(referee)  # checked as a player's name is, before the key signs
    game = session.game()
    store = session.book.store
    from banco.cli.referees import referee_of

    referee = referee_of(store, game, referee)  # not a player of the game it seals
    seq = store.last_seq(game)
    out_path = out_path or f"game-{game}-seal-{seq}.txt"
    if os.path.exists(out_path) and session.command_id is None:
        raise UsageError("{path} exists: banco never overwrites a seal; give --out FILE",
                         path=out_path)
    report = audit_game(store, game)
    if not report.ok:
        click.echo(_("game {game}: FAILED at event {seq}: {problem}\nnot sealed: a seal "
                     "vouches for a history that audits clean").format(
                         game=game, seq=report.bad_seq, problem=say(report.problem)), err=True)
        sys.exit(EXIT_AUDIT)
    head = report.head
    info = store.game(game) or {}
    uuid = info.get("uuid")
    public = seals.public_hex(key)
    signature = seals.sign(key, seals.message(uuid, seq, head, referee))
    from banco.cli.session import record, tell

    # the head signed must still be the head when it is recorded
    outcome = record(session, c.Seal(seq, head, uuid, public, signature, referee), expect=seq)
    if outcome.refusal is not None:
        tell(outcome)
    fact = next(e for e in outcome.events if e["type"] == "SealRecorded")
    d = fact["data"]
    trail = [h[:seals.TRAIL_DIGITS] for _, h in store.checks().hashes(game, d["seq"])]
    sealed = seals.SealFile(game, uuid, d["seq"], d["head"], d["referee"], d["public_key"],
                            d["signature"], fact["recorded_at"], trail)
    if outcome.replayed and os.path.exists(out_path):
        click.echo(_("already sealed (event {seq}); {path} kept as it is").format(
            seq=fact["seq"], path=out_path))
    else:
        try:
            with open(out_path, "x", encoding="utf-8") as f:
                f.write(seals.seal_text(sealed))
        except OSError as exc:
            raise UsageError("the seal is recorded (event {seq}) but {path} cannot be written "
                             "({why}): `banco show {seq}` has its signature", seq=fact["seq"],
                             path=out_path, why=Fact(exc.strerror, "os")) from None
    click.echo(_("sealed game {game} at event {seq} (head {head}...), referee {referee}, key "
                 "{fingerprint}\nrecorded as event {event} (SealRecorded); seal file {path}"
                 ).format(game=game, seq=d["seq"], head=d["head"][:12], referee=d["referee"],
                          fingerprint=d["fingerprint"], event=fact["seq"], path=out_path))
    click.echo(sealed.line)


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
