"""The database's integrity: `doctor` (the file's health, and `--repair`), `keygen` and `seal`
(a referee's signature on a game's head), and the body of `audit` (cli/referee.py declares
its options): every game, the file beside the games, a seal."""

from __future__ import annotations

import os
import sys

import click

from ledger.errors import EXIT_AUDIT, UsageError

from .session import dump, json_option, pass_session, records

# --- the head line of a finished game --------------------------------------------------------

def head_line_text(game: int, seq: int, head: str) -> str:
    """What a finished game prints last: its short head line, for the score sheet."""
    from ledger.seals import head_line

    line = head_line(game, seq, head)
    return f"head line for the score sheet: {line}  (`banco audit --expect-head {line}` checks it)"


def finished_line(book, game: int) -> str | None:
    """The head line of a game that is over (None while it goes on): two index lookups."""
    info = book.store.game(game)
    if info is None or not info["ended"]:
        return None
    return head_line_text(game, info["events"], info["head"])


# --- audit ----------------------------------------------------------------------------------


def run_audit(session, expect_head: str | None, seal_path: str | None,
              pubkey_path: str | None, as_json: bool) -> None:
    """`audit`: every game of the database (or the one --game names, the one an
    --expect-head or a seal is about), the file's triggers, games table, tournaments."""
    from projections.audit import check_expected_head
    from projections.database_audit import audit_database

    if (seal_path is None) != (pubkey_path is None):
        raise UsageError("--seal FILE and --pubkey FILE go together: the seal the referee "
                         "kept, and his public key (from `banco keygen`)")
    try:
        check_expected_head(expect_head)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    seal = public = None
    game = session.game() if session.game_option is not None else None
    if seal_path is not None:
        seal, public = _read_seal(seal_path, pubkey_path)
        if game is None:
            game = _sealed_game(session, seal)
    elif expect_head is not None and game is None:
        game = _game_of_head(session, expect_head)
    store = session.book.store
    report = audit_database(store, game, expect_head, seal, public)
    if not report.games and not report.findings and report.seal is None:
        raise UsageError(f"no game in {session.db} yet: nothing to audit")
    if as_json:
        dump(report.document())
    else:
        _print_report(report)
    if not report.ok:
        sys.exit(EXIT_AUDIT)


def _read_seal(seal_path: str, pubkey_path: str):
    from ledger import seals

    try:
        with open(seal_path, encoding="utf-8") as f:
            text = f.read()
    except FileNotFoundError:
        raise UsageError(f"no seal file at {seal_path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read the seal file {seal_path}: {exc}") from None
    try:
        seal = seals.parse_seal(text)
    except ValueError as exc:
        raise UsageError(f"{seal_path} is not a seal banco can read: {exc}") from None
    try:
        public = seals.load_public_key(pubkey_path)
    except seals.KeyFileError as exc:
        raise UsageError(str(exc)) from None
    return seal, public


def _sealed_game(session, seal) -> int | None:
    store = session.book.store
    if seal.game_uuid:
        return store.game_with_uuid(seal.game_uuid)
    return seal.game


def _game_of_head(session, expect_head: str) -> int:
    """The game an --expect-head is about: a head line names it; a hash (or its first digits)
    is looked for in every game's log; found in none, the current game (which says so)."""
    from ledger.seals import parse_head_line

    line = parse_head_line(expect_head)
    if line is not None:
        session.use_game(line.game)
        return session.game()
    store = session.book.store
    prefix = expect_head.strip().lower()
    if store.conn is not None:
        found = store.conn.execute("SELECT DISTINCT game_id FROM events WHERE hash >= ? AND "
                                   "hash < ?", (prefix, prefix + "g")).fetchall()
        if len(found) == 1:
            return found[0][0]
        if len(found) > 1:
            raise UsageError("the head {head} begins a hash in games {games}: give more of "
                             "its digits or --game N", head=prefix[:12],
                             games=", ".join(str(g) for (g,) in found))
    return session.game()


def _print_report(report) -> None:
    from ledger.seals import head_line

    for r in report.games:
        if r.ok:
            derived = f", {r.commands} commands re-derived" if r.commands else ""
            click.echo(f"game {r.game_id}: {r.events} events, chain intact, schemas valid, "
                       f"books balance{derived}")
            if r.events:
                click.echo(f"  head {r.head}  ({head_line(r.game_id, r.events, r.head)})")
        else:
            where = f" at event {r.bad_seq}" if r.bad_seq is not None else ""
            click.echo(f"game {r.game_id}: FAILED{where}: {r.problem}")
        for note in r.notes:
            click.echo(f"  note: {note}")
    for f in report.findings:
        click.echo(f"database: {f.problem}")
    for m in report.maintenance:
        click.echo(f"maintenance {m['at']}: {m['what']} ({m['why']})")
    seal = report.seal
    if seal is not None:
        who = f"referee {seal.referee}, key {seal.fingerprint}"
        if seal.ok:
            click.echo(f"seal {seal.line} ({who}): signature good; game {seal.game}'s events "
                       f"1-{seal.seq} are the ones sealed, none missing")
            if seal.after:
                click.echo(f"  after the seal: events {seal.seq + 1}-{seal.last_seq}:")
                for c in seal.after[:20]:
                    span = (f"event {c['first']}" if c["first"] == c["last"]
                            else f"events {c['first']}-{c['last']}")
                    click.echo(f"    {span}: {c['line']}")
                if len(seal.after) > 20:
                    click.echo(f"    ... and {len(seal.after) - 20} more commands")
            else:
                click.echo("  nothing was recorded after the seal")
        else:
            where = f" at event {seal.bad_seq}" if seal.bad_seq is not None else ""
            click.echo(f"seal {seal.line} ({who}): FAILED{where}: {seal.problem}")


# --- keygen ---------------------------------------------------------------------------------

@click.command()
@click.option("--out", "prefix", default="referee", show_default=True, metavar="PREFIX",
              help="Write PREFIX.key (private: keep it away from the database) and PREFIX.pub.")
def keygen(prefix):
    """Make a referee's Ed25519 key pair for `banco seal`: PREFIX.key signs, PREFIX.pub
    checks (`banco audit --seal FILE --pubkey PREFIX.pub`).  Never overwrites a file."""
    from ledger import seals

    private_path, public_path = f"{prefix}.key", f"{prefix}.pub"
    for path in (private_path, public_path):
        if os.path.exists(path):
            raise UsageError("{path} exists: banco never overwrites a key (a lost key cannot "
                             "check old seals); give another --out PREFIX", path=path)
    folder = os.path.dirname(os.path.abspath(private_path))
    if not os.path.isdir(folder):
        raise UsageError(f"cannot write {private_path}: the folder {folder} does not exist")
    private, public = seals.new_key_pair()
    fd = os.open(private_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(private)
    with open(public_path, "xb") as f:
        f.write(public)
    key = seals.load_public_key(public_path)
    click.echo(f"wrote {private_path} (private: only the referee reads it) and {public_path} "
               f"(public: give it to whoever checks a seal)\nfingerprint {seals.fingerprint(key)}")


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
    from ledger import commands as c
    from ledger import seals
    from projections.audit import GameAudit

    try:
        key = seals.load_private_key(key_path)
    except seals.KeyFileError as exc:
        raise UsageError(str(exc)) from None
    if referee is None:
        referee = os.path.splitext(os.path.basename(key_path))[0]
    if not referee.strip():
        raise UsageError("a seal names the referee: --referee NAME")
    referee = referee.strip()
    game = session.game()
    store = session.book.store
    seq = store.last_seq(game)
    out_path = out_path or f"game-{game}-seal-{seq}.txt"
    if os.path.exists(out_path) and session.command_id is None:
        raise UsageError(f"{out_path} exists: banco never overwrites a seal; give --out FILE")
    report = GameAudit(game, store.raw_rows(game)).run()
    if not report.ok:
        click.echo(f"game {game}: FAILED at event {report.bad_seq}: {report.problem}\n"
                   "not sealed: a seal vouches for a history that audits clean", err=True)
        sys.exit(EXIT_AUDIT)
    head = report.head
    info = store.game(game) or {}
    uuid = info.get("uuid")
    public = seals.public_hex(key)
    signature = seals.sign(key, seals.message(uuid, seq, head, referee))
    write = session.write_args(game)
    write["actor"] = f"referee:{referee}"
    if write["expect"] is None:
        write["expect"] = seq  # the head signed must still be the head when it is recorded
    outcome = session.book.execute(game, c.Seal(seq, head, uuid, public, signature, referee),
                                   **write)
    fact = next(e for e in outcome.events if e["type"] == "SealRecorded")
    d = fact["data"]
    trail = [h for (h,) in store.conn.execute(
        "SELECT substr(hash, 1, ?) FROM events WHERE game_id=? AND seq<=? ORDER BY seq",
        (seals.TRAIL_DIGITS, game, d["seq"]))]
    sealed = seals.SealFile(game, uuid, d["seq"], d["head"], d["referee"], d["public_key"],
                            d["signature"], fact["recorded_at"], trail)
    if outcome.replayed and os.path.exists(out_path):
        click.echo(f"already sealed (event {fact['seq']}); {out_path} kept as it is")
    else:
        try:
            with open(out_path, "x", encoding="utf-8") as f:
                f.write(seals.seal_text(sealed))
        except OSError as exc:
            raise UsageError("the seal is recorded (event {seq}) but {path} cannot be written "
                             "({why}): `banco show {seq}` has its signature", seq=fact["seq"],
                             path=out_path, why=exc.strerror) from None
    click.echo(f"sealed game {game} at event {d['seq']} (head {d['head'][:12]}...), referee "
               f"{d['referee']}, key {d['fingerprint']}\nrecorded as event {fact['seq']} "
               f"(SealRecorded); seal file {out_path}\n{sealed.line}")


# --- doctor ---------------------------------------------------------------------------------

@click.command()
@click.option("--repair", is_flag=True,
              help="Recreate missing triggers and indexes, rebuild the games table from the "
                   "logs; each thing done is kept in the maintenance history.")
@click.option("--reason", default="banco doctor --repair", metavar="TEXT",
              help="Why (with --repair): kept in the maintenance history.")
@json_option
@pass_session
def doctor(session, repair, reason, as_json):
    """The database file's health: format, triggers, indexes, the games table against the
    logs, the tournaments' chains, snapshots, the maintenance history.  `banco audit` checks
    the games themselves.  Exit 0 healthy, 3 a problem found, 4 the file is unusable."""
    from ledger import health
    from ledger.errors import DatabaseError
    from ledger.store import FORMAT

    store = session.book.store
    if store.conn is None:
        from ledger.store import missing_database

        raise missing_database(session.db)
    conn = store.conn
    check = conn.execute("PRAGMA quick_check").fetchone()[0]
    if check != "ok":
        raise DatabaseError("{db} is damaged (SQLite's quick_check: {check}): restore it from "
                            "a backup", db=session.db, check=check)
    done: list[str] = []
    if repair:
        done = store.write(lambda conn: health.repair(conn, now=session.now(), why=reason))
        bad = [(f.game_id, f.seq, f.problem) for f in _snapshot_findings(store)]
        if bad:
            done += store.write(lambda conn: health.forget_snapshots(
                conn, bad, now=session.now(), why=reason))
        conn = store.conn
    unchecked: list[str] = []
    snapshots = _snapshot_findings(store, unchecked)
    findings = (health.structure_findings(conn) + health.games_findings(conn)
                + health.tournament_findings(conn)
                + [health.Finding("snapshot", str(f), f.game_id, f.seq, repairable=True)
                   for f in snapshots])
    if store.format > FORMAT:
        findings.append(health.Finding(
            "format", f"{session.db} is format {store.format}, written by a newer banco: this "
                      "banco reads it but cannot vouch for what that format added, nor repair "
                      "it: upgrade banco"))
    games = store.games()
    doc = {"database": session.db, "format": store.format, "writes": FORMAT,
           "games": len(games), "events": sum(g["events"] for g in games),
           "triggers": {"missing": health.missing_triggers(conn)},
           "indexes": {"missing": health.missing_indexes(conn)},
           "snapshots": {"checked": sum(len(store.snapshots(g["game_id"])) for g in games),
                         "problems": [str(f) for f in snapshots], "unchecked": unchecked},
           "repaired": done,
           "problems": [f.document() for f in findings],
           "maintenance": health.maintenance(conn), "healthy": not findings}
    if as_json:
        dump(doc)
    else:
        _print_doctor(doc, findings)
    if findings:
        sys.exit(EXIT_AUDIT)


def _snapshot_findings(store, skipped: list | None = None) -> list:
    """Every game's snapshots against a fresh fold of its log (ledger/snapshot.py).  A snapshot
    whose head matches the log is what `state` and the next command start from, so one that
    is not the folded table (an edit) is a problem even though the audit never reads it."""
    from ledger.errors import DatabaseError
    from ledger.snapshot import verify_snapshots

    found = []
    for g in store.games():
        if not store.snapshots(g["game_id"]):
            continue
        try:
            found += verify_snapshots(store, g["game_id"])
        except DatabaseError as exc:  # a log that cannot be folded: the audit names its seq
            if skipped is not None:
                skipped.append(f"game {g['game_id']}'s snapshots not checked: {exc}")
    return found


def _print_doctor(doc: dict, findings) -> None:
    click.echo(f"database {doc['database']}: format {doc['format']} (this banco writes "
               f"{doc['writes']}), {doc['games']} game(s), {doc['events']} event(s)")
    for what in doc["repaired"]:
        click.echo(f"repaired: {what}")
    from ledger.health import INDEXES, TRIGGERS

    missing_t, missing_i = doc["triggers"]["missing"], doc["indexes"]["missing"]
    click.echo(f"triggers: {'all present' if not missing_t else 'missing ' + ', '.join(missing_t)}"
               f" ({len(TRIGGERS)} known)")
    click.echo(f"indexes: {'all present' if not missing_i else 'missing ' + ', '.join(missing_i)}"
               f" ({len(INDEXES)} known)")
    games_bad = [f for f in findings if f.kind == "games"]
    click.echo("games table: " + ("matches the logs" if not games_bad else
                                   f"{len(games_bad)} problem(s)"))
    snap = doc["snapshots"]
    click.echo("snapshots: " + ("none kept" if not snap["checked"] else
                                 f"{snap['checked']} checked against a fresh fold: "
                                 + ("each is the table its log folds to" if not snap["problems"]
                                    else f"{len(snap['problems'])} problem(s)")))
    for note in snap["unchecked"]:
        click.echo(f"  {note}")
    for f in findings:
        click.echo(f"problem: {f.problem}")
    history = doc["maintenance"]
    click.echo("maintenance history: " + ("none" if not history else f"{len(history)} entr"
                                           f"{'y' if len(history) == 1 else 'ies'}"))
    for m in history:
        click.echo(f"  {m['at']}  {m['what']}  (why: {m['why']})")
    click.echo("healthy" if doc["healthy"] else
               "problems found: `banco doctor --repair` mends what it can; `banco audit` "
               "checks every game's history")
