"""`banco shell`: one process, one open database, the table kept in memory between commands."""

from __future__ import annotations

import cmd

from ledger.errors import BancoError
from ledger.names import fold

WORDS = ("roll", "buy", "decline", "bid", "hammer", "claim", "card", "pay-fine", "use-card",
         "pay", "undo", "state", "log", "board", "cards", "audit", "new", "build", "sell",
         "break-up", "mortgage", "unmortgage", "trade", "bankrupt", "auction-building",
         "statement", "history", "standings", "games", "help", "quit", "misdraw", "shuffle")
TAKES_PLAYER = {"bid", "claim", "pay", "bankrupt", "statement"}
TAKES_DECK = {"card", "cards", "misdraw", "shuffle"}
TAKES_PROPERTY = {"build", "sell", "mortgage", "unmortgage", "history", "hammer"}


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
        from cli.banker import execute_line

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
        """Names by prefix, any case or accents.  Property names have spaces: the whole
        argument typed so far is matched, and only the part from the current word on is
        offered, since readline replaces just that word."""
        command = line.split(" ", 1)[0]
        try:
            st = self.session.state()
        except BancoError:
            return []
        if command in TAKES_PROPERTY or command == "trade":
            names = [sp.name for sp in st.edition.properties]
            if command == "trade":
                names += list(st.seats)
        elif command in TAKES_DECK:
            names = [d.title for d in st.edition.decks.values()]
        else:
            names = list(st.seats)
        typed = line[len(command):endidx].lstrip()
        if command in TAKES_PROPERTY:
            typed = typed.lstrip("\"'")
        else:
            typed = text  # players and decks are single words
        start = len(typed) - len(text)
        want = fold(typed)
        return [n[start:] for n in names if fold(n).startswith(want)]
