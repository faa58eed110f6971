"""Generated from the schemas (ledger/records/events.py) by `python -m banco.ledger.records.event_checks`:
do not edit.  `CHECKS[type](data)` is True exactly when marshmallow's schema accepts `data`
(tests/test_event_checks.py)."""

# ruff: noqa
from banco.ledger.records.event_checks import MISSING as _MISSING
from banco.ledger.records.event_checks import member as _member
from banco.ledger.records.event_checks import one_of as _one_of
from banco.ledger.records.event_checks import uuid_ok as _uuid_ok


def _make29():  # EstateTransferred
    K0 = frozenset({'amount', 'buildings', 'creditor', 'debtor', 'jail_cards', 'payee', 'payer', 'properties', 'reason'})
    K1 = frozenset({True})
    K2 = frozenset({False})
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
        v6 = d.get('creditor', _MISSING)
        if v6 is _MISSING: return False
        if type(v6) is not str: return False
        if len(v6) < 1: return False
        v7 = d.get('properties', _MISSING)
        if v7 is _MISSING: return False
        if type(v7) is not list: return False
        for i8 in v7:
            if type(i8) is not int: return False
            if i8 < 0: return False
            if i8 > 39: return False
        v9 = d.get('jail_cards', _MISSING)
        if v9 is _MISSING: return False
        if type(v9) is not list: return False
        for i10 in v9:
            if type(i10) is not list or len(i10) != 2: return False
            t11 = i10[0]
            if type(t11) is not str: return False
            if len(t11) < 1: return False
            t12 = i10[1]
            if type(t12) is not int: return False
            if t12 < 1: return False
        v13 = d.get('buildings', _MISSING)
        if v13 is not _MISSING:
            if v13 is not True and v13 is not False and not _member(v13, K1, K2): return False
        return True
    return check


def _make30():  # EventRetracted
    K0 = frozenset({'command_id', 'reason', 'seqs'})
    def check(d):
        if type(d) is not dict: return False
        if not d.keys() <= K0: return False
        v1 = d.get('seqs', _MISSING)
        if v1 is _MISSING: return False
        if type(v1) is not list: return False
        for i2 in v1:
            if type(i2) is not int: return False
            if i2 < 1: return False
        v3 = d.get('command_id', _MISSING)
        if v3 is _MISSING: return False
        if type(v3) is not str: return False
        v4 = d.get('reason', _MISSING)
        if v4 is _MISSING: return False
        if type(v4) is not str: return False
        return True
    return check


def _make31():  # ExtraRollDue
    K0 = frozenset({'in_row', 'player'})
    def check(d):
        if type(d) is not dict: return False
        if not d.keys() <= K0: return False
        v1 = d.get('player', _MISSING)
        if v1 is _MISSING: return False
        if type(v1) is not str: return False
        if len(v1) < 1: return False
        v2 = d.get('in_row', _MISSING)
        if v2 is _MISSING: return False
        if type(v2) is not int: return False
        if v2 < 1: return False
        return True
    return check


def _make32():  # FinePaid
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


def _make33():  # GameEnded
    K0 = frozenset({'reason', 'rule', 'winner'})
    def check(d):
        if type(d) is not dict: return False
        if not d.keys() <= K0: return False
        v1 = d.get('winner', _MISSING)
        if v1 is _MISSING: return False
        if v1 is not None:
            if type(v1) is not str: return False
        v2 = d.get('reason', _MISSING)
        if v2 is _MISSING: return False
        if type(v2) is not str: return False
        v3 = d.get('rule', _MISSING)
        if v3 is not _MISSING:
            if type(v3) is not str: return False
        return True
    return check


def _make34():  # GameStarted
    K0 = frozenset({'edition', 'final', 'first_player', 'game_uuid', 'players', 'rules'})
    K1 = frozenset({True})
    K2 = frozenset({False})
    def check(d):
        if type(d) is not dict: return False
        if not d.keys() <= K0: return False
        v1 = d.get('players', _MISSING)
        if v1 is _MISSING: return False
        if type(v1) is not list: return False
        for i2 in v1:
            if type(i2) is not str: return False
        v3 = d.get('rules', _MISSING)
        if v3 is _MISSING: return False
        if type(v3) is not dict: return False
        v4 = d.get('edition', _MISSING)
        if v4 is _MISSING: return False
        if type(v4) is not str: return False
        if len(v4) < 1: return False
        v5 = d.get('first_player', _MISSING)
        if v5 is _MISSING: return False
        if type(v5) is not str: return False
        if len(v5) < 1: return False
        v6 = d.get('game_uuid', _MISSING)
        if v6 is not _MISSING:
            if type(v6) is not str or not _uuid_ok(v6): return False
        v7 = d.get('final', _MISSING)
        if v7 is not _MISSING:
            if v7 is not True and v7 is not False and not _member(v7, K1, K2): return False
        return True
    return check


def _make35():  # HotelBuilt
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


def _make36():  # HotelsBrokenUp
    K0 = frozenset({'bank_hotels', 'bank_houses', 'lots', 'transfers'})
    K1 = frozenset({'level', 'player', 'property'})
    K2 = frozenset({'amount', 'payee', 'payer', 'reason'})
    def check(d):
        if type(d) is not dict: return False
        if not d.keys() <= K0: return False
        v1 = d.get('lots', _MISSING)
        if v1 is _MISSING: return False
        if type(v1) is not list: return False
        for i2 in v1:
            if type(i2) is not dict: return False
            if not i2.keys() <= K1: return False
            v3 = i2.get('property', _MISSING)
            if v3 is _MISSING: return False
            if type(v3) is not int: return False
            if v3 < 0: return False
            if v3 > 39: return False
            v4 = i2.get('player', _MISSING)
            if v4 is _MISSING: return False
            if type(v4) is not str: return False
            if len(v4) < 1: return False
            v5 = i2.get('level', _MISSING)
            if v5 is _MISSING: return False
            if type(v5) is not int: return False
            if v5 < 0: return False
            if v5 > 5: return False
        v6 = d.get('bank_houses', _MISSING)
        if v6 is _MISSING: return False
        if type(v6) is not int: return False
        v7 = d.get('bank_hotels', _MISSING)
        if v7 is _MISSING: return False
        if type(v7) is not int: return False
        if v7 < 1: return False
        v8 = d.get('transfers', _MISSING)
        if v8 is _MISSING: return False
        if type(v8) is not list: return False
        for i9 in v8:
            if type(i9) is not dict: return False
            if not i9.keys() <= K2: return False
            v10 = i9.get('payer', _MISSING)
            if v10 is _MISSING: return False
            if type(v10) is not str: return False
            if len(v10) < 1: return False
            v11 = i9.get('payee', _MISSING)
            if v11 is _MISSING: return False
            if type(v11) is not str: return False
            if len(v11) < 1: return False
            v12 = i9.get('amount', _MISSING)
            if v12 is _MISSING: return False
            if type(v12) is not int: return False
            if v12 < 0: return False
            v13 = i9.get('reason', _MISSING)
            if v13 is _MISSING: return False
            if type(v13) is not str: return False
        return True
    return check


def _make37():  # HouseBuilt
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


def _make38():  # JailCardKept
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


def _make39():  # JailCardUsed
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


def _make40():  # JailExitDue
    K0 = frozenset({'fine', 'player', 'spaces'})
    def check(d):
        if type(d) is not dict: return False
        if not d.keys() <= K0: return False
        v1 = d.get('player', _MISSING)
        if v1 is _MISSING: return False
        if type(v1) is not str: return False
        if len(v1) < 1: return False
        v2 = d.get('fine', _MISSING)
        if v2 is _MISSING: return False
        if type(v2) is not int: return False
        if v2 < 0: return False
        v3 = d.get('spaces', _MISSING)
        if v3 is _MISSING: return False
        if type(v3) is not int: return False
        if v3 < 2: return False
        if v3 > 12: return False
        return True
    return check


def _make41():  # JailRollFailed
    K0 = frozenset({'attempt', 'player'})
    def check(d):
        if type(d) is not dict: return False
        if not d.keys() <= K0: return False
        v1 = d.get('player', _MISSING)
        if v1 is _MISSING: return False
        if type(v1) is not str: return False
        if len(v1) < 1: return False
        v2 = d.get('attempt', _MISSING)
        if v2 is _MISSING: return False
        if type(v2) is not int: return False
        if v2 < 1: return False
        return True
    return check


def _make42():  # LeftJail
    K0 = frozenset({'how', 'player'})
    def check(d):
        if type(d) is not dict: return False
        if not d.keys() <= K0: return False
        v1 = d.get('player', _MISSING)
        if v1 is _MISSING: return False
        if type(v1) is not str: return False
        if len(v1) < 1: return False
        v2 = d.get('how', _MISSING)
        if v2 is _MISSING: return False
        if type(v2) is not str: return False
        return True
    return check


def _make43():  # MortgageInterestPaid
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


CHECKS = {
    'EstateTransferred': _make29(),
    'EventRetracted': _make30(),
    'ExtraRollDue': _make31(),
    'FinePaid': _make32(),
    'GameEnded': _make33(),
    'GameStarted': _make34(),
    'HotelBuilt': _make35(),
    'HotelsBrokenUp': _make36(),
    'HouseBuilt': _make37(),
    'JailCardKept': _make38(),
    'JailCardUsed': _make39(),
    'JailExitDue': _make40(),
    'JailRollFailed': _make41(),
    'LeftJail': _make42(),
    'MortgageInterestPaid': _make43(),
}
