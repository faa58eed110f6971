"""Recorded games for the referee's tests: a fixture transcript run into a fresh database."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from freezegun import freeze_time

from banco.cli.main import cli

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def record(db: str, name: str, at: str = "2026-11-29 21:00:00") -> str:
    """Run fixtures/NAME.banco into `db` with the clock at `at`; returns db."""
    with freeze_time(at):
        result = CliRunner().invoke(cli, ["--db", db, "run", "-q", str(FIXTURES / f"{name}.banco")])
    assert result.exit_code == 0, result.output
    return db


def lines(db: str, *commands: str, at: str = "2026-11-29 21:00:00") -> None:
    """Record banker's lines, one command each, all at the time `at`."""
    runner = CliRunner()
    with freeze_time(at):
        for line in commands:
            import shlex

            result = runner.invoke(cli, ["--db", db, *shlex.split(line)])
            assert result.exit_code in (0, 1), (line, result.output)


def recorded_back(db: str, line: str, at: str, recorded: str = "2026-11-29 21:10:00") -> None:
    """Record `line` at `recorded`, then write its rows' time back to `at`, the chain computed
    again: a game whose times go back, as a banco before 2026-12-03 recorded a clock set back
    (banco now records such a command at the game's last time; ledger/store/canonical.py's
    not_before)."""
    import sqlite3

    from forge import rechain_stored

    lines(db, line, at=recorded)
    conn = sqlite3.connect(db)
    guard = conn.execute("SELECT sql FROM sqlite_master WHERE name='events_no_update'"
                         ).fetchone()[0]
    conn.execute("DROP TRIGGER events_no_update")
    cid = conn.execute("SELECT command_id FROM events WHERE game_id=1 ORDER BY seq DESC "
                       "LIMIT 1").fetchone()[0]
    first = conn.execute("SELECT MIN(seq) FROM events WHERE game_id=1 AND command_id=?",
                         (cid,)).fetchone()[0]
    conn.execute("UPDATE events SET recorded_at=? WHERE game_id=1 AND command_id=?",
                 (at.replace(" ", "T") + ".000000Z", cid))
    conn.execute("UPDATE games SET head=? WHERE game_id=1", (rechain_stored(conn, 1, first),))
    conn.execute(guard)
    conn.commit()
    conn.close()


def seqs(events: list[dict], type_: str, **data) -> list[int]:
    """The seqs of the events of a type whose data has the given values: tests find the
    moments they rule on in a recorded game rather than hard-coding where they fell."""
    return [e["seq"] for e in events if e["type"] == type_
            and all(e["data"].get(k) == v for k, v in data.items())]


def batch(events: list[dict], seq: int) -> list[dict]:
    """The rows of the command that wrote event `seq`."""
    cid = events[seq - 1]["command_id"]
    return [e for e in events if e["command_id"] == cid]
