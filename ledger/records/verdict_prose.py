"""An older RulingRecorded (schema versions 1 and 2), its verdict and reasons in English, read
as today's: the verdict into its code where one of VERDICTS' templates reads it (its phrases,
`when` or `answer`, stay the words they were), else kept marked `said`; the rule from the
text's last line, `rule: ...`, as the ruling wrote it; the evidence, which no code reads
back, as the text it was (`{"said": text}`).

The decider reads an older recorded command (RecordRuling with a sentence as its verdict) with
the same function, so that the audit finds the fact it gives equal to the older one as read.
"""

from __future__ import annotations

import re
from functools import cache

from banco.ledger.records.jail_ways import how_from_prose
from banco.ledger.records.verdicts import FACT, SAID, VERDICTS

COUNTS = frozenset({"seq", "late", "landed", "n"})
# Parameters that were phrases of the table themselves (read the same way, else kept as they
# were), and how a player left jail inside a jail verdict.
PHRASES = frozenset({"when", "answer", "until", "creditor", "what", "kind"})
WAY = "way"


@cache
def _patterns() -> list[tuple[re.Pattern, str]]:
    out = []
    for code, words in VERDICTS.items():
        for template in (words if isinstance(words, tuple) else (words,)):
            parts = re.split(r"\{(\w+)\}", template)
            pattern = "".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>.*?)"
                              for i, p in enumerate(parts))
            out.append((re.compile(pattern + r"\Z", re.S), code))
    return out


def verdict_from_prose(text: str) -> dict:
    """An older ruling's verdict, as the code and parameters it was written from."""
    for pattern, code in _patterns():
        m = pattern.match(text)
        if m:
            return {"code": code, **{k: _param(k, v) for k, v in m.groupdict().items()}}
    return {"code": SAID, "text": text}


def _param(name: str, value: str):
    if name in COUNTS and value.isdigit():
        return int(value)
    if name == WAY:
        how = how_from_prose(value)
        return value if how["code"] == SAID else {"code": FACT, "kind": "how", "value": how}
    if name in PHRASES:
        phrase = verdict_from_prose(value)
        return value if phrase["code"] == SAID else phrase
    return value


def rule_from_prose(text: str) -> str:
    """The rule a ruling's English cited on its last line (`rule: 000 FAQ 7`); else none."""
    last = text.rstrip().rsplit("\n", 1)[-1]
    return last.removeprefix("rule: ") if last.startswith("rule: ") else ""


def ruling_from_prose(data: dict) -> dict:
    """An older RulingRecorded's data as today's (the same keys but `text`, which went)."""
    text = data.get("text")
    text = text if type(text) is str else ""
    out = {k: v for k, v in data.items() if k not in ("verdict", "text")}
    out["verdict"] = verdict_from_prose(data["verdict"])
    out["evidence"] = {SAID: text}
    out["rule"] = rule_from_prose(text)
    return out
