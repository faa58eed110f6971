"""How tests/data/vintage-format{1,2,3}.* were made: one real game per file format, recorded by
the last banco that wrote that format, through its own command line, with what that banco
printed kept beside it (tests/test_vintage_formats.py reads them with today's banco).

    python tests/tools/make_vintage.py 2            # worktree + venv of COMMITS[2], record, clean up
    python tests/tools/make_vintage.py 2 --banco /tmp/venv-old-2/bin/banco   # an installed one

The test run never calls this: the files are made once, by hand, and committed.  Rerun against
the same commits, it makes the same games (the same lines, facts and tables); only the times,
and so the hashes, the seal and the tokens' secrets, are the day's.

Which commit wrote which format (`git log -S 'FORMAT = ' -- ledger/store`, `-S CHAIN_VERSION`):
- format 1, chain version 1: 4abd570, the latest commit without 639a1e3 ("Store format 2"),
  the tip of the branch merged after it.  No `--lang`, no rulings, seals, tokens or import:
  the game has turns, purchases, rent claimed and a late claim refused, an auction, a mortgage,
  two trades, an undo, a card to jail, the fine, houses.
- format 2, chain version 2: 98fb80d, the latest commit without b821a35 (format 3: snapshots
  bound by the chain), the tip of the PostgreSQL tournaments branch.  Adds a referee's
  correction, two recorded rulings, tokens (a revoked one), a seal, and a game imported.
- format 3, chain versions 2 and 3: 0157235, today's banco when these were made (its rows
  schema version 2: reasons as codes).  The same game as format 2.
"""

from __future__ import annotations

import argparse
import base64
import gzip
import json
import os
import shlex
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
KEY = ROOT / "fixtures" / "demo-referee.key"
COMMITS = {1: "4abd570", 2: "98fb80d", 3: "0157235"}

# The game, every format.  `!N ` before a line: the old banco answered exit N (a refusal).
GAME = """
new Anna Bruno Carla
roll 1 2
buy
roll 2 1
claim Anna
roll 3 2
buy
roll 2 4
buy
roll 2 4
roll 4 2
!1 claim Anna
decline
bid Anna 100
bid Bruno 120
hammer
mortgage "Vicolo Stretto"
trade Anna Carla --give "Viale Vesuvio" --get 150
roll 1 2
buy
undo
decline
bid Carla 80
hammer
roll 1 3
buy
roll 2 4
card probabilita 2
roll 1 1
buy
roll 2 3
buy
trade Anna Bruno --give "Piazza Università" --get 200
build "Via Accademia"
build "Corso Ateneo"
build "Piazza Università"
roll 1 2
buy
pay-fine
roll 2 3
buy
"""

# What formats 2 and 3 could also record ({late}, {jail}: seqs looked up in the log; {key}:
# the demo referee's key; {revoke}: the prefix of Bruno's token).  A seal, then one more roll,
# so the seal covers a prefix; the game imported last, as game 2.
REFEREE = """
correct Bruno 10 --reason "change miscounted" --referee Rita
ruling rent {late} --record --referee Rita
ruling jail {jail} --record --referee Rita
"""
TOKENS = ["banker", "player Anna", "player Bruno"]  # issued with --json, to keep the secrets
SEALED = """
token --revoke {revoke}
seal --key {key} --referee Rita --out {seal}
roll 3 4
"""
DEED = "Piazza Università"  # bought, traded, built on: its history has every kind of line
AT = 60  # `state --at`: mid-game, Carla in jail in formats 2 and 3, a card drawn in format 1
SIDE_GAME = """
new Dario Elena
roll 1 2
buy
roll 2 1
claim Dario
roll 2 4
"""


# Formats 2 and 3 keep a snapshot of the table every Book.SNAPSHOT_EVERY (500) events; format 3
# binds it to the chain (the row it is taken after is chain version 3).  So that a game of 150
# events has some, the old banco is run with that class attribute set to 40: the only change
# to its code, and one that changes how often it writes what it writes, not what.
SNAPSHOT_EVERY = 40
WRAP = ("import sys; from {pkg}ledger.book import Book; Book.SNAPSHOT_EVERY = {every}; "
        "from {pkg}cli.main import main; sys.argv[0] = 'banco'; main()")


def old_banco(fmt: int, exe: str) -> list[str]:
    if fmt == 1:  # no snapshots yet
        return [exe]
    python = str(Path(exe).with_name("python"))
    return [python, "-c", WRAP.format(pkg="banco." if fmt >= 3 else "", every=SNAPSHOT_EVERY)]


def banco(exe: list[str], db: str, line: str, code: int = 0, *, lang: str | None = None,
          cwd: Path | None = None) -> str:
    args = [*exe, "--db", db, *shlex.split(line)]
    if lang:
        args += ["--lang", lang]
    env = {**os.environ, "TZ": "UTC", "LANG": "C.UTF-8", "COLUMNS": "100"}
    env.pop("BANCO_LANG", None)
    # never in the repository: `python -c` puts the working folder first on sys.path, and the
    # folders there (ledger/, cli/) are not the old banco
    r = subprocess.run(args, capture_output=True, text=True, env=env,
                       cwd=cwd or tempfile.gettempdir())
    if r.returncode != code:
        sys.exit(f"{line!r}: exit {r.returncode}, wanted {code}\n{r.stdout}{r.stderr}")
    return r.stdout


def play(exe: list[str], db: str, lines: str, cwd: Path | None = None, **fill) -> list[dict]:
    said = []
    for line in lines.strip().splitlines():
        code = 0
        if line.startswith("!"):
            code, line = int(line[1]), line[3:]
        line = line.format(**fill) if fill else line
        said.append({"line": line, "code": code, "out": banco(exe, db, line, code, cwd=cwd)})
    return said


def seq_of(exe: list[str], db: str, type_: str) -> int:
    return next(e["seq"] for e in json.loads(banco(exe, db, "--game 1 log --json"))
                if e["type"] == type_)


def record(fmt: int, exe: str, out: Path) -> None:
    exe = old_banco(fmt, exe)
    work = Path(tempfile.mkdtemp(prefix=f"vintage{fmt}-"))
    db = str(work / f"vintage-format{fmt}.db")
    said = play(exe, db, GAME)
    g: dict = {"format": fmt, "commit": COMMITS[fmt], "said": said}
    if fmt >= 2:
        # the key and the seal file beside the database, named as a referee would type them:
        # the seal's line is recorded in the game
        shutil.copy(KEY, work / KEY.name)
        shutil.copy(KEY.with_suffix(".pub"), work / KEY.with_suffix(".pub").name)
        seal = work / "seal.txt"
        fill = {"late": seq_of(exe, db, "RentClaimRefused"), "jail": seq_of(exe, db, "SentToJail"),
                "key": KEY.name, "seal": seal.name}
        g["said"] += play(exe, db, REFEREE, **fill)
        tokens = {}
        for role in TOKENS:
            issued = json.loads(banco(exe, db, f"token {role} --url http://banco.test:8000 --json"))
            tokens[issued["player"] or "banker"] = issued["token"]
        fill["revoke"] = tokens["Bruno"][3:11]
        g["said"] += play(exe, db, SEALED, work, **fill)
        g["tokens"] = tokens
        g["seal"] = seal.read_text(encoding="utf-8")
        g["seal_check"] = banco(exe, db, "--game 1 audit --seal seal.txt --pubkey "
                                f"{KEY.with_suffix('.pub').name}", cwd=work)
        side = str(work / "side.db")
        play(exe, side, SIDE_GAME)
        g["side_export"] = banco(exe, side, "export")
        (work / "side.jsonl").write_text(g["side_export"], encoding="utf-8")
        g["import"] = banco(exe, db, "import side.jsonl --json", cwd=work)
        g["export"] = banco(exe, db, "--game 1 export")
        g["token_list"] = json.loads(banco(exe, db, "--game 1 token --list --json"))
        g["rulings"] = {k: json.loads(banco(exe, db, f"--game 1 ruling {k} {fill[v]} --json"))
                        for k, v in (("rent", "late"), ("jail", "jail"))}
        for lang in ("en", "it"):
            g[f"log_{lang}"] = banco(exe, db, "--game 1 log", lang=lang)
            g[f"statement_anna_{lang}"] = banco(exe, db, "--game 1 statement Anna", lang=lang)
            g[f"standings_{lang}"] = banco(exe, db, "--game 1 standings", lang=lang)
            g[f"state_{lang}"] = banco(exe, db, "--game 1 state", lang=lang)
            g[f"ruling_rent_{lang}"] = banco(exe, db, f"--game 1 ruling rent {fill['late']}",
                                             lang=lang)
        key = Path(db + ".token-key")
        if key.exists():  # today's tokens are keyed by a file beside the database
            g["token_key"] = base64.b64encode(key.read_bytes()).decode()
    else:
        g["log_en"] = banco(exe, db, "--game 1 log")
        g["statement_anna_en"] = banco(exe, db, "--game 1 statement Anna")
        g["standings_en"] = banco(exe, db, "--game 1 standings")
        g["state_en"] = banco(exe, db, "--game 1 state")
    if fmt >= 2:
        for lang in ("en", "it"):
            g[f"replay_{lang}"] = banco(exe, db, "--game 1 replay", lang=lang)
            g[f"history_{lang}"] = banco(exe, db, f"--game 1 history {DEED!r}", lang=lang)
        g["replay"] = json.loads(banco(exe, db, "--game 1 replay --json"))
        g["csv"] = banco(exe, db, "--game 1 export --format csv")
    else:
        g["history_en"] = banco(exe, db, f"--game 1 history {DEED!r}")
    g["history"] = json.loads(banco(exe, db, f"--game 1 history {DEED!r} --json"))
    g["state_at"] = json.loads(banco(exe, db, f"--game 1 state --at {AT} --json"))
    g["games"] = json.loads(banco(exe, db, "games --json"))
    g["state"] = json.loads(banco(exe, db, "--game 1 state --json"))
    g["log_json"] = json.loads(banco(exe, db, "--game 1 log --json"))
    g["statement_anna"] = json.loads(banco(exe, db, "--game 1 statement Anna --json"))
    g["standings"] = json.loads(banco(exe, db, "--game 1 standings --json"))
    g["audit"] = json.loads(banco(exe, db, "--game 1 audit --json"))
    g["audit_all"] = banco(exe, db, "audit")
    if fmt >= 2:
        g["audit_game2"] = json.loads(banco(exe, db, "--game 2 audit --json"))
        g["state_game2"] = json.loads(banco(exe, db, "--game 2 state --json"))
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the whole file in one piece
    conn.execute("PRAGMA journal_mode=DELETE")
    conn.close()
    out.mkdir(parents=True, exist_ok=True)
    with open(db, "rb") as src, gzip.open(out / f"vintage-format{fmt}.db.gz", "wb") as dst:
        shutil.copyfileobj(src, dst)
    with gzip.open(out / f"vintage-format{fmt}.said.json.gz", "wt", encoding="utf-8") as f:
        json.dump(g, f, ensure_ascii=False, indent=1, sort_keys=True)
    shutil.rmtree(work)


def installed(fmt: int) -> tuple[str, list[Path]]:
    """The old banco: its commit checked out beside the repository, in a venv of its own."""
    tree, venv = Path(f"/tmp/old-{fmt}"), Path(f"/tmp/venv-old-{fmt}")
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree),
                    COMMITS[fmt]], check=True)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(venv / "bin" / "pip"), "install", "-q", str(tree)], check=True)
    return str(venv / "bin" / "banco"), [tree, venv]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("format", type=int, choices=sorted(COMMITS))
    p.add_argument("--banco", help="an old banco already installed from COMMITS[format]")
    p.add_argument("--out", type=Path, default=DATA)
    a = p.parse_args()
    exe, made = (a.banco, []) if a.banco else installed(a.format)
    try:
        record(a.format, exe, a.out)
    finally:
        for path in made:
            if path.name.startswith("old-"):
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                                str(path)], check=False)
            else:
                shutil.rmtree(path, ignore_errors=True)


if __name__ == "__main__":
    main()
