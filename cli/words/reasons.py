"""A fact's reason said in the user's language, from its code and parameters.

A reason is data (ledger/records/reasons.py): `{"code": "bought", "space": "Vicolo Corto"}`.
WORDS gives each code's words (the English template is the catalogs' msgid), SAYERS_BY_CODE
the codes said by a function of their own (a card, a tax, a referee's words); the parameters
(names of players and spaces, amounts, sections of the rulebooks) are kept as they are.  An
older row's sentence is read into its code first (its upcaster's templates), so an older game
says what a new one says.  A code with no words here is said in English, as its sentence was.
"""

from __future__ import annotations

import re

from banco.cli.words.event_words import say_types
from banco.cli.words.i18n import N_, NN_, NP_, _, language, ngettext, pgettext
from banco.ledger.base.errors import DatabaseError
from banco.ledger.base.text import SAYERS
from banco.ledger.records.reasons import (
    CARD,
    ESTATE_MORE,
    NESTED,
    SAID,
    TAX,
    basis_from_prose,
    deck_title,
    english,
    from_text,
    is_reason,
    shown,
    square_name,
)

# A reason's words by its code (ledger/records/reasons.py): the English template is the msgid
# the catalogs translate.  These are today's words; the sentences older bancos recorded are
# ledger/records/reasons.py's V1, read into codes when an old row is read.
WORDS = {
    "rent_after_earlier": N_("rent on {space}, after the rent of an earlier square ({rule})"),
    "rent": N_("rent on {space}"),
    "bought": N_("bought {space}"),
    "won_auction": N_("won {space} at auction"),
    "won_sellers_auction": N_("won {space} at {seller}'s auction (002 §Varie)"),
    "landed_go": N_("landed on Via!"),
    "passed_go": N_("passed Via!"),
    "starting_cash": N_("starting cash"),
    "starting_cash_for": N_("starting cash for {n} players ({rule})"),
    "jail_fine": N_("jail fine before rolling"),
    "jail_fine_after": N_("jail fine after {n} failed tries"),
    "jail_card_for_fine": N_("a get-out-of-jail card used instead of the fine, {rule}"),
    "landed": N_("landed on {space}"),
    "third_doubles": N_("doubles {n} times in a row ({rule}); the token does not move"),
    "lot_mortgaged": N_("the lot is mortgaged (004 §Impegno)"),
    "house_on": N_("house {n} on {space}"),
    "hotel_on": N_("hotel on {space} ({n} houses back to the Bank)"),
    "built_evenly": N_("built evenly: {changes}"),
    "sold_evenly": N_("sold evenly at half price: {changes}"),
    "sold_at_half": N_("sold {what} at half price"),
    "sold_house": N_("sold a house on {space} at half price"),
    "hotel_sold_paid": N_("hotel on {space} sold: {n} back on the lot, {m} paid at half value"),
    "hotel_sold": N_("hotel on {space} sold: {n} back on the lot"),
    "hotel_broken_up": N_("hotel on {space} broken up into {n}"),
    "hotel_broken_up_paid": N_("hotel on {space} broken up into {n}, {m} paid at half value"),
    "mortgaged": N_("mortgaged {space}"),
    "mortgage_reverted_short": N_(
        "{space} was mortgaged during {player}'s turn: it passes as it was when the turn began, "
        "and its {amount} goes back to the Bank (000 FAQ 32); {debtor} has only {left} left"),
    "mortgage_reverted": N_(
        "{space} was mortgaged during {player}'s turn: it passes as it was when the turn began, "
        "and its {amount} goes back to the Bank (000 FAQ 32)"),
    "mortgage_lifted": N_("lifted the mortgage on {space}: {mortgage} + {interest} interest"),
    "freed_on_receiving": N_("freed {space} on receiving it: {mortgage} + 10%"),
    "deeds_dealt": N_("deeds dealt and paid at once: {deeds}"),
    "bankrupt_to_bank": N_("bankruptcy of {player}: everything to the Bank{more}"),
    "bankrupt_to": N_("bankruptcy of {player}: everything to {creditor}{more}"),
    # a debt paid partly in deeds, at the creditor's prices (002 §Varie)
    "paid_in_kind": N_("{reason}: {cash} in cash and {each}, the creditor's prices ({rule})"),
    "bank_pays_debt": N_("the Bank pays {player}'s debt in full ({reason}; 002 §Fallimento)"),
    "last_player_left": N_("{player} went bankrupt; {winner} is the last player left (003 §11)"),
    "won_debt_written_off": N_("{player} is the last player left and cannot raise it: the "
                               "game is won (003 §11), no bankruptcy follows"),
    "went_bankrupt": N_("{player} went bankrupt"),
    "owed_could_raise": N_("owed {owed}, could raise {can}"),
    "no_bid_seller_keeps": N_("nobody bid: {space} stays with {seller} (002 §Varie)"),
    "no_bid_bank_keeps": N_("nobody bid: the deed stays with the Bank (house rules: "
                            "auction_no_bid = bank_keeps)"),
    "no_bid_nobody_pays": N_("nobody bid and nobody can pay {amount}: the deed stays with the "
                             "Bank ({rule})"),
    "no_bid_richest_tied": N_("nobody bid for {space}: given to the richest player at the "
                              "opening bid ({rule}), the banker choosing among the tied"),
    "no_bid_richest": N_("nobody bid for {space}: given to the richest player at the opening "
                         "bid ({rule})"),
    "no_bid_building": N_("nobody bid: the {kind} stays with the Bank and the auctions end"),
    "hotel_won_building_auction": N_("hotel on {space} won at a building auction"),
    "house_won_building_auction": N_("house on {space} won at a building auction"),
    "building_auctioned": N_("{kind} auctioned for {amount}"),
    "auction_voided": N_("{why}: a new auction without {player} ({rule})"),
    "cannot_pay_bid": N_("{player} cannot pay {bid} for {what} ({cash} in cash)"),
    "no_lot_for_bid": N_("{player} bid for {what} but has no lot left where it could go "
                         "(000 §PENURIA DI EDIFICI)"),
    "card_each_player": N_("{card}: {amount} to each player"),
    "card_repairs": N_("{card}: {houses} x {house} + {hotels} x {hotel}"),
    "trade": N_("trade with {player}"),
    "speedy_third_doubles": N_("the third doubles send {player} to jail ({rule})"),
    "speedy_in_jail": N_("in jail only the numbered dice count ({rule})"),
    "speedy_before_go": N_("{player} has not passed Via! yet ({rule})"),
    "bus_both": N_("the Bus: {n}, both dice ({rule})"),
    "bus_one": N_("the Bus: {n}, one die ({rule})"),
    "bus": N_("the Bus: {spaces}, {which} ({rule})"),
    "triple": N_("a triple: any space, clockwise ({rule})"),
    "referee": N_("referee {referee}: {reason}"),
    "mortgaged_fee": N_("10% on receiving the mortgaged {space}"),
    "late_claim": N_("{owner}'s claim for {amount} rent on {space} from {payer} is too late: "
                     "{payer} landed at event {landed} and the window closed when {closer} "
                     "rolled (event {lapsed})"),
    "estate_to_bank": N_("{what}: back to the Bank with {player}'s estate (002 §Fallimento)"),
    "time_up_richest": N_("time is up ({at}): {player} is the richest with {amount}"),
    "time_up_tie": N_("time is up ({at}): {players} tie at {amount}"),
    "bankruptcy_ends_richest": N_("bankruptcy number {n} ends the game: {player} is the richest "
                                  "with {amount}"),
    "bankruptcy_ends_tie": N_("bankruptcy number {n} ends the game: {players} tie at {amount}"),
    "time_up": N_("time is up ({at})"),
    "bankruptcy_ends": N_("bankruptcy number {n} ends the game"),
    "turn_finishes": N_("{player} finishes the turn in progress, then the game ends"),
    "ends_now": N_("the game ends now"),
    "mr_next_free": N_("to {space}, the next free property ({rule})"),
    "mr_nearest_rent": N_("to {space}, {owner}'s: no property is free and it is the nearest "
                          "where rent is owed (000 FAQ 39)"),
    "mr_stays": N_("no property is free and no rent is owed anywhere: the token stays (000 FAQ "
                   "39)"),
    "undo_line": N_("undo: {types} (`{line}`)"),
    "undo": N_("undo: {types}"),
}

# The kinds of building (a building auction's, an unpaid bid's), by the word the fact holds.
BUILDINGS = {"house": N_("house"), "hotel": N_("hotel")}
# Amounts some codes hold as bare integers (ledger/records/reasons.py INTS, as older prose
# wrote them), said as the edition prints money (`30 M`): the words are newer than that prose.
# INTS' other integers (a die's total, a factor, a count) are no money and stay bare.
AMOUNTS = {"cannot_pay_bid": ("bid", "cash"), "freed_on_receiving": ("mortgage",),
           "mortgage_lifted": ("mortgage", "interest"), "card_each_player": ("amount",),
           "card_repairs": ("house", "hotel")}

# Counts of buildings said in the form their number takes ("2 houses", "1 casa"): the
# parameters that are counts, of houses or of hotels, by code.
COUNTED = {"hotel_sold_paid": {"n": "house"}, "hotel_sold": {"n": "house"},
           "hotel_broken_up": {"n": "house"}, "hotel_broken_up_paid": {"n": "house"},
           "card_repairs": {"houses": "house", "hotels": "hotel"}}


def _count(kind: str, n) -> str:
    if type(n) is not int:
        return str(n)
    if kind == "hotel":
        return ngettext("{n} hotel", "{n} hotels", n).format(n=n)
    return ngettext("{n} house", "{n} houses", n).format(n=n)


# Fields that hold a list of buildings: data since schema version 3 (ledger/records/reasons.py
# LOTS), said here; an older row's phrase, "Vicolo Corto 1 house -> a hotel", "a hotel on
# Vicolo Corto, 2 houses on Vicolo Stretto", read into the user's language.
BUILDING_FIELDS = frozenset({"changes", "what"})
_HOUSES = re.compile(r"\b(\d+) houses?\b")
_ON = re.compile(r"(?P<building>a hotel|\d+ houses?) on (?P<space>[^,]+)")


def _level(level) -> str:
    """Buildings on a lot by its level (5: a hotel), in the user's language."""
    if level == 5:
        return _("a hotel")
    return ngettext("{n} house", "{n} houses", level).format(n=level)


def _say_buildings(text: str) -> str:
    def building(words: str) -> str:
        m = _HOUSES.fullmatch(words)
        if m:
            n = int(m.group(1))
            return ngettext("{n} house", "{n} houses", n).format(n=n)
        return _("a hotel") if words == "a hotel" else words

    if _ON.search(text):  # "a hotel on X, 2 houses on Y"
        return _ON.sub(lambda m: _("{building} on {space}").format(
            building=building(m.group("building")), space=m.group("space")), text)
    # "X 1 house -> a hotel"
    return re.sub(r"\ba hotel\b|\b\d+ houses?\b", lambda m: building(m.group(0)), text)


# A mortgage freed on receiving a deed records the mortgage alone: with the amount paid (the
# fact's), its interest is said as a lift's is (`100 M + 10 M interest`, not `90 M + 10%`)
FREED = N_("freed {space} on receiving it: {mortgage} + {interest} interest")


def say_reason(value, edition=None, amount: int | None = None) -> str:
    """A fact's reason in the user's language; `edition`, the game's, says its data (an
    amount as the edition prints it); `amount`, the fact's own, where a reason's words need
    it (a mortgage freed on receiving: its interest)."""
    if not value:
        return "" if value is None else value
    reason = from_text(value)
    if (reason.get("code") == "freed_on_receiving" and type(amount) is int
            and type(reason.get("mortgage")) is int):
        return _(FREED).format(space=square_name(reason.get("space"), edition),
                               mortgage=_amount(reason["mortgage"], edition),
                               interest=_amount(abs(amount) - reason["mortgage"], edition))
    return _say(reason, edition)


def _say(reason: dict, edition=None) -> str:
    return SAYERS_BY_CODE.get(reason["code"], _by_template)(reason, edition)


def _by_template(reason: dict, edition=None) -> str:
    code = reason["code"]
    template = WORDS.get(code)
    if template is None:  # a code a newer banco wrote: its parameters, as they are
        return english(reason, edition)
    fields = shown(reason, edition, _level, _("{building} on {space}"))
    if code == "paid_in_kind" and type(reason.get("each")) is list:  # `Vicolo Corto at 60 M`
        fields["each"] = ", ".join(
            _("{space} at {price}").format(space=square_name(d.get("space"), edition),
                                           price=_amount(d.get("price"), edition))
            for d in reason["each"])
    if "kind" in reason and reason["kind"] in BUILDINGS:  # a house or a hotel, in words
        kind = _(BUILDINGS[reason["kind"]])
        if "what" in fields and "what" not in reason:  # an unpaid bid for a building
            fields["what"] = _("the {kind}").format(kind=kind)
        if "kind" in fields:
            fields["kind"] = kind
    for k in AMOUNTS.get(code, ()):
        if k in fields:
            fields[k] = _amount(fields[k], edition)
    for k in BUILDING_FIELDS & fields.keys():
        if type(reason.get(k)) is str:  # an older row's phrase, in English
            fields[k] = _say_buildings(fields[k])
    if "types" in fields:  # an undo's: the event types it took back
        types = fields["types"]
        fields["types"] = say_types(", ".join(types) if isinstance(types, list) else types)
    if "at" in fields and ISO_TIME.match(str(fields["at"])):  # time-up's moment, as `log`
        fields["at"] = local_time(fields["at"])
    if "players" in fields:  # `Amy, Bob and Zed` in the user's language
        players = fields["players"]
        fields["players"] = _players(" and ".join(players) if isinstance(players, list)
                                     else players)
    if code in ("bankrupt_to", "bankrupt_to_bank"):  # the rules it went by, as written
        fields["more"] = "".join(words.format(fields.pop(key)) for key, words in ESTATE_MORE
                                 if key in fields)
    for k in NESTED & fields.keys():  # a debt's reason, a card, inside
        if is_reason(fields[k]):
            fields[k] = _say(fields[k], edition)
    for field, kind in COUNTED.get(code, {}).items():
        fields[field] = _count(kind, fields.get(field))
    try:
        return _(template).format(**fields)
    except (KeyError, IndexError, ValueError):
        return english(reason, edition)


def _amount(amount, edition) -> str:
    return edition.money(amount) if edition is not None and type(amount) is int else str(amount)


def _card(reason: dict, edition=None) -> str:  # the deck's title and the card's number, the edition's words
    return f"{deck_title(reason.get('deck'), edition)} {reason.get('number')}"


def _said(reason: dict, edition=None) -> str:  # an older row's sentence no template reads: as written
    return str(reason.get("text", ""))


def _referee(reason: dict, edition=None) -> str:  # the referee's own words, as he gave them
    return _(WORDS["referee"]).format(referee=reason.get("referee"), reason=reason.get("said"))


def _tax(reason: dict, edition=None) -> str:  # the tax square's name, the edition's words
    return square_name(reason.get("space", ""), edition)


SAYERS_BY_CODE = {CARD: _card, SAID: _said, TAX: _tax, "referee": _referee}


ISO_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)\Z")


def local_time(recorded_at: str) -> str:
    """`2026-11-30T06:12:03.000000Z` as the table's clock reads it: local time with its UTC
    offset (`2026-11-30 07:12:03+01:00`); the TZ environment variable is honoured."""
    from datetime import datetime

    try:
        moment = datetime.fromisoformat(recorded_at.replace("Z", "+00:00"))
    except (AttributeError, TypeError, ValueError):
        # banco writes every time itself: another is a row edited outside it (issue 32),
        # which the chain or the audit names; refused here rather than a traceback
        raise DatabaseError("{value} is no time banco records: a row was edited outside banco; "
                            "`banco audit` names it (`banco doctor` for the games table)",
                            value=repr(recorded_at)[:60]) from None
    return moment.astimezone().isoformat(sep=" ", timespec="seconds")


def _players(text: str) -> str:
    """A list of names as a reason wrote it, said as the user's language joins them."""
    from banco.cli.words.i18n import say
    from banco.ledger.base.text import both

    return say(both(re.split(r", | and ", text)))


def known(reason) -> bool:
    """Whether a reason is one banco says in words of its own (not an older row's sentence
    that no code reads)."""
    found = from_text(reason)
    return found["code"] in WORDS or found["code"] in (CARD, TAX)


# How a player left jail (LeftJail's `how`), by its code.  A context of their own: "card" is
# also the turn's phase (the Italian "pescare una carta" said the jail card as a card to draw).
JAIL_WAYS = {"doubles": NP_("left jail by", "doubles"), "fine": NP_("left jail by", "fine"),
             "card": NP_("left jail by", "card"),
             "fine_after_last_try": NP_("left jail by", "fine after the last try"),
             "card_after_last_try": NP_("left jail by",
                                        "card instead of the fine, after the last try")}

# How a rent was worked out (RentClaimOpened's `basis`, written by decide's rent_for), by its
# code; a count is said in its number's form ("1 house", "2 houses").
BASES = {"rent_unbuilt": N_("unbuilt lot"), "rent_hotel": N_("hotel"),
         "rent_mortgaged_group": N_("complete group but a lot is mortgaged: no double rent (004)"),
         "rent_double": N_("complete group, unbuilt: double {rent}"),
         "rent_fresh_throw": N_("{times} x the fresh throw of {total}, {rule}")}
BY_CARD = N_("{basis}, x{times} by {card}")
# A rent's bases that hold an amount as a bare integer (as AMOUNTS for reasons).
BASE_AMOUNTS = {"rent_stations": ("rent",), "rent_double": ("rent",)}
COUNTED_BASES = {
    "rent_houses": NN_("{n} house", "{n} houses"),
    "rent_stations": NN_("{n} station owned: {rent}", "{n} stations owned: {rent}"),
    "rent_utilities": NN_("{n} utility owned: {factor} x dice {dice}",
                          "{n} utilities owned: {factor} x dice {dice}"),
}


def say_basis(basis, edition=None) -> str:
    """A rent's basis (RentClaimOpened's), in the user's language; else as a reason."""
    value = basis if is_reason(basis) else basis_from_prose(str(basis))
    code = value["code"]
    fields = {k: v for k, v in value.items() if k != "code"}
    for k in BASE_AMOUNTS.get(code, ()):
        if k in fields:
            fields[k] = _amount(fields[k], edition)
    if code in COUNTED_BASES and type(fields.get("n")) is int:
        return ngettext(*COUNTED_BASES[code], fields["n"]).format(**fields)
    if code in BASES:
        return _(BASES[code]).format(**fields)
    if code == "rent_by_card":  # a card's multiple of a rent: the rent's basis inside
        inner, card = fields.get("basis"), fields.get("card")
        return _(BY_CARD).format(basis=say_basis(inner, edition) if inner else "",
                                 times=fields.get("times"),
                                 card=_say(card, edition) if is_reason(card) else card)
    if code == SAID:  # no basis banco wrote: a reason, or as written
        return say_reason(str(basis), edition)
    return english(value, edition)  # a code a newer banco wrote: as its English said it


def say_how(how) -> str:
    """How a player left jail (its code, `{"code": "doubles"}`), in the user's language."""
    from banco.ledger.records.jail_ways import how_english, how_from_prose

    if type(how) is str:  # an older row's phrase, as a reading of stored rows meets it
        how = how_from_prose(how)
    code = how.get("code") if type(how) is dict else how
    return pgettext(*JAIL_WAYS[code]) if code in JAIL_WAYS else how_english(how)


# ledger/base/text.py's Fact (a fact's English data inside a message) is said by these; the
# package (cli/words/__init__.py) imports this module, so they are there before anything speaks.
SAYERS.setdefault("reason", say_reason)
SAYERS.setdefault("basis", say_basis)
SAYERS.setdefault("how", say_how)  # how a player left jail
# a colour group by the edition's name for it in the user's language, not its key
SAYERS.setdefault("group", lambda data, edition: edition.group_name(data["group"], language()))
