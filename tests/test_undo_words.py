"""What an undo says it takes back is worked out from the facts it retracts (issue 32, the
last trial): a trade whose receiver paid the Bank its 10% on a mortgaged deed (000 FAQ 33)
was said `Bruno gives back 1 M; Anna gets back 4 M`, 3 M of it the Bank's, and a deed freed
with --lift was named twice."""

from __future__ import annotations

import pytest

import banco


@pytest.fixture
def book(tmp_path):
    with banco.open(str(tmp_path / "g.db"), create=True) as b:
        b.new(["Anna", "Bruno"], now="2026-12-06T20:00:00Z")
        for line in ("roll 1 2", "buy", "mortgage 'vicolo stretto'"):
            assert b.execute(line, game=1).refusal is None, line
        yield b


def _undone(book, trade: str, lang: str) -> str:
    cash = {p.name: p.cash for p in book.table(1).players}
    assert book.execute(trade, game=1).refusal is None
    out = book.execute("undo", game=1)
    assert out.refusal is None
    assert {p.name: p.cash for p in book.table(1).players} == cash  # the money was right
    return out.say(lang).splitlines()[0]


@pytest.mark.parametrize("lang,said", [
    ("en", "Anna gives 1 M back to Bruno; Bruno gets back 3 M; Vicolo Stretto is Anna's again"),
    ("it", "Anna restituisce 1 M a Bruno; Bruno riprende 3 M; Vicolo Stretto torna ad Anna"),
])
def test_a_trade_with_a_fee_to_the_bank_is_said_undone_transfer_by_transfer(book, lang, said):
    line = _undone(book, "trade Anna Bruno --give 'vicolo stretto' --get 1", lang)
    assert line.endswith(f": {said}"), line


@pytest.mark.parametrize("lang,said", [
    ("en", "Anna gives 1 M back to Bruno; Bruno gets back 33 M; "
           "Vicolo Stretto is Anna's again, mortgaged again"),
    ("it", "Anna restituisce 1 M a Bruno; Bruno riprende 33 M; "
           "Vicolo Stretto torna ad Anna, di nuovo con ipoteca"),
])
def test_a_deed_freed_in_a_trade_is_named_once_when_it_is_undone(book, lang, said):
    line = _undone(book, "trade Anna Bruno --give 'vicolo stretto' --get 1 "
                         "--lift 'vicolo stretto'", lang)
    assert line.endswith(f": {said}"), line


def test_a_phones_undo_button_says_the_same_as_the_undo(tmp_path):
    """The banker's phone previews the next undo: it was worked out from the cash alone, so the
    trade's 3 M to the Bank read as money Bruno got back from Anna (the faults' helper)."""
    from phones_tables import NOW, auth, make_client

    from banco.cli.web.app import Hub
    from banco.ledger.store import tokens

    db = str(tmp_path / "p.db")
    with banco.open(db, create=True) as b:
        b.new(["Anna", "Bruno"], now=NOW)
        for line in ("roll 1 2", "buy", "mortgage 'vicolo stretto'",
                     "trade Anna Bruno --give 'vicolo stretto' --get 1"):
            assert b.execute(line, game=1).refusal is None, line
    banker = tokens.issue(db, "banker", 1, NOW)[0]
    hub = Hub(db, None, poll=60)
    try:
        with make_client(hub) as client:
            offer = client.get("/api/table", headers=auth(banker)).json()["undo"]
    finally:
        hub.close()
    assert offer["changes"] == ["Anna gives 1 M back to Bruno", "Bruno gets back 3 M",
                                "Vicolo Stretto is Anna's again"], offer


@pytest.mark.parametrize("lang,said", [
    ("en", "Anna gives 10 M back to Bruno; Bruno gives 1 jail card back to Anna"),
    ("it", "Anna restituisce 10 M a Bruno; Bruno restituisce 1 carta prigione ad Anna"),
])
def test_a_jail_card_traded_is_said_given_back_once_when_the_trade_is_undone(tmp_path, lang,
                                                                               said):
    """A trade's jail card, undone, was said from both sides (`Anna gets back 1 jail card;
    Bruno gives back 1 jail card`): one card moved, so one phrase, from the retracted trade."""
    with banco.open(str(tmp_path / "j.db"), create=True) as b:
        b.new(["Anna", "Bruno"], now="2026-12-06T20:00:00Z")
        for line in ("roll 1 1", "card probabilita 16"):  # Anna keeps Probabilità's jail card
            assert b.execute(line, game=1).refusal is None, line
        line = _undone(b, "trade Anna Bruno --give jail-card --get 10", lang)
        assert line.endswith(f": {said}"), line
        assert [len(p.jail_cards) for p in b.table(1).players] == [1, 0]
        kept = b.execute("undo", game=1).say(lang).splitlines()[0]  # back under its deck
        assert kept.endswith(": " + {"en": "Anna gives back 1 jail card",
                                     "it": "Anna restituisce 1 carta prigione"}[lang]), kept
