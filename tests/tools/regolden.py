"""Regenerate the golden files of the recorded games: fixtures/NAME.state.json and
NAME.events.json, from fixtures/NAME.banco replayed through the CLI at a fixed clock.

The events are written as today's banco records them (the schema version of
ledger/records/upcast.py's SCHEMA_VERSION: reasons as codes and data), so the golden tests
compare facts with facts, no upcaster between.  The older form of these logs, schema version 1
with its English sentences, is kept apart in tests/data/golden-schema1.json.gz, frozen, for
the upcaster's own tests (tests/test_golden_schema1.py); this tool never writes it.

The tests never write these files.  Run this only after a deliberate change of rules or
output, then review the diff like any other change before committing it:

    python tests/tools/regolden.py            # every recorded game (fixtures/*.banco)
    python tests/tools/regolden.py classic-4p
    git diff --stat fixtures/ && git diff fixtures/

It prints, for each file, whether it changed and by how many lines; the hand-worked figures in
tests/test_golden*.py must still hold afterwards.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
FROZEN = "2026-11-29 21:00:00"  # the clock the golden tests replay at


def games() -> list[str]:
    return sorted(p.stem for p in FIXTURES.glob("*.banco"))


def documents(name: str) -> dict[str, object]:
    from click.testing import CliRunner
    from freezegun import freeze_time

    from banco.cli.main import cli

    runner = CliRunner()
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "g.db")
        with freeze_time(FROZEN):
            done = runner.invoke(cli, ["--db", db, "run", "-q", str(FIXTURES / f"{name}.banco")])
        if done.exit_code != 0:
            raise SystemExit(f"{name}.banco does not replay: {done.output}")

        def call(*args):
            r = runner.invoke(cli, ["--db", db, *args])
            if r.exit_code != 0:
                raise SystemExit(f"banco {' '.join(args)} failed: {r.output}")
            return json.loads(r.output)

        state = call("state", "--json")
        # A game's uuid is new each time it is played: the golden log leaves it out, as
        # the golden tests do when they compare.
        events = [{"seq": e["seq"], "type": e["type"],
                   "data": {k: v for k, v in e["data"].items() if k != "game_uuid"}}
                  for e in call("log", "--json")]
    return {f"{name}.state.json": state, f"{name}.events.json": events}


def main(names: list[str]) -> None:
    unknown = set(names) - set(games())
    if unknown:
        raise SystemExit(f"no fixtures/NAME.banco for {', '.join(sorted(unknown))}")
    for name in names or games():
        for file, doc in documents(name).items():
            path = FIXTURES / file
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
