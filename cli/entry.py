"""`banco`'s entry point (pyproject.toml's [project.scripts]).

A plain `banco state` is answered by cli/quick.py without importing click; every other line,
and that one whenever it meets anything but the plain answer, by the click group
(cli/main.py)."""

from __future__ import annotations

import sys


def main() -> None:
    from banco.cli.quick import quick_state

    try:
        code = quick_state(sys.argv[1:])
    except KeyboardInterrupt:  # the shell's convention, as the group says it
        from banco.cli.words.i18n import _

        print("\n" + _("interrupted"), file=sys.stderr, flush=True)
        sys.exit(130)
    if code is None:
        from banco.cli.main import main as group

        group()
    else:
        sys.exit(code)


if __name__ == "__main__":
    main()
