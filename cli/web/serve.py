"""`banco serve`: the table's server, for a TV, the banker's tablet and the players' phones.

An ASGI app (cli/web/app.py, Starlette) run by uvicorn: the pages, the HTTP contract and the
roles (cli/web/permissions.py), tokens from `banco token` (ledger/store/tokens.py), on a SQLite
file or a PostgreSQL database (where every server on it hears every table's commands at once:
cli/web/hub.py).  Starlette
and uvicorn are imported only here, when the server starts: no other command pays for them.
Bound to 127.0.0.1 unless --host says otherwise.
"""

from __future__ import annotations

import contextlib
import logging
import socket
import sys

import click

from banco.cli.session import ARGS, pass_session
from banco.cli.words import i18n


def lan_address() -> str:
    """This machine's address on the local network (no packet is sent: a UDP socket is only
    pointed at an outside address to learn which interface would be used)."""
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


def bind(host: str, port: int) -> socket.socket:
    """The listening socket, bound before the server starts: a port in use is said now."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    infos = socket.getaddrinfo(host, port, family, socket.SOCK_STREAM)
    sock = socket.socket(infos[0][0], socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(infos[0][4])
        sock.listen(128)  # a room of phones arriving at once
    except BaseException:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def allowed_hosts(host: str, announced: str, more: tuple[str, ...] = ()) -> list[str]:
    """The names a request's Host may give (Starlette's TrustedHostMiddleware): this machine
    as --host and the printed URL name it, its loopback names, and `more` (--allow-host).  Any
    other is answered 400: a page of another site whose name an attacker re-points at this
    address (DNS rebinding) reaches the server under that site's name, and reads nothing."""
    names = {"localhost", "127.0.0.1", "::1", announced, *more}
    if host in ("0.0.0.0", "", "::"):
        # on every network: the phones may also open it by the machine's name (mDNS's .local)
        name = socket.gethostname()
        names |= {name, name + ".local"} if name else set()
    else:
        names.add(host)
    return sorted(f"[{n}]" if ":" in n else n.lower() for n in names)


class QuietDisconnects(logging.Filter):
    """uvicorn's "Exception in ASGI application" and its traceback, for a client that went
    away mid-request (starlette's ClientDisconnect, h11's LocalProtocolError on an answer to
    a closed connection), said as one line: a phone leaving the network is no server error."""

    GONE = ("ClientDisconnect", "LocalProtocolError")

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if exc is not None and type(exc).__name__ in self.GONE:
            record.msg, record.args = "a client went away mid-request (%s)", (type(exc).__name__,)
            record.exc_info, record.exc_text = None, None
        return True


def server(hub, sock: socket.socket, hosts: list[str]):
    """A uvicorn server for the hub's app on `sock` (call .run(sockets=[sock])), answering
    only requests whose Host is one of `hosts` (allowed_hosts)."""
    import uvicorn
    from starlette.middleware.trustedhost import TrustedHostMiddleware

    from banco.cli.web.app import make_app

    app = make_app(hub)
    app.add_middleware(TrustedHostMiddleware, allowed_hosts=hosts, www_redirect=False)
    config = uvicorn.Config(app, log_level="warning", access_log=False,
                            lifespan="on", timeout_keep_alive=120, timeout_graceful_shutdown=3,
                            server_header=False, date_header=False)
    errors = logging.getLogger("uvicorn.error")  # set up by the Config: filtered after it
    if not any(isinstance(f, QuietDisconnects) for f in errors.filters):
        errors.addFilter(QuietDisconnects())

    class Server(uvicorn.Server):
        # uvicorn asks should_exit on every tick and sets it on Ctrl-C and SIGTERM (start()'s
        # stop sets it too): the hub hears it, so the pages' event streams, which never end by
        # themselves, end within a tick instead of being cancelled with a traceback
        @property
        def should_exit(self) -> bool:
            return hub.stopping

        @should_exit.setter
        def should_exit(self, value: bool) -> None:
            hub.stopping = value

    return Server(config)


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; 0.0.0.0 serves the phones on the network (the URL "
                   "and a QR code are printed).")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="TCP port (0: any free port).")
@click.option("--show-cash/--hide-cash", "show_cash", default=None,
              help="Show or hide every player's cash on the TV; default: hidden where the "
                   "rule set lets players keep their cash private (000 FAQ 4), shown elsewhere.  A "
                   "player's phone always shows that player's own.")
@click.option("--allow-host", "more_hosts", multiple=True, metavar="NAME",
              help="Another name the phones reach this server by (a reverse proxy's, a name "
                   "of the local network's): a request under a name it neither listens on nor "
                   "prints is refused (400), against DNS rebinding.  Repeatable.")
@click.option("--banker-only", is_flag=True,
              help="Only the banker records the table's acts; a player's phone claims rent and "
                   "answers trades (by default players record their own acts).")
@click.option("--pair/--no-pair", default=True, show_default=True,
              help="Print a new banker's pairing link (and its QR code) for every game of the "
                   "file, revoked when serve stops (or, if it was killed, when serve next "
                   "starts).")
@pass_session
def serve(session, host, port, show_cash, more_hosts, banker_only, pair):
    """The table's server: the TV's screen (no token), the banker's console and each
    player's phone, who may do what checked here; it follows the terminal's commands within a
    second.  A missing file is created: the banker's page starts the games and pairs the
    phones.  Ctrl-C stops it."""
    from banco.cli.web.hub import POLL
    from banco.ledger.base.errors import UsageError
    from banco.ledger.base.text import Fact

    ctx = click.get_current_context()
    lang = i18n.from_argv(list(ctx.meta.get(ARGS, ()))) if ctx.meta.get(ARGS) else None
    _ = i18n._
    for name in more_hosts:  # a name as a Host header gives it, no pattern (no `*`)
        if not name or any(c in name for c in "*/ @#?") or name.strip("[]").count(":") == 1:
            raise UsageError("--allow-host {name!r} is not a host's name: give it as the "
                             "phones' address bar does, without port or path (e.g. "
                             "tavolo.local or 192.168.1.20)", name=name)
    made = create_file(session.db)  # the evening starts here: no `banco new` first
    if session.game_option is not None:
        session.game()  # no such game: said now, before listening (exit 2)
    else:
        session.book  # noqa: B018 -- a file that is not banco's: said now (exit 4)
    game = session.game_option  # None: follow the latest unfinished game, a new one too
    session.close()
    try:
        sock = bind(host, port)
    except socket.gaierror as exc:  # the name does not resolve: the host is wrong, not the port
        raise UsageError("cannot listen on {host}: {reason}; --host takes this machine's name "
                         "or address (0.0.0.0: every network)", host=host,
                         reason=exc.strerror or str(exc)) from None
    except OSError as exc:
        raise UsageError("cannot listen on {host}:{port}: {reason}; choose another --port",
                         host=host, port=port, reason=Fact(exc.strerror or str(exc), "os")) from None
    from banco.cli.web.app import Hub

    hub = Hub(session.db, game, lang=lang, show_cash=show_cash, poll=POLL)
    hub.banker_only = banker_only
    mine = None
    # The writer thread waits on SQLite (the GIL released) many times a line; at the default
    # 5 ms switch interval each wait ends behind the event loop's turn at the phones' streams,
    # and a line took tens of ms instead of a few.
    sys.setswitchinterval(0.0005)
    bound = sock.getsockname()[1]
    shown = lan_address() if host in ("0.0.0.0", "") else host
    url = f"http://{'[' + shown + ']' if ':' in shown else shown}:{bound}/"
    try:
        click.echo(_("the table is on {url} (`banco token` pairs the phones; Ctrl-C stops it)")
                   .format(url=url))
        if made:
            click.echo(_("created {path}: start the game from the banker's page").format(
                path=session.db))
        if host not in ("127.0.0.1", "localhost", "::1"):
            click.echo(_("for the TV: scan the code, or open {url}").format(url=url))
            click.echo(qr_text(url), nl=False)
        revoke_stale(session.db)  # a serve that died left its banker's token live
        if pair:
            mine, pairing = pair_banker(session.db, url)  # held before a Ctrl-C can come
            say_link(mine.prefix, pairing)
        with stop_on_sigterm():
            server(hub, sock, allowed_hosts(host, shown, more_hosts)).run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
        hub.close()
        if mine is not None:
            revoke_own(session.db, mine)
    click.echo(_("stopped"))


def create_file(db: str) -> bool:
    """A SQLite file that is not there yet, created empty (banco's tables, no game): the
    banker's page starts the games.  Whether it was made; a URL or a file there: False."""
    import os

    from banco.ledger.store.postgres_connection import is_postgres_url

    if is_postgres_url(db) or not db.strip() or os.path.exists(db):
        return False
    from banco.ledger.base.errors import DatabaseError
    from banco.ledger.store.connection import connect
    from banco.ledger.store.schema import create

    folder = os.path.dirname(os.path.abspath(db))
    if not os.path.isdir(folder):
        raise DatabaseError("cannot create {path}: the folder {folder} does not exist",
                            path=db, folder=folder)
    conn = connect(db, "rwc", 5.0)
    try:
        conn.execute("BEGIN IMMEDIATE")
        create(conn)
        conn.execute("COMMIT")
    finally:
        conn.close()
    return True


def pair_banker(db: str, url: str):
    """A new banker's token for every game of the file, recorded as this serve's
    (ledger/store/serve_tokens.py: revoked when it stops): (the record's entry, its link)."""
    from banco.cli.web.evening import pairing_url
    from banco.ledger.store import serve_tokens
    from banco.ledger.store.canonical import now_text
    from banco.ledger.store.open import open_tokens
    from banco.ledger.store.tokens import EVERY_GAME, digest

    keys = open_tokens(db)
    try:
        secret, row = keys.issue("banker", EVERY_GAME, now_text())
    finally:
        keys.close()
    return serve_tokens.claim(db, row.prefix, digest(secret)), pairing_url(url, "banker", secret)


def banker_link(db: str, url: str):
    """pair_banker, said: the record's entry (for those that pair outside `serve`'s loop)."""
    mine, pairing = pair_banker(db, url)
    say_link(mine.prefix, pairing)
    return mine


def say_link(prefix: str, pairing: str) -> None:
    """The banker's link and its QR code: the banker scans it with the device that will start
    the games (shown once)."""
    click.echo(i18n._("the banker's page (token {prefix}; shown once): scan the code, or open "
                      "{url}").format(prefix=prefix, url=pairing))
    click.echo(qr_text(pairing), nl=False)


def revoke_stale(db: str) -> None:
    """Revoke the banker's tokens of serves on this database that died without stopping
    (killed, the machine off): their links opened a server that is gone."""
    from banco.ledger.store import serve_tokens

    gone = serve_tokens.stale(db)
    if gone:
        _revoke(db, gone, i18n._("revoked {prefix}, the banker's token of a serve that did not "
                                 "stop (pid {pid})"))


def revoke_own(db: str, mine) -> None:
    """This serve's banker's token, revoked as it stops: its link dies with the server."""
    _revoke(db, [mine], i18n._("revoked {prefix}, this serve's banker's token"))


def _revoke(db: str, gone: list, said: str) -> None:
    from banco.ledger.base.errors import BancoError
    from banco.ledger.store import serve_tokens
    from banco.ledger.store.canonical import now_text
    from banco.ledger.store.open import open_tokens

    try:
        keys = open_tokens(db)
        try:
            for t in gone:
                keys.revoke(t.prefix, now_text(), t.digest)
                click.echo(said.format(prefix=t.prefix, pid=t.pid))
        finally:
            keys.close()
    except BancoError as exc:  # the database away: the record keeps them for the next serve
        click.echo(i18n.say_error(exc), err=True)
        return
    serve_tokens.forget(db, gone)


@contextlib.contextmanager
def stop_on_sigterm():
    """SIGTERM (`kill`, a service manager) stops the server as Ctrl-C does, its token revoked:
    uvicorn re-raises the signal once it has shut down, and its default would end the process
    before anything after the server ran."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(_sig, _frame):
        raise KeyboardInterrupt

    before = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


def start(db: str, game: int | None = None, *, host: str = "127.0.0.1", port: int = 0,
          lang: str | None = None, show_cash: bool | None = None, poll: float | None = None,
          banker_only: bool = False):
    """The server running in a thread of this process (tests, tests/bench_phones.py):
    (its base URL, its hub, a function that stops it)."""
    import threading
    import time

    from banco.cli.web.app import Hub
    from banco.cli.web.hub import POLL

    sock = bind(host, port)
    hub = Hub(db, game, lang=lang, show_cash=show_cash, poll=POLL if poll is None else poll)
    hub.banker_only = banker_only
    running = server(hub, sock, allowed_hosts(host, host))
    thread = threading.Thread(target=running.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not running.started and thread.is_alive():
        time.sleep(0.01)

    def stop() -> None:
        running.should_exit = True
        thread.join(10)
        sock.close()
        hub.close()

    return f"http://{host}:{sock.getsockname()[1]}", hub, stop
