"""`banco serve`'s ASGI app (Starlette): the pages, the HTTP contract, the roles.

README's "The table on phones" documents the contract; in short:
- GET  /, /banker, /player, /referee   the page (one page, drawn by the role its token has)
- GET  /static/app.js, /static/style.css   the page's script and style (from the package)
- GET  /api/table    the table as the caller's role may see it
- GET  /api/events   server-sent events: the table each time it changes (`id:` resumes)
- POST /api/commands {"line", "id", "expect"}: the line run as the shell runs it
- POST /api/offers/ID {"answer": "accept"|"decline"}: a player's answer to a trade
- the evening's set-up: games, pairing, joining by the TV's code (cli/web/evening.py)
Every line is read once into its typed command (cli/library.py's read); a role's permission is
decided on that command (cli/web/permissions.py), a player's line is his own act only
(cli/web/acts.py), and what runs is the command read.  A token travels in `Authorization: Bearer TOKEN` only; no token is the viewer.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from collections import deque
from importlib import resources

from starlette.applications import Starlette
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route

from banco.cli.library import Line
from banco.cli.web.answers import (
    BODY_LIMIT,
    LINE_LIMIT,
    BodyTooBig,
    at_phone,
    json_body,
    taken,
)
from banco.cli.web.bodies import checked
from banco.cli.web.evening import evening_routes
from banco.cli.web.hub import TRY_AGAIN, Table, log, still_revoked, tr
from banco.cli.web.offers import Offers
from banco.cli.web.permissions import Decision
from banco.cli.web.writers import Writers
from banco.cli.words import i18n
from banco.cli.words.i18n import N_
from banco.ledger.base.errors import DatabaseError
from banco.ledger.base.names import shown
from banco.ledger.store.postgres_connection import is_postgres_url
from banco.ledger.store.tokens import EVERY_GAME, Token

HEARTBEAT = 15.0  # seconds between SSE comments, so a phone that went away is noticed
REVOKED_EVERY = 1.0  # seconds between looks at an event stream's token: revoked, it is told
SLOW_AFTER = 3  # wrong tokens from one address within WINDOW before each further one waits
WINDOW = 1.0
# Only what the package ships: no inline script, no CDN, no frame, no form.
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
       "img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
STATIC = {"app.js": "text/javascript; charset=utf-8", "style.css": "text/css; charset=utf-8",
          "estate.js": "text/javascript; charset=utf-8", "fit.js": "text/javascript; charset=utf-8",
          "evening.js": "text/javascript; charset=utf-8", "tv.js": "text/javascript; charset=utf-8",
          "say.js": "text/javascript; charset=utf-8"}
PAGES = ("/", "/banker", "/player", "/referee")

BAD_TOKEN = N_("no such token, or it was revoked: ask the banker for a new link")
NOT_FOUND = N_("not found: this server shows / and answers /api/table, /api/events, "
               "/api/commands")
NOT_ALLOWED = N_("this address takes no {method}: the lines go to POST /api/commands")
TOO_BIG = N_("the request is larger than {limit} bytes: a table line is at most {chars} "
             "characters")
NOT_SHOWN = N_("the table is not shown yet, so a trade cannot be offered to the players' "
               "phones: nothing was recorded; try again in a moment")
TOO_LONG = N_("a line is at most {chars} characters; this one has {length}: one command a line")
BAD_BODY = N_("the request needs a JSON object with a `line` (text), and may give an `id` "
              "(text) and an `expect` (the seq of the last event seen: a whole number, 0 or "
              "more)")


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


def warm() -> None:
    """Import what a banker's line runs through (the parser, decide, the words), so that the
    first line of the evening costs what the others do, not a second of imports."""
    from banco.cli.lines import answer, parse  # noqa: F401
    from banco.cli.web import recording  # noqa: F401
    from banco.cli.words import facts  # noqa: F401
    from banco.ledger.rules import decide  # noqa: F401




class Hub:
    """What one server holds: its tables (one per game asked for), the keyring, the answers
    already given (by id), the trades waiting for a player, and the wrong-token counts."""

    banker_only = False  # `serve --banker-only`: a player's phone claims and answers trades

    def __init__(self, db: str, game: int | None, *, lang: str | None = None,
                 show_cash: bool | None = None, poll: float | None = 0.2):
        self.db, self.game, self.lang, self.show_cash, self.poll = db, game, lang, show_cash, poll
        from banco.ledger.store.open import open_tokens

        self.keyring = open_tokens(db, serving=True)  # read on every request: revoked at once
        for said in self.keyring.unchecked():  # no key beside the history
            log(i18n.say(said))
        self.tables: dict[int | None, Table] = {}
        self.tables_lock = threading.Lock()
        self.answers: dict[tuple, tuple[int, dict]] = {}
        self.offers = Offers(self)
        self.failures: dict[str, deque] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self.signals: dict[int | None, asyncio.Event] = {}
        # serve is stopping (Ctrl-C, SIGTERM): the event streams end themselves within a tick,
        # before uvicorn's graceful wait runs out and cancels them with a traceback
        self.stopping = False
        # a writer thread a game on PostgreSQL: one table's lines one at a time, in order,
        # another table's beside them; one for a SQLite file's games (cli/web/writers.py)
        self.writers = Writers(warm, many=is_postgres_url(db))
        self.writer = self.writers.of(None)  # the lines of no game yet: a new game
        self.listener = None
        if is_postgres_url(db):
            # PostgreSQL tells of every command committed, whoever made it: the watchers wait
            # for that (poll None) instead of looking at the log; listening before any table
            # is read, so no command falls between a table's first look and its first nudge
            from banco.ledger.store.postgres_listen import Listener

            self.poll = None
            self.listener = Listener(db, self.heard, self.heard_all, warn=log).start()

    def heard(self, game: int, seq: int) -> None:
        """A command committed to `game` (the listener's thread): wake its table, and the
        table that follows the latest game (it may be this one, or a new one)."""
        for key, table in list(self.tables.items()):
            if key is None or key == game:
                table.nudge()

    def heard_all(self) -> None:
        """The listener was deaf for a while: every table looks again."""
        for table in list(self.tables.values()):
            table.nudge()

    def table(self, game: int | None) -> Table:
        table = self.tables.get(game)
        if table is None:
            with self.tables_lock:  # the loop and the writer threads: one watcher a game
                table = self.tables.get(game)
                if table is None:
                    table = Table(self.db, game, self.show_cash, self.poll,
                                  on_change=lambda: self.changed(game))
                    self.tables[game] = table.start()
        return table

    def changed(self, game: int | None) -> None:
        """Wake the event streams of a game (from any thread)."""
        if self.loop is None:
            return

        def fire():
            event = self.signals.pop(game, None)
            if event is not None:
                event.set()
        self.loop.call_soon_threadsafe(fire)

    def signal(self, game: int | None) -> asyncio.Event:
        if game not in self.signals:
            self.signals[game] = asyncio.Event()
        return self.signals[game]

    def close(self) -> None:
        if self.listener is not None:
            self.listener.close()
        for table in self.tables.values():
            table.close()
        self.writers.close()
        self.keyring.close()

    async def write(self, game: int | None, *args) -> tuple[int, dict]:
        """run_line on the game's writer thread."""
        return await asyncio.get_running_loop().run_in_executor(self.writers.of(game),
                                                                self.run_line, game, *args)

    # --- who is asking -------------------------------------------------------------------

    async def caller(self, request: Request) -> Token | Response | None:
        """The request's token (None: no token, the viewer), or the 401 to answer."""
        header = request.headers.get("authorization")
        if header is None:
            return None
        scheme, _, secret = header.partition(" ")
        token = self.keyring.find(secret.strip()) if scheme.lower() == "bearer" else None
        said = self.keyring.shorter()  # entries deleted since this server read them
        if said is not None:
            log(i18n.say(said))
        if token is not None:
            return token
        address = request.client.host if request.client else "?"
        now = time.monotonic()
        seen = self.failures.setdefault(address, deque(maxlen=64))
        while seen and now - seen[0] > WINDOW:
            seen.popleft()
        seen.append(now)
        if len(seen) > SLOW_AFTER:  # a guesser waits; a typo does not
            log(f"{address}: {len(seen)} wrong tokens within a second, slowed")
            await asyncio.sleep(min(2.0, 0.25 * (len(seen) - SLOW_AFTER)))
        return self.refuse(request, 401, BAD_TOKEN)

    def language(self, request: Request) -> str:
        asked = request.query_params.get("lang")
        if asked in i18n.LANGUAGES:
            return asked
        return choose_language(request.headers.get("accept-language"), self.lang)

    async def body(self, request: Request):
        """The request's JSON (None when it is not JSON), or the 413 for a body too big, or
        an empty 400 for a client gone before its body ended (a phone out of the network's
        reach): nothing was run, nobody reads the answer, and the server's terminal shows no
        traceback for it ("Exception in ASGI application" did)."""
        try:
            return await json_body(request)
        except BodyTooBig:
            return self.refuse(request, 413, TOO_BIG, limit=BODY_LIMIT, chars=LINE_LIMIT)
        except ClientDisconnect:
            return Response(status_code=400)

    def refuse(self, request: Request, status: int, message: str, **params) -> JSONResponse:
        with at_phone(self.language(request)) as catalog:  # a phone's words: no backticks
            text = catalog.gettext(message).format(**params)
        return JSONResponse({"status": status, "error": text}, status,
                            headers=TRY_AGAIN if status == 503 else None)

    @staticmethod
    def view(token: Token | None) -> str:
        if token is None or token.role == "viewer":
            return "public"
        return f"player:{token.player}" if token.role == "player" else "full"

    def game_of(self, token: Token | None) -> int | None:
        # a banker's token for every game (EVERY_GAME, 0) follows the game the TV follows
        return self.game if token is None or token.game == EVERY_GAME else token.game

    # --- the table -----------------------------------------------------------------------

    def document(self, token: Token | None, lang: str, *, with_state: bool = True
                 ) -> tuple[str, dict]:
        """The caller's table: its event id and document.  The event stream leaves out
        `state` (`state --json`, as GET /api/table gives it): the pages draw from the screen's
        fields, and each change is sent to every phone, so half the bytes are worth saving."""
        game = self.game_of(token)
        table = self.table(game)
        _, doc = table.doc(lang, self.view(token))
        offers = self.offers.seen_by(token, doc.get("game"), lang)
        who = {"role": token.role if token else "viewer", "player": token.player if token
               else None, "acts": not self.banker_only}  # a player records his own acts
        event_id = f"{doc.get('game')}:{doc.get('seq')}:{self.offers.revision}"
        doc = {**doc, **who, "offers": offers}
        if with_state:
            doc["state"] = self.state_of(table, token)
        if table.state is None and table.error is not None:
            # no table to show: why, as the terminal says it (a log that cannot be folded),
            # not a bare "state": null (issue 32)
            doc["error"] = table.error
        return event_id, doc

    def state_of(self, table: Table, token: Token | None) -> dict | None:
        """`state --json`, with the cash the caller may not see left out (null)."""
        from banco.cli.words.table_text import state_document

        state = table.state
        if state is None:
            return None
        doc = state_document(state)
        _, screen = table.doc("en", self.view(token))
        visible = {p["name"] for p in screen.get("players", []) if p["cash"] is not None}
        for p in doc.get("players", []):
            if p["name"] not in visible:
                p["cash"] = None
        return doc

    # --- recording -------------------------------------------------------------------------

    def library(self):
        """The writer thread's Library (cli/library.py), opened on that thread: every line
        of its game is executed through it, one at a time, and its SQLite connection stays in
        the thread that opened it.  On PostgreSQL, its connection new when the old one was
        dropped (a restart, or ended while idle): DatabaseError while none can be had."""
        def opened():
            from banco.cli.library import Library

            # the book's warnings (a format written by an older banco, a broken chain) go to
            # the server's terminal, in its language
            return Library(self.db, warn=lambda message: log(i18n.say(message)))

        library = self.writers.library(opened)
        revive = getattr(library.book.store, "revive", None)
        if revive is not None:
            revive()
        return library

    def close_library(self) -> None:
        """Close this writer thread's library, on the thread that opened it."""
        self.writers.close_library()

    def run_line(self, game: int, line, lang: str, command_id: str | None,
                 expect: int | None, who: tuple | None = None, hold: bool = False,
                 langs: tuple = ()):
        """A phone's line read, decided and recorded, in the writer thread
        (cli/web/recording.py)."""
        from banco.cli.web.recording import run_line

        return run_line(self, game, line, lang, command_id, expect, who, hold, langs)


def make_app(hub: Hub) -> Starlette:
    template = resources.files("banco.cli.web").joinpath("static/page.html").read_text("utf-8")

    async def page(request: Request) -> Response:
        lang = hub.language(request)
        _, doc = hub.document(None, lang)
        html = page_html(template, lang, doc, tr(lang))
        return Response(html, media_type="text/html; charset=utf-8", headers={
            "Content-Security-Policy": CSP, "Content-Language": lang,
            "Vary": "Accept-Language", **NO_STORE})

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in STATIC:
            return not_found(request)
        body = resources.files("banco.cli.web").joinpath("static/" + name).read_bytes()
        return Response(body, media_type=STATIC[name], headers=NO_STORE)

    async def me(request: Request) -> Response:
        token = await hub.caller(request)
        if isinstance(token, Response):
            return token
        if token is None:
            return JSONResponse({"role": "viewer", "player": None, "game": hub.game})
        said = {"role": token.role, "player": token.player, "game": token.game}
        if token.role in ("banker", "referee"):  # a server without the tokens' key says so
            from banco.ledger.base.text import render

            with at_phone(hub.language(request)) as catalog:  # a line in quotes, no backticks
                said["notices"] = [render(t, catalog)
                                   for t in getattr(hub.keyring, "unchecked", list)()]
        return JSONResponse(said)

    async def table(request: Request) -> Response:
        token = await hub.caller(request)
        if isinstance(token, Response):
            return token
        event_id, doc = hub.document(token, hub.language(request))
        return JSONResponse(doc, headers={"ETag": f'"{event_id}"', **NO_STORE})

    async def events(request: Request) -> Response:
        token = await hub.caller(request)
        if isinstance(token, Response):
            return token
        if request.method == "HEAD":  # the stream's headers, no stream: a HEAD must end
            return Response(media_type="text/event-stream; charset=utf-8", headers=NO_STORE)
        lang = hub.language(request)
        last = request.headers.get("last-event-id")
        game = hub.game_of(token)
        secret = request.headers.get("authorization", "").partition(" ")[2].strip()

        async def stream():
            sent = last
            while True:
                signal = hub.signal(game)  # taken before reading: no change slips between
                event_id, doc = hub.document(token, lang, with_state=False)
                if event_id != sent:
                    yield (f"id: {event_id}\ndata: "
                           + json.dumps(doc, ensure_ascii=False) + "\n\n").encode("utf-8")
                    sent = event_id
                waited = 0.0
                while waited < HEARTBEAT and not signal.is_set():
                    # a revoked token's page is told at once, not when it next sends a line
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(signal.wait(), REVOKED_EVERY)
                    waited += REVOKED_EVERY
                    if hub.stopping:
                        return
                    if token is not None and still_revoked(hub.keyring, secret):
                        yield b"event: revoked\ndata: {}\n\n"
                        return
                if not signal.is_set():
                    yield b": still here\n\n"
                if await request.is_disconnected():
                    return

        return StreamingResponse(stream(), media_type="text/event-stream; charset=utf-8",
                                 headers={**NO_STORE, "X-Accel-Buffering": "no"})

    async def commands(request: Request) -> Response:
        token = await hub.caller(request)
        if isinstance(token, Response):
            return token
        body = await checked(hub, request, "command")
        if isinstance(body, Response):
            return body
        if not (isinstance(body, dict) and isinstance(body.get("line"), str)
                and isinstance(body.get("id", ""), str)
                and (body.get("expect") is None
                     or type(body.get("expect")) is int and body["expect"] >= 0)):
            return hub.refuse(request, 400, BAD_BODY)
        lang = hub.language(request)
        line, key, expect = body["line"], body.get("id") or None, body.get("expect")
        if len(line) > LINE_LIMIT:
            return hub.refuse(request, 400, TOO_LONG, chars=LINE_LIMIT, length=len(line))
        role = token.role if token else "viewer"
        game = hub.game_of(token)
        remembered = (game, token.prefix if token else None, key)
        if key is not None and remembered in hub.answers:
            status, said, first = hub.answers[remembered]
            if first == line:  # a true retry: the same answer, nothing applied twice
                return JSONResponse({**said, "replayed": True}, status)
            if status == 202 or said.get("events"):  # the id is taken by what it recorded
                return JSONResponse(taken(said, key, first, hub.language(request)), 400)
            del hub.answers[remembered]  # it recorded nothing: the id is free again
        table_now = hub.table(game)
        if game is None:
            game = table_now.state.game_id if table_now.state is not None else None
        command_id = None if key is None else f"web-{token.prefix if token else 'x'}-{key}"
        who = (role, token.player if token else None)
        done = await hub.write(game, line, lang, command_id, expect, who, token is not None)
        if isinstance(done, Line):  # a trade: held for the paired sides' consent, as read
            if table_now.state is None:
                table_now.settle(0)  # its first look: the offer shows the table's own names
            if table_now.state is None:
                # not held and not run: without the table shown no paired side could be
                # asked (a trade ran at once, unasked, while the watcher had not looked yet)
                return hub.refuse(request, 503, NOT_SHOWN)
            held = hub.offers.hold(token, game, done, command_id, expect, table_now)
            if held is not None:
                status, said = 202, {"code": None, "offer": held}
                if key is not None:
                    hub.answers[remembered] = (status, said, line)
                return JSONResponse(said, status)
            done = await hub.write(game, done, lang, command_id, expect, who)
        if isinstance(done, Decision):  # the role may not: nothing run
            if done.status == 403:
                log(f"403 {role}{f' {token.player}' if token and token.player else ''} "
                    f"({request.client.host if request.client else '?'}): {shown(line, 61)!r}"
                    f": {tr('en').gettext(done.why).format(**done.params)}")
            return hub.refuse(request, done.status, done.why, **done.params)
        status, said = done
        if status == 403:
            log(f"403 {role} {token.player or ''}: {shown(line, 61)!r}: {said.get('refused')}")
        if command_id is not None and command_id in said["errors"]:
            # the book names the id it keeps (web-PREFIX-KEY); the caller knows its own
            said["errors"] = said["errors"].replace(command_id, key)
        if key is not None and status not in (409, 503):  # worth retrying: not kept
            hub.answers[remembered] = (status, said, line)
        return JSONResponse(said, status, headers=TRY_AGAIN if status == 503 else None)

    async def offer(request: Request) -> Response:
        token = await hub.caller(request)
        if isinstance(token, Response):
            return token
        body = await checked(hub, request, "offer")
        if isinstance(body, Response):
            return body
        answer_word = body.get("answer") if isinstance(body, dict) else None
        if answer_word not in ("accept", "decline"):
            from banco.cli.web.offers import BAD_ANSWER

            return hub.refuse(request, 400, BAD_ANSWER)
        return await hub.offers.answer(request, token, request.path_params["offer"],
                                       answer_word)

    def not_found(request: Request) -> Response:
        lang = hub.language(request)
        return PlainTextResponse(tr(lang).gettext(NOT_FOUND) + "\n", 404,
                                 headers={"Content-Language": lang})

    async def missing(request: Request, exc) -> Response:
        if getattr(exc, "status_code", 404) == 405:
            lang = hub.language(request)
            said = tr(lang).gettext(NOT_ALLOWED).format(method=request.method)
            return PlainTextResponse(said + "\n", 405, headers={"Content-Language": lang})
        return not_found(request)

    async def away(request: Request, exc: DatabaseError) -> Response:
        """The database away (PostgreSQL restarted): 503 and when to ask again, not a 500."""
        with at_phone(hub.language(request)) as catalog:  # a phone's words: no backticks
            said = exc.render(catalog)
        return JSONResponse({"status": 503, "error": said}, 503, headers=TRY_AGAIN)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        hub.loop = asyncio.get_running_loop()
        yield

    routes = [Route(p, page, methods=["GET"]) for p in PAGES] + [
        Route("/static/{name}", static, methods=["GET"]),
        Route("/api/me", me, methods=["GET"]),
        Route("/api/table", table, methods=["GET"]),
        Route("/table.json", table, methods=["GET"]),  # the read-only screen's old address
        Route("/api/events", events, methods=["GET"]),
        Route("/events", events, methods=["GET"]),
        Route("/api/commands", commands, methods=["POST"]),
        Route("/api/offers/{offer}", offer, methods=["POST"]),
        *evening_routes(hub, page),  # the set-up from the banker's page (cli/web/evening.py)
    ]
    return Starlette(routes=routes, lifespan=lifespan,
                     exception_handlers={404: missing, 405: missing, DatabaseError: away})


NO_STORE = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff",
            "Referrer-Policy": "no-referrer"}


def page_html(template: str, lang: str, doc: dict, catalog) -> str:
    """The page with its words and the table now (drawn at once, before the first event)."""
    from banco.cli.web.words import words

    def script_json(data) -> str:  # safe inside <script>: no `</script>` can close it
        return json.dumps(data, ensure_ascii=False).replace("<", "\\u003c")

    title = catalog.gettext("banco: the table")
    return (template.replace("__LANG__", lang)
            .replace("__TITLE__", title.replace("&", "&amp;").replace("<", "&lt;"))
            .replace("__WORDS__", script_json(words(catalog)))
            .replace("__TABLE__", script_json(doc)))
