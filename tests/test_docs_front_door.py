"""What a newcomer copies from the manual works as printed: the modules it runs with
`python -m`, the answers its HTTP session shows, the powers its token tables give, and no merge
leftover among its pages.  (Found by a newcomer's trial of main, 2026-12-06.)"""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from games import lines

from banco.ledger.store import tokens

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted((ROOT / "docs").glob("*.md")) + sorted(ROOT.glob("README*.md"))
RUN_MODULE = re.compile(r"python3? -m\s+([A-Za-z_][\w.]*)")


def modules_named(text: str) -> set[str]:
    return set(RUN_MODULE.findall(text))


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_module_a_page_runs_with_python_m_is_installed(page):
    # banco installs as `banco.ledger...`: `python -m ledger.store...` is no module a user has
    missing = sorted(m for m in modules_named(page.read_text(encoding="utf-8"))
                     if importlib.util.find_spec(m) is None)
    assert not missing, f"{page.name} tells the reader to run modules that do not exist: {missing}"


def test_every_module_a_message_runs_with_python_m_is_installed():
    for lang in ("en", "it"):
        with open(ROOT / f"cli/words/locale/{lang}/LC_MESSAGES/banco.po", "rb") as f:
            catalog = read_po(f)
        for message in catalog:
            text = message.string if isinstance(message.string, str) else " ".join(message.string)
            missing = sorted(m for m in modules_named(text) if importlib.util.find_spec(m) is None)
            assert not missing, f"{lang}: {message.id!r} is translated with {missing}"


def test_the_manual_holds_no_merge_leftovers():
    leftovers = [p.name for p in (ROOT / "docs").iterdir()
                 if re.search(r"\.(orig|rej|BASE|LOCAL|REMOTE)(\.|$)|~$", p.name)]
    assert not leftovers, f"docs/ holds leftovers of a merge: {leftovers}"


def documented_answer(after: str) -> tuple[int, dict]:
    """The status and JSON body the curl session in docs/http-api.md prints after `after`."""
    text = (ROOT / "docs/http-api.md").read_text(encoding="utf-8")
    block = text[text.index(after) + len(after):]
    status = int(re.match(r"\s*HTTP/1.1 (\d+)", block).group(1))
    body = block.split("\n\n", 1)[1].split("\n", 1)[0]
    return status, json.loads(body)


def test_the_http_pages_player_roll_out_of_turn_is_answered_as_printed(tmp_path):
    # the page's own set-up: a game of three, Anna has bought Stazione Sud, the banker rolled
    # for Bruno; then Anna's phone sends `roll 1 1` on Carla's turn (a default server)
    from starlette.testclient import TestClient

    from banco.cli.web.app import Hub, make_app

    db = str(tmp_path / "table.db")
    lines(db, "new Anna Bruno Carla", "roll 3 2", "buy", "roll 2 3 --player bruno")
    anna = tokens.issue(db, "player", 1, "2026-11-29T21:00:00.000000Z", "Anna")[0]
    hub = Hub(db, None, poll=0.05)
    try:
        with TestClient(make_app(hub)) as client:
            answer = client.post("/api/commands", json={"line": "roll 1 1"},
                                 headers={"Authorization": f"Bearer {anna}"})
    finally:
        hub.close()
    status, body = documented_answer("""-d '{"line": "roll 1 1"}' http://127.0.0.1:8765/api/commands""")
    assert (answer.status_code, answer.json()) == (status, body)


@pytest.mark.parametrize("page, row", [("phones.md", "| `player NAME` |"),
                                       ("telefoni.md", "| `player NOME` |")])
def test_the_token_tables_give_a_player_his_own_acts_by_default(page, row):
    # players record their own acts unless `serve --banker-only` (docs/phones-api.md): a table
    # that gives a player's token only claims and trades describes --banker-only alone
    text = (ROOT / "docs" / page).read_text(encoding="utf-8")
    line = next(x for x in text.splitlines() if x.startswith(row))
    assert "--banker-only" in line, line


@pytest.mark.parametrize("name", ["README.md", "README.it.md"])
def test_the_readmes_tour_tells_how_banco_gets_on_the_path(name):
    # the set-up commands install into .venv without activating it: the tour's `$ banco ...`
    # is "command not found" for a reader not told to activate it
    text = (ROOT / name).read_text(encoding="utf-8")
    before_tour = text[:text.index("\n$ banco ")]
    assert ".venv/bin/activate" in before_tour[before_tour.rindex("\n## "):]


def test_both_readmes_say_where_the_postgresql_tests_get_a_server():
    for name in ("README.md", "README.it.md"):
        text = (ROOT / name).read_text(encoding="utf-8")
        tests_note = text[text.index("pytest-xdist"):text.index("\n## ", text.index("pytest-xdist"))]
        assert "PostgreSQL" in tests_note and "`postgresql`" in tests_note, name


@pytest.mark.parametrize("page, row, count_word", [("banker.md", "| `sell PROPERTY", "COUNT"),
                                                    ("banchiere.md", "| `vendi PROPRIETÀ", "NUMERO")])
def test_the_words_table_says_sells_number_is_a_level(tmp_path, page, row, count_word):
    # `sell PROPERTY N` sells down to N (while `build PROPERTY N` adds N): a table calling it a
    # count has the banker sell 2 houses off a lot of 3 when he meant one
    from click.testing import CliRunner

    from banco.cli.main import cli

    db = str(tmp_path / "g.db")
    lines(db, "new Anna Bruno --rules short", "deal Anna vicolo corto vicolo stretto",
          "deal Bruno viale monterosa viale vesuvio", "build marrone 3")
    said = CliRunner().invoke(cli, ["--db", db, "sell", "vicolo", "stretto", "1"]).output
    assert "refused: uneven selling: Vicolo Stretto would have 1 house" in said
    text = (ROOT / "docs" / page).read_text(encoding="utf-8")
    line = next(x for x in text.splitlines() if x.startswith(row))
    assert count_word not in line and "1`" in line, line


def test_no_page_installs_banco_editable():
    # the hatchling sources mapping (ledger/ -> banco/ledger/) is one an editable install cannot
    # follow, and the tests import the installed copy (docs/development.md)
    for page in PAGES:
        assert not re.search(r"pip install -e\b", page.read_text(encoding="utf-8")), page.name


def test_the_postgresql_page_runs_every_postgresql_test_file():
    text = (ROOT / "docs/postgresql.md").read_text(encoding="utf-8")
    command = text[text.index("pip install '.[test,postgres]' && .venv/bin/pytest"):]
    command = command[:command.index("```")]
    files = {p.relative_to(ROOT).as_posix() for p in (ROOT / "tests").glob("test_*postgres*.py")}
    assert files - set(command.split()) == set()


@pytest.mark.parametrize("page, words", [("referee.md", "whole minute"),
                                         ("arbitro.md", "minuto\nintero")])
def test_the_referees_page_says_a_minute_covers_the_whole_minute(tmp_path, page, words):
    # `state --at "... 22:14"` and `--at "... 22:14:00"` are tables events apart: a referee
    # reading the page must know which one he asked for
    from click.testing import CliRunner

    from banco.cli.main import cli

    db = str(tmp_path / "g.db")
    lines(db, "new Anna Bruno", at="2026-11-29 21:14:00")
    lines(db, "roll 1 2", at="2026-11-29 21:14:30")

    def at(moment: str) -> str:
        said = CliRunner().invoke(cli, ["--db", db, "state", "--at", moment]).output
        return said.splitlines()[0]

    assert "event 4 " in at("2026-11-29T21:14:00Z") and "event 8 " in at("2026-11-29T21:14Z")
    assert words in (ROOT / "docs" / page).read_text(encoding="utf-8")
