"""What the table's server guards (issue 32): a paired player's consent to a trade however the
banker spells the line, the tokens `banco token --revoke` names, the Host a request may come
under (DNS rebinding), and what a viewer's screen keeps hidden under championship rules."""

from __future__ import annotations

import shutil

import pytest
from games import record

from ledger.book import Book
from ledger.store import tokens

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx`")
NOW = "2026-11-29T21:00:00Z"


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    """The classic-4p game, Anna to roll."""
    return record(str(tmp_path_factory.mktemp("guards") / "game.db"), "classic-4p")


@pytest.fixture
def db(recorded, tmp_path):
    path = str(tmp_path / "game.db")
    shutil.copy(recorded, path)
    return path


@pytest.fixture
def keys(db):
    return {name: tokens.issue(db, role, 1, NOW, player)[0] for name, role, player in (
        ("banker", "banker", None), ("carla", "player", "Carla"), ("anna", "player", "Anna"))}


def make_client(hub, **options):
    from starlette.testclient import TestClient

    from cli.web.app import make_app

    return TestClient(make_app(hub), **options)


@pytest.fixture
def client(db):
    from cli.web.app import Hub

    hub = Hub(db, None, poll=0.05)
    with make_client(hub) as c:
        c.hub = hub
        yield c
    hub.close()


def auth(secret: str) -> dict:
    return {"Authorization": f"Bearer {secret}"}


def seq(db: str) -> int:
    book = Book(db, create=False)
    try:
        return book.store.last_seq(1)
    finally:
        book.close()


# --- a paired player's consent ---------------------------------------------------------------

@pytest.mark.parametrize("line", [
    "trade Anna Carla --give 10 --get 20 --lang en",
    "trade Anna Carla --give 10 --get 20 --lang=en",
    "trade --lang en Anna Carla --give 10 --get 20",
    "trade Anna --lang=it Carla --give 10 --get 20",
    "trade Anna Carla --lang it --dai 10 --ricevi 20",
    "trade -- Anna Carla --give 10 --get 20",
    "scambia Anna Carla --give 10 --get 20 --lang en",
])
def test_a_trade_with_a_paired_player_waits_for_him_however_the_banker_spells_it(
        db, client, keys, line):
    """`trade ... --lang en` did not parse as an offer and ran at once, without the paired
    player's consent: --lang (and the `--` that ends the options) are click's, not the trade's.
    Held, it is the very line that runs once both phones accept."""
    before = seq(db)
    r = client.post("/api/commands", json={"line": line}, headers=auth(keys["banker"]))
    assert r.status_code == 202, r.json()
    offer = r.json()["offer"]
    assert offer["waiting"] == ["Anna", "Carla"] and seq(db) == before
    assert offer["a_gives"]["cash"] == 10 and offer["b_gives"]["cash"] == 20
    for who in ("anna", "carla"):
        done = client.post(f"/api/offers/{offer['id']}", json={"answer": "accept"},
                           headers=auth(keys[who]))
    assert done.status_code == 200 and seq(db) > before

