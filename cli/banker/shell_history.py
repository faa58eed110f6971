"""The shell's history: the lines typed at the prompt, kept in a file between sessions (GNU
readline's); each shell open at once appends its own lines, and the file is cut to
HISTORY_LENGTH.  Apart from cli/banker/shell.py, whose loop uses it, by concept."""

from __future__ import annotations

import os
import sys

from banco.cli.words.i18n import _, say_os_error

HISTORY_LENGTH = 1000


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
