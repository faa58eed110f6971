"""Generated from the schemas (ledger/records/events.py) by `python -m banco.ledger.records.event_checks`:
do not edit.  `CHECKS[type](data)` is True exactly when marshmallow's schema accepts `data`
(tests/test_event_checks.py)."""

# ruff: noqa
from banco.ledger.records.event_checks import MISSING as _MISSING
from banco.ledger.records.event_checks import member as _member
from banco.ledger.records.event_checks import one_of as _one_of
from banco.ledger.records.event_checks import uuid_ok as _uuid_ok


def _make14():  # CardDrawn
    K0 = frozenset({'deck', 'number', 'player', 'text'})
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
        v4 = d.get('text', _MISSING)
        if v4 is _MISSING: return False
        if type(v4) is not str: return False
        return True
    return check


def _make15():  # CardMisdrawn
    K0 = frozenset({'deck', 'number', 'text'})
    def check(d):
        if type(d) is not dict: return False
        if not d.keys() <= K0: return False
        v1 = d.get('deck', _MISSING)
        if v1 is _MISSING: return False
        if type(v1) is not str: return False
        if len(v1) < 1: return False
        v2 = d.get('number', _MISSING)
        if v2 is _MISSING: return False
        if type(v2) is not int: return False
        if v2 < 1: return False
        v3 = d.get('text', _MISSING)
        if v3 is _MISSING: return False
        if type(v3) is not str: return False
        return True
    return check


def _make16():  # CardPayment
    K0 = frozenset({'amount', 'deck', 'number', 'payee', 'payer', 'reason'})
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
        v5 = d.get('deck', _MISSING)
        if v5 is _MISSING: return False
        if type(v5) is not str: return False
        if len(v5) < 1: return False
        v6 = d.get('number', _MISSING)
        if v6 is _MISSING: return False
        if type(v6) is not int: return False
        if v6 < 1: return False
        return True
    return check


def _make17():  # CardThrowRequired
    K0 = frozenset({'deck', 'landed_seq', 'multiplier', 'number', 'owner', 'player', 'property'})
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
        v3 = d.get('owner', _MISSING)
        if v3 is _MISSING: return False
        if type(v3) is not str: return False
        if len(v3) < 1: return False
        v4 = d.get('multiplier', _MISSING)
        if v4 is _MISSING: return False
        if type(v4) is not int: return False
        if v4 < 1: return False
        v5 = d.get('deck', _MISSING)
        if v5 is _MISSING: return False
        if type(v5) is not str: return False
        if len(v5) < 1: return False
        v6 = d.get('number', _MISSING)
        if v6 is _MISSING: return False
        if type(v6) is not int: return False
        if v6 < 1: return False
        v7 = d.get('landed_seq', _MISSING)
        if v7 is _MISSING: return False
        if type(v7) is not int: return False
        if v7 < 1: return False
        return True
    return check


def _make18():  # CashCorrected
    K0 = frozenset({'amount', 'payee', 'payer', 'player', 'reason', 'referee'})
    def check(d):
        if type(d) is not dict: return False
        if not d.keys() <= K0: return False
        v1 = d.get('player', _MISSING)
        if v1 is _MISSING: return False
        if type(v1) is not str: return False
        if len(v1) < 1: return False
        v2 = d.get('payer', _MISSING)
        if v2 is _MISSING: return False
        if type(v2) is not str: return False
        if len(v2) < 1: return False
        v3 = d.get('payee', _MISSING)
        if v3 is _MISSING: return False
        if type(v3) is not str: return False
        if len(v3) < 1: return False
        v4 = d.get('amount', _MISSING)
        if v4 is _MISSING: return False
        if type(v4) is not int: return False
        if v4 < 1: return False
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


def _make19():  # CashIssued
    K0 = frozenset({'amount', 'payee', 'payer', 'reason'})
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
        return True
    return check


def _make20():  # CommandRecorded
    K0 = frozenset({'command', 'line'})
    def check(d):
        if type(d) is not dict: return False
        if not d.keys() <= K0: return False
        v1 = d.get('line', _MISSING)
        if v1 is _MISSING: return False
        if v1 is not None:
            if type(v1) is not str: return False
        v2 = d.get('command', _MISSING)
        if v2 is _MISSING: return False
        if v2 is not None:
            if type(v2) is not dict: return False
        return True
    return check


def _make21():  # DebtCancelled
    K0 = frozenset({'amount', 'creditor', 'debt_seq', 'debtor', 'reason'})
    def check(d):
        if type(d) is not dict: return False
        if not d.keys() <= K0: return False
        v1 = d.get('debtor', _MISSING)
        if v1 is _MISSING: return False
        if type(v1) is not str: return False
        if len(v1) < 1: return False
        v2 = d.get('creditor', _MISSING)
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
        v5 = d.get('debt_seq', _MISSING)
        if v5 is _MISSING: return False
        if type(v5) is not int: return False
        if v5 < 1: return False
        return True
    return check


def _make22():  # DebtIncurred
    K0 = frozenset({'amount', 'creditor', 'debtor', 'reason'})
    def check(d):
        if type(d) is not dict: return False
        if not d.keys() <= K0: return False
        v1 = d.get('debtor', _MISSING)
        if v1 is _MISSING: return False
        if type(v1) is not str: return False
        if len(v1) < 1: return False
        v2 = d.get('creditor', _MISSING)
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
        return True
    return check


def _make23():  # DebtPaid
    K0 = frozenset({'amount', 'debt_seq', 'payee', 'payer', 'reason'})
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
        v5 = d.get('debt_seq', _MISSING)
        if v5 is _MISSING: return False
        if type(v5) is not int: return False
        if v5 < 1: return False
        return True
    return check


def _make24():  # DebtPaidByBank
    K0 = frozenset({'amount', 'debt_seq', 'debtor', 'payee', 'payer', 'reason'})
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
        v5 = d.get('debtor', _MISSING)
        if v5 is _MISSING: return False
        if type(v5) is not str: return False
        if len(v5) < 1: return False
        v6 = d.get('debt_seq', _MISSING)
        if v6 is _MISSING: return False
        if type(v6) is not int: return False
        if v6 < 1: return False
        return True
    return check


def _make25():  # DebtPaidInKind
    K0 = frozenset({'amount', 'debt_seq', 'deeds', 'payee', 'payer', 'reason'})
    K1 = frozenset({'price', 'property'})
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
        v5 = d.get('debt_seq', _MISSING)
        if v5 is _MISSING: return False
        if type(v5) is not int: return False
        if v5 < 1: return False
        v6 = d.get('deeds', _MISSING)
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
            v9 = i7.get('price', _MISSING)
            if v9 is _MISSING: return False
            if type(v9) is not int: return False
            if v9 < 1: return False
        if len(v6) < 1: return False
        return True
    return check


def _make26():  # DeckShuffled
    K0 = frozenset({'deck'})
    def check(d):
        if type(d) is not dict: return False
        if not d.keys() <= K0: return False
        v1 = d.get('deck', _MISSING)
        if v1 is _MISSING: return False
        if type(v1) is not str: return False
        if len(v1) < 1: return False
        return True
    return check


def _make27():  # DeedsDealt
    K0 = frozenset({'amount', 'payee', 'payer', 'player', 'properties', 'reason'})
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
        if len(v6) < 1: return False
        return True
    return check


def _make28():  # DiceRolled
    K0 = frozenset({'dice', 'doubles', 'extra_roll', 'in_row', 'player', 'speedy', 'speedy_ignored'})
    K1 = frozenset({True})
    K2 = frozenset({False})
    K3 = frozenset({True})
    K4 = frozenset({False})
    K5 = ('1', '2', '3', 'bus', 'mr')
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
        v4 = d.get('doubles', _MISSING)
        if v4 is _MISSING: return False
        if v4 is not True and v4 is not False and not _member(v4, K1, K2): return False
        v5 = d.get('in_row', _MISSING)
        if v5 is _MISSING: return False
        if type(v5) is not int: return False
        if v5 < 0: return False
        v6 = d.get('extra_roll', _MISSING)
        if v6 is _MISSING: return False
        if v6 is not True and v6 is not False and not _member(v6, K3, K4): return False
        v7 = d.get('speedy', _MISSING)
        if v7 is not _MISSING:
            if type(v7) is not str: return False
            if not _one_of(v7, K5): return False
        v8 = d.get('speedy_ignored', _MISSING)
        if v8 is not _MISSING:
            if type(v8) is not str: return False
            if len(v8) < 1: return False
        return True
    return check


CHECKS = {
    'CardDrawn': _make14(),
    'CardMisdrawn': _make15(),
    'CardPayment': _make16(),
    'CardThrowRequired': _make17(),
    'CashCorrected': _make18(),
    'CashIssued': _make19(),
    'CommandRecorded': _make20(),
    'DebtCancelled': _make21(),
    'DebtIncurred': _make22(),
    'DebtPaid': _make23(),
    'DebtPaidByBank': _make24(),
    'DebtPaidInKind': _make25(),
    'DeckShuffled': _make26(),
    'DeedsDealt': _make27(),
    'DiceRolled': _make28(),
}
