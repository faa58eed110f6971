"""`banco shell`: one process, one open database, the table kept in memory between commands.

The prompt shows the game (`#2`) and what its table waits for; Ctrl-C clears the line, on an
empty line it says how to leave and a second one leaves (so does Ctrl-D); `help` lists the words; the history persists between sessions;
and when another terminal records something on the same game, the shell says so before it
records anything itself.
"""

from __future__ import annotations

import cmd
import os
import signal
import sys

import click

from banco.cli.banker.completion import complete, spaced
from banco.cli.session import pass_session
from banco.cli.words.i18n import N_, _, at_door, say_os_error
from banco.cli.words.waiting import prompt_text as prompt_for  # the prompt: a pure function
from banco.ledger.base.errors import BancoError
from banco.ledger.base.names import fold, shown

SHELL_WORDS = {"help": N_("the words, or `help WORD` for one word's usage"),
               "quit": N_("leave the shell (also `exit`, Ctrl-D, or Ctrl-C twice)"),
               "game": N_("`game N`: from now on, game N (`games` lists them)")}
# the shell's own words, in Italian too
SHELL_ITALIAN = {"aiuto": "help", "esci": "quit", "partita": "game"}
NOT_IN_SHELL = {"shell", "run", "serve"}
# Words that only read: they run even when another terminal has just changed the game.
READS = frozenset({"state", "log", "show", "board", "cards", "audit", "statement", "history",
                   "standings", "games", "help", "?", "quit", "exit", "EOF", "aiuto", "esci",
                   "replay", "ruling", "export", "report", "game", "partita"})
HISTORY_LENGTH = 1000
# the options `help WORD` leaves out inside the shell (its game, language and line ids)
SHELL_HIDES = frozenset({"db_after", "game_after", "lang", "command_key", "expect_seq"})


def words() -> list[str]:
    """Every word the shell takes, the Italian ones too (completed alike)."""
    from banco.cli.lines.vocabulary import WORDS

    said = [w for word in WORDS if word.english not in NOT_IN_SHELL
            for w in (word.english, word.italian) if w]
    return sorted(said) + sorted(SHELL_WORDS) + sorted(SHELL_ITALIAN)


def spoken() -> list[str]:
    """The shell's words in the session's language, for a suggestion (`aiuto trad` is not
    offered `trade`); Tab completes words() in both."""
    from banco.cli.command_table import spoken_words
    from banco.cli.words import i18n

    own = list(SHELL_WORDS) if i18n.language() == i18n.SOURCE else list(SHELL_ITALIAN)
    return [w for w in spoken_words() if english(w) not in NOT_IN_SHELL] + own


def english(word: str) -> str:
    """The command an Italian word names (`compra` -> `buy`); any other word as it is."""
    from banco.cli.lines.vocabulary import ALIASES

    return ALIASES.get(word, word)


def _in_shell_language(word: str) -> str:
    """A command's word in the shell's language, whichever language named it: `help roll` in
    an Italian shell is `tira`'s usage (it said `Uso: roll`), `help tira` in an English one
    `roll`'s."""
    from banco.cli.lines.vocabulary import BY_ENGLISH, italian_word
    from banco.cli.words import i18n

    named = english(word)
    if named not in BY_ENGLISH:
        return word
    return named if i18n.language() == i18n.SOURCE else italian_word(named)


def history_path() -> str | None:
    """Where the shell's history lives: $BANCO_HISTORY (empty: no history), else the user's
    data folder ($XDG_DATA_HOME, or ~/.local/share) under banco/history."""
    if "BANCO_HISTORY" in os.environ:
        return os.environ["BANCO_HISTORY"] or None
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local",
                                                            "share")
    return os.path.join(base, "banco", "history")


class ShellHistory:
    """The lines typed at the prompt, kept in a file between sessions (GNU readline's)."""

    def __init__(self, path: str):
        self.path = path
        try:
            import readline
        except ImportError:  # no readline on this platform: no history, nothing else lost
            readline = None
        self.readline = readline

    loaded = 0  # lines read from the file: the rest are this session's

    def load(self) -> None:
        if self.readline is None:
            return
        self.readline.clear_history()
        self.readline.set_history_length(HISTORY_LENGTH)
        if os.path.exists(self.path):
            try:
                self.readline.read_history_file(self.path)
            except OSError as exc:
                print(_("warning: cannot read the shell history {path}: {why}").format(
                    path=self.path, why=say_os_error(exc.strerror)),
                      file=sys.stderr)
        self.loaded = self.readline.get_current_history_length()

    def add(self, line: str) -> None:
        """Lines read without readline (a pipe, a test) are added by hand."""
        if self.readline is not None and line.strip():
            self.readline.add_history(line)
        self.forget_repeat()

    def replace_last(self, line: str) -> None:
        rl = self.readline
        n = rl.get_current_history_length() if rl is not None else 0
        if n > self.loaded:
            rl.replace_history_item(n - 1, line)
            self.forget_repeat()

    def forget_repeat(self) -> None:
        """`roll 3 4` typed twice is one line to step back to, as in bash's ignoredups."""
        rl = self.readline
        if rl is None:
            return
        n = rl.get_current_history_length()
        if n >= 2 and n > self.loaded and rl.get_history_item(n) == rl.get_history_item(n - 1):
            rl.remove_history_item(n - 1)  # 0-based, where get_history_item is 1-based

    def save(self) -> None:
        """This session's lines are appended to the file, so that two shells open at once
        (two games, two tables) both keep theirs; the file is then cut to HISTORY_LENGTH."""
        if self.readline is None:
            return
        rl = self.readline
        try:
            os.makedirs(os.path.dirname(self.path) or ".", exist_ok=True)
            new = rl.get_current_history_length() - self.loaded
            if not os.path.exists(self.path):
                rl.write_history_file(self.path)
            elif new > 0:
                rl.append_history_file(new, self.path)
                with open(self.path, encoding="utf-8", errors="surrogateescape") as f:
                    lines = f.readlines()
                if len(lines) > HISTORY_LENGTH:
                    with open(self.path, "w", encoding="utf-8", errors="surrogateescape") as f:
                        f.writelines(lines[-HISTORY_LENGTH:])
        except OSError as exc:
            print(_("warning: cannot save the shell history to {path}: {why}").format(
                path=self.path, why=say_os_error(exc.strerror)),
                  file=sys.stderr)


class BancoShell(cmd.Cmd):
    intro = N_("banco shell: the same words as `banco ...`; `help` lists them, Tab completes "
               "names; Ctrl-D or `quit` leaves.")

    def __init__(self, session, stdin=None, stdout=None, history: str | None = None):
        super().__init__(stdin=stdin, stdout=stdout)
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
        self._set_prompt()

    def say(self, text: str) -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

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
        if self.use_rawinput:
            try:
                line = input(self.prompt)  # readline has added it to the history
            except EOFError:
                return "EOF"
            if self.history:
                self.history.forget_repeat()
            return line
        self.stdout.write(self.prompt)
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            return "EOF"
        line = line.rstrip("\r\n")
        if self.history:
            self.history.add(line)
        return line

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
        if meant is not None and line.strip().lower() in YES:
            line = meant
            if self.history:
                self.history.replace_last(line)  # the up arrow gives the line, not `y`
        arrived = self.news()
        if not arrived:
            return line
        from banco.cli.words.facts import describe

        st = self.session.state()
        first, last = arrived[0]["seq"], arrived[-1]["seq"]
        span = (_("event {seq}").format(seq=first) if first == last
                else _("events {first}-{last}").format(first=first, last=last))
        self.say(_("meanwhile, another terminal recorded {span} on game {game}:").format(
            span=span, game=st.game_id))
        for e in arrived:
            self.say(f"{e['seq']:>6}  {describe(e, st)}")
        self._seen = (st.game_id, st.seq)
        word = line.split(maxsplit=1)[0] if line.strip() else ""
        if word and english(word) not in READS:
            self.say(_("`{line}` was not run: the table changed. Look again, and type it "
                       "again if it still holds (up arrow).").format(
                           line=shown(line.strip(), 80)))
            self._set_prompt()
            return ""
        return line

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
        from banco.cli.words.i18n import say_error

        self.lines += 1
        refused = names_another_file(line)
        if refused is not None:  # the shell stays on its own file (cli/lines/other_file.py)
            click.echo(say_error(refused), err=True)
            self.first_failure = self.first_failure or refused.exit_code
            return
        try:
            outcome = execute(self.session, line, command_id=f"{self.line_ids}{self.lines}",
                              expected=self._seen)
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
            from banco.cli.words.i18n import say_error

            self.say(say_error(exc))

    do_rivedi = do_replay  # the Italian word steps through the game too

    def do_game(self, arg) -> None:
        """`game N`: the shell addresses game N from now on (a `--game N` on a line is for
        that line only); `new` leaves the game it interrupts, and says this is the way back."""
        from banco.cli.words.i18n import say_error
        from banco.ledger.base.numbers import is_digits, not_a_number

        text = arg.strip()
        try:
            if not text:  # `game` alone said "'' is not a valid integer."
                from banco.ledger.base.errors import UsageError

                raise UsageError("`game` needs the game's number: `game N` (`games` lists them)")
            if not is_digits(text):
                raise not_a_number(text)
            self.session.use_game(self.session.book.current_game(int(text)))
        except BancoError as exc:
            self.say(say_error(exc))
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
        """`help`: the words by what the banker is doing (as `banco help`), with the shell's
        own; `help all`: every word with one line; `help WORD`: that word's usage."""
        import click

        from banco.cli.command_table import ALIASES, ALL_WORDS, group, grouped_help

        cli = group()  # the group `banco --help` describes (cli/main.py's): it is above
        word = arg.strip().split(" ", 1)[0] if arg.strip() else ""
        ctx = click.Context(cli, info_name="banco")
        if not word:
            said = grouped_help().splitlines()[:-1]  # its last line is for `banco`'s help
            shell_words = " ".join(w for w, e in SHELL_ITALIAN.items()) \
                if _("Commands") != "Commands" else " ".join(SHELL_WORDS)
            self.say("\n".join(said[2:]))  # not the title: the prompt says where we are
            self.say(_("the shell: {words}").format(words=shell_words))
            self.say("")
            self.say(_("`help WORD`: one word's usage; `help all`: every word with its line."))
            return
        if word.lower() in ALL_WORDS:

            # In Italian each word is listed by its Italian name first, `compra (buy)`, in the
            # order of the Italian names, as `banco aiuto` lists them
            speaking = _("Commands") != "Commands"
            italian = {e: w for w, e in ALIASES.items()}
            italian.update({e: w for w, e in SHELL_ITALIAN.items()})
            entries, seen = [], set()
            for name in words():
                if name in SHELL_ITALIAN or (name in ALIASES and name not in italian) \
                        or name in seen:
                    continue  # an Italian word: said beside its English one
                seen.add(name)
                label = f"{italian[name]} ({name})" if speaking and name in italian else name
                if name in SHELL_WORDS:
                    entries.append((label, _(SHELL_WORDS[name])))
                else:
                    command = cli.get_command(ctx, name)
                    entries.append((label, command.get_short_help_str(limit=60)))
            if speaking:
                entries.sort(key=lambda e: fold(e[0]))
            width = max(len(label) for label, _h in entries) + 1
            self.say(_("words (the same as `banco WORD ...`; `help WORD` for one):"))
            for label, text in entries:
                self.say(f"  {label:<{width}} {text}")
            return
        if word in SHELL_WORDS or word in SHELL_ITALIAN or word in ("exit", "?"):
            meaning = SHELL_WORDS.get(SHELL_ITALIAN.get(word, word), SHELL_WORDS["quit"])
            self.say(f"{word}: {_(meaning)}")
            return
        if english(word) in NOT_IN_SHELL:
            self.say(_("`{word}` is not available inside the shell: use `banco {word}`").format(
                word=word))
            return
        command = cli.get_command(ctx, word)
        if command is None:
            import difflib

            close = difflib.get_close_matches(word, spoken(), n=3, cutoff=0.6)
            hint = (_(": did you mean {words}?").format(words=_(" or ").join(close)) if close
                    else _("; `help` lists them"))
            self.say(_("no word {word!r}{hint}").format(word=shown(word), hint=hint))
            return
        # where and how a line is recorded is the shell's business, not the word's
        where = [p for p in command.params if p.name in SHELL_HIDES and not p.hidden]
        for p in where:
            p.hidden = True
        try:
            with click.Context(command, info_name=_in_shell_language(word)) as sub:
                self.say(command.get_help(sub))
        finally:
            for p in where:
                p.hidden = False

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
        if text.startswith("-"):
            return []  # `state --a`: an option being typed, never a player (`--Anna`)
        try:
            st = self.session.state()
        except BancoError:
            return []
        return complete(st, command, text, line, begidx, endidx)


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
    loop = BancoShell(session, history=history_path() if typed else None)
    loop.cmdloop()
    if not typed and loop.first_failure:
        # lines fed on a pipe (`banco shell < lines`): the script that fed them learns that one
        # failed, and how (the first failure's exit code), as `banco run` would tell it
        click.get_current_context().exit(loop.first_failure)
