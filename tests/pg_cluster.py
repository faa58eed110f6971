"""A throwaway PostgreSQL server for the tests of the PostgreSQL store.

`server()` starts one per test run (initdb into a temporary folder, a Unix socket there and no
TCP port, fsync off: it is thrown away) and stops it when the run ends; `database()` makes an
empty database on it, with banco's tables installed by the admin and banco's own role granted
what ledger/store/postgres_schema.py grants.

initdb and pg_ctl refuse to run as root: as root, they run as the unprivileged user banco-pg
(created when missing).  BANCO_TEST_PG=postgresql://... uses a server of your own instead (a
superuser's URL: the tests create and drop databases and a role on it).

Where no server can be had, the tests that need one are skipped and say why, except with
CI=true: there it is a failure (CI must run them).
"""

from __future__ import annotations

import atexit
import contextlib
import glob
import itertools
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass

import pytest

OS_USER = "banco-pg"
APP_ROLE = "banco"
APP_PASSWORD = "banco-test-password"
_counter = itertools.count(1)


@dataclass
class Server:
    folder: str  # the socket's folder, and the data's beneath it
    admin_url: str
    socket: str
    owner_pid: int
    ctl: tuple[str, ...] = ()  # pg_ctl -D DATA, as the server's user (stop, start: restart)
    options: str = ""

    def url(self, database: str, user: str = APP_ROLE, password: str | None = APP_PASSWORD
            ) -> str:
        secret = f":{password}" if password is not None else ""
        if self.socket:
            return f"postgresql://{user}{secret}@/{database}?host={self.socket}"
        from urllib.parse import urlsplit, urlunsplit  # a server of one's own (BANCO_TEST_PG)

        parts = urlsplit(self.admin_url)
        where = parts.hostname or "" if parts.port is None else f"{parts.hostname}:{parts.port}"
        return urlunsplit(parts._replace(netloc=f"{user}{secret}@{where}", path=f"/{database}"))


_server: Server | None = None
_failure: str | None = None


def pg_bin() -> str | None:
    """The folder of initdb and pg_ctl: PATH's, else the newest of Debian's."""
    found = shutil.which("initdb")
    if found:
        return os.path.dirname(found)
    folders = sorted(glob.glob("/usr/lib/postgresql/*/bin"),
                     key=lambda p: int(p.split("/")[-2]) if p.split("/")[-2].isdigit() else 0)
    return folders[-1] if folders else None


def _as_server_user() -> list[str]:
    if os.geteuid() != 0:
        return []
    try:
        import pwd

        pwd.getpwnam(OS_USER)
    except KeyError:
        subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin",
                        OS_USER], check=True, capture_output=True)
    return ["runuser", "-u", OS_USER, "--"]


def _run(cmd: list[str]) -> None:
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed: {(done.stderr or done.stdout).strip()}")


def _start() -> Server:
    own = os.environ.get("BANCO_TEST_PG")
    if own:
        return Server("", own, "", os.getpid())
    binaries = pg_bin()
    if binaries is None:
        raise RuntimeError("no initdb found (install Debian's postgresql, or set BANCO_TEST_PG)")
    folder = tempfile.mkdtemp(prefix="banco-pg-")
    data = os.path.join(folder, "data")
    prefix = _as_server_user()
    if prefix:
        shutil.chown(folder, OS_USER)
    os.chmod(folder, 0o755)
    _run([*prefix, f"{binaries}/initdb", "-D", data, "-U", "postgres", "--auth-local=trust",
          "--auth-host=reject", "-E", "UTF8", "--locale=C.UTF-8"])
    # the admin over the socket without a password; every other role with its password
    with open(os.path.join(data, "pg_hba.conf"), "w") as hba:
        hba.write("local all postgres trust\nlocal all all scram-sha-256\n")
    # fsync off: the tests' server is thrown away.  A benchmark (tests/bench_league.py) sets
    # BANCO_TEST_PG_DURABLE=1 to commit as a real server does, to the disk.
    durable = os.environ.get("BANCO_TEST_PG_DURABLE") == "1"
    options = (f"-c listen_addresses='' -c unix_socket_directories='{folder}' "
               + ("" if durable else "-c fsync=off -c full_page_writes=off "
                  "-c synchronous_commit=off ") + "-c max_connections=200")
    try:
        _run([*prefix, f"{binaries}/pg_ctl", "-D", data, "-l", os.path.join(folder, "log"),
              "-w", "-t", "60", "-o", options, "start"])
    except RuntimeError as exc:
        log = os.path.join(folder, "log")
        tail = open(log).read()[-800:] if os.path.exists(log) else ""
        raise RuntimeError(f"{exc}\n{tail}") from None
    server = Server(folder, f"postgresql://postgres@/postgres?host={folder}", folder, os.getpid(),
                    (*prefix, f"{binaries}/pg_ctl", "-D", data), options)

    def stop() -> None:
        if os.getpid() != server.owner_pid:  # a forked worker exiting: not its server
            return
        subprocess.run([*prefix, f"{binaries}/pg_ctl", "-D", data, "-m", "immediate", "stop"],
                       capture_output=True, timeout=60)
        shutil.rmtree(folder, ignore_errors=True)

    atexit.register(stop)
    return server


def server() -> Server:
    """The run's server, started by the first test that asks; skips (fails with CI=true) when
    there can be none."""
    global _server, _failure
    if _server is None and _failure is None:
        try:
            import psycopg  # noqa: F401  the optional extra: pip install '.[postgres]'
        except ImportError:
            _failure = "psycopg is not installed (pip install '.[test,postgres]')"
        else:
            try:
                _server = _start()
                _setup_role(_server)
            except (RuntimeError, OSError, subprocess.SubprocessError) as exc:
                _failure = f"no PostgreSQL server for the tests: {exc}"
    if _server is None:
        if os.environ.get("CI") == "true":
            pytest.fail(_failure or "no PostgreSQL server", pytrace=False)
        pytest.skip(_failure or "no PostgreSQL server")
    return _server


def _setup_role(s: Server) -> None:
    import psycopg
    from psycopg import sql

    with psycopg.connect(s.admin_url, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_roles WHERE rolname=%s", (APP_ROLE,)).fetchone():
            conn.execute(sql.SQL("CREATE ROLE {} LOGIN PASSWORD {}").format(
                sql.Identifier(APP_ROLE), sql.Literal(APP_PASSWORD)))


def database(install: bool = True) -> tuple[str, str]:
    """A new empty database: (banco's URL, the admin's URL).  `install`: with banco's tables,
    owned by the admin, banco's role granted its rights (else empty: the first write creates
    them, when the role may)."""
    import psycopg
    from psycopg import sql

    from banco.ledger.store import postgres_schema

    s = server()
    name = f"t{os.getpid()}_{next(_counter)}"
    with psycopg.connect(s.admin_url, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier(name)))
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    admin = _with_database(s.admin_url, name)
    with psycopg.connect(admin, autocommit=True) as conn:
        if install:
            with conn.transaction():
                postgres_schema.create(conn, "2026-11-29T10:00:00.000000Z")
                postgres_schema.grant(conn, APP_ROLE)
        else:  # banco's role may create its own tables here
            conn.execute(sql.SQL("GRANT CREATE ON DATABASE {} TO {}").format(
                sql.Identifier(name), sql.Identifier(APP_ROLE)))
    return s.url(name), admin


def clone(admin_url: str) -> tuple[str, str]:
    """A new database that is a copy of the one `admin_url` names (CREATE DATABASE ...
    TEMPLATE: the files copied, no command replayed): (banco's URL, the admin's URL).  A game
    played once into a database becomes the starting point of every test that tampers with
    it.  PostgreSQL copies only a database nobody is connected to: the template is left to
    this, its connections ended first (a closed psycopg pool may linger a moment)."""
    from urllib.parse import urlsplit

    import psycopg
    from psycopg import sql

    s = server()
    template = urlsplit(admin_url).path.lstrip("/")
    name = f"t{os.getpid()}_{next(_counter)}"
    with psycopg.connect(s.admin_url, autocommit=True) as conn:
        conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                     "WHERE datname=%s AND pid<>pg_backend_pid()", (template,))
        conn.execute(sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(
            sql.Identifier(name), sql.Identifier(template)))
    return s.url(name), _with_database(s.admin_url, name)


def _with_database(url: str, name: str) -> str:
    """`url` with its database replaced by `name`."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{name}"))


@contextlib.contextmanager
def stopped():
    """The run's server stopped, as an administrator's restart stops it (its connections
    dropped), while the block runs; started again after it, on the same socket.  Skips on a
    server of one's own (BANCO_TEST_PG): it is not this run's to stop."""
    s = server()
    if not s.ctl:
        pytest.skip("BANCO_TEST_PG names a server this run did not start: not stopped")
    _run([*s.ctl, "-m", "fast", "-w", "stop"])
    try:
        yield
    finally:
        _run([*s.ctl, "-l", os.path.join(s.folder, "log"), "-w", "-t", "60", "-o", s.options,
              "start"])
