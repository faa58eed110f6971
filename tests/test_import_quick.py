"""The import's quick reading of a line banco wrote (projections/exchange/import_rows.py
`Hasher.quick`): it gives exactly what the long way (parse, the fields' checks, the canonical
text and the hash) gives, or nothing, whatever the line holds."""

import json

import pytest
from games import record
from hypothesis import given, settings
from hypothesis import strategies as st

from banco.ledger.store.canonical import canonical_json, stored_row_hash
from banco.projections.exchange import exchange, import_rows
from banco.projections.exchange.import_rows import ImportRefused

_TEXT = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)),
                max_size=8) | st.sampled_from(
    ['"', '\\', '","hash":"', ',"data":', '"},"x":{"', "é", "\u2028", "\x00", "\x7f", "banker"])
_JSON = st.recursive(st.none() | st.booleans() | st.integers() | _TEXT,
                     lambda inner: st.lists(inner, max_size=3)
                     | st.dictionaries(_TEXT | st.just("hash"), inner, max_size=3), max_leaves=8)
PREV = "ab" * 32
HEADER = {"events": 10 ** 7, "chain_versions": [2, 3]}


def _long_way(line: str, seq: int, prev: str = PREV):
    """What the import reads from the line the long way: (the row, its data), or the refusal."""
    try:
        return exchange._read_slowly(line, 5, seq - 1, prev, HEADER, {2, 3}, None,
                                     import_rows.Hasher().text_and_hash)
    except (ImportRefused, ValueError, TypeError) as exc:
        return type(exc)


def _spell(row: dict, spelling: str, at: int, char: str) -> str:
    line = canonical_json(row)
    if spelling == "spaced":
        return json.dumps(row, sort_keys=True, ensure_ascii=False)
    if spelling == "escaped":
        return json.dumps(row, sort_keys=True, separators=(",", ":"))
    if spelling == "reordered":
        return json.dumps(dict(reversed(list(row.items()))), separators=(",", ":"),
                          ensure_ascii=False)
    if spelling == "edited":  # one character changed, anywhere
        at %= len(line)
        return line[:at] + char + line[at + 1:]
    if spelling == "cut":
        return line[:at % len(line)]
    if spelling == "crlf":
        return line + "\r\n"
    return line + "\n"


@settings(max_examples=600, deadline=None)
@given(data=st.dictionaries(_TEXT, _JSON, max_size=4),
       actor=st.sampled_from([None, "banker", "Anna", "", "banker "]),
       cid=st.none() | _TEXT, at=_TEXT, type_=_TEXT, seq=st.integers(1, 10 ** 6),
       version=st.sampled_from([1, 3, 0]), chain=st.sampled_from([2, 2, 2, 3, 1]),
       spelling=st.sampled_from(["canonical", "spaced", "escaped", "reordered", "edited",
                                 "edited", "edited", "cut", "crlf"]),
       where=st.integers(0, 10 ** 4), char=st.sampled_from(list('0a1"\\}{,: é')),
       off=st.sampled_from([0, 0, 0, 1, -1]), bad_prev=st.booleans())
def test_a_line_read_quickly_is_what_the_long_way_reads(data, actor, cid, at, type_, seq,
                                                        version, chain, spelling, where, char,
                                                        off, bad_prev):
    row = {"actor": actor, "chain_version": chain, "command_id": cid, "data": data,
           "hash": "", "prev_hash": PREV, "recorded_at": at, "schema_version": version,
           "seq": seq, "type": type_}
    row["hash"] = stored_row_hash(PREV, None, seq, type_, canonical_json(data), at, actor, cid,
                                  version, chain) or "0" * 64
    line = _spell(row, spelling, where, char)
    expected, prev = seq + off, "cd" * 32 if bad_prev else PREV
    hasher = import_rows.Hasher()
    for _ in range(2):  # the second time, from the data texts it remembers
        quick = hasher.quick(line, prev, expected)
        if quick is not None:
            assert quick == _long_way(line, expected, prev)


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    from click.testing import CliRunner

    from banco.cli.main import cli

    folder = tmp_path_factory.mktemp("quick")
    db, path = record(str(folder / "4p.db"), "classic-4p"), folder / "4p.jsonl"
    result = CliRunner().invoke(cli, ["--db", db, "export", "-o", str(path)])
    assert result.exit_code == 0, result.output
    return path


def test_the_lines_banco_writes_are_read_quickly(exported):
    # the import's pace: every version-2 line is read without parsing it whole (a version-3
    # one, which binds a snapshot, one in 500, the long way)
    lines = exported.read_text(encoding="utf-8").splitlines(keepends=True)[1:]
    hasher, prev, quick, two = import_rows.Hasher(), "0" * 64, 0, 0
    for seq, line in enumerate(lines, start=1):
        got = hasher.quick(line, prev, seq)
        slow = _long_way(line, seq, prev)
        if got is not None:
            quick += 1
            assert got == slow
        prev, two = slow[0][8], two + (slow[0][9] == 2)
    assert quick == two >= len(lines) - 3


def test_a_data_text_followed_by_a_second_data_field_is_not_read_quickly():
    # `"data":{"x":1},"data":{"y":2}`: the text between "data": and "hash" is no JSON value
    row = {"actor": "banker", "chain_version": 2, "command_id": "c", "data": {"y": 2},
           "hash": "", "prev_hash": PREV, "recorded_at": "t", "schema_version": 1, "seq": 1,
           "type": "T"}
    row["hash"] = stored_row_hash(PREV, None, 1, "T", '{"y":2}', "t", "banker", "c", 1, 2)
    hasher = import_rows.Hasher()
    assert hasher.quick(canonical_json({**row, "data": {"x": 1}}), PREV, 1) is None  # seen
    line = canonical_json(row).replace('"data":{"y":2}', '"data":{"x":1},"data":{"y":2}')
    assert hasher.quick(line, PREV, 1) is None
    assert _long_way(line, 1)[0][2] == '{"y":2}'


@settings(max_examples=300, deadline=None)
@given(data=st.dictionaries(_TEXT, _JSON, min_size=1, max_size=4),
       spelling=st.sampled_from(["canonical", "spaced", "escaped", "reordered"]),
       link=st.sampled_from([PREV, "cd" * 32]))
def test_a_line_hashed_over_its_own_spelling_is_read_as_the_long_way_reads_it(data, spelling,
                                                                                link):
    # a forger's line: the canonical fields around a data text spelt another way, or a
    # prev_hash field that is not the link, its hash made over the line as it stands
    from hashlib import sha256

    text = {"canonical": canonical_json(data),
            "spaced": json.dumps(data, sort_keys=True, ensure_ascii=False),
            "escaped": json.dumps(data, sort_keys=True, separators=(",", ":")),
            "reordered": json.dumps(dict(reversed(list(data.items()))), separators=(",", ":"),
                                    ensure_ascii=False)}[spelling]
    head = '{"actor":"banker","chain_version":2,"command_id":"c","data":'
    tail = ',"recorded_at":"t","schema_version":1,"seq":7,"type":"T"}'
    hsh = sha256(f"{PREV}{head}{text}{tail}".encode()).hexdigest()
    line = f'{head}{text},"hash":"{hsh}","prev_hash":"{link}"{tail}\n'
    quick = import_rows.Hasher().quick(line, PREV, 7)
    slow = _long_way(line, 7)
    assert quick == (slow if quick is not None else None)
    if text != canonical_json(data) or link != PREV:
        assert quick is None and slow is ImportRefused
