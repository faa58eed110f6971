"""No event's recorded data carries an English sentence (issue 31, "Done when"): every string
in a fact's data is a code, a player's name, a line the banker typed or another identifier
(a rule citation, a time, a hash); the words are rendered at the edge (cli/words/).

Walked: every event of the golden games in fixtures/ (the regenerated files: what today's
banco records for their transcripts; their schema-1 form, upcast) and of games played by the hypothesis machine of
tests/test_machine.py.  A string that fails the check names its type and field.
"""

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"

# Words a person typed, kept as typed: the banker's line, and a referee's own reason (his
# words are his ruling's evidence, DESIGN.md "Rent claims and other rulings").
TYPED = frozenset({"CommandRecorded.line", "CashCorrected.reason.said",
                   "PositionCorrected.reason.said", "OwnerCorrected.reason.said",
                   "EventRetracted.reason.line"})
# Fields that hold no words, whatever they hold: the rule set's parameters as data.
NOT_WORDS = frozenset({"GameStarted.rules"})

CODE = re.compile(r"[a-z0-9][a-z0-9_.\-]*\Z")  # a code, a deck's key, an edition, a hash
# a rule citation: `000 FAQ 7`, `004 §Prigione`, `000 §PENURIA DI EDIFICI`, `003 §11`
# (several joined by "; ": `000 §SVOLGIMENTO 2; 000 FAQ 35`)
_ONE = r"\d{3}( (FAQ \d+([–-]\d+)?|§[\w' ]+))?"
CITATION = re.compile(rf"{_ONE}(; {_ONE})*\Z")
# the banker's command as the codec records it (ledger/records/command_codec.py): its kind
# is a command's type name
KIND = re.compile(r"[A-Z][A-Za-z]+\Z")
TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)?\Z")
OUTCOMES = frozenset({"no bid"})  # AuctionClosed.outcome: a code older than snake case


def _event_types() -> frozenset:
    from banco.ledger.records.events import EVENT_TYPES

    return frozenset(EVENT_TYPES)


def words_in(event: dict, players: frozenset) -> list[str]:
    """The fields of one fact whose string is none of the things a fact may hold."""
    types = _event_types()
    out = []

    def walk(value, path: str) -> None:
        if path in TYPED or path in NOT_WORDS:
            return
        if isinstance(value, dict):
            for k, v in value.items():
                walk(v, f"{path}.{k}")
        elif isinstance(value, (list, tuple)):
            for v in value:
                walk(v, path)
        elif isinstance(value, str):
            if not (value in players or CODE.match(value) or CITATION.match(value)
                    or TIME.match(value) or value in types or value in OUTCOMES
                    or (path.startswith("CommandRecorded.command") and KIND.match(value))):
                out.append(f"{path}: {value!r}")

    walk(event["data"], event["type"])
    return out


def words_of_game(events: list[dict]) -> list[str]:
    players = frozenset({"bank"})
    out = []
    for e in events:
        if e["type"] == "GameStarted":
            players = frozenset(e["data"]["players"]) | {"bank"}
        out += words_in(e, players)
    return out


def _fields(found: list[str]) -> set[str]:
    return {f.split(":", 1)[0] for f in found}


def test_the_check_finds_a_sentence_and_lets_data_by():
    """The check itself: a sentence fails it, codes, names, citations and times do not."""
    players = frozenset({"Anna", "Bruno", "bank"})
    ok = {"type": "RentPaid", "data": {"payer": "Anna", "payee": "Bruno", "amount": 12,
                                       "reason": {"code": "rent", "space": 39,
                                                  "rule": "000 FAQ 7"}}}
    assert words_in(ok, players) == []
    said = {"type": "RentPaid", "data": {**ok["data"], "reason": "rent on Viale Verdi"}}
    assert words_in(said, players) == ["RentPaid.reason: 'rent on Viale Verdi'"]
    money = {"type": "GameEnded", "data": {"winner": "Anna", "reason": {
        "code": "time_up_richest", "at": "2026-11-29T21:00:00Z", "total": "1.200 M"}}}
    assert words_in(money, players) == ["GameEnded.reason.total: '1.200 M'"]
    typed = {"type": "CommandRecorded", "data": {"line": "buy Parco della Vittoria",
                                                 "command": None}}
    assert words_in(typed, players) == []


@pytest.mark.parametrize("name", sorted(p.name.removesuffix(".events.json")
                                        for p in FIXTURES.glob("*.events.json")))
def test_golden_games_record_no_words(name):
    """As today's banco records them (tests/tools/regolden.py), and as an older one did,
    with English sentences (schema 1), once the upcaster has read them."""
    from forge import as_facts, recorded_schema1

    events = json.loads((FIXTURES / f"{name}.events.json").read_text(encoding="utf-8"))
    found = words_of_game(events) + words_of_game(as_facts(recorded_schema1(name)))
    assert found == [], "\n".join(found[:40])


def _machine_game(seed: int, rich: bool, rules: str) -> list[dict]:
    from machine_table import Table

    table = Table()
    try:
        table.deal(players=3 + seed % 3, cash=5000 if rich else 400, warmup=250, seed=seed,
                   rules=rules)
        return table.log
    finally:
        table.teardown()


def test_games_of_the_machine_record_no_words():
    """Rich tables that build, trade, sell and break hotels up, poor ones that go bankrupt,
    under every rule set (the machine's deals of tests/test_machine.py)."""
    from machine_model import RULE_SETS

    found = []
    for seed, rules in enumerate(RULE_SETS):
        found += words_of_game(_machine_game(seed, seed % 2 == 0, rules))
    assert found == [], "\n".join(sorted(set(found))[:60])


@settings(max_examples=3, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1), rich=st.booleans(),
       rules=st.sampled_from(("classic", "vintage", "short", "championship")))
def test_a_game_hypothesis_draws_records_no_words(seed, rich, rules):
    found = words_of_game(_machine_game(seed, rich, rules))
    assert found == [], "\n".join(sorted(set(found))[:60])
