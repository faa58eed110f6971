"""`replay` inside `banco shell`: a small loop of its own that steps through the game command
by command (projections/readings/replay.py), showing each step as `banco replay` prints it.

    next [N]   (or Enter) the next command, or N on      back [N]   the one before
    jump SEQ|TIME   the command that wrote event SEQ, or the last one recorded by TIME
    where      the table as it was after this command    quit       back to the shell
"""

from __future__ import annotations

from banco.cli.words.i18n import N_, _, say_error
from banco.ledger.base.errors import BancoError

HELP = N_("next [N] (Enter), back [N], jump SEQ|TIME, where (the table then), quit "
          "(back to the shell)")


class ReplayStepper:
    """Steps through the game holding a window of WINDOW steps around the current one, read
    from the book as it moves (cli/referee/replay_source.py): a long game in bounded memory.  Forward
    it reads on; back past the window, or a jump outside it, reads again from the table at
    a seq."""

    WINDOW = 64

    def __init__(self, shell, start: str = ""):
        self.shell = shell
        session = shell.session
        self.game = session.game()
        self.book = session.book
        self.last = self.book.last_seq(self.game)
        self.count = self.book.commands_before(self.game, self.last + 1)
        self.window: list = []  # contiguous steps; the current one is window[self.k]
        self.more = iter(())  # the steps after the window
        self.k = 0
        if start:
            self._find(start)
        else:
            self._load(1)

    @property
    def i(self) -> int:
        """The current step's place in the game (0 for the first command)."""
        return self.window[self.k].number - 1

    def _load(self, seq: int) -> None:
        """The window read again around the command that wrote event `seq` (or the first one
        after it), half a window of commands before it."""
        from banco.cli.referee.replay_source import game_steps, head_before

        start = head_before(self.book, self.game, seq, self.WINDOW // 2)
        self.more = game_steps(self.book, self.game, start)
        self.window, self.k = [], 0
        while self._read_on():
            if self.window[-1].last_seq >= seq:
                self.k = len(self.window) - 1
                return
        self.k = len(self.window) - 1

    def _read_on(self) -> bool:
        """One more step into the window (the oldest dropped past WINDOW); False at the end."""
        step = next(self.more, None)
        if step is None:
            return False
        self.window.append(step)
        if len(self.window) > self.WINDOW:
            del self.window[0]
            self.k -= 1
        return True

    def _move(self, target: int) -> None:
        """To step `target` (0-based, within the game)."""
        first = self.window[0].number - 1
        if target < first:
            from banco.cli.referee.replay_source import head_before

            here = self.window[0]
            self._load(head_before(self.book, self.game, here.first_seq, first - target))
            return
        while target - first >= len(self.window) and self._read_on():
            first = self.window[0].number - 1
        self.k = min(target - first, len(self.window) - 1)

    def _find(self, text: str) -> None:
        """The step holding event SEQ, or the last step recorded by TIME."""
        from banco.projections.referee.moments import moment_seq, parse_moment

        seq = moment_seq(self.book.store, self.game, parse_moment(text))
        k = next((k for k, s in enumerate(self.window) if s.last_seq >= seq), None)
        if k is None or (k == 0 and self.window[0].first_seq > seq):
            self._load(seq)  # past the window, or before it: read again around it
        else:
            self.k = k

    def show(self) -> None:
        from banco.cli.referee.replay_text import step_lines

        self.shell.say("\n".join(step_lines(self.window[self.k])))

    def where(self) -> None:
        from banco.cli.words.facts import local_time
        from banco.cli.words.table_text import state_text

        s = self.window[self.k]
        self.shell.say(state_text(s.after))
        self.shell.say(_("(step {n} of {count}: events {first}-{last}, {time})").format(
            n=s.number, count=self.count, first=s.first_seq, last=s.last_seq,
            time=local_time(s.recorded_at)))

    def run(self) -> None:
        sh = self.shell
        sh.say(_("replay of game {game}: {count} commands, {events} events; {help}").format(
            game=self.game, count=self.count, events=self.last,
            help=_(HELP)))
        self.show()
        while True:
            sh.prompt = f"replay {self.i + 1}/{self.count}> "
            try:
                line = sh._read_line()
            except KeyboardInterrupt:
                sh.say("^C")
                break
            from banco.ledger.base.numbers import is_digits

            word, _sep, rest = line.strip().partition(" ")
            rest = rest.strip()
            if word in ("quit", "q", "exit", "EOF"):
                break
            try:
                if word in ("", "next", "n", "back", "b"):
                    n = int(rest) if is_digits(rest) else 1
                    step = -n if word in ("back", "b") else n
                    target = self.i + step
                    if not 0 <= target < self.count:
                        sh.say(_("the game's first command") if target < 0 else
                               _("that was the last command (`where` shows the table, `quit` "
                                 "leaves)"))
                        target = max(0, min(target, self.count - 1))
                        if target == self.i:
                            continue
                    self._move(target)
                    self.show()
                elif word in ("jump", "j"):
                    if not rest:
                        sh.say(_("jump SEQ|TIME: to the command that wrote event SEQ, or the "
                                 "last one recorded by TIME"))
                        continue
                    self._find(rest)
                    self.show()
                elif word in ("where", "w"):
                    self.where()
                else:
                    sh.say(_("in the replay: {help}").format(help=_(HELP)))
            except BancoError as exc:
                sh.say(say_error(exc))
        sh.say(_("end of the replay"))
