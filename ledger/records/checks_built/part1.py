"""Generated from the schemas (ledger/records/events.py) by `python -m banco.ledger.records.event_checks`:
do not edit.  `CHECKS[type](data)` is True exactly when marshmallow's schema accepts `data`
(tests/test_event_checks.py)."""

# ruff: noqa
from banco.ledger.records.event_checks import MISSING as _MISSING
from banco.ledger.records.event_checks import member as _member
from banco.ledger.records.event_checks import one_of as _one_of
from banco.ledger.records.event_checks import uuid_ok as _uuid_ok


def _make0():  # AuctionClosed
    K0 = frozenset({'outcome', 'property', 'reason'})
    def check(d):
        if type(d) is not dict: return False
        if not d.keys() <= K0: return False
        v1 = d.get('property', _MISSING)
        if v1 is _MISSING: return False
        if v1 is not None:
            if type(v1) is not int: return False
            if v1 < 0: return False
            if v1 > 39: return False
        v2 = d.get('outcome', _MISSING)
        if v2 is _MISSING: return False
        if type(v2) is not str: return False
        v3 = d.get('reason', _MISSING)
        if v3 is _MISSING: return False
        if type(v3) is not str: return False
        return True
    return check


def _make1():  # AuctionOpened
    K0 = frozenset({'excluded', 'min_bid', 'property', 'resume', 'seller', 'step'})
    def check(d):
        if type(d) is not dict: return False
        if not d.keys() <= K0: return False
        v1 = d.get('property', _MISSING)
        if v1 is _MISSING: return False
        if type(v1) is not int: return False
        if v1 < 0: return False
        if v1 > 39: return False
        v2 = d.get('min_bid', _MISSING)
        if v2 is _MISSING: return False
        if type(v2) is not int: return False
        if v2 < 0: return False
        v3 = d.get('step', _MISSING)
        if v3 is _MISSING: return False
        if type(v3) is not int: return False
        if v3 < 1: return False
        v4 = d.get('resume', _MISSING)
        if v4 is not _MISSING:
            if type(v4) is not str: return False
        v5 = d.get('excluded', _MISSING)
        if v5 is not _MISSING:
            if type(v5) is not list: return False
            for i6 in v5:
                if type(i6) is not str: return False
        v7 = d.get('seller', _MISSING)
        if v7 is not _MISSING:
            if type(v7) is not str: return False
            if len(v7) < 1: return False
        return True
    return check


def _make2():  # AuctionVoided
    K0 = frozenset({'amount', 'player', 'property', 'reason'})
    def check(d):
        if type(d) is not dict: return False
        if not d.keys() <= K0: return False
        v1 = d.get('player', _MISSING)
        if v1 is _MISSING: return False
        if type(v1) is not str: return False
        if len(v1) < 1: return False
        v2 = d.get('property', _MISSING)
        if v2 is _MISSING: return False
        if v2 is not None:
            if type(v2) is not int: return False
            if v2 < 0: return False
            if v2 > 39: return False
        v3 = d.get('amount', _MISSING)
        if v3 is _MISSING: return False
        if type(v3) is not int: return False
        if v3 < 0: return False
        v4 = d.get('reason', _MISSING)
        if v4 is _MISSING: return False
        if type(v4) is not str: return False
        return True
    return check


def _make3():  # AuctionWon
    K0 = frozenset({'amount', 'payee', 'payer', 'player', 'property', 'reason'})
    def check(d):
        if type(d) is not dict: return False
        if not d.keys() <= K0: return False
        v1 = d.get('payer', _MISSING)
        if v1 is _MISSING: return False
        if type(v1) is not str: return False
        if len(v1) < 1: return False
        v2 = d.get('payee', _MISSING)
        if v2 is _MISSING: return False
        if type(v2) is not str: return False
        if len(v2) < 1: return False
        v3 = d.get('amount', _MISSING)
        if v3 is _MISSING: return False
        if type(v3) is not int: return False
        if v3 < 0: return False
        v4 = d.get('reason', _MISSING)
        if v4 is _MISSING: return False
        if type(v4) is not str: return False
        v5 = d.get('player', _MISSING)
        if v5 is _MISSING: return False
        if type(v5) is not str: return False
        if len(v5) < 1: return False
        v6 = d.get('property', _MISSING)
        if v6 is _MISSING: return False
        if type(v6) is not int: return False
        if v6 < 0: return False
        if v6 > 39: return False
        return True
    return check


def _make4():  # BankruptcyDeclared
    K0 = frozenset({'creditor', 'player', 'reason'})
    def check(d):
        if type(d) is not dict: return False
        if not d.keys() <= K0: return False
        v1 = d.get('player', _MISSING)
        if v1 is _MISSING: return False
        if type(v1) is not str: return False
        if len(v1) < 1: return False
        v2 = d.get('creditor', _MISSING)
        if v2 is _MISSING: return False
        if type(v2) is not str: return False
        if len(v2) < 1: return False
        v3 = d.get('reason', _MISSING)
        if v3 is _MISSING: return False
        if type(v3) is not str: return False
        return True
    return check


def _make5():  # BidPlaced
    K0 = frozenset({'amount', 'player', 'property'})
    def check(d):
        if type(d) is not dict: return False
        if not d.keys() <= K0: return False
        v1 = d.get('player', _MISSING)
        if v1 is _MISSING: return False
        if type(v1) is not str: return False
        if len(v1) < 1: return False
        v2 = d.get('property', _MISSING)
        if v2 is _MISSING: return False
        if v2 is not None:
            if type(v2) is not int: return False
            if v2 < 0: return False
            if v2 > 39: return False
        v3 = d.get('amount', _MISSING)
        if v3 is _MISSING: return False
        if type(v3) is not int: return False
        if v3 < 0: return False
        return True
    return check


def _make6():  # BuildingAuctionOpened
    K0 = frozenset({'excluded', 'kind', 'min_bid', 'resume', 'step', 'wanted'})
    K1 = ('house', 'hotel')
    def check(d):
        if type(d) is not dict: return False
        if not d.keys() <= K0: return False
        v1 = d.get('kind', _MISSING)
        if v1 is _MISSING: return False
        if type(v1) is not str: return False
        if not _one_of(v1, K1): return False
        v2 = d.get('min_bid', _MISSING)
        if v2 is _MISSING: return False
        if type(v2) is not int: return False
        if v2 < 0: return False
        v3 = d.get('step', _MISSING)
        if v3 is _MISSING: return False
        if type(v3) is not int: return False
        if v3 < 1: return False
        v4 = d.get('resume', _MISSING)
        if v4 is _MISSING: return False
        if type(v4) is not str: return False
        v5 = d.get('excluded', _MISSING)
        if v5 is not _MISSING:
            if type(v5) is not list: return False
            for i6 in v5:
                if type(i6) is not str: return False
        v7 = d.get('wanted', _MISSING)
        if v7 is not _MISSING:
            if type(v7) is not dict: return False
            for k8, x9 in v7.items():
                if type(k8) is not str: return False
                if type(x9) is not int: return False
                if x9 < 0: return False
        return True
    return check


def _make7():  # BuildingSold
    K0 = frozenset({'amount', 'bank_hotels', 'bank_houses', 'level', 'payee', 'payer', 'player', 'property', 'reason'})
    def check(d):
        if type(d) is not dict: return False
        if not d.keys() <= K0: return False
        v1 = d.get('payer', _MISSING)
        if v1 is _MISSING: return False
        if type(v1) is not str: return False
        if len(v1) < 1: return False
        v2 = d.get('payee', _MISSING)
        if v2 is _MISSING: return False
        if type(v2) is not str: return False
        if len(v2) < 1: return False
        v3 = d.get('amount', _MISSING)
        if v3 is _MISSING: return False
        if type(v3) is not int: return False
        if v3 < 0: return False
        v4 = d.get('reason', _MISSING)
        if v4 is _MISSING: return False
        if type(v4) is not str: return False
        v5 = d.get('player', _MISSING)
        if v5 is _MISSING: return False
        if type(v5) is not str: return False
        if len(v5) < 1: return False
        v6 = d.get('property', _MISSING)
        if v6 is _MISSING: return False
        if type(v6) is not int: return False
        if v6 < 0: return False
        if v6 > 39: return False
        v7 = d.get('level', _MISSING)
        if v7 is _MISSING: return False
        if type(v7) is not int: return False
        if v7 < 0: return False
        if v7 > 5: return False
        v8 = d.get('bank_houses', _MISSING)
        if v8 is _MISSING: return False
        if type(v8) is not int: return False
        v9 = d.get('bank_hotels', _MISSING)
        if v9 is _MISSING: return False
        if type(v9) is not int: return False
        return True
    return check


def _make8():  # BuildingsBuilt
    K0 = frozenset({'amount', 'bank_hotels', 'bank_houses', 'lots', 'payee', 'payer', 'player', 'reason'})
    K1 = frozenset({'level', 'property'})
    def check(d):
        if type(d) is not dict: return False
        if not d.keys() <= K0: return False
        v1 = d.get('payer', _MISSING)
        if v1 is _MISSING: return False
        if type(v1) is not str: return False
        if len(v1) < 1: return False
        v2 = d.get('payee', _MISSING)
        if v2 is _MISSING: return False
        if type(v2) is not str: return False
        if len(v2) < 1: return False
        v3 = d.get('amount', _MISSING)
        if v3 is _MISSING: return False
        if type(v3) is not int: return False
        if v3 < 0: return False
        v4 = d.get('reason', _MISSING)
        if v4 is _MISSING: return False
        if type(v4) is not str: return False
        v5 = d.get('player', _MISSING)
        if v5 is _MISSING: return False
        if type(v5) is not str: return False
        if len(v5) < 1: return False
        v6 = d.get('lots', _MISSING)
        if v6 is _MISSING: return False
        if type(v6) is not list: return False
        for i7 in v6:
            if type(i7) is not dict: return False
            if not i7.keys() <= K1: return False
            v8 = i7.get('property', _MISSING)
            if v8 is _MISSING: return False
            if type(v8) is not int: return False
            if v8 < 0: return False
            if v8 > 39: return False
            v9 = i7.get('level', _MISSING)
            if v9 is _MISSING: return False
            if type(v9) is not int: return False
            if v9 < 0: return False
            if v9 > 5: return False
        if len(v6) < 1: return False
        v10 = d.get('bank_houses', _MISSING)
        if v10 is _MISSING: return False
        if type(v10) is not int: return False
        v11 = d.get('bank_hotels', _MISSING)
        if v11 is _MISSING: return False
        if type(v11) is not int: return False
        return True
    return check


def _make9():  # BuildingsReturned
    K0 = frozenset({'bank_hotels', 'bank_houses', 'player', 'properties', 'reason'})
    def check(d):
        if type(d) is not dict: return False
        if not d.keys() <= K0: return False
        v1 = d.get('player', _MISSING)
        if v1 is _MISSING: return False
        if type(v1) is not str: return False
        if len(v1) < 1: return False
        v2 = d.get('properties', _MISSING)
        if v2 is _MISSING: return False
        if type(v2) is not list: return False
        for i3 in v2:
            if type(i3) is not int: return False
            if i3 < 0: return False
            if i3 > 39: return False
        v4 = d.get('bank_houses', _MISSING)
        if v4 is _MISSING: return False
        if type(v4) is not int: return False
        if v4 < 0: return False
        v5 = d.get('bank_hotels', _MISSING)
        if v5 is _MISSING: return False
        if type(v5) is not int: return False
        if v5 < 0: return False
        v6 = d.get('reason', _MISSING)
        if v6 is _MISSING: return False
        if type(v6) is not str: return False
        return True
    return check


def _make10():  # BuildingsSold
    K0 = frozenset({'amount', 'bank_hotels', 'bank_houses', 'lots', 'payee', 'payer', 'player', 'properties', 'reason'})
    K1 = frozenset({'level', 'property'})
    def check(d):
        if type(d) is not dict: return False
        if not d.keys() <= K0: return False
        v1 = d.get('payer', _MISSING)
        if v1 is _MISSING: return False
        if type(v1) is not str: return False
        if len(v1) < 1: return False
        v2 = d.get('payee', _MISSING)
        if v2 is _MISSING: return False
        if type(v2) is not str: return False
        if len(v2) < 1: return False
        v3 = d.get('amount', _MISSING)
        if v3 is _MISSING: return False
        if type(v3) is not int: return False
        if v3 < 0: return False
        v4 = d.get('reason', _MISSING)
        if v4 is _MISSING: return False
        if type(v4) is not str: return False
        v5 = d.get('player', _MISSING)
        if v5 is _MISSING: return False
        if type(v5) is not str: return False
        if len(v5) < 1: return False
        v6 = d.get('properties', _MISSING)
        if v6 is _MISSING: return False
        if type(v6) is not list: return False
        for i7 in v6:
            if type(i7) is not int: return False
            if i7 < 0: return False
            if i7 > 39: return False
        v8 = d.get('lots', _MISSING)
        if v8 is not _MISSING:
            if type(v8) is not list: return False
            for i9 in v8:
                if type(i9) is not dict: return False
                if not i9.keys() <= K1: return False
                v10 = i9.get('property', _MISSING)
                if v10 is _MISSING: return False
                if type(v10) is not int: return False
                if v10 < 0: return False
                if v10 > 39: return False
                v11 = i9.get('level', _MISSING)
                if v11 is _MISSING: return False
                if type(v11) is not int: return False
                if v11 < 0: return False
                if v11 > 5: return False
        v12 = d.get('bank_houses', _MISSING)
        if v12 is _MISSING: return False
        if type(v12) is not int: return False
        v13 = d.get('bank_hotels', _MISSING)
        if v13 is _MISSING: return False
        if type(v13) is not int: return False
        if v13 < 0: return False
        return True
    return check


def _make11():  # CardChoiceRequired
    K0 = frozenset({'deck', 'number', 'player'})
    def check(d):
        if type(d) is not dict: return False
        if not d.keys() <= K0: return False
        v1 = d.get('player', _MISSING)
        if v1 is _MISSING: return False
        if type(v1) is not str: return False
        if len(v1) < 1: return False
        v2 = d.get('deck', _MISSING)
        if v2 is _MISSING: return False
        if type(v2) is not str: return False
        if len(v2) < 1: return False
        v3 = d.get('number', _MISSING)
        if v3 is _MISSING: return False
        if type(v3) is not int: return False
        if v3 < 1: return False
        return True
    return check


def _make12():  # CardDiceThrown
    K0 = frozenset({'dice', 'player', 'property'})
    def check(d):
        if type(d) is not dict: return False
        if not d.keys() <= K0: return False
        v1 = d.get('player', _MISSING)
        if v1 is _MISSING: return False
        if type(v1) is not str: return False
        if len(v1) < 1: return False
        v2 = d.get('dice', _MISSING)
        if v2 is _MISSING: return False
        if type(v2) is not list: return False
        for i3 in v2:
            if type(i3) is not int: return False
            if i3 < 1: return False
            if i3 > 6: return False
        v4 = d.get('property', _MISSING)
        if v4 is _MISSING: return False
        if type(v4) is not int: return False
        if v4 < 0: return False
        if v4 > 39: return False
        return True
    return check


def _make13():  # CardDrawRequired
    K0 = frozenset({'deck', 'player'})
    def check(d):
        if type(d) is not dict: return False
        if not d.keys() <= K0: return False
        v1 = d.get('player', _MISSING)
        if v1 is _MISSING: return False
        if type(v1) is not str: return False
        if len(v1) < 1: return False
        v2 = d.get('deck', _MISSING)
        if v2 is _MISSING: return False
        if type(v2) is not str: return False
        if len(v2) < 1: return False
        return True
    return check


CHECKS = {
    'AuctionClosed': _make0(),
    'AuctionOpened': _make1(),
    'AuctionVoided': _make2(),
    'AuctionWon': _make3(),
    'BankruptcyDeclared': _make4(),
    'BidPlaced': _make5(),
    'BuildingAuctionOpened': _make6(),
    'BuildingSold': _make7(),
    'BuildingsBuilt': _make8(),
    'BuildingsReturned': _make9(),
    'BuildingsSold': _make10(),
    'CardChoiceRequired': _make11(),
    'CardDiceThrown': _make12(),
    'CardDrawRequired': _make13(),
}
