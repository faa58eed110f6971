"""The library: what `import banco` offers, and what the command line, the shell, `run`, the
phones' server and a stranger's script all call.

    import banco
    book = banco.open("game.db")                 # a path or a postgresql:// URL
    out = book.execute("roll 3 4", game=1, actor="banker", id="k1", expect=41)
    out.game, out.seq, out.events, out.refusal
    print(out.say("it"))                         # the words, from the facts, in Italian
    book.table(1)                                # the folded table

A line is turned into a typed command by a pure function of (table, words, language)
(cli/lines/); the book decides and appends it (ledger/book.py); the words are rendered from
the facts appended, in the language asked for, per call (cli/lines/answer.py).  Nothing
here prints, imports click, or changes anything process-wide: two threads executing on two
games, each saying its answers in another language, never see each other's language.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from banco.cli.words import i18n
from banco.ledger.base.errors import BancoError, UsageError
from banco.ledger.book import Book
from banco.ledger.book import Outcome as BookOutcome
from banco.ledger.table.state import State


def spoken(lang) -> str:
    """`lang` if banco speaks it ("en", "it", or a locale's name of one: "it_IT.UTF-8"); a
    program's mistake otherwise (a ValueError), never another language's words in silence."""
    if not isinstance(lang, str) or i18n.supported(lang) is None:
        raise ValueError(f"banco speaks {' and '.join(i18n.LANGUAGES)}, not {lang!r}")
    return lang


def _said_once(context: dict, **given) -> None:
    """A line's `--game`, `--id` or `--expect` beside the call's own: the same, or refused."""
    for name, value in given.items():
        option = f"--{name}"
        if value is None or option not in context:
            continue
        said = context[option] if name == "id" else int(context[option])
        if said != value:
            raise UsageError("the line says `{option} {said}` and the call {name}={value!r}: "
                             "say it once; nothing was recorded", option=option, said=said,
                             name=name, value=value)


def _line_game(words: list[str]) -> int | None:
    """A table action's own `--game N`, read from its shape alone (no table), else None."""
    from banco.cli.lines.parse import shape, table_action
    from banco.cli.lines.vocabulary import BY_ENGLISH, CHOICE_ALONE, english_word

    word = table_action(words)
    if word is None or english_word(words[0]) in CHOICE_ALONE:
        return None
    try:
        said = shape(BY_ENGLISH[word], words[1:])[1].get("--game")
    except UsageError:  # the line's shape: said when it is read
        return None
    return int(said) if said is not None else None


def _arguments(what, expect) -> None:
    """execute's arguments of the wrong type: the program's mistake, a TypeError (what a user
    can get wrong is a refusal)."""
    from banco.cli.lines.referee import NewGame
    from banco.cli.lines.turn import Undo

    if not (isinstance(what, (str, NewGame, Undo)) or (isinstance(what, tuple)
                                                       and hasattr(what, "_fields"))):
        raise TypeError(f"not a line or a command: {what!r}")
    if expect is not None and (type(expect) is not int):  # True is no seq
        raise TypeError(f"expect is a seq (an int) or None, not {expect!r}")


class Refusal(NamedTuple):
    """Why a command was not recorded (or recorded only as evidence, a late rent claim)."""
    error: BancoError
    # the rows a refusal kept as evidence (a late rent claim's CommandRecorded and
    # RentClaimRefused, 000 FAQ 7); () for every other refusal
    evidence: tuple[dict, ...] = ()

    @property
    def rule(self) -> str:
        """The rulebook section that refuses it (`000 FAQ 7`), '' for a usage error."""
        return getattr(self.error, "rule", "") or ""

    @property
    def allowed(self) -> str:
        """What would be allowed instead, in English ('' when nothing is said)."""
        return str(getattr(self.error, "allowed", "") or "")

    @property
    def code(self) -> int:
        """The command line's exit code: 1 refused by the rules, 2 usage, 4 the database
        cannot be used, 5 conflict (the game moved)."""
        return self.error.exit_code

    @property
    def meant(self) -> str | None:
        """The one line surely meant (`roll 34`: `roll 3 4`), when the error suggests it."""
        return getattr(self.error, "meant", None)

    def say(self, lang: str = i18n.SOURCE) -> str:
        with i18n.in_language(spoken(lang)):
            return i18n.say_error(self.error)


class Outcome(NamedTuple):
    """What one `execute` did."""
    game: int | None            # the game it addressed (a new game's number for `new`)
    seq: int                    # the game's last event after it
    events: tuple[dict, ...]    # the rows appended (empty when refused and nothing recorded)
    refusal: Refusal | None     # None: done
    replayed: bool = False      # the same id was recorded before: nothing new appended
    table: State | None = None  # the table after it
    recorded: Any = None        # the book's own outcome (ledger/book.py), for the adapters
    command: Any = None         # the typed command (banco.ledger.records.commands)
    before: State | None = None  # the table before an undo (what it gives back is said)
    ruling: Any = None          # a ruling's (found, RulingAsked): its words are the ruling's
    taken: tuple[dict, ...] = ()  # the rows an undo retracted (what it gives back is said)

    @property
    def facts(self) -> tuple:
        """The facts appended, as typed records: one NamedTuple per event type, made from the
        very definition its schema is made from (banco.ledger.records.events.records), its
        fields data (amounts, players, squares, codes); `events.fact(record)` gives the data
        back.  The rows' seq and hash stay in `events`."""
        from banco.ledger.records.events import record
        from banco.ledger.records.upcast import upcast_row

        return tuple(record(upcast_row(row)) for row in self.events)

    def lines(self, lang: str = i18n.SOURCE) -> list[tuple[bool, str]]:
        """The words, line by line, each (a refusal's or an error's line?, the text), in
        `lang`: what the command line prints on stdout and stderr."""
        from banco.cli.lines.answer import answer, refused
        from banco.cli.lines.referee import NewGame, new_lines, ruling_lines

        with i18n.in_language(spoken(lang)):
            if self.recorded is not None and isinstance(self.command, NewGame):
                return new_lines(self.table, self.command.players, self.replayed)
            if self.ruling is not None and self.refusal is None:
                found, asked = self.ruling
                recorded = next((e["seq"] for e in self.events
                                 if e["type"] == "RulingRecorded"), None)
                return ruling_lines(found, asked, self.game, recorded, self.replayed,
                                    getattr(self.command, "referee", None))
            if self.recorded is not None:
                return answer(self.command, self.recorded, self.before, self.taken).lines
            return refused(self.refusal.error, self.command).lines if self.refusal else []

    def say(self, lang: str = i18n.SOURCE) -> str:
        """The words of what happened, rendered from the facts in `lang` ("en" or "it")."""
        return "\n".join(text for _error, text in self.lines(lang))


class Line(NamedTuple):
    """A line read at a table, nothing recorded (`Library.read`): the typed command it says,
    or the usage refusal `execute` answers it with.  Executed, it records that very command
    (the phones' server decides a role's permission on it and holds a trade as read)."""
    text: str                       # the line as given
    words: tuple[str, ...] | None   # as the shell splits them; None: it cannot be split
    word: str | None                # its command's English word (`tira`: `roll`; `draw`: `card`)
    command: Any = None             # the typed command (a ruling only read: its RulingAsked)
    refusal: Refusal | None = None  # the usage refusal (then no command)
    game: int | None = None         # the game it addresses (None: a new game)
    # the options saying where and how to record it, as the line gave them (`--game`, `--id`,
    # `--expect`, `--lang`; `--db`, refused)
    context: dict = {}
    recorded: str | None = None     # the line as CommandRecorded keeps it (without those)
    id: str | None = None           # the line's own `--id`
    expect: int | None = None       # the line's own `--expect`
    ruling: Any = None              # a ruling's (found, RulingAsked)


def _context(context: dict) -> tuple[str | None, int | None]:
    """A line's own `--id` and `--expect`, or the usage refusal of a blank id (a ValueError
    for an expect that is no number)."""
    id = context.get("--id")
    if id is not None and not id.strip():
        raise UsageError("--id needs a key: any text that names this command")
    return id, int(context["--expect"]) if "--expect" in context else None


class _Closed:
    """The book of a closed Library: every use is the program's mistake, as with a closed
    file (ValueError), never a quiet reopening that records after `close()`."""

    def __getattr__(self, name: str):
        raise ValueError("this banco book is closed: banco.open() it again")

    def close(self) -> None:  # closing twice is harmless, as a file's
        pass


class Library:
    """One open database: its games, their tables, and the one way to record at a table."""

    def __init__(self, db: str, *, create: bool = False, wait: float | None = None,
                 warn=None):
        self.db = db
        self.book = Book(db, create=create, wait=wait, warn=warn)

    @classmethod
    def of(cls, book: Book, db: str) -> Library:
        """The library over a Book already open (the shell's and `run`'s session keeps one)."""
        library = cls.__new__(cls)
        library.db, library.book = db, book
        return library

    def close(self) -> None:
        self.book.close()
        self.book = _Closed()  # a later call would quietly open the file again and record

    def __enter__(self) -> Library:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def games(self) -> list[dict]:
        return self.book.games()

    def new(self, players: list[str], rules: str = "classic", edition: str | None = None, *,
            first: str | None = None, final: bool = False, actor: str = "banker",
            id: str | None = None, now: str | None = None, line: str | None = None,
            uuid: str | None = None) -> Outcome:
        """Start a game (`rules`: a built-in rule set's name or a house-rules file; `edition`
        None: the rule set's own; `uuid`: the game's identity, a new one by default).
        Outcome.game is its number; `say()` words it as `banco new` does."""
        from banco.cli.lines.referee import new as new_game

        if id == "":
            return Outcome(None, 0, (), Refusal(UsageError(
                "--id needs a key: any text that names this command")))
        try:
            command = new_game(players, rules, edition, first, final, uuid)
        except BancoError as exc:
            return Outcome(None, 0, (), Refusal(exc))
        if line is None:  # the line `banco new` records for these arguments: the log shows it
            import shlex

            line = shlex.join(["new", *players, *(["--rules", rules] if rules != "classic" else []),
                               *(["--edition", edition] if edition else []),
                               *(["--first", first] if first else []),
                               *(["--final"] if final else [])])
        return self._start(command, actor, id, now, line)

    def _start(self, command, actor: str, id: str | None, now: str | None,
               line: str | None) -> Outcome:
        from banco.ledger.store.canonical import now_text

        try:
            done = self.book.start(list(command.players), command.rules, command.edition,
                                   command.first, now=now or now_text(), actor=actor,
                                   command_id=id, line=line, final=command.final,
                                   game_uuid=command.uuid)
        except (ValueError, BancoError) as exc:
            return self._refused(None, exc, command)
        return self._outcome(done, command)

    def rule(self, game: int | None, kind: str, seq: int | str, claim_at: str | None = None):
        """A referee's ruling on event `seq` (or a time) of `game`, read from the log (`ruling
        rent 27`, a reading: nothing recorded).  Its words: `.text(i18n.catalog(lang))`; its
        verdict `.verdict`; `.document()` the JSON `ruling --json` prints."""
        from banco.cli.ruling_log import rule

        return rule(self.book, self.book.current_game(game), kind, seq, claim_at)

    def table(self, game: int | None = None, at: int | None = None) -> State:
        """The folded table of `game` (the latest unfinished one by default), at event `at`."""
        return self.book.state(self.book.current_game(game), at)

    def parse(self, line: str | list[str], *, game: int | None = None,
              lang: str | None = None):
        """The typed command a line means on this table (`read`'s command), or the UsageError
        saying why none."""
        import shlex

        read = self.read(line if isinstance(line, str) else shlex.join(line), game=game,
                         lang=lang)
        if read.refusal is not None:
            raise read.refusal.error
        return read.command

    def read(self, line: str, *, game: int | None = None, lang: str | None = None,
             now: str | None = None, default_game: int | None = None) -> Line:
        """A line read at `game`'s table, recording nothing: its typed command (a pure
        function of the table, the words and their language: cli/lines/parse.py), or the
        usage refusal `execute` would answer it with.  `execute(read)` then records exactly
        that command, never the words read again (the phones' server decides a role's
        permission on it, and holds a trade as read until the players accept it).
        `default_game`: the game a line that names none addresses (the shell's `game N`);
        unlike `game`, which a line's other `--game` contradicts, the line's own overrides it."""
        from banco.cli.lines.other_file import library_elsewhere
        from banco.cli.lines.parse import read, split, table_action
        from banco.cli.lines.recorded import line_as_meant
        from banco.cli.lines.referee import not_recorded_here
        from banco.cli.lines.vocabulary import english_word
        from banco.ledger.store.canonical import now_text

        if not isinstance(line, str):
            raise TypeError(f"not a line: {line!r}")
        now = now or now_text()
        words, word, game_id, context = None, None, None, {}
        try:
            if lang is not None and i18n.supported(lang) is None:
                raise UsageError("banco reads lines in {languages}, not {lang!r}",
                                 languages=", ".join(i18n.LANGUAGES), lang=lang)
            if "\n" in line or "\r" in line:  # `roll 1 2\nbuy`: read as one line, a roll of 3 dice
                raise UsageError("a line is one command: this one has {n} lines; send each "
                                 "on its own", n=len(line.splitlines()))
            words = split(line)
            word = (table_action(words) or english_word(words[0])) if words else None
            if words and (elsewhere := library_elsewhere(words)) is not None:
                context = {"--db": None}  # another file: the line's own option, refused
                raise elsewhere
            if word in ("new", "correct", "ruling"):
                return self._read_referee_or_new(words, line, word, game, default_game)
            if not words or table_action(words) is None:
                # said whatever the game: the shell and `run` hand such a line to the command
                # line (`help` in a file with no game yet), which says a game missing itself
                game_id = self._game_or_none(game if game is not None else default_game)
                if not words:
                    raise UsageError("an empty line: type a command (`roll D1 D2`, `buy` ...)")
                raise not_recorded_here(words, lang or i18n.SOURCE)
            # the line's own `--game N` says which table its names are read at
            game_id = self.book.current_game(game if game is not None else
                                             _line_game(words) or default_game)
            parsed = read(self.table(game_id), words, lang or i18n.SOURCE, now)
            context = parsed.context
            # where and how to record it, when the line says it (`--id K`, `--expect 41`);
            # said by the line and by the call, the same (a line's `--game 1` sent for game 2
            # was recorded in game 2)
            _said_once(context, game=game)
            id, expect = _context(context)
            return Line(line, tuple(words), word, parsed.command, None, game_id, context,
                        line_as_meant(line, words), id, expect)
        except (ValueError, BancoError) as exc:
            if game_id is None and words is None:  # not even split: the game it would address
                game_id = self._game_or_none(game)
            return Line(line, None if words is None else tuple(words), word, None,
                        self._refusal(exc, line), game_id, context)

    def _read_referee_or_new(self, words: list[str], line: str, word: str,
                             game: int | None, default_game: int | None = None) -> Line:
        """`correct ...`, `ruling KIND SEQ [--record --referee R]` and `new PLAYERS...`, read
        by cli/lines/referee.py's builders.  A ruling not recorded is a reading: its command
        the RulingAsked, its ruling read from the log (`rule()` gives the ruling itself)."""
        from banco.cli.lines import referee as words_of
        from banco.cli.lines.recorded import line_as_meant
        from banco.cli.referees import referee_of
        from banco.cli.ruling_log import recorded_ruling, rule

        game_id, context = None, {}
        try:
            params, context = words_of.read_words(word, words)
            id, expect = _context(context)
            recorded = line_as_meant(line, words)
            if word == "new":
                return Line(line, tuple(words), word, words_of.new(**params), None, None,
                            context, recorded, id)
            game_id = self.book.current_game(
                int(context["--game"]) if "--game" in context and game is None
                else game if game is not None else default_game)
            store, ruling = self.book.store, None
            if word == "correct":
                command = words_of.correction(lambda: self.table(game_id), **params,
                                              referee_of=lambda n: referee_of(store, game_id, n))
            else:
                asked = words_of.ruling(**params)
                from banco.projections.referee.moments import moment_seq, parse_moment

                referee = referee_of(store, game_id, asked.referee) if asked.record else None
                seq = moment_seq(store, game_id, parse_moment(asked.moment))
                found = rule(self.book, game_id, asked.kind, seq, asked.claim_at)
                ruling = (found, asked)
                command = recorded_ruling(found, asked.kind, seq, referee) if asked.record \
                    else asked  # a reading: nothing is recorded
            return Line(line, tuple(words), word, command, None, game_id, context, recorded,
                        id, expect, ruling)
        except (ValueError, BancoError) as exc:
            return Line(line, tuple(words), word, None, self._refusal(exc, line), game_id,
                        context)

    def execute(self, what, *, game: int | None = None, actor: str = "banker",
                id: str | None = None, expect: int | None = None, lang: str | None = None,
                now: str | None = None, authorize=None, line: str | None = None) -> Outcome:
        """Record a line (`"roll 3 4"`, Italian words too: `"tira 3 4"`), a Line `read`
        before (its command as read, in the game it was read at), or a typed command
        (banco.ledger.records.commands, or cli/lines/referee.py's NewGame) in `game` (the
        latest unfinished one by default).
        `id`: an idempotency key (the same id again returns what it recorded, replayed);
        `expect`: the seq the caller saw (the game elsewhere: a refusal with code 5);
        `lang`: the language the line's words are in, when not English (both are read).
        `authorize(command, table)`: the caller's permission check on the typed command (its
        kind, the player it acts for) and the table it is decided on (None for a new game),
        run before anything is decided, on that very table: a write landing between the check
        and the append refuses the append, so a `buy` checked as Anna's never records Bruno's;
        it refuses by raising a BancoError (the phones' server: another player's act).
        `line`: with a typed command, the words it was typed as, kept with it in
        CommandRecorded (the command line gives its arguments'; a line is kept as meant).
        Never raises for what a user can get wrong: the refusal is in the outcome."""
        from banco.cli.lines.referee import NewGame
        from banco.cli.lines.turn import Undo
        from banco.ledger.store.canonical import now_text

        _arguments(what, expect)
        if id == "":  # as `--id ""` and the phones' API refuse it: no key is no retry
            return self._refused(None, UsageError("--id needs a key: any text that names "
                                                  "this command"))
        now = now or now_text()
        if expect is not None and expect < 0:
            error = UsageError("--expect is the seq of an event: 0 or more, not {expect}",
                               expect=expect)
            where = (what.game if isinstance(what, Line) else
                     self._game_or_none(game) if isinstance(what, str) else None)
            return self._refused(where, error)
        if isinstance(what, str):
            what = self.read(what, game=game, lang=lang, now=now)
        if isinstance(what, Line):
            return self._run(what, actor, id, expect, now, authorize)
        if isinstance(what, NewGame):  # a game to start: its number is the outcome's
            try:
                if authorize is not None:
                    authorize(what, None)
            except (ValueError, BancoError) as exc:
                return self._refused(None, exc, what)
            return self._start(what, actor, id, now, line)
        game_id, command, before = None, what, None
        try:
            if lang is not None and i18n.supported(lang) is None:
                raise UsageError("banco reads lines in {languages}, not {lang!r}",
                                 languages=", ".join(i18n.LANGUAGES), lang=lang)
            game_id = self.book.current_game(game)
            check = _on_table(authorize, command)
            if isinstance(command, Undo):
                before = self.book.state(game_id)
                done = self.book.undo(game_id, now=now, actor=actor, command_id=id,
                                      line=line, expect=expect, check=check)
            else:
                done = self.book.execute(game_id, command, now=now, actor=actor,
                                         command_id=id, line=line, expect=expect,
                                         check=check)
        except (ValueError, BancoError) as exc:
            return self._refused(game_id, exc, command)
        out = self._outcome(done, command, before)
        return out._replace(taken=self._retracted(done)) if before is not None else out

    def _run(self, read: Line, actor: str, id: str | None, expect: int | None, now: str,
             authorize) -> Outcome:
        """Record the command a line was read as, where it was read: the line's own `--id`
        and `--expect` stand for the caller's, and said by both they must agree."""
        from banco.cli.lines.referee import NewGame, RulingAsked
        from banco.cli.lines.turn import Undo

        if read.refusal is not None:
            seq = self.book.last_seq(read.game) if read.game is not None else 0
            return Outcome(read.game, seq or 0, (), read.refusal)
        game_id, command, before = read.game, read.command, None
        try:
            _said_once(read.context, id=id, expect=expect)  # the line's and the call's
            id = read.id if read.id is not None else id
            expect = expect if expect is not None else read.expect
            if isinstance(command, RulingAsked):  # a ruling read: its words, nothing recorded
                return Outcome(game_id, self.book.last_seq(game_id) or 0, (), None,
                               ruling=read.ruling)
            if isinstance(command, NewGame):
                if authorize is not None:
                    authorize(command, None)
                return self._start(command, actor, id, now, read.recorded)
            check = _on_table(authorize, command)
            if isinstance(command, Undo):
                before = self.book.state(game_id)
                done = self.book.undo(game_id, now=now, actor=actor, command_id=id,
                                      line=read.recorded, expect=expect, check=check)
            else:
                done = self.book.execute(game_id, command, now=now, actor=actor,
                                         command_id=id, line=read.recorded, expect=expect,
                                         check=check)
        except (ValueError, BancoError) as exc:
            return self._refused(game_id, exc, command, read.text)
        out = self._outcome(done, command, before)._replace(ruling=read.ruling)
        return out._replace(taken=self._retracted(done)) if before is not None else out

    def _retracted(self, done: BookOutcome) -> tuple[dict, ...]:
        """The rows an undo's EventRetracted took back (by the command id they were recorded
        under: an index lookup), for its words to reverse their transfers."""
        if done.replayed:
            return ()
        return tuple(r for e in done.events if e["type"] == "EventRetracted"
                     for r in self.taken_back(done.game_id, e))

    def taken_back(self, game: int, retraction: dict) -> tuple[dict, ...]:
        """The rows one EventRetracted of `game` took back, by the command id they were
        recorded under (an index lookup): what its words say given back."""
        seqs = set(retraction["data"]["seqs"])
        return tuple(r for r in self.book.recorded(game, retraction["data"]["command_id"])
                     if r["seq"] in seqs)

    def _game_or_none(self, game: int | None) -> int | None:
        """The game a line would address, or None where there is none: a line refused before
        its game was looked up (a quote left open) still says the game's seq."""
        try:
            return self.book.current_game(game)
        except BancoError:
            return None

    def _refused(self, game_id: int | None, error: Exception, command=None,
                 line: str | None = None) -> Outcome:
        """What `execute` caught, as a refusal (`_refusal`), in the game it addressed."""
        seq = self.book.last_seq(game_id) if game_id is not None else 0
        return Outcome(game_id, seq or 0, (), self._refusal(error, line), command=command)

    @staticmethod
    def _refusal(error: Exception, line: str | None = None) -> Refusal:
        """A BancoError as it is, a line's shape (what click words on the command line) said
        in click's words with the word's usage and hint (cli/lines/shape_words.py), a
        ValueError a usage error."""
        from banco.cli.lines.parse import LineShape
        from banco.cli.lines.shape_words import refused

        if isinstance(error, LineShape):  # said as the command line says it (its usage, a hint)
            error = refused(error, line or "")
        elif not isinstance(error, BancoError):
            error = UsageError(str(error))
        return Refusal(error)

    def _outcome(self, done: BookOutcome, command=None, before=None) -> Outcome:
        refusal = (Refusal(done.refused, tuple(done.events)) if done.refused is not None
                   else None)
        seq = done.state.seq if done.state is not None else 0
        return Outcome(done.game_id, seq, tuple(done.events), refusal, done.replayed,
                       done.state, done, command, before)


def _on_table(authorize, command):
    """The book's `check(state)` for a caller's `authorize(command, table)`: run on the table
    the command is decided on (Book.execute), not on one read before it."""
    if authorize is None:
        return None
    return lambda state: authorize(command, state)


def open(db: str, *, create: bool = False, wait: float | None = None) -> Library:  # noqa: A001
    """Open a banco database (a SQLite file, created only with create=True, or a
    postgresql:// URL)."""
    return Library(db, create=create, wait=wait)


__all__ = ["Library", "Line", "Outcome", "Refusal", "open"]
