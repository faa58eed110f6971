"""The organiser's readings of a long game in bounded memory: statement, history, the CSV
export, the report and the TV's screen read the log a chunk at a time (`Book.checked`) or only
the rows they show, never the whole log (`Book.events`: ~655 MB on a 300,000-event game).

Each test plays a game across many chunks (`Book.CHUNK` made tiny), makes `Book.events` fail,
and compares with what the same command printed reading the game in one go."""

import csv
import io
import json

import pytest

from ledger.book import Book
from ledger.store import SQLiteStore


@pytest.fixture
def undone(banco):
    """A game with money an undo took back: Anna's first claim on Vicolo Stretto is undone and
    claimed again, Bruno's purchase of Corso Ateneo is undone and he declines instead."""
    banco("new", "Anna", "Bruno")
    banco("roll", "1", "2")  # Anna: Vicolo Stretto
    banco("buy")
    banco("roll", "2", "1")  # Bruno lands on it
    banco("claim", "anna")
    banco("undo")
    banco("claim", "anna")
    banco("roll", "5", "3")  # Anna: 3 + 8 = 11 Via Accademia
    banco("buy")
    banco("roll", "6", "4")  # Bruno: 3 + 10 = 13 Corso Ateneo, his purchase taken back
    banco("buy")
    banco("undo")
    banco("decline")
    banco("bid", "Anna", "100")
    banco("hammer")
    return banco


def streamed(banco, monkeypatch, *args, chunk=3):
    """The command's output read a few rows at a time with the whole log out of reach; the
    reads of the log are checked to have been a chunk at a time."""
    reads = []
    read = SQLiteStore.read_checked

    def spy(self, game_id, after=0, prev_hash=None, limit=None):
        reads.append(limit)
        return read(self, game_id, after, prev_hash, limit)

    with monkeypatch.context() as m:
        m.setattr(Book, "CHUNK", chunk)
        m.setattr(Book, "events", lambda *a: pytest.fail("the whole log was loaded"))
        m.setattr(SQLiteStore, "read_checked", spy)
        out = banco(*args).output
    assert reads and all(limit is not None and limit <= chunk for limit in reads), reads
    return out


READINGS = [("statement", "anna"), ("statement", "Bruno", "--json"), ("statement", "bank", "--csv"),
            ("statement", "bank", "--json"), ("history", "vicolo", "stretto"),
            ("history", "via accademia", "--json"), ("history", "corso ateneo"),
            ("history", "parco della vittoria"), ("history", "parco della vittoria", "--json"),
            ("export", "--format", "csv")]


@pytest.mark.parametrize("args", READINGS, ids=" ".join)
def test_organiser_readings_stream_the_log(undone, monkeypatch, args):
    whole = undone(*args).output
    assert streamed(undone, monkeypatch, *args) == whole


def test_streamed_statement_leaves_out_what_an_undo_took_back(undone, monkeypatch):
    rows = json.loads(streamed(undone, monkeypatch, "statement", "anna", "--json"))
    rents = [r for r in rows if r["reason"].startswith("rent")]
    assert len(rents) == 1 and rents[0]["amount"] == 4  # the claim undone is not there
    assert rows[-1]["balance"] == json.loads(undone("state", "--json").output)["players"][0]["cash"]
    text = streamed(undone, monkeypatch, "statement", "Bruno")
    assert "bought Corso Ateneo" not in text and text.count("rent on Vicolo Stretto") == 1
    assert text.splitlines()[-1] == "cash now: 1496"
    hist = json.loads(streamed(undone, monkeypatch, "history", "corso ateneo", "--json"))
    assert [h["note"] for h in hist] == ["Bruno declined it", "Anna won it at auction for 100"]
    assert streamed(undone, monkeypatch, "history", "parco della vittoria") == \
        "nothing has happened to it yet: it is with the Bank\n"
    assert streamed(undone, monkeypatch, "history", "parco della vittoria", "--json") == "[]\n"


def test_streamed_csv_export_is_the_money_once(undone, monkeypatch):
    rows = list(csv.DictReader(io.StringIO(streamed(undone, monkeypatch, "export", "--format",
                                                    "csv"))))
    assert [r["description"] for r in rows if "Vicolo Stretto" in r["description"]] == \
        ["bought Vicolo Stretto (PropertyBought)", "rent on Vicolo Stretto (RentPaid)"]
    assert not any("Corso Ateneo" in r["description"] and r["account"] == "bank"
                   and r["counterparty"] == "Bruno" for r in rows)


def test_json_rows_are_written_as_dump_writes_the_list(capsys):
    from cli.organiser import dump_rows
    from cli.session import dump

    rows = [{"seq": 1, "note": "a \"quoted\"\nline — è", "nested": {"a": [1, {"b": []}]},
             "empty": {}}, {"seq": 2, "list": [], "none": None}]
    for case in ([], rows[:1], rows):
        dump(case)
        expected = capsys.readouterr().out
        dump_rows(iter(case))
        assert capsys.readouterr().out == expected


# --- banco serve ------------------------------------------------------------------------------

def test_command_tail_reads_back_to_the_commands_the_screen_shows():
    from projections.screen import command_tail, last_commands

    rows = [{"seq": s, "type": "CommandRecorded" if s % 3 == 1 else "DiceRolled",
             "data": {"line": f"line {s}"}, "recorded_at": "t"} for s in range(1, 31)]
    pulled = []

    def backwards():
        for e in reversed(rows):
            pulled.append(e["seq"])
            yield e

    tail = command_tail(backwards(), 4)
    assert [e["seq"] for e in tail] == list(range(19, 31)) and pulled == list(range(30, 18, -1))
    assert last_commands(tail, 4) == last_commands(rows, 4)
    assert [c["seq"] for c in last_commands(tail, 4)] == [28, 25, 22, 19]
    assert command_tail(iter(reversed(rows)), 50) == rows  # a short game: all of it
    assert command_tail(iter(()), 8) == []


def test_the_screen_reads_only_the_tail_of_the_log(tmp_path, monkeypatch):
    import time

    from games import record

    from cli.serve import Table
    from projections.screen import screen

    db = record(str(tmp_path / "g.db"), "classic-4p")
    book = Book(db, create=False)
    whole = book.events(1)
    expected = screen(book.state(1), whole)
    book.close()
    read = []
    store_read = SQLiteStore.read

    def spy(self, game_id, after=0, upto=None):
        rows = store_read(self, game_id, after, upto)
        read.extend(rows)
        return rows

    monkeypatch.setattr(Book, "CHUNK", 50)
    monkeypatch.setattr(Book, "events", lambda *a: pytest.fail("the whole log was loaded"))
    monkeypatch.setattr(SQLiteStore, "read", spy)
    table = Table(db, None, None, poll=0.05).start()
    try:
        deadline = time.monotonic() + 10
        while table.doc("en")[1] == b"{}" and time.monotonic() < deadline:
            time.sleep(0.02)
        doc = json.loads(table.doc("en")[1])
    finally:
        table.close()
    assert table.error is None
    assert {k: v for k, v in doc.items() if k != "next"} == expected
    last = max(e["seq"] for e in whole if e["type"] == "CommandRecorded")
    assert doc["commands"][0]["seq"] == last
    assert len(doc["commands"]) == 8 and 0 < len(read) <= 64 < len(whole)
