"""The wording faults a trial of the evening found (issue 31 item 4), each in both languages."""

from __future__ import annotations

import pytest

from banco.ledger.base.text import cited


@pytest.mark.parametrize("lang,refused", [
    ("en", "refused: the classic rules roll two dice; a third die, the Speedy die, is the "
           "championship's (000 §SVOLGIMENTO 3; 004 §Svolgimento del gioco)\n"),
    ("it", "non ammesso: le regole classiche tirano due dadi; un terzo dado, il dado Speedy, è "
           "del campionato (000 §SVOLGIMENTO 3; 004 §Svolgimento del gioco)\n"),
])
def test_a_refusal_cites_its_rules_in_one_bracket(banco, lang, refused):
    """`roll 1 2 3` at a classic table said `(000 §SVOLGIMENTO 3) (004 §Svolgimento del
    gioco)`: the words' own citation and the refusal's rule, each in its own bracket."""
    banco("new", "Anna", "Bruno")
    out = banco("--lang", lang, "roll", "1", "2", "3", code=1).output
    assert out.startswith(refused), out


def test_a_rule_joins_only_a_citation_and_is_cited_once():
    assert cited("a (000 FAQ 7)", "004 §Prigione") == "a (000 FAQ 7; 004 §Prigione)"
    # a bracket of words is no citation: the rule gets its own
    assert cited("buildings (Vicolo Corto)", "000 §IPOTECHE") == \
        "buildings (Vicolo Corto) (000 §IPOTECHE)"
    assert cited("as 000 FAQ 7 says", "000 FAQ 7") == "as 000 FAQ 7 says"
    assert cited("no rule", "") == "no rule"
