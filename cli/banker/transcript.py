"""`banco run FILE`: a transcript of banker's lines, recorded so that a re-run resumes.

Each line that does something gets a command id chained over the transcript:

    id_0 = sha256("banco run" NUL file name NUL salt)      (salt: empty, or random for --fresh)
    id_n = sha256(id_{n-1} NUL JSON of line n's words)      (the `!` mark and spacing left out)

so a line's id depends on the file's name and on every line before it.  Re-running the file
looks its lines up (by index: the games table for `new`, the game's command ids for the rest),
skips up to the last one recorded and goes on from there, in the same game, with the seq that
line left as `--expect`: a game that went on without the transcript is not resumed blindly.
Editing line k changes the ids from k on: the lines before it are skipped, k and after are
recorded.  The file's base name, not its path, seeds the chain: it may be run from anywhere.
"""

from __future__ import annotations

import hashlib
import json
import os
import shlex
import sys
from typing import NamedTuple

import click

from banco.cli.execution import LineOutcome, execute
from banco.cli.lines.other_file import names_another_file
from banco.cli.session import Session, pass_session, span
from banco.cli.words.i18n import N_, _, ngettext, say_error
from banco.ledger.base.errors import BancoError, ConflictError, UsageError
from banco.ledger.base.names import shown
from banco.ledger.base.text import msg
from banco.ledger.store.postgres_connection import shown as shown_db


class Line(NamedTuple):
    number: int  # in the file, from 1
    text: str  # as written, without the `!` mark
    words: list[str] | None  # shlex words; None when the line does not parse
    refusal_expected: bool
    command_id: str


def parse(name: str, text: str, salt: str = "") -> list[Line]:
    """The lines that do something (not blank, not comments), each with its chained id."""
    prev = hashlib.sha256(f"banco run\0{os.path.basename(name)}\0{salt}".encode()).hexdigest()
    lines = []
    # Lines end at "\n" (the file was read with universal newlines), as an editor shows them:
    # splitlines() also breaks at U+001C-1E, U+0085, U+2028..., which made two lines of one.
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        refusal = line.startswith("!")
        if refusal:
            line = line[1:].strip()
        try:
            words = shlex.split(line, comments=True)
        except ValueError:
            words = None
        if words == []:
            continue
        body = json.dumps(words, ensure_ascii=False) if words is not None else line
        prev = hashlib.sha256(f"{prev}\0{body}".encode()).hexdigest()
        lines.append(Line(number, line, words, refusal, "run-" + prev[:32]))
    return lines


def _own_id(line: Line) -> str:
    """The id the line will be recorded under: its own `--id KEY` if it gives one."""
    words = line.words or []
    for i, w in enumerate(words):
        if w == "--id" and i + 1 < len(words):
            return words[i + 1]
        if w.startswith("--id="):
            return w[5:]
    return line.command_id


class Recorded(NamedTuple):
    count: int  # lines[:count] are done
    game: int | None
    seq: int | None  # where the last recorded line left its game
    accepted: tuple | None = None  # (Line, rows): a `!` line of the prefix the rules accepted


def recorded_prefix(session, lines: list[Line]) -> Recorded:
    """How far this transcript is already recorded in the session's database."""
    if not os.path.exists(session.db):
        return Recorded(0, None, None)
    book = session.book
    try:
        game = session.game()
    except UsageError:  # no game yet
        game = None
    found = Recorded(0, None, None)
    for i, line in enumerate(lines, start=1):
        if line.words is None:
            continue
        cid = _own_id(line)
        if line.words[0] == "new":
            game = book.game_started_by(cid)
            rows = book.recorded(game, cid) if game is not None else []
        else:
            rows = book.recorded(game, cid) if game is not None else []
        if rows:
            found = Recorded(i, game, rows[-1]["seq"], found.accepted)
            if line.refusal_expected and found.accepted is None \
                    and any(r["type"] not in REFUSAL_ROWS for r in rows):
                found = found._replace(accepted=(line, rows))
    return found


# What a refusal that is recorded leaves (a late claim, ledger/rules/claims.py): a `!` line whose
# rows are anything else was accepted.
REFUSAL_ROWS = frozenset({"CommandRecorded", "RentClaimRefused"})


def _where(session) -> tuple[int, int] | None:
    """(game, seq) as this run last saw it: the next line's --expect."""
    try:
        game = session.game()
        return game, session.book.state(game).seq
    except BancoError:
        return None


def run_transcript(session, name: str, text: str, *, commands: click.Group,
                   quiet: bool = False, resume: bool = False, fresh: bool = False,
                   dry_run: bool = False) -> None:
    """Run the transcript's lines in `session` (`commands`: the command line's group, which
    runs the lines the library records nothing for: cli/execution.py); exits (SystemExit)
    with the line's code when a line is refused or fails, 130 when interrupted."""
    if dry_run:
        return _dry_run(session, name, text, commands=commands, quiet=quiet, resume=resume,
                        fresh=fresh)
    salt = os.urandom(16).hex() if fresh else ""
    lines = parse(name, text, salt)
    _one_file(name, lines)
    done = recorded_prefix(session, lines) if not fresh else Recorded(0, None, None)
    if resume and not done.count:
        raise UsageError("--resume: no line of {name} is recorded in {db} (the ids come from the file's name and its lines: was it renamed, or its first line edited?); run it without --resume to start it",
                         name=name, db=shown_db(session.db))
    seen = None
    if done.accepted is not None:
        # a re-run must not go on past it as if the table had refused it
        line, rows = done.accepted
        click.echo(_("{name}:{number}: `{text}` was expected to be refused, but an earlier run recorded it as accepted ({events}): remove its `!` if the table was right; nothing was recorded by this run").format(
            name=name, number=line.number, text=shown(line.text, 80), events=span(rows)),
            err=True)
        sys.exit(2)
    if done.count:
        session.use_game(done.game)
        last_line = lines[done.count - 1].number
        if done.count == len(lines):
            click.echo(ngettext("{name}: its {count} line is already recorded in game {game}; "
                                "nothing to do",
                                "{name}: all {count} lines already recorded in game {game}; "
                                "nothing to do", len(lines)).format(
                name=name, count=len(lines), game=done.game))
            return
        now_at = session.book.state(done.game).seq
        if now_at != done.seq:
            raise ConflictError(
                "game {game} went on without this transcript: its line {last_line} left the game at event {seq}, and it is at event {now_at}; nothing was recorded (`--fresh` records the transcript as a new game)",
                game=done.game, last_line=last_line, seq=done.seq, now_at=now_at)
        click.echo(_("resuming game {game}: lines 1-{last_line} already recorded").format(game=done.game, last_line=last_line))
        seen = (done.game, done.seq)
    ran = 0
    last_recorded: tuple[int, int] | None = None  # (line number, seq)
    current = None
    try:
        for line in lines[done.count:]:
            current = line
            if not quiet:
                click.echo(f"> {line.text}")
            if line.words is None:
                click.echo(_("{name}:{number}: `{text}` does not parse (unbalanced quotes?); stopped").format(name=name, number=line.number, text=line.text), err=True)
                sys.exit(2)
            # Quiet: nothing of a line is shown, not even an expected refusal's reasons; what
            # it said on stderr is shown only if the line stops the run.
            outcome = _execute(session, line, seen, echo=not quiet, commands=commands)
            code, said = outcome.code, (outcome.errors if quiet else "")
            seen = _where(session)
            if seen is not None and session.book.recorded(seen[0], _own_id(line)):
                last_recorded = (line.number, seen[1])
            if line.refusal_expected and code == 1:
                ran += 1
                continue
            if line.refusal_expected and code == 0:
                _accepted(session, name, line, seen, said, ran + 1)
            if code != 0 or line.refusal_expected:
                if said:
                    click.echo(said.rstrip("\n"), err=True)
                what = (_(NEEDS_WORD) if outcome.needs_word  # its help, said above, lists them
                        else _(FAILED[code]) if code in FAILED
                        else _("failed (exit {code})").format(code=code))
                click.echo(ngettext("{name}:{number}: `{text}` {what}; stopped after {ran} line",
                                    "{name}:{number}: `{text}` {what}; stopped after {ran} lines",
                                    ran).format(name=name, number=line.number,
                                                text=shown(line.text, 80), what=what, ran=ran),
                           err=True)
                sys.exit(code)
            ran += 1
    except KeyboardInterrupt:
        _interrupted(session, name, current, last_recorded)
    more = (ngettext(" ({n} was recorded before)", " ({n} were recorded before)",
                     done.count).format(n=done.count) if done.count else "")
    click.echo(ngettext("{name}: {ran} line done{more}", "{name}: {ran} lines done{more}",
                        ran).format(name=name, ran=ran, more=more))


def _accepted(session, name: str, line: Line, seen, said: str, ran: int) -> None:
    """A `!` line the rules accepted: the transcript was wrong about the table.  The line is
    counted and, if it recorded something, said so with the way back.  Exit 2: the file given
    is mistaken (as a usage error's words are); 1 would tell a script that nothing was
    appended, and the line may well have been."""
    if said:
        click.echo(said.rstrip("\n"), err=True)
    rows = session.book.recorded(seen[0], _own_id(line)) if seen is not None else []
    text = shown(line.text, 80)
    if rows:
        click.echo(ngettext(
            "{name}:{number}: `{text}` was expected to be refused, but was accepted and recorded ({events}: `undo` takes it back, or remove its `!` if the table was right); stopped after {ran} line",
            "{name}:{number}: `{text}` was expected to be refused, but was accepted and recorded ({events}: `undo` takes it back, or remove its `!` if the table was right); stopped after {ran} lines",
            ran).format(name=name, number=line.number, text=text, events=span(rows), ran=ran),
            err=True)
    else:
        click.echo(ngettext("{name}:{number}: `{text}` {what}; stopped after {ran} line",
                            "{name}:{number}: `{text}` {what}; stopped after {ran} lines",
                            ran).format(name=name, number=line.number, text=text, ran=ran,
                                        what=_("was accepted but was expected to be refused")),
                   err=True)
    sys.exit(2)


FAILED = {1: N_("was refused"), 2: N_("is not a command banco can run"),
          4: N_("could not be recorded: the database cannot be used"),
          5: N_("was not recorded: the game changed meanwhile")}
# a group given no word (`ruling`): a command, whose help (said as the shell says it) lists
# the words it needs; "not a command banco can run" misled
NEEDS_WORD = N_("needs one of the words its help above lists")


def _one_file(name: str, lines: list[Line]) -> None:
    """A transcript works on the file it is run on: a line naming another (`--db`) stops it
    before its first line is run (cli/lines/other_file.py), nothing half-recorded."""
    for line in lines:
        refused = names_another_file(line.text)
        if refused is not None:
            click.echo(_("{name}:{number}: {message}").format(
                name=name, number=line.number, message=say_error(refused)), err=True)
            sys.exit(refused.exit_code)


def _execute(session, line: Line, seen, *, echo: bool, commands: click.Group) -> LineOutcome:
    return execute(session, line.text, command_id=line.command_id, expected=seen, echo=echo,
                   commands=commands)


def _interrupted(session, name: str, current: Line | None, last_recorded) -> None:
    """Ctrl-C: say what is recorded (the line being run may have been, if the signal came
    after its commit) and how to go on."""
    if current is not None and current.words:
        where = _where(session)
        if where is not None:
            rows = session.book.recorded(where[0], _own_id(current))
            if rows:
                last_recorded = (current.number, rows[-1]["seq"])
    if last_recorded:
        line, seq = last_recorded
        click.echo(_("{name}: interrupted after line {line} (event {seq} recorded); re-run to continue").format(name=name, line=line, seq=seq), err=True)
    else:
        at = f" at line {current.number}" if current else ""
        click.echo(_("{name}: interrupted{at}; nothing was recorded by this run; re-run to continue").format(name=name, at=at), err=True)
    sys.exit(130)


def _dry_run(session, name: str, text: str, **options) -> None:
    """The transcript on a copy of the database (SQLite's backup: the WAL included; from a
    PostgreSQL database, the games the transcript acts on copied into a SQLite file, numbered
    as there, each verified): its lines checked against the real games, nothing kept.  A URL
    is never a file's name: the copy of a PostgreSQL database was an empty file, on which a
    dry run meant nothing."""
    import tempfile

    from banco.ledger.store.postgres_connection import is_postgres_url

    postgres = is_postgres_url(session.db)
    with tempfile.TemporaryDirectory(prefix="banco-dry-run-") as tmp:
        copy = os.path.join(tmp, "banco.db" if postgres
                            else os.path.basename(session.db) or "banco.db")
        if postgres:
            _copy_games(session, parse(name, text), copy)
        elif os.path.exists(session.db):
            session.book.store.checks().backup(copy)
        trial = Session(copy, session.game_option, session.actor)
        note = _("dry run: checked on a copy; nothing was written to {db}").format(
            db=shown_db(session.db))
        try:
            run_transcript(trial, name, text, **options)
        except (SystemExit, BancoError):
            click.echo(note, err=True)
            raise
        finally:
            trial.close()
        click.echo(note, err=True)


def _copy_games(session, lines: list[Line], copy: str) -> None:
    """Into the SQLite file `copy`, the games of the session's PostgreSQL database that the
    lines act on, numbered as there: its game (`--game`, else the latest unfinished), those a
    line names with `--game`, and, for a `new`, the newest (the new game's number follows
    it).  The whole database when a line may read beyond one game (`games`, `audit` ...) or
    names a game that is not there (its refusal lists the games): copying every game of a
    hall's database for one game's lines took as long as a backup."""
    from banco.ledger.store.copy import copy_game
    from banco.ledger.store.open import open_store

    book = session.book
    if not book.store.has_tables():
        return
    try:
        current = {book.current_game(session.game_option)}
    except UsageError:  # no game yet (the lines may start one), or --game names none there
        current = None if session.game_option is not None else set()
    wanted = None if current is None else _acted_on(lines, [g["game_id"] for g in book.games()],
                                                    current)
    if wanted is None:
        book.store.checks().backup(copy)
        return
    dst = open_store(copy, create=True)
    try:
        for game in sorted(wanted):
            copy_game(book.store, dst, game, same_number=True)
    finally:
        dst.close()


def _acted_on(lines: list[Line], games: list[int], wanted: set[int]) -> set[int] | None:
    """The games `_copy_games` copies, the session's `wanted` and those the lines need (None:
    all of them)."""
    from banco.cli.lines.parse import table_action
    from banco.cli.lines.vocabulary import english_word

    for line in lines:
        words = line.words or []
        if not words:
            continue  # it does not parse: the run stops there
        word = english_word(words[0])
        if word == "new":
            wanted.update(games[-1:])
        elif table_action(words) is None and word not in ("correct", "ruling"):
            return None
        for i, w in enumerate(words):
            named = (words[i + 1] if w == "--game" and i + 1 < len(words)
                     else w[len("--game="):] if w.startswith("--game=") else None)
            if named is not None:
                if not named.isdecimal() or int(named) not in games:
                    return None
                wanted.add(int(named))
    return wanted


def _transcript_text(name: str, data: bytes, db: str) -> str:
    """A transcript's text, or a usage error that says what the file is instead: a database,
    a compressed file (by its first bytes), or text that is not UTF-8 (where: line and offset).
    A UTF-8 byte-order mark, as an editor may begin a file with, is read past (as utf-8-sig
    does)."""
    from banco.cli.file_kinds import HEAD, refuse_wrong_kind

    refuse_wrong_kind(name, data[:HEAD], msg("a transcript"), db)
    bom = 3 if data.startswith(b"\xef\xbb\xbf") else 0
    try:
        return data[bom:].decode("utf-8")
    except UnicodeDecodeError as exc:
        at = bom + exc.start  # the offset in the file, as `xxd` shows it
        byte = f"0x{data[at]:02x}"
        raise UsageError("{transcript} is not a transcript: it is not UTF-8 text (line {line} "
                         "holds the byte {byte}, at offset {offset}); a transcript has one banco "
                         "line a line", transcript=name, line=data.count(b"\n", 0, at) + 1,
                         byte=byte, offset=at) from None


def _read(transcript, db: str) -> bytes:
    """The transcript's bytes, bounded (cli/bounded_input.py), and refused at the first chunk
    that shows it is not a transcript (a database, bytes that are not UTF-8)."""
    import codecs

    from banco.cli.bounded_input import read_transcript

    decoder = codecs.getincrementaldecoder("utf-8")()

    def check(chunks: list[bytes]) -> None:
        if len(chunks) == 1:  # the file's first bytes tell a database or an archive
            from banco.cli.file_kinds import HEAD, refuse_wrong_kind

            refuse_wrong_kind(transcript.name, chunks[0][:HEAD], msg("a transcript"), db)
        try:
            decoder.decode(chunks[-1])
        except UnicodeDecodeError:  # said with its line and offset, as a whole file's would be
            _transcript_text(transcript.name, b"".join(chunks), db)
            raise

    return read_transcript(transcript, source=transcript.name, check=check)


@click.command()
# read as bytes: a wrong kind of file is told by its first bytes (cli/file_kinds.py)
@click.argument("transcript", type=click.File("rb"))
@click.option("--quiet", "-q", is_flag=True, help="Only report the end or the refused line.")
@click.option("--resume", is_flag=True,
              help="Continue the game this transcript recorded; fail if none of it is recorded "
                   "(a plain run resumes too, or starts afresh when nothing is recorded).")
@click.option("--fresh", is_flag=True,
              help="Record the transcript again from its first line, as a new game.")
@click.option("--dry-run", is_flag=True,
              help="Check the transcript on a copy of the database; write nothing.")
@pass_session
def run(session, transcript, quiet, resume, fresh, dry_run):
    """Run a transcript of banco lines; stop at the first refused one.

    A line starting with `!` is expected to be refused (a late claim, say): its refusal is
    recorded and the run goes on; if it is accepted instead, it is recorded and the run stops,
    exit 2 (`undo` takes it back, or remove the `!` if the table was right).

    Each line gets a command id chained from the file's name and every line before it, so a
    transcript re-run after a crash, or after fixing the line it stopped at, skips what is
    already recorded and goes on in the same game.
    """
    if resume and fresh:
        raise UsageError("--resume and --fresh contradict each other: choose one")
    text = _transcript_text(transcript.name, _read(transcript, session.db), session.db)
    # the group `banco run` was started from runs what the library records nothing for
    run_transcript(session, transcript.name, text, quiet=quiet, resume=resume, fresh=fresh,
                   dry_run=dry_run, commands=click.get_current_context().find_root().command)
