"""Facts as data: a reason is a code and its parameters (ledger/records/reasons.py), and a row an
older banco wrote, with its English sentence, is read through its type's upcaster
(ledger/records/upcast.py) into the same facts, its stored bytes and hash untouched."""

from __future__ import annotations

import json
import re
import sqlite3

import pytest

from banco.ledger.book import Book
from banco.ledger.records import commands as c
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
        "reason": {"code": "building_auctioned", "kind": "house", "amount": "60 M"}}


def test_a_tax_was_its_square_s_name():
    assert upcast("TaxPaid", 1, {"reason": "Tassa patrimoniale"})["reason"] == {
        "code": "tax", "space": "Tassa patrimoniale"}
    paid = upcast("DebtPaidInKind", 1, {"reason": "Tassa: 10 M in cash and Vicolo Corto at 60 M, "
                                                  "the creditor's prices (002 §Varie)"})
    assert paid["reason"] == {"code": "paid_in_kind", "reason": {"code": "tax", "space": "Tassa"},
                              "cash": "10 M", "each": "Vicolo Corto at 60 M",
                              "rule": "002 §Varie"}
    assert english(paid["reason"]).startswith("Tassa: 10 M in cash")


def test_the_read_model_s_reasons_read_as_the_upcasters_read_them():
    from banco.ledger.records.reasons import as_text
    from banco.ledger.records.upcast import kept_reason

    assert kept_reason("TaxPaid", "Tassa patrimoniale") == {"code": "tax",
                                                             "space": "Tassa patrimoniale"}
    assert kept_reason("RentPaid", "rent on Vicolo Corto") == {"code": "rent",
                                                               "space": "Vicolo Corto"}
    rent = {"code": "rent", "space": "Vicolo Corto"}
    assert kept_reason("RentPaid", as_text(rent)) == rent


def test_a_card_and_an_unknown_sentence():
    assert from_prose("Imprevisti 5") == {"code": "card", "deck": "Imprevisti", "number": 5}
    assert english({"code": "card", "deck": "Imprevisti", "number": 5}) == "Imprevisti 5"
    assert from_prose("a house rule of our own") == {"code": SAID,
                                                    "text": "a house rule of our own"}


def test_the_upcaster_is_chosen_by_the_row_s_version():
    old = {"player": "Anna", "reason": "landed on Vai in Prigione!"}
    assert upcast("SentToJail", 1, old) == {"player": "Anna", "reason": {
        "code": "landed", "space": "Vai in Prigione!"}}
    assert old["reason"] == "landed on Vai in Prigione!"  # the row as read is not changed
    today = {"player": "Anna", "reason": {"code": "landed", "space": "Vai in Prigione!"}}
    assert upcast("SentToJail", 2, today) is today
    row = {"type": "TurnEnded", "schema_version": 1, "data": {"player": "A", "next": "B"}}
    assert upcast_row(row) is row  # nothing to read differently: the same row
    assert ("PropertyBought", 1) in UPCASTERS


@pytest.fixture
def book(tmp_path):
    b = Book(str(tmp_path / "a.db"))
    g = b.new_game(["Anna", "Bruno", "Carla"], now=NOW)
    for cmd in (c.Roll((1, 2)), c.Buy(), c.Roll((2, 1)), c.Claim("Anna"), c.Roll((3, 4))):
        b.execute(g, cmd, now=NOW)
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
    assert book.store.read(1)[seq - 1]["data"]["reason"] == {"code": "bought",
                                                            "space": "Vicolo Stretto"}
    _as_older_banco_wrote_it(book, seq, "bought Vicolo Stretto")
    stored = book.store.read(1)[seq - 1]
    assert stored["schema_version"] == 1 and stored["data"]["reason"] == "bought Vicolo Stretto"
    assert audit(1, book.store.read(1)).ok  # compared as facts, not as words
    again = Book(book.store.path)  # a reader of the file: the fact, its code
    assert again.events(1)[seq - 1]["data"]["reason"] == {"code": "bought",
                                                          "space": "Vicolo Stretto"}
    again.close()


def test_an_older_row_s_forged_sentence_is_a_fact_no_command_gives(book):
    seq = _bought(book)
    _as_older_banco_wrote_it(book, seq, "bought Parco della Vittoria")
    r = audit(1, book.store.read(1))
    assert r.bad_seq == seq and "has reason" in r.problem and "Parco de" in r.problem


def test_a_sentence_in_a_row_of_today_s_version_is_refused_by_the_schema(book):
    from forge import drop_triggers, rechain_stored

    seq = _bought(book)
    conn = sqlite3.connect(book.store.path)
    drop_triggers(conn)
    conn.execute("UPDATE events SET data=replace(data, '{\"code\":\"bought\",\"space\":"
                 "\"Vicolo Stretto\"}', '\"bought Vicolo Stretto\"') WHERE seq=?", (seq,))
    rechain_stored(conn, 1, seq)
    conn.commit()
    conn.close()
    r = audit(1, book.store.read(1))
    assert r.bad_seq == seq and "schema" in r.problem and "reason" in r.problem


def test_every_fact_of_the_golden_games_is_its_typed_record():
    """One definition per event type gives its typed record and its schema: every fact of the
    recorded games (upcast) reads as its record and back, and passes its schema."""
    from forge import as_facts, recorded

    from banco.ledger.records.events import fact, record, records, schemas, validate

    assert set(records()) == set(schemas())
    for name in ("classic-4p", "championship-4p", "vintage-to-a-bankruptcy", "short-to-the-end"):
        for e in as_facts(recorded(name)):
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


def test_every_code_has_its_words_or_is_said_in_english_on_purpose():
    """cli/words/reasons.py says each code an older sentence reads as; the few with no words
    of their own (they had no template before either) are said in English, as they were."""
    from banco.cli.words.reasons import BASES, COUNTED_BASES, SAYERS_BY_CODE, WORDS
    from banco.ledger.records.reasons import BASES_V1

    english_only = {"paid_in_kind", "freed_on_receiving", "hotel_broken_up_paid",
                    "won_debt_written_off", "cannot_pay_bid", "no_lot_for_bid", "time_up",
                    "bankruptcy_ends"}
    assert set(V1) - set(WORDS) - set(SAYERS_BY_CODE) == english_only
    born_since = {"jail_card_for_fine"}  # codes no older sentence reads as (000 FAQ 17's card)
    assert set(WORDS) - born_since <= set(V1)
    assert set(BASES_V1) - set(BASES) - set(COUNTED_BASES) == {"rent_by_card"}
