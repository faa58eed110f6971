"""The message catalogs: extract every marked message, update the .po files, compile the .mo.

    python tests/tools/catalogs.py update    # new messages into cli/words/locale/*/banco.po
    python tests/tools/catalogs.py compile   # banco.po -> banco.mo (shipped as package data)
    python tests/tools/catalogs.py check     # what tests/test_i18n.py checks, as a list
    python tests/tools/catalogs.py merge     # during a `git merge` that conflicts on them

Adding a message: write it in English in the code through a marker (below), run `update`,
give its Italian in cli/words/locale/it/LC_MESSAGES/banco.po (the msgstr left empty; the English
catalog fills itself), run `compile`, commit the .po and .mo.  tests/test_i18n.py fails
while a marked message has no translation or the .mo does not match its .po.

Babel does the extraction and the compiling (a build/test-time tool, in the `test` extra,
not a run-time dependency: banco reads the .mo with the standard library's gettext).  What
it extracts:

- string literals given to the markers `_`, `N_`, `ngettext`, `NN_`, `pgettext`, `NP_` (cli),
  `msg`, `plural` (ledger/base/text.py), and the first argument of `RuleViolation`, `UsageError`,
  `BancoError`, `DatabaseError`, `ConflictError`, `UnknownName`, `NoDatabase`
  (ledger/base/errors.py: a refusal is a template and its params), `ExportRefused`,
  `ImportRefused` (projections/exchange/exchange.py); `_('...')` inside an f-string (a table
  heading) too;
- click's help texts (commands' help and epilog, options' help), read from the commands
  themselves, since click takes them from docstrings and keyword arguments.

The English catalog holds each message as itself (as msginit does for English), so that
both catalogs can be checked alike: every message present, non-empty, same placeholders.
"""

from __future__ import annotations

import ast
import io
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "cli" / "words" / "locale"
LANGUAGES = ("en", "it")
SOURCES = ("ledger", "projections", "cli")

KEYWORDS = {
    "_": None, "N_": None, "ngettext": (1, 2), "NN_": (1, 2), "msg": None, "plural": (1, 2),
    "RuleViolation": None, "UsageError": None, "BancoError": None, "DatabaseError": None,
    "ConflictError": None, "UnknownName": None, "NoDatabase": None,
    "ExportRefused": None, "ImportRefused": None, "pgettext": ((1, "c"), 2), "NP_": ((1, "c"), 2),
    "word": ((1, "c"), 2), "_say": None,
}
CONTEXT_MARKERS = ("pgettext", "NP_", "word")
# `_('pos')` inside an f-string, which Babel's extractor skips
FSTRING_CALL = re.compile(r"""\b_\(\s*(['"])((?:\\.|(?!\1).)+)\1\s*\)""")
# projections/readings/report.py's `_say(tr, "...")` (a message of the page), in an f-string or not
SAY_CALL = re.compile(r"""\b_say\(\s*tr\s*,\s*(['"])((?:\\.|(?!\1).)+)\1\s*[,)]""")


def source_messages():
    """(msgid or (singular, plural), where, context) for every marked literal in the
    package."""
    from babel.messages.extract import extract_python

    for package in SOURCES:
        for path in sorted((ROOT / package).rglob("*.py")):
            where = str(path.relative_to(ROOT))
            with open(path, "rb") as f:
                for lineno, funcname, messages, _comments in extract_python(
                        f, KEYWORDS, [], {}):
                    context = None
                    if isinstance(messages, tuple) and funcname == "_say":
                        messages = messages[1] if len(messages) > 1 else None  # _say(tr, "...")
                    if isinstance(messages, tuple):
                        if funcname in CONTEXT_MARKERS:
                            if len(messages) < 2 or None in messages[:2]:
                                continue
                            context, messages = messages[0], messages[1]
                        elif messages[0] is None:
                            continue  # not a literal: a Text made elsewhere
                        elif len(messages) >= 2 and messages[1] is not None and \
                                funcname in ("ngettext", "NN_", "plural"):
                            yield (messages[0], messages[1]), f"{where}:{lineno}", None
                            continue
                        else:
                            messages = messages[0]
                    if messages:
                        yield messages, f"{where}:{lineno}", context
            text = path.read_text(encoding="utf-8")
            yield from _nested(text, where)
            for match in [*FSTRING_CALL.finditer(text), *SAY_CALL.finditer(text)]:
                lineno = text.count("\n", 0, match.start()) + 1
                yield ast.literal_eval(match.group(1) + match.group(2) + match.group(1)), \
                    f"{where}:{lineno}", None


# Markers whose first argument is the message (a literal), looked for by the AST as well:
# Babel's extractor skips a marker inside another marker's arguments
# (`RuleViolation(msg("nobody is in debt") if ... else ..., allowed=msg("..."))`), and those
# messages stayed English in Italian.
NESTED = {k for k, v in KEYWORDS.items() if v is None and k != "_say"}


def _nested(text: str, where: str):
    tree = ast.parse(text)
    outer: set[int] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = (node.func.id if isinstance(node.func, ast.Name) else
                node.func.attr if isinstance(node.func, ast.Attribute) else None)
        if name not in NESTED:
            continue
        for inner in ast.walk(node):
            if inner is not node and isinstance(inner, ast.Call):
                outer.add(id(inner))
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and id(node) in outer):
            continue
        name = (node.func.id if isinstance(node.func, ast.Name) else
                node.func.attr if isinstance(node.func, ast.Attribute) else None)
        if name in NESTED and node.args and isinstance(node.args[0], ast.Constant) \
                and isinstance(node.args[0].value, str) and node.args[0].value:
            yield node.args[0].value, f"{where}:{node.lineno}", None


def help_messages():
    """Every help text click shows: the group's, each command's and each option's."""
    import inspect

    sys.path.insert(0, str(ROOT))
    import click

    from banco.cli.main import COMMANDS, cli

    def english(obj, attr):
        # a command shown earlier in this process (a test) may hold its help in Italian:
        # cli/words/i18n.py's localize keeps the English aside
        kept = getattr(obj, "_banco_english", None)
        return kept[attr] if kept and attr in kept else getattr(obj, attr, None)

    def texts(command, where):
        for attr in ("help", "short_help", "epilog"):
            text = english(command, attr)
            if text:
                yield inspect.cleandoc(text).partition("\f")[0], where, None
        for p in command.params:
            text = english(p, "help")
            if text:
                yield inspect.cleandoc(text), f"{where} {p.opts[0]}", None
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
    for message, where, context in [*source_messages(), *help_messages()]:
        path, _, line = where.rpartition(":")
        location = (path, int(line)) if line.isdigit() else (where, 0)
        known = catalog.get(message, context=context)
        if known is not None:
            known.locations.append(location)
        else:
            catalog.add(message, locations=[location], context=context)
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

    for lang in LANGUAGES:
        template = extract()  # afresh: Catalog.update shares the template's messages
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


def placeholders(text: str) -> set[str]:
    """The `{name}`s of a template, with their conversion and format (`{name!r}`, `{n:>3}`)."""
    import string

    found = set()
    for _literal, field, spec, conversion in string.Formatter().parse(text):
        if field is not None:
            found.add(f"{field}!{conversion or ''}:{spec or ''}")
    return found


def problems(lang: str, template=None) -> list[str]:
    """Every marked message the catalog of `lang` lacks, leaves empty or says with other
    placeholders than the English; and entries no longer in the code."""
    template = template or extract()
    catalog = read_po(lang)
    found = []
    for m in template:
        if not m.id:
            continue
        entry = catalog.get(m.id, context=m.context)
        name = repr(m.id if isinstance(m.id, str) else m.id[0])
        if m.context:
            name += f" (context {m.context!r})"
        if entry is None:
            found.append(f"{lang}: {name} is not in the catalog (run `update`)")
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        if entry.fuzzy or not strings or not all(strings):
            found.append(f"{lang}: {name} has no translation")
            continue
        for text in strings:
            # a plural's singular may say "one" instead of {n}; every other name must be there
            wanted = set().union(*(placeholders(i) for i in ids))
            got = placeholders(text)
            if got - wanted or (len(ids) == 1 and got != wanted):
                found.append(f"{lang}: {name} is said with {sorted(got)}, the English with "
                             f"{sorted(wanted)}: {text!r}")
    for m in catalog:
        if m.id and template.get(m.id, context=m.context) is None:
            found.append(f"{lang}: {m.id!r} is in the catalog but no longer in the code "
                         "(run `update`)")
    return found


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


def _staged_po(stage: int, lang: str):
    """The catalog at a stage of a conflicted merge (1 base, 2 ours, 3 theirs), or None."""
    import subprocess

    from babel.messages.pofile import read_po as read

    rel = po_path(lang).relative_to(ROOT).as_posix()
    shown = subprocess.run(["git", "show", f":{stage}:{rel}"], cwd=ROOT, capture_output=True)
    return read(io.BytesIO(shown.stdout), locale=lang) if shown.returncode == 0 else None


def merge() -> None:
    """A three-way merge of each catalog, message by message: a translation one side changed
    from the base is that side's (theirs when both did), a message either side added is kept;
    then `update` (what the merged code marks) and `compile`.  Git's line merge cannot do this:
    two branches that each add messages conflict on the sorted file and the .mo is binary."""
    from babel.messages.pofile import write_po

    for lang in LANGUAGES:
        base, ours, theirs = (_staged_po(k, lang) for k in (1, 2, 3))
        if ours is None or theirs is None:
            continue  # not conflicted: git merged it, or it is one side's
        merged = ours
        for m in theirs:
            if not m.id:
                continue
            mine = merged.get(m.id, context=m.context)
            old = base.get(m.id, context=m.context) if base is not None else None
            if mine is None:
                merged[m.id] = m
            elif m.string and (old is None or m.string != old.string):
                mine.string = m.string
        with open(po_path(lang), "wb") as f:
            write_po(f, merged, width=100, omit_header=False, sort_output=True,
                     include_previous=False)
    update()
    compile_all()


if __name__ == "__main__":
    os.chdir(ROOT)
    what = sys.argv[1] if len(sys.argv) > 1 else ""
    if what == "update":
        update()
    elif what == "compile":
        compile_all()
    elif what == "merge":
        merge()
    elif what == "check":
        template = extract()
        listed = [p for lang in LANGUAGES for p in problems(lang, template)]
        listed += [f"{lang}: banco.mo does not match banco.po (run `compile`)"
                   for lang in LANGUAGES if po_path(lang).with_suffix(".mo").read_bytes()
                   != compiled(lang)]
        print("\n".join(listed) or "both catalogs complete and compiled")
        sys.exit(1 if listed else 0)
    else:
        sys.exit(__doc__)
