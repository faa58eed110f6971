"""`banco state`, typed after every command, answered without click.

Building the click group costs a cold process more than reading and folding the table does
(click, and the inspect, uuid, datetime and threading it imports: about a third of a cold
`state`; docs/performance.md).  So the plain forms of `state` are read here first:

    banco [--db FILE] [--game N] [--lang it|en] state|stato [--json] [--lang it|en]

(each option at most once; `--db` and `--game` before the word, as the group takes them, or
from BANCO_DB).  Anything else -- help, `--at`, an option this does not know, a value click
would refuse or read otherwise -- is the click group's (cli/main.py), as is any trouble met on
the way: no database, no game, a damaged file, a warning about the environment.  Nothing is
printed here until the whole answer is in hand, so that the group, starting again, says
everything once and in its own words; the answer, when given here, is the group's to the
byte (tests/test_quick.py compares them on every form and language).
"""

from __future__ import annotations

import os
import re
import sys

WORDS = ("state", "stato")
BEFORE = ("--db", "--game", "--lang")  # the group's options, before the command word
AFTER = ("--lang",)  # the command's own, besides --json
GAME = re.compile(r"[1-9][0-9]{0,17}")  # what click's int reads as the same number


class Plain:
    """A plain `state` line: where, which game, in which form (None: the latest unfinished)."""

    def __init__(self, db: str, game: int | None, as_json: bool):
        self.db, self.game, self.as_json = db, game, as_json


def plain_state(argv: list[str], environ=os.environ) -> Plain | None:
    """The line's options if it is one of the plain forms above; None for any other."""
    from banco.cli.words.i18n import supported

    given: dict[str, str] = {}
    word = as_json = False
    i = 0
    while i < len(argv):
        arg = argv[i]
        if not word and arg in WORDS:
            word, i = True, i + 1
            continue
        if word and arg == "--json" and not as_json:
            as_json, i = True, i + 1
            continue
        name, eq, value = arg.partition("=")
        if name not in (AFTER if word else BEFORE) or name in given:
            return None
        if not eq:
            if i + 1 == len(argv):
                return None
            value, i = argv[i + 1], i + 1
        given[name] = value
        i += 1
    if not word:
        return None
    if "--lang" in given and supported(given["--lang"]) != given["--lang"]:
        return None  # click's refusal of `--lang fr`, in its words
    banco_lang = environ.get("BANCO_LANG", "").strip()
    if banco_lang and not supported(banco_lang):
        return None  # the group warns of it
    db = given.get("--db", environ.get("BANCO_DB") or "banco.db")
    if not db.strip() or db.startswith("-") or "\0" in db or "://" in db:
        return None  # said by the group; a postgresql:// URL is its store's
    game = given.get("--game")
    if game is not None and not GAME.fullmatch(game):
        return None
    return Plain(db, None if game is None else int(game), as_json)


def quick_state(argv: list[str]) -> int | None:
    """Answer a plain `state` line (its exit code), or None: the click group is to answer."""
    plain = plain_state(argv)
    if plain is None:
        return None
    from banco.cli.words import i18n

    with i18n.speaking(argv):
        said = _answer(plain)
        if said is None:
            return None
        warnings, text = said
        for message in warnings:
            print(i18n.say(message), file=sys.stderr, flush=True)
        _write(text)
    return 0


def _answer(plain: Plain) -> tuple[list, str] | None:
    """(the book's warnings, the answer) or None when anything but the plain answer came up."""
    warnings: list = []
    try:
        from banco.ledger.book import Book

        book = Book(plain.db, create=False, warn=warnings.append)
    except Exception:  # the group opens it again and says why it cannot
        return None
    try:
        game = book.current_game(plain.game)
        table = book.state(game)
        if plain.as_json:
            import json

            from banco.cli.words.table_text import state_document

            text = json.dumps(state_document(table), ensure_ascii=False, indent=2) + "\n"
        else:
            from banco.cli.words.table_lines import finished_line, last_line, turn_line
            from banco.cli.words.table_text import state_text

            lines = [state_text(table), turn_line(table)]
            last = last_line(book, game)
            if last:
                lines.append(last)
            if table.ended:
                lines.append(finished_line(book, game) or "")
            text = "\n".join(lines) + "\n"
    except Exception:  # a refusal, a damaged file, a bug: the group's to say, once
        return None
    finally:
        book.close()
    if "\x1b" in text:
        return None  # click strips a terminal's escapes from what is not a terminal
    return warnings, text


def _write(text: str) -> None:
    from banco.cli.output_errors import OUTPUT_ERRORS, cannot_write, quiet_stdout

    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:  # `banco state | head -1`: the reader has gone, no error
        quiet_stdout()
    except OSError as exc:
        if exc.errno not in OUTPUT_ERRORS:
            raise
        cannot_write(exc)
