"""The pads' side of the phones' HTTP contract (issue 18, 34): a trade held for the paired
players and answered on their phones, what the banker's table carries for his pads and a
player's does not, the undo's words, the debt pad.  The rest: tests/test_phones.py."""

from __future__ import annotations

import phones_tables
import pytest
from click.testing import CliRunner
from phones_tables import NOW, auth, in_debt, make_client, post, seq

from banco.cli.main import cli
from banco.ledger.store import tokens

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx`")
# the fixtures the phones' HTTP tests share (tests/phones_tables.py)
recorded, db, client = phones_tables.recorded, phones_tables.db, phones_tables.client
keys = phones_tables.keys


# --- trades ---------------------------------------------------------------------------------

def test_a_trade_between_paired_players_waits_for_both(db, client, keys):
    before = seq(db)
    line = "trade Anna Carla --give 'vicolo corto' --get 20"  # a deed for cash (003 §06)
    r = post(client, keys["banker"], line, id="t1")
    assert r.status_code == 202
    offer = r.json()["offer"]
    assert offer["waiting"] == ["Anna", "Carla"] and seq(db) == before
    # what each side gives, for the phones to word it ("Anna gives Vicolo Corto; Carla gives
    # 20 M")
    assert (offer["a_gives"], offer["b_gives"], offer["lift"]) == (
        {"deeds": ["Vicolo Corto"], "cash": 0, "cash_text": None, "jail_cards": 0},
        {"deeds": [], "cash": 20, "cash_text": "20 M", "jail_cards": 0}, [])
    other = post(client, keys["banker"], "roll 1 2", id="t1")  # the id is the offer's
    assert other.status_code == 400 and "“trade Anna Carla" in other.json()["errors"]
    assert post(client, keys["banker"], line, id="t1").json()["offer"] == offer
    seen = client.get("/api/table", headers=auth(keys["carla"])).json()["offers"]
    assert [o["id"] for o in seen] == [offer["id"]]
    path = f"/api/offers/{offer['id']}"
    assert client.post(path, json={"answer": "accept"}, headers=auth(keys["banker"])
                       ).status_code == 403
    assert client.post(path, json={"answer": "accept"}, headers=auth(keys["anna"])
                       ).status_code == 202
    assert seq(db) == before
    done = client.post(path, json={"answer": "accept"}, headers=auth(keys["carla"]))
    assert done.status_code == 200 and seq(db) > before
    recorded = [e for e in done.json()["events"] if e["type"] == "CommandRecorded"]
    assert recorded[0]["data"]["line"] == line  # the banker's very line
    again = client.post(path, json={"answer": "accept"}, headers=auth(keys["carla"]))
    assert again.status_code == 200 and again.json()["replayed"]


def test_a_declined_trade_records_nothing(db, client, keys):
    before = seq(db)
    offer = post(client, keys["banker"], "trade Anna Bruno --give 'vicolo corto' --get 20"
                 ).json()["offer"]
    assert offer["waiting"] == ["Anna"]  # Bruno has no phone: he agrees aloud
    r = client.post(f"/api/offers/{offer['id']}", json={"answer": "decline"},
                    headers=auth(keys["anna"]))
    assert r.status_code == 200 and seq(db) == before
    # said as declined for a while, not gone with no word (issue 34); nothing to answer
    seen = client.get("/api/table", headers=auth(keys["anna"])).json()["offers"]
    assert [(o["id"], o["declined_by"]) for o in seen] == [(offer["id"], "Anna")]
    again = client.post(f"/api/offers/{offer['id']}", json={"answer": "accept"},
                        headers=auth(keys["anna"]))
    assert again.json()["replayed"] and seq(db) == before


def test_a_trade_without_phones_runs_at_once(db, client, keys):
    r = post(client, keys["banker"], "trade Bruno Dario --give 'vicolo stretto' --get 20")
    assert r.status_code == 200 and r.json()["code"] == 0


# --- what the pads are offered -------------------------------------------------------------

def test_the_bankers_table_carries_what_the_pads_offer_and_a_players_does_not(client, keys):
    """The full view adds the estate pads' data, what a hammer with no bid would do (the
    shell's own words when an auction opens) and what the next undo takes back, in the page's
    language; a player's phone gets none of it."""
    banker = auth(keys["banker"])
    first = client.get("/api/table", headers=banker).json()  # a fresh server: folded to see
    assert first["undo"]["line"] == "card Imprevisti 14" and first["undo"]["changes"]
    assert first["no_bid"] is None
    assert [p["name"] for p in first["estate"]["players"]] == ["Anna", "Bruno", "Carla", "Dario"]
    for line in ("roll 2 4", "decline"):
        assert post(client, keys["banker"], line).status_code == 200
    doc = client.get("/api/table", headers=banker).json()
    assert doc["no_bid"] == ("if nobody bids: `hammer` (no bid: Carla, the richest, takes it at "
                             "1 M, 000 FAQ 22)")
    # the choice comes back, not "no auction is open any more" (the sixth trial)
    assert doc["undo"] == {"line": "decline",
                           "changes": ["Anna chooses again: buy or decline Corso Ateneo"]}
    assert doc["no_bid_to"] == []  # Carla alone is the richest: no tie for the banker
    it = client.get("/api/table?lang=it", headers=banker).json()
    assert it["undo"]["changes"] == ["Anna sceglie di nuovo: compra o rifiuta Corso Ateneo"]
    assert it["no_bid"].startswith("se nessuno offre: `aggiudica`")
    mine = client.get("/api/table", headers=auth(keys["carla"])).json()
    assert not {"undo", "no_bid"} & set(mine)
    # her own estate pads, and the others' deeds for a trade, never their cash (issue 34)
    pads = {p["name"]: p for p in mine["estate"]["players"]}
    assert pads["Carla"]["trade"]["cash"] is not None
    assert {pads[n]["trade"]["cash"] for n in ("Anna", "Bruno", "Dario")} == {None}
    assert not any(pads[n]["mortgage"] or pads[n]["build"] for n in ("Anna", "Bruno", "Dario"))


def test_the_undo_words_reach_past_more_undos_than_the_screen_keeps(client, keys):
    """Five rolls, each taken back: the screen's last commands are all rolls and undos, and
    the next undo is still the game's last command in force, said in words."""
    for _ in range(5):
        for line in ("roll 1 2", "undo"):
            assert post(client, keys["banker"], line).status_code == 200
    doc = client.get("/api/table", headers=auth(keys["banker"])).json()
    assert {c["line"] for c in doc["commands"]} == {"roll 1 2", "undo"}
    assert doc["undo"] == {"line": "card Imprevisti 14", "changes": ["Anna gets back 15 M"]}


def test_the_debt_pad_offers_only_the_line_that_can_work(tmp_path):
    """A debtor short of cash was offered a green `pay` (refused: 80 M for 100 M) and
    `bankrupt` (refused: he can raise it): he is told what he lacks, until his cash pays;
    where all he could raise falls short, only the bankruptcy (003 §10)."""
    from banco.cli.web.app import Hub

    db = in_debt(str(tmp_path / "debt.db"))
    banker = tokens.issue(db, "banker", 1, NOW)[0]
    bruno = tokens.issue(db, "player", 1, NOW, "Bruno")[0]
    hub = Hub(db, None, poll=0.05)

    def pad(c):
        return [(d["debtor"], d["choice"], d["raise_text"]) for d in
                c.get("/api/table", headers=auth(banker)).json()["debt_pad"]]

    def correct(amount: str) -> None:  # the referee's, at the terminal
        CliRunner().invoke(cli, ["--db", db, "correct", "Anna", amount, "--reason", "t",
                                 "--referee", "Rita"])
        hub.table(1).nudge()
        hub.table(1).settle(seq(db))
    try:
        with make_client(hub) as c:
            assert pad(c) == [("Anna", "raise", "20 M")]
            for line in ("pay Anna", "bankrupt Anna"):  # what the pad no longer offers
                assert post(c, banker, line).status_code == 422
            # Bruno's phone: his own debts only (none), for him to pay from it (issue 34)
            assert c.get("/api/table", headers=auth(bruno)).json()["debt_pad"] == []
            correct("-40")  # 40 M and a deed mortgaged for 30 M: 70 M for 100 M
            assert pad(c) == [("Anna", "bankrupt", "0 M")]
            correct("200")
            assert pad(c) == [("Anna", "pay", "0 M")]
            assert post(c, banker, "pay Anna").status_code == 200
    finally:
        hub.close()
