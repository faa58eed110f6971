"""What every command module shares: the open database and game (`Session`), name resolution,
and the way a decided command is reported.  Imports nothing heavy at module level."""

from __future__ import annotations

import functools
import json

import click


class Session:
    """One open database and the game the commands address; shared by `shell` and `run`."""

    def __init__(self, db: str, game: int | None, actor: str = "banker"):
        self.db = db
        self.game_option = game
        self.actor = actor
        self._book = None
        self._game = None

    @property
    def book(self):
        if self._book is None:
            from ledger.book import Book

            self._book = Book(self.db)
        return self._book

    def game(self) -> int:
        # Resolved once: a command asks several times (names, then the write), and listing
        # the games reads every game's first event.
        if self._game is None:
            self._game = self.book.current_game(self.game_option)
        return self._game

    def use_game(self, game: int) -> None:
        self.game_option = game
        self._game = game

    def state(self):
        return self.book.state(self.game())

    def now(self) -> str:
        from ledger.canonical import now_text

        return now_text()

    def close(self) -> None:
        if self._book is not None:
            self._book.close()
            self._book = None


def pass_session(f):
    """Pass the Session to a command, and accept `--db` and `--game` after the command word too
    (`banco state --db x.db`), as well as before it."""

    @functools.wraps(f)
    def command(*args, db_after=None, game_after=None, **kwargs):
        ctx = click.get_current_context()
        session = ctx.find_object(Session)
        if db_after is not None and db_after != session.db:
            # Another database for this one command: its own session, closed afterwards.
            session = Session(db_after, game_after, session.actor)
            ctx.call_on_close(session.close)
        elif game_after is not None:
            session.game_option, session._game = game_after, None
        return f(session, *args, **kwargs)

    command = click.option("--game", "game_after", type=int, default=None, metavar="N",
                           help="Game number (also accepted before the command).")(command)
    command = click.option("--db", "db_after", default=None, metavar="FILE",
                           help="SQLite file (also accepted before the command).")(command)
    return command


# --- names ----------------------------------------------------------------------------------

def player_name(state, text: str | None) -> str | None:
    if text is None:
        return None
    from ledger.names import resolve

    return resolve(text, list(state.seats), "player")


def property_position(state, text: str) -> int:
    from ledger.names import resolve

    by_name = {s.name: s.position for s in state.edition.properties}
    return by_name[resolve(text, list(by_name), "property")]


def deck_key(edition, text: str) -> str:
    """A deck by its title, any case or accents, unique prefix (`imp`, `probabilita`)."""
    from ledger.names import resolve

    titles = {d.title: k for k, d in edition.decks.items()}
    return titles[resolve(text, list(titles), "deck")]


def next_property(state, words: list[str], i: int) -> tuple[int, int]:
    """The longest run of words from i that names a property, so names need no quotes:
    `via roma corso impero` is two properties.  Returns it and where the next word starts."""
    from ledger.names import resolve_run

    by_name = {s.name: s.position for s in state.edition.properties}
    name, j = resolve_run(words, i, list(by_name), "property")
    return by_name[name], j


# --- reporting ------------------------------------------------------------------------------

def report(outcome) -> None:
    from cli.render import narrate

    for e in outcome.events:
        line = narrate(e, outcome.state)
        if line:
            click.echo(line)
    if outcome.refused:
        raise outcome.refused


def execute(session: Session, command) -> None:
    outcome = session.book.execute(session.game(), command, now=session.now(),
                                   actor=session.actor)
    report(outcome)


def turn_line(state) -> str:
    from ledger.state import next_step

    return "next: " + next_step(state)


player_option = click.option("--player", "-p", default=None,
                             help="Check that it is this player's turn.")
json_option = click.option("--json", "as_json", is_flag=True, help="Stable JSON for scripts.")
property_words = click.argument("words", nargs=-1, required=True, metavar="PROPERTY")


def dump(doc) -> None:
    click.echo(json.dumps(doc, ensure_ascii=False, indent=2))
