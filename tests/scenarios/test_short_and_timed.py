"""`short` and `timed` (seed 004, "Regole del gioco breve" and "Gioco con limite di tempo") on the
`it` board: Vicolo Corto 1 (60, rents 2/10/30/90/160/250), Vicolo Stretto 3 (60, rents
4/20/60/180/320/450), houses and hotels 50 on the browns, stations 200, utilities 150, Via
Accademia and Corso Ateneo 140, Viale Monterosa 100, Viale Vesuvio 120.
"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.scenarios


def test_short_two_deeds_dealt_to_each_and_paid_before_the_first_roll(table):
    # 004 short game 1: "distribuisce ai giocatori una carta Proprietario due volte in cerchio
    # ... I giocatori ... devono immediatamente pagare alla Banca il prezzo".
    t = table
    t("new Anna Bruno Carla --rules short")
    assert t.state()["edition"] == "it"
    t.refused("roll 4 6", r"004")
    t("deal Anna vicolo corto vicolo stretto")  # 1500 - 120
    t.refused("deal Bruno stazione sud stazione ovest stazione nord", r"004")  # three
    t.refused("deal Bruno vicolo corto stazione sud", r"004")  # Vicolo Corto is Anna's
    t("deal Bruno stazione sud stazione ovest")  # 1500 - 400
    t.refused("roll 4 6", r"004")  # Carla has none yet
    t("deal Carla società elettrica società acqua potabile")  # 1500 - 300
    assert t.cashes() == {"Anna": 1380, "Bruno": 1100, "Carla": 1200}
    t("roll 4 6")
    assert t.pos("Anna") == 10


def test_short_hotel_after_three_houses_and_sold_for_half_of_hotel_and_three_houses(table):
    # 004 short game 2: "devi costruire solo tre Case (invece di quattro) ... L'affitto rimane
    # lo stesso ... Quando vendi un Hotel, il ricavato corrisponde alla metà del costo
    # originale, ovvero una casa in meno".
    t = table
    t("new Anna Bruno --rules short")
    t("deal Anna vicolo corto vicolo stretto")  # 1380
    t("deal Bruno stazione sud stazione ovest")  # 1100
    for _ in range(3):
        t("build vicolo corto")
        t("build vicolo stretto")  # 3 houses each: 6 x 50, 1380 - 300 = 1080
    assert t.state()["bank"] == {"houses": 26, "hotels": 12}
    t("build vicolo corto")  # the seventh build is a hotel, not a fourth house: 1030
    vc = t.prop("Vicolo Corto")
    assert (vc["houses"], vc["hotel"]) == (0, True)
    assert t.state()["bank"] == {"houses": 29, "hotels": 11}  # its 3 houses went back
    t("build vicolo stretto")  # 980
    assert t.state()["bank"] == {"houses": 32, "hotels": 10}
    assert t.cash("Anna") == 980
    t("roll 4 6")  # Anna 0 -> 10
    t("roll 1 2")  # Bruno 0 -> 3 Vicolo Stretto: the hotel's rent, 450 as in the standard game
    assert t.rents() == [("Bruno", "Anna", "Vicolo Stretto", 450)]
    t("claim Anna")  # Anna 1430, Bruno 650
    t("sell vicolo corto all")  # two hotels: 2 x (50 + 3 x 50) / 2 = 200
    assert t.cashes() == {"Anna": 1630, "Bruno": 650}
    assert t.state()["bank"] == {"houses": 32, "hotels": 12}
    assert [(p["houses"], p["hotel"]) for p in t.state()["properties"][:2]] == [(0, False)] * 2


def test_short_game_ends_at_the_second_bankruptcy_and_the_richest_wins(table):
    # 004 short game 3: "Quando anche il secondo giocatore va in bancarotta, il gioco finisce.
    # Un giocatore che va in bancarotta trasferisce tutto ciò che possiede al suo creditore ...
    # ciascuno dei restanti partecipanti ... somma: contanti; ... al prezzo indicato; proprietà
    # ipotecata ... la metà; case ... al prezzo di acquisto; alberghi ... compreso il valore
    # delle tre Case".
    t = table
    t("new Anna Bruno Carla Dario --rules short")
    t.run("""
        deal Anna vicolo corto vicolo stretto                  # 1500 - 120 = 1380
        deal Bruno stazione sud stazione ovest                 # 1500 - 400 = 1100
        deal Carla società elettrica società acqua potabile    # 1500 - 300 = 1200
        deal Dario via accademia corso ateneo                  # 1500 - 280 = 1220
        mortgage stazione ovest                                # Bruno 1100 + 100 = 1200
        build vicolo corto
        build vicolo stretto
        build vicolo corto
        build vicolo stretto
        build vicolo corto
        build vicolo stretto
        build vicolo stretto   # 6 houses + a hotel on Vicolo Stretto: 7 x 50, Anna 1030
        roll 4 5         # Anna 0 -> 9 Viale Vesuvio
        decline
        bid Carla 1200
        hammer           # Carla 0
        roll 2 6         # Bruno 0 -> 8 Viale Monterosa
        decline
        bid Dario 1220
        hammer           # Dario 0
        roll 1 2         # Carla 0 -> 3 Vicolo Stretto: hotel, 450
        claim Anna       # Carla owes 450; could raise 75 + 75 + 60 = 210
        bankrupt Carla   # first bankruptcy: all she has to Anna
    """)
    s = t.state()
    assert s["ended"] is False
    assert {t.owner(n) for n in ("Società Elettrica", "Società Acqua Potabile",
                                 "Viale Vesuvio")} == {"Anna"}
    t("roll 1 2")        # Dario 0 -> 3 Vicolo Stretto: 450
    t("claim Anna")      # Dario owes 450; could raise 70 + 70 + 50 = 190
    t("bankrupt Dario")  # the second bankruptcy ends the game
    s = t.state()
    assert s["ended"] is True and s["winner"] == "Anna"
    # Anna: 1030 cash + deeds at price (60+60+150+150+120+140+140+100 = 920)
    #       + 3 houses on Vicolo Corto at 50 = 150 + the hotel at 50 + its 3 houses = 200
    #       = 2300
    # Bruno: 1200 cash + Stazione Sud 200 + Stazione Ovest mortgaged 200 / 2 = 1500
    rows = t.standings()
    assert [(r["name"], r["net_worth"]) for r in rows[:2]] == [("Anna", 2300), ("Bruno", 1500)]
    assert [(r["name"], r["status"]) for r in rows[2:]] == [("Dario", "bankrupt"),
                                                            ("Carla", "bankrupt")]
    t.refused("roll 4 6", r"004")  # the game is over


def test_timed_two_deeds_then_time_up_and_the_richest_wins_with_four_house_hotels(table):
    # 004 "Gioco con limite di tempo": "devi concordare l'ora di fine del gioco. Vincerà il
    # partecipante più ricco ... il banchiere poi distribuisce due carte a ciascun giocatore ...
    # I partecipanti depositano immediatamente presso la Banca il valore".  Counted as in the
    # short game, a hotel worth its price and the 4 houses it replaced (standard rules).
    t = table
    t("new Anna Bruno --rules timed")
    t.refused("roll 4 6", r"004")
    t.run("""
        deal Anna vicolo corto vicolo stretto   # 1380
        deal Bruno stazione sud stazione ovest  # 1100
    """)
    for _ in range(4):
        t("build vicolo corto")
        t("build vicolo stretto")  # 4 houses each: 8 x 50, Anna 980
    t("build vicolo corto")        # a hotel after 4 houses: 930
    assert (t.prop("Vicolo Corto")["hotel"], t.prop("Vicolo Stretto")["houses"]) == (True, 4)
    t.run("""
        mortgage stazione ovest   # Bruno 1200
        roll 4 6                  # Anna 0 -> 10
        roll 1 2                  # Bruno 0 -> 3 Vicolo Stretto: 4 houses, 320
        claim Anna                # Anna 1250, Bruno 880
    """)
    t("time-up")  # Anna to roll: nothing in progress
    s = t.state()
    assert s["ended"] is True and s["winner"] == "Anna"
    # Anna: 1250 + 120 + 4 houses 200 + hotel 50 + 4 x 50 = 1820
    # Bruno: 880 + 200 + 200 / 2 = 1180
    assert [(r["name"], r["net_worth"]) for r in t.standings()] == [
        ("Anna", 1820), ("Bruno", 1180)]
