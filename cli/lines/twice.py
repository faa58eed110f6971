"""An option that takes one value, given twice with two values: the one check of the command
line (cli/usage_checks.py, over click's parameters) and of a line the library reads
(cli/lines/parse.py's shape).  A module of its own, light: the command line calls it on
every line, and a reading (`state`) must not import the lines' commands to do so (the cold
start's budget, tests/test_cli_speedy.py)."""

from __future__ import annotations

from banco.ledger.base.errors import UsageError


def given_twice(words: list[str], single: dict[str, str],
                typed: list[str] | None = None) -> UsageError | None:
    """The first option that takes one value given twice with two values (`--game 1 --game
    2`, `roll 1 2 -p Anna --player Bea`), or None: click keeps the last without a word, and a
    line would go to another game, file or player than the banker read on it.  `words` with
    their options in English (english_option_words), `typed` one for one as typed (the
    option is named so); `single`: each name of an option that takes one value -> one key for
    all its names.  The one check of the command line (cli/usage_checks.py, over click's
    parameters) and of a line read here (shape)."""
    typed = words if typed is None else typed
    seen: dict[str, tuple[str, str]] = {}
    i = 0
    while i < len(words):
        a, shown = words[i], typed[i]
        if a == "--":
            break
        # `--player=Anna`; a short option's `=` is its value's, as click reads it (`-p=Anna`)
        name, eq, value = a.partition("=") if a.startswith("--") else (a, "", "")
        shown = shown.partition("=")[0] if a.startswith("--") else shown
        if not a.startswith("--") and a not in single and a[:2] in single:
            name, eq, value = a[:2], "=", a[2:]  # `-pAnna`
            shown = name
        key = single.get(name.lower() if name.startswith("--") else name)
        if key is None:
            i += 1
            continue
        if not eq:
            value = words[i + 1] if i + 1 < len(words) else ""
            i += 1
        i += 1
        if key in seen and seen[key][1] != value:
            return UsageError("{option} is given twice, {first} and {second}: give it once "
                              "(the last would be taken without a word)", option=seen[key][0],
                              first=seen[key][1], second=value)
        seen.setdefault(key, (shown, value))
    return None
