"""What every command module shares: the open database and game (`Session`), name resolution,
and the one way a command is recorded: through the library (cli/library.py's execute, with
the command click built and the session's write context), its Outcome's words printed.
Imports nothing heavy at module level."""

from __future__ import annotations

import functools
import json

import click

from banco.cli.lines.names import (  # noqa: F401 - the parser's (no click); commands import them here
    WHO,
    deck_key,
    player_name,
    property_position,
)
from banco.ledger.base.errors import UsageError


class Session:
    """One open database and the game the commands address; shared by `shell` and `run`.

    It also carries the write context of the command being run: the line as typed, a command
    id (an idempotency key: `--id`, or derived by `run` and the shell) and the seq the writer
    expects the game to be at (`--expect`, or the shell's prompt)."""

    def __init__(self, db: str, game: int | None, actor: str = "banker"):
        self.db = db
        self.game_option = game
        self.actor = actor
        self.create = False  # `new` may create the database file; nothing else does
        self.in_shell = False  # `banco shell`: its own words (`game N`) can be suggested
        self._book = None
        self._game = None
        self.line: str | None = None
        self.command_id: str | None = None
        self.expected: tuple[int | None, int] | None = None  # (game or None: the addressed one)
        # what the line being run did, for cli/execution.py: the library's Outcomes, and the
        # BancoError that refused it (cli/main.py's BancoGroup notes it as it says it)
        self.outcomes: list = []
        self.refusal: Exception | None = None

    @property
    def book(self):
        if self._book is None:
            if not self.db.strip():  # `--db ""`, or a script's unset variable: not the disk's fault
                raise UsageError("--db needs a file name: it is empty")
            from banco.ledger.book import Book

            self._book = Book(self.db, create=self.create, warn=warn)
        return self._book

    @property
    def library(self):
        """The library (cli/library.py) over this session's book: what a line is executed
        by (cli/execution.py)."""
        from banco.cli.library import Library

        return Library.of(self.book, self.db)

    def game(self) -> int:
        # Resolved once: a command asks several times (names, then the write).
        if self._game is None:
            self._game = self.book.current_game(self.game_option)
        return self._game

    def use_game(self, game: int) -> None:
        """From now on, this game (`new` and `import` move the shell to the game they add)."""
        self.game_option = game
        self._game = game
        self._moved = True

    def address(self, game: int) -> None:
        """This line addresses game N (`--game N` on it): resolved again, and given back when
        the line ends (end())."""
        self.game_option, self._game = game, None

    _outer: tuple | None = None  # the game addressed before the line being run
    _moved = False

    def state(self):
        return self.book.state(self.game())

    def now(self) -> str:
        """The time recorded with a fact: now, or BANCO_FIXED_TIME (an ISO time) for
        reproducible recordings (tests, demos), never at a real table."""
        import os

        from banco.ledger.store.canonical import format_time, now_text

        fixed = os.environ.get("BANCO_FIXED_TIME")
        if fixed:
            from datetime import datetime

            try:
                return format_time(datetime.fromisoformat(fixed.replace("Z", "+00:00")))
            except ValueError:
                raise UsageError("BANCO_FIXED_TIME={fixed!r} is not an ISO time (e.g. 2026-11-29T21:00:00Z)",
                                 fixed=fixed) from None
        return now_text()

    # the write context of one command

    def begin(self, line: str | None = None, command_id: str | None = None,
              expected: tuple[int | None, int] | None = None) -> None:
        self.line, self.command_id, self.expected = line, command_id, expected
        self._outer, self._moved = (self.game_option, self._game), False
        self.outcomes, self.refusal = [], None

    def written(self, outcome):
        """Note what the library did for the line being run (its rows, a replay); returns it."""
        self.outcomes.append(outcome)
        return outcome

    def context(self) -> dict:
        return {"line": self.line, "command_id": self.command_id, "expected": self.expected}

    def end(self) -> None:
        """After a line of the shell or of a transcript: a `--game N` on it was for that line
        (a look at another game must not send the next `roll` there); `new` moves on."""
        if self._outer is not None and not self._moved:
            self.game_option, self._game = self._outer
        self.line, self.command_id, self.expected = None, None, None
        self._outer, self._moved = None, False

    def write_args(self, game: int) -> dict:
        """What the book needs to record a command in `game`: time, actor, line, id, expect."""
        expect = None
        if self.expected is not None and self.expected[0] in (None, game):
            expect = self.expected[1]
        command_id = self.command_id
        if command_id is None:
            command_id = self._reproducible_id(game)
        return {"now": self.now(), "actor": self.actor, "command_id": command_id,
                "line": self.line, "expect": expect}

    def _reproducible_id(self, game: int) -> str | None:
        """Under BANCO_FIXED_TIME (a reproducible recording, never a real table) a command's
        id follows from the game, its length and the line, so that the same commands give the
        same history, hashes included; otherwise None: a new random id."""
        import os

        fixed = os.environ.get("BANCO_FIXED_TIME")
        if not fixed:
            return None
        import hashlib

        at = self.book.last_seq(game) if game else len(self.book.games())
        seed = f"{fixed}\0{game}\0{at}\0{self.line}"
        return "fixed-" + hashlib.sha256(seed.encode("utf-8")).hexdigest()[:32]

    def reproducible_uuid(self, players, rules, edition) -> str | None:
        """Under BANCO_FIXED_TIME (a reproducible recording: tests, README's examples, never a
        real table) a new game's identity follows from what is recorded, so that the same
        transcript gives the same history, hashes included; otherwise None: a new random
        identity."""
        import os

        fixed = os.environ.get("BANCO_FIXED_TIME")
        if not fixed:
            return None
        import uuid

        number = len(self.book.games()) + 1
        seed = f"banco:{fixed}:{number}:{' '.join(players)}:{rules}:{edition}"
        return str(uuid.uuid5(uuid.NAMESPACE_URL, seed))

    def unfinished(self) -> dict | None:
        """The unfinished game the commands addressed before `new` (None in a new file)."""
        import os

        from banco.ledger.base.errors import BancoError
        from banco.ledger.store.postgres_connection import is_postgres_url

        # a league's database is a URL, not a path: it has other tables' games too (the last
        # trial: no warning there, and the next plain `roll` went to the other table's game)
        if not is_postgres_url(self.db) and not os.path.exists(self.db):
            return None
        try:
            game = self.book.game(self.game())
        except BancoError:
            return None
        return game if game is not None and not game["ended"] else None

    def close(self) -> None:
        if self._book is not None:
            self._book.close()
            self._book = None


def warn(message: str) -> None:
    """The book's warnings (ledger/book.py: messages), in the user's language."""
    from banco.cli.words.i18n import say

    click.echo(say(message), err=True)


def pass_session(f):
    """Pass the Session to a command, and accept `--db` and `--game` after the command word too
    (`banco state --db x.db`), as well as before it."""

    @functools.wraps(f)
    def command(*args, db_after=None, game_after=None, **kwargs):
        ctx = click.get_current_context()
        session = ctx.find_object(Session)
        if db_after is not None and db_after != session.db:
            # Another database for this one command: its own session, closed afterwards.
            outer = session
            session = Session(db_after, game_after, outer.actor)
            session.begin(**outer.context())
            ctx.call_on_close(session.close)
        elif game_after is not None:
            session.address(game_after)
        return f(session, *args, **kwargs)

    command = click.option("--game", "game_after", type=int, default=None, metavar="N",
                           help="Game number (also accepted before the command).")(command)
    command = click.option("--db", "db_after", default=None, metavar="FILE",
                           help="The SQLite file, or a postgresql:// URL (also accepted before the command).")(command)
    return command


ARGS = "banco.args"  # ctx.meta key: the words given to `banco` (cli/main.py stores them)
from banco.cli.lines.recorded import line_as_meant, typed_line  # noqa: E402,F401 - read here by many


def records(f=None, *, expect: bool = True):
    """Mark a command that records something: it accepts `--id KEY` (an idempotency key) and,
    unless expect=False, `--expect SEQ`; the line as typed is kept for CommandRecorded.
    Goes below @pass_session."""

    def mark(f):
        @functools.wraps(f)
        def command(session, *args, command_key=None, expect_seq=None, **kwargs):
            ctx = click.get_current_context()
            if session.line is None:
                top = ctx  # the command word under `banco` (`tournament` of `tournament add`)
                while top.parent is not None and top.parent.parent is not None:
                    top = top.parent
                session.line = typed_line(ctx.meta.get(ARGS, ()), top.info_name)
            if command_key is not None:
                if not command_key.strip():
                    raise UsageError("--id needs a key: any text that names this command")
                session.command_id = command_key
            if expect_seq is not None:
                session.expected = (None, expect_seq)
            return f(session, *args, **kwargs)

        if expect:
            command = click.option(
                "--expect", "expect_seq", type=click.IntRange(min=0), default=None,
                metavar="SEQ", help="Record only if the game is at event SEQ (else exit 5, "
                                    "nothing recorded).")(command)
        command = click.option(
            "--id", "command_key", default=None, metavar="KEY",
            help="Idempotency key: a repeat with the same KEY records nothing and shows what "
                 "was recorded the first time.")(command)
        return command

    return mark(f) if f is not None else mark


# --- numbers --------------------------------------------------------------------------------

class Whole(click.types.IntParamType):
    """click's INT, reading numbers as the banker's words do (ledger/base/numbers.py): 0-9 only,
    so `1_000` or `６` is refused with click's own message rather than read as 1000 or 6."""

    def convert(self, value, param, ctx):
        from banco.ledger.base.errors import UsageError
        from banco.ledger.base.numbers import whole

        try:
            bad = isinstance(value, str) and whole(value.strip()) is None
        except UsageError as exc:  # a number too long to be meant: said where click says it
            from banco.cli.words.i18n import translations

            self.fail(exc.render(translations()), param, ctx)
        if bad:
            from gettext import gettext  # click's messages come from the global domain

            self.fail(gettext("{value!r} is not a valid {number_type}.").format(
                value=value, number_type=gettext(click.INT.name)), param, ctx)
        return super().convert(value, param, ctx)


class WholeRange(Whole, click.IntRange):
    """click.IntRange, read as Whole, its range said in words (click said `x>=0`)."""

    def _describe_range(self) -> str:
        from banco.cli.words.i18n import _

        low = None if self.min is None else self.min + (1 if self.min_open else 0)
        high = None if self.max is None else self.max - (1 if self.max_open else 0)
        if high is None:
            return _("{low} or more").format(low=low)
        if low is None:
            return _("{high} or less").format(high=high)
        return _("{low} to {high}").format(low=low, high=high)


def strict_numbers(command) -> None:
    """Every whole-number option and argument of `command` read as Whole (cli/main.py and
    cli/groups.py apply it to each command they load)."""
    for p in command.params:
        if type(p.type) is click.types.IntParamType:
            p.type = Whole()
        elif type(p.type) is click.IntRange:
            r = p.type
            p.type = WholeRange(r.min, r.max, min_open=r.min_open, max_open=r.max_open,
                                clamp=r.clamp)


# --- recording (through the library, cli/library.py) and saying what it did ---------------

def tell(outcome, lines=None) -> None:
    """The library's Outcome said at the terminal, each line to stdout or stderr in order, in
    the language spoken (`lines`: other words for it, a ruling's); a refusal ends the command
    with its exit code, and is noted for cli/execution.py's LineOutcome."""
    from banco.cli.words import i18n

    for err, text in outcome.lines(i18n.language()) if lines is None else lines:
        click.echo(text, err=err)
    if outcome.refusal is not None:
        ctx = click.get_current_context()
        if isinstance(ctx.obj, Session):
            ctx.obj.refusal = outcome.refusal.error
        ctx.exit(outcome.refusal.code)


def span(rows) -> str:
    from banco.cli.lines.answer import span

    return span(rows)


def record(session: Session, command, expect: int | None = None):
    """Run a typed command (click built it from the arguments) through the library in the
    session's game, with its write context: the library's Outcome, not yet said.  `expect`:
    the seq to expect when the write context gives none."""
    from banco.cli.lines.referee import NewGame

    game = 0 if isinstance(command, NewGame) else session.game()
    write = session.write_args(game)
    out = session.library.execute(command, game=game or None, actor=write["actor"],
                                  id=write["command_id"], now=write["now"], line=write["line"],
                                  expect=expect if write["expect"] is None else write["expect"])
    return session.written(out)


def start(session: Session, command):
    """`new` (cli/lines/referee.py's NewGame) through the library, as `banco new` records it:
    the database made if it is not there yet, the game's identity reproducible under
    BANCO_FIXED_TIME, the session moved to the game started.  The Outcome, and the warning
    line to say after it when an unfinished game is left behind (else None)."""
    from banco.cli.words.i18n import _

    session.create = True
    left = session.unfinished()
    if command.uuid is None:
        command = command._replace(uuid=session.reproducible_uuid(
            command.players, command.rules, command.edition))
    out = record(session, command)
    if out.refusal is not None or out.game is None:
        return out, None
    session.use_game(out.game)
    if left is None or left["game_id"] == out.game:
        return out, None
    # a tournament keeps several games in one file: `new` starts this one all the same, but
    # the banker who typed it by mistake must know where the other went
    back = (_("`game {game}` goes back to it") if session.in_shell
            else _("`--game {game}` goes back to it"))
    said = _("warning: {message}").format(message=_(
        "game {game} ({players}) is left unfinished; {back}").format(
            game=left["game_id"], players=", ".join(left["players"]),
            back=back.format(game=left["game_id"])))
    if not session.in_shell:
        # a one-off command goes to the latest unfinished game: at a table sharing the
        # database with another, that is the other table's as soon as it starts one
        said += "\n" + _("commands without --game now go to game {game}, the latest; a table "
                         "sharing this database with others names its own: "
                         "`export BANCO_GAME={game}`").format(game=out.game)
    return out, (True, said)


def parsed(session: Session, builder, **params) -> None:
    """A click command's words through the parser's builder (cli/lines), the command run:
    the word as typed and the language are the click context's."""
    from banco.cli.words import i18n

    tell(record(session, builder(session.state(), typed_word(), i18n.language(), **params)))


def typed_word() -> str:
    """The command's word as typed (`offerta` for `bid`), for a suggestion to copy."""
    ctx = click.get_current_context(silent=True)
    return ctx.info_name if ctx is not None and ctx.info_name else "banco"


json_option = click.option("--json", "as_json", is_flag=True, help="Stable JSON for scripts.")
property_words = click.argument("words", nargs=-1, required=True, metavar="PROPERTY")


def dump(doc) -> None:
    click.echo(json.dumps(doc, ensure_ascii=False, indent=2))


def dump_rows(rows, head: dict | None = None, key: str | None = None) -> None:
    """`dump(list(rows))`, or `dump({**head, key: list(rows)})` (`key` last), byte for byte,
    written a row at a time: a long game's statement or replay is never held whole."""

    def dumps(value) -> str:
        return json.dumps(value, ensure_ascii=False, indent=2)

    if head is None:
        opening, closing, pad = "", "", "  "
    else:  # `{... "key": ` then the list, one level deeper
        opening, closing, pad = dumps({**head, key: []})[:-len("[]\n}")], "\n}", "    "
    first = True
    for row in rows:
        body = "\n".join(pad + line for line in dumps(row).split("\n"))
        click.echo((opening + "[\n" if first else ",\n") + body, nl=False)
        first = False
    click.echo(opening + "[]" + closing if first else "\n" + pad[:-2] + "]" + closing)
