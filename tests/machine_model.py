"""The machine's small model of what is legal, written independently of ledger/ (a buy, a
build, a payment, a mortgage or its lifting that must be accepted, or refused), the counts it
keeps per command kind, and the stored form of an event (tests/test_machine.py)."""

from __future__ import annotations

import json
from collections import Counter

from hypothesis import strategies as st

from banco.ledger.table.worth import deeds_of

NAMES = ("Anna", "Bruno", "Carla", "Dario", "Elio")
RULE_SETS = ("classic", "quick", "championship", "vintage", "euro", "short", "timed")
k = st.integers(0, 10_000)
RULE_SETS = ("classic", "quick", "championship", "vintage", "euro", "short", "timed")
REPORTED = {"HotelsBrokenUp", "AuctionVoided", "BankruptcyDeclared", "GameEnded", "HotelBuilt",
            "HouseBuilt", "BuildingSold", "BuildingsSold", "TradeCompleted",
            "MortgageInterestPaid", "PropertyMortgaged", "MortgageLifted", "DebtPaid",
            "AuctionWon", "RentPaid", "RentClaimRefused", "EstateTransferred", "JailCardUsed",
            "DebtCancelled", "SpeedyMoveDue", "SpeedyMoveChosen", "DeedsDealt", "TimeRanOut",
            "RentClaimDeferred", "MortgageReverted", "BuildingsReturned", "DebtPaidByBank",
            "DebtPaidInKind"}

TRIED: Counter = Counter()
ACCEPTED: Counter = Counter()
WHY: Counter = Counter()  # (kind, the rule cited, or the refusal's first words): how often
# Tries the model knew the rules must refuse (legal=False): they test the refusal, and do not
# count against a kind's acceptance floor.
KNOWN_REFUSED: Counter = Counter()


# --- a small model of what is legal, written independently of ledger/ --------------------------

def model_buy(t) -> bool:
    """004 §Acquistare: the player on the offered deed buys it at its price, cash in hand."""
    p = t.current
    return (t.turn.phase == "buy" and not any(d.debtor == p.name for d in t.debts)
            and p.cash >= t.edition.space(t.turn.offer).price)


def model_build(t, lot: int) -> bool:
    """004 §Case, §Alberghi, 003 §05: the owner of the whole unmortgaged colour group builds
    one more, keeping the group even (a hotel one level above the houses it needs), while the
    Bank has one and the owner has the house price in cash and owes nothing."""
    space = t.edition.space(lot)
    owner = t.owners[lot]
    if space.kind != "street" or owner is None or t.player(owner).bankrupt:
        return False
    group = t.edition.groups[space.group]
    if any(t.owners[p] != owner or p in t.mortgaged for p in group):
        return False
    if any(d.debtor == owner for d in t.debts) or (t.auction and t.auction.kind != "deed"):
        return False
    hotel = t.rules.houses_for_hotel + 1
    level = t.buildings[lot]
    if level == 5:
        return False
    new = hotel if level + 1 == hotel else level + 1
    levels = [new if p == lot else (hotel if t.buildings[p] == 5 else t.buildings[p])
              for p in group]
    stock = t.bank_hotels if new == hotel else t.bank_houses
    return max(levels) - min(levels) <= 1 and stock >= 1 and t.player(owner).cash >= space.house_cost


def model_room(t, lot: int, kind: str) -> bool:
    """A `kind` of building could go on `lot` now, cash and stock aside: the owner holds the
    whole unmortgaged group and the group stays even (003 §05)."""
    space = t.edition.space(lot)
    owner = t.owners[lot]
    if space.kind != "street" or owner is None or t.player(owner).bankrupt:
        return False
    group = t.edition.groups[space.group]
    if any(t.owners[p] != owner or p in t.mortgaged for p in group):
        return False
    hfh = t.rules.houses_for_hotel
    level = t.buildings[lot]
    if (kind == "house") != (level < hfh) or level == 5:
        return False
    levels = [level + 1 if p == lot else (hfh + 1 if t.buildings[p] == 5 else t.buildings[p])
              for p in group]
    return max(levels) - min(levels) <= 1


def model_wanting(t, kind: str) -> list[str]:
    """Players who could put a `kind` of building somewhere now."""
    return [n for n in t.active() if any(model_room(t, p, kind) for p in deeds_of(t, n))]


def model_pay(t, debtor: str) -> bool:
    """003 §10: a debt is settled in full from cash in hand."""
    mine = [d for d in t.debts if d.debtor == debtor]
    return bool(mine) and t.player(debtor).cash >= mine[0].amount


def model_mortgage(t, lot: int) -> bool:
    """004 §Impegno: an owned, unmortgaged deed whose group has no buildings."""
    space = t.edition.space(lot)
    if t.owners[lot] is None or lot in t.mortgaged:
        return False
    group = t.edition.groups[space.group] if space.kind == "street" else (lot,)
    return not any(t.buildings[p] for p in group)


def model_unmortgage(t, lot: int) -> bool:
    """004 §Impegno: the owner, owing nothing, pays the mortgage plus 10% (rounded up)."""
    owner = t.owners[lot]
    if owner is None or lot not in t.mortgaged or any(d.debtor == owner for d in t.debts):
        return False
    m = t.edition.space(lot).price // 2
    return t.player(owner).cash >= m + -(-m * 10 // 100)


def _flat_types() -> set[str]:
    """Event types whose schema holds no list, tuple, dict or nested record."""
    from marshmallow import fields

    from banco.ledger.records.events import schemas

    nested = (fields.List, fields.Tuple, fields.Dict, fields.Nested)
    return {t for t, schema in schemas().items()
            if not any(isinstance(f, nested) for f in schema.fields.values())}


FLAT = _flat_types()


def stored(e: dict) -> dict:
    """An event as the store gives it back, sharing nothing with the one decided: through
    JSON, tuples become lists (only events with nested data need the round trip)."""
    data = e["data"]
    if e["type"] in FLAT:
        data = dict(data)
    elif any(isinstance(v, (list, tuple, dict)) for v in data.values()):
        data = json.loads(json.dumps(data))
    else:
        data = dict(data)
    return {"type": e["type"], "data": data, "seq": e["seq"]}
