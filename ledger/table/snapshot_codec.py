"""A folded table as text, to be kept beside the log so that a command on a long game folds only
what is new since (ledger/book.py; the store keeps the text in its `snapshots` table,
ledger/store/schema.py; `banco doctor` checks it against the log, ledger/snapshot_check.py).

JSON, never pickle: a file anyone can edit must not run code when it is read.  Every value of
the table keeps its Python type through the text (a tuple comes back a tuple, a list a list,
a frozenset a frozenset, a Player a Player), so the table read back is the one folded:

    None, bool, int, str    as they are
    tuple                   {"t": [...]}
    list                    {"l": [...]}
    frozenset / set         {"f": [...]} / {"s": [...]}
    dict                    {"d": [[key, value], ...]}
    the table's own records {"n": "Player", "v": [field values...]}  (only the classes of
                            ledger/table/state.py: a name outside them is refused, nothing built)

The rule set and the board are not kept: they come from the game's GameStarted, as for a fold
from the start.  FORMAT changes with the table's shape (its classes and fields), so a snapshot
written by a banco whose table had another shape is never read, only rebuilt; SHAPE_VERSION
is raised by hand when the fold gives another table from the same facts.

A snapshot is a cache, never evidence: the book trusts one only when the log's event at its
seq has the head it records, and the audit never reads one.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache

from banco.ledger.base.text import msg
from banco.ledger.table import state as st

SHAPE_VERSION = 3  # 2: a debt's reason is a code and its parameters, no longer a sentence;
# 3: its square a number, its amounts integers
_RECORDS = {cls.__name__: cls for cls in (st.State, st.Player, st.Claim, st.Auction, st.Debt,
                                          st.DeckOrder, st.Turn)}
_LEFT_OUT = ("rules", "edition")  # from GameStarted


class SnapshotError(ValueError):
    """Text that is not a snapshot this banco wrote: it is not used (the table is folded).
    `text`: why, a message (ledger/base/text.py) the CLI says in the user's language."""

    def __init__(self, text: str):
        super().__init__(str(text))
        self.text = text


@cache
def shape() -> str:
    """The snapshot format: the version and a digest of the table's classes and fields."""
    fields = ";".join(f"{name}:{','.join(cls._fields)}" for name, cls in sorted(_RECORDS.items()))
    return f"{SHAPE_VERSION}:{hashlib.sha256(fields.encode()).hexdigest()[:12]}"


def _enc(value):
    kind = type(value)
    if value is None or kind in (bool, int, str):
        return value
    if kind is tuple:
        return {"t": [_enc(v) for v in value]}
    if kind is list:
        return {"l": [_enc(v) for v in value]}
    if kind is dict:
        return {"d": [[_enc(k), _enc(v)] for k, v in value.items()]}
    if kind in (frozenset, set):
        items = [_enc(v) for v in value]
        if all(type(v) is int for v in items):  # a deck's cards, the deeds mortgaged
            items.sort(key=str)  # json.dumps(v) is str(v) for an int: the same order
        else:
            items.sort(key=_json_key)
        return {"f" if kind is frozenset else "s": items}
    name = kind.__name__
    if _RECORDS.get(name) is kind:
        return {"n": name, "v": [_enc(v) for v in value]}
    raise SnapshotError(f"a table holds a {name} ({value!r}): no snapshot for it")


def _json_key(value) -> str:
    return json.dumps(value, sort_keys=True)


def _sorted(doc):
    """An encoded value with every mapping's pairs in one order (by their keys' JSON)."""
    if type(doc) is list:
        return [_sorted(v) for v in doc]
    if type(doc) is not dict:
        return doc
    if len(doc) == 1 and "d" in doc:
        pairs = [[_sorted(k), _sorted(v)] for k, v in doc["d"]]
        return {"d": sorted(pairs, key=lambda p: json.dumps(p[0], sort_keys=True))}
    return {k: _sorted(v) for k, v in doc.items()}


def _pair_key(pair) -> str:
    """_sorted's order of a mapping's pairs, json.dumps(key, sort_keys=True), spelt without
    json.dumps's Python layer for a name (what most keys are)."""
    key = pair[0]
    return _ASCII(key) if type(key) is str else json.dumps(key, sort_keys=True)


_ASCII = json.encoder.encode_basestring_ascii  # json.dumps's spelling of a str


def _canon(value):
    """_sorted(_enc(value)) in one walk (the audit spells a table every 500 events: the two
    walks were 3% of it).  The same document: a mapping's pairs sorted as _sorted sorts them;
    a set's members and a mapping's keys are hashable, so they hold no mapping whose order
    _sorted could change, and are _enc's."""
    kind = type(value)
    if value is None or kind is str or kind is int or kind is bool:
        return value
    if kind is tuple:
        return {"t": [_canon(v) for v in value]}
    if kind is dict:
        pairs = [[_enc(k), _canon(v)] for k, v in value.items()]
        pairs.sort(key=_pair_key)
        return {"d": pairs}
    if kind is list:
        return {"l": [_canon(v) for v in value]}
    if kind in (frozenset, set):
        return _enc(value)
    name = kind.__name__
    if _RECORDS.get(name) is kind:
        return {"n": name, "v": [_canon(v) for v in value]}
    raise SnapshotError(f"a table holds a {name} ({value!r}): no snapshot for it")


_CANONICAL_TEXT = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def canonical(table: st.State) -> str:
    """The table's text with its mappings in one order: what a chain-version-3 row's table
    digest is taken of (ledger/store/canonical.py table_digest).  Two folds of the same facts
    give equal tables whose mappings may have been filled in another order (one from a
    snapshot, one from the start): this text is the same for both, `encode`'s need not be.
    The game's number is left out: the same game has another number in another database.
    (`_sorted(_enc(...))` spelt by json.dumps is the definition; tests/test_snapshot_chain.py
    holds `_canon` to it.)"""
    # the game's local number is left out too: an import or a copy may give it another
    doc = _canon(table._replace(game_id=None, **{k: None for k in _LEFT_OUT}))
    return _CANONICAL_TEXT(doc)


def encode(table: st.State) -> str:
    """The table as text (rules and board left out: they are the game's GameStarted)."""
    doc = _enc(table._replace(**{k: None for k in _LEFT_OUT}))
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":"))


def _dec(value):
    if value is None or type(value) in (bool, int, str):
        return value
    if type(value) is not dict or len(value) not in (1, 2):
        raise SnapshotError(msg("not a snapshot's value: {value}", value=str(value)[:60]))
    if "n" in value:
        cls = _RECORDS.get(value["n"])
        items = value.get("v")
        if cls is None or type(items) is not list or len(items) != len(cls._fields):
            raise SnapshotError(msg("not a record of the table: {value}",
                                    value=str(value)[:60]))
        return tuple.__new__(cls, [_dec(v) for v in items])
    (tag, items), = value.items()
    if type(items) is not list:
        raise SnapshotError(msg("not a snapshot's value: {value}", value=str(value)[:60]))
    if tag == "t":
        return tuple(_dec(v) for v in items)
    if tag == "l":
        return [_dec(v) for v in items]
    if tag == "f":
        return frozenset(_dec(v) for v in items)
    if tag == "s":
        return {_dec(v) for v in items}
    if tag == "d":
        out = {}
        for pair in items:
            if type(pair) is not list or len(pair) != 2:
                raise SnapshotError(msg("a mapping of the table is not in pairs"))
            out[_dec(pair[0])] = _dec(pair[1])
        return out
    raise SnapshotError(msg("not a snapshot's value: {value}", value=str(value)[:60]))


def decode(text: str, started: st.State) -> st.State:
    """The table back from `encode`'s text; `started`: the table as GameStarted dealt it
    (ledger.table.state.initial_state), whose rule set and board it takes."""
    try:
        doc = json.loads(text)
    except ValueError as exc:
        raise SnapshotError(msg("not JSON: {why}", why=str(exc))) from None
    try:
        table = _dec(doc)
    except (TypeError, ValueError, RecursionError) as exc:
        if isinstance(exc, SnapshotError):
            raise
        raise SnapshotError(str(exc)) from None
    if type(table) is not st.State:
        raise SnapshotError(msg("not a table"))
    if table.game_id != started.game_id or table.seats != started.seats:
        raise SnapshotError(msg("a table of another game"))
    return table._replace(rules=started.rules, edition=started.edition)
