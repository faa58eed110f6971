"""Tampering with a tournament, as an attacker with the file and sqlite3: with the triggers
dropped (and put back after, so that the audit's finding is the tampering itself), each way of
rewriting a tournament's results is named by `banco audit` (ledger/store/health.py for the chain,
projections/readings/tournament.py for what the chain holds).  A rewrite that also re-hashes the chain
is held to what `tournament new/add` would have written and to the games' own heads."""

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from banco.ledger.store.canonical import GENESIS, stored_row_hash
from banco.ledger.store.sqlite import TRIGGERS
from banco.ledger.store.tournament_log import CREATE, TABLE, fact_hash

BANCO = [str(Path(sys.executable).parent / "banco")]


def _run(db, *args, code=0):
    from banco.cli.main import cli

    result = CliRunner().invoke(cli, ["--db", db, *args], catch_exceptions=False)
    assert result.exit_code == code, (args, result.output)
    return result.output


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """Games 1, 2 (round 1) and 3 (round 2) of 'Coppa'; game 4 classic, game 5 championship
    still going: neither can be entered."""
    db = str(tmp_path_factory.mktemp("tournament") / "t.db")
    for players, lines in ((("Anna", "Bruno", "Carla"), ("roll 1 2", "buy")),
                           (("Dario", "Elena", "Fabio"), ()),
                           (("Anna", "Bruno", "Dario"), ("roll 1 2", "buy"))):
        _run(db, "new", *players, "--rules", "championship")
        for line in lines:
            _run(db, *line.split())
        _run(db, "time-up")
    _run(db, "new", "Gina", "Ugo")
    _run(db, "new", "Gina", "Ugo", "Ivo", "--rules", "championship")
    _run(db, "tournament", "new", "Coppa")
    _run(db, "tournament", "add", "1", "2")
    _run(db, "tournament", "add", "3")
    return db


def _facts(conn):
    return [list(r) for r in conn.execute(
        f"SELECT tournament, seq, type, data, recorded_at, actor, prev_hash, hash FROM {TABLE} "
        "ORDER BY seq")]


def _rewrite(conn, rows, rechain: bool):
    """Replace the tournament's facts by `rows`, their chain re-hashed if `rechain`."""
    conn.execute(f"DELETE FROM {TABLE}")
    prev = GENESIS
    for i, r in enumerate(rows, start=1):
        if rechain:
            r[1] = i
            body = dict(zip(("tournament", "seq", "type", "data", "recorded_at", "actor"), r[:6], strict=True))
            r[6], r[7] = prev, fact_hash(prev, body)
            prev = r[7]
        conn.execute(f"INSERT INTO {TABLE} VALUES (?,?,?,?,?,?,?,?)", r)


def _entered(conn, game: int, round_: int) -> str:
    uid = conn.execute("SELECT game_uuid FROM games WHERE game_id=?", (game,)).fetchone()[0]
    seq, head = conn.execute("SELECT last_seq, head FROM games WHERE game_id=?",
                             (game,)).fetchone()
    return json.dumps({"game": game, "game_uuid": uid, "head": head, "round": round_,
                       "seq": seq}, separators=(",", ":"), sort_keys=True)


def _set_round(fact: int, round_: int, rechain: bool):
    def tamper(conn):
        rows = _facts(conn)
        data = json.loads(rows[fact - 1][3])
        rows[fact - 1][3] = json.dumps({**data, "round": round_}, separators=(",", ":"),
                                       sort_keys=True)
        _rewrite(conn, rows, rechain)
    return tamper


def _append_entry(game: int, round_: int):
    def tamper(conn):
        rows = _facts(conn)
        rows.append([rows[0][0], 0, "GameEntered", _entered(conn, game, round_), rows[-1][4],
                     "organiser", "", ""])
        _rewrite(conn, rows, True)
    return tamper


def _drop_round(rechain: bool):
    def tamper(conn):
        _rewrite(conn, [r for r in _facts(conn) if '"round":1' not in r[3]], rechain)
    return tamper


def _rename(rechain: bool):
    def tamper(conn):
        _rewrite(conn, [["Coppa Italia", *r[1:]] for r in _facts(conn)], rechain)
    return tamper


def _change_price(rechain: bool):
    """Game 1's Vicolo Stretto bought for 6 M instead of 60: Anna's score, so the points."""
    def tamper(conn):
        rows = conn.execute("SELECT seq, type, data, recorded_at, actor, command_id, "
                            "schema_version, chain_version FROM events WHERE game_id=1 ORDER BY "
                            "seq").fetchall()
        prev = GENESIS
        for seq, type_, data, at, actor, cid, version, chain in rows:
            data = data.replace('"price":60', '"price":6').replace('"amount":60', '"amount":6')
            conn.execute("UPDATE events SET data=? WHERE game_id=1 AND seq=?", (data, seq))
            if rechain:
                hsh = stored_row_hash(prev, 1, seq, type_, data, at, actor, cid, version, chain)
                conn.execute("UPDATE events SET prev_hash=?, hash=? WHERE game_id=1 AND seq=?",
                             (prev, hsh, seq))
                prev = hsh
        if rechain:
            conn.execute("UPDATE games SET head=? WHERE game_id=1", (prev,))
    return tamper


TAMPERINGS = {
    "a game moved to another round": (_set_round(4, 1, False), "does not match its hash"),
    "a game moved to another round, chain re-hashed": (
        _set_round(4, 1, True), "Anna plays game 1 and game 3: one table a round (round 1)"),
    "a game moved to a later round, chain re-hashed": (
        _set_round(4, 3, True), "round 2 has no game: a round was taken out"),
    "a game entered twice": (_append_entry(1, 3), "it enters game 1 again (fact 2 entered it)"),
    "a game not finished entered": (_append_entry(5, 3), "game 5 was not over at event"),
    "a game of other rules entered": (
        _append_entry(4, 3), "game 4 is played by the classic rules, which give no tournament"),
    "a round deleted": (_drop_round(False), "is missing (the next one is fact 4)"),
    "a round deleted, chain re-hashed": (_drop_round(True), "round 1 has no game"),
    "the tournament renamed": (_rename(False), "does not match its hash"),
    "the tournament renamed, chain re-hashed": (
        _rename(True), "starts a tournament called 'Coppa', but its facts are filed under "
                       "'Coppa Italia': the tournament was renamed"),
    "a game's points changed": (_change_price(False), "game 1 event"),
    "a game's points changed, its chain re-hashed": (
        _change_price(True), "game 1's event 15 is not the one entered"),
}


def _audit(db) -> tuple[list[str], dict]:
    doc = json.loads(_run(db, "audit", "--json", code=3))
    problems = [f["problem"] for f in doc["database"]]
    problems += [f"game {g['game']} event {g['bad_seq']}: {g['problem']}" for g in doc["games"]
                 if not g["ok"]]
    return problems, doc


def test_the_tournament_as_played_audits_clean(played):
    doc = json.loads(_run(played, "audit", "--json"))
    assert doc["ok"] and doc["database"] == []


@pytest.mark.parametrize("tampering", list(TAMPERINGS))
def test_each_tampering_is_named_by_the_audit(played, tmp_path, tampering):
    db = str(tmp_path / "t.db")
    shutil.copy(played, db)
    tamper, named = TAMPERINGS[tampering]
    conn = sqlite3.connect(db, isolation_level=None)
    for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type='trigger'").fetchall():
        conn.execute(f"DROP TRIGGER {name}")
    tamper(conn)
    for sql in (*CREATE[1:], *TRIGGERS):  # put back: the audit must find the tampering itself
        conn.execute(sql)
    conn.close()
    problems, doc = _audit(db)
    assert any(named in p for p in problems), problems


def test_standings_read_from_facts_edited_under_their_chain_say_so(played, tmp_path):
    """A referee's trial: a game moved to another round (the triggers dropped, the chain not
    re-hashed) was shown as "2 games in 1 round" with a new head and no word; the audit alone
    caught it.  The standings now warn on stderr, as a game's reading does on a broken log."""
    db = str(tmp_path / "t.db")
    shutil.copy(played, db)
    conn = sqlite3.connect(db, isolation_level=None)
    for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type='trigger'").fetchall():
        conn.execute(f"DROP TRIGGER {name}")
    _set_round(4, 1, False)(conn)
    conn.close()
    done = subprocess.run([*BANCO, "--db", db, "tournament", "standings"], capture_output=True,
                          text=True, env={**os.environ, "BANCO_LANG": "en"}, timeout=120)
    assert done.returncode == 0 and "Traceback" not in done.stderr
    assert done.stderr.startswith("WARNING: tournament 'Coppa': tournament fact 4 does not match "
                                  "its hash chain: these standings are read from facts that are "
                                  "not as they were recorded"), done.stderr
    clean = subprocess.run([*BANCO, "--db", played, "tournament", "standings"],
                           capture_output=True, text=True, timeout=120)
    assert clean.stderr == ""


def test_a_game_reopened_after_it_was_entered_is_said(played, tmp_path):
    db = str(tmp_path / "t.db")
    shutil.copy(played, db)
    _run(db, "--game", "1", "undo")  # takes back time-up: game 1 goes on
    text = _run(db, "tournament", "standings")
    assert ("game 1 (round 1) changed after it was entered at event 15: it is not over any more "
            "(events 16-17 came after it); counted as entered") in text
    doc = json.loads(_run(db, "tournament", "standings", "--json"))
    assert doc["games"][0]["points"] == {"Anna": 22, "Bruno": 12, "Carla": 12}  # as entered
    problems, _ = _audit(db)
    assert any("game 1 changed after it was entered at event 15: it is not over any more"
               in p for p in problems), problems
    # finished again, differently: the new points are said beside the ones entered
    _run(db, "--game", "1", "roll", "1", "3")  # Bruno pays the Tassa Patrimoniale
    _run(db, "--game", "1", "time-up")
    problems, _ = _audit(db)
    assert any("game 1 changed after it was entered at event 15: its points are now" in p
               for p in problems), problems


def _head(db) -> str:
    return json.loads(_run(db, "tournament", "standings", "--json"))["head"]


def test_a_rewrite_of_the_whole_chain_is_caught_by_the_head_printed(played, tmp_path):
    """The last round taken out and the chain re-hashed is a tournament banco could have
    written: the audit cannot see it, the head printed under the standings does."""
    db = str(tmp_path / "t.db")
    shutil.copy(played, db)
    printed = _head(db)
    assert _run(db, "tournament", "standings", "--expect-head", printed[:12]) == \
        _run(db, "tournament", "standings")
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute(f"DROP TRIGGER {TABLE}_no_delete")
    _rewrite(conn, _facts(conn)[:-1], True)
    conn.execute(CREATE[2])
    conn.close()
    assert json.loads(_run(db, "audit", "--json"))["ok"]
    out = _run(db, "tournament", "standings", "--expect-head", printed[:12], code=3)
    assert (f"the tournament head {printed[:12]} is not found in 'Coppa' (facts 1-3): it was "
            "printed from another tournament, or the facts up to it were rewritten") in out


def test_a_head_printed_earlier_holds_while_the_tournament_goes_on(tmp_path):
    db = str(tmp_path / "t.db")
    for players in (("Anna", "Bruno"), ("Anna", "Bruno")):
        _run(db, "new", *players, "--rules", "championship")
        _run(db, "time-up")
    _run(db, "tournament", "new", "Coppa")
    _run(db, "tournament", "add", "1")
    printed = _head(db)
    _run(db, "tournament", "add", "2")
    out = _run(db, "tournament", "standings", "--expect-head", printed)
    assert (f"the tournament head {printed[:12]} is fact 2's: facts 1-2 are as they were when "
            "it was printed; facts 3-3 came after") in out
    assert "--expect-head takes a tournament head" in _run(
        db, "tournament", "standings", "--expect-head", "xyz", code=2)


def test_a_score_changed_after_entry_is_said_as_a_score(tmp_path):
    """Reopened and ended again with the same places but other totals: the points are the
    same, the score sheet (the standings' tie-break) is not, and that is what is said."""
    db = str(tmp_path / "t.db")
    for line in ("new Anna Bruno Carla --rules championship", "roll 1 2", "buy", "time-up",
                 "tournament new C", "tournament add 1", "undo", "roll 1 2", "claim Anna",
                 "roll 1 2", "claim Anna", "time-up"):
        _run(db, *line.split())
    problems, _ = _audit(db)
    assert ("tournament 'C', fact 2: game 1 changed after it was entered at event 15: its "
            "score sheet is now Anna 1508, Bruno 1496, Carla 1496 (entered: Anna 1500, Bruno "
            "1500, Carla 1500)") in problems, problems
