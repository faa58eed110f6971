"""`banco state` answered without click (cli/quick.py): the same answer as the click group's,
to the byte, on every plain form, language and kind of game; anything else goes to the group,
which says it as before; and the plain line imports no click at all (the point of it: a cold
`state` at about 0.4x of `sqlite-utils tables`, docs/performance.md)."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from banco.cli.main import cli
from banco.cli.quick import plain_state, quick_state

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures"


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    """A file with a game under way (game 1) and one played to its end (game 2)."""
    db = str(tmp_path_factory.mktemp("quick") / "games.db")
    runner = CliRunner()
    for name in ("classic-4p", "classic-to-the-end"):
        done = runner.invoke(cli, ["--db", db, "run", "-q", "--fresh",
                                   str(FIXTURES / f"{name}.banco")])
        assert done.exit_code == 0, done.output
    return db


@pytest.fixture(autouse=True)
def one_clock(monkeypatch):
    """`last: ... (12 s ago)` read by two answers a second apart would differ: both read the
    clock that facts are recorded by (BANCO_FIXED_TIME), fixed."""
    monkeypatch.setenv("BANCO_FIXED_TIME", "2031-05-01T10:00:00Z")


def by_the_group(argv: list[str]) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, argv)
    return result.exit_code, result.stdout, result.stderr


def quickly(argv: list[str], capsys) -> tuple[int, str, str] | None:
    code = quick_state(argv)
    out, err = capsys.readouterr()
    if code is None:
        assert (out, err) == ("", "")  # nothing said before handing the line on
        return None
    return code, out, err


FORMS = [
    ["state"], ["stato"], ["state", "--json"], ["--game", "1", "state"], ["--game=2", "state"],
    ["--game", "2", "state", "--json"], ["--lang", "it", "state"], ["state", "--lang", "it"],
    ["--lang=it", "--game", "2", "stato", "--json"], ["state", "--lang=en"],
    ["--game", "1", "--lang", "it", "stato"],
]


@pytest.mark.parametrize("form", FORMS, ids=" ".join)
@pytest.mark.parametrize("where", ["option", "env"])
def test_a_plain_state_is_the_groups_answer_to_the_byte(games, form, where, monkeypatch, capsys):
    if where == "option":
        argv = ["--db", games, *form]
    else:
        monkeypatch.setenv("BANCO_DB", games)
        argv = form
    said = quickly(argv, capsys)
    assert said is not None, "a plain form went to the group"
    assert said == by_the_group(argv)
    assert said[1].strip()


@pytest.mark.parametrize("lang", ["it", "en"])
def test_the_language_of_the_environment_is_the_groups(games, lang, monkeypatch, capsys):
    monkeypatch.setenv("BANCO_LANG", lang)
    argv = ["--db", games, "--game", "2", "state"]
    said = quickly(argv, capsys)
    assert said == by_the_group(argv)
    assert ("partita finita" if lang == "it" else "game over") in said[1]


def test_a_warning_of_the_book_is_said_once_beside_the_answer(tmp_path, capsys):
    """A row edited under its chain: the table is still shown, with the book's warning on
    stderr, as the group says them."""
    db = str(tmp_path / "edited.db")
    assert CliRunner().invoke(cli, ["--db", db, "run", "-q", str(FIXTURES / "classic-4p.banco")]
                              ).exit_code == 0
    conn = sqlite3.connect(db)
    conn.execute("DROP TRIGGER events_no_update")
    conn.execute("UPDATE events SET actor='mallory' WHERE game_id=1 AND seq=("
                 "SELECT MAX(seq) FROM events WHERE game_id=1)")
    conn.commit()
    conn.close()
    argv = ["--db", db, "state"]
    said = quickly(argv, capsys)
    assert said is not None
    assert said == by_the_group(argv)
    assert said[2].startswith("WARNING: game 1 event ") and said[2].count("\n") == 1


@pytest.mark.parametrize("argv", [
    ["state", "--at", "5"], ["state", "--help"], ["--help"], ["state", "extra"], ["STATE"],
    ["--lang", "fr", "state"], ["--game", "0", "state"], ["--game", "\uff15", "state"],
    ["--game=-1", "state"], ["--game", "1x", "state"], ["--db", "", "state"],
    ["--db", "--json", "state"], ["--db", "postgresql://u@h/db", "state"],
    ["state", "--json", "--json"], ["--db", "a.db", "--db", "b.db", "state"],
    ["state", "--db", "x.db"], ["state", "--game", "1"], ["--game"], ["state", "--lang"],
    ["roll", "3", "4"], ["log"], [], ["--lang", "it", "--lang", "en", "state"],
])
def test_any_other_line_is_the_groups(argv):
    assert plain_state(argv, environ={}) is None


def test_a_banco_lang_banco_does_not_speak_is_the_groups_to_warn_of():
    assert plain_state(["state"], environ={"BANCO_LANG": "fr"}) is None
    assert plain_state(["state"], environ={"BANCO_LANG": "it_IT.UTF-8"}) is not None


def test_the_plain_form_reads_the_database_and_game_it_names():
    plain = plain_state(["--db=x.db", "--game", "12", "stato", "--json"], environ={})
    assert (plain.db, plain.game, plain.as_json) == ("x.db", 12, True)
    plain = plain_state(["state"], environ={"BANCO_DB": "y.db"})
    assert (plain.db, plain.game, plain.as_json) == ("y.db", None, False)
    assert plain_state(["state"], environ={"BANCO_DB": ""}).db == "banco.db"


@pytest.mark.parametrize("argv", [
    ["--db", "{missing}", "state"], ["--db", "{db}", "--game", "9", "state"],
    ["--db", "{notdb}", "state"],
])
def test_trouble_is_said_by_the_group_once(games, tmp_path, argv, capsys):
    """No database, no such game, a file that is no database: the quick path hands the line
    on having said nothing, and the group says it as always."""
    notdb = tmp_path / "notes.db"
    notdb.write_text("not a database\n" * 100)
    argv = [a.format(missing=tmp_path / "none.db", db=games, notdb=notdb) for a in argv]
    assert quickly(argv, capsys) is None
    code, out, err = by_the_group(argv)
    assert code in (2, 4) and out == "" and err.startswith("error: ")
    assert err.count("error: ") == 1 and "Traceback" not in err


def banco(*args: str, env=None) -> subprocess.CompletedProcess:
    """The installed `banco`, as a shell runs it."""
    exe = Path(sys.executable).with_name("banco")
    return subprocess.run([str(exe), *args], capture_output=True, text=True,
                          env={**os.environ, "BANCO_LANG": "en", **(env or {})})


def test_the_installed_banco_state_imports_no_click(games):
    probe = ("import sys\nsys.argv = ['banco', '--db', sys.argv[1], 'state']\n"
             "from banco.cli.entry import main\n"
             "try:\n    main()\nexcept SystemExit as exc:\n    code = exc.code\n"
             "print(code, sorted(m for m in sys.modules if m.split('.')[0] in "
             "('click', 'dataclasses', 'inspect', 'uuid', 'marshmallow', 'sqlite_utils')),"
             " file=sys.stderr)\n")
    done = subprocess.run([sys.executable, "-c", probe, games], capture_output=True, text=True,
                          env={**os.environ, "BANCO_LANG": "en"})
    assert done.stderr.strip() == "0 []"
    assert done.stdout.startswith("game 1 at event ")


def test_the_installed_banco_answers_and_fails_as_a_shell_sees_it(games, tmp_path):
    done = banco("--db", games, "--game", "2", "state")
    assert done.returncode == 0 and "head line for the score sheet" in done.stdout
    assert done.stderr == ""
    missing = banco("--db", str(tmp_path / "none.db"), "state")
    assert missing.returncode == 4 and missing.stdout == ""
    assert missing.stderr.startswith("error: ") and "Traceback" not in missing.stderr
    no_game = banco("--db", games, "--game", "9", "state")
    assert no_game.returncode == 2 and no_game.stderr.startswith("error: ")
    piped = subprocess.run(f"'{Path(sys.executable).with_name('banco')}' --db '{games}' state "
                           "| head -1", shell=True, capture_output=True, text=True)
    assert piped.stdout.startswith("game 1 at event ") and piped.stderr == ""


def test_an_answer_that_cannot_be_written_is_one_line_and_exit_4(games):
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    with open("/dev/full", "w") as full:
        done = subprocess.run([str(Path(sys.executable).with_name("banco")), "--db", games,
                               "state"], stdout=full, stderr=subprocess.PIPE, text=True,
                              env={**os.environ, "BANCO_LANG": "en"})
    assert done.returncode == 4
    assert done.stderr == "error: cannot write the answer: No space left on device\n"
