"""Generated from the schemas (ledger/records/events.py) by `python -m banco.ledger.records.event_checks`:
do not edit.  `CHECKS[type](data)` is True exactly when marshmallow's schema accepts `data`
(tests/test_event_checks.py)."""

# ruff: noqa
from banco.ledger.records.event_checks import MISSING as _MISSING
from banco.ledger.records.event_checks import member as _member
from banco.ledger.records.event_checks import one_of as _one_of
from banco.ledger.records.event_checks import uuid_ok as _uuid_ok


def _make44():  # MortgageLifted
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


def _make45():  # MortgageReverted
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


def _make46():  # OwnerCorrected
    K0 = frozenset({'from', 'mortgaged', 'property', 'reason', 'referee', 'to'})
    K1 = frozenset({True})
    K2 = frozenset({False})
    def check(d):
        if type(d) is not dict: return False
        if not d.keys() <= K0: return False
        v1 = d.get('property', _MISSING)
        if v1 is _MISSING: return False
        if type(v1) is not int: return False
        if v1 < 0: return False
        if v1 > 39: return False
        v2 = d.get('from', _MISSING)
        if v2 is _MISSING: return False
        if type(v2) is not str: return False
        if len(v2) < 1: return False
        v3 = d.get('to', _MISSING)
        if v3 is _MISSING: return False
        if type(v3) is not str: return False
        if len(v3) < 1: return False
        v4 = d.get('mortgaged', _MISSING)
        if v4 is _MISSING: return False
        if v4 is not True and v4 is not False and not _member(v4, K1, K2): return False
        v5 = d.get('reason', _MISSING)
        if v5 is _MISSING: return False
        if type(v5) is not str: return False
        if len(v5) < 1: return False
        v6 = d.get('referee', _MISSING)
        if v6 is _MISSING: return False
        if type(v6) is not str: return False
        if len(v6) < 1: return False
        return True
    return check


def _make47():  # PositionCorrected
    K0 = frozenset({'from', 'left_jail', 'player', 'reason', 'referee', 'to'})
    K1 = frozenset({True})
    K2 = frozenset({False})
    def check(d):
        if type(d) is not dict: return False
        if not d.keys() <= K0: return False
        v1 = d.get('player', _MISSING)
        if v1 is _MISSING: return False
        if type(v1) is not str: return False
        if len(v1) < 1: return False
        v2 = d.get('from', _MISSING)
        if v2 is _MISSING: return False
        if type(v2) is not int: return False
        if v2 < 0: return False
        if v2 > 39: return False
        v3 = d.get('to', _MISSING)
        if v3 is _MISSING: return False
        if type(v3) is not int: return False
        if v3 < 0: return False
        if v3 > 39: return False
        v4 = d.get('left_jail', _MISSING)
        if v4 is _MISSING: return False
        if v4 is not True and v4 is not False and not _member(v4, K1, K2): return False
        v5 = d.get('reason', _MISSING)
        if v5 is _MISSING: return False
        if type(v5) is not str: return False
        if len(v5) < 1: return False
        v6 = d.get('referee', _MISSING)
        if v6 is _MISSING: return False
        if type(v6) is not str: return False
        if len(v6) < 1: return False
        return True
    return check


def _make48():  # PropertyBought
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


def _make49():  # PropertyDeclined
    K0 = frozenset({'player', 'property'})
    def check(d):
        if type(d) is not dict: return False
        if not d.keys() <= K0: return False
        v1 = d.get('player', _MISSING)
        if v1 is _MISSING: return False
        if type(v1) is not str: return False
        if len(v1) < 1: return False
        v2 = d.get('property', _MISSING)
        if v2 is _MISSING: return False
        if type(v2) is not int: return False
        if v2 < 0: return False
        if v2 > 39: return False
        return True
    return check


def _make50():  # PropertyMortgaged
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


def _make51():  # PurchaseOffered
    K0 = frozenset({'player', 'price', 'property'})
    def check(d):
        if type(d) is not dict: return False
        if not d.keys() <= K0: return False
        v1 = d.get('player', _MISSING)
        if v1 is _MISSING: return False
        if type(v1) is not str: return False
        if len(v1) < 1: return False
        v2 = d.get('property', _MISSING)
        if v2 is _MISSING: return False
        if type(v2) is not int: return False
        if v2 < 0: return False
        if v2 > 39: return False
        v3 = d.get('price', _MISSING)
        if v3 is _MISSING: return False
        if type(v3) is not int: return False
        if v3 < 0: return False
        return True
    return check


def _make52():  # RentClaimDeferred
    K0 = frozenset({'amount', 'opened_seq', 'owner', 'payer', 'property', 'rule', 'settles_after'})
    def check(d):
        if type(d) is not dict: return False
        if not d.keys() <= K0: return False
        v1 = d.get('owner', _MISSING)
        if v1 is _MISSING: return False
        if type(v1) is not str: return False
        if len(v1) < 1: return False
        v2 = d.get('payer', _MISSING)
        if v2 is _MISSING: return False
        if type(v2) is not str: return False
        if len(v2) < 1: return False
        v3 = d.get('property', _MISSING)
        if v3 is _MISSING: return False
        if type(v3) is not int: return False
        if v3 < 0: return False
        if v3 > 39: return False
        v4 = d.get('amount', _MISSING)
        if v4 is _MISSING: return False
        if type(v4) is not int: return False
        if v4 < 0: return False
        v5 = d.get('opened_seq', _MISSING)
        if v5 is _MISSING: return False
        if type(v5) is not int: return False
        if v5 < 1: return False
        v6 = d.get('settles_after', _MISSING)
        if v6 is _MISSING: return False
        if type(v6) is not str: return False
        if len(v6) < 1: return False
        v7 = d.get('rule', _MISSING)
        if v7 is _MISSING: return False
        if type(v7) is not str: return False
        return True
    return check


def _make53():  # RentClaimLapsed
    K0 = frozenset({'amount', 'closed_by', 'opened_seq', 'owner', 'payer', 'property'})
    def check(d):
        if type(d) is not dict: return False
        if not d.keys() <= K0: return False
        v1 = d.get('owner', _MISSING)
        if v1 is _MISSING: return False
        if type(v1) is not str: return False
        if len(v1) < 1: return False
        v2 = d.get('payer', _MISSING)
        if v2 is _MISSING: return False
        if type(v2) is not str: return False
        if len(v2) < 1: return False
        v3 = d.get('property', _MISSING)
        if v3 is _MISSING: return False
        if type(v3) is not int: return False
        if v3 < 0: return False
        if v3 > 39: return False
        v4 = d.get('amount', _MISSING)
        if v4 is _MISSING: return False
        if type(v4) is not int: return False
        if v4 < 0: return False
        v5 = d.get('opened_seq', _MISSING)
        if v5 is _MISSING: return False
        if type(v5) is not int: return False
        if v5 < 1: return False
        v6 = d.get('closed_by', _MISSING)
        if v6 is _MISSING: return False
        if type(v6) is not str: return False
        if len(v6) < 1: return False
        return True
    return check


def _make54():  # RentClaimOpened
    K0 = frozenset({'amount', 'basis', 'closer', 'landed_seq', 'owner', 'payer', 'property'})
    def check(d):
        if type(d) is not dict: return False
        if not d.keys() <= K0: return False
        v1 = d.get('owner', _MISSING)
        if v1 is _MISSING: return False
        if type(v1) is not str: return False
        if len(v1) < 1: return False
        v2 = d.get('payer', _MISSING)
        if v2 is _MISSING: return False
        if type(v2) is not str: return False
        if len(v2) < 1: return False
        v3 = d.get('property', _MISSING)
        if v3 is _MISSING: return False
        if type(v3) is not int: return False
        if v3 < 0: return False
        if v3 > 39: return False
        v4 = d.get('amount', _MISSING)
        if v4 is _MISSING: return False
        if type(v4) is not int: return False
        if v4 < 0: return False
        v5 = d.get('basis', _MISSING)
        if v5 is _MISSING: return False
        if type(v5) is not str: return False
        v6 = d.get('closer', _MISSING)
        if v6 is _MISSING: return False
        if type(v6) is not str: return False
        if len(v6) < 1: return False
        v7 = d.get('landed_seq', _MISSING)
        if v7 is not _MISSING:
            if type(v7) is not int: return False
            if v7 < 1: return False
        return True
    return check


def _make55():  # RentClaimRefused
    K0 = frozenset({'amount', 'closer', 'landed_seq', 'lapsed_seq', 'opened_seq', 'owner', 'payer', 'property', 'reason', 'rule'})
    def check(d):
        if type(d) is not dict: return False
        if not d.keys() <= K0: return False
        v1 = d.get('owner', _MISSING)
        if v1 is _MISSING: return False
        if type(v1) is not str: return False
        if len(v1) < 1: return False
        v2 = d.get('payer', _MISSING)
        if v2 is _MISSING: return False
        if type(v2) is not str: return False
        if len(v2) < 1: return False
        v3 = d.get('property', _MISSING)
        if v3 is _MISSING: return False
        if type(v3) is not int: return False
        if v3 < 0: return False
        if v3 > 39: return False
        v4 = d.get('amount', _MISSING)
        if v4 is _MISSING: return False
        if type(v4) is not int: return False
        if v4 < 0: return False
        v5 = d.get('opened_seq', _MISSING)
        if v5 is _MISSING: return False
        if type(v5) is not int: return False
        if v5 < 1: return False
        v6 = d.get('lapsed_seq', _MISSING)
        if v6 is _MISSING: return False
        if type(v6) is not int: return False
        if v6 < 1: return False
        v7 = d.get('landed_seq', _MISSING)
        if v7 is not _MISSING:
            if type(v7) is not int: return False
            if v7 < 1: return False
        v8 = d.get('closer', _MISSING)
        if v8 is _MISSING: return False
        if type(v8) is not str: return False
        if len(v8) < 1: return False
        v9 = d.get('rule', _MISSING)
        if v9 is _MISSING: return False
        if type(v9) is not str: return False
        v10 = d.get('reason', _MISSING)
        if v10 is _MISSING: return False
        if type(v10) is not str: return False
        return True
    return check


def _make56():  # RentNotDue
    K0 = frozenset({'owner', 'payer', 'property', 'reason'})
    def check(d):
        if type(d) is not dict: return False
        if not d.keys() <= K0: return False
        v1 = d.get('payer', _MISSING)
        if v1 is _MISSING: return False
        if type(v1) is not str: return False
        if len(v1) < 1: return False
        v2 = d.get('owner', _MISSING)
        if v2 is _MISSING: return False
        if type(v2) is not str: return False
        if len(v2) < 1: return False
        v3 = d.get('property', _MISSING)
        if v3 is _MISSING: return False
        if type(v3) is not int: return False
        if v3 < 0: return False
        if v3 > 39: return False
        v4 = d.get('reason', _MISSING)
        if v4 is _MISSING: return False
        if type(v4) is not str: return False
        return True
    return check


def _make57():  # RentPaid
    K0 = frozenset({'amount', 'opened_seq', 'payee', 'payer', 'property', 'reason'})
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
        v5 = d.get('property', _MISSING)
        if v5 is _MISSING: return False
        if type(v5) is not int: return False
        if v5 < 0: return False
        if v5 > 39: return False
        v6 = d.get('opened_seq', _MISSING)
        if v6 is _MISSING: return False
        if type(v6) is not int: return False
        if v6 < 0: return False
        return True
    return check


CHECKS = {
    'MortgageLifted': _make44(),
    'MortgageReverted': _make45(),
    'OwnerCorrected': _make46(),
    'PositionCorrected': _make47(),
    'PropertyBought': _make48(),
    'PropertyDeclined': _make49(),
    'PropertyMortgaged': _make50(),
    'PurchaseOffered': _make51(),
    'RentClaimDeferred': _make52(),
    'RentClaimLapsed': _make53(),
    'RentClaimOpened': _make54(),
    'RentClaimRefused': _make55(),
    'RentNotDue': _make56(),
    'RentPaid': _make57(),
}
