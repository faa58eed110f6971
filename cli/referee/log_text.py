"""`log`'s lines, fast enough for a whole long game (issue 21: >= 100,000 events/s).

A long game says the same few thousand things over and over (`> roll 3 4`, `Anna moves to
Via Roma (37)`, `Bruno to roll`), so `log` reads its rows as stored (COLUMNS tuples, the data
still its canonical JSON text) and remembers, by type and data text, the words said and the
JSON written for them: a row seen before costs a dictionary lookup, not a JSON decode and a
sentence.  That is exact: an event's words depend on its type and data and on the table given
(one for the whole reading), except the types in BY_SEQ, never remembered.  What is remembered
is bounded (MEMO entries, none longer than LONGEST), so memory stays flat however long the
game.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from json.encoder import encode_basestring

from banco.cli.words.facts import describe
from banco.ledger.records.upcast import upcast
from banco.ledger.store.schema import event_dict
from banco.ledger.table.state import State

CHUNK = 4096  # rows read at a time
MEMO = 8192  # entries remembered before the memory starts again
LONGEST = 2000  # data texts longer than this are said each time (a GameStarted, its rules)
# Types whose words name the event's own seq (narrate's RentClaimRefused: "as event N").
BY_SEQ = frozenset({"RentClaimRefused"})


def raw_stream(store, game: int, first: int, last: int, chunk: int = CHUNK) -> Iterator[tuple]:
    """Rows first..last as stored (the store's `raw_rows(game).fetch`), a chunk at a time:
    what `Book.stream` reads, without decoding each row's data."""
    rows = store.raw_rows(game)
    lo = max(first, 1)
    while lo <= last:
        hi = min(last, lo + chunk - 1)
        yield from rows.fetch(lo, hi)
        lo = hi + 1


class _Memo:
    """Values by (type, data text), at most MEMO of them: full, it is emptied and starts again
    (the repeated sayings come back at once)."""

    def __init__(self, limit: int | None = None):
        self.limit, self.size = MEMO if limit is None else limit, 0
        self.by_type: dict[str, dict[str, str]] = {}

    def get(self, type_: str, data: str) -> str | None:
        known = self.by_type.get(type_)
        return None if known is None else known.get(data)

    def put(self, type_: str, data: str, value: str) -> str:
        if type_ in BY_SEQ or len(data) > LONGEST:
            return value
        if self.size >= self.limit:
            self.by_type.clear()
            self.size = 0
        self.by_type.setdefault(type_, {})[data] = value
        self.size += 1
        return value


class Words:
    """`describe(event, state)` of stored rows, remembered (the module's note says why it is
    the same text)."""

    def __init__(self, state: State, limit: int | None = None):
        self.state = state
        self.memo = _Memo(limit)

    def of(self, row: tuple) -> str:
        type_, data = row[2], row[3]
        known = self.memo.by_type.get(type_)  # the memo's get, without a call
        said = None if known is None else known.get(data)
        if said is None:
            said = self.memo.put(type_, data, describe(event_dict(row), self.state))
        return said


def indented(value, pad: str = "") -> str:
    """`json.dumps(value, ensure_ascii=False, indent=2)`, its lines after the first led by
    `pad`, byte for byte, for values json.loads gives (dicts with str keys, lists, str, int,
    bool, None; a float, or anything else, is json's own).  json's indenting encoder is pure
    Python and general; this one is about twice as fast (tests/test_log_text.py compares)."""
    kind = type(value)
    if kind is str:
        return encode_basestring(value)
    if kind is int:
        return int.__repr__(value)
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    inner = pad + "  "
    if kind is dict:
        if not value:
            return "{}"
        return ("{\n" + inner + (",\n" + inner).join(
            [encode_basestring(k) + ": " + indented(v, inner) for k, v in value.items()])
            + "\n" + pad + "}")
    if kind is list:
        if not value:
            return "[]"
        return ("[\n" + inner + (",\n" + inner).join([indented(v, inner) for v in value])
                + "\n" + pad + "]")
    return json.dumps(value, ensure_ascii=False, indent=2).replace("\n", "\n" + pad)


# `log --json`'s rows sit in a list (cli/session.py's dump_rows): a row's lines are led by two
# spaces, its fields by four, so its data's inner lines by four more.
_ROW_PAD, _DATA_PAD = "  ", "    "


def json_row(seq, type_, data_text: str, recorded_at, hash_) -> str:
    """One row of `log --json` as dump_rows writes `{"seq", "type", "data", "recorded_at",
    "hash"}`, the data given as its indented text."""
    q = encode_basestring
    return (f'{_ROW_PAD}{{\n{_DATA_PAD}"seq": '
            f'{int.__repr__(seq) if type(seq) is int else indented(seq)},\n'
            f'{_DATA_PAD}"type": {q(type_) if type(type_) is str else indented(type_)},\n'
            f'{_DATA_PAD}"data": {data_text},\n{_DATA_PAD}"recorded_at": '
            f'{q(recorded_at) if type(recorded_at) is str else indented(recorded_at)},\n'
            f'{_DATA_PAD}"hash": {q(hash_) if type(hash_) is str else indented(hash_)}'
            f'\n{_ROW_PAD}}}')


class JsonRows:
    """`log --json`'s row for a stored row, its data's indented text remembered."""

    def __init__(self, limit: int | None = None):
        self.memo = _Memo(limit)

    def of(self, row: tuple) -> str:
        type_, data = row[2], row[3]
        text = self.memo.get(type_, data)
        if text is None:
            # the fact as today's schema holds it: an older row through its upcaster
            text = self.memo.put(type_, data, indented(
                upcast(type_, row[7], event_dict(row)["data"]), _DATA_PAD))
        return json_row(row[1], type_, text, row[4], row[9])


def event_json(e: dict) -> str:
    """The same row for an event already read (a dict, as `Book.stream` gives it)."""
    return json_row(e["seq"], e["type"], indented(e["data"], _DATA_PAD), e["recorded_at"],
                    e["hash"])


def json_list(rows: Iterable[str], echo, block: int = 512) -> None:
    """dump_rows's list of already written rows, byte for byte, `block` rows an echo (each
    echo flushes)."""
    out: list[str] = []
    first = True
    for row in rows:
        out.append(("[\n" if first else ",\n") + row)
        first = False
        if len(out) >= block:
            echo("".join(out), nl=False)
            out = []
    if out:
        echo("".join(out), nl=False)
    echo("[]" if first else "\n]")
