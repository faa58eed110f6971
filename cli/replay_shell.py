"""`replay` inside `banco shell`: a small loop of its own that steps through the game command
by command (projections/replay.py), showing each step as `banco replay` prints it.

    next [N]   (or Enter) the next command, or N on      back [N]   the one before
    jump SEQ|TIME   the command that wrote event SEQ, or the last one recorded by TIME
    where      the table as it was after this command    quit       back to the shell
"""

from __future__ import annotations

from ledger.errors import BancoError

from .i18n import N_, _, say_error

HELP = N_("next [N] (Enter), back [N], jump SEQ|TIME, where (the table then), quit "
          "(back to the shell)")


class ReplayStepper:
    def __init__(self, shell, start: str = ""):
        from projections.replay import steps

        self.shell = shell
        session = shell.session
        self.game = session.game()
        self.events = session.book.events(self.game)
        self.steps = list(steps(self.events, self.game))
        self.i = self._find(start) if start else 0

    def _find(self, text: str) -> int:
        """The step holding event SEQ, or the last step recorded by TIME."""
        from projections.moments import parse_moment, seq_at

        seq = seq_at(self.events, parse_moment(text))
        return next(i for i, s in enumerate(self.steps) if s.first_seq <= seq <= s.last_seq
                    or s.first_seq > seq)

    def show(self) -> None:
        from cli.replay_text import step_lines

        self.shell.say("\n".join(step_lines(self.steps[self.i])))

    def where(self) -> None:
        from cli.render import local_time, state_text

        s = self.steps[self.i]
        self.shell.say(state_text(s.after))
        self.shell.say(_("(step {n} of {count}: events {first}-{last}, {time})").format(
            n=s.number, count=len(self.steps), first=s.first_seq, last=s.last_seq,
            time=local_time(s.recorded_at)))

    def run(self) -> None:
        sh = self.shell
        sh.say(_("replay of game {game}: {count} commands, {events} events; {help}").format(
            game=self.game, count=len(self.steps), events=self.events[-1]["seq"],
            help=_(HELP)))
        self.show()
        while True:
            sh.prompt = f"replay {self.i + 1}/{len(self.steps)}> "
            try:
                line = sh._read_line()
            except KeyboardInterrupt:
                sh.say("^C")
                break
            word, _sep, rest = line.strip().partition(" ")
            rest = rest.strip()
            if word in ("quit", "q", "exit", "EOF"):
                break
            try:
                if word in ("", "next", "n", "back", "b"):
                    n = int(rest) if rest.isdecimal() else 1
                    step = -n if word in ("back", "b") else n
                    target = self.i + step
                    if not 0 <= target < len(self.steps):
                        sh.say(_("the game's first command") if target < 0 else
                               _("that was the last command (`where` shows the table, `quit` "
                                 "leaves)"))
                        target = max(0, min(target, len(self.steps) - 1))
                        if target == self.i:
                            continue
                    self.i = target
                    self.show()
                elif word in ("jump", "j"):
                    if not rest:
                        sh.say(_("jump SEQ|TIME: to the command that wrote event SEQ, or the "
                                 "last one recorded by TIME"))
                        continue
                    self.i = self._find(rest)
                    self.show()
                elif word in ("where", "w"):
                    self.where()
                else:
                    sh.say(_("in the replay: {help}").format(help=_(HELP)))
            except BancoError as exc:
                sh.say(say_error(exc))
        sh.say(_("end of the replay"))
