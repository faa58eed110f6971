"""Schema version 2 -> 3 for the facts whose prose went last: how a player left jail, a card's
text, a recorded ruling.  (ledger/records/upcast.py chains these after version 1 -> 2, so a
row of version 1 is read through both.)

- LeftJail's `how` was one of five English phrases (jail_ways.py): it is a code,
  `{"code": "doubles"}`.  The card used, the fine paid, the doubles thrown are facts of the
  same command (JailCardUsed, FinePaid, DiceRolled), not repeated here: an older row could not
  say them, and the audit compares the fact a command gives today with the older one as read.
- CardDrawn and CardMisdrawn carried the card's text: a card is its deck and number, and its
  words are the edition's card table's, said at the edge.
- RulingRecorded carried the verdict and the whole ruling in English: the verdict is a code and
  its parameters (cli/words/verdicts.py holds the words), the evidence is data, the rule a
  field.  An older ruling's verdict is read into its code where a template reads it (verdict_prose.py);
  otherwise, as an older reason's sentence is, it is kept marked `said`, and its text becomes
  the evidence `{"said": text}`: the English it was recorded in, which no code reads back.
"""

from __future__ import annotations

from banco.ledger.records.jail_ways import how_from_prose
from banco.ledger.records.verdict_prose import ruling_from_prose


def _left_jail(data: dict) -> dict:
    how = data.get("how")
    return {**data, "how": how_from_prose(how)} if type(how) is str else data


def _without_text(data: dict) -> dict:
    return {k: v for k, v in data.items() if k != "text"} if "text" in data else data


def _ruling(data: dict) -> dict:
    return ruling_from_prose(data) if type(data.get("verdict")) is str else data


UPCASTERS_V2 = {
    ("LeftJail", 2): _left_jail,
    ("CardDrawn", 2): _without_text,
    ("CardMisdrawn", 2): _without_text,
    ("RulingRecorded", 2): _ruling,
}
