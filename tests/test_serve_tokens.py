"""`banco serve`'s own banker's token does not outlive it (ledger/store/serve_tokens.py):
revoked when serve stops (Ctrl-C, SIGTERM), and one left by a serve that was killed revoked by
the next serve on the same database; `token --list` says which token is a serve's.  Every
start issued another banker's token and none was revoked: a server restarted often collected
live banker's tokens.  On a SQLite file and on PostgreSQL (tests/pg_cluster.py)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import urllib.request

import pg_cluster
import pytest

PATIENCE = 20  # seconds: a guard against a hang, not a limit


def banco(db: str, *words: str, env: dict) -> str:
    done = subprocess.run([sys.executable, "-m", "banco.cli.main", "--db", db, *words],
                          capture_output=True, text=True, env=env, timeout=PATIENCE)
    assert done.returncode == 0, (words, done.stdout, done.stderr)
    return done.stdout


class Serve:
    """`banco serve` as a process, up to its banker's link: its token's label in .prefix."""

    def __init__(self, db: str, env: dict):
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "banco.cli.main", "--db", db, "serve", "--port", "0"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={**env, "PYTHONUNBUFFERED": "1"})
        self.said = []
        while True:
            line = self.proc.stdout.readline()
            assert line, (self.said, self.proc.stderr.read())
            self.said.append(line)
            found = re.match(r"the banker's page \(token (\S+); shown once\)", line)
            if found:
                self.prefix = found[1]
                break
        # serving (not only listening): a request is answered once the server runs
        base = self.base = re.match(r"the table is on (http://\S+/)", self.said[0])[1]
        with urllib.request.urlopen(base + "table.json", timeout=PATIENCE) as answer:
            assert answer.status == 200

    def stop(self, sig: int) -> str:
        """Send `sig`; what it printed after its link (its QR code left out)."""
        self.proc.send_signal(sig)
        try:
            out, err = self.proc.communicate(timeout=PATIENCE)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.communicate()
        self.code, self.err = self.proc.returncode, err
        return "".join(line + "\n" for line in out.splitlines() if not set(line) <= set("█▀▄ "))


def listed(db: str, env: dict) -> dict:
    return {t["prefix"]: t for t in json.loads(banco(db, "token", "--list", "--json", env=env))}


def restarts(db: str, env: dict) -> None:
    first = Serve(db, env)
    mine = listed(db, env)[first.prefix]
    assert mine["revoked_at"] is None and mine["serve"]["pid"] == first.proc.pid
    assert mine["serve"]["running"]
    assert f"{first.prefix}  banker  " in banco(db, "token", "--list", env=env)
    assert f"banco serve's (pid {first.proc.pid})" in banco(db, "token", "--list", env=env)
    first.stop(signal.SIGKILL)  # died: nothing of its own could run
    killed = listed(db, env)[first.prefix]
    assert killed["revoked_at"] is None and not killed["serve"]["running"]
    second = Serve(db, env)  # revokes the dead serve's token as it starts
    assert (f"revoked {first.prefix}, the banker's token of a serve that did not stop "
            f"(pid {first.proc.pid})\n") in second.said
    tokens = listed(db, env)
    assert tokens[first.prefix]["revoked_at"] and tokens[first.prefix]["serve"] is None
    assert tokens[second.prefix]["revoked_at"] is None
    after = second.stop(signal.SIGTERM)  # a service manager's stop: as Ctrl-C
    assert second.code == 0
    assert after.endswith(f"revoked {second.prefix}, this serve's banker's token\nstopped\n")
    assert all(t["revoked_at"] for t in listed(db, env).values())


def test_a_serve_s_banker_token_lives_as_long_as_the_serve_on_a_file(tmp_path):
    db = str(tmp_path / "sera.db")
    env = {**os.environ, "BANCO_LANG": "en"}
    restarts(db, env)
    third = Serve(db, env)
    # the TV's event stream open, as at the end of every evening: it ends as serve stops, not
    # cancelled by uvicorn's graceful wait with a traceback in the banker's terminal
    tv = urllib.request.urlopen(third.base + "api/events", timeout=PATIENCE)
    assert tv.readline().startswith(b"id: ")
    assert third.stop(signal.SIGINT).endswith("this serve's banker's token\nstopped\n")
    assert "Traceback" not in third.err and "Error" not in third.err, third.err
    tv.close()
    assert third.code == 0 and all(t["revoked_at"] for t in listed(db, env).values())
    # a token the banker issued himself is no serve's: left alone
    banco(db, "token", "banker", env=env)
    fourth = Serve(db, env)
    fourth.stop(signal.SIGKILL)
    Serve(db, env).stop(signal.SIGINT)
    live = [t for t in listed(db, env).values() if not t["revoked_at"]]
    assert len(live) == 1 and live[0]["serve"] is None


@pytest.mark.filterwarnings("ignore")
def test_a_serve_s_banker_token_lives_as_long_as_the_serve_on_postgresql(tmp_path):
    url, _ = pg_cluster.database()
    env = {**os.environ, "BANCO_LANG": "en", "XDG_CONFIG_HOME": str(tmp_path)}
    banco(url, "new", "Anna", "Bruno", env=env)
    restarts(url, env)


def test_an_export_over_serve_s_record_is_refused(tmp_path):
    """The record is part of the database: an export written over it would leave a killed
    serve's token live for good."""
    from click.testing import CliRunner

    from banco.cli.main import cli

    db = str(tmp_path / "t.db")
    CliRunner().invoke(cli, ["--db", db, "new", "Anna", "Bruno"])
    said = CliRunner().invoke(cli, ["--db", db, "--lang", "en", "export", "-o",
                                    db + ".serve-tokens"])
    assert said.exit_code == 2 and "is part of the open database" in said.output, said.output
