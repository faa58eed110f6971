"""The library is the API (issue 31): `banco.open(db).execute(...)` records, refuses and says
what it did in the caller's language, per call, with nothing printed and no click."""

from __future__ import annotations

import subprocess
import sys
import threading

import pytest

import banco
from banco.ledger.records.commands import Buy, Claim, Roll


@pytest.fixture
def book(tmp_path):
    with banco.open(str(tmp_path / "g.db"), create=True) as b:
        yield b


def test_a_game_is_started_played_and_said_in_both_languages(book):
    started = book.new(["Anna", "Bruno"], now="2026-12-06T20:00:00Z")
    assert started.refusal is None and started.game == 1
    # recorded with the line `banco new` records (the log showed "(CommandRecorded)")
    assert started.events[0]["data"]["line"] == "new Anna Bruno"
    other = book.new(["Ada", "Bea Rossi"], rules="championship", first="Bea Rossi", final=True)
    assert other.events[0]["data"]["line"] == (
        "new Ada 'Bea Rossi' --rules championship --first 'Bea Rossi' --final")
    out = book.execute(Roll((1, 2)), game=1, now="2026-12-06T20:00:01Z")
    assert out.refusal is None and out.game == 1 and out.seq == book.table(1).seq
    assert [e["type"] for e in out.events][:2] == ["CommandRecorded", "DiceRolled"]
    assert out.say("en").splitlines()[0] == "Anna rolls 1+2 = 3"
    assert out.say("it").splitlines()[0] == "Anna tira 1+2 = 3"
    assert "Vicolo Stretto" in out.say("en")


def test_the_facts_appended_are_typed_records_whose_fields_are_data(book):
    from banco.ledger.records.events import fact

    book.new(["Anna", "Bruno"], now="2026-12-06T20:00:00Z")
    out = book.execute("roll 1 2", game=1, now="2026-12-06T20:00:01Z")
    facts = {type(f).__name__: f for f in out.facts}
    assert len(out.facts) == len(out.events)
    assert facts["DiceRolled"].player == "Anna" and list(facts["DiceRolled"].dice) == [1, 2]
    assert facts["TokenMoved"].to == 3 and facts["TokenMoved"].from_ == 0
    assert [fact(f) for f in out.facts] == [e["data"] for e in out.events]
    assert book.execute("roll 9 9", game=1).facts == ()


def test_a_refusal_is_data_and_appends_nothing(book):
    book.new(["Anna", "Bruno"])
    before = book.table().seq
    out = book.execute(Buy(), game=1)
    assert out.events == () and out.seq == before == book.table().seq
    assert out.refusal is not None and out.refusal.code == 1
    assert out.refusal.rule  # a rulebook section, as data
    assert out.say("en").startswith("refused: ")
    assert out.say("it").startswith("non ammesso: ")


def test_an_id_given_again_is_applied_once_and_expect_guards_the_seq(book):
    book.new(["Anna", "Bruno"])
    seq = book.table().seq
    first = book.execute(Roll((1, 2)), id="k1", expect=seq)
    again = book.execute(Roll((1, 2)), id="k1", expect=seq)
    assert first.refusal is None and again.replayed and again.events == first.events
    late = book.execute(Buy(), expect=seq)
    assert late.refusal is not None and late.refusal.code == 5 and late.events == ()


def test_a_late_claim_leaves_its_evidence_in_the_outcome(book):
    book.new(["Anna", "Bruno", "Carla"])
    book.execute(Roll((1, 2)))
    book.execute(Buy())
    book.execute(Roll((2, 1)))
    book.execute(Roll((3, 3)))  # Carla rolls: Anna's window on Bruno's landing closed
    late = book.execute(Claim("Anna"))
    assert late.refusal is not None and late.refusal.code == 1
    # the refusal's evidence, as the contract writes it: out.refusal.rule/.allowed/.evidence
    assert late.refusal.rule and late.refusal.allowed
    assert any(e["type"] == "RentClaimRefused" for e in late.refusal.evidence)
    assert late.refusal.evidence == late.events  # the rows it kept are the rows appended
    on_time = book.execute("roll 9 9")  # a refusal that keeps nothing has no evidence
    assert on_time.refusal.evidence == ()


def test_two_threads_never_see_each_others_language(tmp_path):
    """Each thread says its answers in its own language, at the same time, on its own game."""
    db = str(tmp_path / "g.db")
    with banco.open(db, create=True) as b:
        b.new(["Anna", "Bruno"])
        b.new(["Carla", "Dario"])
    said: dict[str, list[str]] = {"en": [], "it": []}
    go = threading.Barrier(2)

    def play(game: int, lang: str) -> None:
        with banco.open(db) as b:
            go.wait()
            for _ in range(20):
                out = b.execute(Roll((1, 1)) if b.table(game).turn.phase == "roll" else Buy(),
                                game=game)
                said[lang].append(out.say(lang))
                b.execute(Buy(), game=game)

    threads = [threading.Thread(target=play, args=(1, "en")),
               threading.Thread(target=play, args=(2, "it"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    english, italian = "\n".join(said["en"]), "\n".join(said["it"])
    assert " rolls " in english and " tira " not in english
    assert " tira " in italian and " rolls " not in italian


def test_execute_imports_no_click_and_prints_nothing(tmp_path):
    code = f"""
import sys, banco
from banco.ledger.records.commands import Roll
b = banco.open({str(tmp_path / 'g.db')!r}, create=True)
b.new(['Anna', 'Bruno'])
out = b.execute(Roll((1, 2)))
assert out.refusal is None
# (sqlite-utils imports click for its own plugins' hooks: banco's modules must not)
users = sorted(n for n, m in list(sys.modules.items())
               if n.startswith('banco') and 'click' in vars(m))
assert users == [], users
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "" and done.stderr == ""


def test_a_line_in_either_language_is_parsed_without_click(book):
    book.new(["Anna", "Bruno"])
    out = book.execute("tira 1 2")
    assert out.refusal is None and out.say("it").startswith("Anna tira 1+2 = 3")
    assert book.execute("compra").say("en").strip().endswith("Bruno to roll")


def test_a_lines_own_id_and_expect_are_honoured(book):
    book.new(["Anna", "Bruno"])
    seq = book.table().seq
    first = book.execute(f"roll 1 2 --id k7 --expect {seq}")
    again = book.execute(f"roll 1 2 --id k7 --expect {seq}")
    assert first.refusal is None and again.replayed
    assert first.events[0]["data"]["line"] == "roll 1 2"  # recorded without --id, --expect
    moved = book.execute(f"buy --expect {seq}")
    assert moved.refusal is not None and moved.refusal.code == 5


def test_a_lines_game_id_or_expect_beside_the_calls_own_must_agree(book):
    """A trial's `execute("roll 1 2 --game 1", game=2)` was recorded in game 2, the line's
    `--game 1` dropped (and `--game 7`, no such game, likewise): said twice, once."""
    book.new(["Anna", "Bruno"])
    book.new(["Carla", "Dario"])
    heads = {g: book.table(g).seq for g in (1, 2)}
    for line, given in (("roll 1 2 --game 1", {"game": 2}), ("roll 3 4 --game 7", {"game": 1}),
                        ("roll 1 2 --id b", {"game": 1, "id": "a"}),
                        (f"roll 1 2 --expect {heads[1]}", {"game": 1, "expect": heads[1] - 1})):
        out = book.execute(line, **given)
        assert out.refusal is not None and out.refusal.code == 2, line
        assert "say it once" in out.say("en") and "dillo una volta sola" in out.say("it")
        assert {g: book.table(g).seq for g in (1, 2)} == heads
    same = book.execute("roll 1 2 --game 2", game=2)  # the same game twice is one game
    assert same.refusal is None and same.game == 2


def test_a_lines_own_game_is_the_table_its_names_are_read_at(book):
    """`roll 1 2 -p Anna --game 1` was read at the latest game's table first, where no Anna
    sits, and refused; the shell's game is the line's unless it names its own (the shell
    and `run` hand the library the line alone: cli/execution.py)."""
    book.new(["Anna", "Bruno"])
    book.new(["Carla", "Dario"])
    out = book.execute("roll 1 2 -p Anna --game 1")
    assert out.refusal is None and out.game == 1, out.say("en")
    read = book.read("roll 3 4 -p Carla", default_game=2)
    assert read.refusal is None and read.game == 2
    assert book.read("decline --game 1", default_game=2).game == 1


def test_an_option_given_twice_is_said_as_the_command_line_says_it(book):
    """The library said "--player given twice: `...`", in English whatever the language,
    and the command line its own sentence: one check now (cli/lines/parse.py given_twice)."""
    book.new(["Anna", "Bruno"])
    seq = book.table(1).seq
    for line, en, it in (
            ("roll 1 2 -p Anna --player Bruno", "-p is given twice, Anna and Bruno",
             "-p è dato due volte, Anna e Bruno"),
            ("tira 1 2 --giocatore Anna -pBruno", "--giocatore is given twice, Anna and Bruno",
             "--giocatore è dato due volte, Anna e Bruno"),
            ("roll 1 2 --game 1 --game=2", "--game is given twice, 1 and 2",
             "--game è dato due volte, 1 e 2")):
        out = book.execute(line)
        assert out.refusal is not None and out.refusal.code == 2, line
        assert out.say("en") == f"error: {en}: give it once (the last would be taken without " \
                                "a word)"
        assert out.say("it").startswith(f"errore: {it}: dallo una volta sola")
    assert book.table(1).seq == seq
    assert book.execute("roll 1 2 -p Anna --player Anna").refusal is None  # the same, once


def test_a_lines_id_game_or_expect_not_a_number_is_clicks_refusal_in_either_language(book):
    book.new(["Anna", "Bruno"])
    for option in ("--expect", "--game"):
        out = book.execute(f"roll 1 2 {option} abc")
        assert out.refusal is not None and out.refusal.code == 2
        assert f"Invalid value for '{option}': 'abc' is not a valid integer" in out.say("en")
        assert f"Valore non valido per '{option}': 'abc'" in out.say("it")
        assert "invalid literal" not in out.say("en")


def test_the_expect_refusal_is_said_in_italian(book):
    book.new(["Anna", "Bruno"])
    seq = book.table().seq
    out = book.execute("roll 1 2", expect=seq + 5)
    assert out.refusal.code == 5
    assert out.say("it").startswith(f"errore: la partita 1 non è ancora all'evento {seq + 5}")
    assert "l'ultimo comando è stato `new Anna Bruno`" in out.say("it")
    book.execute("roll 1 2")
    late = book.execute("buy", expect=seq)
    assert late.say("it").startswith(f"errore: la partita 1 è andata oltre l'evento {seq}")


def test_a_bad_line_is_a_usage_refusal_that_appends_nothing(book):
    book.new(["Anna", "Bruno"])
    before = book.table().seq
    for line in ("", "roll", "roll 1", "roll 9 9", "roll 1 2 --nope", "claim Zed", "fly"):
        out = book.execute(line)
        assert out.refusal is not None and out.refusal.code == 2, line
        assert out.events == () and book.table().seq == before
        assert out.say("en").startswith("error: "), (line, out.say("en"))


def test_a_program_s_mistake_raises_and_a_user_s_is_a_refusal(book):
    """The last trial: `execute(None)` was a KeyError, `expect=True` read as event 1,
    `expect=-3` a "moved past" (5), and a language banco does not speak answered in English
    in silence."""
    book.new(["Anna", "Bruno"])
    before = book.table().seq
    for what, kw in ((None, {}), (3.5, {}), ("roll 3 4", {"expect": "3"}),
                     ("roll 3 4", {"expect": True})):
        with pytest.raises(TypeError):
            book.execute(what, **kw)
    for kw in ({"expect": -3}, {"lang": "fr"}):
        out = book.execute("roll 3 4", **kw)
        assert out.refusal is not None and out.refusal.code == 2, kw
        assert out.events == () and book.table().seq == before
    assert book.execute("tira 3 4", lang="it_IT.UTF-8").refusal is None
    from banco.cli.lines.turn import Undo  # the command line's undo: a command, not a NamedTuple

    assert book.execute(Undo()).refusal is None and book.table().seq > before
    out = book.execute("roll 1 2")  # recorded or refused: it has words either way
    with pytest.raises(ValueError, match="banco speaks en and it"):
        out.say("de")
    with pytest.raises(ValueError):
        out.refusal.say("fr") if out.refusal else out.lines("fr")
    assert out.say("it_IT.UTF-8") == out.say("it")


def test_an_open_quote_or_another_file_is_said_in_the_bankers_words(book, tmp_path):
    # a final trial: Python's "No closing quotation" (in English under say("it"), seq 0) and
    # "--db is click's here" reached the phones and scripts
    book.new(["Anna", "Bruno"])
    before = book.table().seq
    out = book.execute('trade Anna "Bruno')
    assert out.refusal.code == 2 and out.seq == before and out.game == 1
    assert out.say("en").startswith("error: a quote is not closed: trade Anna \"Bruno")
    assert "virgoletta non è chiusa" in out.say("it")
    other = tmp_path / "other.db"
    for line in ("buy --db " + str(other), "--db=" + str(other) + " roll 1 2"):
        out = book.execute(line)
        assert out.refusal.code == 2 and "--db cannot be given on a line" in out.say("en")
        assert "click" not in out.say("en") and "--db non si dà" in out.say("it")
    assert book.table().seq == before and not other.exists()


def test_undo_takes_back_the_last_command_and_says_so(book):
    book.new(["Anna", "Bruno"])
    book.execute("roll 1 2")
    out = book.execute("undo")
    assert out.refusal is None and "undone" in out.say("en")
    assert book.table().turn.player == "Anna" and book.table().turn.phase == "roll"


def test_new_a_correction_and_a_recorded_ruling_are_lines_the_library_records(book):
    """`new`, the referee's `correct` and `ruling ... --record` are read by cli/lines' builders
    (their options from the one table of words, Italian too), with no click."""
    out = book.execute("nuova Anna Bruno --regole classic", lang="it")
    assert out.refusal is None and out.game == 1
    assert out.say("en").splitlines()[0].startswith("game 1: Anna, Bruno with 1500 M each")
    assert book.execute("new Anna").refusal.code == 1  # one player: the rules refuse it
    out = book.execute("correct Anna -40 --reason 'a slip' --referee Rita", game=1)
    assert out.refusal is None, out.refusal and out.refusal.say()
    assert [e["type"] for e in out.events] == ["CommandRecorded", "CashCorrected"]
    assert out.events[0]["data"]["line"] == "correct Anna -40 --reason 'a slip' --referee Rita"
    assert "arbitro Rita: a slip" in out.say("it")
    assert {p.name: p.cash for p in book.table(1).players}["Anna"] == 1460
    # a player of the game is no referee of it; a form without its referee is a usage error
    assert book.execute("correct Anna 40 --reason x --referee Bruno").refusal.code == 1
    assert book.execute("correggi Anna 40 --motivo x").refusal.code == 2
    book.execute("roll 1 2")
    book.execute("buy")
    rolled = book.execute("roll 2 1")
    landing = next(e["seq"] for e in rolled.events if e["type"] == "RentClaimOpened")
    read = book.execute(f"decisione affitto {landing}", lang="it")  # a reading: nothing appended
    assert read.refusal is None and read.events == () and "still open" in read.say("en")
    assert book.rule(1, "rent", landing).text() == read.say("en")
    out = book.execute(f"ruling rent {landing} --record --referee rita", id="r1")
    assert [e["type"] for e in out.events][-1] == "RulingRecorded"
    assert out.say("en").splitlines()[-1].startswith("recorded as event ")
    again = book.execute(f"ruling rent {landing} --record --referee rita", id="r1")
    assert again.replayed and "already recorded as event" in again.say("en")


def test_a_reading_or_no_word_is_refused_as_the_command_line_s(book):
    book.new(["Anna", "Bruno"])
    for line, said in (("state", "`state` is not a table action: run it at the terminal"),
                       ("rol 1 2", "no command called 'rol': did you mean roll?"),
                       ("--id k", "is not a table action")):
        out = book.execute(line)
        assert out.refusal.code == 2 and out.events == () and said in out.say("en"), line
    assert "intendevi tira" in book.execute("tra 1 2", lang="it").say("it")
    for line in ("roll 1 2 --id ''", "correct Anna 5 --reason x --referee R --id ' '"):
        assert "--id needs a key" in book.execute(line).say("en"), line


def test_a_typed_new_game_is_started_with_its_line_and_authorized_first(book):
    """The command line hands `new` to execute as the typed command click built, with the
    words it was typed as; the caller's permission check sees it before anything is made."""
    from banco.cli.lines.referee import NewGame
    from banco.ledger.base.errors import UsageError

    def refuse(command, table):
        assert table is None  # no game yet to decide it on
        raise UsageError("no new games here")

    command = NewGame(("Anna", "Bruno"), "classic", None, None, False, None)
    refused = book.execute(command, authorize=refuse)
    assert refused.refusal is not None and refused.refusal.code == 2 and book.games() == []
    out = book.execute(command, line="new Anna Bruno", id="n1")
    assert out.refusal is None and out.game == 1 and "game 1: Anna, Bruno" in out.say("en")
    assert out.events[0]["data"]["line"] == "new Anna Bruno"
    assert book.execute(command, line="new Anna Bruno", id="n1").replayed


def test_a_line_read_is_its_typed_command_and_executed_is_that_command(book, monkeypatch):
    """`read` gives what `execute` would record (or its usage refusal), recording nothing, and
    `execute(read)` records that very command: the words are not read again (the phones'
    server decides on the command and holds a trade as read)."""
    from banco.cli.lines import parse
    from banco.ledger.records.commands import CorrectCash, Trade

    book.new(["Anna", "Bruno"])
    for line in ("roll 1 2", "buy"):  # Anna buys Vicolo Stretto (3)
        assert book.execute(line, game=1).refusal is None
    read = book.read("scambia anna BRUNO --dai vicolo stretto --ricevi 20 --lang en", game=1)
    assert read.refusal is None and read.game == 1 and read.word == "trade"
    assert isinstance(read.command, Trade) and (read.command.a, read.command.b) == ("Anna", "Bruno")
    assert read.context == {"--lang": "en"}
    assert read.recorded == "scambia anna BRUNO --dai vicolo stretto --ricevi 20"
    assert book.table(1).seq == read_seq(book)  # nothing recorded
    monkeypatch.setitem(parse.BUILDERS, "trade", lambda *a, **k: pytest.fail("read again"))
    done = book.execute(read)
    assert done.refusal is None and done.command == read.command
    traded = next(e["data"] for e in done.events if e["type"] == "TradeCompleted")
    assert (traded["a_gives"]["properties"], traded["b_gives"]["cash"]) == ([3], 20)
    assert done.events[0]["data"]["line"] == read.recorded
    for line, code in (("roll 'x", 2), ("state", 2), ("roll 9 9", 2), ("trade Anna --lang", 2),
                       ("roll 3 4 --expect x", 2)):
        refused = book.read(line, game=1)
        assert refused.command is None and refused.refusal.code == code, line
        assert book.execute(refused).refusal == refused.refusal
    corrected = book.read("correggi Anna 5 --motivo slip --arbitro Rita", game=1)
    assert isinstance(corrected.command, CorrectCash) and corrected.command.referee == "Rita"
    assert book.read("roll 3 4 --game 1 --id k --expect 3").context == {
        "--game": "1", "--id": "k", "--expect": "3"}
    assert book.parse(["roll", "3", "4"], game=1) == Roll((3, 4))


def read_seq(book) -> int:
    return book.book.store.last_seq(1)
