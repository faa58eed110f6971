"""Schema version 2 -> 3 for the facts whose prose went last: how a player left jail, a card's
text, a recorded ruling.  (ledger/records/upcast.py chains these after version 1 -> 2, so a
row of version 1 is read through both.)

- LeftJail's `how` was one of five English phrases: it is a code, `{"code": "doubles"}`.  The
  card used, the fine paid, the doubles thrown are facts of the same command (JailCardUsed,
  FinePaid, DiceRolled), not repeated here: an older row could not say them, and the audit
  compares the fact a command gives today with the older one as read.
- CardDrawn and CardMisdrawn carried the card's text: a card is its deck and number, and its
  words are the edition's card table's, said at the edge.
- RulingRecorded carried the verdict and the whole ruling in English: the verdict is a code and
  its parameters (projections/referee/verdicts.py says the words), and the evidence is data.
  An older ruling's verdict is read into its code where a template reads it; otherwise, as an
  older reason's sentence is, it is kept marked `said`, and its text becomes the evidence
  `{"said": text}`: the English it was recorded in, which no code reads back.
"""

from __future__ import annotations

# how -> the phrase rows of versions 1 and 2 held (history: it never changes).
HOW_V2 = {"doubles": "doubles", "fine": "fine", "card": "card",
          "fine_after_last_try": "fine after the last try",
          "card_after_last_try": "card instead of the fine, after the last try"}
_HOW_CODES = {phrase: code for code, phrase in HOW_V2.items()}
SAID = "said"  # as ledger/records/reasons.py marks prose no template reads


def how_english(value) -> str:
    """How a player left jail, as versions 1 and 2 wrote it (the English of a message)."""
    code = value.get("code") if type(value) is dict else value
    return HOW_V2.get(code) or str(value.get("text", code) if type(value) is dict else value)


def how_from_prose(text: str) -> dict:
    code = _HOW_CODES.get(text)
    return {"code": code} if code else {"code": SAID, "text": text}


def _left_jail(data: dict) -> dict:
    how = data.get("how")
    return {**data, "how": how_from_prose(how)} if type(how) is str else data


def _without_text(data: dict) -> dict:
    return {k: v for k, v in data.items() if k != "text"} if "text" in data else data


def _ruling(data: dict) -> dict:
    if type(data.get("verdict")) is not str:
        return data
    from banco.ledger.records.verdict_prose import ruling_from_prose

    return ruling_from_prose(data)


UPCASTERS_V2 = {
    ("LeftJail", 2): _left_jail,
    ("CardDrawn", 2): _without_text,
    ("CardMisdrawn", 2): _without_text,
    ("RulingRecorded", 2): _ruling,
}
