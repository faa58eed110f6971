"""A referee's corrections and recorded rulings: decided like any command (refused when they
cannot be true of a table), folded like any fact, audited, shown in the log; the banker's undo stops at them."""

import json
from pathlib import Path

import pytest
from helpers import POS, build, cash, new_table, own, place, play

from banco.ledger.base.errors import RuleViolation
from banco.ledger.book import Book
from banco.ledger.records import commands as c
from banco.ledger.rules.decide import decide
from banco.ledger.table.state import BANK, evolve
from banco.projections.audit.audit import audit

NOW = "2026-11-30T21:00:00.000000Z"
NOT_DUE = {"code": "rent_not_due"}  # a verdict as recorded (ledger/records/verdicts.py)


def apply(state, events):
    for e in events:
        state = evolve(state, e)
    return state


def books_balance(state):
    return sum(p.cash for p in state.players) == state.bank_paid_out


# --- money ----------------------------------------------------------------------------------

def test_money_from_the_bank_is_a_transfer_with_the_referee_and_the_reason():
    t = new_table()
    events = decide(t, c.CorrectCash("Anna", 50, "change miscounted", "Rita"))
    assert events == [{"type": "CashCorrected", "data": {
        "player": "Anna", "payer": BANK, "payee": "Anna", "amount": 50,
        "reason": {"code": "referee", "referee": "Rita", "said": "change miscounted"},
        "referee": "Rita"}}]
    after = apply(t, events)
    assert after.player("Anna").cash == 1550 and books_balance(after)


def test_money_back_to_the_bank_and_never_below_zero():
    t = cash(new_table(), "Bruno", 30)
    back = apply(t, decide(t, c.CorrectCash("Bruno", -30, "paid twice", "Rita")))
    assert back.player("Bruno").cash == 0 and books_balance(back)
    with pytest.raises(RuleViolation, match=r"Bruno has 30 M: taking 31 M would leave the cash "
                                            r"negative") as err:
        decide(t, c.CorrectCash("Bruno", -31, "paid twice", "Rita"))
    assert err.value.allowed == "take at most 30"


@pytest.mark.parametrize("command,message", [
    (c.CorrectCash("Zeno", 10, "x", "Rita"), "Zeno is not at this table"),
    (c.CorrectCash("Anna", 0, "x", "Rita"), "a correction of 0 changes nothing"),
    (c.CorrectCash("Anna", 10, "  ", "Rita"), "a correction says why"),
    (c.CorrectCash("Anna", 10, "x", " "), "names the referee"),
    (c.CorrectPosition("Anna", 40, "x", "Rita"), "spaces 0 to 39"),
    (c.CorrectPosition("Anna", 0, "x", "Rita"), "Anna is already on Via!"),
    (c.CorrectOwner(POS["Vicolo Corto"], None, "x", "Rita"), "already belongs to the Bank"),
    (c.CorrectOwner(0, "Anna", "x", "Rita"), "Via! is not a deed"),
    (c.RecordRuling("weather", 3, NOT_DUE, "Rita", {}, "004"), "no ruling of kind 'weather'"),
    (c.RecordRuling("rent", 999, NOT_DUE, "Rita", {}, "004"), "event 999 is not in this game"),
    (c.RecordRuling("rent", 3, {"seq": 3}, "Rita", {}, "004"), "a ruling has a verdict"),
    (c.RecordRuling("rent", 3, NOT_DUE, "Rita"), "a ruling has a verdict"),  # no evidence
    (c.RecordRuling("rent", 3, " ", "Rita", text="t"), "a ruling has a verdict"),  # older form
])
def test_impossible_corrections_are_refused_with_the_reason(command, message):
    with pytest.raises(RuleViolation, match=message):
        decide(new_table(), command)


def test_nothing_of_a_bankrupt_player_can_be_corrected():
    t = new_table()
    i = t.index["Carla"]
    t = t._replace(players=t.players[:i] + (t.players[i]._replace(bankrupt=True, cash=0),)
                   + t.players[i + 1:])
    with pytest.raises(RuleViolation, match="Carla is bankrupt and out of the game"):
        decide(t, c.CorrectCash("Carla", 10, "x", "Rita"))


# --- the token ------------------------------------------------------------------------------

def test_a_move_puts_the_token_without_salary_or_landing():
    t = place(new_table(), "Bruno", 38)
    after = apply(t, decide(t, c.CorrectPosition("Bruno", 5, "token knocked over", "Rita")))
    assert after.player("Bruno").position == 5
    assert after.player("Bruno").cash == 1500  # no salary for "passing" Via!
    assert after.turn == t.turn  # nothing offered, no rent opened


def test_a_move_out_of_jail_frees_the_player_and_onto_the_jail_square_is_visiting():
    t = place(new_table(), "Bruno", 10, in_jail=True, jail_turns=2)
    events = decide(t, c.CorrectPosition("Bruno", 10, "sent there by mistake", "Rita"))
    assert events[0]["data"]["left_jail"] is True
    after = apply(t, events)
    assert after.player("Bruno").in_jail is False and after.player("Bruno").jail_turns == 0
    assert after.player("Bruno").position == 10


def test_the_current_players_move_waits_for_his_square_to_be_played_out():
    t = new_table()
    t, _ = play(t, c.Roll((3, 2)))  # Anna on Stazione Sud, offered it
    with pytest.raises(RuleViolation, match="Anna's move is still being played out") as err:
        decide(t, c.CorrectPosition("Anna", 0, "x", "Rita"))
    assert "`buy` or `decline`" in err.value.allowed


# --- deeds ----------------------------------------------------------------------------------

def test_a_deed_given_to_a_player_and_back_to_the_bank_unmortgaged():
    t = own(new_table(), "Anna", "Vicolo Corto")
    t = t._replace(mortgaged=frozenset({POS["Vicolo Corto"]}))
    to_bruno = apply(t, decide(t, c.CorrectOwner(POS["Vicolo Corto"], "Bruno", "x", "Rita")))
    assert to_bruno.owners[POS["Vicolo Corto"]] == "Bruno"
    assert POS["Vicolo Corto"] in to_bruno.mortgaged  # the mortgage goes with the deed
    events = decide(t, c.CorrectOwner(POS["Vicolo Corto"], None, "x", "Rita"))
    assert events[0]["data"] == {"property": 1, "from": "Anna", "to": BANK, "mortgaged": False,
                                 "reason": {"code": "referee", "referee": "Rita", "said": "x"},
                                 "referee": "Rita"}
    to_bank = apply(t, events)
    assert to_bank.owners[1] is None and 1 not in to_bank.mortgaged


def test_no_deed_of_a_built_group_changes_hands():
    t = own(new_table(), "Anna", "Vicolo Corto", "Vicolo Stretto")
    t = build(t, "Vicolo Stretto", 1)
    with pytest.raises(RuleViolation, match="the group of Vicolo Corto has buildings "
                                            r"\(Vicolo Stretto\)") as err:
        decide(t, c.CorrectOwner(POS["Vicolo Corto"], "Bruno", "x", "Rita"))
    assert "sell" in err.value.allowed


# --- the book -------------------------------------------------------------------------------

@pytest.fixture
def book(tmp_path):
    b = Book(str(tmp_path / "r.db"))
    yield b
    b.close()


def test_corrections_and_rulings_are_recorded_audited_and_kept_from_the_bankers_undo(book):
    g = book.new_game(["Anna", "Bruno"], now=NOW)
    book.execute(g, c.Roll((3, 4)), now=NOW)  # Anna to Imprevisti: a card to draw
    book.execute(g, c.CorrectCash("Anna", 75, "change", "Rita"), now=NOW, actor="referee:Rita")
    book.execute(g, c.CorrectOwner(POS["Corso Impero"], "Bruno", "bought, unrecorded", "Rita"),
                 now=NOW)
    book.execute(g, c.RecordRuling("rent", 3, NOT_DUE, "Rita", {"seqs": (3,)}, "004"), now=NOW)
    report = audit(g, book.store.read(g))
    assert report.ok, report.problem
    st = book.state(g)
    assert st.owners[POS["Corso Impero"]] == "Bruno"
    # the banker's undo does not reach behind the ruling: the referee's, not his
    ruled = book.store.last_seq(g)
    with pytest.raises(RuleViolation, match=f"event {ruled} is referee Rita's RulingRecorded: "
                                            "the banker's undo does not reach behind"):
        book.undo(g, now=NOW)
    assert book.store.last_seq(g) == ruled  # nothing appended
    assert book.state(g).owners[POS["Corso Impero"]] == "Bruno"
    assert audit(g, book.store.read(g)).ok


def test_the_bankers_undo_stops_at_a_correction_and_takes_back_what_came_after(book):
    g = book.new_game(["Anna", "Bruno"], now=NOW)
    book.execute(g, c.CorrectCash("Anna", 75, "change", "Rita"), now=NOW)
    corrected = book.store.last_seq(g)
    book.execute(g, c.Roll((3, 4)), now=NOW)
    book.undo(g, now=NOW)  # the roll after the correction is the banker's: taken back
    assert book.state(g).player("Anna").position == 0
    with pytest.raises(RuleViolation, match=f"event {corrected} is referee Rita's "
                                            "CashCorrected"):
        book.undo(g, now=NOW)
    assert book.state(g).player("Anna").cash == 1575
    assert audit(g, book.store.read(g)).ok


def test_a_referee_may_still_act_once_the_game_is_over():
    t = new_table(("Anna", "Bruno"))._replace(ended=True, winner="Anna")
    assert decide(t, c.CorrectCash("Bruno", 10, "final count", "Rita"))
    assert decide(t, c.RecordRuling("rent", 3, NOT_DUE, "Rita", {}, "004"))
    with pytest.raises(RuleViolation, match="the game is over"):
        decide(t, c.Roll((1, 2)))


def test_the_audit_accepts_a_correction_but_not_a_forged_one(book):
    """A correction balances the books like any transfer; one that was edited after the fact
    (money out of nowhere) is caught."""
    g = book.new_game(["Anna", "Bruno"], now=NOW)
    book.execute(g, c.CorrectCash("Anna", 75, "change", "Rita"), now=NOW)
    rows = book.store.read(g)
    assert audit(g, rows).ok
    forged = [dict(r) for r in rows]
    forged[-1]["data"] = {**forged[-1]["data"], "amount": 7500}
    bad = audit(g, forged)
    assert not bad.ok and bad.bad_seq == forged[-1]["seq"]


# --- the command line -----------------------------------------------------------------------

def test_correct_on_the_command_line(banco):
    banco("new", "Anna", "Bruno")
    out = banco("correct", "Anna", "-50", "--reason", "paid the fine twice", "--referee",
                "Rita").output
    assert "correction: Anna pays 50 M to the Bank (referee Rita: paid the fine twice)" in out
    out = banco("correct", "--move", "bruno", "parco", "della", "--reason", "knocked",
                "--referee", "Rita").output
    assert "Bruno moved from Via! to Parco della Vittoria" in out
    banco("correct", "--owner", "vicolo", "corto", "anna", "--reason", "bought", "--referee",
          "Rita")
    log = banco("log", "--type", "CashCorrected,PositionCorrected,OwnerCorrected").output
    assert log.count("correction:") == 3
    assert "Vicolo Corto passes from the Bank to Anna" in log
    statement = banco("statement", "Anna").output
    assert "-50" in statement and "referee Rita: paid the fine twice" in statement
    last = banco("log", "--json").output
    seq = json.loads(last)[-1]["seq"]
    assert "actor      referee:Rita" in banco("show", str(seq)).output
    assert banco("audit").exit_code == 0
    # the banker's undo does not take back the referee's correction
    refused = banco("undo", code=1).output
    assert f"event {seq} is referee Rita's OwnerCorrected" in refused
    assert json.loads(banco("log", "--json").output)[-1]["seq"] == seq


def test_correct_refusals_and_usage_append_nothing(banco):
    banco("new", "Anna", "Bruno")
    before = banco("log", "--json").output
    assert "Anna has 1500 M" in banco("correct", "Anna", "-1501", "--reason", "x",
                                      "--referee", "Rita", code=1).output
    assert "did you mean 'Anna'" in banco("correct", "Ana", "10", "--reason", "x",
                                          "--referee", "Rita", code=2).output
    assert "Probabilità is at 2, 17, 33: give the number" in banco(
        "correct", "--move", "Anna", "probabilita", "--reason", "x", "--referee", "R",
        code=2).output
    assert "not a whole amount" in banco("correct", "Anna", "ten", "--reason", "x",
                                         "--referee", "R", code=2).output
    # twenty digits typed (it was accepted, and the standings' columns ran together)
    out = banco("correct", "Anna", "9999999999", "--reason", "x", "--referee",
                "R", code=2).output
    assert "is more than a table ever holds (at most 1500000 M" in out
    out = banco("correct", "Anna", "99999999999999999999999", "--reason", "x", "--referee",
                "R", code=2).output
    assert "has 23 digits: no number at the table is that long (at most 15)" in out
    assert "more than" in banco("correct", "Anna", "-1500001", "--reason", "x", "--referee",
                                "R", code=2).output
    assert "--referee" in banco("correct", "Anna", "10", "--reason", "x", code=2).output
    assert banco("log", "--json").output == before


# --- what an audit checks of a correction ---------------------------------------------------

def test_a_correction_is_its_own_kind_of_money_fact_for_the_audit():
    from banco.projections.audit.referee_checks import MONEY_CHECKS, cash_correction_problems

    t = new_table()
    good = decide(t, c.CorrectCash("Anna", 75, "change", "Rita"))[0]
    assert MONEY_CHECKS[good["type"]] is cash_correction_problems
    assert cash_correction_problems(t, good["data"]) == []
    back = decide(t, c.CorrectCash("Anna", -75, "paid twice", "Rita"))[0]["data"]
    assert cash_correction_problems(t, back) == []
    assert cash_correction_problems(t, {**back, "amount": 2000}) == [
        "a referee's correction takes 2000 from Anna, who has 1500"]
    assert "goes between the Bank and Anna" in cash_correction_problems(
        t, {**good["data"], "payer": "Bruno"})[0]
    assert cash_correction_problems(t, {**good["data"], "referee": " "}) == [
        "a correction that names no referee"]
    assert cash_correction_problems(t, {**good["data"], "player": "Zeno"}) == [
        "a referee's correction for 'Zeno', who is not seated"]


def test_a_forged_correction_is_named_in_italian_by_the_audit(banco):
    """A correction made to take more than Anna has, every hash recomputed: the audit names
    what makes it no correction, in Italian, and the command that does not give it."""
    import sqlite3

    from forge import drop_triggers, rechain_stored

    banco("new", "Anna", "Bruno")
    banco("correct", "Anna", "-50", "--reason", "paid twice", "--referee", "Rita")
    seq = json.loads(banco("log", "--json").output)[-1]["seq"]
    conn = sqlite3.connect(banco.db)
    drop_triggers(conn)
    conn.execute("UPDATE events SET data=replace(data, '\"amount\":50', '\"amount\":2000') "
                 f"WHERE seq={seq}")
    rechain_stored(conn, 1, seq)
    conn.commit()
    conn.close()
    out = banco("--lang", "it", "audit", code=3).output
    assert f"partita 1: NON SUPERATA all'evento {seq}: una correzione dell'arbitro toglie 2000 ad " \
           "Anna, che ha 1500; " in out
    assert f"non è ciò che `correct Anna -50 --reason 'paid twice' --referee Rita` (evento " \
           f"{seq - 1}) dà qui: CashCorrected ha amount 2000 dove il comando dà 50" in out
    assert "a referee's correction takes 2000 from Anna, who has 1500" in banco("audit",
                                                                               code=3).output


def test_what_makes_a_correction_no_correction_said_in_italian():
    import gettext

    from banco.cli.words.i18n import DOMAIN, LOCALE_DIR
    from banco.projections.audit.referee_checks import cash_correction_problems

    tr = gettext.translation(DOMAIN, LOCALE_DIR, languages=["it"])
    t = new_table()
    good = decide(t, c.CorrectCash("Anna", 75, "change", "Rita"))[0]["data"]
    said = [p.render(tr) for p in cash_correction_problems(
        t, {**good, "payer": "Bruno", "amount": 0, "referee": " ", "reason": ""})]
    assert said == ["una correzione dell'arbitro sposta denaro tra Bruno e Anna: una correzione "
                    "va tra la Banca e Anna",
                    "una correzione dell'arbitro di 0",
                    "una correzione che non indica l'arbitro",
                    "una correzione senza motivo"]
    assert [p.render(tr) for p in cash_correction_problems(t, {**good, "player": "Zeno"})] == [
        "una correzione dell'arbitro per 'Zeno', che non siede al tavolo"]


def test_a_correction_without_its_referee_or_reason_gets_banco_usage(banco):
    """banco's words, not click's "Missing option": whose a correction is, and its form."""
    banco("new", "Anna", "Bruno")
    before = banco("log", "--json").output
    out = banco("correct", "Anna", "10", "--reason", "miscount", code=2).output
    assert "a correction is the referee's: name the referee, as in `correct PLAYER AMOUNT " \
           "--reason TEXT --referee NAME` (AMOUNT: +50 from the Bank, -50 back to it)" in out
    assert "Missing option" not in out
    out = banco("correct", "--move", "Anna", "5", "--reason", "x", code=2).output
    assert "`correct --move PLAYER SPACE --reason TEXT --referee NAME`" in out
    out = banco("correct", "Anna", "10", "--referee", "Rita", code=2).output
    assert "a correction says why: give the reason, as in `correct PLAYER AMOUNT" in out
    assert banco("log", "--json").output == before


@pytest.mark.parametrize(("name", "why"), [
    ("", "a name cannot be empty or blank"),
    ("   ", "a name cannot be empty or blank"),
    ("Rita\nforged: yes", "it contains the control character U+000A"),
    ("Rita\x1b[2J", "it contains the control character U+001B"),
    ("R" * 25, "it is 25 characters long; at most 24")])
def test_a_referee_name_is_checked_as_a_player_name_and_nothing_is_appended(banco, name, why):
    banco("new", "Anna", "Bruno")
    banco("roll", "3", "4")
    before = banco("log", "--json").output
    for args in (("correct", "Anna", "10", "--reason", "x", "--referee", name),
                 ("ruling", "jail", "1", "--record", "--referee", name)):
        out = banco(*args, code=2).output
        assert "referee name" in out and "refused: " + why in out, out
    assert banco("log", "--json").output == before
    # the name is trimmed, as the fact records it
    banco("correct", "Anna", "10", "--reason", "x", "--referee", " Rita ")
    assert json.loads(banco("log", "--json").output)[-1]["data"]["referee"] == "Rita"


@pytest.mark.parametrize(("reason", "why"), [
    ("change\nthe Bank pays 9999 M to Anna", "holds the character U+000A: a reason is one line"),
    ("ab\x1b[2Jcd", "holds the character U+001B"),
    ("mis\u200bcounted", "holds the character U+200B"),
    ("x" * 301, "the reason is 301 characters long; at most 300")])
def test_a_reason_is_one_line_of_printable_text_and_nothing_is_appended(banco, reason, why):
    """A newline in --reason printed a line that looked like banco's own in log and replay."""
    banco("new", "Anna", "Bruno")
    before = banco("log", "--json").output
    out = banco("correct", "Anna", "10", "--reason", reason, "--referee", "Rita", code=2).output
    assert why in out and "\n" + "the Bank pays 9999" not in out, out
    assert banco("log", "--json").output == before
    banco("correct", "Anna", "10", "--reason", "  change miscounted ", "--referee", "Rita")
    assert json.loads(banco("log", "--json").output)[-1]["data"]["reason"] == {
        "code": "referee", "referee": "Rita", "said": "change miscounted"}


def test_a_player_of_the_game_cannot_be_its_referee_whatever_the_case(banco):
    """A trial: `correct` and `ruling --record` took any --referee, a player's name too (Anna
    correcting her own cash).  Refused (exit 1), the player named, nothing appended; `seal`
    likewise (a player would sign his own game)."""
    banco("new", "Anna", "Bruno", "Zoë")
    banco("roll", "3", "4")
    before = banco("log", "--json").output
    for args in (("correct", "Anna", "100", "--reason", "x", "--referee", "Anna"),
                 ("correct", "--move", "Bruno", "5", "--reason", "x", "--referee", "anna"),
                 ("ruling", "jail", "1", "--record", "--referee", "BRUNO"),
                 ("correct", "Bruno", "10", "--reason", "x", "--referee", "zoe")):
        out = banco(*args, code=1).output
        player = {"anna": "Anna", "bruno": "Bruno", "zoe": "Zoë"}[args[-1].casefold()]
        assert f"--referee {args[-1]}: {player} plays in this game, and a player cannot be " \
               "its referee" in out, out
        assert "not Anna, Bruno, Zoë" in out
    key = str(Path(banco.db).parent / "anna")
    banco("keygen", "--out", key)
    out = banco("seal", "--key", key + ".key", code=1).output  # the key file names the referee
    assert "--referee anna: Anna plays in this game" in out, out
    assert banco("log", "--json").output == before


def test_a_referee_named_in_another_case_is_the_referee_first_recorded(banco):
    """"Rita" and "rita" were two referees in the facts; the first spelling is kept."""
    banco("new", "Anna", "Bruno")
    banco("correct", "Anna", "10", "--reason", "x", "--referee", "Rita")
    out = banco("correct", "Anna", "10", "--reason", "y", "--referee", "rita").output
    assert "(referee Rita: y)" in out
    banco("correct", "--move", "Bruno", "5", "--reason", "z", "--referee", "RITA")
    facts = [e for e in json.loads(banco("log", "--json").output)
             if e["type"] in ("CashCorrected", "PositionCorrected")]
    assert [e["data"]["referee"] for e in facts] == ["Rita", "Rita", "Rita"]
    assert banco("audit").exit_code == 0
