"""What the phones' HTTP tests share (tests/test_phones*.py, test_serve_writes.py): the recorded
game a test's file starts from, the server in Starlette's TestClient, a token's header, a line
posted, the file's last seq.  A test module takes the fixtures by importing them."""

from __future__ import annotations

import shutil

import pytest
from click.testing import CliRunner
from freezegun import freeze_time
from games import FIXTURES, record

from banco.cli.main import cli
from banco.ledger.book import Book
from banco.ledger.store import tokens

NOW = "2026-11-29T21:00:00Z"


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    """The classic-4p game, Anna to roll (3 4 takes her to Carla's Piazza Università)."""
    return record(str(tmp_path_factory.mktemp("phones") / "game.db"), "classic-4p")


@pytest.fixture
def db(recorded, tmp_path):
    path = str(tmp_path / "game.db")
    shutil.copy(recorded, path)
    return path


@pytest.fixture
def keys(db):
    """The banker's token and Carla's and Anna's, for game 1."""
    return {name: tokens.issue(db, role, 1, NOW, player)[0] for name, role, player in (
        ("banker", "banker", None), ("carla", "player", "Carla"), ("anna", "player", "Anna"))}


def before_time_up(folder) -> str:
    """The championship game up to Bruno's last turn (Dario bankrupt, the game not ended),
    recorded in `folder`: its file."""
    script = folder / "before-time-up.banco"
    kept = (FIXTURES / "championship-4p.banco").read_text().split("\ntime-up")[0]
    script.write_text(kept + "\n")
    db = str(folder / "game.db")
    with freeze_time("2026-11-29 21:00:00"):
        result = CliRunner().invoke(cli, ["--db", db, "run", "-q", str(script)])
    assert result.exit_code == 0, result.output
    return db


def make_client(hub, **options):
    from starlette.testclient import TestClient

    from banco.cli.web.app import make_app

    return TestClient(make_app(hub), **options)


@pytest.fixture
def client(db):
    from banco.cli.web.app import Hub

    hub = Hub(db, None, poll=0.05)
    with make_client(hub) as c:
        c.hub = hub
        yield c
    hub.close()


def auth(secret: str) -> dict:
    return {"Authorization": f"Bearer {secret}"}


def post(client, who: str, line: str, **extra):
    return client.post("/api/commands", json={"line": line, **extra}, headers=auth(who))


def seq(db: str) -> int:
    """Game 1's last seq in the file (0 before the banker's page starts a game)."""
    book = Book(db, create=False)
    try:
        return book.store.last_seq(1) if book.games() else 0
    finally:
        book.close()


def table(db: str):
    """Game 1's table as the file holds it."""
    book = Book(db, create=False)
    try:
        return book.state(1)
    finally:
        book.close()


def in_debt(db: str) -> str:
    """Anna (80 M, Vicolo Stretto: 110 M all raised) owes the Bank 100 M for Probabilità 3."""
    run = CliRunner()
    for line in ("new Anna Bruno", "roll 1 2", "buy", "roll 1 3", "roll 3 4", "roll 2 4",
                 "roll 3 4", "correct Anna -1360 --reason test --referee Rita",
                 "card probabilita 3"):
        said = run.invoke(cli, ["--db", db, *line.split()])
        assert said.exit_code == 0, (line, said.output)
    return db
