"""`log`'s fast lines (cli/referee/log_text.py) against the plain way of writing them: the words
remembered by type and data text are describe's, the JSON indented by hand is json's, and a
whole game's `log` and `log --json` are what a pass over `Book.stream` with `describe` and
`json.dumps(indent=2)` writes, byte for byte (the memo emptied often, too)."""

import json
from pathlib import Path

import pytest
from helpers import new_table
from hypothesis import given, settings
from hypothesis import strategies as st
from test_log import SAMPLES

from banco.cli.referee import log_text
from banco.cli.referee.log_text import BY_SEQ, Words, indented
from banco.cli.words.facts import SHORT_HASH, describe, local_time, taken_back
from banco.ledger.store.schema import event_dict

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
GAMES = ("classic-to-the-end", "championship-4p", "vintage-to-a-bankruptcy")

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20)


@settings(max_examples=300, deadline=None)
@given(json_values, st.sampled_from(["", "  ", "    "]))
def test_indented_is_json_dumps_with_indent_2(value, pad):
    assert indented(value, pad) == json.dumps(value, ensure_ascii=False,
                                              indent=2).replace("\n", "\n" + pad)


def test_indented_writes_every_recorded_fact_as_json_does():
    for path in sorted(FIXTURES.glob("*.events.json")):
        for e in json.loads(path.read_text(encoding="utf-8")):
            assert indented(e["data"], "    ") == json.dumps(
                e["data"], ensure_ascii=False, indent=2).replace("\n", "\n    ")


@pytest.mark.parametrize("kind", sorted(SAMPLES))
def test_a_facts_words_depend_on_its_type_and_data_alone(kind):
    # what makes remembering the words by (type, data text) exact: another seq, time, hash or
    # command gives the same words, but for the types that say their seq (never remembered)
    state = new_table()
    one = {"seq": 5, "type": kind, "data": SAMPLES[kind], "recorded_at": "2026-11-30T06:00:00Z",
           "command_id": "a", "actor": "banker", "hash": "0" * 64, "prev_hash": "1" * 64}
    other = {**one, "seq": 91, "recorded_at": "2027-01-01T00:00:00Z", "command_id": "b",
             "actor": "referee", "hash": "2" * 64, "prev_hash": "3" * 64}
    assert (describe(one, state) == describe(other, state)) == (kind not in BY_SEQ)


def _reference_text(book, game) -> str:
    """`log` as it was written before log_text.py: every row decoded, every line described."""
    st_ = book.state(game)
    gone = taken_back(book.rows_of_type(game, "EventRetracted"))
    lines = [f"{'seq':>5}  {'time':<25}  {'hash':<{SHORT_HASH}}  {'type':<21} what happened"]
    for e in book.stream(game):
        mark = "x" if e["seq"] in gone else " "
        lines.append(f"{e['seq']:>5}{mark} {local_time(e['recorded_at'])}  "
                     f"{e['hash'][:SHORT_HASH]}  {e['type']:<21} {describe(e, st_)}")
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    """A database holding the fixture games, one each."""
    from click.testing import CliRunner

    from banco.cli.main import cli

    db = str(tmp_path_factory.mktemp("log") / "games.db")
    for name in GAMES:
        done = CliRunner().invoke(cli, ["--db", db, "--lang", "en", "run", "-q",
                                        str(FIXTURES / f"{name}.banco")])
        assert done.exit_code == 0, done.output
    return db


@pytest.mark.parametrize("memo", [None, 3])
@pytest.mark.parametrize("game", [1, 2, 3])
def test_a_whole_log_is_the_plain_passes_text(banco, recorded, game, memo, monkeypatch):
    from banco.ledger.book import Book

    if memo is not None:  # emptied every third saying: what is said again is said the same
        monkeypatch.setattr(log_text, "MEMO", memo)
    book = Book(recorded)
    out = banco("--db", recorded, "--game", str(game), "log").output
    taken = bool(taken_back(book.rows_of_type(game, "EventRetracted")))
    reference = _reference_text(book, game)
    assert out.startswith(reference) and (out == reference) != taken
    rows = [{"seq": e["seq"], "type": e["type"], "data": e["data"],
             "recorded_at": e["recorded_at"], "hash": e["hash"]} for e in book.stream(game)]
    assert banco("--db", recorded, "--game", str(game), "log", "--json").output == json.dumps(
        rows, ensure_ascii=False, indent=2) + "\n"
    tail = banco("--db", recorded, "--game", str(game), "log", "--json", "--tail", "2").output
    assert tail == json.dumps(rows[-2:], ensure_ascii=False, indent=2) + "\n"


def test_the_remembered_words_are_describes_in_either_language(recorded, monkeypatch):
    from banco.cli.words.i18n import use
    from banco.ledger.book import Book

    book = Book(recorded)
    for lang in ("it", "en"):
        use(lang)
        for game in (1, 2, 3):
            state = book.state(game)
            words = Words(state, limit=50)
            for row in book.store.raw_rows(game):
                assert words.of(row) == describe(event_dict(row), state)
    use("en")


def test_a_postgresql_games_log_is_its_sqlite_log(tmp_path, monkeypatch):
    # the rows as stored come through the store's raw_rows on either store (skipped without a
    # throwaway server, failed with CI=true: tests/pg_cluster.py)
    import pg_cluster
    from click.testing import CliRunner

    from banco.cli.main import cli

    monkeypatch.setenv("BANCO_FIXED_TIME", "2026-11-29T21:00:00Z")
    url, _ = pg_cluster.database()
    db = str(tmp_path / "table.db")

    def said(where, *words):
        done = CliRunner().invoke(cli, ["--db", where, *words], catch_exceptions=False)
        assert done.exit_code == 0, done.output
        return done.output

    said(db, "run", "-q", str(FIXTURES / "classic-to-the-end.banco"))
    # copied, not played again: the same rows (hashes and times too) in one batch, 1.4 s
    # against 45 s of 500 commands' statements; the rows a game played into PostgreSQL stores
    # are held to SQLite's by tests/test_postgres_referee.py's export, byte for byte
    said(db, "copy", db, url)
    for words in (["log"], ["log", "--json"], ["log", "--tail", "5"],
                  ["log", "--type", "rent", "--from", "100", "--to", "900", "--json"]):
        assert said(url, *words) == said(db, *words), words
