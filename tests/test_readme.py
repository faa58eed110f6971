"""The front door and the manual: README.md, README.it.md and every page of docs/.

Their examples are what banco prints: the live blocks (see tests/tools/readme.py) of every file
are run again and compared.  The test never rewrites a page; `python tests/tools/readme.py`
does, and its diff is reviewed like any other change.  The manual builds into a site with
`mkdocs build --strict` (mkdocs.yml), so a page left out of the navigation, a broken link or a
missing anchor fails here; and the READMEs stay a front door, short, reaching every page."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
READMES = ["README.md", "README.it.md"]
PAGES = sorted(p.name for p in (ROOT / "docs").glob("*.md"))


def test_examples_print_what_their_pages_say():
    done = subprocess.run([sys.executable, str(ROOT / "tests" / "tools" / "readme.py"), "--check"],
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, ("an example of the READMEs or of docs/ no longer prints what its "
                                  "page says (python tests/tools/readme.py rewrites them):\n"
                                  + done.stdout + done.stderr)


def test_every_page_is_checked_by_the_examples_tool():
    """The tool's default list is the READMEs and every page: a new page is checked unasked."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("readme_tool", ROOT / "tests" / "tools" / "readme.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    assert tool.documents() == READMES + [f"docs/{page}" for page in PAGES]


@pytest.mark.parametrize("name", READMES)
def test_readme_links_only_to_files_in_the_repository(name):
    text = (ROOT / name).read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)]+)\)", text):
        assert not target.startswith(("/", "..", "http://", "https://")), target
        assert "shared/" not in target, target
        if not target.startswith("#"):
            assert (ROOT / target.split("#")[0]).exists(), f"README links to a missing {target}"


@pytest.mark.parametrize("name", READMES)
def test_readme_is_a_front_door_that_reaches_every_page(name):
    """At most 300 lines; every page of the manual reached from it, through the pages' links."""
    text = (ROOT / name).read_text(encoding="utf-8")
    assert text.count("\n") <= 300, f"{name} has {text.count(chr(10))} lines: move a topic to docs/"
    links = re.compile(r"\]\(([^)#]+\.md)(?:#[^)]*)?\)")
    seen: set[str] = set()
    todo = [t[len("docs/"):] for t in links.findall(text) if t.startswith("docs/")]
    while todo:
        page = todo.pop()
        if page in seen:
            continue
        seen.add(page)
        todo.extend(links.findall((ROOT / "docs" / page).read_text(encoding="utf-8")))
    assert not set(PAGES) - seen, f"{name} does not reach {sorted(set(PAGES) - seen)}"


def test_the_manual_builds_in_strict_mode(tmp_path):
    try:
        import mkdocs  # noqa: F401
    except ImportError:
        if os.environ.get("CI") == "true":
            raise
        pytest.skip("mkdocs is not installed (pip install -e '.[test]')")
    # not --quiet: it drops the warnings that --strict counts
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict",
                           "--config-file", str(ROOT / "mkdocs.yml"),
                           "--site-dir", str(tmp_path / "site")],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    for page in PAGES:
        assert (tmp_path / "site" / page.removesuffix(".md")).exists() or page == "index.md", page
    assert (tmp_path / "site" / "index.html").exists()
    assert (tmp_path / "site" / "search" / "search_index.json").exists()
