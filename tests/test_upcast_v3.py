"""Schema version 3 (ledger/records/upcast_v3.py): how a player left jail is a code, a card
drawn is its deck and number, a recorded ruling is its verdict's code and its evidence.  The
rows older bancos wrote with the English read as those facts; the verdict's words come from
one table (cli/words/verdicts.py), in English or Italian."""

from __future__ import annotations

import re

import pytest

from banco.cli.words.verdicts import VERDICTS
from banco.ledger.base.text import Fact
from banco.ledger.records import commands as c
from banco.ledger.records.jail_ways import HOW_V2
from banco.ledger.records.upcast import upcast, upcast_row
from banco.ledger.records.verdict_prose import WRITTEN, ruling_from_prose, verdict_from_prose
from banco.ledger.records.verdicts import CODES, as_data, evidence, verdict, words


@pytest.mark.parametrize("code", sorted(HOW_V2))
def test_each_way_out_of_jail_reads_back_as_its_code(code):
    for version in (1, 2):
        old = {"player": "Anna", "how": HOW_V2[code]}
        assert upcast("LeftJail", version, old) == {"player": "Anna", "how": {"code": code}}
    assert str(Fact({"code": code}, "how")) == HOW_V2[code]  # its English, as written then


def test_a_card_drawn_keeps_its_deck_and_number_not_its_text():
    row = {"type": "CardDrawn", "schema_version": 1,
           "data": {"player": "Anna", "deck": "imprevisti", "number": 3, "text": "Andate..."}}
    read = upcast_row(row)
    assert read["data"] == {"player": "Anna", "deck": "imprevisti", "number": 3}
    assert row["data"]["text"] == "Andate..."  # the stored row as it was: the chain hashes it
    assert upcast("CardMisdrawn", 2, {"deck": "probabilita", "number": 1, "text": "x"}) == {
        "deck": "probabilita", "number": 1}


def test_the_words_say_every_code_with_its_parameters_and_nothing_else():
    """The ledger keeps the codes and their parameters (ledger/records/verdicts.py), the
    words package their words (cli/words/verdicts.py): one template per code, naming the
    code's parameters."""
    assert set(VERDICTS) == set(CODES)
    for code, words_ in VERDICTS.items():
        named = {n for t in (words_ if isinstance(words_, tuple) else (words_,))
                 for n in re.findall(r"\{(\w+)\}", t)}
        assert named | ({"n"} if isinstance(words_, tuple) else set()) == set(CODES[code]), code


@pytest.mark.parametrize("code", sorted(WRITTEN))
def test_every_verdict_older_bancos_wrote_reads_back_as_its_code(code):
    """What an older banco recorded (WRITTEN: its English, frozen) reads back as the code and
    parameters it was written from, whatever today's words (cli/words/verdicts.py) say."""
    written = WRITTEN[code]
    template = written[1] if isinstance(written, tuple) else written
    params = {n: 3 if n in ("seq", "late", "landed", "n") else f"<{n}>"
              for n in re.findall(r"\{(\w+)\}", template)}
    english = template.format(**params)
    found = verdict_from_prose(english)
    # a phrase may read as another's words where the two templates say the same: what
    # matters is that it is written the same again
    again = WRITTEN[found["code"]]
    again = again[1] if isinstance(again, tuple) else again
    assert found["code"] in CODES and again.format(**{k: v for k, v in found.items()
                                                      if k != "code"}) == english


@pytest.mark.parametrize("code", sorted(VERDICTS))
def test_every_verdict_is_said_in_english_and_italian_from_its_data(code):
    from banco.cli.words.i18n import catalog

    data = {"code": code, **{n: 3 if n in ("seq", "late", "landed", "n") else f"<{n}>"
                             for n in CODES[code]}}
    said = words(data)
    assert said.code == code and "{" not in str(said) and "{" not in said.render(catalog("it"))
    assert as_data(said) == data  # and it is recorded as the data it was said from


def test_an_older_recorded_ruling_reads_as_its_verdict_evidence_and_rule():
    old = {"kind": "rent", "subject_seq": 79, "referee": "Rita",
           "verdict": "too late: the window closed when Bruno rolled (event 74); the claim at "
                      "event 79 was rightly refused and Dario lost the rent",
           "text": "rent ruling on event 79 (rules classic, edition it)\nverdict: too late...\n"
                   "rule: 004 §Fermarsi nella proprietà di qualcun altro; 003 §04"}
    read = upcast("RulingRecorded", 2, old)
    assert read == {"kind": "rent", "subject_seq": 79, "referee": "Rita",
                    "verdict": {"code": "rent_refused", "player": "Bruno", "seq": 74,
                                "late": 79, "owner": "Dario"},
                    "evidence": {"said": old["text"]},
                    "rule": "004 §Fermarsi nella proprietà di qualcun altro; 003 §04"}
    # a verdict no template reads is kept, marked, and said as it was
    odd = upcast("RulingRecorded", 1, {**old, "verdict": "the referee says so"})
    assert odd["verdict"] == {"code": "said", "text": "the referee says so"}
    assert str(words(odd["verdict"])) == "the referee says so"


def test_an_older_command_is_decided_as_the_upcaster_reads_its_fact():
    """The audit re-derives an older `ruling --record`: its command held the English."""
    from helpers import new_table

    from banco.ledger.rules.decide import decide

    old = {"kind": "jail", "subject_seq": 1, "referee": "Rita",
           "verdict": "Anna left jail by fine at event 9, after 1 failed try",
           "text": "jail ruling...\nrule: 004 §Prigione; 003 §08"}
    table = new_table(("Anna", "Bruno"))
    facts = decide(table, c.RecordRuling("jail", 1, old["verdict"], "Rita", text=old["text"]))
    assert [e["data"] for e in facts if e["type"] == "RulingRecorded"] == [
        upcast("RulingRecorded", 2, old)] == [ruling_from_prose(old)]


def test_a_verdict_is_data_and_said_in_italian_from_it():
    from banco.cli.words.i18n import catalog

    answer = verdict("claim_in_time", seq=12, until=verdict("until_roll", closer="Bruno"))
    said = verdict("claim_at", when=verdict("after_event", seq=13), answer=answer)
    data = as_data(said)
    assert data == {"code": "claim_at", "when": {"code": "after_event", "seq": 13},
                    "answer": {"code": "claim_in_time", "seq": 12,
                               "until": {"code": "until_roll", "closer": "Bruno"}}}
    assert str(words(data)) == str(said) == ("a claim made after event 13 was IN TIME: the "
                                             "window was open from event 12 until Bruno rolls")
    italian = words(data).render(catalog("it"))
    assert italian == said.render(catalog("it")) and "Bruno" in italian
    assert "claim made" not in italian and "IN TIME" not in italian


def test_the_evidence_keeps_data_and_leaves_words_out():
    from banco.ledger.base.text import msg

    facts = {"seqs": (3, 4), "outcome": verdict("rent_not_due"), "said": msg("a step's words"),
             "how": Fact({"code": "card"}, "how"), "debts": [{"seq": 2, "note": msg("x")}]}
    assert evidence(facts) == {"seqs": [3, 4], "outcome": {"code": "rent_not_due"},
                               "how": {"code": "fact", "kind": "how",
                                       "value": {"code": "card"}},
                               "debts": [{"seq": 2}]}
