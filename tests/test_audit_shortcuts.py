"""The audit's shortcuts say what the long way says.

The audit's hot path skips work whose answer it already has (projections/audit/checks.py: the
checks of a table's buildings, deeds and Bank stock when only the players changed since a
table that passed; ledger/rules/decision.py: Tx.emit folding without evolve; ledger/table/state.py:
with_seq).  Each shortcut is compared here with the long way on the tables of the recorded
games, and on those tables damaged at random, so that a shortcut that misses a problem fails.
"""

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from banco.ledger.rules.decision import Tx
from banco.ledger.table.state import State, evolve, fold, replay, with_seq
from banco.projections.audit.checks import EventChecks, player_problems, table_problems

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
GAMES = {p.name.removesuffix(".events.json"): json.loads(p.read_text(encoding="utf-8"))
         for p in sorted(FIXTURES.glob("*.events.json"))}


def tables(name: str) -> list[State]:
    return [t for _, t in replay(GAMES[name])]


TABLES = {name: tables(name) for name in GAMES}

names = st.sampled_from(sorted(TABLES))


@st.composite
def damaged_players(draw):
    """A table of a recorded game, with its players (only) damaged: cash made negative, a
    player made bankrupt, a jail card taken from a hand or put into one."""
    name = draw(names)
    t = draw(st.sampled_from(TABLES[name]))
    players = list(t.players)
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(players) - 1))
        p = players[i]
        change = draw(st.sampled_from(["cash", "bankrupt", "card out", "card in", "move"]))
        if change == "cash":
            p = p._replace(cash=draw(st.integers(-500, 3000)))
        elif change == "bankrupt":
            p = p._replace(bankrupt=True)
        elif change == "card out":
            p = p._replace(jail_cards=p.jail_cards[1:])
        elif change == "card in":
            p = p._replace(jail_cards=p.jail_cards + (("chance", 7),))
        else:
            p = p._replace(position=draw(st.integers(0, 39)))
        players[i] = p
    return t, t._replace(players=tuple(players))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(damaged_players())
def test_a_change_of_players_only_is_checked_as_the_whole_table(pair):
    clean, damaged = pair
    assert table_problems(clean) == []  # the recorded games pass
    assert [str(p) for p in player_problems(damaged)] == \
        [str(p) for p in table_problems(damaged)]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(damaged_players())
def test_event_checks_name_a_player_damaged_after_a_clean_table(pair):
    """EventChecks.after takes the shortcut (the buildings, deeds and Bank stock are the
    clean table's own) and still names every problem table_problems finds."""
    clean, damaged = pair
    checks = EventChecks(clean)
    checks.clean = checks.books.balanced = clean  # as after an event that passed
    event = {"seq": clean.seq + 1, "type": "RulingRecorded", "data": {}}
    found = [str(p) for p in checks.after(clean, event, damaged)]
    for problem in table_problems(damaged):
        assert str(problem) in found


def test_the_shortcut_is_taken_and_a_negative_cash_named():
    t = TABLES["classic-4p"][-1]
    anna = t.players[0]
    damaged = t._replace(players=(anna._replace(cash=-5),) + t.players[1:])
    checks = EventChecks(t)
    checks.clean = checks.books.balanced = t
    found = [str(p) for p in checks.after(t, {"seq": t.seq + 1, "type": "RulingRecorded",
                                              "data": {}}, damaged)]
    assert f"{anna.name}'s cash is negative (-5)" in found


@pytest.mark.parametrize("seat", [0, 3])
def test_cash_moved_by_an_event_with_no_transfer_is_still_named(seat):
    """The books look again only at the players whose record changed since the table that
    balanced (books.py Books.post): a non-money event whose table shows one player's cash
    moved, a token moved beside it, is named as the whole statement check names it."""
    t = TABLES["classic-4p"][-1]
    checks = EventChecks(t)
    checks.books.balances = {p.name: p.cash for p in t.players}
    checks.books.balances["bank"] = -t.bank_paid_out
    checks.clean = checks.books.balanced = t
    players = list(t.players)
    players[seat] = players[seat]._replace(cash=players[seat].cash + 10)
    players[1] = players[1]._replace(position=(players[1].position + 1) % 40)
    moved = t._replace(players=tuple(players))
    found = [str(p) for p in checks.after(t, {"seq": t.seq + 1, "type": "RulingRecorded",
                                              "data": {}}, moved)]
    name, cash = players[seat].name, players[seat].cash
    assert f"{name}'s statement comes to {cash - 10} but the table shows {cash} in cash" in found


@settings(max_examples=40, deadline=None)
@given(names, st.data())
def test_tx_emit_folds_as_evolve_does(name, data):
    """Tx.emit (evolve inlined, the seq set by position) leaves the tables evolve leaves."""
    events = GAMES[name]
    start = data.draw(st.integers(2, len(events) - 8))
    base = fold(events[:start])
    tx = Tx(base)
    state = base
    for e in events[start:start + 8]:
        if e["type"] == "GameStarted":
            continue
        tx.emit(e["type"], **e["data"])
        state = evolve(state, {"type": e["type"], "data": e["data"]})
        assert with_seq(tx.state, tx.seq) == state  # the table's seq is set once, at the end
        assert tx.seq == state.seq
    assert tx.done() == state and tx.state.seq == state.seq
    assert tx.states[-1] is tx.state


def test_with_seq_is_replace():
    t = TABLES["classic-4p"][-1]
    assert with_seq(t, 12345) == t._replace(seq=12345)
    assert type(with_seq(t, 7)) is State


accounts = st.sampled_from(["Anna", "Bruno", "bank", "Zoe", ""])


@settings(max_examples=300, deadline=None)
@given(accounts, accounts, st.integers(-3, 3), st.sampled_from(["RentPaid", "TaxPaid",
                                                                 "CashIssued"]))
def test_books_post_names_what_entry_problems_names(payer, payee, amount, type_):
    """Books.post asks entry_problems for its words only when its own test of the accounts
    fails: whatever entry_problems finds, post reports."""
    from banco.projections.audit.books import Books, Entry, entry_problems

    t = TABLES["classic-4p"][-1]
    books = Books(["Anna", "Bruno"])
    books.playing = True
    data = {"payer": payer, "payee": payee, "amount": amount, "reason": "x"}
    if type_ == "RentPaid":
        data.update(property=1, opened_seq=0)
    found = [str(p) for p in books.post({"seq": 9, "type": type_, "data": data}, t)]
    for problem in entry_problems(Entry(9, type_, payer, payee, amount, "x"), ["Anna", "Bruno"]):
        assert str(problem) in found


def test_a_text_checked_as_one_type_is_checked_again_as_another():
    """The audit parses and checks a data text once (its cache of checked texts); the same
    text recorded under another type is checked again, against that type's schema."""
    from forge import rechain, recorded_rows

    from banco.projections.audit.audit import audit

    rows = recorded_rows("classic-4p")
    seen, j = set(), None
    for i, row in enumerate(rows):
        if row["type"] == "TurnEnded":
            text = json.dumps(row["data"], sort_keys=True)
            if text in seen:
                j = i
                break
            seen.add(text)
    assert j is not None
    assert audit(1, rows).ok
    rows[j]["type"] = "ExtraRollDue"  # needs player and in_row, has no next
    report = audit(1, rechain(rows, j))
    assert report.bad_seq == rows[j]["seq"]
    assert str(report.problem).startswith("schema: ExtraRollDue")


def test_table_problems_skips_the_groups_only_when_told_the_buildings_are_unchanged():
    # the parameter was shadowed by the board's tuple: the skip it documents never happened
    t = next(t for t in reversed(TABLES["classic-to-the-end"]) if any(0 < b < 5 for b in t.buildings))
    at = next(i for i, b in enumerate(t.buildings) if 0 < b < 5)
    board = list(t.buildings)
    board[at] = 5 if board[at] < 4 else 1  # one lot out of step with its group
    bad = t._replace(buildings=tuple(board))
    full = [str(p) for p in table_problems(bad)]
    skipped = [str(p) for p in table_problems(bad, buildings=False)]
    assert set(skipped) < set(full)  # the Bank's stock is still counted; the group is not


# marshmallow's verdicts kept by shape (ledger/records/events.py validate): a shape that passed
# passes again without a load; any other data is loaded, and refused as marshmallow refuses it.
_values = st.one_of(st.none(), st.text(max_size=3), st.integers(), st.booleans(),
                    st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
                    st.lists(st.integers(), max_size=2))


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(["line", "command", "kind"]), _values, max_size=3),
       st.dictionaries(st.sampled_from(["line", "command", "kind"]), _values, max_size=3))
def test_a_verdict_kept_by_shape_is_marshmallows(first, second):
    from marshmallow import ValidationError

    from banco.ledger.records.events import InvalidEvent, schema_of, validate

    def verdict(data):
        try:
            schema_of("CommandRecorded").load(data)
            return True
        except ValidationError:
            return False

    for data in (first, second, first):  # the second and third after a first kept
        try:
            validate("CommandRecorded", data)
            passed = True
        except InvalidEvent:
            passed = False
        assert passed == verdict(data), data


def test_a_shape_that_passed_is_not_loaded_again(monkeypatch):
    from banco.ledger.records import events

    schema = events.schema_of("CommandRecorded")
    loads = []
    monkeypatch.setattr(schema, "load", lambda data: loads.append(data))
    events._PASSED.clear()
    events.validate("CommandRecorded", {"line": "roll 3 4", "command": {"kind": "Roll"}})
    events.validate("CommandRecorded", {"line": "buy", "command": {"kind": "Buy"}})
    events.validate("CommandRecorded", {"line": None, "command": None})
    assert len(loads) == 2  # the second line is the first's shape
    # a type judged by values (a range, a name's length) is loaded every time
    assert not events._shape_judged("TaxPaid") and events._shape_judged("CommandRecorded")


# The facts' texts: a text that is the canonical spelling of the fact its command gives is
# that fact, neither parsed nor spelt again (projections/audit/rows.py _spelt_as).
_json = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=4),
                     lambda inner: st.lists(inner, max_size=3)
                     | st.dictionaries(st.text(max_size=3), inner, max_size=3), max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(_json)
def test_canonical_text_is_json_s_own(value):
    from banco.ledger.store.canonical import canonical_json, canonical_text
    from banco.projections.audit.rows import decode

    text = canonical_text(value)
    assert text == canonical_json(value)
    assert decode(text) == json.loads(text)


def _json_own(value) -> bool:
    """Whether `value` is what JSON reads back from its text: no tuple, no other key than a
    string, nothing but JSON's own types."""
    if type(value) is dict:
        return all(type(k) is str and _json_own(v) for k, v in value.items())
    if type(value) is list:
        return all(map(_json_own, value))
    return value is None or type(value) in (str, int, bool)


def test_the_facts_decide_gives_are_json_s_own():
    """A fact whose stored text is the spelling of the one its command gives keeps that
    fact's data, not a copy in JSON's form (projections/audit/rows.py _spelt_as): the facts
    decide gives are JSON's own, or a later fact with the same text could be read in the
    other form.  Every command of the recorded games, decided again on its table."""
    from banco.ledger.base.errors import BancoError
    from banco.ledger.records.command_codec import decode
    from banco.ledger.rules.decide import decide_tx

    facts = 0
    for name, events in GAMES.items():
        for event, table in replay(events):
            command = event["data"].get("command") if event["type"] == "CommandRecorded" \
                else None
            if command is None:
                continue
            try:
                tx = decide_tx(with_seq(table, event["seq"]), decode(command))
            except BancoError:  # a table an undo later took back: replay folds without it
                continue
            for fact in tx.events:
                assert _json_own(fact["data"]), (name, event["seq"], fact)
                facts += 1
    assert facts > 2000


@pytest.mark.parametrize("text", ['{"a":1}', ' {"a":1}', '{"a":1} ', '{"a":1}x', '{"a":1.5}',
                                  '{"a":NaN}', "", "[", '"x"', '{"a":1}{"b":2}'])
def test_decode_says_what_the_decoder_says(text):
    from banco.projections.audit.rows import _DECODE, decode

    def outcome(f):
        try:
            return "ok", f(text)
        except ValueError as exc:
            return "refused", str(exc)

    assert outcome(decode) == outcome(_DECODE)


def test_a_fact_spelt_as_its_command_gives_it_is_not_parsed(tmp_path, monkeypatch):
    from banco.ledger.book import Book
    from banco.ledger.records import commands as c
    from banco.projections.audit import rows
    from banco.projections.audit.audit import audit

    book = Book(str(tmp_path / "a.db"))
    g = book.new_game(["Anna", "Bruno"], now="2026-11-29T10:00:00.000000Z")
    for cmd in (c.Roll((1, 2)), c.Buy(), c.Roll((2, 1)), c.Claim("Anna"), c.Roll((3, 4))):
        book.execute(g, cmd, now="2026-11-29T10:00:00.000000Z")
    parsed = []
    real = rows.decode
    monkeypatch.setattr(rows, "decode", lambda text: parsed.append(text) or real(text))
    report = audit(g, book.store.raw_rows(g))
    assert report.ok
    facts = [r for r in book.store.read(g) if r["type"] != "CommandRecorded"]
    # the commands' texts and the opening facts (`new` is re-derived by its own rule) only
    assert len(parsed) < len(facts) / 2, (len(parsed), len(facts))
    book.close()


@settings(max_examples=200, deadline=None)
@given(st.frozensets(st.integers(-200, 200)) | st.sets(st.integers(0, 10**12)))
def test_a_set_of_numbers_is_spelt_in_json_s_order(value):
    """snapshot_codec orders a set of ints by str, the table digest's order by json.dumps."""
    from banco.ledger.table.snapshot_codec import _enc

    tag = "f" if type(value) is frozenset else "s"
    assert _enc(value) == {tag: sorted(value, key=lambda v: json.dumps(v, sort_keys=True))}


def test_the_groups_looked_at_again_are_those_the_table_changed_not_those_the_event_names():
    """EventChecks.after looks again only at the groups whose lots differ from the table that
    passed (checks.py _touched_groups): the tables are compared, so a fact naming no lot (a
    ruling) whose table has one lot out of step with its group is named as the whole check
    names it, and a table where nothing was built passes without a group looked at."""
    t = next(t for t in reversed(TABLES["classic-to-the-end"])
             if any(0 < b < 5 for b in t.buildings))
    at = next(i for i, b in enumerate(t.buildings) if 0 < b < 5)
    board = list(t.buildings)
    board[at] = 5 if board[at] < 4 else 1
    bad = t._replace(buildings=tuple(board))
    whole = [str(p) for p in table_problems(bad)]
    assert any("uneven building" in p for p in whole)
    for event in ({"seq": t.seq + 1, "type": "RulingRecorded", "data": {}},
                  {"seq": t.seq + 1, "type": "TurnEnded", "data": {}}):
        checks = EventChecks(t)
        checks.books.balances = {p.name: p.cash for p in t.players}
        checks.books.balances["bank"] = -t.bank_paid_out
        checks.clean = checks.books.balanced = t
        checks.books.playing = True  # (the starting cash was issued long before)
        found = [str(p) for p in checks.after(t, event, bad)]
        assert found == whole
    # a deed changing hands in another group, the bad lot left as the clean table had it:
    # only that group is looked at (the clean table passed, so the rest would pass again)
    from banco.projections.audit.checks import _touched_groups

    other = next(p for p, o in enumerate(t.owners) if o is not None
                 and _board_group(t, p) != _board_group(t, at))
    owners = list(t.owners)
    owners[other] = next(n for n in t.seats if n != owners[other])
    moved = t._replace(owners=tuple(owners))
    assert _touched_groups(moved, t) == ({_board_group(t, other)} - {None})
    assert _touched_groups(bad, t) == {_board_group(t, at)}
    assert _touched_groups(bad, None) is None


def _board_group(t, lot):
    return next((name for name, group in t.edition.groups.items() if lot in group), None)


def test_decide_given_the_seq_apart_gives_what_it_gives_on_the_table_with_that_seq():
    """The audit decides each command on the table before its CommandRecorded, the seq given
    apart (decide_tx's `seq`: a CommandRecorded folds to nothing but its seq), not on a copy
    with that seq: the facts and the table after them are the same, for every command of the
    recorded games and for a ruling about the very last event or one past it."""
    from banco.ledger.base.errors import BancoError
    from banco.ledger.records import commands as c
    from banco.ledger.records.command_codec import decode
    from banco.ledger.rules.decide import decide_tx

    def outcome(table, command, seq=None):
        try:
            tx = decide_tx(table, command, seq)
        except BancoError as refused:
            return "refused", str(refused.text)
        return tx.events, tx.done()  # (the last table's seq set: decide_tx leaves it)

    compared = 0
    for events in GAMES.values():
        before = None
        for event, table in replay(events):
            command = event["data"].get("command") if event["type"] == "CommandRecorded" \
                else None
            if command is not None and before is not None:
                assert outcome(before, decode(command), event["seq"]) \
                    == outcome(with_seq(before, event["seq"]), decode(command))
                compared += 1
            before = table
        seq = before.seq + 1
        for subject in (seq, seq + 1):
            ruling = c.RecordRuling("rent", subject, {"code": "upheld"}, "Rita")
            assert outcome(before, ruling, seq) == outcome(with_seq(before, seq), ruling)
    assert compared > 1000
