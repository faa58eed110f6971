"""A fact's reason as data: a code and its parameters, `{"code": "bought", "space": "Vicolo
Corto"}`, never a sentence (DESIGN.md, "Events are facts").  The words are cli/words/reasons.py's.

Why one nested `reason` object and not flat `code` + parameter fields: 22 kinds of transfer
(and the transfers inside a trade or a hotel break-up) share `payer, payee, amount, reason`,
and every reader of money (statement, the read model, the books) passes a transfer's reason
along as one value; a parameter named `player` or `amount` would also collide with the
event's own fields.

Parameters are the values a reason names: player and space names (as every fact names them),
counts as integers, rule citations (`"rule": "000 FAQ 7"`), amounts as the edition printed
them, and a reason inside a reason (a debt's, when the Bank pays it).

Rows written before schema version 2 hold the English sentence these codes were written as:
`V1` is that prose, template by template, and `from_prose` reads a sentence back into its code
and parameters (ledger/records/upcast.py, when an old row is read).  V1 is the history of what
older bancos wrote: it never changes, whatever the words become.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache

from banco.ledger.base.text import ENGLISH
from banco.ledger.records.jail_ways import how_english

# code -> the sentence banco wrote for it before schema version 2.  Most specific first: the
# first template that matches a whole sentence reads it (as cli/words/reasons.py matched them).
V1: dict[str, str] = {
    # a reason inside a reason, first: the one inside may read as anything
    "paid_in_kind": "{reason}: {cash} in cash and {each}, the creditor's prices ({rule})",
    "bank_pays_debt": "the Bank pays {player}'s debt in full ({reason}; 002 §Fallimento)",
    "rent_after_earlier": "rent on {space}, after the rent of an earlier square ({rule})",
    "rent": "rent on {space}",
    "bought": "bought {space}",
    "won_auction": "won {space} at auction",
    "won_sellers_auction": "won {space} at {seller}'s auction (002 §Varie)",
    "landed_go": "landed on Via!",
    "passed_go": "passed Via!",
    "starting_cash": "starting cash",
    "starting_cash_for": "starting cash for {n} players ({rule})",
    "jail_fine": "jail fine before rolling",
    "jail_fine_after": "jail fine after {n} failed tries",
    "landed": "landed on {space}",
    "third_doubles": "doubles {n} times in a row ({rule}); the token does not move",
    "lot_mortgaged": "the lot is mortgaged (004 §Impegno)",
    "house_on": "house {n} on {space}",
    "hotel_on": "hotel on {space} ({n} houses back to the Bank)",
    "built_evenly": "built evenly: {changes}",
    "sold_evenly": "sold evenly at half price: {changes}",
    "sold_house": "sold a house on {space} at half price",
    "sold_at_half": "sold {what} at half price",
    "hotel_sold_paid": "hotel on {space} sold: {n} house(s) back on the lot, {m} paid at half "
                       "value",
    "hotel_sold": "hotel on {space} sold: {n} house(s) back on the lot",
    "hotel_broken_up_paid": "hotel on {space} broken up into {n} house(s), {m} paid at half value",
    "hotel_broken_up": "hotel on {space} broken up into {n} house(s)",
    "mortgaged": "mortgaged {space}",
    "mortgage_reverted_short": "{space} was mortgaged during {player}'s turn: it passes as it was "
                               "when the turn began, and its {amount} goes back to the Bank "
                               "(000 FAQ 32); {debtor} has only {left} left",
    "mortgage_reverted": "{space} was mortgaged during {player}'s turn: it passes as it was when "
                         "the turn began, and its {amount} goes back to the Bank (000 FAQ 32)",
    "mortgage_lifted": "lifted the mortgage on {space}: {mortgage} + {interest} interest",
    "freed_on_receiving": "freed {space} on receiving it: {mortgage} + 10%",
    "deeds_dealt": "deeds dealt and paid at once: {deeds}",
    "bankrupt_to_bank": "bankruptcy of {player}: everything to the Bank{more}",
    "bankrupt_to": "bankruptcy of {player}: everything to {creditor}{more}",
    "last_player_left": "{player} went bankrupt; {winner} is the last player left (003 §11)",
    "won_debt_written_off": "{player} is the last player left and cannot raise it: the game is "
                            "won (003 §11), no bankruptcy follows",
    "went_bankrupt": "{player} went bankrupt",
    "owed_could_raise": "owed {owed}, could raise {can}",
    "no_bid_seller_keeps": "nobody bid: {space} stays with {seller} (002 §Varie)",
    "no_bid_bank_keeps": "nobody bid: the deed stays with the Bank (house rules: auction_no_bid "
                         "= bank_keeps)",
    "no_bid_nobody_pays": "nobody bid and nobody can pay {amount}: the deed stays with the Bank "
                          "({rule})",
    "no_bid_richest_tied": "nobody bid for {space}: given to the richest player at the opening "
                           "bid ({rule}), the banker choosing among the tied",
    "no_bid_richest": "nobody bid for {space}: given to the richest player at the opening bid "
                      "({rule})",
    "no_bid_building": "nobody bid: the {kind} stays with the Bank and the auctions end",
    "hotel_won_building_auction": "hotel on {space} won at a building auction",
    "house_won_building_auction": "house on {space} won at a building auction",
    "building_auctioned": "{kind} auctioned for {amount}",
    "auction_voided": "{why}: a new auction without {player} ({rule})",
    "cannot_pay_bid": "{player} cannot pay {bid} for {what} ({cash} in cash)",
    "no_lot_for_bid": "{player} has no lot left where {what} could go for his bid (000 §PENURIA "
                      "DI EDIFICI)",
    "card_each_player": "{card}: {amount} to each player",
    "card_repairs": "{card}: {houses} house(s) x {house} + {hotels} hotel(s) x {hotel}",
    "trade": "trade with {player}",
    "speedy_third_doubles": "the third doubles send {player} to jail ({rule})",
    "speedy_in_jail": "in jail only the numbered dice count ({rule})",
    "speedy_before_go": "{player} has not passed Via! yet ({rule})",
    "bus_both": "the Bus: {n}, both dice ({rule})",
    "bus_one": "the Bus: {n}, one die ({rule})",
    "bus": "the Bus: {spaces}, {which} ({rule})",
    "triple": "a triple: any space, clockwise ({rule})",
    "referee": "referee {referee}: {said}",
    "mortgaged_fee": "10% on receiving the mortgaged {space}",
    "late_claim": "{owner}'s claim for {amount} rent on {space} from {payer} is too late: {payer} "
                  "landed at event {landed} and the window closed when {closer} rolled (event "
                  "{lapsed})",
    "estate_to_bank": "{what}: back to the Bank with {player}'s estate (002 §Fallimento)",
    "time_up_richest": "time is up ({at}): {player} is the richest with {amount}",
    "time_up_tie": "time is up ({at}): {players} tie at {amount}",
    "bankruptcy_ends_richest": "bankruptcy number {n} ends the game: {player} is the richest with "
                               "{amount}",
    "bankruptcy_ends_tie": "bankruptcy number {n} ends the game: {players} tie at {amount}",
    "time_up": "time is up ({at})",
    "bankruptcy_ends": "bankruptcy number {n} ends the game",
    "turn_finishes": "{player} finishes the turn in progress, then the game ends",
    "ends_now": "the game ends now",
    "mr_next_free": "to {space}, the next free property ({rule})",
    "mr_nearest_rent": "to {space}, {owner}'s: no property is free and it is the nearest where rent "
                       "is owed (000 FAQ 39)",
    "mr_stays": "no property is free and no rent is owed anywhere: the token stays (000 FAQ 39)",
    "undo_line": "undo: {types} (`{line}`)",
    "undo": "undo: {types}",
}

# How a rent was worked out (RentClaimOpened's `basis`): its own codes, read only from a basis.
BASES_V1: dict[str, str] = {
    "rent_by_card": "{basis}, x{times} by {card}",
    "rent_unbuilt": "unbuilt lot",
    "rent_hotel": "hotel",
    "rent_houses": "{n} house(s)",
    "rent_stations": "{n} station(s) owned: {rent}",
    "rent_utilities": "{n} utility(ies) owned: {factor} x dice {dice}",
    "rent_mortgaged_group": "complete group but a lot is mortgaged: no double rent (004)",
    "rent_double": "complete group, unbuilt: double {rent}",
    "rent_fresh_throw": "{times} x the fresh throw of {total}, {rule}",
}

# A card as a reason (`Imprevisti 5`: the deck's title and the card's number), written where a
# card moves money or sends to jail: read last, any sentence ending in a number is one.
CARD = "card"
# What older prose no template reads (a house-rules text, a hand-written row): kept, marked.
SAID = "said"

# A tax: the square's name was the whole sentence.
TAX = "tax"
# Parameters that are counts: integers in the data, digits in the prose; and, by code, the
# amounts written as bare numbers.
COUNTS = frozenset({"n", "m", "houses", "hotels", "number", "landed", "lapsed"})
INTS = {"card_each_player": {"amount"}, "card_repairs": {"house", "hotel"},
        "mortgage_lifted": {"mortgage", "interest"}, "freed_on_receiving": {"mortgage"},
        "cannot_pay_bid": {"bid", "cash"}, "rent_by_card": {"times"},
        "rent_stations": {"rent"}, "rent_utilities": {"factor", "dice"}, "rent_double": {"rent"},
        "rent_fresh_throw": {"times", "total"}}
# The parameter that is a square: its number on the board since schema version 3 (the
# edition's name for it is a word, said where it is shown); older rows held the name.
SQUARE = "space"
# By code, the parameters that are amounts of money: integers in the edition's unit since
# schema version 3, said as the edition prints them (`1.200 M`); older rows held that text,
# read back by the upcaster (ledger/records/upcast.py).
MONEY = {"owed_could_raise": {"owed", "can"}, "building_auctioned": {"amount"},
         "no_bid_nobody_pays": {"amount"}, "paid_in_kind": {"cash"},
         "mortgage_reverted": {"amount"}, "mortgage_reverted_short": {"amount", "left"},
         "time_up_richest": {"amount"}, "time_up_tie": {"amount"},
         "bankruptcy_ends_richest": {"amount"}, "bankruptcy_ends_tie": {"amount"},
         "late_claim": {"amount"}}
# By code, the parameter that is a list of lots, since schema version 3 (older rows: the
# phrase it was said as): deeds as [{"space", "price"}], buildings as [{"space", "level"}]
# (0-4 houses, 5 a hotel, as BuildingsBuilt's lots), changes as [{"space", "from", "to"}].
LOTS = {"deeds_dealt": "deeds", "paid_in_kind": "each", "built_evenly": "changes",
        "sold_evenly": "changes", "sold_at_half": "what", "estate_to_bank": "what"}
# An unpaid bid's reasons: what was bid for, a deed's square (`space`) or a building (`kind`).
BID_FOR = frozenset({"cannot_pay_bid", "no_lot_for_bid"})
# Parameters that are a reason themselves (the debt the Bank pays in full, the card, why an
# auction was voided).
NESTED = frozenset({"reason", "card", "why", "basis"})
# Parameters that are lists, and how the sentence joined them.
LISTS = {"players": " and ", "types": ", "}
# A bankruptcy's estate (`bankrupt_to`, `bankrupt_to_bank`): the sentence's tail said which
# rules it went by; the data holds their citations.
ESTATE_MORE = (("buildings_rule", ", buildings included ({})"),
               ("bank_pays_rule", ", which pays the creditors in full ({})"))


def reason(code: str, **params) -> dict:
    """A reason as decide records it."""
    return {"code": code, **params}


def card(deck: str, number: int) -> dict:
    """A card as a reason: its deck's key in the edition (`imprevisti`) and its number."""
    return {"code": CARD, "deck": deck, "number": number}


def is_reason(value) -> bool:
    return type(value) is dict and type(value.get("code")) is str


def as_text(value) -> str:
    """A reason where only text is kept (the read model's column): its canonical JSON, read
    back by cli/words/reasons.py's reason_of; an older sentence as it is."""
    if type(value) is dict:
        import json

        return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return value


def from_text(value) -> dict:
    """A reason, however it is held: a fact's code and parameters, as_text's JSON of them, or
    an older banco's sentence (read as its upcaster reads it)."""
    if is_reason(value):
        return value
    value = getattr(value, "value", value)  # a Fact (ledger/base/text.py) holds its data
    if is_reason(value):
        return value
    if isinstance(value, str) and value.startswith("{"):
        import json

        try:
            decoded = json.loads(value)
        except ValueError:
            decoded = None
        if is_reason(decoded):
            return decoded
    return from_prose(str(value)) if value is not None else {"code": SAID, "text": ""}


def square_name(value, edition=None) -> str:
    """A square a reason names, as the edition names it: its number since schema version 3
    (an older row's name, the upcaster found on no board, as written).  Without an edition
    (a caller that knows no game), its number."""
    if type(value) is int and edition is not None and 0 <= value < len(edition.spaces):
        return edition.space(value).name
    return str(value)


def deck_title(key, edition=None) -> str:
    """A card's deck as the edition titles it (`imprevisti` -> `Imprevisti`)."""
    decks = getattr(edition, "decks", None) or {}
    return decks[key].title if key in decks else str(key)


def level_english(level: int) -> str:
    """Buildings on a lot by its level (0-4 houses, 5 a hotel), as older bancos wrote them."""
    return "a hotel" if level == 5 else f"{level} house" + ("" if level == 1 else "s")


def _money(amount, edition) -> str:
    return edition.money(amount) if edition is not None and type(amount) is int else str(amount)


def shown(value: dict, edition=None, level=level_english, on="{building} on {space}") -> dict:
    """A reason's parameters with its data as the edition shows it: a square by its name, an
    amount as the edition prints it, a list of lots (deeds with their prices, buildings on
    lots) as one phrase.  `level` and `on` say buildings in the caller's language (English
    by default, as older bancos wrote them).  Without an edition (a caller that knows no
    game), a number is its bare number."""
    out = {k: v for k, v in value.items() if k != "code"}
    if SQUARE in out:
        out[SQUARE] = square_name(out[SQUARE], edition)
    for k in MONEY.get(value["code"], ()) & out.keys():
        out[k] = _money(out[k], edition)
    lots = LOTS.get(value["code"])
    if lots is not None and type(out.get(lots)) is list:
        items = out[lots]
        name = lambda lot: square_name(lot.get(SQUARE), edition)  # noqa: E731
        if lots == "deeds":  # deeds dealt: `Vicolo Corto 60 M + Via Roma 260 M`
            out[lots] = " + ".join(f"{name(d)} {_money(d.get('price'), edition)}" for d in items)
        elif lots == "each":  # deeds paid in kind: `Vicolo Corto at 60 M, ...`
            out[lots] = ", ".join(f"{name(d)} at {_money(d.get('price'), edition)}"
                                  for d in items)
        elif lots == "changes":  # `Vicolo Corto 1 house -> a hotel, ...`
            out[lots] = ", ".join(f"{name(x)} {level(x.get('from'))} -> {level(x.get('to'))}"
                                  for x in items)
        else:  # `a hotel on Vicolo Corto, 2 houses on Vicolo Stretto`
            out[lots] = ", ".join(on.format(building=level(x.get("level")), space=name(x))
                                  for x in items)
    if value["code"] in BID_FOR and "what" not in out:  # a deed by its square, or a building
        out["what"] = out.pop(SQUARE) if SQUARE in out else f"the {out.pop('kind', '')}"
    return out


def english(value, edition=None) -> str:
    """A reason as older bancos wrote it (tests, logs and `str()` of a message that holds one;
    the user reads cli/words/reasons.py's words); `edition` says its data (amounts)."""
    if not is_reason(value):
        return str(value)
    code = value["code"]
    if code == CARD:
        return f"{deck_title(value.get('deck'), edition)} {value.get('number')}"
    if code == TAX:
        return square_name(value.get("space", ""), edition)
    if code == SAID:
        return str(value.get("text", ""))
    template = V1.get(code) or BASES_V1.get(code)
    if template is None:
        return code
    params = {k: english(v, edition) if k in NESTED else
              LISTS[k].join(map(str, v)) if k in LISTS and type(v) is list else v
              for k, v in shown(value, edition).items()}
    if code in ("bankrupt_to", "bankrupt_to_bank"):
        params["more"] = "".join(words.format(params.pop(key)) for key, words in ESTATE_MORE
                                 if key in params)
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        return code


# Sentences whose parameters a template alone cannot tell apart: a player's name has no comma.
PATTERNS = {
    "bankrupt_to_bank": r"bankruptcy of (?P<player>.*?): everything to the Bank(?P<more>(?:, .*)?)",
    "bankrupt_to": r"bankruptcy of (?P<player>.*?): everything to (?P<creditor>[^,]*)"
                   r"(?P<more>(?:, .*)?)",
    # the debt's own reason may hold a colon (`Imprevisti 5: 50 to each player`)
    "paid_in_kind": r"(?P<reason>.*): (?P<cash>[^:]*?) in cash and (?P<each>.*), the "
                    r"creditor's prices \((?P<rule>[^()]*)\)",
}


@cache
def _patterns(kind: str = "reason") -> list[tuple[re.Pattern, str]]:
    out = []
    for code, template in (BASES_V1 if kind == "basis" else V1).items():
        if code in PATTERNS:
            out.append((re.compile(PATTERNS[code] + r"\Z", re.S), code))
            continue
        parts = re.split(r"\{(\w+)\}", template)
        seen: set[str] = set()
        pattern = ""
        for i, p in enumerate(parts):
            if i % 2 == 0:
                pattern += re.escape(p)
            else:  # a name said twice is the same text twice
                pattern += f"(?P={p})" if p in seen else f"(?P<{p}>.*?)"
                seen.add(p)
        out.append((re.compile(pattern + r"\Z", re.S), code))
    return out


_CARD = re.compile(r"(?P<deck>.+) (?P<number>[1-9]\d*)\Z", re.S)


def basis_from_prose(text: str) -> dict:
    """How an older banco's sentence said a rent was worked out, as its code."""
    return dict(_from_prose(text, SAID, "basis"))


def from_prose(text: str, bare: str = SAID) -> dict:
    """The code and parameters an older banco's sentence was written from.  A sentence no
    template reads is kept as `said` (the audit then finds it differs from what decide gives),
    or, where the only such sentence was a tax square's name (`bare=TAX`: a tax, or a debt
    that may be one), as that tax."""
    return dict(_from_prose(text, bare, "reason"))  # a copy: the cached one is shared


def _estate(more: str) -> dict:
    out = {}
    for key, words in ESTATE_MORE:
        head, tail = words.split("{}")
        m = re.search(re.escape(head) + r"(.*?)" + re.escape(tail) + r"(?=, |\Z)", more)
        if m:
            out[key] = m.group(1)
    return out


@lru_cache(maxsize=8192)
def _from_prose(text: str, bare: str, kind: str) -> dict:
    for pattern, code in _patterns(kind):
        m = pattern.match(text)
        if m:
            params = m.groupdict()
            ints = INTS.get(code, ())
            for k, v in params.items():
                if (k in COUNTS or k in ints) and v.isdigit() and str(int(v)) == v:
                    params[k] = int(v)
                elif k == "basis":
                    params[k] = basis_from_prose(v)
                elif k in NESTED:
                    params[k] = from_prose(v, bare)
                elif k in LISTS:
                    params[k] = v.split(LISTS[k])
            if "more" in params:
                params.update(_estate(params.pop("more")))
            return {"code": code, **params}
    m = _CARD.match(text) if kind == "reason" else None
    if m:
        return {"code": CARD, "deck": m.group("deck"), "number": int(m.group("number"))}
    if bare == TAX:
        return {"code": TAX, "space": text}
    return {"code": SAID, "text": text}


ENGLISH.setdefault("reason", english)  # a reason inside a message (ledger/base/text.py's Fact)
ENGLISH.setdefault("basis", english)  # a rent's basis inside a message
ENGLISH.setdefault("how", how_english)  # how a player left jail (LeftJail's code)
