"""`euro` (seed 001, Italian euro edition) on `it-euro`: Via! 500, jail 125, auctions from 5.

The seed gives no starting cash nor board figures, so these scenarios use only what it gives:
they compare cash before and after, and never buy at the board's price.
"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.scenarios


def test_via_500_jail_125_auctions_from_5_on_the_euro_board(table):
    t = table
    t("new Anna Bruno --rules euro")
    s = t.state()
    assert (s["rules"], s["edition"]) == ("euro", "it-euro")  # euro's default edition
    start = t.cash("Anna")
    assert t.cash("Bruno") == start
    t.run("""
        roll 4 6   # Anna 0 -> 10, visiting
        roll 4 6   # Bruno 0 -> 10, visiting
        roll 4 6   # Anna 10 -> 20 Parcheggio Gratuito
        roll 4 6   # Bruno 10 -> 20
        roll 4 6   # Anna 20 -> 30: to jail
        roll 5 6   # Bruno 20 -> 31 Via Roma, unowned
        decline
    """)
    # 001 §Fermata su proprietà libera: "Il prezzo di partenza per l'asta è di € 5".
    assert t.state()["pending"]["auction"]["min_bid"] == 5
    t.refused("bid Anna 4", r"001")
    t("bid Anna 5")  # in jail one may still bid (001 §Prigione)
    t("hammer")
    assert t.owner("Via Roma") == "Anna"
    assert t.cashes() == {"Anna": start - 5, "Bruno": start}
    t("pay-fine")  # 001 §Prigione: "mediante il pagamento di € 125"
    assert t.cash("Anna") == start - 5 - 125
    t("roll 4 6")  # Anna 10 -> 20
    t("roll 4 5")  # Bruno 31 -> 40 = Via!: 001 §Indennità, "riceve dalla Banca € 500"
    assert (t.pos("Bruno"), t.cash("Bruno")) == (0, start + 500)
