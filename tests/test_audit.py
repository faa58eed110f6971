"""The audit names the first bad event, whatever was done to the log."""

import hashlib
import json
import sqlite3

import pytest
from helpers import claimed_rent_book

from banco.ledger.book import Book
from banco.ledger.records import commands as c
from banco.ledger.store.canonical import GENESIS, HASHED_FIELDS, canonical_json
from banco.projections.audit.audit import audit

NOW = "2026-11-29T10:00:00.000000Z"


@pytest.fixture
def book(tmp_path):
    b = claimed_rent_book(str(tmp_path / "a.db"), NOW)
    yield b
    b.close()


def tamper(book, *sql, rechain=False):
    conn = sqlite3.connect(book.store.path)
    conn.execute("DROP TRIGGER IF EXISTS events_no_update")
    conn.execute("DROP TRIGGER IF EXISTS events_no_delete")
    for s in sql:
        conn.execute(s)
    if rechain:  # a forger who recomputes every hash after the edit
        prev = GENESIS
        rows = conn.execute("SELECT game_id, seq, type, data, recorded_at, actor, command_id, "
                            "schema_version, chain_version, table_digest FROM events "
                            "ORDER BY seq").fetchall()
        for g, seq, t, d, at, actor, cid, v, chain, table in rows:
            row = {"game_id": g, "seq": seq, "type": t, "data": json.loads(d),
                   "recorded_at": at, "actor": actor, "command_id": cid, "schema_version": v,
                   "chain_version": chain, "table_digest": table}
            # the row's own field set (canonical.HASHED_FIELDS), floats let through
            body = json.dumps({k: row[k] for k in HASHED_FIELDS[chain]}, sort_keys=True,
                              separators=(",", ":"), ensure_ascii=False)
            h = hashlib.sha256((prev + body).encode()).hexdigest()
            conn.execute("UPDATE events SET prev_hash=?, hash=? WHERE seq=?", (prev, h, seq))
            prev = h
    conn.commit()
    conn.close()


def rent_seq(book):
    return next(e["seq"] for e in book.store.read(1) if e["type"] == "RentPaid")


def test_clean_game(book):
    r = audit(1, book.store.read(1))
    assert r.ok and r.events == len(book.store.read(1)) and r.head == book.store.head(1)


def test_edited_event(book):
    seq = rent_seq(book)
    tamper(book, f"UPDATE events SET data=replace(data, '\"amount\":4', '\"amount\":40') WHERE seq={seq}")
    r = audit(1, book.store.read(1))
    assert (r.bad_seq, r.problem.startswith("hash chain")) == (seq, True)


def test_deleted_event(book):
    tamper(book, "DELETE FROM events WHERE seq=7")
    r = audit(1, book.store.read(1))
    assert r.bad_seq == 7 and "missing" in r.problem


def test_reordered_events(book):
    tamper(book, "UPDATE events SET seq=-6 WHERE seq=6", "UPDATE events SET seq=6 WHERE seq=7",
           "UPDATE events SET seq=7 WHERE seq=-6")
    assert audit(1, book.store.read(1)).bad_seq == 6


def test_rechained_float_is_caught(book):
    seq = rent_seq(book)
    tamper(book, f"UPDATE events SET data=replace(data, '\"amount\":4', '\"amount\":4.5') WHERE seq={seq}",
           rechain=True)
    r = audit(1, book.store.read(1))
    assert r.bad_seq == seq and "float" in r.problem


def test_rechained_unknown_field_is_caught_by_the_schema(book):
    seq = rent_seq(book)
    tamper(book, f"UPDATE events SET data=replace(data, '\"amount\":4', '\"amount\":4,\"tip\":1') WHERE seq={seq}",
           rechain=True)
    r = audit(1, book.store.read(1))
    assert r.bad_seq == seq and r.problem.startswith("schema") and "tip" in r.problem


def test_rechained_money_from_nowhere_is_caught_by_the_fold(book):
    seq = rent_seq(book)
    tamper(book, f"UPDATE events SET data=replace(data, '\"amount\":4', '\"amount\":4000') WHERE seq={seq}",
           rechain=True)
    r = audit(1, book.store.read(1))
    assert r.bad_seq == seq
    # Vicolo Stretto unbuilt, its group incomplete: the deed's base rent, 4 M; Bruno still had
    # his 1500 M starting cash, so 1500 - 4000.
    opened = next(e["seq"] for e in book.store.read(1) if e["type"] == "RentClaimOpened")
    # ...and the claim (event seq - 1) re-derived gives the deed's rent, not the forged one
    assert r.problem == (f"the rent on Vicolo Stretto is 4000 M; the claim opened at event "
                         f"{opened} gives 4 M; Bruno's cash is negative (-2500); not what the "
                         f"command (event {seq - 1}) gives here: RentPaid has amount 4000 where "
                         "the command gives 4")


def test_rechained_history_is_caught_by_a_printed_head(book):
    printed = book.store.head(1)
    seq = rent_seq(book)
    # A reason is re-derived, as data (the claim gives the code `rent` on Vicolo Stretto):
    tamper(book, f"UPDATE events SET data=replace(data, '\"code\":\"rent\"', "
                 f"'\"code\":\"rent_asked\"') WHERE seq={seq}", rechain=True)
    r = audit(1, book.store.read(1))
    assert r.bad_seq == seq and 'has reason {"code": "rent_asked"' in r.problem
    # The time of one fact apart from its command's: a command is written at once
    tamper(book, f"UPDATE events SET data=replace(data, 'rent_asked', 'rent'), "
                 f"recorded_at='2026-11-29T09:00:00.000000Z' WHERE seq={seq}", rechain=True)
    r = audit(1, book.store.read(1))
    assert r.bad_seq == seq and "written at once, by one hand" in r.problem
    # A whole command's time moved an hour back, by a forger who re-chains: the times go back
    # past a clock's correction (it passed, before the audit held the times to each other)
    tamper(book, "UPDATE events SET recorded_at='2026-11-29T09:00:00.000000Z' WHERE "
                 f"command_id=(SELECT command_id FROM events WHERE seq={seq})", rechain=True)
    r = audit(1, book.store.read(1))
    assert not r.ok and "a game's times go back by 120 s at most" in r.problem
    # An edit no rule, no command and no time can see (a minute back, as a clock corrected):
    tamper(book, "UPDATE events SET recorded_at='2026-11-29T09:59:00.000000Z' WHERE "
                 f"command_id=(SELECT command_id FROM events WHERE seq={seq})", rechain=True)
    assert audit(1, book.store.read(1)).ok  # the chain alone is consistent again...
    r = audit(1, book.store.read(1), expect_head=printed)
    assert not r.ok and "rewritten" in r.problem  # ...but the printed head is gone


def test_canonical_json_is_stable():
    assert canonical_json({"b": 1, "a": [2, "è"]}) == '{"a":[2,"è"],"b":1}'
    with pytest.raises(TypeError, match='got the float 1.0'):
        canonical_json({"amount": 1.0})


def test_rechained_house_from_nowhere_is_caught_by_the_table_checks(book):
    """A forged house on a lot nobody owns whole: chain and schema are fine, the table is not."""
    from banco.ledger.store.sqlite import NewEvent

    book.store.append(1, book.store.last_seq(1), [NewEvent("HouseBuilt", {
        "player": "Carla", "property": 39, "level": 1, "bank_houses": -1, "bank_hotels": 0,
        "payer": "Carla", "payee": "bank", "amount": 200, "reason": "forged"})],
        recorded_at=NOW, actor="forger", command_id="forged")
    r = audit(1, book.store.read(1))
    assert r.bad_seq == book.store.last_seq(1) and "nobody owns whole" in r.problem


# --- re-derivation: what no command gives, found in a chain made whole again ------------------

def forged(book, *sql, start=1):
    from forge import drop_triggers, rechain_stored

    conn = sqlite3.connect(book.store.path)
    drop_triggers(conn)
    for s in sql:
        conn.execute(s)
    rechain_stored(conn, 1, start)
    conn.commit()
    conn.close()


def seq_of(book, type_, nth=0):
    return [e["seq"] for e in book.store.read(1) if e["type"] == type_][nth]


def test_forged_dice_are_not_what_the_roll_gives(book):
    # the roll recorded as 1 2, its DiceRolled changed to 6 6: the chain is whole again
    seq = seq_of(book, "DiceRolled")
    forged(book, f"UPDATE events SET data=replace(data, '\"dice\":[1,2]', '\"dice\":[6,6]') "
                 f"WHERE seq={seq}")
    r = audit(1, book.store.read(1))
    assert r.bad_seq == seq
    assert r.problem.endswith("not what the command (event 6) gives here: DiceRolled has dice "
                              "[6, 6] where the command gives [1, 2]")


def test_a_forged_cash_issue_with_a_command_of_its_own_is_refused(book):
    """A forger who also writes a CommandRecorded before the forged money: no command gives a
    CashIssued in the middle of a game."""
    last = book.store.last_seq(1)
    cmd = json.dumps({"command": {"fields": {"dice": [2, 2], "player": None, "speedy": None},
                                  "kind": "Roll"}, "line": "roll 2 2"}, sort_keys=True,
                     separators=(",", ":"))
    money = canonical_json({"payer": "bank", "payee": "Carla", "amount": 1000000,
                            "reason": "starting cash"})
    forged(book, *(f"INSERT INTO events (game_id, seq, type, data, recorded_at, actor, "
                   f"command_id, schema_version, prev_hash, hash, chain_version) VALUES (1, "
                   f"{last + i}, '{t}', '{d}', '{NOW}', 'banker', 'forged', 1, '', '', 2)"
                   for i, (t, d) in enumerate((("CommandRecorded", cmd),
                                               ("CashIssued", money)), start=1)),
           start=last + 1)
    r = audit(1, book.store.read(1))
    assert r.bad_seq == last + 2  # Carla has a card to draw: nobody may roll
    assert r.problem.endswith(f"no command could have produced it: `roll 2 2` (event {last + 1}) "
                              "is refused here: cannot roll now")


def test_a_fact_with_no_command_before_it(book):
    last = book.store.last_seq(1)
    money = canonical_json({"payer": "bank", "payee": "Carla", "amount": 100000,
                            "reason": "starting cash"})
    forged(book, f"INSERT INTO events (game_id, seq, type, data, recorded_at, actor, command_id, "
                 f"schema_version, prev_hash, hash, chain_version) VALUES (1, {last + 1}, "
                 f"'CashIssued', '{money}', '{NOW}', 'banker', 'forged', 1, '', '', 2)",
           start=last + 1)
    r = audit(1, book.store.read(1))
    assert r.bad_seq == last + 1
    assert "starting cash issued to Carla a second time" in r.problem
    assert "recorded with no command before it" in r.problem


def test_an_undo_is_re_derived_and_the_table_goes_back(book):
    book.undo(1, now=NOW)  # Carla's roll, with the card it made her draw
    book.execute(1, c.Roll((1, 1)), now=NOW)
    r = audit(1, book.store.read(1))
    assert r.ok and r.commands == 8 and r.notes == []
    # the undo made to take back another command than the last: not what `undo` gives
    seq = seq_of(book, "EventRetracted")
    taken = book.store.read(1)[seq - 1]["data"]["seqs"]
    was = canonical_json({"seqs": taken})[1:-1]
    forged(book, f"UPDATE events SET data=replace(data, '{was}', '\"seqs\":[{taken[0] - 2}]') "
                 f"WHERE seq={seq}")
    r = audit(1, book.store.read(1))
    assert r.bad_seq == seq and "EventRetracted has seqs" in r.problem


def test_a_refused_command_recorded_with_facts(book):
    """A `buy` where nothing is on offer, its facts written in: the rules refuse it there."""
    last = book.store.last_seq(1)
    cmd = canonical_json({"command": {"fields": {"player": None}, "kind": "Buy"},
                          "line": "buy"})
    fact = canonical_json({"payer": "Carla", "payee": "bank", "amount": 60, "player": "Carla",
                           "property": 1, "reason": "bought Vicolo Corto"})
    forged(book, *(f"INSERT INTO events (game_id, seq, type, data, recorded_at, actor, "
                   f"command_id, schema_version, prev_hash, hash, chain_version) VALUES (1, "
                   f"{last + i}, '{t}', '{d}', '{NOW}', 'banker', 'forged', 1, '', '', 2)"
                   for i, (t, d) in enumerate((("CommandRecorded", cmd),
                                               ("PropertyBought", fact)), start=1)),
           start=last + 1)
    r = audit(1, book.store.read(1))
    assert r.bad_seq == last + 2
    assert "no command could have produced it: `buy` (event" in r.problem
    assert "is refused here: cannot buy now" in r.problem


def test_facts_after_the_end_no_command_records(tmp_path):
    from forge import drop_triggers, rechain_stored

    b = Book(str(tmp_path / "end.db"))
    g = b.new_game(["Anna", "Bruno"], rules="championship", now=NOW)
    b.execute(g, c.TimeUp(NOW), now=NOW)  # before the first roll: the game ends at once
    assert b.state(g).ended
    end = next(e["seq"] for e in b.store.read(g) if e["type"] == "GameEnded")
    last = b.store.last_seq(g)
    b.close()
    money = canonical_json({"payer": "bank", "payee": "Anna", "amount": 100000,
                            "reason": "starting cash"})
    conn = sqlite3.connect(tmp_path / "end.db")
    drop_triggers(conn)
    conn.execute(f"INSERT INTO events (game_id, seq, type, data, recorded_at, actor, command_id, "
                 f"schema_version, prev_hash, hash, chain_version) VALUES (1, {last + 1}, "
                 f"'CashIssued', '{money}', '{NOW}', 'banker', 'x', 1, '', '', 2)")
    rechain_stored(conn, 1, last + 1)
    conn.commit()
    conn.close()
    b = Book(str(tmp_path / "end.db"))
    r = audit(1, b.store.read(1))
    assert r.bad_seq == last + 1
    assert f"CashIssued after the game ended (event {end}): no command records that there" in \
        r.problem


def test_a_game_from_before_recorded_commands_says_what_was_not_re_derived(tmp_path):
    from format1 import OLD_DB

    from banco.ledger.store.sqlite import SQLiteStore

    store = SQLiteStore(str(OLD_DB))
    r = audit(1, store.raw_rows(1))
    assert r.ok and r.commands == 0
    assert r.notes == ["events 1-66 predate recorded commands: not re-derived (chain, schemas, "
                       "fold and checks only)"]
    store.close()


# --- the re-derivation's problems in Italian -------------------------------------------------

def italian():
    import gettext

    from banco.cli.words.i18n import DOMAIN, LOCALE_DIR

    return gettext.translation(DOMAIN, LOCALE_DIR, languages=["it"])


def test_forged_dice_are_named_in_italian_by_the_audit(book):
    from click.testing import CliRunner

    from banco.cli.main import cli

    seq = seq_of(book, "DiceRolled")
    forged(book, f"UPDATE events SET data=replace(data, '\"dice\":[1,2]', '\"dice\":[6,6]') "
                 f"WHERE seq={seq}")
    result = CliRunner().invoke(cli, ["--db", book.store.path, "--lang", "it", "audit"])
    assert result.exit_code == 3, result.output
    assert f"partita 1: NON SUPERATA all'evento {seq}: " in result.output
    assert "non è ciò che il comando (evento 6) dà qui: DiceRolled ha dice [6, 6] dove il " \
           "comando dà [1, 2]" in result.output
    assert "where the command gives" not in result.output


def test_each_difference_the_re_derivation_finds_said_in_italian():
    from banco.projections.audit.rederive import first_difference

    roll = {"type": "DiceRolled", "data": {"dice": [1, 2], "player": "Anna"}}
    moved = {"type": "TokenMoved", "data": {"to": 3}}
    cases = [
        ([roll], [{**roll, "data": {"dice": [1, 2], "extra": 1}}],
         "DiceRolled ha extra 1, che il comando non dà; non ha player (il comando dà \"Anna\")"),
        ([roll], [{**roll, "data": 7}], 'DiceRolled è 7, il comando dà {"dice": [1, 2], '
                                        '"player": "Anna"}'),
        ([roll], [moved], 'qui il comando dà DiceRolled {"dice": [1, 2], "player": "Anna"}, il '
                          "registro ha TokenMoved"),
        ([], [moved], "TokenMoved: non resta alcun fatto per questo evento (il comando ne dà: "
                      "nessun fatto)"),
        ([roll], [roll, moved], "TokenMoved: non resta alcun fatto per questo evento (il comando "
                                "ne dà: un fatto)"),
        ([roll, roll], [roll, roll, moved], "(il comando ne dà: 2 fatti)"),
        ([roll, moved], [roll], 'i fatti del comando si fermano prima: il successivo è '
                                'TokenMoved {"to": 3}'),
    ]
    tr = italian()
    for expected, facts, said in cases:
        where, why = first_difference(expected, facts)
        assert said in why.render(tr), (why.render(tr), said)
        assert why.render(None) == str(why)  # English as it was
    assert str(first_difference([], [moved])[1]) == \
        "TokenMoved: no fact is left for it: the command gives no fact"


def test_a_referee_s_command_is_recorded_and_audited_in_the_referee_s_name(book):
    """The book records a referee's command in the referee's name whatever actor it is
    given; the audit holds every command to that: the referee's to the referee's name, the
    banker's to none."""
    book.execute(1, c.CorrectCash("Anna", 75, "change", "Rita"), now=NOW)
    rows = book.store.read(1)
    seq = next(r["seq"] for r in rows if r["type"] == "CashCorrected") - 1
    assert {r["actor"] for r in rows if r["seq"] >= seq} == {"referee:Rita"}
    assert audit(1, rows).ok
    tamper(book, f"UPDATE events SET actor='banker' WHERE seq>={seq}", rechain=True)
    r = audit(1, book.store.read(1))
    assert r.bad_seq == seq and r.problem == ("it is referee Rita's command, but it is "
                                              "recorded by 'banker': the row was rewritten")
    tamper(book, f"UPDATE events SET actor='referee:Bea' WHERE seq>={seq}", rechain=True)
    assert audit(1, book.store.read(1)).bad_seq == seq


def _logged_sales(tmp_path, edit):
    """The bankruptcy of tests/data/bankrupt-two-groups.banco (houses on two groups, sold
    group by group), its two BuildingsSold rows edited by `edit(first, second)` (their data
    texts) and the chain recomputed, as an older banco might have logged them; the audit's
    report."""
    from pathlib import Path

    from click.testing import CliRunner
    from forge import drop_triggers, rechain_stored

    from banco.cli.main import cli

    db = str(tmp_path / "b.db")
    script = Path(__file__).parent / "data" / "bankrupt-two-groups.banco"
    assert CliRunner().invoke(cli, ["--db", db, "run", "-q", str(script)]).exit_code == 0
    conn = sqlite3.connect(db)
    (s1, d1), (s2, d2) = conn.execute("SELECT seq, data FROM events WHERE type='BuildingsSold' "
                                      "ORDER BY seq").fetchall()
    drop_triggers(conn)
    n1, n2 = edit(d1, d2)
    conn.execute("UPDATE events SET data=? WHERE game_id=1 AND seq=?", (n1, s1))
    conn.execute("UPDATE events SET data=? WHERE game_id=1 AND seq=?", (n2, s2))
    rechain_stored(conn, 1, s1)
    conn.commit()
    conn.close()
    store = Book(db).store
    return s1, audit(1, store.raw_rows(1))


def test_a_bankruptcys_sales_logged_in_another_groups_order_still_audit(tmp_path):
    """Before 2026-11-30 the groups' order changed from process to process (a set of names):
    the same sales in the other order are what the command gave then."""
    _, report = _logged_sales(tmp_path, lambda a, b: (b, a))
    assert report.ok, report.problem


def test_a_bankruptcys_sales_changed_are_still_named(tmp_path):
    def more(a, b):
        return b.replace('"amount":150', '"amount":250'), a

    seq, report = _logged_sales(tmp_path, more)
    assert not report.ok and report.bad_seq == seq
    assert "not what `bankrupt`" in report.problem


def test_recorded_times_that_go_back_past_a_clock_correction_are_a_problem(tmp_path, banco):
    """A trial: the audit passed a game whose recorded times go back (a command recorded at
    21:04 after one at 21:10), where `replay --from` and `state --at` refuse such a time.  Up
    to 120 s back is a clock corrected by its time service, and passes; more is a problem,
    named at the command that goes back, with both times."""
    from games import lines, recorded_back

    db = str(tmp_path / "t.db")
    lines(db, "new Anna Bruno", at="2026-11-29 21:00:00")
    lines(db, "roll 3 2", at="2026-11-29 21:10:00")
    # recorded by a banco that wrote a clock set back as it read (banco now holds times on)
    recorded_back(db, "buy", at="2026-11-29 21:08:30")  # 90 s: a clock stepped by its service
    assert banco("--db", db, "audit").exit_code == 0
    recorded_back(db, "roll 1 2", at="2026-11-29 21:04:00")  # set back by hand
    out = banco("--db", db, "audit", code=3).output
    seq = json.loads(banco("--db", db, "log", "--json").output)[-1]["seq"]
    first = next(e["seq"] for e in json.loads(banco("--db", db, "log", "--json").output)
                 if e["recorded_at"].startswith("2026-11-29T21:04"))
    assert f"game 1: FAILED at event {first}: recorded at 2026-11-29T21:04:00.000000Z, 270 s " \
           "before the command before it (recorded at 2026-11-29T21:08:30.000000Z): a game's " \
           "times go back by 120 s at most" in out, out
    assert first <= seq


@pytest.mark.parametrize("version", [99, 0, -1])
def test_a_schema_version_no_banco_wrote_on_a_derived_fact_is_named(book, version):
    """A fact equal to the one its command gives, re-chained under a schema version no banco
    writes: the row is held to its schema, which names the version (it passed before)."""
    seq = rent_seq(book)
    tamper(book, f"UPDATE events SET schema_version={version} WHERE seq={seq}", rechain=True)
    for rows in (book.store.read(1), book.store.raw_rows(1)):
        r = audit(1, rows)
        assert r.bad_seq == seq and r.problem.startswith("schema") and f"version {version}" \
            in r.problem, r.problem
