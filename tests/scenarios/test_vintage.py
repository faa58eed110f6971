"""`vintage` (seed 002, Monopoli in lire) on the `it-lire` edition: scenarios worked out by hand.

Lire figures are the `it` board's x100 (the seed gives Via! 20.000 and jail 5.000, the `it`
figures 200 and 50 x100; no lire price list is in the seed): Vicolo Corto 6.000, Vicolo
Stretto 6.000, Bastioni Gran Sasso 10.000, Viale Monterosa 10.000, Viale Vesuvio 12.000, Via
Accademia 14.000, Corso Ateneo 14.000, Piazza Università 16.000, Via Verdi 18.000, Corso
Raffaello 18.000, Piazza Dante 20.000, stations 20.000 (rent 2.500/5.000/10.000/20.000),
Società Elettrica 15.000, Via Marco Polo 22.000, Piazza Giulio Cesare 28.000, Via Roma 30.000,
Viale dei Giardini 35.000, Parco della Vittoria 40.000 (rents 5.000, 20.000, 60.000, 140.000 ...,
houses 20.000).  Mortgage = half the price.
"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.scenarios

PLAYERS = ("Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio")
# 002 §Preparazione: players -> (capital, deeds dealt and paid at once)
TABLE = {2: (350_000, 7), 3: (300_000, 6), 4: (250_000, 5), 5: (200_000, 4), 6: (150_000, 3)}
# The first deeds in board order, with their lire prices.
FIRST_DEEDS = [("vicolo corto", 6_000), ("vicolo stretto", 6_000), ("stazione sud", 20_000),
               ("bastioni gran sasso", 10_000), ("viale monterosa", 10_000),
               ("viale vesuvio", 12_000), ("via accademia", 14_000),
               ("società elettrica", 15_000)]
# Anna's cash after being dealt the first k deeds, worked out by hand:
#   7: 350.000 - (6+6+20+10+10+12+14 = 78).000 = 272.000
#   6: 300.000 - 64.000 = 236.000      5: 250.000 - 52.000 = 198.000
#   4: 200.000 - 42.000 = 158.000      3: 150.000 - 32.000 = 118.000
AFTER_DEAL = {2: 272_000, 3: 236_000, 4: 198_000, 5: 158_000, 6: 118_000}


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_capital_and_deeds_by_the_number_of_players(table, n):
    t = table
    capital, k = TABLE[n]
    t("new " + " ".join(PLAYERS[:n]) + " --rules vintage")
    s = t.state()
    assert (s["rules"], s["edition"]) == ("vintage", "it-lire")  # vintage's default edition
    assert {p["cash"] for p in s["players"]} == {capital}
    names = [name for name, _ in FIRST_DEEDS]
    t.refused("deal Anna " + " ".join(names[:k + 1]), r"002")  # one too many
    t("deal Anna " + " ".join(names[:k]))
    assert t.cash("Anna") == AFTER_DEAL[n]
    assert [p["owner"] for p in t.state()["properties"][:k]] == ["Anna"] * k


ANNA7 = ("vicolo corto vicolo stretto stazione sud bastioni gran sasso viale monterosa "
         "viale vesuvio società elettrica")  # 6+6+20+10+10+12+15 = 79.000
BRUNO7 = ("via accademia corso ateneo piazza università stazione ovest via verdi "
          "corso raffaello piazza dante")  # 14+14+16+20+18+18+20 = 120.000


def test_deeds_are_dealt_and_paid_before_the_first_roll(table):
    # 002 §Preparazione: "La distribuzione dei contratti viene effettuata dalla Banca, alla
    # quale ciascun giocatore, prima dell'inizio del gioco, dovrà pagare l'importo dei prezzi".
    t = table
    t("new Anna Bruno --rules vintage")
    t.refused("roll 4 5", r"002")  # nobody has his deeds yet
    t(f"deal Anna {ANNA7}")
    assert t.cash("Anna") == 350_000 - 79_000
    t.refused("roll 4 5", r"002")  # Bruno has not
    t.refused("deal Bruno vicolo corto corso ateneo piazza università stazione ovest via verdi "
              "corso raffaello piazza dante", r"002")  # Vicolo Corto is Anna's already
    t.refused("deal Bruno via accademia via accademia corso ateneo piazza università "
              "stazione ovest via verdi corso raffaello", r"002")  # the same deed twice
    t.refused(f"deal Bruno {BRUNO7} via marco polo", r"002")  # eight: one too many
    t(f"deal Bruno {BRUNO7}")
    assert t.cashes() == {"Anna": 271_000, "Bruno": 230_000}
    t.refused("deal Bruno via marco polo", r"002")  # his seven are dealt
    t("roll 4 5")  # Anna 0 -> 9 Viale Vesuvio, her own
    assert t.pos("Anna") == 9 and t.turn()["player"] == "Bruno"


def test_via_pays_20000_and_jail_costs_5000(table):
    # 002 §Indennità: "la Banca paga una indennità di 20.000 £"; §Prigione: "mediante il
    # pagamento di buoni per 5.000 £ al suo turno di gioco ... prima di gettare i dadi".
    t = table
    t("new Anna Bruno --rules vintage")
    t.run(f"""
        deal Anna {ANNA7}
        deal Bruno {BRUNO7}
        roll 4 5   # Anna 0 -> 9 Viale Vesuvio, her own
        roll 4 6   # Bruno 0 -> 10, visiting
        roll 5 6   # Anna 9 -> 20 Posteggio Gratuito
        roll 1 2   # Bruno 10 -> 13 Corso Ateneo, his own
        roll 4 6   # Anna 20 -> 30: to jail
        roll 1 2   # Bruno 13 -> 16 Via Verdi, his own
    """)
    assert t.player("Anna")["in_jail"] is True and t.cash("Anna") == 271_000
    t("pay-fine")
    assert t.cash("Anna") == 266_000
    t.run("""
        roll 5 6   # Anna 10 -> 21 Via Marco Polo
        buy        # 266.000 - 22.000 = 244.000
        roll 1 2   # Bruno 16 -> 19 Piazza Dante, his own
        roll 4 6   # Anna 21 -> 31 Via Roma
        buy        # 244.000 - 30.000 = 214.000
        roll 4 6   # Bruno 19 -> 29 Piazza Giulio Cesare
        buy        # 230.000 - 28.000 = 202.000
    """)
    assert t.cashes() == {"Anna": 214_000, "Bruno": 202_000}
    t("roll 4 6")  # Anna 31 -> 41 = 1 Vicolo Corto, her own, passing Via!
    assert (t.pos("Anna"), t.cash("Anna")) == (1, 234_000)


def three_players(drain: int) -> str:
    """Three players, six deeds each.  Bruno builds on the dark blues, Carla on the browns, and
    Carla spends `drain` of her cash on Via Marco Polo at auction; then she lands on Bruno's
    Stazione Nord (four stations: 20.000) and the claim is open, Anna to roll."""
    return f"""
new Anna Bruno Carla --rules vintage
# Anna 14+16+18+18+20+15 = 101.000 -> 199.000
deal Anna corso ateneo piazza università via verdi corso raffaello piazza dante società elettrica
# Bruno 20+20+20+20+35+40 = 155.000 -> 145.000
deal Bruno stazione sud stazione ovest stazione nord stazione est viale dei giardini parco della vittoria
# Carla 6+6+10+10+12+14 = 58.000 -> 242.000
deal Carla vicolo corto vicolo stretto bastioni gran sasso viale monterosa viale vesuvio via accademia
roll 4 6   # Anna 0 -> 10, visiting
roll 1 4   # Bruno 0 -> 5 Stazione Sud, his own
build viale dei giardini
build parco della vittoria
build viale dei giardini
build parco della vittoria 2   # Giardini 2 houses, Parco 3: 5 x 20.000; Bruno 45.000
roll 5 6   # Carla 0 -> 11 Via Accademia, her own
build vicolo corto
build vicolo stretto           # 2 x 5.000; Carla 232.000
roll 1 2   # Anna 10 -> 13 Corso Ateneo, her own
roll 4 6   # Bruno 5 -> 15 Stazione Ovest, his own
roll 4 6   # Carla 11 -> 21 Via Marco Polo
decline
bid Carla {drain}
hammer     # Carla 232.000 - {drain}
roll 1 2   # Anna 13 -> 16 Via Verdi, her own
roll 4 6   # Bruno 15 -> 25 Stazione Nord, his own
roll 1 3   # Carla 21 -> 25 Stazione Nord, Bruno's: 20.000 may be claimed
"""


CARLAS = ["Vicolo Corto", "Vicolo Stretto", "Bastioni Gran Sasso", "Viale Monterosa",
          "Viale Vesuvio", "Via Accademia", "Via Marco Polo"]


def test_bankruptcy_the_bank_takes_everything_pays_the_creditor_in_full_and_auctions_the_land(
        table_from):
    # 002 §Fallimento: "tutto quanto egli possiede passa alla Banca che paga integralmente i
    # creditori ... La Banca mette all'asta fra i giocatori rimasti tutte le proprietà ritirate
    # dal fallito, escluse le case e gli alberghi."
    t = table_from("vintage-drain-200000", three_players(200_000))
    assert t.cashes() == {"Anna": 199_000, "Bruno": 45_000, "Carla": 32_000}
    t.run("""
        roll 1 2   # Anna 16 -> 19 Piazza Dante, her own: Bruno's claim on Carla lapses
        roll 4 6   # Bruno 25 -> 35 Stazione Est, his own
        roll 4 6   # Carla 25 -> 35 Stazione Est, Bruno's: not claimed
        roll 2 4   # Anna 19 -> 25 Stazione Nord, Bruno's: not claimed
        roll 1 3   # Bruno 35 -> 39 Parco della Vittoria, his own
        roll 1 3   # Carla 35 -> 39 Parco della Vittoria: 3 houses, 1.400 x 100 = 140.000
        claim Bruno
    """)
    debt = t.state()["pending"]["debt"]
    assert (debt["debtor"], debt["creditor"], debt["amount"]) == ("Carla", "Bruno", 140_000)
    # What Carla could raise (002 §Fallimento: cash, buildings at half, free land at mortgage):
    # 32.000 + 2 x 2.500 + (3+3+5+5+6+7+11).000 = 77.000 < 140.000.
    assert debt["can_raise"] == 77_000
    t("bankrupt Carla")
    s = t.state()
    carla = t.player("Carla")
    assert (carla["bankrupt"], carla["cash"]) == (True, 0)  # her 32.000 went to the Bank
    assert t.cashes() == {"Anna": 199_000, "Bruno": 45_000 + 140_000, "Carla": 0}  # in full
    props = {p["name"]: p for p in s["properties"]}
    assert all(props[n]["owner"] is None and props[n]["houses"] == 0 for n in CARLAS)
    assert s["bank"] == {"houses": 32 - 5, "hotels": 12}  # Carla's 2 houses are the Bank's
    auction = s["pending"]["auction"]
    assert {auction["property"], *auction["queue"]} == set(CARLAS)
    for _ in CARLAS:  # one by one, whatever the order
        t("bid Anna 1000")
        t("hammer")
    assert all(t.owner(n) == "Anna" for n in CARLAS)
    assert t.cashes() == {"Anna": 199_000 - 7_000, "Bruno": 185_000, "Carla": 0}
    assert t.turn()["player"] == "Anna" and t.state()["ended"] is False
    t("audit")


def test_a_debtor_pays_partly_with_a_deed_at_the_price_the_creditor_names(table_from):
    # 002 §Varie: "può pagarlo parte in buoni e parte in proprietà (libere da costruzioni). Le
    # proprietà verranno valutate al prezzo che il creditore vorrà pagarle."
    t = table_from("vintage-drain-225000", three_players(225_000))
    assert t.cashes() == {"Anna": 199_000, "Bruno": 45_000, "Carla": 7_000}
    t("claim Bruno")  # 20.000 > 7.000: a debt
    assert t.state()["pending"]["debt"]["amount"] == 20_000
    t.refused("pay Carla --with 'Vicolo Corto=13000'", r"002 §Varie")  # a house stands on it
    t("pay Carla --with 'Viale Vesuvio=13000'")  # 7.000 cash + Viale Vesuvio at 13.000
    assert t.owner("Viale Vesuvio") == "Bruno"
    assert t.cashes() == {"Anna": 199_000, "Bruno": 52_000, "Carla": 0}
    assert t.state()["pending"]["debts"] == []


def test_a_debtor_who_finds_the_price_unfair_auctions_the_deed_among_the_others(table_from):
    # 002 §Varie: "Nel caso che tale prezzo non fosse giudicato equo dal debitore, questi potrà
    # mettere all'asta le proprietà tra gli altri giocatori e affidarle ai migliori offerenti."
    t = table_from("vintage-drain-225000", three_players(225_000))
    t("claim Bruno")  # Carla owes 20.000 and has 7.000
    t("auction-deed viale vesuvio")
    t.refused("bid Carla 16000", r"002")  # the debtor is not among "gli altri giocatori"
    t("bid Bruno 14000")
    t("bid Anna 15000")
    t("hammer")
    assert t.owner("Viale Vesuvio") == "Anna"
    t("pay Carla")  # the 15.000 pays the debt with Carla's 7.000
    assert t.cashes() == {"Anna": 184_000, "Bruno": 65_000, "Carla": 2_000}
    assert t.state()["pending"]["debts"] == []


def test_a_debtors_deed_nobody_bids_for_stays_his_as_the_warning_says_first(table_from):
    # 002 §Varie: the debtor's own auction; no bid, and the deed stays with him (not with the
    # Bank, nor with the richest): said when the auction opens, as the banker's page says it
    t = table_from("vintage-drain-225000", three_players(225_000))
    t("claim Bruno")
    opened = t("auction-deed viale vesuvio").output
    assert "if nobody bids: `hammer` (no bid: Viale Vesuvio stays with Carla, 002 §Varie)" \
        in opened, opened
    t("hammer")
    assert t.owner("Viale Vesuvio") == "Carla"


def test_agreed_end_time_ends_at_once_and_the_richest_wins(table):
    # 002 §Conclusione del gioco: "Alla fine del tempo fissato, i giocatori conteranno i loro
    # buoni, aggiungendo i valori dei terreni, stazioni, imprese, delle case e degli alberghi
    # (naturalmente i terreni ipotecati valgono la metà)".
    t = table
    t("new Anna Bruno --rules vintage")
    t.run(f"""
        deal Anna {ANNA7}     # 271.000
        deal Bruno {BRUNO7}   # 230.000, the whole pink group among them
        roll 5 6              # Anna 0 -> 11 Via Accademia: pink group, unbuilt, 2 x 1.000
        claim Bruno           # Anna 269.000, Bruno 232.000
        build vicolo corto
        build vicolo stretto  # Anna 269.000 - 2 x 5.000 = 259.000
        mortgage stazione sud # Anna 259.000 + 10.000 = 269.000
        roll 4 6              # Bruno 0 -> 10, visiting
        roll 6 6              # Anna 11 -> 23 Corso Magellano, doubles: a turn in progress
    """)
    t("time-up")  # ends at once, whatever is in progress
    s = t.state()
    assert s["ended"] is True and s["winner"] == "Bruno"
    assert t.owner("Corso Magellano") is None
    t.refused("buy", r"002")  # the game is over
    # Anna: 269.000 + land (6+6+10+10+12+15).000 + Stazione Sud mortgaged 20.000 / 2
    #       + 2 houses x 5.000 = 269.000 + 59.000 + 10.000 + 10.000 = 348.000
    # Bruno: 232.000 + 120.000 = 352.000
    assert [(r["name"], r["net_worth"]) for r in t.standings()] == [
        ("Bruno", 352_000), ("Anna", 348_000)]
