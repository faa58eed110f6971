"""`banco shell`: one process, one open database, the table kept in memory between commands.

The prompt shows the game (`#2`) and what its table waits for; Ctrl-C clears the line, on an
empty line it says how to leave and a second one leaves (so does Ctrl-D); `help` lists the
words (cli/banker/shell_help.py); the history persists between sessions
(cli/banker/shell_history.py); and when another terminal records something on the same game,
the shell says so before it records anything itself.
"""

from __future__ import annotations

import cmd
import os
import signal
import sys

import click

from banco.cli.banker.completion import complete, spaced
from banco.cli.banker.shell_help import english, help_lines, option_first, words
from banco.cli.banker.shell_history import ShellHistory, history_path
from banco.cli.bounded_input import TRANSCRIPT_LINE_LIMIT
from banco.cli.session import pass_session
from banco.cli.words.i18n import N_, _, at_door
from banco.cli.words.waiting import prompt_text as prompt_for  # the prompt: a pure function
from banco.ledger.base.errors import BancoError, UsageError
from banco.ledger.base.names import shown
from banco.ledger.base.text import msg


def only_reads(line: str) -> bool:
    """Whether a line only reads, and so runs even when another terminal has just changed
    the game: a reading of the one table of words (cli/lines/vocabulary.py), a ruling not
    recorded, or the shell's own words (`help`, `quit`, `game`, in Italian too)."""
    from banco.cli.banker.shell_help import SHELL_ITALIAN, SHELL_WORDS
    from banco.cli.lines.vocabulary import BY_ENGLISH, english_word

    words = line.split()
    typed = words[0] if words else ""
    word = SHELL_ITALIAN.get(typed, english_word(typed))
    if word in SHELL_WORDS or word in ("exit", "EOF", "?"):
        return True
    if word == "ruling":  # read, unless the referee records it
        return not {"--record", "--registra"} & set(words[1:])
    spec = BY_ENGLISH.get(word)
    return spec is not None and spec.kind == "reading"


class BancoShell(cmd.Cmd):
    intro = N_("banco shell: the same words as `banco ...`; `help` lists them, Tab completes "
               "names; Ctrl-D or `quit` leaves.")

    def __init__(self, session, commands: click.Group, stdin=None, stdout=None,
                 history: str | None = None):
        super().__init__(stdin=stdin, stdout=stdout)
        # the command line's group (`banco shell`'s): it runs the lines the library records
        # nothing for (a reading, the file's words) and says each word's help
        self.commands = commands
        if stdin is not None:
            self.use_rawinput = False
        self.session = session
        session.in_shell = True
        self.identchars += "-"
        self.history = ShellHistory(history) if history else None
        self._buffer = ""  # what was typed when Ctrl-C came
        self._interrupts = 0  # Ctrl-C in a row
        self._seen = self._where()  # (game, seq) as of the last command
        # Each line written carries its own command id and the seq the prompt showed, so a
        # write decided on a table another terminal has changed is refused (exit 5).
        import uuid

        self.line_ids = f"shell-{uuid.uuid4().hex[:12]}-"
        self.lines = 0
        self.first_failure = 0  # the exit code of the first line that failed: a pipe's verdict
        self.read = 0  # lines read, for a refusal to name
        self._set_prompt()

    def say(self, text: str) -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def refused(self, exc: BancoError) -> None:
        """A mistake in one of the shell's own words (`game x`, `help nosuch`): said as every
        other line's, `error:` on stderr, and counted in a pipe's exit code."""
        from banco.cli.words.i18n import say_error

        click.echo(say_error(exc), err=True)
        self.first_failure = self.first_failure or exc.exit_code

    def onecmd(self, line: str):  # said at the shell's door: its hints without `banco`
        with at_door(words()):
            return super().onecmd(line)

    # --- the loop ----------------------------------------------------------------------------

    def cmdloop(self, intro=None) -> None:
        """cmd.Cmd's loop, with Ctrl-C clearing the line instead of ending the process."""
        self.preloop()
        readline = old_completer = None
        if self.use_rawinput and self.completekey:
            try:
                import readline

                old_completer = readline.get_completer()
                readline.set_completer(self.complete)
                readline.set_completion_display_matches_hook(self._show_matches)
                readline.parse_and_bind(self.completekey + ": complete")
            except ImportError:
                readline = None
        old_handler = self._catch_interrupts()
        try:
            intro = self.intro if intro is None else intro
            if intro:
                self.say(_(str(intro)))
            stop = None
            while not stop:
                try:
                    line = self._read_line()
                except KeyboardInterrupt:
                    if self.interrupted(self._buffer):
                        break
                    continue
                self._interrupts = 0
                line = self.precmd(line)
                try:
                    stop = self.onecmd(line)
                except KeyboardInterrupt:
                    self.say("\n" + _("interrupted: a command is recorded whole or not at "
                                      "all (`log --tail 5` shows what is there)"))
                    stop = None
                stop = self.postcmd(stop, line)
        finally:
            if old_handler is not None:
                signal.signal(signal.SIGINT, old_handler)
            if readline is not None:
                readline.set_completer(old_completer)
                readline.set_completion_display_matches_hook(None)
            self.postloop()

    def _catch_interrupts(self):
        """Ctrl-C while typing: note the line as readline had it (the handler runs before
        readline clears it), then interrupt as usual."""
        def handler(signum, frame):
            self._buffer = ""
            if self.use_rawinput:
                try:
                    import readline

                    self._buffer = readline.get_line_buffer()
                except ImportError:
                    pass
            raise KeyboardInterrupt

        try:
            return signal.signal(signal.SIGINT, handler)
        except ValueError:  # not the main thread: keep Python's own handling
            return None

    def _read_line(self) -> str:
        if self.cmdqueue:
            return self.cmdqueue.pop(0)
        self._buffer = ""
        self.read += 1
        if self.use_rawinput and _a_terminal(self.stdin):
            try:
                line = input(self.prompt)  # readline has added it to the history
            except EOFError:
                return "EOF"
            if self.history:
                self.history.forget_repeat()
            if _too_long(line):  # a paste: refused, the terminal goes on
                self._refuse_long(typed=True)
                return ""
            return line
        # Lines on a pipe are read bounded, as `run` reads a transcript's: `shell < /dev/zero`
        # grew until memory ran out, a 100 MB line took minutes to split (issue 32).
        self.stdout.write(self.prompt)
        self.stdout.flush()
        line = self.stdin.readline(TRANSCRIPT_LINE_LIMIT + 1)
        if not line:
            return "EOF"
        line = line.rstrip("\r\n")
        if _too_long(line):  # where the next line starts is not known: nothing more is run
            self._refuse_long()
            return "EOF"
        if self.history:
            self.history.add(line)
        return line

    def _refuse_long(self, typed: bool = False) -> None:
        """A line too long to be a banco line; `typed` at a terminal, where "line 19 of the
        standard input" names nothing the banker sees."""
        self.refused(UsageError("the line typed is longer than {limit} bytes (a paste?): not a "
                                "banco line; it was not run", limit=TRANSCRIPT_LINE_LIMIT)
                     if typed else
                     UsageError("line {n} of {source} is longer than {limit} bytes: not a "
                                "banco line; it was not run", n=self.read,
                                source=msg("the standard input"), limit=TRANSCRIPT_LINE_LIMIT))

    def interrupted(self, typed: str) -> bool:
        """Ctrl-C at the prompt: clear the line.  On an empty line, the first says how to
        leave and the next one leaves: a banker clearing a line twice (the second Ctrl-C then
        on the now empty line) is warned, not put out of the shell.  Returns True to leave."""
        if typed.strip():
            self._interrupts = 0  # counted from the first Ctrl-C on an empty line
            self.say("^C")
            return False
        self._interrupts += 1
        if self._interrupts >= 2:
            self.say("")
            return True
        self.say(_("^C (Ctrl-C again or Ctrl-D leaves)"))
        return False

    def preloop(self) -> None:
        if self.history:
            self.history.load()
        self._show_last()

    def postloop(self) -> None:
        if self.history:
            self.history.save()

    # --- another terminal on the same game --------------------------------------------------

    def _where(self) -> tuple[int, int] | None:
        try:
            st = self.session.state()
        except BancoError:
            return None
        return st.game_id, st.seq

    def news(self) -> list[dict]:
        """Events another process appended to this game since the shell last looked."""
        if self._seen is None:
            return []
        game, seq = self._seen
        try:
            if self.session.game() != game:
                return []
            return self.session.book.events_after(game, seq)  # what the others appended
        except BancoError:
            return []

    _meant: str | None = None  # the line the last one meant, offered after its mistake

    def precmd(self, line: str) -> str:
        from banco.cli.banker.meant import YES

        meant, self._meant = self._meant, None  # offered for the next line only
        if line.strip().lower() in YES:
            if meant is None:  # `y` with nothing offered was "no command called 'y'"
                self.refused(UsageError("`{typed}` accepts a line the shell offers after a "
                                        "mistake (\"`y` and Enter: ...\"); none is offered "
                                        "now", typed=line.strip()))
                return ""
            line = meant
            if self.history:
                self.history.replace_last(line)  # the up arrow gives the line, not `y`
        arrived = self.news()
        if not arrived:
            return line
        st = self.session.state()
        first, last = arrived[0]["seq"], arrived[-1]["seq"]
        span = (_("event {seq}").format(seq=first) if first == last
                else _("events {first}-{last}").format(first=first, last=last))
        self.say(_("meanwhile, another terminal recorded {span} on game {game}:").format(
            span=span, game=st.game_id))
        for e in arrived:
            self.say(f"{e['seq']:>6}  {self._arrived_line(e, st)}")
        self._seen = (st.game_id, st.seq)
        if line.strip() and not only_reads(line):
            self.say(_("`{line}` was not run: the table changed. Look again, and type it "
                       "again if it still holds (up arrow).").format(
                           line=shown(line.strip(), 80)))
            self._set_prompt()
            return ""
        return line

    def _arrived_line(self, row: dict, st) -> str:
        """What another terminal recorded, in words; its undo as `undo` says it (what it gives
        back, from the tables before and after it), not the event types it took back."""
        from banco.cli.words.facts import describe

        if row["type"] != "EventRetracted":
            return describe(row, st)
        from banco.cli.lines.answer import undone_row

        book, game = self.session.book, st.game_id
        return undone_row(row, book.state(game, row["seq"] - 1), book.state(game, row["seq"]),
                          self.session.library.taken_back(game, row))

    # --- words -------------------------------------------------------------------------------

    def _show_last(self) -> None:
        """The last recorded command: what a banker needs after an answer that was lost."""
        from banco.cli.words.table_lines import last_line

        try:
            line = last_line(self.session.book, self.session.game())
        except BancoError:
            return
        if line:
            self.say(line)

    def default(self, line: str) -> None:
        from banco.cli.banker.meant import meant_line
        from banco.cli.execution import execute
        from banco.cli.lines.other_file import names_another_file

        self.lines += 1
        words = line.split()
        if len(words) >= 2 and words[-1] in ("--help", "-h") and words[0] != "--help":
            # `tira --help`: the shell's usage of the word (`help tira`), not the terminal's
            # (`banco tira`, with --db, --game and --lang, which a shell line refuses)
            self.do_help(" ".join(words[:-1]))
            return
        refused = names_another_file(line) or option_first(words, self.commands)
        if refused is not None:  # the shell stays on its own file (cli/lines/other_file.py)
            self.refused(refused)
            return
        try:
            outcome = execute(self.session, line, command_id=f"{self.line_ids}{self.lines}",
                              expected=self._seen, commands=self.commands)
            code = outcome.code
            self._meant = meant_line(line, outcome)
            if self._meant:
                self.say("  " + _("`y` and Enter: `{line}`").format(line=self._meant))
        except KeyboardInterrupt:
            print("\ninterrupted")
            code = 130
        if code in (4, 5, 130):  # the write may or may not be in the book: say what is
            self._show_last()
        self.first_failure = self.first_failure or code

    def emptyline(self) -> None:
        pass

    def postcmd(self, stop, line):
        self._seen = self._where()
        self._set_prompt()
        return stop

    def _set_prompt(self) -> None:
        try:
            st = self.session.state()
        except BancoError:
            self.prompt = "banco> "
            return
        # The game first: with two games in one file, or after `new`, it says where the next
        # `roll` goes.  `#2`, short: the banker reads it at every line.
        self.prompt = f"#{st.game_id} {prompt_for(st)}"

    def do_replay(self, arg) -> None:
        """`replay [SEQ|TIME]`: step through the game (cli/referee/replay_shell.py); with options
        (`replay --rules quick`, `replay --json`) it is the `banco replay` command."""
        if arg.strip().startswith("-"):
            self.default(f"replay {arg}")
            return
        from banco.cli.referee.replay_shell import ReplayStepper

        try:
            ReplayStepper(self, arg.strip()).run()
        except BancoError as exc:
            self.refused(exc)

    do_rivedi = do_replay  # the Italian word steps through the game too

    def do_game(self, arg) -> None:
        """`game N`: the shell addresses game N from now on (a `--game N` on a line is for
        that line only); `new` leaves the game it interrupts, and says this is the way back."""
        from banco.ledger.base.numbers import is_digits, not_a_number, number_like

        text = arg.strip()
        try:
            if not text:  # `game` alone said "'' is not a valid integer."
                raise UsageError("`game` needs the game's number: `game N` (`games` lists them)")
            if not is_digits(text) and number_like(text):
                raise not_a_number(text)  # `５`, `1O`: the digits meant, said
            if not is_digits(text):  # `game abc`, `game -1` said "not a valid integer"
                raise UsageError("{text!r} is not a game's number: `game N`, N as `games` "
                                 "lists them", text=shown(text))
            self.session.use_game(self.session.book.current_game(int(text)))
        except BancoError as exc:
            self.refused(exc)
            return
        self._show_last()

    do_partita = do_game

    def do_quit(self, arg) -> bool:
        return True

    do_exit = do_esci = do_quit

    def do_EOF(self, arg) -> bool:
        self.say("")
        return True

    def do_aiuto(self, arg) -> None:
        """`aiuto`: `help` in Italian."""
        self.do_help(arg)

    def do_help(self, arg) -> None:
        """`help`, `help all`, `help WORD` (cli/banker/shell_help.py)."""

        try:
            said = help_lines(arg, self.commands)
        except UsageError as exc:  # `help nosuch`
            self.refused(exc)
            return
        for text in said:
            self.say(text)

    # --- completion --------------------------------------------------------------------------

    def _show_matches(self, substitution, matches, longest) -> None:
        """Tab Tab's list, numbers in their order (readline's own sorts them as text)."""
        import readline
        import shutil

        from banco.cli.banker.completion import listing

        width = shutil.get_terminal_size().columns
        self.stdout.write("\n" + listing(matches, width) + "\n" + self.prompt
                          + readline.get_line_buffer())
        self.stdout.flush()

    def completenames(self, text, *ignored):
        return spaced([w for w in words() if w.startswith(text)])

    def completedefault(self, text, line, begidx, endidx):
        """Names by prefix, any case or accents.  Property names have spaces: the whole
        argument typed so far is matched, and only the part from the current word on is
        offered, since readline replaces just that word.  After `build`/`sell`, a colour group
        too, then its levels; after a deck word, the deck's card numbers."""
        word = line.split(" ", 1)[0]
        command = english(word)
        if line[:endidx].rsplit(" ", 1)[-1].startswith("-"):
            # `state --a`, `state --`: an option being typed, never a player (`--Anna`);
            # readline splits at `-`, so `text` alone is "" after `--`
            return []
        try:
            st = self.session.state()
        except BancoError:
            return []
        return complete(st, command, text, line, begidx, endidx)


def _a_terminal(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # closed, or no file at all
        return False


def _too_long(line: str) -> bool:
    """Longer than a transcript's line may be (cli/bounded_input.py), in bytes as `run`
    counts them: a character is at most four."""
    return len(line) > TRANSCRIPT_LINE_LIMIT or (
        len(line) > TRANSCRIPT_LINE_LIMIT // 4 and len(line.encode(errors="replace"))
        > TRANSCRIPT_LINE_LIMIT)


@click.command()
@pass_session
def shell(session):
    """An interactive prompt: the same words without `banco`, with name completion.

    The prompt shows the game (`#2`) and what its table waits for; `help` lists the words;
    Ctrl-C clears the line (twice, or Ctrl-D, leaves); the history is kept in $XDG_DATA_HOME/banco/history
    (~/.local/share/banco/history; env BANCO_HISTORY moves it, empty turns it off).
    Fed lines on a pipe, it exits with the code of the first line that failed (0 if none).
    """
    if os.path.exists(session.db) or "://" in session.db:
        # a file that is no database (or one locked, damaged): said now, exit 4, not after a
        # prompt at the first command; a file not yet there waits for `new` to create it
        session.book  # noqa: B018 - opening it is the check
    # History only for lines a person types: a transcript piped in stays out of it.
    typed = sys.stdin.isatty()
    with at_door(words()):  # what opening says too (a broken chain's warning): no `banco `
        loop = BancoShell(session, click.get_current_context().find_root().command,
                          history=history_path() if typed else None)
        loop.cmdloop()
    if not typed and loop.first_failure:
        # lines fed on a pipe (`banco shell < lines`): the script that fed them learns that one
        # failed, and how (the first failure's exit code), as `banco run` would tell it
        click.get_current_context().exit(loop.first_failure)
