"""`banco shell`: one process, one open database, the table kept in memory between commands."""

from __future__ import annotations

import cmd
import shlex

from ledger.errors import BancoError
from ledger.names import fold

WORDS = ("roll", "buy", "decline", "bid", "hammer", "claim", "card", "pay-fine", "use-card",
         "pay", "undo", "state", "log", "board", "cards", "audit", "new", "help", "quit")
TAKES_PLAYER = {"bid", "claim", "pay"}
TAKES_DECK = {"card", "cards"}


class BancoShell(cmd.Cmd):
    intro = "banco shell: type the same words as `banco ...` (tab completes names); `quit` ends."

    def __init__(self, session):
        super().__init__()
        self.session = session
        self.identchars += "-"
        self._set_prompt()

    def _set_prompt(self) -> None:
        try:
            st = self.session.state()
            self.prompt = f"banco[{st.game_id}] {st.turn.player}> "
        except BancoError:
            self.prompt = "banco> "

    def default(self, line: str) -> None:
        from cli.main import execute_line

        execute_line(self.session, line)

    def emptyline(self) -> None:
        pass

    def postcmd(self, stop, line):
        self._set_prompt()
        return stop

    def do_quit(self, arg) -> bool:
        return True

    do_exit = do_quit
    do_EOF = do_quit

    def completenames(self, text, *ignored):
        return [w for w in WORDS if w.startswith(text)]

    def completedefault(self, text, line, begidx, endidx):
        try:
            words = shlex.split(line[:begidx])
        except ValueError:
            words = line[:begidx].split()
        if not words:
            return []
        try:
            st = self.session.state()
        except BancoError:
            return []
        if words[0] in TAKES_DECK:
            names = [d.title for d in st.edition.decks.values()]
        elif words[0] in TAKES_PLAYER or "--player" in words[-1:] or "-p" in words[-1:]:
            names = list(st.seats)
        else:
            names = list(st.seats)
        want = fold(text)
        return [n if " " not in n else f'"{n}"' for n in names if fold(n).startswith(want)]
