"""Connecting to PostgreSQL and saying what went wrong in one sentence (a DatabaseError, exit
4), as ledger/store/connection.py does for a SQLite file: a missing server, a wrong password,
a missing database or role, a lock waited for too long, a right banco's role does not have.
The URL is never shown with its password."""

from __future__ import annotations

import functools

from banco.ledger.base.errors import DatabaseError
from banco.ledger.base.text import msg

SCHEMES = ("postgresql://", "postgres://")


def is_postgres_url(db: str) -> bool:
    """Whether `--db` names a PostgreSQL database rather than a SQLite file."""
    return db.startswith(SCHEMES)


def shown(db: str) -> str:
    """`--db` as banco prints it, in every message, listing and log: a file's path as given,
    a URL with its password replaced by *** (in the user part and in a `password=` of the
    query, where libpq also takes one)."""
    if not is_postgres_url(db):
        return db
    from urllib.parse import urlsplit  # here: a SQLite command never pays for it

    try:
        parts = urlsplit(db)
    except ValueError:
        return "postgresql://..."
    netloc, query = parts.netloc, parts.query
    if parts.password is not None:
        netloc = f"{parts.username or ''}:***@{netloc.rpartition('@')[2]}"
    if query:
        query = "&".join(f"{p.partition('=')[0]}=***"
                         if p.partition("=")[0].lower() == "password" else p
                         for p in query.split("&"))
    # put together by hand: urlunsplit drops the empty host of postgresql:///db?host=/run/pg
    return (f"{parts.scheme}://{netloc}{parts.path}" + (f"?{query}" if query else "")
            + (f"#{parts.fragment}" if parts.fragment else ""))


def describe(url: str) -> tuple[str, str, str]:
    """(server, database, user) named by the URL, for the messages (libpq's defaults when the
    URL leaves them out are not known here: said as the URL says them)."""
    from urllib.parse import unquote, urlsplit

    parts = urlsplit(url)
    query = dict(p.partition("=")[::2] for p in parts.query.split("&") if p)
    host = unquote(query.get("host", "")) or parts.hostname or "localhost"
    port = query.get("port") or (str(parts.port) if parts.port else "")
    server = f"{host}:{port}" if port else host
    database = unquote(parts.path.lstrip("/")) or unquote(query.get("dbname", "")) or "?"
    user = unquote(parts.username or query.get("user", "")) or "?"
    return server, database, user


def connect(url: str, wait: float):
    """An autocommit connection (the store opens its transactions itself) whose lock waits
    end after `wait` seconds; every failure to connect is a DatabaseError of one line."""
    import psycopg

    try:
        conn = psycopg.connect(url, autocommit=True, connect_timeout=max(2, int(wait) + 1),
                               application_name="banco")
    except psycopg.Error as exc:
        raise connect_error(exc, url) from None
    conn.execute(f"SET lock_timeout = {int(wait * 1000)}")
    return conn


def dropped(conn) -> bool:
    """Whether an idle connection is gone: closed, broken by a failed use, or ended by
    PostgreSQL while nothing was asked (pg_terminate_backend, idle_session_timeout, a
    restart), which psycopg learns only at its next use.  The server's goodbye (its FATAL
    message, then the socket's end) waits on the socket, so it is looked for there, without a
    round trip: anything waiting on an idle connection that LISTENs to nothing is taken for
    that (at worst a notice, and a new connection made for nothing).  For a connection no one
    else is using at the moment."""
    import select

    if conn is None or conn.closed or conn.broken:
        return True
    try:
        waiting, _, _ = select.select([conn.fileno()], [], [], 0)
    except (OSError, ValueError):
        return True
    return bool(waiting)


def connect_error(exc: Exception, url: str) -> DatabaseError:
    cause = first_line(exc)
    server, database, user = describe(url)
    low = cause.lower()
    if "password authentication failed" in low or "no password supplied" in low:
        return DatabaseError("PostgreSQL at {server} refused user {user}: wrong or missing "
                             "password (check the password in --db or BANCO_DB)",
                             server=server, user=user)
    if "does not exist" in low and "database" in low:
        return DatabaseError("there is no database {database} on the PostgreSQL server at "
                             "{server}: create it (createdb {database}) or correct --db",
                             database=database, server=server)
    if "does not exist" in low and "role" in low:
        return DatabaseError("the PostgreSQL server at {server} has no user {user}: correct "
                             "--db, or ask its administrator", server=server, user=user)
    if any(w in low for w in ("no such file", "connection refused", "could not translate",
                              "timeout expired", "is the server running", "could not connect",
                              "network is unreachable", "no route to host")):
        return DatabaseError("no PostgreSQL server answers at {server} ({cause}): is it "
                             "running, and is --db right?", server=server, cause=cause)
    return DatabaseError("cannot connect to PostgreSQL at {server}: {cause}", server=server,
                         cause=cause)


def first_line(exc: Exception) -> str:
    """libpq's message without its hints and the socket's long path repeated."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return text.removeprefix("connection failed: ")


def explain(exc: Exception, url: str, wait: float, writing: bool) -> DatabaseError:
    """A psycopg error met while using the database, as one sentence."""
    import psycopg
    from psycopg import errors

    where = shown(url)
    unrecorded = msg("; nothing was recorded") if writing else ""
    cause = first_line(exc)
    if isinstance(exc, (errors.LockNotAvailable, errors.QueryCanceled)):
        if writing:
            return DatabaseError("the database {path} is locked by another writer (another "
                                 "banco, or a tool such as sqlite3); waited {wait} s; nothing "
                                 "was recorded, retry",
                                 path=where, wait=format(wait, "g"))
        return DatabaseError("the database {path} is locked by another program; waited "
                             "{wait} s; retry", path=where, wait=format(wait, "g"))
    if isinstance(exc, errors.InsufficientPrivilege):
        return DatabaseError("{path}: PostgreSQL refused ({cause}){unrecorded}: banco's role "
                             "may read and append the log, nothing more", path=where,
                             cause=cause, unrecorded=unrecorded)
    if isinstance(exc, psycopg.OperationalError):
        return DatabaseError("lost the PostgreSQL server of {path} ({cause}){unrecorded}",
                             path=where, cause=cause, unrecorded=unrecorded)
    return DatabaseError("cannot use the database {path}: {cause}{unrecorded}",
                         path=where, cause=cause, unrecorded=unrecorded)


def guarded(writing: bool):
    """Turn any psycopg error of a store method into a DatabaseError (the store's `explain`)."""

    def wrap(method):
        @functools.wraps(method)
        def guard(self, *args, **kwargs):
            import psycopg

            try:
                return method(self, *args, **kwargs)
            except psycopg.Error as exc:
                raise self.explain(exc, writing) from None

        return guard

    return wrap
