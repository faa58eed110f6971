"""docs/table-screen.png: `banco serve` on a real game, photographed by headless Chromium.

    python tests/tools/table_screenshot.py [--lang it|en] [--out docs/table-screen.png]

The game is the recorded fixtures/classic-to-the-end.banco played up to the moment Bruno has
landed on Dario's hotel-less green and Dario has not yet asked for the rent: houses on three
groups, mortgaged deeds, and an open claim "until Carla rolls".
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

FIXTURE = ROOT / "fixtures" / "classic-to-the-end.banco"
UPTO = "roll 6 4 --player Bruno"  # the line after which the claim is open
SIZE = (1600, 900)  # a TV's 16:9


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", choices=("en", "it"), default="en")
    parser.add_argument("--out", default=str(ROOT / "docs" / "table-screen.png"))
    args = parser.parse_args()

    from chromium import Chromium

    from banco.cli.web.serve import start
    from banco.ledger.book import Book

    lines = FIXTURE.read_text(encoding="utf-8").splitlines()
    upto = lines.index(UPTO) + 1
    with tempfile.TemporaryDirectory() as work:
        prefix = Path(work) / "prefix.banco"
        prefix.write_text("\n".join(lines[:upto]) + "\n", encoding="utf-8")
        db = os.path.join(work, "game.db")
        record_prefix(db, prefix)
        book = Book(db, create=False)
        state = book.state(1)
        book.close()
        assert state.claims and state.claims[0].closer == "Carla", state.claims
        base, _, stop = start(db, port=0, lang=args.lang)
        try:
            with Chromium(size=SIZE) as browser:
                tab = browser.open(base + "/")
                tab.wait_for(f"document.body.dataset.seq == '{state.seq}'")
                tab.screenshot(args.out, *SIZE)
        finally:
            stop()
    print(f"{args.out}: game at event {state.seq}, {SIZE[0]}x{SIZE[1]}")


def record_prefix(db: str, transcript: Path) -> None:
    """Run the transcript as the fixtures are run (tests/games.py), from its own path."""
    from click.testing import CliRunner
    from freezegun import freeze_time

    from banco.cli.main import cli

    with freeze_time("2026-11-29 21:00:00"):
        result = CliRunner().invoke(cli, ["--db", db, "run", "-q", str(transcript)])
    assert result.exit_code == 0, result.output


if __name__ == "__main__":
    main()
