"""The house's shape, guarded: the import contracts (pyproject.toml's [tool.importlinter]: the
layers cli > projections > ledger and the packages inside each, no circle between sibling
modules), no module importing another's private name, no file over 600 lines, nothing
capturing stdout, no click below the command line's adapter.  A new circle or an import
running back up fails here, in the default test run."""

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
    # the installed package `banco` (what the suite tests), not the folders of this checkout:
    # so it must be this checkout's, or a contract broken here would pass on an older copy
    assert stale_installed() == [], "reinstall: pip install --no-deps ."
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


def stale_installed() -> list[str]:
    """The checkout's modules whose installed copy differs or is missing."""
    import banco

    installed = Path(banco.__file__).parent
    # cli/face.py is installed as `banco` itself (pyproject's force-include)
    where = {ROOT / "cli" / "face.py": installed / "__init__.py"}
    return [str(p.relative_to(ROOT)) for p in sources()
            if not (copy := where.get(p, installed / p.relative_to(ROOT))).exists()
            or copy.read_bytes() != p.read_bytes()]


# the ways to reach a module by a string: a name imported or called, or a module imported
BY_NAME = {"import_module", "__import__", "resolve_name", "find_spec", "spec_from_file_location",
           "module_from_spec", "load_module", "exec_module"}
BY_NAME_MODULES = {"importlib", "pkgutil", "runpy", "imp", "zipimport"}
# importlib's parts that read files or metadata, not modules
HARMLESS = {"importlib.resources", "importlib.metadata"}


def loaded_by_name(tree: ast.AST) -> list[int]:
    """The lines of a module that load (or could load) another module by a string."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
            if any(n.split(".")[0] in BY_NAME_MODULES and n not in HARMLESS for n in names):
                found.append(node.lineno)
        elif isinstance(node, ast.ImportFrom) and not node.level:
            module = node.module or ""
            if module.split(".")[0] in BY_NAME_MODULES and module not in HARMLESS and not (
                    module == "importlib"
                    and all(f"importlib.{a.name}" in HARMLESS for a in node.names)):
                found.append(node.lineno)
        elif isinstance(node, (ast.Name, ast.Attribute)):
            if (node.id if isinstance(node, ast.Name) else node.attr) in BY_NAME:
                found.append(node.lineno)
        elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) \
                and node.value.attr == "modules" and not (
                    isinstance(node.slice, ast.Name) and node.slice.id == "__name__"):
            found.append(node.lineno)  # sys.modules["banco.x"]; its own module is no other
        elif isinstance(node, ast.Call) and getattr(node.func, "id", "") == "getattr" \
                and node.args and getattr(node.args[0], "id", "") in BY_NAME_MODULES:
            found.append(node.lineno)  # getattr(importlib, "import_module")
    return found


def test_no_module_is_loaded_by_name():
    """The import contracts see only imports written as imports: a module loaded by a string
    (importlib.import_module under any alias, __import__, pkgutil.resolve_name, sys.modules[..],
    a "module:function" table) would dodge them."""
    found = [f"{path.relative_to(ROOT)}:{line}" for path in sources()
             for line in loaded_by_name(ast.parse(path.read_text(encoding="utf-8")))]
    assert found == []


@pytest.mark.parametrize("source", [
    "import importlib\nimportlib.import_module('banco.cli.main')",
    "from importlib import import_module as load\nload('banco.cli.main')",
    "import pkgutil\npkgutil.resolve_name('banco.cli.main:cli')",
    "import sys\nsys.modules['banco.cli.main']",
    "import importlib as il\ngetattr(il, 'import_' + 'module')('x')",
    "__import__('banco.cli.main')",
    "import runpy",
])
def test_every_way_of_loading_by_name_is_seen(source):
    assert loaded_by_name(ast.parse(source)) != []


@pytest.mark.parametrize("source", [
    "from importlib import resources", "import importlib.metadata",
    "import sys\nsys.modules[__name__]", "from banco.cli import main",
])
def test_reading_files_or_its_own_module_is_not_loading_by_name(source):
    assert loaded_by_name(ast.parse(source)) == []


# --- the service: nothing captures, and no click below the command line's adapter ------------

# the click commands that live beside the server (`banco serve`, `banco token`): adapters
CLICK_COMMANDS_IN_WEB = {"serve.py", "tokens_cli.py"}


def below_the_adapter():
    """The modules that must not import click: the library, the words' parser and builders,
    the phones' server, and what the library reads a ruling with."""
    yield from sorted((ROOT / "ledger").rglob("*.py"))
    yield from sorted((ROOT / "projections").rglob("*.py"))
    yield ROOT / "cli" / "library.py"
    yield ROOT / "cli" / "ruling_log.py"
    yield ROOT / "cli" / "referees.py"
    yield from sorted((ROOT / "cli" / "lines").rglob("*.py"))
    yield from (p for p in sorted((ROOT / "cli" / "web").rglob("*.py"))
                if p.name not in CLICK_COMMANDS_IN_WEB)


def test_nothing_captures_stdout():
    """A line's words are rendered from its outcome (the library's Outcome.lines), never
    caught by redirecting the process's stdout or stderr: such a redirect is process-wide,
    needs a lock, and mixes two threads' words."""
    found = []
    for path in sources():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            name = (node.attr if isinstance(node, ast.Attribute) else
                    node.id if isinstance(node, ast.Name) else
                    " ".join(a.name for a in node.names) if isinstance(node, ast.ImportFrom)
                    else "")
            if "redirect_stdout" in name or "redirect_stderr" in name:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == []


def test_no_click_below_the_command_line_adapter():
    found = []
    for path in below_the_adapter():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            if any(n == "click" or n.startswith("click.") for n in names):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == []


def test_the_click_contract_names_every_module_below_the_adapter():
    """pyproject's forbidden contract keeps click out of these modules and out of every module
    they import; a module added below the adapter must be added to it too."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contract, = [c for c in config["tool"]["importlinter"]["contracts"]
                 if c["type"] == "forbidden" and "click" in c["forbidden_modules"]]
    named = set(contract["source_modules"])
    missing = [m for m in map(module_of, below_the_adapter())
               if m != "banco.cli.web" and not any(m == n or m.startswith(n + ".") for n in named)]
    assert missing == []


def test_the_library_and_the_server_run_lines_without_loading_click(tmp_path):
    """What they import, and what executing a line loads on the way (the words, the
    builders, a ruling, a refusal): no banco module that imports click is among them
    (sqlite-utils, a dependency, brings click itself: that one is not banco's)."""
    code = f"""
import sys
import banco
import banco.cli.web.app
book = banco.open({str(tmp_path / "g.db")!r}, create=True)
for line in ("new Anna Bruno", "roll 1 2", "buy", "correct Anna -40 --reason x --referee Rita",
             "ruling rent 99", "rol 1 2", "state", "buy Vicolo", "tira 3 4"):
    out = book.execute(line, lang="it")
    out.say("it"), out.say("en")
book.close()
print(" ".join(sorted(n for n, m in sys.modules.items()
                      if n.startswith("banco.") and getattr(m, "__file__", None))))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    loaded = [ROOT / Path(*name.split(".")[1:]) for name in out.stdout.split()]
    paths = [p.with_suffix(".py") if p.with_suffix(".py").exists() else p / "__init__.py"
             for p in loaded]
    clicking = [str(p.relative_to(ROOT)) for p in paths if p.exists() and any(
        isinstance(node, (ast.Import, ast.ImportFrom)) and "click" in (
            [a.name.split(".")[0] for a in node.names] if isinstance(node, ast.Import)
            else [(node.module or "").split(".")[0]])
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))))]
    assert len(paths) > 20 and clicking == []


def test_one_path_to_record_a_command_the_library():
    """A command is recorded by cli/library.py's execute whoever sends it: the command line's
    one-off `banco roll 3 4`, `correct`, `ruling --record`, `new` and `seal` too (click builds
    the typed command, cli/session.py's record hands it to the library).  No other module of
    cli/ calls a Book's execute, undo or start: two paths to the same book drift apart."""
    found = []
    for path in sorted((ROOT / "cli").rglob("*.py")):
        if path.name == "library.py" and path.parent.name == "cli":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr in ("execute", "undo", "start", "new_game") \
                    and isinstance(node.func.value, ast.Attribute) \
                    and node.func.value.attr in ("book", "_book"):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == []
