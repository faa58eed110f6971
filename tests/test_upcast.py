"""Facts as data: a reason is a code and its parameters (ledger/records/reasons.py), and a row an
older banco wrote, with its English sentence, is read through its type's upcaster
(ledger/records/upcast.py) into the same facts, its stored bytes and hash untouched."""

from __future__ import annotations

import json
import re
import sqlite3

import pytest
from helpers import claimed_rent_book

from banco.ledger.book import Book
from banco.ledger.records.reasons import SAID, V1, english, from_prose
from banco.ledger.records.upcast import UPCASTERS, upcast, upcast_row
from banco.projections.audit.audit import audit

NOW = "2026-11-29T10:00:00.000000Z"


def _sample(code: str) -> dict:
    """A reason of `code` with a value for each parameter its sentence names."""
    names = dict.fromkeys(re.findall(r"\{(\w+)\}", V1[code]))
    params = {}
    for n in names:
        if n in ("n", "m", "houses", "hotels", "landed", "lapsed"):
            params[n] = 3
        elif n == "reason":
            params[n] = {"code": "rent", "space": "Vicolo Corto"}
        elif n == "card":
            params[n] = {"code": "card", "deck": "Imprevisti", "number": 5}
        elif n == "why":
            params[n] = {"code": "cannot_pay_bid", "player": "Anna", "bid": 120,
                         "what": "Via Roma", "cash": 80}
        elif n in ("players", "types"):
            params[n] = ["<a>", "<b>"]
        elif n == "bid" or n == "cash" and code == "cannot_pay_bid":
            params[n] = 7
        else:
            params[n] = f"<{n}>"
    return {"code": code, **params}


@pytest.mark.parametrize("code", sorted(V1))
def test_every_older_sentence_reads_back_as_its_code(code):
    reason = _sample(code)
    if "more" in reason:  # the rules an estate went by, read from the sentence's tail
        del reason["more"]
        reason["buildings_rule"] = "004 §Fine"
    sentence = english(reason)
    assert "{" not in sentence and from_prose(sentence) == reason


def test_a_building_auction_s_outcome_names_its_winner():
    old = {"property": 3, "outcome": "sold to Bruno", "reason": "house auctioned for 60 M"}
    assert upcast("AuctionClosed", 1, old) == {
        "property": 3, "outcome": "sold", "winner": "Bruno",
        "reason": {"code": "building_auctioned", "kind": "house", "amount": 60}}


def test_a_tax_was_its_square_s_name():
    assert upcast("TaxPaid", 1, {"reason": "Tassa Patrimoniale"})["reason"] == {
        "code": "tax", "space": 4}  # its square, as schema version 3 holds it
    paid = upcast("DebtPaidInKind", 1, {"reason": "Tassa: 10 M in cash and Vicolo Corto at 60 M, "
                                                  "the creditor's prices (002 §Varie)"})
    assert paid["reason"] == {"code": "paid_in_kind", "reason": {"code": "tax", "space": "Tassa"},
                              "cash": 10, "each": [{"space": 1, "price": 60}],
                              "rule": "002 §Varie"}
    from banco.ledger.board.edition import load_edition

    assert english(paid["reason"], load_edition("it")).startswith("Tassa: 10 M in cash")


def test_the_read_model_s_reasons_read_as_the_upcasters_read_them():
    from banco.ledger.records.reasons import as_text
    from banco.ledger.records.upcast import kept_reason

    assert kept_reason("TaxPaid", "Tassa Patrimoniale") == {"code": "tax", "space": 4}
    assert kept_reason("RentPaid", "rent on Vicolo Corto") == {"code": "rent", "space": 1}
    rent = {"code": "rent", "space": 1}
    assert kept_reason("RentPaid", as_text(rent)) == rent
    # a row kept by a banco of schema version 2: its square by name, read as its number
    assert kept_reason("RentPaid", as_text({"code": "rent", "space": "Vicolo Corto"})) == rent


def test_a_card_and_an_unknown_sentence():
    assert from_prose("Imprevisti 5") == {"code": "card", "deck": "Imprevisti", "number": 5}
    assert english({"code": "card", "deck": "Imprevisti", "number": 5}) == "Imprevisti 5"
    assert from_prose("a house rule of our own") == {"code": SAID,
                                                    "text": "a house rule of our own"}


def test_the_upcaster_is_chosen_by_the_row_s_version():
    old = {"player": "Anna", "reason": "landed on In Prigione!"}
    assert upcast("SentToJail", 1, old) == {"player": "Anna", "reason": {
        "code": "landed", "space": 30}}
    assert old["reason"] == "landed on In Prigione!"  # the row as read is not changed
    v2 = {"player": "Anna", "reason": {"code": "landed", "space": "In Prigione!"}}
    assert upcast("SentToJail", 2, v2) == {"player": "Anna", "reason": {
        "code": "landed", "space": 30}}
    today = {"player": "Anna", "reason": {"code": "landed", "space": 30}}
    assert upcast("SentToJail", 3, today) is today
    row = {"type": "TurnEnded", "schema_version": 1, "data": {"player": "A", "next": "B"}}
    assert upcast_row(row) is row  # nothing to read differently: the same row
    assert ("PropertyBought", 1) in UPCASTERS


@pytest.fixture
def book(tmp_path):
    b = claimed_rent_book(str(tmp_path / "a.db"), NOW)
    yield b
    b.close()


def _as_older_banco_wrote_it(book, seq: int, reason: str) -> None:
    """Row `seq` rewritten as a banco before schema version 2 stored it (its reason an English
    sentence), and the chain recomputed from it: what an older file holds."""
    from forge import drop_triggers, rechain_stored

    conn = sqlite3.connect(book.store.path)
    drop_triggers(conn)
    data = json.loads(conn.execute("SELECT data FROM events WHERE seq=?", (seq,)).fetchone()[0])
    data["reason"] = reason
    conn.execute("UPDATE events SET data=?, schema_version=1 WHERE seq=?",
                 (json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False),
                  seq))
    rechain_stored(conn, 1, seq)
    conn.commit()
    conn.close()


def _bought(book) -> int:
    return next(e["seq"] for e in book.store.read(1) if e["type"] == "PropertyBought")


def test_an_older_row_s_sentence_audits_as_the_fact_decide_gives(tmp_path, book):
    seq = _bought(book)
    assert book.store.read(1)[seq - 1]["data"]["reason"] == {"code": "bought", "space": 3}
    _as_older_banco_wrote_it(book, seq, "bought Vicolo Stretto")
    stored = book.store.read(1)[seq - 1]
    assert stored["schema_version"] == 1 and stored["data"]["reason"] == "bought Vicolo Stretto"
    assert audit(1, book.store.read(1)).ok  # compared as facts, not as words
    again = Book(book.store.path)  # a reader of the file: the fact, its code
    assert again.events(1)[seq - 1]["data"]["reason"] == {"code": "bought", "space": 3}
    again.close()


def test_an_older_row_s_forged_sentence_is_a_fact_no_command_gives(book):
    seq = _bought(book)
    _as_older_banco_wrote_it(book, seq, "bought Parco della Vittoria")
    r = audit(1, book.store.read(1))
    # the audit says the facts as data: the square the row names, 39, not the command's 3
    assert r.bad_seq == seq and "has reason" in r.problem and '"space": 39' in r.problem


def test_a_sentence_in_a_row_of_today_s_version_is_refused_by_the_schema(book):
    from forge import drop_triggers, rechain_stored

    seq = _bought(book)
    conn = sqlite3.connect(book.store.path)
    drop_triggers(conn)
    conn.execute("UPDATE events SET data=replace(data, '{\"code\":\"bought\",\"space\":3}', "
                 "'\"bought Vicolo Stretto\"') WHERE seq=?", (seq,))
    rechain_stored(conn, 1, seq)
    conn.commit()
    conn.close()
    r = audit(1, book.store.read(1))
    assert r.bad_seq == seq and "schema" in r.problem and "reason" in r.problem


def test_every_fact_of_the_golden_games_is_its_typed_record():
    """One definition per event type gives its typed record and its schema: every fact of the
    recorded games reads as its record and back, and passes its schema: as today's banco
    records them, and as an older one did (schema 1, upcast)."""
    from forge import as_facts, recorded, recorded_schema1

    from banco.ledger.records.events import fact, record, records, schemas, validate

    assert set(records()) == set(schemas())
    for name in ("classic-4p", "championship-4p", "vintage-to-a-bankruptcy", "short-to-the-end"):
        for e in [*recorded(name), *as_facts(recorded_schema1(name))]:
            rec = record(e)
            assert type(rec).__name__ == e["type"] and fact(rec) == e["data"]
            validate(e["type"], e["data"])
    moved = records()["TokenMoved"](player="Anna", from_=0, to=7, spaces=7, cause="dice",
                                    passed_go=False)
    assert fact(moved)["from"] == 0
    with pytest.raises(TypeError):
        record({"type": "TaxPaid", "data": {"payer": "Anna", "payee": "bank", "amount": 1,
                                            "reason": {"code": "tax", "space": "x"}, "why": 1}})


@pytest.mark.parametrize("sentence", ["unbuilt lot", "hotel", "2 house(s)",
                                      "3 station(s) owned: 100", "2 utility(ies) owned: 10 x dice 7",
                                      "complete group, unbuilt: double 26",
                                      "2 station(s) owned: 50, x2 by Chance 5"])
def test_every_older_basis_reads_back_as_its_code(sentence):
    from banco.ledger.records.reasons import basis_from_prose

    basis = basis_from_prose(sentence)
    assert basis["code"].startswith("rent_") and english(basis) == sentence


def test_every_code_has_its_words():
    """cli/words/reasons.py says each code an older sentence reads as, in every language
    (tests/test_words_codes.py says each one): no code is left to its English sentence (eight
    were, `paid_in_kind` and `cannot_pay_bid` among them, listed here as on purpose)."""
    from banco.cli.words.reasons import BASES, COUNTED_BASES, SAYERS_BY_CODE, WORDS
    from banco.ledger.records.reasons import BASES_V1

    assert set(V1) - set(WORDS) - set(SAYERS_BY_CODE) == set()
    born_since = {"jail_card_for_fine"}  # codes no older sentence reads as (000 FAQ 17's card)
    assert set(WORDS) - born_since <= set(V1)
    assert set(BASES_V1) - set(BASES) - set(COUNTED_BASES) == {"rent_by_card"}  # said apart


def test_amounts_written_as_the_edition_printed_them_read_as_integers():
    """Schema version 2 wrote a reason's amounts as text (`1.200 M`, `130.000 £`): version 3
    holds integers, and a version-2 row reads as one (a reason inside a reason too)."""
    from banco.ledger.records.upcast import money_of

    assert [money_of(t) for t in ("1.200 M", "130.000 £", "$1,500", "500 €", "90 M")] == [
        1200, 130000, 1500, 500, 90]
    assert money_of("nothing") == "nothing"
    v2 = {"player": "Dario", "creditor": "bank",
          "reason": {"code": "owed_could_raise", "owed": "1.150 M", "can": "389 M"}}
    assert upcast("BankruptcyDeclared", 2, v2)["reason"] == {
        "code": "owed_could_raise", "owed": 1150, "can": 389}
    kind = {"payer": "Anna", "payee": "Bruno", "amount": 10, "debt_seq": 5, "deeds": [],
            "reason": {"code": "paid_in_kind", "reason": {"code": "late_claim", "amount": "12 M"},
                       "cash": "10 M", "each": "x", "rule": "002 §Varie"}}
    assert upcast("DebtPaidInKind", 2, kind)["reason"]["cash"] == 10
    assert upcast("DebtPaidInKind", 2, kind)["reason"]["reason"]["amount"] == 12
    assert upcast("BankruptcyDeclared", 3, v2) is v2  # today's rows are read as they are


def test_squares_decks_and_lists_of_lots_said_by_name_read_as_data():
    """Schema version 2 named squares and decks and said lists of lots as phrases: version 3
    holds the square's number, the deck's key, and each lot's square with its price or its
    buildings' level (5: a hotel); a phrase with a name on no board is kept as written."""
    from banco.ledger.board.edition import load_edition
    from banco.ledger.records.upcast import lots_of

    assert lots_of("deeds", "Corso Magellano 22.000 £ + Vicolo Corto 6.000 £") == [
        {"space": 23, "price": 22000}, {"space": 1, "price": 6000}]
    assert lots_of("each", "Boardwalk at $1,500, Vicolo Corto at 60 M") == [
        {"space": 39, "price": 1500}, {"space": 1, "price": 60}]
    assert lots_of("changes", "Vicolo Corto 1 house -> a hotel, Vicolo Stretto 0 houses -> "
                              "2 houses") == [{"space": 1, "from": 1, "to": 5},
                                              {"space": 3, "from": 0, "to": 2}]
    assert lots_of("what", "a hotel on Vicolo Corto, 1 house on Vicolo Stretto") == [
        {"level": 5, "space": 1}, {"level": 1, "space": 3}]
    assert lots_of("what", "a hotel on Nowhere Street") is None
    v2 = {"player": "Anna", "properties": [1, 3], "bank_houses": 1, "bank_hotels": 0,
          "payer": "bank", "payee": "Anna", "amount": 10,
          "reason": {"code": "sold_at_half", "what": "a hotel on Vicolo Corto, 1 house on "
                                                     "Vicolo Stretto"}}
    now = upcast("BuildingsSold", 2, v2)["reason"]
    assert now == {"code": "sold_at_half", "what": [{"space": 1, "level": 5},
                                                    {"space": 3, "level": 1}]}
    it = load_edition("it")
    assert english(now, it) == english(v2["reason"]) == (
        "sold a hotel on Vicolo Corto, 1 house on Vicolo Stretto at half price")
    card = upcast("CardPayment", 2, {"reason": {"code": "card", "deck": "Probabilità",
                                                "number": 4}})["reason"]
    assert card == {"code": "card", "deck": "probabilita", "number": 4}
    assert english(card, it) == "Probabilità 4"
    voided = upcast("AuctionVoided", 2, {"reason": {"code": "auction_voided", "why": {
        "code": "cannot_pay_bid", "player": "Anna", "bid": 120, "what": "Via Roma",
        "cash": 80}, "player": "Anna", "rule": "000 FAQ 22"}})["reason"]
    assert voided["why"] == {"code": "cannot_pay_bid", "player": "Anna", "bid": 120,
                             "space": 31, "cash": 80}
    assert english(voided, it).startswith("Anna cannot pay 120 for Via Roma (80 in cash)")
    house = {"code": "no_lot_for_bid", "player": "Anna", "what": "the house"}
    assert _data(house) == {"code": "no_lot_for_bid", "player": "Anna", "kind": "house"}
    assert english(_data(house)).startswith("Anna has no lot left where the house could go")


def _data(reason: dict) -> dict:
    return upcast("AuctionVoided", 2, {"reason": reason})["reason"]


def test_a_debt_s_reason_met_on_its_own_reads_as_today_s_data():
    """A debt the fold meets in a row not yet upcast (or an older table's) holds today's data,
    so a payment decided from it records the square by its number."""
    from banco.ledger.records.upcast import as_reason

    assert as_reason("rent on Vicolo Corto") == {"code": "rent", "space": 1}
    assert as_reason({"code": "rent", "space": "Vicolo Corto"}) == {"code": "rent", "space": 1}
    today = {"code": "rent", "space": 1}
    assert as_reason(today) is today
