"""docs/sources.md lists every rulebook section banco cites, and points nowhere outside the
repository (a user has only the repository)."""

import re
from pathlib import Path

ROOT = Path(__file__).parent.parent
DOC = ROOT / "docs" / "sources.md"
CODE = [p for d in ("ledger", "cli", "projections") for p in (ROOT / d).rglob("*")
        if p.suffix in (".py", ".toml")]

SECTION = re.compile(r"\b(00[0-4]) §([^\W\d_][\w'’]*)")
NUMBERED = re.compile(r"\b(003) §(\d\d)(?:-§(\d\d))?")
FAQ = re.compile(r"\b(000) FAQ (\d+)(?:\s*[-–]\s*(\d+))?")


def citations() -> set[str]:
    """Every `00N §Heading`, `003 §NN` and `000 FAQ N` in the code, ranges expanded."""
    found = set()
    for path in CODE:
        text = path.read_text(encoding="utf-8")
        for seed, word in SECTION.findall(text):
            found.add(f"{seed} §{word}")
        for seed, first, last in NUMBERED.findall(text):
            for n in range(int(first), int(last or first) + 1):
                found.add(f"{seed} §{n:02d}")
        for seed, first, last in FAQ.findall(text):
            for n in range(int(first), int(last or first) + 1):
                found.add(f"{seed} FAQ {n}")
    return found


def test_the_code_cites_the_rulebooks():
    cited = citations()
    assert {"004 §Prigione", "003 §04", "000 FAQ 29", "000 FAQ 33", "003 §10"} <= cited
    assert len(cited) >= 25


def test_every_cited_section_is_in_sources_md():
    listed = re.findall(r"^\| `([^`]+)`", DOC.read_text(encoding="utf-8"), re.M)
    listed += re.findall(r"^\| `[^`]+`, `([^`]+)`", DOC.read_text(encoding="utf-8"), re.M)
    # a heading may be cited by its first words (`004 §Soggiorno`)
    missing = sorted(c for c in citations()
                     if not any(entry == c or entry.startswith(c + " ") for entry in listed))
    assert not missing, f"cited in the code but not explained in docs/sources.md: {missing}"


def test_sources_names_each_rulebook_with_title_edition_and_year():
    text = DOC.read_text(encoding="utf-8")
    for seed in ("000", "001", "002", "003", "004"):
        row = re.search(rf"^\| {seed} \|(.+)$", text, re.M)
        assert row and len(row.group(1).split("|")) >= 4, seed
    assert "2015" in text and "Campionato Italiano Monopoly" in text


def test_docs_do_not_point_outside_the_repository():
    for path in (ROOT / "docs").rglob("*.md"):
        text = path.read_text(encoding="utf-8")
        assert "../" not in text and "/work/" not in text and "shared/" not in text, path
        for target in re.findall(r"\]\(([^)]+)\)", text):
            assert not target.startswith(("/", "..")), (path, target)
            if not target.startswith(("http://", "https://", "#")):
                assert (path.parent / target.split("#")[0]).exists(), (path, target)
