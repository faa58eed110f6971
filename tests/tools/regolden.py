"""Regenerate the golden files of the recorded games: fixtures/NAME.state.json and
NAME.events.json, from fixtures/NAME.banco replayed through the CLI at a fixed clock.

The tests never write these files.  Run this only after a deliberate change of rules or
output, then review the diff like any other change before committing it:

    python tests/tools/regolden.py            # all recorded games
    python tests/tools/regolden.py classic-4p
    git diff --stat fixtures/ && git diff fixtures/

It prints, for each file, whether it changed and by how many lines; the hand-worked figures in
tests/test_golden.py must still hold afterwards.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

GAMES = ("classic-4p", "classic-to-the-end")


def documents(name: str) -> dict[str, object]:
    from click.testing import CliRunner
    from freezegun import freeze_time

    from banco.cli.main import cli

    runner = CliRunner()
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "g.db")
        with freeze_time("2026-11-29 21:00:00"):
            done = runner.invoke(cli, ["--db", db, "run", "-q",
                                       str(ROOT / "fixtures" / f"{name}.banco")])
        if done.exit_code != 0:
            raise SystemExit(f"{name}.banco does not replay: {done.output}")

        def call(*args):
            r = runner.invoke(cli, ["--db", db, *args])
            if r.exit_code != 0:
                raise SystemExit(f"banco {' '.join(args)} failed: {r.output}")
            return json.loads(r.output)

        state = call("state", "--json")
        # A game's uuid is new each time it is played: the golden log leaves it out, as
        # tests/test_golden.py does when it compares.
        events = [{"seq": e["seq"], "type": e["type"],
                   "data": {k: v for k, v in e["data"].items() if k != "game_uuid"}}
                  for e in call("log", "--json")]
    return {f"{name}.state.json": state, f"{name}.events.json": events}


def main(names: list[str]) -> None:
    for name in names or GAMES:
        for file, doc in documents(name).items():
            path = ROOT / "fixtures" / file
            old = path.read_text(encoding="utf-8") if path.exists() else ""
            new = json.dumps(doc, ensure_ascii=False, indent=1) + "\n"
            if new == old:
                print(f"{file}: unchanged")
                continue
            path.write_text(new, encoding="utf-8")
            print(f"{file}: rewritten ({len(old.splitlines())} -> {len(new.splitlines())} "
                  "lines): review `git diff fixtures/` before committing")


if __name__ == "__main__":
    main(sys.argv[1:])
