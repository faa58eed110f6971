"""Tables the estate's tests start from: Anna's greens and the browns, Carla built out until the
Bank has few houses left, and a two-player bankruptcy with mortgaged deeds (tests/test_turn.py
and tests/test_rulings.py start from them too)."""

from helpers import POS, build, cash, debt, mortgage, new_table, own

VERDE = ("Via Roma", "Corso Impero", "Largo Augusto")  # house 200
MARRONE = ("Vicolo Corto", "Vicolo Stretto")  # house 50


def verde(t=None, owner="Anna"):
    return own(t or new_table(), owner, *VERDE)


def levels(t, names):
    return [t.buildings[POS[n]] for n in names]


CARLA = ("Bastioni Gran Sasso", "Viale Monterosa", "Viale Vesuvio", "Via Marco Polo",
         "Corso Magellano", "Largo Colombo", "Viale Costantino", "Viale Traiano",
         "Piazza Giulio Cesare", "Via Verdi", "Corso Raffaello", "Piazza Dante")


def scarce(t, left):
    """Carla has built evenly on four groups until the bank has `left` houses."""
    t = own(t, "Carla", *CARLA)
    take = t.bank_houses - left
    for i, n in enumerate(CARLA):
        t = build(t, n, take // 12 + (1 if i < take % 12 else 0))
    return t


def last_bankruptcy(bruno_cash=1500, anna_cash=40):
    """Two players: Anna owes Bruno 2000 with two mortgaged deeds, Viale dei Giardini
    (mortgage 175: 10% = 18 rounded up, freed for 193) and Vicolo Corto (mortgage 30: 3)."""
    t = own(new_table(("Anna", "Bruno")), "Anna", "Viale dei Giardini", "Vicolo Corto")
    t = mortgage(t, "Viale dei Giardini", "Vicolo Corto")
    t = cash(cash(t, "Anna", anna_cash), "Bruno", bruno_cash)
    return debt(t, "Anna", "Bruno", 2000)
