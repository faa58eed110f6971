"""The manual's way in: README links the manual's index, the index has a page for each reader
(a family, the banker, the referee, the organiser, in English and in Italian), and no page links
outside the repository or to a file or heading that is not there.  Plain Python, so it holds
where mkdocs (whose --strict build tests/test_readme.py runs) is not installed, and it sees the
READMEs, which the site leaves out."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = sorted(ROOT.glob("README*.md")) + sorted((ROOT / "docs").glob("*.md"))
INLINE = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", re.M)
HTML = re.compile(r"""\b(?:href|src)\s*=\s*["']([^"']+)["']""")
FENCE = re.compile(r"^```.*?^```", re.M | re.S)


def links(text: str) -> list[str]:
    prose = FENCE.sub("", text)  # an example's output may hold brackets and parentheses
    prose = re.sub(r"`[^`\n]*`", "", prose)
    return INLINE.findall(prose) + REFERENCE.findall(prose) + HTML.findall(prose)


def slug(heading: str) -> str:
    """A heading's anchor as the manual's toc makes it (Python-Markdown's default slugify)."""
    text = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    text = re.sub(r"[^\w\s-]", "", text).strip().lower()
    return re.sub(r"[-\s]+", "-", text)


def anchors(page: Path) -> set[str]:
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    return {slug(h) for h in re.findall(r"^#{1,6}\s+(.+?)\s*#*\s*$", text, re.M)}


def problems(page: Path, text: str | None = None) -> list[str]:
    """What is wrong with each link of `page` (its own text, or `text` as if it were there)."""
    found = []
    for target in links(page.read_text(encoding="utf-8") if text is None else text):
        where, _, anchor = target.partition("#")
        if re.match(r"[A-Za-z][A-Za-z0-9+.-]*:", target) or target.startswith("//"):
            found.append(f"{target}: outside the repository")
            continue
        if where.startswith("/"):
            found.append(f"{target}: an absolute path, which is no file of the repository")
            continue
        file = (page.parent / where).resolve() if where else page
        if not file.is_relative_to(ROOT):
            found.append(f"{target}: outside the repository")
        elif not file.exists():
            found.append(f"{target}: no such file")
        elif anchor and file.suffix == ".md" and anchor not in anchors(file):
            found.append(f"{target}: no heading #{anchor} in {file.relative_to(ROOT)}")
    return found


@pytest.mark.parametrize("page", DOCUMENTS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_link_leaves_the_repository_or_misses(page):
    assert not problems(page), f"{page.relative_to(ROOT)}: {problems(page)}"


def test_the_check_sees_a_link_out_a_missing_file_and_a_missing_heading():
    # the check itself, on a text read as if it were docs/index.md: each bad link is named
    text = ("[a](https://example.com/x) [b](../../etc/passwd) [c](missing.md) "
            "[d](banker.md#no-such-heading) [e](banker.md#safe-to-retry) ![f](/abs.png)\n"
            '<a href="http://example.com">g</a>\n[h]: https://example.com\n')
    found = [p.rsplit(": ", 1)[0] for p in problems(ROOT / "docs" / "index.md", text)]
    assert found == ["https://example.com/x", "../../etc/passwd", "missing.md",
                     "banker.md#no-such-heading", "/abs.png", "https://example.com",
                     "http://example.com"], found


@pytest.mark.parametrize("name", ["README.md", "README.it.md"])
def test_the_readme_leads_into_the_manual_by_its_index(name):
    assert "](docs/index.md)" in (ROOT / name).read_text(encoding="utf-8"), name


@pytest.mark.parametrize("reader, page", [
    ("a family", "phones-api.md"), ("the banker", "banker.md"), ("the referee", "referee.md"),
    ("the organiser", "organiser.md"), ("una famiglia", "telefoni.md"),
    ("il banchiere", "banchiere.md"), ("l'arbitro", "arbitro.md"),
    ("l'organizzatore", "organizzatore.md")])
def test_each_reader_finds_his_page_in_the_index(reader, page):
    # a row of the index's tables that starts with the reader and links his page, which exists
    rows = [line for line in (ROOT / "docs" / "index.md").read_text(encoding="utf-8").splitlines()
            if line.startswith(f"| {reader}")]
    assert any(f"]({page})" in row for row in rows), (reader, rows)
    assert (ROOT / "docs" / page).exists(), page
