"""README's examples are what banco prints: the live blocks (see tests/tools/readme.py) are run
again and compared.  The test never rewrites README.md; `python tests/tools/readme.py` does, and
its diff is reviewed like any other change."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_readme_examples_print_what_readme_says():
    done = subprocess.run([sys.executable, str(ROOT / "tests" / "tools" / "readme.py"), "--check"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, ("README.md's or README.it.md's examples no longer print what it says "
                                  "(python tests/tools/readme.py rewrites them):\n" + done.stdout
                                  + done.stderr)



@pytest.mark.parametrize("name", ["README.md", "README.it.md"])
def test_readme_links_only_to_files_in_the_repository(name):
    import re

    text = (ROOT / name).read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)]+)\)", text):
        assert not target.startswith(("/", "..")) and "shared/" not in target, target
        if not target.startswith(("http://", "https://", "#")):
            assert (ROOT / target.split("#")[0]).exists(), f"README links to a missing {target}"
