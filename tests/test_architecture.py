"""The house's shape, guarded: the import contracts (pyproject.toml's [tool.importlinter]: the
layers cli > projections > ledger and the packages inside each, no circle between sibling
modules), no module importing another's private name, no file over 600 lines.  A new circle or
an import running back up fails here, in the default test run."""

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("ledger", "projections", "cli")
LIMIT = 600


def sources():
    for package in PACKAGES:
        yield from sorted((ROOT / package).rglob("*.py"))


def module_of(path: Path) -> str:
    parts = ["banco", *path.relative_to(ROOT).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_the_import_contracts_hold():
    lint = Path(sys.executable).with_name("lint-imports")
    if not lint.exists():
        lint = shutil.which("lint-imports")
    assert lint, "import-linter is in the test extra: pip install '.[test]'"
    # the installed package `banco` (what the suite tests), not the folders of this checkout
    done = subprocess.run([str(lint), "--config", str(ROOT / "pyproject.toml"), "--no-cache"],
                          cwd=ROOT.parent, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout, done.stdout


def test_no_module_imports_a_private_name_of_another():
    found = []
    for path in sources():
        here = module_of(path)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and not node.level \
                    and node.module.split(".")[0] == "banco" and node.module != here:
                for alias in node.names:
                    # `_` is gettext's marker by convention, not a private name
                    if alias.name.startswith("_") and alias.name != "_" \
                            and not alias.name.startswith("__"):
                        found.append(f"{path.relative_to(ROOT)}:{node.lineno} "
                                     f"{node.module}.{alias.name}")
    assert found == []


def test_no_file_is_over_600_lines():
    long = {str(p.relative_to(ROOT)): n for p in sources()
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > LIMIT}
    assert long == {}


@pytest.mark.parametrize("package", PACKAGES)
def test_every_package_says_what_it_holds(package):
    missing = [str(p.relative_to(ROOT)) for p in (ROOT / package).rglob("__init__.py")
               if not ast.get_docstring(ast.parse(p.read_text(encoding="utf-8")))]
    assert missing == []


def test_no_module_is_loaded_by_name():
    """The import contracts see only imports written as imports: a module loaded by a string
    (importlib.import_module, __import__, a "module:function" table) would dodge them."""
    found = []
    for path in sources():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            name = (node.func.attr if isinstance(node.func, ast.Attribute) else
                    getattr(node.func, "id", "")) if isinstance(node, ast.Call) else ""
            if name in ("import_module", "__import__"):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == []
