"""The referee's readings of a long game read it a chunk at a time, never the whole log: each
is run here with `Book.events` made to fail, on games read in small chunks (and with few
tables kept for undos), and must say exactly what the whole log says."""

from __future__ import annotations

import json
import random
from datetime import datetime, timedelta

import pytest
from click.testing import CliRunner
from games import record

from banco.cli.main import cli
from banco.cli.referee import replay_source
from banco.cli.referee.replay_text import header_lines, step_lines
from banco.cli.words.facts import describe, taken_back
from banco.ledger.book import Book
from banco.ledger.records import commands as c
from banco.ledger.table.state import fold
from banco.projections.readings import replay as replay_mod
from banco.projections.readings.replay import select, step_document, steps
from banco.projections.referee.moments import moment_seq, parse_moment, seq_at

START = datetime(2026, 11, 29, 21, 0)


def _when(i: int) -> str:
    return (START + timedelta(minutes=i)).strftime("%Y-%m-%dT%H:%M:%S.000000Z")


def _undo_game(db: str, seed: int = 5, commands: int = 160) -> None:
    """Two players rolling, buying, claiming and taking back, undos two and three in a row,
    a minute between commands, a snapshot every few events (as a long game leaves them)."""
    book = Book(db)
    book.SNAPSHOT_EVERY = 6
    g = book.new_game(["Anna", "Bruno"], now=_when(0))
    rng = random.Random(seed)
    for i in range(1, commands):
        st = book.state(g)
        options = [c.Roll((rng.randint(1, 6), rng.randint(1, 6)))] if st.turn.phase == "roll" \
            else [c.Buy()] if st.turn.phase == "buy" and st.current.cash > 300 else []
        if st.claims:
            options.append(c.Claim(st.claims[0].owner))
        if not options or rng.random() < 0.2:
            for _ in range(rng.choice((1, 1, 2, 3))):
                try:
                    book.undo(g, now=_when(i))
                except Exception:
                    break
            continue
        try:
            book.execute(g, options[0], now=_when(i))
        except Exception:
            book.undo(g, now=_when(i))
    book.close()


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    folder = tmp_path_factory.mktemp("streamed")
    undo_db = str(folder / "undo.db")
    _undo_game(undo_db)
    four = record(str(folder / "four.db"), "classic-4p")
    out = {}
    for name, db in (("undo", undo_db), ("four", four)):
        book = Book(db)
        out[name] = (db, list(book.events(1)))
        book.close()
    return out


@pytest.fixture
def streamed(monkeypatch):
    """The whole log is out of reach; rows come 7 at a time; 3 tables are kept for undos."""
    def whole_log(self, game_id):
        raise AssertionError("a streamed reading loaded the whole log")

    monkeypatch.setattr(Book, "events", whole_log)
    monkeypatch.setattr(Book, "CHUNK", 7)
    monkeypatch.setattr(replay_mod, "SNAPSHOTS", 3)
    monkeypatch.setattr(replay_source, "SNAPSHOTS", 3)
    from banco.cli.referee.replay_shell import ReplayStepper

    monkeypatch.setattr(ReplayStepper, "WINDOW", 4)

    def run(db, *args):
        result = CliRunner().invoke(cli, ["--db", db, *args], catch_exceptions=False)
        return result.exit_code, result.output

    return run


_STEPS: dict[int, tuple[list, list]] = {}


def _steps(events) -> list:
    """The whole log's steps, worked out once a game (the reference every reading is held to)."""
    kept = _STEPS.get(id(events))
    if kept is None or kept[0] is not events:
        kept = _STEPS[id(events)] = (events, list(steps(events, 1)))
    return kept[1]


def _expected_text(events, first=None, last=None) -> str:
    chosen = select(_steps(events), first, last)
    lines = header_lines(chosen[-1].after, 1) + ["\n".join(step_lines(s)) for s in chosen]
    return "\n".join(lines) + "\n"


def _expected_json(events, first=None, last=None) -> str:
    chosen = select(_steps(events), first, last)
    doc = {"game": 1, "steps": [step_document(s, describe) for s in chosen]}
    return json.dumps(doc, ensure_ascii=False, indent=2) + "\n"


def test_the_undo_game_has_what_the_streaming_must_get_right(games):
    _db, events = games["undo"]
    undos = [e for e in events if e["type"] == "EventRetracted"]
    assert len(undos) >= 10
    # undos in a row: the second takes back a command before the first one's
    in_a_row = [b for a, b in zip(undos, undos[1:], strict=False) if b["seq"] - a["seq"] <= 2]
    assert in_a_row


@pytest.mark.parametrize("name", ["undo", "four"])
def test_replay_of_the_whole_game_streamed(games, streamed, name):
    db, events = games[name]
    assert streamed(db, "replay") == (0, _expected_text(events))
    assert streamed(db, "replay", "--json") == (0, _expected_json(events))


@pytest.mark.parametrize("name", ["undo", "four"])
def test_replay_from_the_middle_starts_from_the_table_there(games, streamed, name):
    db, events = games[name]
    last = events[-1]["seq"]
    undos = [e["seq"] for e in events if e["type"] == "EventRetracted"][:3]
    # right after undos (a table kept, or not, for the command it takes back), and anywhere
    for first in sorted({2, 9, 10, 40, last // 2, last - 3, last, *undos, *(s + 1 for s in undos)}):
        first = min(first, last)
        # to the end only from the second half: from an early seq it is the whole game again
        # (half this test's time), and where the reading starts is the same with a --to; the
        # whole game is test_replay_of_the_whole_game_streamed's
        for to in ((None,) if first >= last // 2 else ()) + (min(last, first + 25),):
            args = ["--from", str(first), *(["--to", str(to)] if to else [])]
            assert streamed(db, "replay", *args) == (0, _expected_text(events, first, to)), args
            assert streamed(db, "replay", *args, "--json") == (
                0, _expected_json(events, first, to)), args


def test_replay_by_time_and_an_empty_range(games, streamed):
    db, events = games["undo"]
    when = events[len(events) // 2]["recorded_at"]
    at = seq_at(events, parse_moment(when))
    assert streamed(db, "replay", "--from", when) == (0, _expected_text(events, at))
    code, out = streamed(db, "replay", "--from", "9999")
    assert code == 2 and "there is no event 9999" in out
    # --from after --to: a slip, said (a referee's trial found the empty answer misleading)
    for more in ([], ["--json"]):
        code, out = streamed(db, "replay", "--from", "5", "--to", "3", *more)
        assert code == 2 and "--from 5 comes after --to 3" in out, out
    # --from a time before the game: the whole game (a referee's trial got "nothing recorded")
    code, out = streamed(db, "replay", "--from", "2020-01-01", "--json")
    _, whole = streamed(db, "replay", "--json")
    assert code == 0 and out == whole
    code, out = streamed(db, "replay", "--to", "2020-01-01")
    assert code == 2 and "nothing was recorded by 2020-01-01" in out
    last = events[-1]["seq"]
    code, out = streamed(db, "replay", "--from", str(last), "--to", str(last), "--json")
    assert code == 0 and len(json.loads(out)["steps"]) == 1


def test_a_time_is_found_from_the_times_alone(games):
    db, events = games["undo"]
    book = Book(db)
    for i in (0, 3, 50, 400):
        text = _when(i)[:16].replace("T", " ")
        moment = parse_moment(text + "Z")
        assert moment_seq(book.store, 1, moment) == seq_at(events, moment), text
    early = parse_moment("2020-01-01")
    with pytest.raises(Exception, match="nothing was recorded by 2020-01-01"):
        moment_seq(book.store, 1, early)
    with pytest.raises(Exception, match="there is no event 99999"):
        moment_seq(book.store, 1, parse_moment("99999"))


def test_export_text_streamed(games, streamed, tmp_path):
    for name in ("undo", "four"):
        db, events = games[name]
        target = tmp_path / f"{name}.txt"
        code, _ = streamed(db, "export", "--format", "text", "-o", str(target))
        assert code == 0
        assert target.read_text(encoding="utf-8") == _expected_text(events)


def test_show_reads_the_event_its_command_and_the_undos(games, streamed):
    db, events = games["undo"]
    gone = taken_back(events)
    for e in events[:: max(1, len(events) // 60)] + [events[-1]]:
        code, out = streamed(db, "show", str(e["seq"]), "--json")
        doc = json.loads(out)
        assert code == 0
        assert doc["event"] == {k: e[k] for k in ("seq", "type", "data", "recorded_at", "actor",
                                                  "command_id", "schema_version", "prev_hash",
                                                  "hash")}
        assert doc["command"] == [x["seq"] for x in events if x["command_id"] == e["command_id"]]
        assert doc["taken_back_at"] == gone.get(e["seq"])
        code, text = streamed(db, "show", str(e["seq"]))
        assert text.startswith(f"event {e['seq']} of game 1: {e['type']}\n")
        if e["seq"] in gone:
            assert f"taken back at event {gone[e['seq']]} (an undo)" in text
    code, out = streamed(db, "show", str(events[-1]["seq"] + 1))
    assert code == 2 and f"has events 1 to {events[-1]['seq']}" in out


def test_the_table_at_a_moment_from_a_snapshot_is_the_fold(games):
    """`Book.state(at=)` starts from the newest snapshot no undo reaches behind: the same
    table as the fold of the log up to that moment, at every moment of a game with undos."""
    db, events = games["undo"]
    book = Book(db)
    assert len(book.store.snapshots(1)) >= 3
    for at in range(events[0]["seq"] + 1, events[-1]["seq"] + 1):
        if any(e["type"] == "GameStarted" for e in events[:at]):
            assert book.state(1, at=at) == fold(events[:at], 1), at


@pytest.fixture(scope="module")
def ruled(tmp_path_factory, games):
    """Games with every kind of dispute: late claims, auctions (re-auctions), bankruptcies,
    jail stays, and undos.  The classic game is `games`' own (only read: recorded once)."""
    folder = tmp_path_factory.mktemp("ruled")
    out = {"classic-4p": games["four"]}
    for name in ("vintage-to-a-bankruptcy", "championship-4p", "classic-to-the-end"):
        db = record(str(folder / f"{name}.db"), name)
        book = Book(db)
        out[name] = (db, list(book.events(1)))
        book.close()
    return out


def _ruling(kind, log, seq, **args):
    from banco.ledger.base.errors import UsageError
    from banco.projections.referee import rulings

    try:
        return rulings.KINDS[kind](log, seq, game_id=1, **args).document()
    except UsageError as exc:
        return str(exc)


# the facts a ruling is asked about (a landing that owes rent opens a claim): a claim, a rent,
# an auction's, a bankruptcy's, a stay in jail's
RULED = frozenset({"RentClaimOpened", "RentPaid", "RentClaimRefused",
                   "AuctionOpened", "BidPlaced", "AuctionWon", "AuctionClosed", "AuctionVoided",
                   "BankruptcyDeclared", "EstateTransferred", "SentToJail", "JailRollFailed",
                   "LeftJail", "FinePaid", "DebtIncurred", "RentClaimLapsed", "PropertyDeclined"})


def test_every_ruling_from_the_book_is_the_ruling_from_the_whole_log(ruled, games, streamed):
    from banco.cli.ruling_log import BookLog

    kinds = {"rent": 0, "auction": 0, "bankruptcy": 0, "jail": 0}
    for db, events in [*ruled.values(), games["undo"]]:
        book = Book(db)
        last = events[-1]["seq"]
        # every other event a ruling may be about, a sample of the others and the ends: every
        # seq of five games took 40 s of the default run, every one a ruling is about 11 s
        about = {e["seq"] for e in events if e["type"] in RULED}
        about = set(sorted(about)[::2])
        for seq in sorted(about | set(range(0, last + 2, 41)) | {0, 1, last, last + 1}):
            for kind in kinds:
                args = {"claim_at": parse_moment(str(min(seq + 3, events[-1]["seq"])))} \
                    if kind == "rent" and seq % 2 else {}
                whole = _ruling(kind, events, seq, **args)
                assert _ruling(kind, BookLog(book, 1), seq, **args) == whole, (db, kind, seq)
                kinds[kind] += isinstance(whole, dict)
        book.close()
    assert all(kinds.values()), kinds  # each kind ruled on something


def test_a_ruling_through_the_cli_reads_the_book(ruled, streamed):
    from banco.cli.words.i18n import translations
    from banco.projections.referee import rulings

    db, events = ruled["vintage-to-a-bankruptcy"]
    declared = [e["seq"] for e in events if e["type"] == "BankruptcyDeclared"][-1]
    code, out = streamed(db, "ruling", "bankruptcy", str(declared))
    assert code == 0
    assert out == rulings.bankruptcy(events, declared, game_id=1).text(translations()) + "\n"


@pytest.mark.parametrize("rules", ["classic", "championship"])
def test_replay_rules_streams_the_recorded_game(games, streamed, rules):
    from banco.cli.referee.counterfactual_text import counterfactual_lines
    from banco.projections.referee.counterfactual import rerun

    db, events = games["undo"]
    for extra in ([], ["--skip-refused"]):
        whole = rerun(events, rules, skip_refused=bool(extra), game_id=1)
        code, out = streamed(db, "replay", "--rules", rules, *extra, "--json")
        assert json.loads(out) == json.loads(json.dumps(whole.document(describe)))
        code, out = streamed(db, "replay", "--rules", rules, *extra)
        assert out == "\n".join(counterfactual_lines(whole, 1)) + "\n"


def test_the_other_game_undone_from_a_kept_table_is_its_fold(games, monkeypatch):
    """The other rules' game is kept in a scratch file, and an undo of it goes back to a kept
    table: the same tables as folding its whole log again at every undo."""
    from banco.projections.referee import counterfactual

    _db, events = games["undo"]
    fast = counterfactual.rerun(events, "classic", game_id=1)
    assert fast.commands == fast.total and fast.stopped is None
    monkeypatch.setattr(counterfactual, "table_after_undo", lambda *args: None)
    slow = counterfactual.rerun(events, "classic", game_id=1)
    assert fast.other_final == slow.other_final == fold(events, 1)
    assert fast.document(describe) == slow.document(describe)


class _Shell:
    """What the replay stepper asks of the shell: the session, say, a line at a time."""

    def __init__(self, db, script):
        from banco.cli.session import Session

        self.session = Session(db, None)
        self.script = list(script)
        self.said: list[str] = []
        self.prompt = ""

    def say(self, text):
        self.said.append(text)

    def _read_line(self):
        self.said.append(f"[{self.prompt}]")
        return self.script.pop(0) if self.script else "quit"


def _stepped(db, start, script):
    from banco.cli.referee.replay_shell import ReplayStepper

    shell = _Shell(db, script)
    ReplayStepper(shell, start).run()
    shell.session.close()
    return shell.said


def test_the_shell_replay_steps_a_window_at_a_time(games, streamed, monkeypatch):
    """With a window of 4 steps read a chunk at a time, the stepper says what it says holding
    every step (a window larger than the game, the whole log read)."""
    from banco.cli.referee.replay_shell import ReplayStepper

    db, events = games["undo"]
    last = events[-1]["seq"]
    middle = events[last // 2]["recorded_at"]
    script = ["", "next", "next 3", "back", "back 2", "back 9", "next 40", "where", "back 30",
              "jump 7", "next 5", "jump 200", "back 150", f"jump {last}", "next", "next 2",
              "back 999", "back", f"jump {middle}", "next 600", "where", "jump", "nonsense",
              "jump 0", "quit"]
    streamed_out = {start: _stepped(db, start, script) for start in ("", "60", middle)}
    monkeypatch.undo()
    monkeypatch.setattr(ReplayStepper, "WINDOW", 10**6)
    for start, said in streamed_out.items():
        whole = _stepped(db, start, script)
        assert said == whole, start
    assert any("that was the last command" in line for line in whole)
    assert any("the game's first command" in line for line in whole)


@pytest.mark.parametrize("as_json", [False, True])
def test_state_at_reads_what_it_needs_once(games, monkeypatch, as_json):
    """`state --at` counted the game's rows twice (rows_view's COUNT(*), 11 ms each on a
    300,002-event game): once to find the moment, again for its notes (issue 32, 17); then
    once, though the last seq it reads says how many there are; and it read the game's undos
    three times (the table, the notes, the document: 7 ms each at 300,000 events)."""
    from banco.ledger.store import reading
    from banco.ledger.store.sqlite import SQLiteStore

    db, events = games["undo"]
    views, types = [], []
    real, real_read = reading.rows_view, SQLiteStore.read

    def counted(store, game_id, count=None):
        views.append((game_id, count))
        return real(store, game_id, count)

    def typed(self, game_id, *args, **kwargs):
        types.extend(kwargs.get("types") or ())
        return real_read(self, game_id, *args, **kwargs)

    monkeypatch.setattr(reading, "rows_view", counted)
    monkeypatch.setattr(SQLiteStore, "read", typed)
    at = events[len(events) // 2]["seq"]
    said = CliRunner().invoke(cli, ["--db", db, "state", "--at", str(at),
                                    *(["--json"] if as_json else [])])
    assert said.exit_code == 0, said.output
    assert views == [(1, len(events))]  # the count given: no COUNT(*)
    assert types.count("EventRetracted") == 1
