"""The database file itself: `backup` (a safe copy of a live database)."""

from __future__ import annotations

import os

import click

from banco.cli.safe_output import remove_database
from banco.cli.session import pass_session
from banco.cli.words.i18n import _, counted
from banco.ledger.base.errors import UsageError


@click.command()
@click.argument("target", metavar="FILE")
@click.option("--force", is_flag=True, help="Replace FILE if it exists.")
@pass_session
def backup(session, target, force):
    """Copy the database to FILE while it is in use, with SQLite's online backup (what is
    still in the write-ahead log included).  Use it rather than `cp`, which can copy a file
    without its last commands, or half of one being written."""
    import tempfile

    from banco.cli.safe_output import FILE, check_named, output_target, refuse_database
    from banco.ledger.store import token_key, tokens
    from banco.ledger.store.sqlite import SQLiteStore

    check_named(target)
    if os.path.exists(target) and os.path.samefile(target, session.db):
        raise UsageError("the backup must go to another file than the database itself")
    refuse_database(target, session.db)  # its -wal, -shm, -journal or tokens' key: no backup
    if os.path.isdir(target):
        raise UsageError("{target} is a folder: name the backup file, e.g. {items}",
                         target=target, items=os.path.join(target, os.path.basename(session.db)))
    real = os.path.realpath(target)
    if os.path.exists(real) and not os.path.isfile(real):  # said at once, not after --force
        raise UsageError("{target} is not a file: a backup is a database file", target=target)
    if os.path.exists(target) and not force:
        raise UsageError("{target} exists: give another name, or --force to replace it",
                         target=target)
    if output_target(target, force)[0] != FILE:  # a pipe, a terminal: refused
        raise UsageError("{target} is not a file: a backup is a database file", target=target)
    folder = os.path.dirname(os.path.abspath(target))
    if not os.path.isdir(folder):
        raise UsageError("cannot write {target}: the folder {folder} does not exist",
                         target=target, folder=folder)
    store = session.book.store
    # Into a temporary file beside the target, then renamed: no half-written backup, ever.
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".banco-backup-", suffix=".db")
    os.close(fd)
    try:
        store.checks().backup(tmp)
        copy = SQLiteStore(tmp)
        try:
            games = copy.games()
            check = copy.conn.execute("PRAGMA quick_check").fetchone()[0]
            keyed = bool(tokens.entries(copy.conn))
        finally:
            copy.close()
        if check != "ok":
            raise UsageError("the copy does not check out ({check}): {target} not written",
                             check=check, target=target)
        if force:
            os.replace(tmp, target)
        else:
            _claim(tmp, target)
    finally:
        remove_database(tmp)
    # The phones' tokens came with the file: their key must go too, or an audit of the backup
    # elsewhere names every keyed entry (ledger/store/token_key.py).
    key = token_key.carry(session.db, target) if keyed else None
    events = sum(g["events"] for g in games)
    click.echo(_("backed up {db} to {target}: {games}, {events}; the copy checks out (quick_check ok)").format(db=session.book.shown, target=target, games=counted("game", len(games)), events=counted("event", events)))
    if key is not None:
        click.echo(_("the phones' tokens' key went beside it, {key} (mode 0600): keep the two "
                     "together, as its audit needs the key").format(key=key))


def _claim(tmp: str, target: str) -> None:
    """Put the finished copy at `target` unless someone created it meanwhile (then
    FileExistsError).  A hard link does it in one step; a USB stick's FAT or some network
    shares have none: there the name is claimed with an exclusive create, then replaced."""
    try:
        os.link(tmp, target)
    except FileExistsError:
        raise
    except OSError:
        os.close(os.open(target, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        os.replace(tmp, target)
        return
    os.unlink(tmp)


def _forget_if_empty(path: str) -> None:
    """Remove a database file this command created if it holds no game (as an import refused
    into a new file leaves none)."""
    import sqlite3

    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            held = conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]
        except sqlite3.OperationalError:  # no games table: nothing was written
            held = 0
        finally:
            conn.close()
    except sqlite3.Error:
        return
    if held == 0:
        remove_database(path)


def _one_store_named(named: str) -> None:
    """`banco --db games.db copy new.db`: copy reads no --db (it names both stores), and
    click's "Missing argument 'DST'" did not say so."""
    from click.core import ParameterSource

    from banco.ledger.store.postgres_connection import shown

    root = click.get_current_context().find_root()
    if root.get_parameter_source("db") in (ParameterSource.COMMANDLINE,
                                           ParameterSource.ENVIRONMENT):
        raise UsageError("copy names both stores and reads no --db: `banco copy {db} {named}`",
                         db=shown(root.params["db"]), named=named)
    raise UsageError("copy names both stores: `banco copy SRC DST`, each a database file or a "
                     "postgresql:// URL")


@click.command("copy")
@click.argument("source", metavar="SRC")
@click.argument("target", metavar="DST", required=False)
def copy(source, target):
    """Copy every game of the store SRC into the store DST: each a database file or a
    postgresql:// URL (SQLite to PostgreSQL and back).  Each game arrives whole, its rows as
    stored (the same hashes), and is checked on arrival: its chain read back must end at the
    source's head, and audited as `import` audits a file (each command derived again): a game
    that fails is refused whole.  A game DST already holds with another history is refused
    before anything of it is written; one it holds whole (the same head) is skipped, so a copy
    stopped midway is resumed by running it again."""
    from banco.ledger.store.open import copy_to, open_store
    from banco.ledger.store.postgres_connection import shown
    from banco.projections.exchange.import_audit import audit_copied

    if target is None:
        _one_store_named(source)
    if not os.path.exists(source) and "://" not in source:
        raise UsageError("{source} does not exist: name a banco database file or a "
                         "postgresql:// URL", source=source)
    from banco.cli.progress import Progress

    if "://" not in source + target and os.path.exists(target) \
            and os.path.samefile(source, target):
        raise UsageError("{source} and {target} are the same database: name another for DST",
                         source=source, target=target)
    for role, path in (("SRC", source), ("DST", target)):
        _check_sqlite(role, path)
    src = open_store(source, create=False)
    new_file = "://" not in target and not os.path.exists(target)
    left = _not_copied(src, source)
    skipped: list = []
    try:
        # a bar on a terminal for a long copy (issue 21); a game at a time is committed
        with Progress(sum(g["events"] or 0 for g in src.games()), "copy") as bar:
            copied = copy_to(src, target, progress=bar.step, audit=audit_copied,
                             skipped=skipped)
    except BaseException:
        if new_file:
            _forget_if_empty(target)  # a copy refused or stopped before its first game
        raise
    finally:
        src.close()
    for before, after, head in skipped:
        click.echo(_("game {src} = game {dst}: already there whole (head {head}), skipped").format(
            src=before, dst=after, head=(head or "")[:12]))
    for before, after, head in copied:
        click.echo(_("game {src} -> game {dst}: head {head}").format(
            src=before, dst=after, head=(head or "")[:12]))
    click.echo(_("copied {games} to {target}, every head equal to the source's").format(
        games=counted("game", len(copied)), target=shown(target)))
    for line in left:
        click.echo(line, err=True)


def _check_sqlite(role: str, path: str) -> None:
    """A file given as SRC or DST that is no SQLite database, said by its role: the store's
    own words asked 'is --db the right file?', and copy has no --db."""
    from banco.ledger.base.errors import DatabaseError

    if "://" in path or not os.path.isfile(path) or os.path.getsize(path) == 0:
        return
    try:
        with open(path, "rb") as f:
            head = f.read(16)
    except OSError:
        return  # the store says why it cannot be read
    if head != b"SQLite format 3\x00":
        raise DatabaseError("{path} is not a SQLite database: copy's {role} is a banco "
                            "database file or a postgresql:// URL", path=path, role=role)


def _not_copied(src, source: str) -> list[str]:
    """What `copy` leaves behind, said rather than dropped: the tournaments (their facts name
    the games by their numbers in SRC) and the phones' tokens (a secret belongs to its file)."""
    from banco.cli.words.i18n import ngettext
    from banco.ledger.store.open import open_tokens
    from banco.ledger.tournaments import Tournaments

    out = []
    names = Tournaments(src).names()
    if names:
        out.append(ngettext(
            "note: the tournament {names} was not copied (its facts name games by their numbers "
            "here): `banco tournament new` and `tournament add` it again in DST",
            "note: the tournaments {names} were not copied (their facts name games by their "
            "numbers here): `banco tournament new` and `tournament add` them again in DST",
            len(names)).format(names=", ".join(names)))
    tokens = open_tokens(source)
    try:
        live = [t for t in tokens.listed() if not t.revoked_at]
    finally:
        tokens.close()
    if live:
        out.append(ngettext("note: {n} phone token was not copied: `banco token` issues new "
                            "ones for DST", "note: {n} phone tokens were not copied: `banco "
                            "token` issues new ones for DST", len(live)).format(n=len(live)))
    return out
