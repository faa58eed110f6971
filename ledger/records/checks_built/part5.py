"""Generated from the schemas (ledger/records/events.py) by `python -m banco.ledger.records.event_checks`:
do not edit.  `CHECKS[type](data)` is True exactly when marshmallow's schema accepts `data`
(tests/test_event_checks.py)."""

# ruff: noqa
from banco.ledger.records.event_checks import MISSING as _MISSING
from banco.ledger.records.event_checks import member as _member
from banco.ledger.records.event_checks import one_of as _one_of
from banco.ledger.records.event_checks import uuid_ok as _uuid_ok


def _make58():  # RulingRecorded
    K0 = frozenset({'kind', 'referee', 'subject_seq', 'text', 'verdict'})
    K1 = ('rent', 'auction', 'bankruptcy', 'jail')
    def check(d):
        if type(d) is not dict: return False
        if not d.keys() <= K0: return False
        v1 = d.get('kind', _MISSING)
        if v1 is _MISSING: return False
        if type(v1) is not str: return False
        if not _one_of(v1, K1): return False
        v2 = d.get('subject_seq', _MISSING)
        if v2 is _MISSING: return False
        if type(v2) is not int: return False
        if v2 < 1: return False
        v3 = d.get('verdict', _MISSING)
        if v3 is _MISSING: return False
        if type(v3) is not str: return False
        if len(v3) < 1: return False
        v4 = d.get('text', _MISSING)
        if v4 is _MISSING: return False
        if type(v4) is not str: return False
        if len(v4) < 1: return False
        v5 = d.get('referee', _MISSING)
        if v5 is _MISSING: return False
        if type(v5) is not str: return False
        if len(v5) < 1: return False
        return True
    return check


def _make59():  # SalaryPaid
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


def _make60():  # SealRecorded
    K0 = frozenset({'fingerprint', 'head', 'public_key', 'referee', 'seq', 'signature'})
    def check(d):
        if type(d) is not dict: return False
        if not d.keys() <= K0: return False
        v1 = d.get('seq', _MISSING)
        if v1 is _MISSING: return False
        if type(v1) is not int: return False
        if v1 < 1: return False
        v2 = d.get('head', _MISSING)
        if v2 is _MISSING: return False
        if type(v2) is not str: return False
        if len(v2) != 64: return False
        v3 = d.get('public_key', _MISSING)
        if v3 is _MISSING: return False
        if type(v3) is not str: return False
        if len(v3) != 64: return False
        v4 = d.get('fingerprint', _MISSING)
        if v4 is _MISSING: return False
        if type(v4) is not str: return False
        if len(v4) != 16: return False
        v5 = d.get('signature', _MISSING)
        if v5 is _MISSING: return False
        if type(v5) is not str: return False
        if len(v5) != 128: return False
        v6 = d.get('referee', _MISSING)
        if v6 is _MISSING: return False
        if type(v6) is not str: return False
        if len(v6) < 1: return False
        return True
    return check


def _make61():  # SentToJail
    K0 = frozenset({'player', 'reason'})
    def check(d):
        if type(d) is not dict: return False
        if not d.keys() <= K0: return False
        v1 = d.get('player', _MISSING)
        if v1 is _MISSING: return False
        if type(v1) is not str: return False
        if len(v1) < 1: return False
        v2 = d.get('reason', _MISSING)
        if v2 is _MISSING: return False
        if type(v2) is not str: return False
        return True
    return check


def _make62():  # SpeedyMoveChosen
    K0 = frozenset({'move', 'player', 'reason', 'spaces', 'to'})
    K1 = ('bus', 'triple', 'mr_monopoly')
    def check(d):
        if type(d) is not dict: return False
        if not d.keys() <= K0: return False
        v1 = d.get('player', _MISSING)
        if v1 is _MISSING: return False
        if type(v1) is not str: return False
        if len(v1) < 1: return False
        v2 = d.get('move', _MISSING)
        if v2 is _MISSING: return False
        if type(v2) is not str: return False
        if not _one_of(v2, K1): return False
        v3 = d.get('to', _MISSING)
        if v3 is _MISSING: return False
        if type(v3) is not int: return False
        if v3 < 0: return False
        if v3 > 39: return False
        v4 = d.get('spaces', _MISSING)
        if v4 is _MISSING: return False
        if type(v4) is not int: return False
        if v4 < 0: return False
        if v4 > 40: return False
        v5 = d.get('reason', _MISSING)
        if v5 is _MISSING: return False
        if type(v5) is not str: return False
        return True
    return check


def _make63():  # SpeedyMoveDue
    K0 = frozenset({'choices', 'move', 'player'})
    K1 = ('bus', 'triple', 'mr_monopoly')
    def check(d):
        if type(d) is not dict: return False
        if not d.keys() <= K0: return False
        v1 = d.get('player', _MISSING)
        if v1 is _MISSING: return False
        if type(v1) is not str: return False
        if len(v1) < 1: return False
        v2 = d.get('move', _MISSING)
        if v2 is _MISSING: return False
        if type(v2) is not str: return False
        if not _one_of(v2, K1): return False
        v3 = d.get('choices', _MISSING)
        if v3 is _MISSING: return False
        if type(v3) is not list: return False
        for i4 in v3:
            if type(i4) is not int: return False
            if i4 < 1: return False
            if i4 > 12: return False
        return True
    return check


def _make64():  # TaxPaid
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


def _make65():  # TimeRanOut
    K0 = frozenset({'at', 'ends', 'reason', 'rule'})
    K1 = ('at_once', 'after_turn')
    def check(d):
        if type(d) is not dict: return False
        if not d.keys() <= K0: return False
        v1 = d.get('at', _MISSING)
        if v1 is _MISSING: return False
        if type(v1) is not str: return False
        v2 = d.get('ends', _MISSING)
        if v2 is _MISSING: return False
        if type(v2) is not str: return False
        if not _one_of(v2, K1): return False
        v3 = d.get('rule', _MISSING)
        if v3 is _MISSING: return False
        if type(v3) is not str: return False
        v4 = d.get('reason', _MISSING)
        if v4 is _MISSING: return False
        if type(v4) is not str: return False
        return True
    return check


def _make66():  # TokenMoved
    K0 = frozenset({'cause', 'from', 'passed_go', 'player', 'spaces', 'to'})
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
        v4 = d.get('spaces', _MISSING)
        if v4 is _MISSING: return False
        if type(v4) is not int: return False
        v5 = d.get('cause', _MISSING)
        if v5 is _MISSING: return False
        if type(v5) is not str: return False
        if len(v5) < 1: return False
        v6 = d.get('passed_go', _MISSING)
        if v6 is _MISSING: return False
        if v6 is not True and v6 is not False and not _member(v6, K1, K2): return False
        return True
    return check


def _make67():  # TradeCompleted
    K0 = frozenset({'a', 'a_gives', 'b', 'b_gives', 'transfers'})
    K1 = frozenset({'cash', 'jail_cards', 'properties'})
    K2 = frozenset({'cash', 'jail_cards', 'properties'})
    K3 = frozenset({'amount', 'payee', 'payer', 'reason'})
    def check(d):
        if type(d) is not dict: return False
        if not d.keys() <= K0: return False
        v1 = d.get('a', _MISSING)
        if v1 is _MISSING: return False
        if type(v1) is not str: return False
        if len(v1) < 1: return False
        v2 = d.get('b', _MISSING)
        if v2 is _MISSING: return False
        if type(v2) is not str: return False
        if len(v2) < 1: return False
        v3 = d.get('a_gives', _MISSING)
        if v3 is _MISSING: return False
        if type(v3) is not dict: return False
        if not v3.keys() <= K1: return False
        v4 = v3.get('properties', _MISSING)
        if v4 is _MISSING: return False
        if type(v4) is not list: return False
        for i5 in v4:
            if type(i5) is not int: return False
            if i5 < 0: return False
            if i5 > 39: return False
        v6 = v3.get('cash', _MISSING)
        if v6 is _MISSING: return False
        if type(v6) is not int: return False
        if v6 < 0: return False
        v7 = v3.get('jail_cards', _MISSING)
        if v7 is _MISSING: return False
        if type(v7) is not list: return False
        for i8 in v7:
            if type(i8) is not list or len(i8) != 2: return False
            t9 = i8[0]
            if type(t9) is not str: return False
            if len(t9) < 1: return False
            t10 = i8[1]
            if type(t10) is not int: return False
            if t10 < 1: return False
        v11 = d.get('b_gives', _MISSING)
        if v11 is _MISSING: return False
        if type(v11) is not dict: return False
        if not v11.keys() <= K2: return False
        v12 = v11.get('properties', _MISSING)
        if v12 is _MISSING: return False
        if type(v12) is not list: return False
        for i13 in v12:
            if type(i13) is not int: return False
            if i13 < 0: return False
            if i13 > 39: return False
        v14 = v11.get('cash', _MISSING)
        if v14 is _MISSING: return False
        if type(v14) is not int: return False
        if v14 < 0: return False
        v15 = v11.get('jail_cards', _MISSING)
        if v15 is _MISSING: return False
        if type(v15) is not list: return False
        for i16 in v15:
            if type(i16) is not list or len(i16) != 2: return False
            t17 = i16[0]
            if type(t17) is not str: return False
            if len(t17) < 1: return False
            t18 = i16[1]
            if type(t18) is not int: return False
            if t18 < 1: return False
        v19 = d.get('transfers', _MISSING)
        if v19 is _MISSING: return False
        if type(v19) is not list: return False
        for i20 in v19:
            if type(i20) is not dict: return False
            if not i20.keys() <= K3: return False
            v21 = i20.get('payer', _MISSING)
            if v21 is _MISSING: return False
            if type(v21) is not str: return False
            if len(v21) < 1: return False
            v22 = i20.get('payee', _MISSING)
            if v22 is _MISSING: return False
            if type(v22) is not str: return False
            if len(v22) < 1: return False
            v23 = i20.get('amount', _MISSING)
            if v23 is _MISSING: return False
            if type(v23) is not int: return False
            if v23 < 0: return False
            v24 = i20.get('reason', _MISSING)
            if v24 is _MISSING: return False
            if type(v24) is not str: return False
        return True
    return check


def _make68():  # TurnEnded
    K0 = frozenset({'next', 'player'})
    def check(d):
        if type(d) is not dict: return False
        if not d.keys() <= K0: return False
        v1 = d.get('player', _MISSING)
        if v1 is _MISSING: return False
        if type(v1) is not str: return False
        if len(v1) < 1: return False
        v2 = d.get('next', _MISSING)
        if v2 is _MISSING: return False
        if type(v2) is not str: return False
        if len(v2) < 1: return False
        return True
    return check


CHECKS = {
    'RulingRecorded': _make58(),
    'SalaryPaid': _make59(),
    'SealRecorded': _make60(),
    'SentToJail': _make61(),
    'SpeedyMoveChosen': _make62(),
    'SpeedyMoveDue': _make63(),
    'TaxPaid': _make64(),
    'TimeRanOut': _make65(),
    'TokenMoved': _make66(),
    'TradeCompleted': _make67(),
    'TurnEnded': _make68(),
}
