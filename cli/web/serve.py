"""`banco serve`: the live table as a read-only web page, for a TV or the players' phones.

The stack is the standard library's: `http.server`'s ThreadingHTTPServer with a four-route
router, the page pushed to by server-sent events.  The server is a window on the book, nothing
more: a few routes, no form, no session, nothing to install for the players; a framework would
add a dependency and serve no one at the table better.

- One watcher thread owns the database connection, opened read-only (sqlite `mode=ro`): it
  looks at the game's last seq five times a second and, when it moved, folds what is new
  (Book's incremental refresh) and renders the screen's document once per language.  Request
  threads only hand out that document, so fifty phones cost fifty cheap answers, not fifty
  folds.
- GET /            the page (cli/web/static/table.html), its words in the reader's language
- GET /table.json  the screen's document (projections/readings/screen.py) as it is now
- GET /events      server-sent events: the document now, then each time it changes
- anything else GET: 404; any other method: 405.  No file is ever served by path.
"""

from __future__ import annotations

import json
import socket
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from urllib.parse import parse_qs, urlsplit

import click

from cli.session import ARGS, pass_session
from cli.words import i18n
from cli.words.i18n import N_

POLL = 0.2  # seconds between looks at the book: a command shows within a second
HEARTBEAT = 15.0  # seconds between SSE comments, so a phone that went away is noticed

# The page's words, said in the reader's language (the page fills the {names}).
WORDS = {
    "title": N_("banco: the table"),
    "game": N_("game {game}"),
    "event": N_("event {seq}"),
    "cash": N_("cash"),
    "cash_hidden": N_("cash not shown ({rule}: a player need not say how much cash they hold)"),
    "in_jail": N_("in jail"),
    "bankrupt": N_("bankrupt"),
    "jail_cards": N_("get-out-of-jail cards: {n}"),
    "deeds": N_("deeds"),
    "no_deeds": N_("no deeds"),
    "claims": N_("open rent claims"),
    "claim": N_("{owner} may claim {amount} from {payer} for {property}"),
    "until": N_("until {name} rolls"),
    "after_turn": N_("paid after {name}'s turn"),
    "no_claims": N_("no claim open"),
    "auction": N_("auction"),
    "auction_deed": N_("{property}: high bid {amount} by {name}"),
    "auction_open": N_("{property}: no bid yet, bids from {amount}"),
    "auction_house": N_("a house"),
    "auction_hotel": N_("a hotel"),
    "debts": N_("debts"),
    "debt": N_("{debtor} owes {creditor} {amount}"),
    "commands": N_("last commands"),
    "no_line": N_("(no line recorded)"),
    "mortgaged": N_("mortgaged"),
    "offline": N_("connection lost: retrying..."),
}
# the server's plain-text answers, in the visitor's language like the page
READ_ONLY = N_("read-only: banco serve only shows the table")
NOT_FOUND = N_("not found: this page shows / (and /table.json, /events)")


def words(tr) -> dict:
    return {k: tr.gettext(v) for k, v in WORDS.items()}


def choose_language(accept: str | None, chosen: str | None = None) -> str:
    """The page's language: the banker's --lang, else the browser's Accept-Language (the
    first supported by preference: `it-IT,it;q=0.9,en;q=0.8` is Italian), else English."""
    if chosen:
        return chosen
    ranked = []
    for i, part in enumerate((accept or "").split(",")):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        for p in params.split(";"):
            key, _, value = p.strip().partition("=")
            if key == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        code = tag.strip().split("-")[0].lower()
        if code in i18n.LANGUAGES and q > 0:
            ranked.append((-q, i, code))
    return min(ranked)[2] if ranked else "en"


def _translations(lang: str):
    import gettext

    return gettext.translation(i18n.DOMAIN, i18n.LOCALE_DIR, languages=[lang], fallback=True)


def open_read_only(db: str):
    """A Book on `db` whose connection SQLite itself refuses to write (`mode=ro`), whatever
    the file's permissions: the server cannot record anything, by construction."""
    from ledger.book import Book

    book = Book(db, create=False, warn=lambda message: print(i18n.say(message), file=sys.stderr))
    store = book.store
    store.close()
    store.readonly = True  # _connect opens `file:...?mode=ro` for a read-only store
    store._connect(create=False)
    return book


class Table:
    """The screen's document, kept current by one thread that alone reads the database."""

    def __init__(self, db: str, game: int | None, show_cash: bool | None,
                 poll: float = POLL):
        self.db, self.game, self.show_cash, self.poll = db, game, show_cash, poll
        self.version = 0
        self.docs: dict[str, bytes] = {}  # language -> the document, as JSON
        self.error: str | None = None
        self.changed = threading.Condition()
        self.closing = threading.Event()
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._watch, name="banco-serve-watch", daemon=True)
        self._tr = {lang: _translations(lang) for lang in i18n.LANGUAGES}

    def start(self) -> Table:
        self.thread.start()
        self.ready.wait(10)
        return self

    def close(self) -> None:
        self.closing.set()
        with self.changed:
            self.changed.notify_all()
        self.thread.join(5)

    def doc(self, lang: str) -> tuple[int, bytes]:
        with self.changed:
            return self.version, self.docs.get(lang, b"{}")

    def wait(self, version: int, timeout: float) -> int:
        """Block until the document is newer than `version` (or timeout, or closing)."""
        with self.changed:
            self.changed.wait_for(lambda: self.version != version or self.closing.is_set(),
                                  timeout)
            return self.version

    def _watch(self) -> None:
        book = None
        seen = None
        while not self.closing.is_set():
            try:
                if book is None:
                    book = open_read_only(self.db)
                game = book.current_game(self.game)
                key = (game, book.store.last_seq(game))
                if key != seen:
                    self._publish(book, game)
                    seen = key
                self.error = None
            except Exception as exc:  # noqa: BLE001 - the page keeps the last table; say why
                message = i18n.say_error(exc) if hasattr(exc, "render") else str(exc)
                if message != self.error:
                    print(message, file=sys.stderr)
                self.error = message
            finally:
                self.ready.set()
            self.closing.wait(self.poll)
        if book is not None:
            book.close()

    def _publish(self, book, game: int) -> None:
        from ledger.base.text import render
        from ledger.table.state import next_step
        from projections.readings.screen import command_tail, screen

        state = book.state(game)
        # only the rows the screen shows (its last commands), read backwards from the table's
        # event: a long game's log is never held, and a change costs a few rows
        tail = command_tail(book.store.read_backwards(game, state.seq + 1))
        base = screen(state, tail, show_cash=self.show_cash)
        step = next_step(state)
        docs = {lang: json.dumps({**base, "next": render(step, tr)}, ensure_ascii=False)
                .encode("utf-8") for lang, tr in self._tr.items()}
        with self.changed:
            self.docs = docs
            self.version += 1
            self.changed.notify_all()


def page_template() -> str:
    return resources.files("cli.web").joinpath("static/table.html").read_text(encoding="utf-8")


def page(template: str, lang: str, doc: bytes, tr) -> bytes:
    """The page with its words and the table now (drawn at once, before the first event)."""
    def script_json(data: str) -> str:  # safe inside <script>: no `</script>` can close it
        return data.replace("<", "\\u003c")

    html = (template.replace("__LANG__", lang)
            .replace("__TITLE__", tr.gettext(WORDS["title"]))
            .replace("__WORDS__", script_json(json.dumps(words(tr), ensure_ascii=False)))
            .replace("__TABLE__", script_json(doc.decode("utf-8"))))
    return html.encode("utf-8")


# Only what the page itself holds: scripts and styles inline, data from this server.
CSP = ("default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
       "connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'")


def make_handler(table: Table, lang: str | None, template: str):
    tr = {code: _translations(code) for code in i18n.LANGUAGES}

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive: a phone polling reuses its connection
        def version_string(self) -> str:
            return "banco"  # not the Python version: nothing a visitor needs to know
        # a connection left idle this long is closed, so forgotten phones do not pile up
        # threads (an event stream writes a heartbeat every 15 s and is not idle)
        timeout = 120

        def log_message(self, format, *args):  # noqa: A002 - quiet: the banker's terminal
            pass

        def _language(self, query: dict) -> str:
            asked = query.get("lang", [None])[0]
            if asked in i18n.LANGUAGES:
                return asked
            return choose_language(self.headers.get("Accept-Language"), lang)

        def _send(self, status: int, body: bytes, ctype: str, head_only: bool = False,
                  extra: dict | None = None) -> None:
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.send_header("X-Content-Type-Options", "nosniff")
            for k, v in (extra or {}).items():
                self.send_header(k, v)
            self.end_headers()
            if not head_only:
                self.wfile.write(body)

        def do_GET(self, head_only: bool = False) -> None:  # noqa: N802 - http.server's name
            url = urlsplit(self.path)
            query = parse_qs(url.query)
            language = self._language(query)
            if url.path == "/":
                _, doc = table.doc(language)
                self._send(200, page(template, language, doc, tr[language]),
                           "text/html; charset=utf-8", head_only,
                           {"Content-Security-Policy": CSP, "Content-Language": language,
                            "Vary": "Accept-Language"})
            elif url.path == "/table.json":
                _, doc = table.doc(language)
                self._send(200, doc, "application/json; charset=utf-8", head_only,
                           {"Vary": "Accept-Language"})
            elif url.path == "/events":
                if head_only:  # the stream's headers, no stream: a HEAD must end
                    self._send(200, b"", "text/event-stream; charset=utf-8", True)
                else:
                    self._events(language)
            else:
                self._send(404, self._say(NOT_FOUND, language), "text/plain; charset=utf-8",
                           head_only, {"Content-Language": language})

        def do_HEAD(self) -> None:  # noqa: N802
            self.do_GET(head_only=True)

        def _refuse(self) -> None:
            # The server only shows the table: recording is the banker's, at the terminal.
            language = self._language(parse_qs(urlsplit(self.path).query))
            self._send(405, self._say(READ_ONLY, language), "text/plain; charset=utf-8",
                       extra={"Allow": "GET, HEAD", "Content-Language": language})

        def _say(self, message: str, language: str) -> bytes:
            """A plain-text answer in the visitor's language (as the page is)."""
            return (tr[language].gettext(message) + "\n").encode("utf-8")

        do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = _refuse  # noqa: N815

        def _events(self, language: str) -> None:
            self.close_connection = True  # a stream: the connection ends with it
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream; charset=utf-8")
            self.send_header("Cache-Control", "no-store")
            self.send_header("Connection", "close")
            self.end_headers()
            version = -1
            try:
                while not table.closing.is_set():
                    now, doc = table.doc(language)
                    if now != version:
                        self.wfile.write(b"data: " + doc + b"\n\n")
                        version = now
                    else:
                        self.wfile.write(b": still here\n\n")
                    self.wfile.flush()
                    table.wait(version, HEARTBEAT)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the phone went away

    return Handler


class Server(ThreadingHTTPServer):
    daemon_threads = True  # an open event stream does not keep the process alive
    allow_reuse_address = True
    # socketserver's default backlog of 5 drops the connections of a room of phones arriving
    # at once, which then wait one to three seconds for the retry (tests/bench_serve.py)
    request_queue_size = 128


def start(db: str, game: int | None = None, *, host: str = "127.0.0.1", port: int = 8000,
          lang: str | None = None, show_cash: bool | None = None,
          poll: float = POLL) -> tuple[Server, Table]:
    """The server, bound and with the table read, not yet serving (call serve_forever)."""
    table = Table(db, game, show_cash, poll).start()
    try:
        server = Server((host, port), make_handler(table, lang, page_template()))
    except BaseException:
        table.close()
        raise
    return server, table


def lan_address() -> str:
    """This machine's address on the local network (no packet is sent: a UDP socket is only
    pointed at an outside address to learn which interface would be used)."""
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.255.255.255", 1))
            return s.getsockname()[0]
        except OSError:
            return "127.0.0.1"


def qr_text(url: str) -> str:
    """The URL as a QR code drawn with block characters, for a phone's camera."""
    import io

    import segno

    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True, border=2)
    return out.getvalue()


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; 0.0.0.0 shows the table to the phones on the "
                   "network (the URL and a QR code are printed).")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="TCP port (0: any free port).")
@click.option("--show-cash/--hide-cash", "show_cash", default=None,
              help="Show or hide every player's cash; default: hidden where the rule set "
                   "lets a player keep it to himself (000 FAQ 4), shown elsewhere.")
@pass_session
def serve(session, host, port, show_cash):
    """The live table as a read-only web page for a TV or the players' phones: the board with
    owners, houses and tokens, cash, deeds, open rent claims, the auction and the last
    commands; it follows each command within a second.  Ctrl-C stops it."""
    from ledger.base.errors import UsageError
    from ledger.base.text import Fact

    ctx = click.get_current_context()
    lang = i18n.from_argv(list(ctx.meta.get(ARGS, ()))) if ctx.meta.get(ARGS) else None
    _ = i18n._
    session.game()  # no database, no game: said now, before listening (exit 4 or 2)
    game = session.game_option  # None: follow the latest unfinished game, a new one too
    session.close()
    try:
        server, table = start(session.db, game, host=host, port=port, lang=lang,
                              show_cash=show_cash)
    except socket.gaierror as exc:  # the name does not resolve: the host is wrong, not the port
        raise UsageError("cannot listen on {host}: {reason}; --host takes this machine's name "
                         "or address (0.0.0.0: every network)", host=host,
                         reason=exc.strerror or str(exc)) from None
    except OSError as exc:
        raise UsageError("cannot listen on {host}:{port}: {reason}; choose another --port",
                         host=host, port=port, reason=Fact(exc.strerror or str(exc), "os")) from None
    bound = server.server_address[1]
    shown = lan_address() if host in ("0.0.0.0", "") else host
    url = f"http://{'[' + shown + ']' if ':' in shown else shown}:{bound}/"
    try:  # from here Ctrl-C is the way to stop, not an error
        click.echo(_("the table is on {url} (read-only; Ctrl-C stops it)").format(url=url))
        if host not in ("127.0.0.1", "localhost", "::1"):
            click.echo(_("for the phones: scan the code, or open {url}").format(url=url))
            click.echo(qr_text(url), nl=False)
        server.serve_forever(poll_interval=0.5)
    except KeyboardInterrupt:
        click.echo(_("stopped"))
    finally:
        server.server_close()
        table.close()
