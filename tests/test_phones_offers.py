"""A trade held for the players' phones, followed to its end (the newcomer's trial): the
banker's page said "waiting for Anna, Bruno: trade ... (not recorded yet)" after the trade was
recorded, and beside "declined by Bruno" once declined, for the server dropped a recorded
offer from what the pages are sent.  Each answered offer stays in the table's `offers` with its
end: `declined_by`, `done` (recorded), or `refused` (the rules' refusal when it ran, in the
page's language).  The pages' side is in tests/test_phones_console_browser.py and
tests/test_phones_evening_browser.py."""

from __future__ import annotations

import pytest
from phones_tables import auth
from test_phones_evening import act, events, recorded, table  # noqa: F401 (fixtures)

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx`")


def offers(client, who: str, lang: str = "en") -> list[dict]:
    return client.get(f"/api/table?lang={lang}", headers=auth(client.keys[who])).json()["offers"]


def answer(client, who: str, offer: str, word: str = "accept"):
    return client.post(f"/api/offers/{offer}", json={"answer": word},
                       headers=auth(client.keys[who]))


def test_a_recorded_trade_stays_in_the_offers_said_done(table):  # noqa: F811
    r = act(table, "banker", "trade Anna Bruno --give 10 --get 'vicolo stretto'")
    assert r.status_code == 202, r.json()
    offer = r.json()["offer"]["id"]
    [held] = offers(table, "banker")
    assert (held["waiting"], held["done"], held["refused"]) == (["Anna", "Bruno"], False, None)
    assert answer(table, "Anna", offer).status_code == 202
    assert offers(table, "banker")[0]["waiting"] == ["Bruno"]  # the banker's line says so
    before = len(events(table.db))
    r = answer(table, "Bruno", offer)
    assert r.status_code == 200, r.json()
    assert len(events(table.db)) > before
    for who in ("banker", "Anna", "Bruno"):  # every page that held it learns it was recorded
        [done] = offers(table, who)
        assert done["id"] == offer and done["done"] is True, (who, done)
        assert done["refused"] is None and done["declined_by"] is None
    assert offers(table, "Carla") == []  # not hers


def test_a_trade_the_rules_refuse_when_it_runs_is_said_refused_in_each_language(table):  # noqa: F811
    # held as read (the rules decide when it runs): Anna has not 5000 M to give
    offer = act(table, "banker", "trade Anna Bruno --give 5000 --get 'vicolo stretto'").json()["offer"]["id"]
    assert answer(table, "Anna", offer).status_code == 202
    before = len(events(table.db))
    r = answer(table, "Bruno", offer)
    assert r.status_code == 422 and len(events(table.db)) == before
    assert "refused_in" not in r.json()  # the server's own, not the contract's
    [en] = offers(table, "banker", "en")
    [it] = offers(table, "Anna", "it")
    assert en["done"] is False and en["refused"].startswith("Anna has "), en
    assert en["refused"].endswith(", not 5000: no loans, no promises (003 §06)"), en
    assert it["refused"].startswith("Anna ha ") and "niente prestiti" in it["refused"], it


def test_a_declined_trade_is_said_declined_not_done(table):  # noqa: F811
    offer = act(table, "banker", "trade Anna Bruno --give 10 --get 'vicolo stretto'").json()["offer"]["id"]
    assert answer(table, "Bruno", offer, "decline").status_code == 200
    [said] = offers(table, "Anna")
    assert (said["declined_by"], said["done"], said["refused"]) == ("Bruno", False, None)
