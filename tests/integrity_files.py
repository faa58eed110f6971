"""The database the integrity tests tamper with (`template`, recorded once a worker; `copy`, a
test's own copy of it), the tamperings of issue 9, each done with the triggers dropped and
returning the seq the audit must name, and the CLI helper they read it with.  Loaded by
tests/conftest.py's pytest_plugins."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from forge import drop_triggers, rechain_stored
from games import record

from banco.cli.main import cli
from banco.ledger.store.canonical import canonical_json

FORGED_AT = "2026-11-29T22:00:00.000000Z"


def banco(db, *args, code=0):
    result = CliRunner().invoke(cli, ["--db", str(db), *map(str, args)], catch_exceptions=False)
    assert result.exit_code == code, (args, result.output)
    return result.output


@pytest.fixture(scope="session")
def template(tmp_path_factory) -> Path:
    """Game 1: a short game played to its end, then sealed by referee Rita; game 2: a classic
    game in progress (the latest).  Each test tampers with a copy."""
    d = tmp_path_factory.mktemp("integrity")
    db = d / "t.db"
    record(str(db), "short-to-the-end")
    banco(db, "keygen", "--out", str(d / "rita"))
    banco(db, "--game", "1", "seal", "--key", str(d / "rita.key"), "--referee", "Rita",
          "--out", str(d / "seal.txt"))
    record(str(db), "classic-4p")
    return d


@pytest.fixture
def copy(template, tmp_path) -> Path:
    for name in ("t.db", "rita.key", "rita.pub", "seal.txt"):
        shutil.copy(template / name, tmp_path / name)
    return tmp_path


def rows(db, game=1) -> list[tuple]:
    conn = sqlite3.connect(db)
    out = conn.execute("SELECT seq, type, data FROM events WHERE game_id=? ORDER BY seq",
                       (game,)).fetchall()
    conn.close()
    return out


def seq_of(db, type_, nth=0, game=1) -> int:
    return [s for s, t, _ in rows(db, game) if t == type_][nth]


def sealed_seq(d: Path) -> int:
    return int(next(line.split(":")[1] for line in (d / "seal.txt").read_text().splitlines()
                    if line.startswith("event:")))


# --- the tamperings: each returns the seq the audit must name ------------------------------

def forge_rows(db, *sql, args=(), rechain_from=None, fix_index=True):
    """A forger with the file: triggers gone, the edit, the chain recomputed from the edit on
    and (a thorough one) the games table made to agree."""
    conn = sqlite3.connect(db)
    drop_triggers(conn)
    for s, a in zip(sql, args or [()] * len(sql), strict=True):
        conn.execute(s, a)
    if rechain_from is not None:
        head = rechain_stored(conn, 1, rechain_from)
        if fix_index:
            last = conn.execute("SELECT MAX(seq) FROM events WHERE game_id=1").fetchone()[0]
            conn.execute("UPDATE games SET head=?, last_seq=? WHERE game_id=1", (head, last))
    conn.commit()
    conn.close()


def forged_cash_issue(db) -> int:
    seq = seq_of(db, "SalaryPaid", 3)
    money = canonical_json({"amount": 200, "payee": "Anna", "payer": "bank",
                            "reason": "starting cash"})
    forge_rows(db, "UPDATE events SET type='CashIssued', data=? WHERE game_id=1 AND seq=?",
           args=[(money, seq)], rechain_from=seq)
    return seq


def changed_dice(db) -> int:
    seq = seq_of(db, "DiceRolled", 40)
    data = json.loads(next(d for s, _, d in rows(db) if s == seq))
    data["dice"] = [d % 6 + 1 for d in data["dice"]]
    forge_rows(db, "UPDATE events SET data=? WHERE game_id=1 AND seq=?",
           args=[(canonical_json(data), seq)], rechain_from=seq)
    return seq


def duplicated_key(db) -> int:
    """A key written twice, the forged value first: JSON readers take the last one, so every
    figure still re-derives; the text is not what banco writes (found by a newcomer)."""
    seq = seq_of(db, "DiceRolled", 40)
    text = next(d for s, _, d in rows(db) if s == seq)
    assert text.startswith('{"dice":')
    forge_rows(db, "UPDATE events SET data=? WHERE game_id=1 AND seq=?",
           args=[('{"dice":[6,6],' + text[1:], seq)], rechain_from=seq)
    return seq


def referee_name_on_a_roll(db) -> int:
    """A whole command of the banker's put in the referee's name, re-chained (a newcomer's
    trial: it passed)."""
    seq = seq_of(db, "DiceRolled", 10) - 1  # its CommandRecorded
    forge_rows(db, "UPDATE events SET actor='referee:Rita' WHERE game_id=1 AND command_id="
               "(SELECT command_id FROM events WHERE game_id=1 AND seq=?)",
           args=[(seq,)], rechain_from=seq)
    return seq


def one_fact_by_another_hand(db) -> int:
    seq = seq_of(db, "DiceRolled", 12)
    forge_rows(db, "UPDATE events SET actor='mallory' WHERE game_id=1 AND seq=?", args=[(seq,)],
           rechain_from=seq)
    return seq


def last_30_cut_off(db) -> int:
    last = rows(db)[-1][0]
    forge_rows(db, f"DELETE FROM events WHERE game_id=1 AND seq>{last - 30}")
    return last - 29


def whole_commands_cut_off(db) -> int:
    """The last commands taken away whole, from a command's first row: no command is left
    half-recorded, so only the games table (which still says where the log ended) knows."""
    log = rows(db)
    cut = max(s for s, t, _ in log if t == "CommandRecorded" and s <= len(log) - 29)
    forge_rows(db, f"DELETE FROM events WHERE game_id=1 AND seq>={cut}")
    return cut


def append_after_the_end(db) -> int:
    last = rows(db)[-1][0]
    money = canonical_json({"amount": 5000, "payee": "Bruno", "payer": "bank",
                            "reason": "starting cash"})
    forge_rows(db, "INSERT INTO events (game_id, seq, type, data, recorded_at, actor, command_id, "
               "schema_version, prev_hash, hash, chain_version) VALUES (1, ?, 'CashIssued', ?, "
               "?, 'banker', 'forged', 1, '', '', 2)", args=[(last + 1, money, FORGED_AT)],
           rechain_from=last + 1)
    return last + 1


def not_json(db) -> int:
    seq = seq_of(db, "TaxPaid")
    forge_rows(db, "UPDATE events SET data='{' WHERE game_id=1 AND seq=?", args=[(seq,)])
    return seq


def not_an_object(db) -> int:
    seq = seq_of(db, "SalaryPaid", 2)
    forge_rows(db, "UPDATE events SET data='[200]' WHERE game_id=1 AND seq=?", args=[(seq,)],
           rechain_from=seq)
    return seq


def deleted_row(db) -> int:
    seq = seq_of(db, "RentPaid", 5)
    forge_rows(db, "DELETE FROM events WHERE game_id=1 AND seq=?", args=[(seq,)])
    return seq


def reordered_pair(db) -> int:
    seq = seq_of(db, "DiceRolled", 10)
    forge_rows(db, "UPDATE events SET seq=-1 WHERE game_id=1 AND seq=?",
           "UPDATE events SET seq=? WHERE game_id=1 AND seq=?",
           "UPDATE events SET seq=? WHERE game_id=1 AND seq=-1",
           args=[(seq,), (seq, seq + 1), (seq + 1,)])
    return seq


def edited_amount(db) -> int:
    seq = seq_of(db, "RentPaid", 7)
    data = json.loads(next(d for s, _, d in rows(db) if s == seq))
    data["amount"] += 100
    forge_rows(db, "UPDATE events SET data=? WHERE game_id=1 AND seq=?",
           args=[(canonical_json(data), seq)], rechain_from=seq)
    return seq


def forged_seal(db) -> int:
    """A forger without the key: the seal's signature changed in the command and in its
    SealRecorded alike (so the command gives the fact), the chain recomputed."""
    seq = seq_of(db, "SealRecorded")
    was = json.loads(next(d for s, _, d in rows(db) if s == seq))["signature"]
    forge_rows(db, "UPDATE events SET data=replace(data, ?, ?) WHERE game_id=1 AND seq IN (?, ?)",
           args=[(was, was[::-1], seq - 1, seq)], rechain_from=seq - 1)
    return seq


TAMPERINGS = [forged_cash_issue, changed_dice, duplicated_key, referee_name_on_a_roll,
              one_fact_by_another_hand, last_30_cut_off, whole_commands_cut_off,
              append_after_the_end, not_json, not_an_object,
              deleted_row, reordered_pair, edited_amount, forged_seal]
