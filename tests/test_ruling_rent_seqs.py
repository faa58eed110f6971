"""`ruling rent SEQ` takes the seq its refusal names, and no other: a landing on another
player's deed, or a rent fact. Every seq of a played game is tried (the trial's
`ruling rent 52`, a TurnEnded beside a landing, was answered, and with `--record` a ruling was
pinned to it)."""

import pytest
from games import record

from banco.ledger.base.errors import UsageError
from banco.ledger.book import Book
from banco.projections.referee import rulings
from banco.projections.referee.rent_claims import RENT_EVENTS


@pytest.fixture(scope="module")
def events(tmp_path_factory):
    db = record(str(tmp_path_factory.mktemp("rent_seqs") / "4p.db"), "classic-4p")
    book = Book(db)
    try:
        return book.events(1)
    finally:
        book.close()


def test_every_seq_is_taken_iff_it_is_a_landing_or_a_rent_fact(events):
    taken, landings = set(), set()
    for e in events:
        try:
            ruling = rulings.rent(events, e["seq"], game_id=1)
        except UsageError as refusal:
            assert "is not a landing on another player's deed nor a rent claim" in str(refusal)
            continue
        taken.add(e["seq"])
        if e["type"] == "TokenMoved":
            landings.add(e["seq"])
            # the landing the ruling is about is this very move
            if "landed_seq" in ruling.facts:
                assert ruling.facts["landed_seq"] == e["seq"]
    kinds = {events[s - 1]["type"] for s in taken}
    assert kinds <= RENT_EVENTS | {"TokenMoved", "DebtIncurred"}, kinds - RENT_EVENTS
    # a debt only when it is a rent's
    assert all(events[s - 1]["data"]["reason"]["code"] == "rent" for s in taken
               if events[s - 1]["type"] == "DebtIncurred")
    # every rent fact is taken, and a move only when its command records rent for that stop
    assert {e["seq"] for e in events if e["type"] in RENT_EVENTS} <= taken
    assert {e["seq"] for e in events if e["type"] == "DebtIncurred"
            and e["data"]["reason"]["code"] == "rent"} <= taken
    for e in events:
        if e["type"] != "TokenMoved":
            continue
        d = e["data"]
        rent_here = any(x["command_id"] == e["command_id"] and x["seq"] > e["seq"]
                        and x["type"] in ("RentClaimOpened", "RentPaid", "RentNotDue")
                        and x["data"].get("payer") == d["player"]
                        and x["data"].get("property") == d["to"] for x in events)
        assert (e["seq"] in landings) == rent_here, e
    assert landings  # the game has landings on owned deeds
