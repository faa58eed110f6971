"""The audit's checks of every event in Italian: an amount against the rule that gives it
(projections/audit/amounts.py), the books account by account (projections/audit/books.py) and the table it
leaves (projections/audit/checks.py).  `verifica` says them in Italian; str() of each problem, the
--json document and every English test stay word for word as before."""

from __future__ import annotations

import json
import sqlite3

import pytest
from click.testing import CliRunner
from conftest import LOCALE_VARS  # noqa: E402,F401
from forge import drop_triggers, rechain_stored, recorded_rows, with_amount
from games import record
from helpers import build, cash, new_table, own

from banco.cli.main import cli
from banco.cli.words import i18n
from banco.ledger.table.state import BANK
from banco.projections.audit.audit import audit
from banco.projections.audit.books import Entry, entry_problems, seat_problems, statement_problems
from banco.projections.audit.checks import table_problems

pytestmark = pytest.mark.usefixtures("no_locale")


def in_italian(text) -> str:
    i18n.use("it")
    try:
        return text.render(i18n.translations())
    finally:
        i18n._release()


def one_off(game: str, type_: str):
    """The audit of a recorded game whose first `type_` fact pays one more than it should."""
    rows = recorded_rows(game)
    i = next(i for i, r in enumerate(rows) if r["type"] == type_)
    return audit(1, with_amount(rows, (i, None), rows[i]["data"]["amount"] + 1))


# Each case names what was paid, what the rule gives and why (the rule set, the card, the deed,
# the rounding); the last also the table it leaves (Carla's cash below zero).
@pytest.mark.parametrize("game,type_,english,italian", [
    ("classic-4p", "CashIssued",
     "starting cash for Anna is 1501 M; the classic rule set gives 1500 M",
     "i contanti iniziali di Anna: 1501 M; secondo le regole classiche l'importo è 1500 M"),
    ("classic-4p", "FinePaid",
     "the jail fine is 51 M; the classic rule set gives 50 M",
     "la multa della prigione: 51 M; secondo le regole classiche l'importo è 50 M"),
    ("classic-4p", "CardPayment",
     "Probabilità 4 is 51 M; the card's text gives 50 M",
     "Probabilità 4: 51 M; secondo il testo della carta l'importo è 50 M"),
    ("classic-4p", "RentPaid",
     "the rent on Stazione Sud is 26 M; the claim opened at event 36 gives 25 M",
     "l'affitto su Stazione Sud: 26 M; secondo la richiesta aperta all'evento 36 l'importo è 25 M"),
    ("classic-to-the-end", "HotelBuilt",
     "a hotel on Vicolo Corto is 51 M; the deed's building price gives 50 M",
     "un albergo su Vicolo Corto: 51 M; secondo il prezzo di costruzione del contratto l'importo "
     "è 50 M"),
    ("classic-to-the-end", "MortgageLifted",
     "lifting the mortgage on Stazione Ovest is 111 M; the mortgage 100 + 10% (rounded up) "
     "gives 110 M",
     "l'estinzione dell'ipoteca su Stazione Ovest: 111 M; secondo l'ipoteca 100 + 10% "
     "(arrotondato per eccesso) l'importo è 110 M"),
    ("classic-to-the-end", "EstateTransferred",
     "the cash in Carla's estate is 175 M; all the debtor's cash (004 §Fallimento) gives 174 M; "
     "Carla's cash is negative (-1)",
     "i contanti nell'eredità di Carla: 175 M; secondo tutti i contanti del debitore "
     "(004 §Fallimento) l'importo è 174 M; i contanti di Carla sono negativi (-1)"),
])
def test_an_amount_off_the_rule_is_named_in_italian(game, type_, english, italian):
    report = one_off(game, type_)
    assert str(report.problem) == english
    assert in_italian(report.problem) == italian


def test_the_books_problems_in_italian():
    assert [in_italian(p) for p in seat_problems(["Anna", "Anná", "Banca"])] == [
        "i giocatori 'Anna' e 'Anná' si riducono allo stesso nome: i loro conti non si "
        "distinguono",
        "il giocatore 'Banca' siede col nome della Banca: il suo conto e quello della Banca "
        "non si distinguono"]
    # the Bank is named in the reader's language, as a side of a transfer too
    [same] = entry_problems(Entry(7, "TaxPaid", BANK, BANK, 200, "Tassa Patrimoniale"), ["Anna"])
    assert same == "TaxPaid: the Bank pays 200 to the Bank: a transfer needs two different accounts"
    assert in_italian(same) == ("TaxPaid: paga la Banca e riceve la Banca (200): un trasferimento vuole "
                                "due conti diversi")
    [nowhere] = entry_problems(Entry(9, "RentPaid", "Anna", "Zeno", 4, "rent"), ["Anna"])
    assert in_italian(nowhere) == ("RentPaid: beneficiario 'Zeno' non è né la Banca né un "
                                   "giocatore seduto: il denaro non va da nessuna parte")


def test_the_tables_problems_in_italian():
    """A table the books and the board do not account for: Anna's cash set by hand, houses on
    a group she does not own whole, one more house than the Bank's box gave."""
    t = cash(new_table(), "Anna", 2000)
    books = {BANK: -6000, "Anna": 1500, "Bruno": 1500, "Carla": 1500, "Dario": 1500}
    assert [in_italian(p) for p in statement_problems(books, t)] == [
        "l'estratto conto di Anna fa 1500 ma il tavolo mostra 2000 in contanti",
        "l'estratto conto della Banca mostra 6000 emessi netti ma il tavolo ne ha 6500"]
    t = build(own(new_table(), "Anna", "Vicolo Corto"), "Vicolo Corto", 2)
    t = t._replace(bank_houses=t.bank_houses - 1)
    problems = table_problems(t)
    assert problems == ["houses: 2 on the board and 29 in the Bank",
                        "buildings on the marrone group, which nobody owns whole",
                        "uneven building on the marrone group: [2, 0]"]
    assert [in_italian(p) for p in problems] == [
        "case: 2 sul tabellone e 29 in Banca",
        "edifici sul gruppo marrone, che nessuno possiede per intero",
        "costruzione non uniforme sul gruppo marrone: [2, 0]"]


# --- through the CLI --------------------------------------------------------------------------

@pytest.fixture(scope="module")
def forged_tax(tmp_path_factory):
    """A recorded game whose first tax was raised by 1000 M and the chain made whole again,
    as a forger would: only the audit's checks of the amounts can object."""
    db = tmp_path_factory.mktemp("i18n-checks") / "t.db"
    record(str(db), "classic-4p")
    conn = sqlite3.connect(db)
    drop_triggers(conn)
    seq = conn.execute("SELECT seq FROM events WHERE game_id=1 AND type='TaxPaid' ORDER BY seq "
                       "LIMIT 1").fetchone()[0]
    conn.execute("UPDATE events SET data=replace(data, '\"amount\":', '\"amount\":1') "
                 "WHERE game_id=1 AND seq=?", (seq,))
    rechain_stored(conn, 1)
    conn.commit()
    conn.close()
    return db, seq


def run(db, *args, code=3):
    result = CliRunner().invoke(cli, ["--db", str(db), *map(str, args)], catch_exceptions=False)
    assert result.exit_code == code, (args, result.output)
    return result.output


def test_verifica_names_a_forged_tax_in_italian_and_json_stays_english(forged_tax):
    db, seq = forged_tax
    english = run(db, "audit")
    assert (f"game 1: FAILED at event {seq}: the tax on Tassa di Lusso is 1100 M; the board "
            "gives 100 M") in english
    italian = run(db, "--lang", "it", "verifica")
    assert (f"partita 1: NON SUPERATA all'evento {seq}: la tassa su Tassa di Lusso: 1100 M; "
            "secondo il tabellone l'importo è 100 M") in italian
    doc = json.loads(run(db, "--lang", "it", "verifica", "--json"))
    assert json.dumps(doc).count("the tax on Tassa di Lusso is 1100 M; the board gives 100 M") == 1


# --- the hot path -----------------------------------------------------------------------------

@pytest.mark.parametrize("game", ["classic-to-the-end", "vintage-to-a-bankruptcy",
                                  "championship-4p", "short-to-the-end"])
def test_a_clean_game_is_audited_without_building_a_single_message(game, monkeypatch):
    """The audit runs these checks after every event: a message is made only for a problem
    (`what` and `why` are passed as functions, constant phrases made once), so a clean game
    never calls msg() here."""
    from banco.ledger.base.text import msg
    from banco.projections.audit import (
        amount_basis,
        board_amounts,
        books,
        building_amounts,
        card_amounts,
        checks,
        deed_amounts,
        rent_debt_amounts,
    )

    made = []

    def counted(template, **params):
        made.append(template)
        return msg(template, **params)

    for module in (amount_basis, board_amounts, deed_amounts, building_amounts,
                   rent_debt_amounts, card_amounts, books, checks):
        monkeypatch.setattr(module, "msg", counted)
    assert audit(1, recorded_rows(game)).ok
    assert made == []
    one_off(game, "CashIssued")  # ...and a problem is said through the same msg()
    assert "starting cash for {player}" in made
