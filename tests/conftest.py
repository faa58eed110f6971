import signal
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

# cli/main.py hands its click group to the shell and `run` as it is defined: a test that runs
# a line through them without `banco` itself has it defined here first
from banco.cli import main as _defines_the_group  # noqa: F401

sys.path.insert(0, str(Path(__file__).parent))

# PYTHONDONTWRITEBYTECODE (set on the shared machine) also stops pytest keeping the test modules
# it rewrites for their asserts: each worker rewrote all of them on every run, 8 s of its CPU
# (three quarters of collecting).  Kept under .pytest_cache instead, never beside the sources;
# the processes the tests start still write none.
if sys.dont_write_bytecode:
    sys.pycache_prefix = str(Path(__file__).resolve().parents[1] / ".pytest_cache" / "pycache")
    sys.dont_write_bytecode = False

# Fixtures several test files share, each built once a worker: the exported four-player game
# (tests/exchange_files.py) and the database the integrity tests tamper with a copy of
# (tests/integrity_files.py).
pytest_plugins = ("exchange_files", "integrity_files")

# A test run started in the background (`.ci/run &` from a script) inherits SIGINT ignored, and
# so would every `banco` it starts: the Ctrl-C tests would find their Ctrl-C never arrives.
# With a handler here, each child starts with SIGINT as a terminal gives it.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(scope="session", autouse=True)
def own_home(tmp_path_factory):
    """The user's folders banco writes in (a PostgreSQL database's tokens' key under
    $XDG_CONFIG_HOME/banco/token-keys/, the shell's history under $XDG_DATA_HOME/banco/) are
    the run's own: CI left a key file in root's ~/.config/banco/token-keys/ for every database
    the PostgreSQL tests made (issue 32's note).  Set in os.environ, so that every `banco` a
    test starts inherits them (tests/test_own_home.py holds the run to it)."""
    base = tmp_path_factory.mktemp("home")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CONFIG_HOME", str(base / "config"))
        patch.setenv("XDG_DATA_HOME", str(base / "data"))
        yield base


LOCALE_VARS = ("BANCO_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


@pytest.fixture
def no_locale(monkeypatch):
    """No language in the environment (BANCO_LANG and the locale cleared): where the tests of
    the language's choice, and of Italian chosen by --lang, start from."""
    for var in LOCALE_VARS:
        monkeypatch.delenv(var, raising=False)


@pytest.fixture(autouse=True)
def english(monkeypatch):
    """The suite reads English whatever the machine's locale (tests/test_i18n.py clears this
    to check the choice itself)."""
    monkeypatch.setenv("BANCO_LANG", "en")


@pytest.fixture
def rome(monkeypatch):
    """The table's clock in Rome (UTC+1 in November): times read and printed as a table's."""
    import time

    monkeypatch.setenv("TZ", "Europe/Rome")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.fixture
def banco(tmp_path):
    """`banco` run through click's CliRunner on a fresh database; checks the exit code."""
    from banco.cli.main import cli

    runner = CliRunner()
    db = str(tmp_path / "t.db")

    def call(*args, code=0):
        # a test naming its own file gives it alone: two --db are refused (exit 2)
        given = [] if "--db" in args else ["--db", db]
        result = runner.invoke(cli, [*given, *args], catch_exceptions=False)
        assert result.exit_code == code, (args, result.output)
        return result

    call.db = db
    return call


# The files that take longest, heaviest first (a full run's durations on a quiet machine,
# 2026-12-06 15:50, main at ec0781c: 296 s of wall, the three workers' shares within 11 s of
# each other): started first, so that no worker is handed one of them at the end while the
# other idles.  pytest-xdist hands out whole files in collection order (pyproject.toml's
# addopts: --dist loadfile --no-loadscope-reorder; its own reorder, by number of tests, sent a
# file of one long test, such as the machine's, last).  A file missing here only runs in its
# usual place.
LONGEST_FIRST = (
    "test_readme.py", "test_phones_browser.py", "test_phones_evening_browser.py",
    "test_tamper_suite.py", "test_read_model.py", "test_streamed_readings.py",
    "test_postgres_read_model.py", "test_subprocess.py", "test_machine.py", "test_fuzz_cli.py",
    "test_books.py", "test_postgres_serve.py", "test_copy.py", "test_postgres_referee.py",
    "test_serve.py", "test_trial_faults.py", "test_subprocess_signals.py",
    "test_serve_tokens.py", "test_phones_screens_browser.py", "test_integrity_doctor.py",
    "test_phones_console_browser.py", "test_integrity.py", "test_store_postgres.py",
    "test_progress.py",
)


def pytest_collection_modifyitems(items):
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # stable: the rest as found
