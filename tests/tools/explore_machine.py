"""Explore with the state machine: random seeds and as many examples as you like, where the
default test run plays the same 150 games every time.  Prints what was tried, accepted and
refused (and why); a failure prints the shortest sequence of table actions that shows it.

    python tests/tools/explore_machine.py            # 1,000 games
    python tests/tools/explore_machine.py 5000
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]


def main(games: int) -> None:
    from hypothesis import settings
    from test_machine import SETTINGS, play_tables

    print(play_tables(settings(SETTINGS, max_examples=games, derandomize=False,
                               database=None)))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000)
