"""Several installed `banco` processes at once on one file: games started together, and writers
to one game that lose and duplicate nothing."""

import json
import re
import subprocess
import sys

from click.testing import CliRunner
from installed import BANCO, INSTALLED, banco, rows

from banco.cli.main import cli

pytestmark = INSTALLED


# --- several processes at once ----------------------------------------------------------------

def test_four_processes_starting_games_on_a_new_file(tmp_path):
    db = tmp_path / "many.db"
    procs = []
    for rnd in range(2):
        for w in range(4):
            procs.append(subprocess.Popen([str(BANCO), "--db", str(db), "new", f"P{w}",
                                           f"Q{rnd}"], stdout=subprocess.PIPE,
                                          stderr=subprocess.PIPE, text=True))
    for p in procs:
        out, err = p.communicate(timeout=60)
        # a process that starts after another's game is in the file says, rightly, which game
        # it leaves unfinished (cli/banker/setting_up.py); nothing else may be said
        assert p.returncode == 0, err
        assert re.fullmatch(r"(warning: game \d \(P\d, Q\d\) is left unfinished; `--game \d` "
                            r"goes back to it\ncommands without --game now go to game \d, the "
                            r"latest; a table sharing this database with others names its own: "
                            r"`export BANCO_GAME=\d`\n)?", err), err
    games = json.loads(banco("--db", db, "games", "--json").stdout)
    assert [g["game"] for g in games] == list(range(1, 9))
    assert sorted("".join(g["players"]) for g in games) == sorted(
        f"P{w}Q{r}" for w in range(4) for r in range(2))
    assert len({g["uuid"] for g in games}) == 8


WORKER = """
import random, subprocess, sys, time
banco, db, worker, lot, rounds = sys.argv[1:6]
banco = banco.split("\\x1f")  # the program, or python -c a banco that snapshots often
for r in range(int(rounds)):
    for word in ("mortgage", "unmortgage"):
        key = f"w{worker}-{r}-{word}"
        for attempt in range(200):  # exit 5 (the table moved) or 4 (locked): same key again
            code = subprocess.run([*banco, "--db", db, word, *lot.split(), "--id", key],
                                  stdout=subprocess.DEVNULL).returncode
            if code == 0:
                break
            assert code in (4, 5), code
            time.sleep(random.uniform(0, 0.2))
        else:
            sys.exit(f"{key} never went through")
"""


SNAPPING_BANCO = ("import sys; from banco.ledger.book import Book; Book.SNAPSHOT_EVERY = 1; "
                  "sys.argv[0] = 'banco'; from banco.cli.main import main; main()")


def test_four_processes_writing_to_one_game_lose_and_duplicate_nothing(tmp_path):
    db = tmp_path / "shared.db"
    setup = ["new Anna Bruno Carla Dario", "roll 1 2", "buy", "roll 2 3", "buy", "roll 2 4",
             "buy", "roll 4 5", "buy"]  # each player owns one deed, which he may mortgage
    (tmp_path / "setup.banco").write_text("\n".join(setup) + "\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["--db", str(db), "run", "-q",
                                      str(tmp_path / "setup.banco")])
    assert result.exit_code == 0, result.output
    start = rows(db)
    lots = {"Anna": "vicolo stretto", "Bruno": "stazione sud", "Carla": "bastioni gran sasso",
            "Dario": "viale vesuvio"}
    rounds = 2
    # two of the four write a snapshot of the table inside every append (ledger/book.py), so
    # that snapshots are written while the others write and are refused for conflicts
    snapping = "\x1f".join([sys.executable, "-c", SNAPPING_BANCO])
    procs = [subprocess.Popen([sys.executable, "-c", WORKER, snapping if i % 2 else str(BANCO),
                               str(db), name, lot, str(rounds)])
             for i, (name, lot) in enumerate(lots.items())]
    for p in procs:
        assert p.wait(120) == 0
    new = rows(db)[len(start):]
    assert rows(db)[:len(start)] == start
    recorded = [json.loads(r[3])["line"] for r in new if r[2] == "CommandRecorded"]
    assert sorted(recorded) == sorted(f"{word} {lot}" for lot in lots.values()
                                      for word in ("mortgage", "unmortgage")
                                      for _ in range(rounds))
    ids = [r[4] for r in new if r[2] == "CommandRecorded"]
    assert len(ids) == len(set(ids)) == 8 * rounds  # each key once
    mortgaged = [json.loads(r[3])["player"] for r in new if r[2] == "PropertyMortgaged"]
    assert sorted(mortgaged) == sorted(list(lots) * rounds)
    audit = banco("--db", db, "audit").stdout
    assert "chain intact, schemas valid, books balance" in audit
    state = json.loads(banco("--db", db, "state", "--json").stdout)
    assert not any(p["mortgaged"] for p in state["properties"])
    # the snapshots left behind are each the table folded from the log to their seq
    from banco.ledger.snapshot_check import verify_snapshots
    from banco.ledger.store.sqlite import SQLiteStore

    store = SQLiteStore(str(db), create=False)
    snaps = store.snapshots(1)
    # the newest three, and the game's first (ledger/store/kept_snapshots.py: the first of
    # every 500 events stays too)
    assert len(snaps) == 4 and snaps[0].seq > len(start) and snaps[-1].seq < 500
    assert verify_snapshots(store, 1) == []
    store.close()
