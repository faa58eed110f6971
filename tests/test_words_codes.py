"""Every reason code has words of its own in every language banco speaks (issue 31 item 4).

`paid_in_kind` and `cannot_pay_bid` were said in English to an Italian table: they had no
entry in cli/words/reasons.py, and tests/test_upcast.py listed them (with six others) as
"said in English on purpose", so no test asked for their words.  Here each code of the one
table of codes (ledger/records/reasons.py: V1 and BASES_V1, and the codes born since) is said
from a sample of its parameters, in each language, and the Italian must not be the English."""

from __future__ import annotations

import re
import string

import pytest

from banco.cli.words import i18n
from banco.cli.words.reasons import say_basis, say_reason
from banco.ledger.board.edition import load_edition
from banco.ledger.records.reasons import BASES_V1, LISTS, NESTED, V1

EDITION = load_edition("it")
BORN_SINCE = {"jail_card_for_fine": "a get-out-of-jail card used instead of the fine, {rule}"}
CODES = {**V1, **BORN_SINCE}


# The parameters of the codes' sentences that are amounts of money (`house` and `hotel`:
# a repairs card's price of each), and those that are not: every parameter is one or the other,
# so a new code's amount is asked about.
MONEY = frozenset({"amount", "bid", "can", "cash", "hotel", "house", "interest", "left",
                   "mortgage", "owed", "rent"})
NOT_MONEY = frozenset({
    "at", "basis", "card", "changes", "closer", "creditor", "debtor", "deeds", "dice", "each",
    "factor", "hotels", "houses", "kind", "landed", "lapsed", "line", "m", "more", "n", "owner",
    "payer", "player", "players", "reason", "referee", "rule", "said", "seller", "space",
    "spaces", "times", "total", "types", "what", "which", "why", "winner"})
PRICE = 777  # a deed's price inside a list of lots (deeds dealt, deeds paid in kind)


def _names(template: str) -> list[str]:
    return [name for _text, name, _spec, _conv in string.Formatter().parse(template) if name]


def _sample(code: str, template: str) -> dict:
    """A reason of `code` with a value for each parameter its sentence names; each amount of
    money a value of its own (701, 702, ...), found again in the words."""
    params: dict = {}
    for name in _names(template):
        if name in params:
            continue
        if name in MONEY:
            params[name] = 701 + len(params)
        elif name in NESTED:
            params[name] = ({"code": "rent_unbuilt"} if name == "basis" else
                            {"code": "card", "deck": "imprevisti", "number": 5} if name == "card"
                            else {"code": "starting_cash"})
        elif name in LISTS:
            params[name] = ["Anna", "Bruno"]
        elif name == "space":
            params[name] = 1
        elif name == "more":
            continue
        elif name in ("each", "deeds"):
            params[name] = [{"space": 1, "price": PRICE}]
        elif name in ("changes",):
            params[name] = [{"space": 1, "from": 1, "to": 2}]
        elif name == "what" and code in ("sold_at_half", "estate_to_bank"):
            params[name] = [{"space": 1, "level": 2}]
        elif name == "what":
            params["kind"] = "house"
        elif name in ("player", "owner", "payer", "closer", "seller", "creditor", "debtor",
                      "winner", "referee"):
            params[name] = "Anna"
        elif name in ("at",):
            params[name] = "21:30"
        elif name in ("rule",):
            params[name] = "000 FAQ 7"
        elif name in ("line",):
            params[name] = "buy"
        elif name == "kind":
            params[name] = "hotel"
        else:
            params[name] = 2
    return {"code": code, **params}


@pytest.mark.parametrize("code", sorted(CODES))
def test_every_reason_code_has_its_own_words_in_every_language(code):
    reason = _sample(code, CODES[code])
    said = {}
    for lang in i18n.LANGUAGES:
        with i18n.in_language(lang):
            said[lang] = say_reason(reason, EDITION)
    assert said["en"] and said["en"] != code
    assert said["it"] != said["en"], f"{code} is said in English to an Italian table"
    # the English words of the sentence's own (not its parameters) are not in the Italian
    english_words = set(re.findall(r"\b(?:cannot|could|paid|the|is|and|in cash)\b",
                                   said["en"]))
    assert not english_words & set(re.findall(r"\b\w+\b", said["it"])) - {"Anna", "Bruno"}, \
        (said["it"], english_words)


@pytest.mark.parametrize("code", sorted(BASES_V1))
def test_every_rent_basis_has_its_own_words_in_every_language(code):
    basis = _sample(code, BASES_V1[code])
    said = {}
    for lang in i18n.LANGUAGES:
        with i18n.in_language(lang):
            said[lang] = say_basis(basis, EDITION)
    assert said["it"] != said["en"], f"{code} is said in English to an Italian table"


def test_the_two_codes_the_trial_found_in_italian():
    paid = {"code": "paid_in_kind", "reason": {"code": "tax", "space": 4}, "cash": 10,
            "each": [{"space": 1, "price": 60}], "rule": "002 §Varie"}
    bid = {"code": "cannot_pay_bid", "player": "Anna", "bid": 120, "space": 39, "cash": 80}
    with i18n.in_language("it"):
        assert say_reason(paid, EDITION) == ("Tassa Patrimoniale: 10 M in contanti e Vicolo "
                                            "Corto a 60 M, ai prezzi del creditore (002 §Varie)")
        assert say_reason(bid, EDITION) == ("Anna non può pagare 120 M per Parco della Vittoria "
                                           "(80 M in contanti)")
    with i18n.in_language("en"):
        assert say_reason(bid, EDITION) == "Anna cannot pay 120 M for Parco della Vittoria " \
                                           "(80 M in cash)"


def test_every_parameter_is_known_as_money_or_not():
    names = {n for table in (CODES, BASES_V1) for t in table.values() for n in _names(t)}
    assert not MONEY & NOT_MONEY
    assert names <= MONEY | NOT_MONEY, f"is it money? {sorted(names - MONEY - NOT_MONEY)}"


def _amounts(reason: dict) -> list[int]:
    found = [v for k, v in reason.items() if k in MONEY]
    lots = [d for k in ("each", "deeds") for d in reason.get(k, ())]
    return found + [d["price"] for d in lots]


@pytest.mark.parametrize("table, code", [("reason", c) for c in sorted(CODES)]
                         + [("basis", c) for c in sorted(BASES_V1)])
def test_no_amount_of_money_is_said_without_the_currency(table, code):
    """`lifted the mortgage on Vicolo Corto: 30 + 3 interest`: an amount a reason holds as a
    bare integer was said without the edition's currency (M) in every language."""
    template, say = (CODES[code], say_reason) if table == "reason" else (BASES_V1[code],
                                                                         say_basis)
    reason = _sample(code, template)
    if code == "rent_by_card":  # a card's multiple of a rent that holds an amount
        reason["basis"] = _sample("rent_stations", BASES_V1["rent_stations"])
    amounts = _amounts(reason) + _amounts(reason.get("basis") or {})
    for lang in i18n.LANGUAGES:
        with i18n.in_language(lang):
            said = say(reason, EDITION)
        for amount in amounts:
            money = EDITION.money(amount)
            assert money in said, (lang, said)
            assert said.count(str(amount)) == said.count(money), (lang, said)
