"""The message catalogs: extract every marked message, update the .po files, compile the .mo.

    python tests/tools/catalogs.py update    # new messages into cli/locale/*/banco.po
    python tests/tools/catalogs.py compile   # banco.po -> banco.mo (shipped as package data)

Babel does the extraction and the compiling (a build/test-time tool, not a run-time
dependency: banco reads the .mo with the standard library's gettext).  What it extracts:

- string literals given to the markers `_`, `N_`, `ngettext`, `NN_` (cli), `msg`, `plural`
  (ledger/text.py), and the first argument of `RuleViolation`, `UsageError`, `BancoError`,
  `DatabaseError`, `ConflictError` (ledger/errors.py: a refusal is a template and its params);
- click's help texts (commands' help and epilog, options' help), read from the commands
  themselves, since click takes them from docstrings and keyword arguments.

The English catalog holds each message as itself (as msginit does for English), so that
both catalogs can be checked alike: every message present, non-empty, same placeholders.
"""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "cli" / "locale"
LANGUAGES = ("en", "it")
SOURCES = ("ledger", "projections", "cli")

KEYWORDS = {
    "_": None, "N_": None, "ngettext": (1, 2), "NN_": (1, 2), "msg": None, "plural": (1, 2),
    "RuleViolation": None, "UsageError": None, "BancoError": None, "DatabaseError": None,
    "ConflictError": None,
}


def source_messages():
    """(msgid or (singular, plural), where) for every marked literal in the package."""
    from babel.messages.extract import extract_python

    for package in SOURCES:
        for path in sorted((ROOT / package).rglob("*.py")):
            with open(path, "rb") as f:
                for lineno, _funcname, messages, _comments in extract_python(
                        f, KEYWORDS, [], {}):
                    if isinstance(messages, tuple):
                        if messages[0] is None:
                            continue  # not a literal: a Text made elsewhere
                        if len(messages) >= 2 and messages[1] is not None and \
                                _funcname in ("ngettext", "NN_", "plural"):
                            yield (messages[0], messages[1]), f"{package}/{path.name}:{lineno}"
                            continue
                        messages = messages[0]
                    if messages:
                        yield messages, f"{path.relative_to(ROOT)}:{lineno}"


def help_messages():
    """Every help text click shows: the group's, each command's and each option's."""
    import inspect

    sys.path.insert(0, str(ROOT))
    import click

    from cli.main import COMMANDS, cli

    def texts(command, where):
        for attr in ("help", "short_help", "epilog"):
            text = getattr(command, attr, None)
            if text:
                yield inspect.cleandoc(text).partition("\f")[0], where
        for p in command.params:
            if getattr(p, "help", None):
                yield inspect.cleandoc(p.help), f"{where} {p.opts[0]}"
        if isinstance(command, click.Group) and command is not cli:
            for name, sub in command.commands.items():
                yield from texts(sub, f"{where} {name}")

    yield from texts(cli, "banco")
    ctx = click.Context(cli)
    for name in sorted(COMMANDS):
        yield from texts(cli.get_command(ctx, name), f"banco {name}")


def extract():
    from babel.messages.catalog import Catalog

    catalog = Catalog(project="banco", version="0.1.0", charset="utf-8")
    for message, where in [*source_messages(), *help_messages()]:
        path, _, line = where.rpartition(":")
        location = (path, int(line)) if line.isdigit() else (where, 0)
        catalog.add(message, locations=[location])
    return catalog


def po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / "banco.po"


def read_po(lang: str):
    from babel.messages.pofile import read_po

    with open(po_path(lang), "rb") as f:
        return read_po(f, locale=lang)


def update() -> None:
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import write_po

    template = extract()
    for lang in LANGUAGES:
        path = po_path(lang)
        if path.exists():
            catalog = read_po(lang)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            catalog = Catalog(locale=lang, project="banco", version="0.1.0", charset="utf-8")
        catalog.update(template, no_fuzzy_matching=True)
        if lang == "en":  # English says each message as written
            for m in catalog:
                if m.id and not _filled(m.string):
                    m.string = m.id
        catalog.obsolete.clear()
        catalog.fuzzy = False
        with open(path, "wb") as f:
            write_po(f, catalog, width=100, omit_header=False, sort_output=True,
                     include_previous=False)
        print(f"{path.relative_to(ROOT)}: {len(catalog)} messages, "
              f"{sum(1 for m in catalog if m.id and not _filled(m.string))} untranslated")


def _filled(string) -> bool:
    if isinstance(string, (tuple, list)):
        return all(string)
    return bool(string)


def compiled(lang: str) -> bytes:
    """The .mo that the .po compiles to (Babel's write_mo: deterministic for a given .po)."""
    from babel.messages.mofile import write_mo

    out = io.BytesIO()
    write_mo(out, read_po(lang), use_fuzzy=False)
    return out.getvalue()


def compile_all() -> None:
    for lang in LANGUAGES:
        mo = po_path(lang).with_suffix(".mo")
        mo.write_bytes(compiled(lang))
        print(f"{mo.relative_to(ROOT)}: {mo.stat().st_size} bytes")


if __name__ == "__main__":
    os.chdir(ROOT)
    what = sys.argv[1] if len(sys.argv) > 1 else ""
    if what == "update":
        update()
    elif what == "compile":
        compile_all()
    else:
        sys.exit(__doc__)
