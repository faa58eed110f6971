"""The organiser's readings of a long game in bounded memory: statement, history, the CSV
export, the report and the TV's screen read the log a chunk at a time (`Book.checked`) or only
the rows they show, never the whole log (`Book.events`: ~655 MB on a 300,000-event game).

Each test plays a game across many chunks (`Book.CHUNK` made tiny), makes `Book.events` fail,
and compares with what the same command printed reading the game in one go."""

import csv
import io
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from banco.ledger.book import Book
from banco.ledger.records.reasons import english
from banco.ledger.store.sqlite import SQLiteStore


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
    read = SQLiteStore.read

    def spy(self, game_id, after=0, upto=None, **kwargs):
        if kwargs.get("prev_hash") is not None:  # the log's rows, read against the chain
            reads.append(kwargs.get("limit"))
        return read(self, game_id, after, upto, **kwargs)

    with monkeypatch.context() as m:
        m.setattr(Book, "CHUNK", chunk)
        m.setattr(Book, "events", lambda *a: pytest.fail("the whole log was loaded"))
        m.setattr(SQLiteStore, "read", spy)
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
    rents = [r for r in rows if english(r["reason"]).startswith("rent")]
    assert len(rents) == 1 and rents[0]["amount"] == 4  # the claim undone is not there
    assert rows[-1]["balance"] == json.loads(undone("state", "--json").output)["players"][0]["cash"]
    text = streamed(undone, monkeypatch, "statement", "Bruno")
    assert "bought Corso Ateneo" not in text and text.count("rent on Vicolo Stretto") == 1
    assert text.splitlines()[-1] == "cash now: 1496"
    hist = json.loads(streamed(undone, monkeypatch, "history", "corso ateneo", "--json"))
    assert [h["note"] for h in hist] == ["Bruno declined it", "Anna won it at auction for 100 M"]
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
    from banco.cli.organiser.commands import dump_rows
    from banco.cli.session import dump

    rows = [{"seq": 1, "note": "a \"quoted\"\nline — è", "nested": {"a": [1, {"b": []}]},
             "empty": {}}, {"seq": 2, "list": [], "none": None}]
    for case in ([], rows[:1], rows):
        dump(case)
        expected = capsys.readouterr().out
        dump_rows(iter(case))
        assert capsys.readouterr().out == expected


# --- banco serve ------------------------------------------------------------------------------

def test_command_tail_reads_back_to_the_commands_the_screen_shows():
    from banco.projections.readings.screen import command_tail, last_commands

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

    from banco.cli.web.hub import Table
    from banco.projections.readings.screen import screen

    db = record(str(tmp_path / "g.db"), "classic-4p")
    book = Book(db, create=False)
    whole = book.events(1)
    expected = screen(book.state(1), whole)
    book.close()
    read = []
    store_read = SQLiteStore.read

    def spy(self, game_id, after=0, upto=None, **kwargs):
        rows = store_read(self, game_id, after, upto, **kwargs)
        if kwargs.get("prev_hash") is None and kwargs.get("types") is None:  # as stored
            read.extend(rows)
        return rows

    monkeypatch.setattr(Book, "CHUNK", 50)
    monkeypatch.setattr(Book, "events", lambda *a: pytest.fail("the whole log was loaded"))
    monkeypatch.setattr(SQLiteStore, "read", spy)
    table = Table(db, None, None, poll=0.05).start()
    try:
        deadline = time.monotonic() + 10
        while table.json("en")[1] == b"{}" and time.monotonic() < deadline:
            time.sleep(0.02)
        doc = json.loads(table.json("en")[1])
    finally:
        table.close()
    assert table.error is None
    # the table's own keys beside the screen's (what just happened, the rule set's name as
    # said, a broken chain's warning) are the server's, not the screen's
    # ... and the board's title is said in the page's language (the screen's is the edition's)
    said = ("next", "edition")
    assert {k: v for k, v in doc.items() if k in expected and k not in said} == {
        k: v for k, v in expected.items() if k not in said}
    assert doc["edition"] == "Monopoly, Italian edition"
    last = max(e["seq"] for e in whole if e["type"] == "CommandRecorded")
    assert doc["commands"][0]["seq"] == last
    assert len(doc["commands"]) == 8 and 0 < len(read) <= 64 < len(whole)


# --- banco report -----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def bankruptcy(tmp_path_factory):
    """The vintage game played to a bankruptcy, with an undo at its end."""
    from games import lines, record

    db = record(str(tmp_path_factory.mktemp("report") / "v.db"), "vintage-to-a-bankruptcy")
    book = Book(db, create=False)
    turn = book.state(1).turn.player
    book.close()
    lines(db, f"roll 1 2 --player {turn}", "undo")
    return db


def whole_game(db):
    book = Book(db, create=False)
    try:
        return book.events(1)
    finally:
        book.close()


def test_the_chart_keeps_every_point_of_a_short_game_and_samples_a_long_one(bankruptcy):
    from banco.projections.readings.replay import steps
    from banco.projections.readings.report import WorthSampler

    all_steps = list(steps(whole_game(bankruptcy), 1))
    went = [s.last_seq for s, t in zip(all_steps[1:], all_steps, strict=False)
            if {p.name for p in s.after.players if p.bankrupt}
            != {p.name for p in t.after.players if p.bankrupt}]
    assert went  # the game has a bankruptcy
    whole = WorthSampler(limit=len(all_steps))
    for s in all_steps:
        whole.add(s)
    xs, ys = whole.series()
    assert not whole.sampled and xs == [s.last_seq for s in all_steps]
    assert all(len(v) == len(xs) for v in ys.values()) and len(ys) == len(all_steps[0].after.players)
    few = WorthSampler(limit=10)
    for s in all_steps:
        few.add(s)
        assert sum(1 for q in few.points if not q[2]) <= 10  # bounded all along
    xs, ys = few.series()
    assert few.sampled and few.stride > 1 and few.count == len(all_steps)
    assert xs[0] == all_steps[0].last_seq and xs[-1] == all_steps[-1].last_seq
    assert set(went) <= set(xs) and len(xs) <= 10 + len(went) + 1 and xs == sorted(set(xs))
    at = {s.last_seq: n for n, s in enumerate(all_steps)}
    regular = [at[x] for x in xs if x not in went][:-1]  # evenly spread: one in `stride`
    assert all(n % few.stride == 0 for n in regular) and len(regular) >= 10 // 2
    worth = {s.last_seq: s for s in all_steps}
    from banco.ledger.table.worth import net_worth

    for name, values in ys.items():  # the points are the players' worth after those commands
        for x, v in zip(xs, values, strict=True):
            p = worth[x].after.player(name)
            assert v == (0 if p.bankrupt else net_worth(worth[x].after, name))


def test_the_report_is_written_as_the_log_is_read(bankruptcy, tmp_path, monkeypatch):
    from banco.cli.words.facts import describe, local_time
    from banco.projections.readings.report import AuditVerdict, report_html

    events = whole_game(bankruptcy)
    line = f"banco/1/{events[-1]['seq']}/{events[-1]['hash'][:12]}"  # the audit passed
    expected = report_html(events, 1, describe, head=events[-1]["hash"], local_time=local_time,
                           audit=AuditVerdict(line))
    runner_db = ["--db", bankruptcy]
    from click.testing import CliRunner

    from banco.cli.main import cli

    spooled = []
    import tempfile

    made = tempfile.TemporaryFile

    def spool(*args, **kwargs):
        f = made(*args, **kwargs)
        spooled.append(f)
        return f

    monkeypatch.setattr(tempfile, "TemporaryFile", spool)
    with monkeypatch.context() as m:
        m.setattr(Book, "CHUNK", 7)
        m.setattr(Book, "events", lambda *a: pytest.fail("the whole log was loaded"))
        out = tmp_path / "r.html"
        result = CliRunner().invoke(cli, [*runner_db, "report", "-o", str(out)])
    assert result.exit_code == 0, result.output
    page = out.read_text(encoding="utf-8")
    assert page == expected and len(spooled) == 2  # the timeline and the highlights
    assert result.output == (f"game 1: report written to {out} ({len(expected) // 1024} KiB, "
                             f"{len(events)} events)\n")
    assert "after each command</p>" in page and "sampled" not in page


def test_a_long_games_chart_is_sampled_and_says_so(bankruptcy, tmp_path, monkeypatch):
    import re

    from click.testing import CliRunner

    from banco.cli.main import cli
    from banco.projections.readings import report

    monkeypatch.setattr(report, "CHART_POINTS", 12)
    out = tmp_path / "r.html"
    result = CliRunner().invoke(cli, ["--db", bankruptcy, "report", "-o", str(out)])
    assert result.exit_code == 0, result.output
    page = out.read_text(encoding="utf-8")
    caption = re.search(r"buildings at cost, sampled: after one command in (\d+) \((\d+) points "
                        r"of (\d+) commands\), the last one and every bankruptcy</p>", page)
    assert caption, page[:3000]
    stride, points, commands = map(int, caption.groups())
    line = re.search(r'<polyline[^>]*points="([^"]*)"', page).group(1)
    assert len(line.split()) == points and stride > 1 and 6 <= points <= 12 + 2
    assert commands == len(re.findall(r'<li class="cmd"', page))
    it = CliRunner().invoke(cli, ["--db", bankruptcy, "--lang", "it", "report", "-o",
                                  str(tmp_path / "it.html")])
    assert it.exit_code == 0, it.output
    assert f"a campione: dopo un comando ogni {stride} ({points} punti su {commands} comandi)" \
        in (tmp_path / "it.html").read_text(encoding="utf-8")


def test_the_jsonl_export_stays_a_stream(undone, monkeypatch):
    whole = undone("export").output
    with monkeypatch.context() as m:
        m.setattr(Book, "events", lambda *a: pytest.fail("the whole log was loaded"))
        m.setattr(SQLiteStore, "read", lambda *a, **k: pytest.fail("the whole log was read"))
        assert undone("export").output == whole
    assert len(whole.splitlines()) == 1 + json.loads(undone("state", "--json").output)["seq"]


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 40), st.lists(st.integers(0, 400), max_size=4), st.integers(0, 400))
def test_the_sampled_chart_is_bounded_even_and_keeps_its_ends_and_bankruptcies(limit, outs,
                                                                               count):
    from banco.projections.readings.report import WorthSampler

    sampler = WorthSampler(limit=limit)
    out: set[str] = set()
    for n in range(count):
        out |= {f"P{i}" for i, at in enumerate(outs) if at == n}
        sampler.add_point(10 + 3 * n, {"A": n, "B": -n}, set(out))
        assert sum(1 for q in sampler.points if not q[2]) <= limit
    xs, ys = sampler.series()
    assert len(xs) == len(ys.get("A", [])) and sampler.count == count
    if not count:
        assert xs == [] and not sampler.sampled
        return
    ns = [(x - 10) // 3 for x in xs]
    assert ns[0] == 0 and ns[-1] == count - 1 and ns == sorted(set(ns))
    assert ys["A"] == ns and ys["B"] == [-n for n in ns]  # each point is its command's
    went = {at for at in outs if at < count}
    assert went <= set(ns)
    regular = [n for n in ns[:-1] if n not in went]
    assert all(n % sampler.stride == 0 for n in regular)
    assert len(regular) <= limit and len(ns) <= limit + len(went) + 1
    if count <= limit:
        assert ns == list(range(count)) and not sampler.sampled
    else:  # evenly spread: every command in `stride` is there, at least half the points allowed
        every = {n for n in range(count) if n % sampler.stride == 0}
        assert sampler.sampled and every <= set(ns) and len(every) >= (limit + 1) // 2


@settings(max_examples=100, deadline=None)
@given(st.lists(st.dictionaries(st.text(max_size=5), st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner,
                                                                max_size=3),
    max_leaves=6), max_size=4), max_size=4))
def test_rows_streamed_as_json_are_the_list_dumped(rows):
    import contextlib

    from banco.cli.organiser.commands import dump_rows
    from banco.cli.session import dump

    outs = []
    for write in (lambda: dump(rows), lambda: dump_rows(iter(rows))):
        buffer = io.StringIO()
        with contextlib.redirect_stdout(buffer):
            write()
        outs.append(buffer.getvalue())
    assert outs[0] == outs[1]
