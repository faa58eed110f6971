"""`championship` (seed 000, 2015 Italian championship): scenarios worked out by hand.

Board figures are the `it` edition's (M): Vicolo Corto 1 (60, rent 2), Vicolo Stretto 3 (60, 4),
Stazione Sud 5, Bastioni Gran Sasso 6 (100, 6), Viale Monterosa 8 (100, 6), Viale Vesuvio 9
(120, 8), Via Accademia 11 (140, 10), Società Elettrica 12 (150), Corso Ateneo 13 (140, 10),
Piazza Università 14 (160, 12), stations 5 15 25 35 (200; rent 25/50/100/200 by stations owned),
utilities 12 28 (rent 4x dice with one, 10x with both).  Mortgage = half the price.

Every dice roll before a player's first pass of Via! is two dice; after it, three (`roll D1 D2 S`,
S one of 1 2 3 bus mr).  The comment beside each line gives the position and cash worked out.
"""

from __future__ import annotations

import re

import pytest
from freezegun import freeze_time

pytestmark = pytest.mark.scenarios

SEED = r"\(00\d "  # any seed cited, for refusals that are not the rule set's own

NEW2 = "new Anna Bruno --rules championship"
NEW3 = "new Anna Bruno Carla --rules championship"
NEW4 = "new Anna Bruno Carla Dario --rules championship"

# Two players; Anna goes once round the board on two dice, passing Via! for the first time on
# her fourth roll, so her fifth roll (the scenario's first) is with the Speedy die.
LAP = f"""
{NEW2}
roll 5 6   # Anna 0 -> 11 Via Accademia
buy        # Anna 1500 - 140 = 1360
roll 2 3   # Bruno 0 -> 5 Stazione Sud
buy        # Bruno 1500 - 200 = 1300
roll 4 6   # Anna 11 -> 21 Via Marco Polo
buy        # Anna 1360 - 220 = 1140
roll 3 4   # Bruno 5 -> 12 Società Elettrica
buy        # Bruno 1300 - 150 = 1150
roll 4 6   # Anna 21 -> 31 Via Roma
buy        # Anna 1140 - 300 = 840
roll 3 5   # Bruno 12 -> 20 Parcheggio Gratuito
roll 4 6   # Anna 31 -> 41 = 1 Vicolo Corto: first pass of Via!, +200 = 1040
buy        # Anna 1040 - 60 = 980
roll 2 3   # Bruno 20 -> 25 Stazione Nord
buy        # Bruno 1150 - 200 = 950
"""
# After LAP: Anna at 1 with 980 M, owns 1 11 21 31, to roll with the Speedy die.
# Bruno at 25 with 950 M, owns 5 12 25 (so one utility: rent 4 x dice), has not passed Via!.


@pytest.fixture
def lap(table_from):
    def fresh():
        t = table_from("championship-lap", LAP)
        assert (t.pos("Anna"), t.cash("Anna"), t.turn()["player"]) == (1, 980, "Anna")
        assert (t.pos("Bruno"), t.cash("Bruno")) == (25, 950)
        return t

    return fresh


# --- the Speedy die: before and after the first pass of Via! --------------------------------

def test_speedy_die_ignored_before_the_first_pass_of_via(table):
    # 000 §SVOLGIMENTO 2: "durante il primo giro di tabellone, tirate soltanto i due dadi
    # numerati"; FAQ 35: three dice thrown by mistake -> move by the numbered dice, ignore Speedy.
    t = table
    t(NEW2)
    t("roll 1 2 3")  # Anna: 1+2 = 3 (not 6) -> Vicolo Stretto
    assert t.pos("Anna") == 3
    assert t.turn()["phase"] == "buy"
    t("buy")
    t("roll 3 3 3")  # Bruno: not a triple before his first pass, just doubles 3+3 = 6
    assert t.pos("Bruno") == 6  # Bastioni Gran Sasso, not "any space"
    t("buy")
    assert t.turn() == {"player": "Bruno", "phase": "roll", "doubles": 1}  # doubles: again
    t("roll 1 2 mr")  # Mr Monopoly ignored: 6 + 3 = 9 Viale Vesuvio, no second move
    assert t.pos("Bruno") == 9
    t("buy")
    assert t.turn()["player"] == "Anna"  # the turn passed: nothing waits for `advance`
    assert t.cashes() == {"Anna": 1440, "Bruno": 1500 - 100 - 120}


def test_speedy_number_is_added_after_the_first_pass(lap):
    # 000 §SVOLGIMENTO 3: "1, 2 or 3: aggiungete questo numero al totale dei due dadi".
    t = lap()
    t("roll 3 4 1")  # 1 + 3 + 4 + 1 = 9 Viale Vesuvio (unowned)
    assert t.pos("Anna") == 9
    assert t.turn()["phase"] == "buy"
    assert t.cash("Anna") == 980  # no Via! on the way


def test_utility_rent_counts_the_speedy_number(lap):
    # 000 §SOCIETÀ: rent "a seconda del tiro di dado usato per arrivarci sopra (incluso il Dado
    # Speedy)".  1 + 4 + 5 + 2 = 12 Società Elettrica, Bruno's only utility: 4 x (4+5+2) = 44
    # (without the Speedy die it would be 36).
    t = lap()
    t("roll 4 5 2")
    assert t.pos("Anna") == 12
    assert t.rents() == [("Anna", "Bruno", "Società Elettrica", 44)]
    t("claim Bruno")
    assert t.cashes() == {"Anna": 980 - 44, "Bruno": 950 + 44}


# --- Bus ------------------------------------------------------------------------------------

@pytest.mark.parametrize("n, where, phase", [
    (5, 6, "buy"),    # one die (5): 1 + 5 = 6 Bastioni Gran Sasso, for sale
    (6, 7, "card"),   # the other die (6): 1 + 6 = 7 Imprevisti, a card to draw
    (11, 12, None),   # both dice: 1 + 11 = 12 Società Elettrica, Bruno's
])
def test_bus_moves_by_one_die_or_both(lap, n, where, phase):
    # 000 FAQ 38: "puoi decidere di muoverti del numero di spazi indicati da uno solo dei dadi
    # numerati o dalla somma dei due"; 5 and 6 give 5, 6 or 11.
    t = lap()
    t("roll 5 6 bus")
    assert t.pos("Anna") == 1  # the table waits for `move N`
    t(f"move {n}")
    assert t.pos("Anna") == where
    if phase:
        assert t.turn()["phase"] == phase
    else:
        # 000 §SOCIETÀ: "Il Bus e Mr. Monopoly valgono come uno zero": 4 x (5 + 6 + 0) = 44.
        assert t.rents() == [("Anna", "Bruno", "Società Elettrica", 44)]


def test_bus_refuses_any_other_move_and_names_the_three_choices(lap):
    t = lap()
    t.refused("move 5", SEED)  # no Bus on the table yet
    t("roll 5 6 bus")
    r = t.refused("move 4", r"000 (FAQ 38|§SVOLGIMENTO)")
    # the three choices named together, whatever the wording
    assert any({"5", "6", "11"} <= set(re.findall(r"\d+", line))
               for line in r.output.splitlines()), r.output
    t.refused("move 12", r"000 (FAQ 38|§SVOLGIMENTO)")
    assert t.pos("Anna") == 1
    t("move 11")
    assert t.pos("Anna") == 12


# --- Mr Monopoly with free properties left --------------------------------------------------

def test_mr_monopoly_pays_the_first_square_then_advances_to_the_next_free_property(lap):
    t = lap()
    # 000 §SVOLGIMENTO 3: "muovetevi per la somma dei due dadi e fate l'azione prevista".
    t("roll 5 6 mr")  # 1 + 11 = 12 Società Elettrica: 4 x (5 + 6 + 0) = 44 (§SOCIETÀ)
    assert t.pos("Anna") == 12
    assert t.rents() == [("Anna", "Bruno", "Società Elettrica", 44)]
    t("claim Bruno")  # FAQ 40: the rent of the first square is owed before the second move
    assert t.cashes() == {"Anna": 936, "Bruno": 994}
    # "Quindi avanzate sul primo spazio non ancora acquistato": 13 Corso Ateneo is unowned.
    t("advance")
    assert t.pos("Anna") == 13
    assert t.turn()["phase"] == "buy"
    t("decline")  # "compratelo oppure mettetelo all'asta"
    assert t.state()["pending"]["auction"]["min_bid"] == 1  # 000 §ASTE: from 1 M
    t("bid Bruno 30")
    t("bid Anna 31")
    t("hammer")
    assert t.owner("Corso Ateneo") == "Anna"
    assert t.cashes() == {"Anna": 936 - 31, "Bruno": 994}
    assert t.turn()["player"] == "Bruno"  # the second move ends the turn


# --- Mr Monopoly when every property is owned (FAQ 39, 42) ---------------------------------

# Four players, eight rounds, every roll on two dice; only Anna's last passes Via! (and
# Dario's last stops on it):
# each of the 28 deeds is landed on once and bought or auctioned to the owner this scenario
# wants.  Then Anna is at 1 with 40 M, to roll with the Speedy die.
#   Anna: every deed except those below;  Bruno: Via Accademia 11, Corso Ateneo 13, Piazza
#   Università 14 (the whole pink group);  Carla: Stazione Sud 5;  Dario: Società Elettrica 12.
FULL_BOARD = f"""
{NEW4}
# round 1
roll 1 5   # Anna 0 -> 6 Bastioni Gran Sasso
buy        # Anna 1500 - 100 = 1400
roll 1 2   # Bruno 0 -> 3 Vicolo Stretto
decline
bid Anna 1
hammer     # Anna 1399
roll 1 4   # Carla 0 -> 5 Stazione Sud
buy        # Carla 1500 - 200 = 1300
roll 5 6   # Dario 0 -> 11 Via Accademia
decline
bid Bruno 1
hammer     # Bruno 1499
# round 2
roll 2 4   # Anna 6 -> 12 Società Elettrica
decline
bid Dario 1
hammer     # Dario 1499
roll 1 4   # Bruno 3 -> 8 Viale Monterosa
decline
bid Anna 1
hammer     # Anna 1398
roll 1 3   # Carla 5 -> 9 Viale Vesuvio
decline
bid Anna 1
hammer     # Anna 1397
roll 1 3   # Dario 11 -> 15 Stazione Ovest
decline
bid Anna 1
hammer     # Anna 1396
# round 3
roll 1 3   # Anna 12 -> 16 Via Verdi
buy        # Anna 1396 - 180 = 1216
roll 2 3   # Bruno 8 -> 13 Corso Ateneo
buy        # Bruno 1499 - 140 = 1359
roll 2 3   # Carla 9 -> 14 Piazza Università
decline
bid Bruno 1
hammer     # Bruno 1358
roll 1 4   # Dario 15 -> 20 Parcheggio Gratuito
# round 4
roll 1 2   # Anna 16 -> 19 Piazza Dante
buy        # Anna 1216 - 200 = 1016
roll 1 4   # Bruno 13 -> 18 Corso Raffaello
decline
bid Anna 1
hammer     # Anna 1015
roll 3 4   # Carla 14 -> 21 Via Marco Polo
decline
bid Anna 1
hammer     # Anna 1014
roll 1 4   # Dario 20 -> 25 Stazione Nord
decline
bid Anna 1
hammer     # Anna 1013
# round 5
roll 1 4   # Anna 19 -> 24 Largo Colombo
buy        # Anna 1013 - 240 = 773
roll 2 3   # Bruno 18 -> 23 Corso Magellano
decline
bid Anna 1
hammer     # Anna 772
roll 1 4   # Carla 21 -> 26 Viale Costantino
decline
bid Anna 1
hammer     # Anna 771
roll 1 2   # Dario 25 -> 28 Società Acqua Potabile
decline
bid Anna 1
hammer     # Anna 770
# round 6
roll 2 3   # Anna 24 -> 29 Piazza Giulio Cesare
buy        # Anna 770 - 280 = 490
roll 1 3   # Bruno 23 -> 27 Viale Traiano
decline
bid Anna 1
hammer     # Anna 489
roll 2 3   # Carla 26 -> 31 Via Roma
decline
bid Anna 1
hammer     # Anna 488
roll 1 2   # Dario 28 -> 31 Via Roma, Anna's: she never claims; it lapses when Bruno rolls
# round 7
roll 1 4   # Anna 29 -> 34 Largo Augusto
buy        # Anna 488 - 320 = 168
roll 1 4   # Bruno 27 -> 32 Corso Impero
decline
bid Anna 1
hammer     # Anna 167
roll 1 3   # Carla 31 -> 35 Stazione Est
decline
bid Anna 1
hammer     # Anna 166
roll 1 3   # Dario 31 -> 35 Stazione Est, Anna's: never claimed, lapses when Bruno rolls
# round 8
roll 3 4   # Anna 34 -> 41 = 1 Vicolo Corto: first pass of Via!, 166 + 200 = 366
buy        # Anna 366 - 60 = 306
roll 2 3   # Bruno 32 -> 37 Viale dei Giardini
decline
bid Anna 1
hammer     # Anna 305
roll 1 3   # Carla 35 -> 39 Parco della Vittoria
decline
bid Anna 265
hammer     # Anna 305 - 265 = 40
roll 1 4   # Dario 35 -> 40 = Via!: +200, 1499 + 200 = 1699
"""
BRUNO = {"Via Accademia", "Corso Ateneo", "Piazza Università"}


@pytest.fixture
def full_board(table_from):
    def fresh():
        t = table_from("championship-full-board", FULL_BOARD)
        s = t.state()
        owners = {p["name"]: p["owner"] for p in s["properties"]}
        assert None not in owners.values()  # no free property left
        assert {n for n, o in owners.items() if o == "Bruno"} == BRUNO
        assert owners["Stazione Sud"] == "Carla" and owners["Società Elettrica"] == "Dario"
        assert t.cashes() == {"Anna": 40, "Bruno": 1358, "Carla": 1300, "Dario": 1699}
        assert (t.pos("Anna"), s["turn"]["player"], s["pending"]["rent"]) == (1, "Anna", [])
        return t

    return fresh


def test_mr_monopoly_goes_to_the_nearest_rent_when_nothing_is_free(full_board):
    t = full_board()
    t("roll 3 4 mr")  # 1 + 7 = 8 Viale Monterosa, Anna's own: nothing to do
    assert t.pos("Anna") == 8
    # FAQ 41: trades and building are allowed between the two moves (with the active player,
    # FAQ 26).  Anna sells Vicolo Stretto to Carla for 5.
    t.refused("trade Bruno Carla --give 10 --get stazione sud", r"000 FAQ 26")
    t("trade Anna Carla --give vicolo stretto --get 5")  # Anna 45
    # FAQ 39: "devi muovere il segnalino sulla più vicina proprietà alla quale saresti
    # obbligato a pagare la rendita".  Forward from 8: 9 is Anna's, 10 is the jail, 11 Via
    # Accademia is Bruno's, unmortgaged.  Bruno holds the whole pink group unbuilt: 2 x 10 = 20.
    t("advance")
    assert t.pos("Anna") == 11
    assert t.rents() == [("Anna", "Bruno", "Via Accademia", 20)]
    t("claim Bruno")
    assert t.cashes() == {"Anna": 45 - 20, "Bruno": 1358 + 20, "Carla": 1295, "Dario": 1699}
    assert t.turn()["player"] == "Bruno"


def test_mr_monopoly_skips_mortgaged_lots_and_pays_the_utility_on_the_roll(full_board):
    t = full_board()
    t("mortgage via accademia")  # Bruno, between turns: 1358 + 70 = 1428
    t("roll 3 4 mr")  # 1 + 7 = 8, Anna's own
    t("advance")
    # FAQ 39: a mortgaged property is not one "alla quale saresti obbligato a pagare": 9 is
    # Anna's, 11 is mortgaged, 12 Società Elettrica is Dario's.  000 §SOCIETÀ NB: after Mr
    # Monopoly "usate il valore dei dadi che avete lanciato immediatamente prima del
    # movimento": Dario has one utility, 4 x (3 + 4) = 28.
    assert t.pos("Anna") == 12
    assert t.rents() == [("Anna", "Dario", "Società Elettrica", 28)]
    t("claim Dario")
    assert t.cashes() == {"Anna": 12, "Bruno": 1428, "Carla": 1300, "Dario": 1727}


def test_mr_monopoly_two_rents_are_two_claims_paid_in_order(full_board):
    # 000 FAQ 42: "trattali come due momenti separati del tuo turno ... Paga la rendita al primo
    # spazio su cui ti sei fermato ... Se hai ancora dei beni, paga la rendita per il terreno su
    # cui ti ha portato Mr. Monopoly."
    t = full_board()
    t("roll 1 3 mr")  # 1 + 4 = 5 Stazione Sud: Carla's only station, 25
    assert t.rents() == [("Anna", "Carla", "Stazione Sud", 25)]
    t("advance")  # 6 8 9 are Anna's; 11 Via Accademia, Bruno's whole pink group: 2 x 10 = 20
    assert t.pos("Anna") == 11
    assert t.rents() == [("Anna", "Carla", "Stazione Sud", 25),
                         ("Anna", "Bruno", "Via Accademia", 20)]
    t("claim Carla")  # the first square first: 40 - 25 = 15
    assert t.cashes()["Anna"] == 15 and t.cash("Carla") == 1325
    t("claim Bruno")  # 20 > 15: the second rent is a debt of its own, to Bruno
    debt = t.state()["pending"]["debt"]
    assert (debt["debtor"], debt["creditor"], debt["amount"]) == ("Anna", "Bruno", 20)
    assert t.cash("Bruno") == 1358
    t("mortgage vicolo corto")  # 15 + 30 = 45
    t("pay Anna")
    assert t.cashes() == {"Anna": 25, "Bruno": 1378, "Carla": 1325, "Dario": 1699}
    assert t.state()["pending"]["debts"] == []


def test_mr_monopoly_stays_put_when_no_rent_is_owed_anywhere(full_board):
    t = full_board()
    # Every deed not Anna's mortgaged between turns (Carla +100, Bruno +70 +70 +80, Dario +75).
    for deed in ("stazione sud", "via accademia", "corso ateneo", "piazza università",
                 "società elettrica"):
        t(f"mortgage {deed}")
    t("roll 3 4 mr")  # 1 + 7 = 8, Anna's own
    # FAQ 39: "Se tutte le proprietà possedute dagli altri giocatori sono ipotecate ... lasci il
    # segnalino sullo spazio in cui si trova."
    t("advance")
    assert t.pos("Anna") == 8
    assert t.rents() == []
    assert t.cashes() == {"Anna": 40, "Bruno": 1358 + 220, "Carla": 1400, "Dario": 1774}
    assert t.turn()["player"] == "Bruno"


# --- triples ---------------------------------------------------------------------------------

@pytest.mark.parametrize("target, where, salary", [
    ("vicolo stretto", 3, 0),  # 1 -> 3 clockwise, Via! not passed
    ("3", 3, 0),               # the same space by number
    ("1", 1, 200),             # FAQ 37: round the board back to Vicolo Corto: 200
    ("0", 0, 200),             # stopping on Via! (FAQ 13: "Quando ti ci Fermi sopra")
])
def test_a_triple_goes_to_any_space_and_ends_the_turn(lap, target, where, salary):
    # 000 §SVOLGIMENTO 3: three equal dice, "potete muovervi su qualunque spazio del tabellone.
    # Se passate dal VIA ritirate 200 M"; FAQ 36: do that space, "Il tuo turno a quel punto è
    # finito" (2 2 are doubles, yet no second roll).
    t = lap()
    t("roll 2 2 2")
    assert t.pos("Anna") == 1  # the table waits for `go SPACE`
    t(f"go {target}")
    assert t.pos("Anna") == where
    assert t.cash("Anna") == 980 + salary
    if where == 3:
        assert t.turn()["phase"] == "buy"
        t("buy")  # 60
        assert t.cash("Anna") == 920
    assert t.turn() == {"player": "Bruno", "phase": "roll", "doubles": 0}


def test_a_triple_after_two_doubles_is_the_third_double_jail(lap):
    # 000 FAQ 36 NB: "L'unico momento in cui un triplo vale come un doppio è quando hai già
    # lanciato un doppio numero due volte ... ti spedisce direttamente in prigione."
    t = lap()
    t("roll 2 2 1")  # doubles 1: 1 + 5 = 6 Bastioni Gran Sasso
    t("buy")         # 980 - 100 = 880
    t("roll 1 1 2")  # doubles 2: 6 + 4 = 10, just visiting
    t("roll 3 3 3")  # a triple, as the third double: jail, no `go`
    anna = t.player("Anna")
    assert (anna["position"], anna["in_jail"], anna["cash"]) == (10, True, 880)
    assert t.turn()["player"] == "Bruno"
    t.refused("go 20", SEED)


# --- doubles and jail count the numbered dice only -------------------------------------------

def test_doubles_count_the_numbered_dice_only(lap):
    # 000 §SVOLGIMENTO 7 NB: "Prendete in considerazione solo i dadi numerati. Trattate sempre
    # separatamente il Dado speedy."
    t = lap()
    t("roll 3 4 3")  # a 3 beside a 3 and a 4 is no double: 1 + 10 = 11, Anna's own
    assert t.pos("Anna") == 11
    assert t.turn() == {"player": "Bruno", "phase": "roll", "doubles": 0}

    t = lap()
    t("roll 2 2 1")  # 2 2 are doubles whatever the Speedy die: 1 + 5 = 6
    t("buy")
    assert t.turn() == {"player": "Anna", "phase": "roll", "doubles": 1}


def test_in_jail_only_the_numbered_dice_count_and_mr_monopoly_is_lost(lap):
    t = lap()
    t("roll 2 2 1")   # 6 Bastioni Gran Sasso
    t("buy")          # 880
    t("roll 1 1 2")   # 10, visiting
    t("roll 3 3 mr")  # third double: jail.  §8: "Non potete usare il risultato del Dado
    #                   Speedy (Bus o Mr Monopoly) una volta che siete finiti in Prigione."
    assert t.player("Anna")["in_jail"] is True
    t.refused("advance", SEED)  # nothing to advance: the turn is over
    assert t.turn()["player"] == "Bruno"
    t("roll 1 2")     # Bruno 25 -> 28 Società Acqua Potabile (he has not passed Via!)
    t("buy")          # Bruno 950 - 150 = 800
    # FAQ 34: in jail "metti da parte il Dado Speedy"; FAQ 35: a Speedy die thrown anyway is
    # ignored.  1 2 3: no doubles, Anna stays (the 3 is not a move).
    t("roll 1 2 3")
    anna = t.player("Anna")
    assert (anna["position"], anna["in_jail"], anna["jail_turns"]) == (10, True, 1)
    t("roll 1 2")     # Bruno 28 -> 31 Via Roma, Anna's (a claim she leaves)
    # 2 2 mr: numbered doubles free her; she moves 4 (FAQ 16: no second roll), no Mr Monopoly.
    t("roll 2 2 mr")
    assert (t.pos("Anna"), t.player("Anna")["in_jail"]) == (14, False)
    t("buy")          # Piazza Università: 880 - 160 = 720
    assert t.cash("Anna") == 720
    assert t.turn() == {"player": "Bruno", "phase": "roll", "doubles": 0}


# --- rent -------------------------------------------------------------------------------------

def test_rent_may_be_claimed_until_the_second_player_after_the_payer_rolls(table):
    # 000 FAQ 7: "prima che il secondo giocatore alla tua sinistra tiri i suoi dadi ... Il
    # giocatore A arriva sulla tua proprietà, quindi il giocatore B inizia il proprio turno:
    # puoi ancora riscuotere la rendita. Non appena il giocatore C avrà lanciato i suoi dadi,
    # avrai perso la tua opportunità."
    t = table
    t(NEW4)
    t("roll 1 2")  # Anna -> 3 Vicolo Stretto
    t("buy")       # 1440
    t("roll 1 2")  # Bruno -> 3: Anna may claim 4 until Dario (two seats after Bruno) rolls
    assert t.state()["pending"]["rent"][0]["closes_when"].startswith("Dario")
    t("roll 2 3")  # Carla -> 5 Stazione Sud: the next player has rolled ...
    t("buy")       # Carla 1300
    t("claim Anna")  # ... and the claim is still in time
    assert t.cashes() == {"Anna": 1444, "Bruno": 1496, "Carla": 1300, "Dario": 1500}

    t("roll 1 2")  # Dario -> 3: a claim that closes when Bruno rolls
    t("roll 3 4")  # Anna 3 -> 10, visiting: still open
    t("roll 3 4")  # Bruno 3 -> 10: closed
    r = t.refused("claim Anna", r"000 FAQ 7", appended=1)  # the refusal is kept as evidence
    assert "too late" in r.output
    late = t.log()[-1]
    assert late["type"] == "RentClaimRefused"
    assert (late["data"]["payer"], late["data"]["closer"]) == ("Dario", "Bruno")
    assert t.cashes() == {"Anna": 1444, "Bruno": 1496, "Carla": 1300, "Dario": 1500}


def test_double_rent_is_kept_on_the_unmortgaged_lots_of_a_complete_group(table):
    # 000 §PAGARE LA RENDITA: "Anche se una proprietà di quel colore è ipotecata, potete ancora
    # raccogliere una rendita doppia dalle proprietà senza ipoteca" (also §IPOTECHE).
    t = table
    t(NEW4)
    t("roll 2 4")  # Anna -> 6 Bastioni Gran Sasso
    t("buy")       # 1400
    t("roll 3 5")  # Bruno -> 8 Viale Monterosa
    t("decline")
    t("bid Anna 1")
    t("hammer")    # Anna 1399
    t("roll 4 5")  # Carla -> 9 Viale Vesuvio
    t("decline")
    t("bid Anna 1")
    t("hammer")    # Anna 1398: the whole light-blue group
    t("mortgage bastioni gran sasso")  # 1398 + 50 = 1448
    t("roll 4 5")  # Dario -> 9 Viale Vesuvio: 2 x 8 = 16 (classic 004 would say 8)
    assert t.rents() == [("Dario", "Anna", "Viale Vesuvio", 16)]
    t("claim Anna")
    assert t.cashes() == {"Anna": 1464, "Bruno": 1500, "Carla": 1500, "Dario": 1484}


# --- auctions ---------------------------------------------------------------------------------

def test_auctions_open_at_1_and_with_no_bid_the_richest_player_takes_the_deed_at_1(table):
    # 000 §COMPRARE I CONTRATTI / §ASTE: "il banchiere inizia l'asta a 1M"; FAQ 22: "Nel raro
    # caso che [non] ci siano offerte, il banchiere darà la proprietà al giocatore con più soldi
    # al costo di 1 M."
    t = table
    t(NEW4)
    t("roll 1 2")  # Anna -> 3 Vicolo Stretto
    t("buy")       # 1440
    t("roll 2 3")  # Bruno -> 5 Stazione Sud
    t("buy")       # 1300
    t("roll 4 5")  # Carla -> 9 Viale Vesuvio
    t("buy")       # 1380
    t("roll 4 6")  # Dario -> 10, visiting: he keeps his 1500, the most cash at the table
    t("roll 4 5")  # Anna 3 -> 12 Società Elettrica
    t("decline")
    assert t.state()["pending"]["auction"]["min_bid"] == 1
    t.refused("bid Bruno 0", r"000")
    t("hammer")    # nobody bid: Dario 1500 > Anna 1440 > Carla 1380 > Bruno 1300
    assert t.owner("Società Elettrica") == "Dario"
    assert t.cashes() == {"Anna": 1440, "Bruno": 1300, "Carla": 1380, "Dario": 1499}
    assert t.turn()["player"] == "Bruno"


# --- trades -----------------------------------------------------------------------------------

def test_a_jail_card_sells_for_at_most_50(table):
    # 000 FAQ 21: "Puoi venderla per un totale massimo di 50 M, non di più."
    t = table
    t(NEW3)
    t("roll 3 4")           # Anna -> 7 Imprevisti
    t("card imprevisti 15")  # "Uscite gratis di prigione": kept
    assert t.player("Anna")["jail_cards"] == 1
    t.refused("trade Anna Bruno --give jail-card --get 51", r"000 FAQ 21")
    t("trade Anna Bruno --give jail-card --get 50")
    assert (t.player("Anna")["jail_cards"], t.player("Bruno")["jail_cards"]) == (0, 1)
    assert t.cashes() == {"Anna": 1550, "Bruno": 1450, "Carla": 1500}


def test_trades_inside_a_turn_must_involve_the_active_player(table):
    # 000 FAQ 26: "Gli scambi effettuati all'interno di un turno devono coinvolgere il giocatore
    # attivo. Tra un turno e l'altro, ogni giocatore può commerciare con qualunque altro";
    # FAQ 11: a turn is the roll, the move and the square's action.
    t = table
    t(NEW4)
    t("roll 1 2")  # Anna -> 3 Vicolo Stretto
    t("buy")       # 1440
    t("roll 2 3")  # Bruno -> 5 Stazione Sud
    t("buy")       # 1300
    t("roll 4 5")  # Carla -> 9 Viale Vesuvio
    t("buy")       # 1380
    t("roll 2 4")  # Dario -> 6 Bastioni Gran Sasso
    t("buy")       # 1400
    t("roll 5 6")  # Anna 3 -> 14 Piazza Università: her turn is in progress
    t.refused("trade Bruno Carla --give stazione sud --get 250", r"000 FAQ 26")
    t("trade Anna Bruno --give 250 --get stazione sud")  # Anna 1190, Bruno 1550
    t("buy")       # Anna 1190 - 160 = 1030; the turn passes to Bruno, who has not rolled
    t("trade Carla Dario --give viale vesuvio --get 150")  # between turns: anyone
    assert t.owner("Stazione Sud") == "Anna" and t.owner("Viale Vesuvio") == "Dario"
    assert t.cashes() == {"Anna": 1030, "Bruno": 1550, "Carla": 1530, "Dario": 1250}


# Carla spends everything on Vicolo Stretto and cannot pay the 200 tax: bankrupt to the Bank,
# her deed auctioned (000 §BANCAROTTA, "Debiti verso la banca"); Anna and Bruno are left.
TWO_LEFT = """
roll 1 2        # Anna -> 3 Vicolo Stretto
decline
bid Carla 1500
hammer          # Carla 0
roll 2 3        # Bruno -> 5 Stazione Sud
buy             # Bruno 1300
roll 1 3        # Carla -> 4 Tassa Patrimoniale: 200 owed, 0 cash, 30 raisable
bankrupt Carla
bid Anna 10
hammer          # Vicolo Stretto to Anna: 1490
"""


def test_no_trades_with_two_players_left_in_a_preliminary_game(table):
    # 000 FAQ 31: "Nelle partite preliminari ... non è più permesso fare accordi o scambi una
    # volta che sono rimasti solo due giocatori."
    t = table
    t(NEW3)
    t.run(TWO_LEFT)
    assert [p["bankrupt"] for p in t.state()["players"]] == [False, False, True]
    t.refused("trade Anna Bruno --give 300 --get stazione sud", r"000 FAQ 31")
    assert t.owner("Stazione Sud") == "Bruno"


def test_a_final_allows_trades_with_two_players_left(table):
    t = table
    t(NEW3 + " --final")  # FAQ 31 applies to preliminary games only
    t.run(TWO_LEFT)
    t("trade Anna Bruno --give 300 --get stazione sud")
    assert t.owner("Stazione Sud") == "Anna"
    assert t.cashes() == {"Anna": 1190, "Bruno": 1600, "Carla": 0}


# --- bankruptcy in the start-of-turn state -----------------------------------------------------

def test_bankruptcy_to_a_player_passes_the_deeds_as_they_were_when_the_turn_began(table):
    # 000 FAQ 32: "devi dargli le tue proprietà nello stato in cui si trovavano all'inizio del
    # tuo turno ... anche se durante il turno hai ipotecato".  Reading (see the report): the
    # deed mortgaged during the turn passes unmortgaged and the mortgage money it brought goes
    # back to the Bank (else the Bank's loan would vanish); a deed mortgaged before the turn
    # passes mortgaged and the creditor pays the 10% (FAQ 33).  Anna's turn runs from her roll
    # until the next roll, while the rent of her landing is being claimed.
    t = table
    t(NEW3)
    t("roll 2 4")  # Anna -> 6 Bastioni Gran Sasso
    t("buy")       # 1400
    t("mortgage bastioni gran sasso")  # before Anna's next turn: 1400 + 50 = 1450
    t("roll 1 2")  # Bruno -> 3 Vicolo Stretto
    t("decline")
    t("bid Anna 1450")
    t("hammer")    # Anna 0, Vicolo Stretto unmortgaged
    t("roll 2 3")  # Carla -> 5 Stazione Sud
    t("decline")
    t("bid Bruno 1")
    t("hammer")    # Bruno 1499
    t("roll 1 3")  # Anna 6 -> 10, visiting
    t("roll 1 2")  # Bruno 3 -> 6 Bastioni Gran Sasso, mortgaged: no rent
    t("roll 4 6")  # Carla 5 -> 15 Stazione Ovest
    t("decline")
    t("bid Bruno 1")
    t("hammer")    # Bruno 1498, two stations
    # Anna's turn begins: cash 0, Vicolo Stretto unmortgaged, Bastioni mortgaged.
    t("roll 2 3")  # Anna 10 -> 15 Stazione Ovest: Bruno's two stations, 50
    t("mortgage vicolo stretto")  # during the turn: 0 + 30 = 30
    t("claim Bruno")  # 50 > 30: a debt
    t("bankrupt Anna")  # 30 raisable < 50
    vs, bg = t.prop("Vicolo Stretto"), t.prop("Bastioni Gran Sasso")
    assert (vs["owner"], vs["mortgaged"]) == ("Bruno", False)  # as at the start of the turn
    assert (bg["owner"], bg["mortgaged"]) == ("Bruno", True)
    # Anna's 30 repays the Bank for Vicolo Stretto's mortgage; nothing left for Bruno in cash.
    # Bruno pays 10% of Bastioni's 50 mortgage = 5 (FAQ 33): 1498 - 5 = 1493.
    assert t.cashes() == {"Anna": 0, "Bruno": 1493, "Carla": 1500}
    assert t.player("Anna")["bankrupt"] is True
    t("audit")  # the chain and the books, event by event


# --- the time limit ---------------------------------------------------------------------------

START_OF_LAST_TURN = f"""
{NEW2}
roll 1 2   # Anna -> 3 Vicolo Stretto
buy        # 1440
roll 1 2   # Bruno -> 3: rent 4
claim Anna # Anna 1444, Bruno 1496
roll 3 3   # Anna 3 -> 9 Viale Vesuvio, doubles: a second roll would be a new turn (FAQ 11)
"""


def test_time_up_during_a_turn_lets_the_turn_finish_then_the_game_ends(table):
    # 000 FAQ 6: "Quando il tempo finisce, il giocatore attivo finisce il proprio turno;
    # dopodiché il gioco è concluso."  FAQ 11: the doubles re-roll is an extra turn.
    t = table
    t.run(START_OF_LAST_TURN)
    with freeze_time("2099-04-25 18:30:00"):  # after the game's start: times go on
        before = len(t.log())
        t("time-up")
    added = t.log()[before:]
    assert added and all(e["recorded_at"] == "2099-04-25T18:30:00.000000Z" for e in added)
    assert t.state()["ended"] is False  # Anna's turn is still in progress
    t("buy")  # Viale Vesuvio, 1444 - 120 = 1324: the turn is over, and so is the game
    s = t.state()
    assert s["ended"] is True
    t.refused("roll 1 2", r"000")  # no re-roll: that would be a new turn
    # Scores (§PUNTEGGIO): Anna 1324 + 60 + 120 = 1504, Bruno 1496.  Two players left: 25, 14.
    assert s["winner"] == "Anna"
    assert [(r["name"], r["score"], r["points"]) for r in t.standings()] == [
        ("Anna", 1504, 25), ("Bruno", 1496, 14)]


def test_time_up_before_a_doubles_reroll_ends_the_game_at_once(table):
    t = table
    t.run(START_OF_LAST_TURN)
    t("buy")      # Anna 1324; her re-roll for the doubles is a new turn, not yet begun
    t("time-up")
    assert t.state()["ended"] is True
    t.refused("roll 1 2", r"000")
    assert [(r["name"], r["score"], r["points"]) for r in t.standings()] == [
        ("Anna", 1504, 25), ("Bruno", 1496, 14)]


# --- the score sheet and tournament points ----------------------------------------------------

def test_score_sheet_two_left_tie_broken_on_unmortgaged_property(table):
    # §PUNTEGGIO: cash + each property's value on the sheet (read: price unbuilt, half the
    # price mortgaged, see the report); "In caso di pareggio, vince il giocatore che possiede il
    # valore di proprietà non ipotecato più alto"; points with 2 players left: 25, 14, and
    # bankrupt players 0.  The tie-break puts Bruno before Anna, against seat and name order.
    t = table
    t(NEW4)
    t.run("""
        roll 1 2        # Anna -> 3 Vicolo Stretto
        decline
        bid Carla 1500
        hammer          # Carla 0
        roll 2 3        # Bruno -> 5 Stazione Sud
        decline
        bid Dario 1500
        hammer          # Dario 0
        roll 1 3        # Carla -> 4 Tassa Patrimoniale: 200 owed, 30 raisable
        bankrupt Carla
        bid Anna 60
        hammer          # Vicolo Stretto to Anna at 60: 1440
        roll 1 3        # Dario -> 4 Tassa Patrimoniale: 200 owed, 100 raisable
        bankrupt Dario
        bid Bruno 200
        hammer          # Stazione Sud to Bruno at 200: 1300
        mortgage vicolo stretto  # Anna 1440 + 30 = 1470
    """)
    t("time-up")  # Anna to roll: no turn in progress, the game ends at once
    assert t.state()["ended"] is True
    # Anna 1470 + 60 / 2 = 1500; Bruno 1300 + 200 = 1500: a tie.  Unmortgaged property:
    # Bruno 200, Anna 0 -> Bruno first.
    rows = t.standings()
    assert [(r["name"], r["score"], r["points"]) for r in rows[:2]] == [
        ("Bruno", 1500, 25), ("Anna", 1500, 14)]
    assert [(r["name"], r["status"], r["points"]) for r in rows[2:]] == [
        ("Dario", "bankrupt", 0), ("Carla", "bankrupt", 0)]
    assert t.state()["winner"] == "Bruno"


def test_three_players_left_score_22_12_6(table):
    t = table
    t(NEW3)
    t("roll 1 2")   # Anna -> 3 Vicolo Stretto
    t("buy")        # 1440
    t("roll 1 2")   # Bruno -> 3: rent 4
    t("claim Anna")  # Anna 1444, Bruno 1496
    t("roll 2 3")   # Carla -> 5 Stazione Sud
    t("buy")        # 1300
    t("time-up")
    # Anna 1444 + 60 = 1504, Carla 1300 + 200 = 1500, Bruno 1496: points 22, 12, 6.
    assert [(r["name"], r["score"], r["points"]) for r in t.standings()] == [
        ("Anna", 1504, 22), ("Carla", 1500, 12), ("Bruno", 1496, 6)]
