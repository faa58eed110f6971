"""`ruling rent SEQ --claim-at` has one word for one thing, in English and Italian: the verdict
is the answer to the question asked (and what `--record` records); the rent as the log stands
is evidence above it.  It printed `esito: troppo tardi ...` then `verdetto: ... IN TEMPO`
(`outcome:` then `verdict:`), two lines that both read as verdicts."""

import pytest

# docs/referee.md's game: Anna's claim on Bruno comes after Carla's roll (event 19), refused
GAME = (["new", "Anna", "Bruno", "Carla"], ["roll", "3", "2"], ["buy"],
        ["roll", "2", "3", "--player", "bruno"], ["roll", "1", "2", "--player", "carla"])

WORDS = {  # the language: (the verdict's label, the log's, words of the rent's fate here)
    "en": ("verdict: ", "as the log stands: ", "too late"),
    "it": ("verdetto: ", "secondo il registro: ", "troppo tardi"),
}


@pytest.mark.parametrize("lang", sorted(WORDS))
def test_the_claim_ats_verdict_is_the_one_verdict_and_the_log_is_evidence(banco, lang):
    for line in GAME:
        banco(*line)
    banco("claim", "Anna", code=1)  # too late: refused, and the refusal recorded
    verdict, logged, late = WORDS[lang]
    plain = banco("--lang", lang, "ruling", "rent", "16").stdout.splitlines()
    said = banco("--lang", lang, "ruling", "rent", "16", "--claim-at", "17").stdout.splitlines()
    # without --claim-at the rent's fate is the verdict; with it, the same words are the log's
    fate = next(x for x in plain if x.startswith(verdict))[len(verdict):]
    assert late in fate
    assert [x for x in said if x.startswith(logged)] == [logged + fate], said
    verdicts = [x for x in said if x.startswith(verdict)]
    assert len(verdicts) == 1 and (" IN TIME" in verdicts[0] or " IN TEMPO" in verdicts[0]), said
    assert not any(x.startswith(("outcome:", "esito:")) for x in said), said
    # the help names the same two things with the same words
    help_ = banco("--lang", lang, "ruling", "rent", "--help").stdout
    assert ("outcome" if lang == "en" else "esito") not in help_, help_
