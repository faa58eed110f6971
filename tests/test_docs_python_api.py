"""docs/python-api.md writes each call of the library as a stranger types it: the signatures it
shows in bold are the library's own, parameter for parameter, default for default (a keyword
the page shows as positional, or a parameter it leaves out, is a script that fails)."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

import banco
from banco.cli.library import Library

ROOT = Path(__file__).resolve().parents[1]


def written(text: str) -> str:
    """The page's signature as one line: `(db, *, create=False, wait=None)`."""
    return re.sub(r"\s+", " ", text).replace("( ", "(").strip()


def actual(function) -> str:
    """The function's signature as the page writes it: no annotations, no self."""
    parts, star = [], False
    for p in inspect.signature(function).parameters.values():
        if p.name == "self":
            continue
        if p.kind is p.KEYWORD_ONLY and not star:
            parts.append("*")
            star = True
        default = "" if p.default is p.empty else "=" + (
            f'"{p.default}"' if isinstance(p.default, str) else repr(p.default))
        parts.append(p.name + default)
    return "(" + ", ".join(parts) + ")"


@pytest.mark.parametrize("call, function", [
    ("banco.open", banco.open), ("book.execute", Library.execute),
    ("book.table", Library.table), ("book.rule", Library.rule), ("book.read", Library.read)])
def test_the_pages_signatures_are_the_librarys(call, function):
    text = (ROOT / "docs" / "python-api.md").read_text(encoding="utf-8")
    found = re.search(r"\*\*`" + re.escape(call) + r"(\([^`]*\))`\*\*", text)
    assert found, f"docs/python-api.md shows no **`{call}(...)`**"
    assert written(found.group(1)) == actual(function), (call, found.group(1))


def test_the_contract_block_runs_as_written(tmp_path, monkeypatch):
    """A trial ran the page's contract block as written: its roll was refused with code 5
    (`expect=41` on a new game).  Run in an empty folder, it records the roll."""
    page = (ROOT / "docs" / "python-api.md").read_text()
    block = page.split("## The contract", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    monkeypatch.chdir(tmp_path)
    run: dict = {}
    exec(compile(block, "python-api.md", "exec"), run)  # the page's own lines, nothing added
    out = run["out"]
    assert out.refusal is None and out.events and out.command is not None
    assert "Anna rolls 3+4 = 7" in out.say("en")
    done = run["done"]  # the Line read, then recorded as read
    assert done.refusal is None and done.command == run["read"].command
