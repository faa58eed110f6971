"""The built-in editions and rule sets as the package ships them: each TOML file (the source,
edited by hand) with a JSON twin beside it, which is what a command reads.

Every command reads its game's edition and rule set.  tomllib is pure Python and the TOML
parse of an edition, with tomllib's own import, was about 7 ms of a cold `banco state` (some
55 ms in all); the standard library's JSON parser, in C and already imported, reads the twin
in a fraction of a millisecond (docs/performance.md).  A user's own house-rules file stays
TOML, read by tomllib.

    python -m banco.ledger.board.builtin_data      # write every twin again from its TOML

tests/test_builtin_data.py fails while a twin says anything else than its TOML.
"""

from __future__ import annotations

import json
import os

DATA = os.path.join(os.path.dirname(__file__), "data")


def twin_of(toml_path: str) -> str:
    return toml_path[:-len(".toml")] + ".json"


def read_builtin(toml_path: str) -> dict:
    """A built-in data file's content: its JSON twin, or the TOML where no twin is shipped."""
    try:
        with open(twin_of(toml_path), encoding="utf-8") as f:
            return json.load(f)
    except FileNotFoundError:
        return parse_toml(toml_path)


def parse_toml(toml_path: str) -> dict:
    import tomllib

    with open(toml_path, encoding="utf-8") as f:
        return tomllib.loads(f.read())


def builtin_files() -> list[str]:
    import glob

    return sorted(glob.glob(os.path.join(DATA, "*", "*.toml")))


def twin_text(toml_path: str) -> str:
    """What the twin of `toml_path` holds: its TOML as JSON, keys in the file's order."""
    return json.dumps(parse_toml(toml_path), ensure_ascii=False, indent=1) + "\n"


def main() -> None:
    for path in builtin_files():
        with open(twin_of(path), "w", encoding="utf-8") as f:
            f.write(twin_text(path))
        print(os.path.relpath(twin_of(path)))


if __name__ == "__main__":
    main()
