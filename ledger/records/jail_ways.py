"""How a player left jail (LeftJail's `how`): a code, `{"code": "doubles"}`, and the English
phrase rows of schema versions 1 and 2 held instead (ledger/records/upcast_v3.py reads them)."""

from __future__ import annotations

# code -> the phrase rows of versions 1 and 2 held (history: it never changes).
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
    """An older row's phrase as its code (one no code reads: kept, marked `said`)."""
    code = _HOW_CODES.get(text)
    return {"code": code} if code else {"code": SAID, "text": text}
