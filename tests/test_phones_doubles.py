"""After doubles the pages say what the terminal says (the newcomer's trial): "Bruno rolls
again (doubles)", not "Bruno to roll" as at a turn's start; and the TV's "Bruno rolled 1+1"
says they were doubles, as the terminal's roll line does."""

from __future__ import annotations

import pytest
from phones_tables import auth
from test_phones_evening import act, recorded, table  # noqa: F401 (fixtures)

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx`")


def screen(client, who: str | None, lang: str) -> dict:
    headers = auth(client.keys[who]) if who else {}
    return client.get(f"/api/table?lang={lang}", headers=headers).json()


def test_the_pages_say_a_roll_after_doubles_as_the_terminal_does(table):  # noqa: F811
    r = act(table, "banker", "roll 1 1")  # Anna, to Viale Vesuvio: Dario's, she rolls again
    assert "Anna rolls again (doubles)" in r.json()["said"], r.json()
    assert screen(table, "banker", "it")["next"] == "Anna tira di nuovo (doppio): `tira D1 D2`"
    assert screen(table, "banker", "en")["next"] == "Anna rolls again (doubles): `roll D1 D2`"
    assert screen(table, "Anna", "en")["next"] == "Anna rolls again (doubles): roll the dice"
    tv = screen(table, None, "it")
    assert tv["next"] == "Anna tira di nuovo (doppio): tirare i dadi", tv["next"]
    assert tv["happened"][0] == "Anna ha tirato 1+1 (doppio, 2 di fila): su Viale Vesuvio", tv
    # her roll after them is a roll like any other: 2 3 is no doubles, and Bruno is next
    act(table, "banker", "roll 2 3")
    for _ in range(3):
        doc = screen(table, "banker", "en")
        if doc["turn"]["player"] != "Anna":
            break
        act(table, "banker", "decline" if doc["turn"]["phase"] == "buy" else "hammer")
    doc = screen(table, None, "en")
    assert doc["next"].startswith(f"{doc['turn']['player']} to roll"), doc["next"]
    assert "(doubles" not in doc["happened"][0], doc["happened"]
