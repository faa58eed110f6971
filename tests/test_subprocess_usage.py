"""Click's own usage mistakes as banco's one `error:` line (exit 2), a line expected refused and
accepted, a shell fed on a pipe, and a recorded command whose answer cannot be written."""

import subprocess

from installed import BANCO, FIXED, INSTALLED, banco, rows

pytestmark = INSTALLED


# --- click's own usage mistakes: banco's one `error:` line, exit 2 ----------------------------

def test_click_usage_mistakes_are_one_error_line(tmp_path):
    """`bid bea 5O`, `buy buy`, `pay Bea 50`, `--game abc`, a transcript that is not there: once
    click's block (`Usage: ... Try 'banco bid --help' ... Error: Invalid value`)."""
    db = tmp_path / "u.db"
    banco("--db", db, "new", "Anna", "Bea")
    before = rows(db)
    for args, said in [
            (["bid", "Bea", "5O"], "error: '5O' is not a valid integer: did you mean 50? (a "
                                   "letter typed for a digit)\n"),
            (["bid", "Bea", "５"], "error: '５' is not a valid integer: did you mean 5? (type "
                                   "the digits 0-9)\n"),
            (["bid", "50", "Bea"], "error: the amount comes after the name: `bid Bea 50`"),
            (["buy", "buy"], "error: Got unexpected extra argument (buy); usage: banco buy "
                             "[OPTIONS]\n  `buy` takes no words: the current player buys the "
                             "property where the token stands, at its printed price\n"),
            (["pay", "Bea", "50"], "error: Got unexpected extra argument (50); usage: banco "
                                   "pay [OPTIONS] [DEBTOR]\n  `pay DEBTOR` settles a debt the "
                                   "rules already worked out (a rent, a tax, a card), so it "
                                   "takes no amount; players hand each other cash only in a "
                                   "trade with something on both sides: `trade A B --give 50 "
                                   "--get PROPERTY` (003 §06)\n"),
            (["--lang", "it", "riscuoti", "Bea", "26"], "errore: Argomento in più inatteso "
             "(26); uso: banco riscuoti [OPZIONI] PROPRIETARIO\n  `riscuoti PROPRIETARIO` non "
             "prende un importo: banco calcola l'affitto dal tabellone (`tabellone` lo "
             "mostra)\n"),
            (["claim"], "error: Missing argument 'OWNER'; usage: banco claim [OPTIONS] OWNER\n"),
            (["--game", "abc", "state"],
             "error: Invalid value for '--game': 'abc' is not a valid integer."),
            (["run", tmp_path / "nofile.banco"], "error: Invalid value for 'TRANSCRIPT': ")]:
        result = banco("--db", db, *args, code=2)
        # one line; a word given more than it takes says under it what was likely meant
        assert result.stderr.startswith(said) and len(result.stderr.splitlines()) == \
            said.count("\n  ") + 1, (args, result.stderr)
        assert "Usage:" not in result.stderr and "Try 'banco" not in result.stderr
    assert rows(db) == before


def test_an_accepted_line_expected_refused_is_counted_recorded_and_exits_2(tmp_path):
    """A `!` line the rules accept is recorded: run says so, with its events and `undo`, and
    exits 2 (the transcript is mistaken), not 1, which says nothing was appended."""
    db = tmp_path / "r.db"
    script = tmp_path / "g.banco"
    script.write_text("new Anna Bea\nroll 1 2\n! buy\nroll 2 3\n")
    result = banco("--db", db, "run", "-q", script, code=2)
    assert result.stderr.strip().splitlines()[-1] == (
        f"{script}:3: `buy` was expected to be refused, but was accepted and recorded "
        "(events 9-11: `undo` takes it back, or remove its `!` if the table was right); "
        "stopped after 3 lines")
    assert [r[2] for r in rows(db)][-3:] == ["CommandRecorded", "PropertyBought", "TurnEnded"]
    assert [r[1] for r in rows(db)][-3:] == [9, 10, 11]
    # a re-run does not go on past it as if the table had refused it
    again = banco("--db", db, "run", "-q", script, code=2)
    assert again.stderr.strip() == (
        f"{script}:3: `buy` was expected to be refused, but an earlier run recorded it as "
        "accepted (events 9-11): remove its `!` if the table was right; nothing was recorded "
        "by this run")
    assert len(rows(db)) == 11
    # the table was right: without the `!` (not part of a line's id) the run goes on
    script.write_text("new Anna Bea\nroll 1 2\nbuy\nroll 2 3\n")
    assert "1 line done (3 were recorded before)" in banco("--db", db, "run", "-q", script).stdout
    assert "undone" in banco("--db", db, "undo").stdout


def test_a_shell_fed_on_a_pipe_exits_with_its_first_failed_line_s_code(tmp_path):
    """`banco shell < lines`: a script learns that a line failed, as `banco run` tells it; the
    lines after it still run (a shell goes on), and a clean feed exits 0."""
    db = tmp_path / "p.db"
    banco("--db", db, "new", "Anna", "Bruno", env=FIXED)

    def fed(text):
        return subprocess.run([str(BANCO), "--db", str(db), "shell"], input=text,
                              capture_output=True, text=True, timeout=60)

    r = fed("rol 3 4\nbuy\nroll 3 4\n")  # a usage error first, then a refusal, then a roll
    assert "Traceback" not in r.stderr
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert "did you mean roll?" in r.stderr and "refused: cannot buy now" in r.stderr
    assert "Anna rolls 3+4 = 7" in r.stdout  # the line after the failures was run
    r = fed("buy\nstate\n")  # Anna on Imprevisti: a refusal first
    assert r.returncode == 1, (r.stdout, r.stderr)
    r = fed("state\nlog --tail 1\n")
    assert r.returncode == 0, (r.stdout, r.stderr)


def test_banco_s_own_options_typed_first_in_the_shell_are_answered_with_its_words(tmp_path):
    """`--partita 7` was answered "Nessuna opzione '--partita'", `--game 7` "Missing command",
    `--id k roll 1 2` "Did you mean '--db'?", which a shell line refuses: the shell's own word
    is said, in its language, and nothing is recorded (exit 2, the first failed line's)."""
    db = tmp_path / "o.db"
    banco("--db", db, "new", "Anna", "Bruno", env=FIXED)
    before = rows(db)

    def fed(text, *lang):
        r = subprocess.run([str(BANCO), "--db", str(db), *lang, "shell"], input=text,
                           capture_output=True, text=True, timeout=60)
        assert "Traceback" not in r.stderr and r.returncode == 2, (r.stdout, r.stderr)
        return r.stderr.splitlines()

    assert fed("--game 7\n--id k roll 1 2\n--lang it\n") == [
        "error: `--game 7` is no word of the shell: `game 7` moves the shell to game 7 "
        "(`state --game 7` looks at it for that line only)",
        "error: --id goes after the command's word: `roll ... --id KEY`",
        "error: the shell speaks the language it was opened in: `state --lang it` says one "
        "line in another; `banco --lang it shell` opens one in it"]
    assert fed("--partita 7\n--game=1\n", "--lang", "it") == [
        "errore: `--partita 7` non è una parola della shell: `partita 7` porta la shell alla "
        "partita 7 (`stato --game 7` la guarda solo per quella riga)",
        "errore: `--game=1` non è una parola della shell: `partita 1` porta la shell alla "
        "partita 1 (`stato --game 1` la guarda solo per quella riga)"]
    assert rows(db) == before


def test_a_recorded_command_whose_answer_is_lost_says_it_was_recorded(tmp_path):
    """`banco card imprevisti 8 > /dev/full` said only 'cannot write the answer' though the
    card was recorded: a banker would type it again.  The error says the command was
    recorded, which events, and not to type it again (exit 4 still); a reading says only
    that its answer is lost, and the card is in the book once."""
    db = tmp_path / "full.db"
    banco("--db", db, "new", "Ada", "Bea", "Cy")
    banco("--db", db, "roll", "3", "4")  # Ada on Imprevisti, events up to 9
    with open("/dev/full", "w") as full:
        r = subprocess.run([str(BANCO), "--db", str(db), "card", "imprevisti", "8"], stdout=full,
                           stderr=subprocess.PIPE, text=True, timeout=60)
        state = subprocess.run([str(BANCO), "--db", str(db), "state"], stdout=full,
                               stderr=subprocess.PIPE, text=True, timeout=60)
    assert r.returncode == 4 and "Traceback" not in r.stderr, r.stderr
    assert r.stderr == ("error: the command was recorded (events 10-13); its answer could not "
                        "be written: No space left on device; `banco state` shows the table: "
                        "do not type it again\n")
    assert state.returncode == 4
    assert state.stderr == "error: cannot write the answer: No space left on device\n"
    assert "last: card imprevisti 8" in banco("--db", db, "state").stdout
