"""The tables a server shows (`banco serve`): one watcher per game, and each caller's view.

- One watcher thread per game owns a read-only connection (sqlite `mode=ro`; on PostgreSQL a
  session whose transactions are read-only): it looks at the game's last seq when woken
  (`nudge`) and folds what is new (Book's incremental refresh).  On a SQLite file it is also
  woken five times a second: a change made at the terminal shows within a poll.  On PostgreSQL
  it is woken only by the server's listener (ledger/store/postgres_listen.py), which hears
  every committed command, whoever made it (another table, the terminal, another server).
  One made from this server's phones shows at once on either.
- The documents are rendered lazily, once per (version, language, view) and then handed out
  from the cache, so fifty phones cost fifty cheap answers, not fifty folds.
- Views: `public` (the TV: cash as the rules or the banker's --show-cash say), `player:NAME`
  (the public view and his own cash), `full` (banker and referee: every figure, and what the
  banker's pads offer: render_view).  Where cash is hidden, `next` is said without the
  amounts a debtor holds (projections/readings/screen.py).
"""

from __future__ import annotations

import json
import sys
import threading
import time
from collections.abc import Callable

from banco.cli.words import i18n
from banco.ledger.store.postgres_connection import dropped, is_postgres_url

POLL = 0.2  # seconds between looks at the book: a command at the terminal shows within a second
RETRY = 1.0  # seconds before a watcher without polling (PostgreSQL) tries again after an error
SEEN = 16  # tables a watcher keeps, to say what an undo takes back without folding the game


def log(text: str) -> None:
    """A line on the server's terminal (sys.__stderr__: the terminal `banco serve` runs in,
    whatever a host application did with sys.stderr)."""
    print(time.strftime("%H:%M:%S ") + text, file=sys.__stderr__, flush=True)


TRY_AGAIN = {"Retry-After": "1"}  # seconds: as often as the store tries PostgreSQL again (revive)


def still_revoked(keyring, secret: str) -> bool:
    """Whether an event stream's token is no longer live; not known while the database is away
    (a restart): the stream goes on, as its table does (it ended at PostgreSQL's restart)."""
    from banco.ledger.base.errors import DatabaseError

    try:
        return keyring.find(secret) is None
    except DatabaseError:
        return False


def translations(lang: str):
    import gettext

    return gettext.translation(i18n.DOMAIN, i18n.LOCALE_DIR, languages=[lang], fallback=True,
                               class_=i18n.CATALOG_CLASSES.get(lang))


TR = {}


def tr(lang: str):
    if lang not in TR:
        TR[lang] = translations(lang)
    return TR[lang]


def open_read_only(db: str):
    """A Book on `db` whose connection the database itself refuses to write (SQLite's
    `mode=ro`, whatever the file's permissions; PostgreSQL's read-only transactions): the
    watchers cannot record anything, by construction."""
    from banco.ledger.book import Book

    book = Book(db, create=False, warn=lambda message: print(i18n.say(message), file=sys.stderr))
    store = book.store
    if is_postgres_url(db):
        store.conn.execute("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY")
        return book
    store.close()
    store.readonly = True  # _connect opens `file:...?mode=ro` for a read-only store
    store._connect(create=False)
    return book


class Table:
    """One game's table as the server shows it, kept current by its own watcher thread."""

    def __init__(self, db: str, game: int | None, show_cash: bool | None,
                 poll: float | None = POLL, on_change: Callable[[], None] | None = None):
        # poll None: no look but when nudged (PostgreSQL's listener nudges on every command)
        self.db, self.game, self.show_cash, self.poll = db, game, show_cash, poll
        self.on_change = on_change
        self.postgres = is_postgres_url(db)
        self.version = 0
        self.state = None
        self.tail: list[dict] = []
        self.undone = None  # (line, the table the next undo leaves, the rows it retracts), the
        # undo's refusal, or None
        self.seen: dict[int, object] = {}  # SEEN tables shown or folded, by seq: _keep
        self.error: str | None = None
        self.broken: dict[int, object] = {}  # game -> where its chain breaks (the book's)
        self.changed = threading.Condition()
        self.closing = threading.Event()
        self.wake = threading.Event()
        self.ready = threading.Event()
        self._docs: dict[tuple, dict] = {}
        self._screens: dict[bool | None, dict] = {}  # the table's screens, with cash or not
        self.thread = threading.Thread(target=self._watch, name=f"banco-watch-{game}",
                                       daemon=True)

    def start(self) -> Table:
        self.thread.start()
        self.ready.wait(10)
        return self

    def close(self) -> None:
        self.closing.set()
        self.wake.set()
        with self.changed:
            self.changed.notify_all()
        self.thread.join(5)

    def nudge(self) -> None:
        """Look now: the server has just recorded a line."""
        self.wake.set()

    def settle(self, seq: int, timeout: float = 2.0) -> None:
        """Wait until the watcher has read the game up to `seq` (after a write of ours)."""
        self.nudge()
        with self.changed:
            self.changed.wait_for(lambda: self.closing.is_set() or (
                self.state is not None and self.state.seq >= seq), timeout)

    def recorded(self, book, game: int, seq: int, rows: tuple[dict, ...] = ()) -> None:
        """The server has just recorded up to `seq` with `book` (its writer's): show that
        table at once, from the writer's own fold, rather than waking the watcher to read and
        fold again what was just written (with thirty tables, that second fold per line and the
        threads' hand-over were most of a line's time).  Another game's book, or one behind:
        the watcher looks."""
        if self.game is not None and self.game != game:
            self.settle(seq)
            return
        state = book.state(game)
        if state.seq < seq:
            self.settle(seq)
            return
        with self.changed:
            before, tail = self.state, self.tail
        if (rows and before is not None and before.game_id == game and rows[-1]["seq"] == seq
                and rows[0]["seq"] == before.seq + 1 and state.seq == seq):
            # the rows just written follow the table shown: its tail and them, not a read
            from banco.projections.readings.screen import command_tail

            tail = command_tail(reversed([*tail, *rows]))
        else:
            tail = None
        self._publish(book, game, state, tail)

    def wait(self, version: int, timeout: float) -> int:
        """Block until the table is newer than `version` (or timeout, or closing)."""
        with self.changed:
            self.changed.wait_for(lambda: self.version != version or self.closing.is_set(),
                                  timeout)
            return self.version

    def _watch(self) -> None:
        book = None
        game = None
        while not self.closing.is_set():
            self.wake.clear()  # before looking: a nudge while looking makes another look
            try:
                if book is not None and self.postgres and dropped(book.store.conn):
                    # ended while idle (a restart, an idle timeout, an administrator): a new
                    # read-only one, rather than a look failing and a second's wait
                    book.close()
                    book = None
                if book is None:
                    book = open_read_only(self.db)
                if game is None or self.game is None:  # a game once found stays; "the
                    game = book.current_game(self.game)  # latest" may move on
                seq = book.last_seq(game)
                state = self.state
                if state is None or (state.game_id, state.seq) != (game, seq):
                    self._publish(book, game)
                self.error = None
            except Exception as exc:  # noqa: BLE001 - the page keeps the last table; say why
                message = i18n.say_error(exc) if hasattr(exc, "render") else str(exc)
                if message != self.error:
                    print(message, file=sys.stderr)
                self.error = message
                if self.poll is None and book is not None:  # a connection lost: a new one
                    book.close()
                    book = None
            finally:
                self.ready.set()
            self.wake.wait(RETRY if self.poll is None and self.error else self.poll)
        if book is not None:
            book.close()

    def _publish(self, book, game: int, state=None, tail: list[dict] | None = None) -> None:
        """Show the game's table (folded by `book` unless given), its tail (read backwards
        unless given) and what the next undo takes back."""
        state = book.state(game) if state is None else state
        if game in book.broken:  # folded over a break: every view says so, as `state` does
            with self.changed:
                if game not in self.broken:  # found by a write refused on the table shown
                    self._docs, self.version = {}, self.version + 1
                    self.changed.notify_all()
                self.broken[game] = book.broken[game]
        tail = self._tail(book, game, state) if tail is None else tail
        self.show(state, tail, self._undone(book, game, state, tail))

    def _undone(self, book, game: int, state, tail: list[dict]):
        """What the next undo would take back: its line and the table it leaves, the table
        before that command, as this watcher saw it (else folded to that seq: after a
        restart, or an undo reaching past the tables kept); the book's refusal when a recorded fact
        stands in the way; None when nothing can be undone.
        The command is looked for in the screen's tail, else in the rows read backwards as the
        undo reads them (after more undos in a row than the tail holds commands)."""
        from banco.projections.readings.screen import undo_target

        target = undo_target(reversed(tail))
        if not isinstance(target, dict) and "seq" not in target.text.params:
            # the tail may stop short of the command: the rows read back to it, once (a fact
            # in the way found in the tail is the refusal the whole log gives too)
            target = undo_target(book.backwards(game, state.seq + 1))
        if not isinstance(target, dict):  # a fact in the way names its event; else nothing
            return target if "seq" in target.text.params else None
        first = min(target["seqs"], default=target["before"] + 1)
        facts = self._facts(book, game, tail, target["seqs"])
        with self.changed:  # the other thread may be showing a table
            seen = list(self.seen.items())
        at = next((seq for seq, _ in seen if target["before"] <= seq < first), None)
        if at is None:
            try:
                before = book.state(game, at=target["before"])
            except Exception:  # noqa: BLE001 - the button then names the line only
                return target["line"], None, facts
            at = target["before"]
        else:
            before = dict(seen)[at]
        with self.changed:  # kept, and kept longest: a roll and its undo, again and again
            self._keep(at, before)
        return target["line"], before, facts

    @staticmethod
    def _facts(book, game: int, tail: list[dict], seqs: list[int]) -> list[dict]:
        """The rows the next undo retracts, for its words to reverse each transfer as the book's
        undo says them (worked out from the cash alone, a trade's fee to the Bank read as money
        the other player got back: the last trial); from the tail, else read again."""
        wanted = set(seqs)
        facts = [e for e in tail if e["seq"] in wanted]
        if len(facts) < len(wanted):
            facts = [e for e in book.stream(game, min(wanted), max(wanted)) if e["seq"] in wanted]
        return facts

    def _keep(self, seq: int, state) -> None:
        """Keep a table by its seq (the table at a seq never changes), the least recently
        used forgotten first.  Under self.changed."""
        self.seen.pop(seq, None)
        self.seen[seq] = state
        while len(self.seen) > SEEN:
            del self.seen[next(iter(self.seen))]

    @staticmethod
    def _tail(book, game: int, state) -> list[dict]:
        from banco.projections.readings.screen import command_tail

        # only the rows the screen shows (its last commands), read backwards from the table's
        # event: a long game's log is never held, and a change costs a few rows
        return command_tail(book.backwards(game, state.seq + 1))

    def show(self, state, tail: list[dict], undone=None) -> None:
        """Publish a table: the next document of each view is drawn from it.  The newer of
        two tables wins (the watcher and the writer may both bring the same line)."""
        with self.changed:
            old = self.state
            if old is not None and old.game_id == state.game_id and old.seq >= state.seq:
                return
            if old is not None and old.game_id != state.game_id:
                self.seen = {}
            self._keep(state.seq, state)
            self.state, self.tail, self.undone = state, tail, undone
            self.version += 1
            self._docs = {}
            self._screens = {}
            self.changed.notify_all()
        if self.on_change is not None:
            self.on_change()

    # --- the views ---------------------------------------------------------------------------

    def doc(self, lang: str, view: str = "public") -> tuple[int, dict]:
        """The screen's document for a view, in a language: (version, document)."""
        with self.changed:
            version, state, tail, undone = self.version, self.state, self.tail, self.undone
            cached = self._docs.get((lang, view))
            broken = self.broken.get(state.game_id) if state is not None else None
        if cached is not None:
            return version, cached
        if state is None:
            return version, {}
        def screen_of(show_cash: bool | None) -> dict:
            # one screen with cash and one without a version, whatever the views and languages
            # drawn from them (a table's six phones cost two screens, not ten)
            from banco.projections.readings.screen import screen

            with self.changed:
                kept = self._screens.get(show_cash) if self.version == version else None
            if kept is None:
                kept = screen(state, tail, show_cash=show_cash)
                with self.changed:
                    if self.version == version:
                        self._screens[show_cash] = kept
            return kept

        doc = render_view(state, tail, lang, view, self.show_cash, undone, screen_of)
        doc["warning"] = None if broken is None else warning(state.game_id, broken, lang)
        with self.changed:
            if self.version == version:
                self._docs[(lang, view)] = doc
        return version, doc

    def json(self, lang: str, view: str = "public") -> tuple[int, bytes]:
        version, doc = self.doc(lang, view)
        return version, json.dumps(doc, ensure_ascii=False).encode("utf-8")


def render_view(state, tail: list[dict], lang: str, view: str, show_cash: bool | None,
                undone=None, screen_of=None) -> dict:
    """A view's document (drawn_view), the facts inside its words (a debt's reason, where a
    Mr Monopoly goes) said in `lang` too: they came out English ("deve 400 M a Bruno (rent on
    Viale Monterosa)")."""
    with i18n.in_language(lang):
        return drawn_view(state, tail, lang, view, show_cash, undone, screen_of)


def drawn_view(state, tail: list[dict], lang: str, view: str, show_cash: bool | None,
               undone=None, screen_of=None) -> dict:
    """A view's document.  The banker's and the referee's (`full`) add what the pads offer:
    the cards to pick, the Speedy die, the estate pads (projections/readings/estate_pads.py),
    what a hammer with no bid would do (and whom the banker names when the richest tie), and
    what the next undo takes back, in words."""
    from banco.ledger.base.text import render
    from banco.ledger.board.rule_sets import cited
    from banco.ledger.rules.estate import R_BANKRUPT
    from banco.ledger.table.steps import debt_choice, hammer_choices
    from banco.projections.readings.estate_pads import estate
    from banco.projections.readings.screen import card_pick, screen, speedy_roll, view_of

    if screen_of is None:  # a view drawn alone (tests): its screens made here
        def screen_of(cash):
            return screen(state, tail, show_cash=cash)
    public = screen_of(show_cash)
    full = public if view == "public" or public["cash_shown"] else screen_of(True)
    doc, step = view_of(state, full, public, view)
    extra = ({"cards": card_pick(state), "speedy": speedy_roll(state), "estate": estate(state),
              "no_bid": no_bid(state, tr(lang)), "no_bid_to": hammer_choices(state),
              "undo": undo_words(state, undone, tr(lang)),
              # what the debt pad offers each debtor: only the line that can work (003 §10)
              "debt_pad": [{"debtor": n, "choice": c, "raise": r,
                            "raise_text": state.edition.money(r),
                            "rule": cited(state.rules, "bankrupt", R_BANKRUPT)}
                           for n in dict.fromkeys(d.debtor for d in state.debts)
                           for c, r in [debt_choice(state, n)]]} if view == "full" else {})
    # the jail's and a pay-or-draw card's choices as buttons; a player's own pads (issue 34)
    from banco.cli.web.choices import (
        groups_named,
        happened,
        lifts_said,
        localised,
        player_extras,
        table_choices,
    )

    extra["happened"] = happened(state, tail, tr(lang))

    if view == "full":
        extra["choices"] = table_choices(state)
    elif view.startswith("player:"):
        extra.update(player_extras(state, view.split(":", 1)[1], lang))
    if extra.get("estate"):
        extra["estate"] = groups_named(lifts_said(extra["estate"], state, tr(lang)), state, lang)
    from banco.cli.web.steps import again, on_screen

    return localised({**doc, **extra, "next": render(on_screen(again(state, step)), tr(lang))},
                     state, lang,
                     tr(lang), view)


def warning(game: int, broken, lang: str) -> str:
    """The terminal's warning of a table folded over a break in its chain, in the view's
    language: the phones are told what `banco state` tells the banker."""
    from banco.ledger.base.text import render
    from banco.ledger.store.chain import broken_warning

    return render(broken_warning(game, broken), tr(lang))


def no_bid(state, catalog) -> str | None:
    """While an auction has no bid: what `hammer` will do, as the shell says it when the
    auction opens (cli/lines/answer.py's IF_NO_BID), for the page to warn with before it hammers."""
    from banco.cli.lines.answer import IF_NO_BID
    from banco.ledger.base.text import render
    from banco.ledger.table.state import hammer_step

    if state.auction is None or state.auction.high_bidder is not None:
        return None
    return catalog.gettext(IF_NO_BID).format(step=render(hammer_step(state), catalog)).strip()


def undo_words(state, undone, catalog) -> dict | None:
    """The next undo: its line, and what it takes back in the table's words
    (cli/words/undo_text.py), from this table to the one it leaves; or, refused, why."""
    from banco.cli.words.undo_text import taken_back
    from banco.ledger.base.errors import RuleViolation
    from banco.ledger.base.text import cited

    if undone is None:
        return None
    if isinstance(undone, RuleViolation):  # the undo refused: the button off, with why
        return {"line": None, "changes": [],
                "refused": cited(undone.text.render(catalog), undone.rule)}
    line, before, facts = undone
    return {"line": line, "changes": [] if before is None else taken_back(state, before, catalog,
                                                                           facts=facts)}
