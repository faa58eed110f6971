"""The book over the store: commands recorded beside their facts, retries, --expect, the chain
checked on every read, a game's identity."""

import sqlite3
import uuid

import pytest

from banco.ledger.base.errors import ConflictError, DatabaseError, RuleViolation, UsageError
from banco.ledger.book import Book
from banco.ledger.records import commands as c
from banco.ledger.records.command_codec import decode
from banco.ledger.records.reasons import english
from banco.ledger.store.sqlite import NewEvent
from banco.ledger.table.state import fold

NOW = "2026-11-29T10:00:00.000000Z"


@pytest.fixture
def book(tmp_path):
    warnings = []
    b = Book(str(tmp_path / "b.db"), warn=warnings.append)
    b.warnings = warnings
    yield b
    b.close()


def types(rows):
    return [r["type"] for r in rows]


def late_claim(book, g):
    """Bruno lands on Anna's lot, Carla rolls: Anna's claim is refused and its refusal kept."""
    for cmd, line in ((c.Roll((1, 2)), "roll 1 2"), (c.Buy(), "buy"),
                      (c.Roll((2, 1)), "roll 2 1"), (c.Roll((3, 4)), "roll 3 4")):
        book.execute(g, cmd, now=NOW, line=line)
    return book.execute(g, c.Claim("Anna"), now=NOW, line="claim anna", command_id="late")


def test_every_batch_begins_with_the_command_as_given(book):
    g = book.new_game(["Anna", "Bruno", "Carla"], now=NOW, line="new Anna Bruno Carla")
    refused = late_claim(book, g)
    assert refused.refused is not None and types(refused.events) == ["CommandRecorded",
                                                                     "RentClaimRefused"]
    book.execute(g, c.DrawCard("imprevisti", 5), now=NOW, line="card imprevisti 5")
    book.undo(g, now=NOW, line="undo")
    batches = list(book.commands(g))
    assert [b.line for b in batches] == ["new Anna Bruno Carla", "roll 1 2", "buy", "roll 2 1",
                                         "roll 3 4", "claim anna", "card imprevisti 5", "undo"]
    # the facts of each command follow its CommandRecorded, in the same transaction
    assert types(batches[0].events)[:2] == ["GameStarted", "CashIssued"]
    assert batches[0].recorded_seq == 1 and batches[0].events[0]["seq"] == 2
    assert batches[0].command is None and batches[-1].command is None  # new, undo
    assert decode(batches[1].command) == c.Roll((1, 2))
    assert decode(batches[5].command) == c.Claim("Anna")
    assert types(batches[-1].events) == ["EventRetracted"]
    for b in batches:
        assert all(e["command_id"] == b.command_id for e in b.events)


def test_the_seqs_a_command_decides_are_the_seqs_its_facts_get(book):
    g = book.new_game(["Anna", "Bruno", "Carla"], now=NOW)
    refused = late_claim(book, g)
    by_seq = {e["seq"]: e for e in book.events(g)}
    d = refused.events[-1]["data"]
    assert by_seq[d["opened_seq"]]["type"] == "RentClaimOpened"
    assert by_seq[d["lapsed_seq"]]["type"] == "RentClaimLapsed"


def test_decide_sees_the_table_with_the_command_recorded(book, monkeypatch):
    """A fact that points at another fact of the same command (a debt and its settlement,
    say) must point at the seq it gets: decide numbers from after the CommandRecorded."""
    import banco.ledger.rules.decide as decide_module

    seen = []
    real = decide_module.decide

    def spy(state, command):
        seen.append(state.seq)
        return real(state, command)

    monkeypatch.setattr(decide_module, "decide", spy)
    g = book.new_game(["Anna", "Bruno"], now=NOW)
    rows = book.execute(g, c.Roll((1, 2)), now=NOW).events
    assert rows[0]["type"] == "CommandRecorded" and seen == [rows[0]["seq"]]
    assert rows[1]["seq"] == seen[0] + 1


def test_an_undo_does_not_reach_behind_a_late_claims_refusal(book):
    """Undoing the roll that closed the window, after the claim was refused as too late, would
    let the claim in again, paid as in time, beside its own refusal (the last trial)."""
    g = book.new_game(["Anna", "Bruno", "Carla"], now=NOW, line="new Anna Bruno Carla")
    refused = late_claim(book, g)
    at = refused.events[-1]["seq"]
    before = book.state(g)
    with pytest.raises(RuleViolation, match=f"event {at} keeps Anna's rent claim refused") as exc:
        book.undo(g, now=NOW, line="undo")
    assert f"ruling rent {at}" in str(exc.value.allowed)
    assert book.state(g) == before  # nothing appended
    with pytest.raises(RuleViolation, match="too late"):
        book.execute(g, c.Claim("Anna"), now=NOW, line="claim anna")
    # a command after the refusal is undone as before; the refusal stays where it is
    book.execute(g, c.DrawCard("imprevisti", 5), now=NOW, line="card imprevisti 5")
    undone = book.undo(g, now=NOW, line="undo").events
    assert types(undone) == ["CommandRecorded", "EventRetracted"]
    assert min(undone[-1]["data"]["seqs"]) > at


def test_undo_never_takes_back_a_recorded_command(book):
    g = book.new_game(["Anna", "Bruno"], now=NOW)
    book.execute(g, c.Roll((1, 2)), now=NOW, line="roll 1 2")
    rows = book.undo(g, now=NOW, line="undo").events
    retracted = rows[-1]["data"]
    kinds = {e["seq"]: e["type"] for e in book.events(g)}
    assert retracted["seqs"] and "CommandRecorded" not in {kinds[s] for s in retracted["seqs"]}
    assert english(retracted["reason"]).endswith("(`roll 1 2`)")
    with pytest.raises(RuleViolation, match="nothing to undo"):
        book.undo(g, now=NOW)  # the undo's own CommandRecorded is not a command to undo


def test_a_repeated_command_id_records_once_and_answers_the_same(book):
    g = book.new_game(["Anna", "Bruno"], now=NOW)
    first = book.execute(g, c.Roll((1, 2)), now=NOW, command_id="k1", line="roll 1 2")
    count = len(book.events(g))
    again = book.execute(g, c.Roll((1, 2)), now=NOW, command_id="k1", line="roll 1 2")
    assert again.replayed and not first.replayed
    assert [r["hash"] for r in again.events] == [r["hash"] for r in first.events]
    assert len(book.events(g)) == count
    # even when the command could not be decided again now (Anna must buy or decline)
    assert book.execute(g, c.Roll((1, 2)), now=NOW, command_id="k1").replayed
    undone = book.undo(g, now=NOW, command_id="u1")
    assert book.undo(g, now=NOW, command_id="u1").events == undone.events


def test_a_repeated_refusal_is_refused_again_without_a_second_record(book):
    g = book.new_game(["Anna", "Bruno", "Carla"], now=NOW)
    first = late_claim(book, g)
    count = len(book.events(g))
    again = book.execute(g, c.Claim("Anna"), now=NOW, command_id="late")
    assert again.replayed and again.refused is not None and "already recorded" in str(
        again.refused)
    assert len(book.events(g)) == count and first.events == again.events


def test_a_repeated_start_returns_the_same_game(book):
    first = book.start(["Anna", "Bruno"], now=NOW, command_id="s1")
    again = book.start(["Anna", "Bruno"], now=NOW, command_id="s1")
    assert again.replayed and again.game_id == first.game_id == 1
    assert len(book.games()) == 1


def test_expect_refuses_a_command_decided_on_another_table(book):
    g = book.new_game(["Anna", "Bruno"], now=NOW)
    seen = book.state(g).seq
    book.execute(g, c.Roll((1, 2)), now=NOW, line="roll 1 2")  # another terminal
    before = len(book.events(g))
    with pytest.raises(ConflictError, match=rf"game 1 has moved past event {seen}: it is at "
                                            r"event \d+; the last command was `roll 1 2`"):
        book.execute(g, c.Buy(), now=NOW, expect=seen)
    with pytest.raises(ConflictError, match="has not reached event 99"):
        book.undo(g, now=NOW, expect=99)
    assert len(book.events(g)) == before
    book.execute(g, c.Buy(), now=NOW, expect=book.state(g).seq)  # the right seq: recorded


def test_the_last_command_is_found_by_index(book):
    g = book.new_game(["Anna", "Bruno"], now=NOW, line="new Anna Bruno")
    last = book.last_command(g)
    assert (last.line, last.first_seq, last.last_seq) == ("new Anna Bruno", 1, 4)
    book.execute(g, c.Roll((1, 2)), now=NOW, line="roll 1 2")
    last = book.last_command(g)
    assert last.line == "roll 1 2" and last.first_seq == 5
    assert last.types[:2] == ("DiceRolled", "TokenMoved") and last.last_seq == book.state(g).seq


def test_each_game_has_its_own_identity(book):
    a = book.new_game(["Anna", "Bruno"], now=NOW)
    b = book.new_game(["Anna", "Bruno"], now=NOW)
    ids = [book.events(g)[1]["data"]["game_uuid"] for g in (a, b)]
    assert ids[0] != ids[1] and all(uuid.UUID(i) for i in ids)
    assert [g["uuid"] for g in book.games()] == ids
    fixed = "1b4e28ba-2fa1-11d2-883f-0016d3cca427"
    c_ = book.start(["Ada", "Bea"], now=NOW, game_uuid=fixed.upper()).game_id
    assert book.events(c_)[1]["data"]["game_uuid"] == fixed
    with pytest.raises(UsageError, match="already has the identity"):
        book.start(["Ada", "Bea"], now=NOW, game_uuid=fixed)
    with pytest.raises(UsageError, match="not a uuid"):
        book.start(["Ada", "Bea"], now=NOW, game_uuid="nope")


def test_the_table_before_the_game_exists_is_a_clear_error(book):
    g = book.new_game(["Anna", "Bruno"], now=NOW)
    with pytest.raises(UsageError, match="event 1 records the command that started game 1; "
                                         "the table exists from event 2"):
        book.state(g, at=1)
    assert book.state(g, at=2).players[0].cash == 0  # seated, not yet paid


def _tamper(book, sql):
    conn = sqlite3.connect(book.store.path)
    conn.execute("DROP TRIGGER events_no_update")
    conn.execute(sql)
    conn.commit()
    conn.close()


def test_a_read_warns_once_on_a_broken_chain_and_still_shows_the_table(tmp_path):
    path = str(tmp_path / "t.db")
    writer = Book(path)
    g = writer.new_game(["Anna", "Bruno"], now=NOW)
    writer.execute(g, c.Roll((1, 2)), now=NOW)
    writer.execute(g, c.Buy(), now=NOW)
    paid = next(e["seq"] for e in writer.events(g) if e["type"] == "PropertyBought")
    _tamper(writer, f"UPDATE events SET data=replace(data, '\"amount\":60', '\"amount\":6') "
                    f"WHERE seq={paid}")
    warnings = []
    reader = Book(path, warn=warnings.append)
    assert reader.state(g).player("Anna").cash == 1494  # shown as recorded, edited or not
    assert warnings == [f"WARNING: game 1 event {paid} does not match its hash: run "
                        "`banco audit`"]
    reader.events(g)
    reader.state(g)
    assert len(warnings) == 1
    writer.close()
    reader.close()


def test_the_chain_is_checked_incrementally(book, monkeypatch):
    """Rows are read and checked against the chain once: a later reading checks only what came
    since, and the rows a command writes are folded as written, not read back."""
    calls = []
    real = book.store.read

    def counting(*args, **kwargs):
        rows = real(*args, **kwargs)
        if kwargs.get("prev_hash") is not None:  # read against the chain
            calls.extend(r["seq"] for r in rows)
        return rows

    monkeypatch.setattr(book.store, "read", counting)
    g = book.new_game(["Anna", "Bruno"], now=NOW)
    book.state(g)
    assert calls == [1, 2, 3, 4]
    calls.clear()
    book.execute(g, c.Roll((1, 2)), now=NOW)
    book.state(g)
    assert calls == []  # its own rows: folded as written
    other = Book(book.store.path)  # another process's command: read and checked, only it
    rows = other.execute(g, c.Buy(), now=NOW).events
    other.close()
    book.state(g)
    assert calls == [r["seq"] for r in rows] and rows


def test_an_event_type_this_banco_does_not_know_is_named(book):
    g = book.new_game(["Anna", "Bruno"], now=NOW)
    book.store.append(g, 4, [NewEvent("TimeTravelled", {"to": 1999})], recorded_at=NOW,
                      actor="future", command_id="f")
    fresh = Book(book.store.path)
    with pytest.raises(DatabaseError, match="game 1 event 5 has type 'TimeTravelled' this banco "
                                            "does not know"):
        fresh.state(g)
    fresh.close()


def test_a_refused_first_game_leaves_no_file(tmp_path):
    path = tmp_path / "none.db"
    b = Book(str(path))
    with pytest.raises(RuleViolation, match="at least two players"):
        b.new_game(["Anna"], now=NOW)
    assert not path.exists()
    b.close()


def test_the_live_table_equals_a_cold_fold_of_the_log(book):
    g = book.new_game(["Anna", "Bruno", "Carla"], now=NOW)
    late_claim(book, g)
    book.execute(g, c.DrawCard("imprevisti", 5), now=NOW)
    book.undo(g, now=NOW)
    assert fold(book.store.read(g), g) == book.state(g)


def test_the_checked_stream_reads_a_chunk_at_a_time_and_warns_on_a_broken_chain(tmp_path,
                                                                                monkeypatch):
    path = str(tmp_path / "s.db")
    writer = Book(path)
    g = writer.new_game(["Anna", "Bruno"], now=NOW)
    for cmd in (c.Roll((1, 2)), c.Buy(), c.Roll((2, 1)), c.Roll((3, 4))):
        writer.execute(g, cmd, now=NOW)
    whole = writer.events(g)
    monkeypatch.setattr(Book, "CHUNK", 3)  # several chunks, one ending exactly at the end
    assert list(writer.checked(g)) == whole
    assert list(writer.checked(g, 4, 9)) == whole[3:9]
    assert list(writer.checked(g, len(whole) - 2)) == whole[-3:]
    paid = next(e["seq"] for e in whole if e["type"] == "PropertyBought")
    _tamper(writer, f"UPDATE events SET data=replace(data, '\"amount\":60', '\"amount\":6') "
                    f"WHERE seq={paid}")
    warnings = []
    reader = Book(path, warn=warnings.append)
    assert len(list(reader.checked(g, 2))) == len(whole) - 1  # shown, edited or not
    assert warnings == [f"WARNING: game 1 event {paid} does not match its hash: run "
                        "`banco audit`"]
    with pytest.raises(UsageError, match="no game 7"):
        list(reader.checked(7))
    writer.close()
    reader.close()


def test_a_clock_set_back_is_recorded_at_the_games_last_time_said_and_audited(tmp_path):
    """A banker's computer whose clock was set back an hour mid-game: its commands are
    recorded at the game's last time (a game's times never go back), the banker is warned
    once, and the audit, which fails a time going back, passes the game."""
    from banco.ledger.records import commands as c
    from banco.projections.audit.audit_games import audit_game

    warnings: list = []
    book = Book(str(tmp_path / "clock.db"), warn=warnings.append)
    g = book.new_game(["Anna", "Bruno"], now="2026-11-29T22:00:00.000000Z")
    book.execute(g, c.Roll((3, 4)), now="2026-11-29T21:00:00.000000Z")
    book.undo(g, now="2026-11-29T21:00:05.000000Z")
    book.execute(g, c.Roll((1, 2)), now="2026-11-29T22:00:09.000000Z")
    times = [e["recorded_at"] for e in book.events(g)]
    assert times == sorted(times) and times[-1] == "2026-11-29T22:00:09.000000Z"
    assert times.count("2026-11-29T22:00:00.000000Z") == len(times) - 4
    assert [str(w) for w in warnings] == [
        "WARNING: this computer's clock reads 2026-11-29T21:00:00.000000Z, before game 1's "
        "last event: recorded at 2026-11-29T22:00:00.000000Z, since a game's times never go "
        "back; set the clock"]
    assert audit_game(book.store, g).ok
    book.close()


def test_a_write_looks_at_the_log_s_guards_without_the_doctor_s_checks(tmp_path):
    """A write looks once for the log's guards (Book._look_at_guards); it imported health.py
    for it, the doctor's checks of every table (tokens, tournaments, maintenance): ~10 ms of
    a cold write (issue 31's budget: a write <= 1.2x of `sqlite-utils tables`); and difflib,
    which only a misspelt name needs."""
    import os
    import subprocess
    import sys

    db = str(tmp_path / "w.db")
    Book(db).start(["Anna", "Bruno"], "classic", "it", now=NOW)
    script = (
        "import sys\n"
        "from banco.cli.main import cli\n"
        "try:\n"
        f"    cli(['--db', {db!r}, 'roll', '3', '4'], standalone_mode=False)\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(sorted({'banco.ledger.store.health', 'difflib'} & set(sys.modules)),"
        " file=sys.stderr)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60, env={**os.environ, "BANCO_LANG": "en"})
    assert done.returncode == 0, done.stderr
    assert "rolls 3+4" in done.stdout, done.stdout
    assert done.stderr.strip().splitlines()[-1] == "[]"
