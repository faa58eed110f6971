"""The examples of README.md, README.it.md and every page of the manual (docs/*.md) are real
output: this script runs them and writes (or checks) what they print.

A fenced ```text block right after a comment `<!-- banco: NAME -->` is live: every line that
starts with `$ ` is a shell command, run in a scratch folder holding a copy of fixtures/ (so
`banco run fixtures/...` works), with `banco` on the PATH, BANCO_DB=NAME.db, a fixed clock and
time zone; the lines after it, up to the next `$ ` line, are its output.  Blocks with the same
NAME share a database, in the order they appear in one file (each file has a scratch folder
of its own, so a page's tour starts from nothing).  A command's own `# comment` is kept.  Lines
of a block starting with `...` are kept as they are, and the output of the command before it
is cut there (for long output shown in part).

    python tests/tools/readme.py            # rewrite the live blocks of the READMEs and docs/
    python tests/tools/readme.py --check    # exit 1 and show the diff of every stale file
    python tests/tools/readme.py docs/referee.md   # one file

tests/test_readme.py runs the check: an example that no longer prints what its page says fails
the test run; rewriting is this script's job, reviewed like any other diff.
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MARK = re.compile(r"^<!-- banco: ([\w.-]+)(?: ([^>]*?))? -->$")
FIXED_TIME = "2026-11-29T21:00:00Z"


def banco_bin() -> str:
    here = Path(sys.executable).parent / "banco"
    return str(here) if here.exists() else (shutil.which("banco") or "banco")


def run(command: str, folder: Path, db: str, extra_env: dict) -> list[str]:
    env = {**os.environ, "BANCO_DB": f"{db}.db", "BANCO_FIXED_TIME": FIXED_TIME,
           "TZ": "Europe/Rome", "COLUMNS": "100", "BANCO_HISTORY": "",
           "PATH": f"{Path(banco_bin()).parent}{os.pathsep}{os.environ.get('PATH', '')}",
           **extra_env}
    env.pop("BANCO_LANG", None)
    env.setdefault("LANG", "C.UTF-8")
    done = subprocess.run(["/bin/bash", "-c", command], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=120)
    text = done.stdout + done.stderr
    return text.rstrip("\n").splitlines() if text.strip() else []


def render(text: str, folder: Path) -> str:
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        out.append(line)
        m = MARK.match(line)
        if not m or i + 1 >= len(lines) or not lines[i + 1].startswith("```"):
            i += 1
            continue
        db = m.group(1)
        extra = dict(kv.split("=", 1) for kv in (m.group(2) or "").split() if "=" in kv)
        out.append(lines[i + 1])
        i += 2
        block: list[str] = []
        while i < len(lines) and not lines[i].startswith("```"):
            block.append(lines[i])
            i += 1
        out.extend(render_block(block, folder, db, extra))
        # the closing fence
    return "\n".join(out)


def render_block(block: list[str], folder: Path, db: str, extra: dict) -> list[str]:
    out: list[str] = []
    j = 0
    while j < len(block):
        line = block[j]
        if not line.startswith("$ "):
            j += 1
            continue
        out.append(line)
        command = line[2:]
        # what follows, up to the next command: `...` keeps a cut; blank lines between
        # commands are kept as separators
        k = j + 1
        cut = None
        while k < len(block) and not block[k].startswith("$ "):
            if block[k].startswith("...") and cut is None:
                cut = k
            k += 1
        printed = run(command, folder, db, extra)
        if cut is not None:
            shown = cut - (j + 1)
            out.extend(printed[:shown])
            out.extend(block[cut:k])
        else:
            out.extend(printed)
            if k < len(block) and block[k - 1] == "":
                out.append("")
        j = k
    return out


def documents() -> list[str]:
    """Every file whose live blocks are kept true: the two READMEs and the manual's pages."""
    pages = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").glob("*.md"))
    return ["README.md", "README.it.md", *pages]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true")
    parser.add_argument("files", nargs="*")
    args = parser.parse_args()
    args.files = args.files or documents()
    stale = 0

    def rendered(name: str) -> tuple[str, str]:
        text = (ROOT / name).read_text(encoding="utf-8")
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            shutil.copytree(ROOT / "fixtures", folder / "fixtures")
            return text, render(text, folder)

    # The files are independent (each its own scratch folder): rendered side by side, since
    # their time is spent waiting for `banco` processes; four at a time, as a file without a
    # live block costs nothing and more would only queue for the cores.
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=min(4, len(args.files))) as pool:
        results = list(pool.map(rendered, args.files))
    for name, (text, new) in zip(args.files, results, strict=True):
        path = ROOT / name
        if new == text:
            print(f"{name}: up to date")
            continue
        if args.check:
            stale += 1
            sys.stdout.writelines(difflib.unified_diff(
                text.splitlines(True), new.splitlines(True), f"{name} (as written)",
                f"{name} (as banco prints it)"))
        else:
            path.write_text(new, encoding="utf-8")
            print(f"{name}: rewritten: review `git diff {name}`")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
