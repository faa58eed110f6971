"""The import's own work: each line's canonical text and hash computed once, the format-2
trigger lifted for it and put back, the audit it runs told which hashes it has checked, and the
book's snapshots it leaves."""

import json
import sqlite3

import pytest
from exchange_files import played_with_undos, refused, rehash, rows_of
from games import record
from hypothesis import given, settings
from hypothesis import strategies as st

from banco.ledger.store.canonical import GENESIS, canonical_json
from banco.ledger.store.sqlite import SQLiteStore
from banco.projections.exchange import exchange, import_rows

# --- the import's own work, done once ---------------------------------------------------------

_TEXT = st.text(alphabet=st.characters(codec="utf-8"), max_size=8) | st.sampled_from(
    ['"', '\\', '","hash":"', ',"data":', "é", "\u2028", "\x00"])
_JSON = st.recursive(st.none() | st.booleans() | st.integers() | _TEXT,
                     lambda inner: st.lists(inner, max_size=3)
                     | st.dictionaries(_TEXT | st.just("hash"), inner, max_size=3), max_leaves=8)


@settings(max_examples=300, deadline=None)
@given(data=st.dictionaries(_TEXT, _JSON, max_size=4), actor=st.none() | _TEXT,
       cid=st.none() | _TEXT, at=_TEXT, type_=_TEXT, seq=st.integers(1, 10 ** 6),
       spelling=st.sampled_from(["canonical", "spaced", "reordered", "again"]))
def test_the_import_stores_and_hashes_the_canonical_text_however_the_line_spells_it(
        data, actor, cid, at, type_, seq, spelling):
    # what the import stores and checks is the canonical text of the data and the hash of it,
    # as stored_row_hash gives it, whether the line is banco's own text or not
    from banco.ledger.store.canonical import stored_row_hash

    prev = "ab" * 32
    text = canonical_json(data)
    row = {"actor": actor, "chain_version": 2, "command_id": cid, "data": data,
           "hash": "0" * 64, "prev_hash": prev, "recorded_at": at, "schema_version": 1,
           "seq": seq, "type": type_}
    row["hash"] = stored_row_hash(prev, None, seq, type_, text, at, actor, cid, 1, 2)
    line = canonical_json(row) + "\n"
    if spelling == "spaced":
        line = json.dumps(row, sort_keys=True)
    elif spelling == "reordered":
        line = json.dumps({**row, "data": dict(reversed(list(data.items())))},
                          sort_keys=False, ensure_ascii=False, separators=(",", ":"))
    hasher = import_rows.Hasher()
    parsed = json.loads(line)
    assert hasher.text_and_hash(line, parsed, prev) == (text, row["hash"])
    if spelling == "again":  # the second time, from what it remembers
        assert hasher.text_and_hash(line, json.loads(line), prev) == (text, row["hash"])


def test_a_line_whose_data_text_hides_a_second_data_field_is_not_taken_at_its_word():
    # `"data":{"x":1},"data":{"y":2}` parses as {"y": 2}: the text between the fields around
    # the data is then not the data's, even when {"x":1} was seen before
    prev, hasher = GENESIS, import_rows.Hasher()
    row = {"actor": "banker", "chain_version": 2, "command_id": "c", "data": {"x": 1},
           "hash": "0" * 64, "prev_hash": prev, "recorded_at": "t", "schema_version": 1,
           "seq": 1, "type": "T"}
    hasher.text_and_hash(canonical_json(row), row, prev)
    line = canonical_json(row).replace('"data":{"x":1}', '"data":{"x":1},"data":{"y":2}')
    parsed = json.loads(line)
    assert parsed["data"] == {"y": 2}
    assert hasher.text_and_hash(line, parsed, prev)[0] == '{"y":2}'


def test_the_import_encodes_each_data_text_once_not_each_line(exported, tmp_path, monkeypatch):
    calls = []
    real = import_rows.CANONICAL
    for module in (import_rows, exchange):  # the version-2 rows' Hasher, the others' import
        monkeypatch.setattr(module, "CANONICAL", lambda v: calls.append(1) or real(v))
    header, rows = rows_of(exported)
    store = SQLiteStore(str(tmp_path / "once.db"))
    with open(exported, encoding="utf-8") as f:
        done = exchange.import_lines(store, f, source="x", now="2026-11-30T12:00:00.000000Z")
    store.close()
    assert done["events"] == len(rows)
    distinct = len({canonical_json(r["data"]) for r in rows})
    assert len(calls) == distinct < len(rows)  # ~1 in 6 on a long game


def _v1_row_refused(db) -> bool:
    conn = sqlite3.connect(db)
    try:
        conn.execute("INSERT INTO events (game_id, seq, type, data, recorded_at, hash, "
                     "prev_hash, schema_version, chain_version) VALUES (99, 1, 'X', '{}', 't', "
                     "'h', 'p', 1, 1)")
    except sqlite3.IntegrityError as exc:
        return "banco format 2" in str(exc)
    finally:
        conn.rollback()
        conn.close()
    return False


def test_the_trigger_lifted_for_the_import_is_back_after_it(exported, target, tmp_path, banco):
    # the rows go in without events_format_2 running for each; the file keeps it all the same,
    # after an import that commits and after one the audit refuses (rolled back)
    header, rows = rows_of(exported)
    tax = next(i for i, r in enumerate(rows) if r["type"] == "TaxPaid")
    rows[tax]["data"]["amount"] = 99999
    rehash(rows, tax)
    out = refused(banco, target, {**header, "head": rows[-1]["hash"]}, rows, tmp_path)
    assert "the audit stops at event" in out
    assert _v1_row_refused(target)
    banco("--db", target, "import", str(exported))
    assert _v1_row_refused(target)
    conn = sqlite3.connect(target)
    assert conn.execute("SELECT COUNT(*) FROM sqlite_master WHERE type='trigger' AND "
                        "name='events_format_2'").fetchone() == (1,)
    conn.close()


# --- the audit's hook, and the tables it leaves ---------------------------------------------


def test_an_imported_long_game_has_the_books_snapshots_each_the_table_folded_to_it(
        tmp_path, monkeypatch, banco):
    from banco.ledger.book import Book
    from banco.ledger.snapshot_check import verify_snapshots
    from banco.projections.audit import audit as audit_module

    monkeypatch.setattr(Book, "SNAPSHOT_EVERY", 40)
    monkeypatch.setattr(audit_module, "CHECKPOINT_EVERY", 30)
    played = str(tmp_path / "played.db")
    played_with_undos(played)
    path = tmp_path / "undos.jsonl"
    banco("--db", played, "export", "-o", str(path))
    header, rows = rows_of(path)
    assert sum(r["type"] == "EventRetracted" for r in rows) >= 20
    db = str(tmp_path / "imported.db")
    store = SQLiteStore(db)
    with open(path, encoding="utf-8") as f:
        exchange.import_lines(store, f, source="x", now="2026-11-30T12:00:00.000000Z")
    snaps = store.snapshots(1)
    # the tables the game's chain binds (its rows with a table digest) that a book keeps: the
    # newest three and the first of each stretch of EVERY events (ledger/store/kept_snapshots.py)
    from banco.ledger.store.kept_snapshots import EVERY

    bound = [r["seq"] for r in rows if r.get("table_digest")]
    first = {}
    for seq in bound:
        first.setdefault(seq // EVERY, seq)
    assert len(bound) >= 4 and len(first) >= 1
    assert [s.seq for s in snaps] == sorted({*bound[-3:], *first.values()}, reverse=True)
    assert verify_snapshots(store, 1) == []  # each is the table a fresh fold gives
    store.close()
    # the first command on the imported game folds from the last one, not from event 1
    monkeypatch.setattr(Book, "_fold_all", lambda *a: pytest.fail("folded from the start"))
    book = Book(db)
    assert book.state(1) == Book(played).state(1)._replace(game_id=1)
    book.close()


def test_an_imported_game_leaves_only_the_snapshots_its_chain_binds(exported, tmp_path,
                                                                     monkeypatch, banco):
    """A snapshot is used only where the chain records its table's digest: an import leaves
    one at each such row it has audited (here event 500 of 643), and none for a game recorded
    without them, whatever its length (a table the chain does not bind is never used)."""
    from banco.ledger.book import Book
    from banco.ledger.snapshot_check import verify_snapshots

    store = SQLiteStore(str(tmp_path / "bound.db"))
    with open(exported, encoding="utf-8") as f:
        exchange.import_lines(store, f, source="x", now="2026-11-30T12:00:00.000000Z")
    _, rows = rows_of(exported)
    assert [s.seq for s in store.snapshots(1)] == [r["seq"] for r in rows
                                                   if r["chain_version"] == 3] == [500]
    assert verify_snapshots(store, 1) == []
    store.close()
    monkeypatch.setattr(Book, "SNAPSHOT_EVERY", 10 ** 6)
    plain = str(tmp_path / "plain.db")
    record(plain, "classic-4p")
    path = tmp_path / "plain.jsonl"
    banco("--db", plain, "export", "-o", str(path))
    assert {r["chain_version"] for r in rows_of(path)[1]} == {2}
    store = SQLiteStore(str(tmp_path / "short.db"))
    with open(path, encoding="utf-8") as f:
        exchange.import_lines(store, f, source="x", now="2026-11-30T12:00:00.000000Z")
    assert store.snapshots(1) == []
    store.close()


def test_the_imports_audit_skips_only_the_hashes_it_computed(exported, tmp_path, monkeypatch):
    """The import hands its audit the rows it has just hashed (hashes_checked): the chain's
    order and links are still followed there, so a row missing or moved after the import's
    checks is named at the same event; a database's audit checks the hashes itself."""
    from banco.projections.audit.audit import GameAudit
    from banco.projections.audit.rows import DictRows

    header, rows = rows_of(exported)
    gone = [r for r in rows if r["seq"] != 40]
    for checked in (False, True):
        report = GameAudit(1, DictRows(gone), hashes_checked=checked).run()
        assert (report.bad_seq, str(report.problem)) == (
            40, "hash chain: event 40 is missing (the next one is event 41): a row was deleted")
    relinked = [dict(r) for r in rows]
    relinked[50]["prev_hash"] = "f" * 64
    for checked in (False, True):
        report = GameAudit(1, DictRows(relinked), hashes_checked=checked).run()
        assert report.bad_seq == 51 and "prev_hash is not the hash of event 50" in report.problem
    # a database's audit checks the hashes itself
    from banco.projections.audit.audit import audit

    forged = [dict(r) for r in rows]
    forged[30]["hash"] = "0" * 64
    assert audit(1, DictRows(forged)).bad_seq == 31


def test_only_the_import_tells_its_audit_the_hashes_are_checked(exported, tmp_path,
                                                                 monkeypatch):
    from importlib.machinery import EXTENSION_SUFFIXES

    from banco.projections.audit import audit as audit_module

    if exchange.__file__.endswith(tuple(EXTENSION_SUFFIXES)):
        # compiled, the import calls GameAudit directly: no spy can stand in its way (the
        # pure install, BANCO_PURE=1, runs this)
        pytest.skip("projections/exchange/exchange.py is compiled")
    seen = []
    real = audit_module.GameAudit

    def spy(*args, **kwargs):
        seen.append(kwargs.get("hashes_checked", False))
        return real(*args, **kwargs)

    monkeypatch.setattr(audit_module, "GameAudit", spy)
    store = SQLiteStore(str(tmp_path / "hook.db"))
    with open(exported, encoding="utf-8") as f:
        exchange.import_lines(store, f, source="x", now="2026-11-30T12:00:00.000000Z")
    assert seen == [True]
    store.close()


@pytest.mark.parametrize("line", ["\n", "  \t\n", "[1, 2]\n", '"text"\n', '{"a":1} x\n',
                                  '{"a":1}{"b":2}\n', ' {"a":1}\n', '{"a":1}  \n', '{"a":1}',
                                  '{"a":1.5}\n', '{"a":NaN}\n', '{"a":\n', '{"a":1}\r\n', ""])
def test_a_line_is_read_as_the_whole_decoder_reads_it(line):
    # the raw step reads banco's own lines; every other one gets the whole decoder's verdict
    def whole(line):  # the import's reading before the raw step
        if not line.strip():
            return "blank"
        try:
            value = import_rows._DECODE(line)
        except ValueError as exc:
            return f"not JSON: {import_rows._why(exc)}"
        return value if isinstance(value, dict) else "not an object"

    try:
        got = import_rows.parse(line, 7)
    except exchange.ImportRefused as exc:
        got = str(exc)
        expected = whole(line)
        assert isinstance(expected, str) and (
            "is blank" in got if expected == "blank" else
            "is not a JSON object" in got if expected == "not an object" else
            expected[len("not JSON: "):] in got), (got, expected)
    else:
        assert got == whole(line)
