"""The worst a banker can type on the command line, run on the installed `banco`: every
mistake a specific `error:` (which rule, what is allowed, a suggestion) with DESIGN.md's exit
code, never a traceback and nothing appended.  The shell's answers to the same lines are in
tests/test_shell_bad_input.py."""

from installed import INSTALLED, banco, rows

pytestmark = INSTALLED


def test_an_option_without_its_value_says_the_usage_and_what_the_option_takes(tmp_path):
    """click's `Option '--player' requires an argument.` came alone on the command line: the
    word's usage goes beside it and the option's line of help under it (the shell said the
    usage), in Italian too, naming the option as typed (`--giocatore`, not `--player`); a
    trade's `--give` with nothing after it is a usage mistake, not the rules' empty trade."""
    db = tmp_path / "o.db"
    banco("--db", db, "new", "Anna", "Bea")
    before = rows(db)
    for args, said in [
            (["roll", "1", "2", "--player"],
             "error: Option '--player' requires an argument; usage: banco roll [OPTIONS] D1 D2 "
             "[S]\n  -p, --player TEXT: Check that it is this player's turn.  (`banco roll "
             "--help` says more)\n"),
            (["--lang", "it", "tira", "1", "2", "--giocatore"],
             "errore: L'opzione '--giocatore' richiede un argomento; uso: banco tira [OPZIONI] "
             "D1 D2 [S]\n  --giocatore, -p, --player TESTO: Controlla che sia il turno di "
             "questo giocatore.  (`banco tira --help` dice di più)\n"),
            (["--game"], "error: Option '--game' requires an argument; usage: banco [OPTIONS] "
                         "COMMAND [ARGS]...\n  --game INTEGER: Game number (env BANCO_GAME); "
                         "default: the latest unfinished game.  (`banco --help` says more)\n"),
            (["state", "--json=1"], "error: Option '--json' does not take a value; usage: "
                                    "banco state [OPTIONS]\n  --json: Stable JSON for "
                                    "scripts.  (`banco state --help` says more)\n"),
            (["trade", "Anna", "Bea", "--give"],
             "error: --give needs what Anna gives: a property, an amount of cash or jail-card "
             "(`trade Anna Bea --give ITEM... --get ITEM...`)\n"),
            (["--lang", "it", "scambia", "Anna", "Bea", "--ricevi", "--dai", "10"],
             "errore: --ricevi vuole ciò che Bea dà: una proprietà, una somma di denaro o "
             "carta-prigione (`scambia Anna Bea --dai ELEMENTO... --ricevi ELEMENTO...`)\n")]:
        result = banco("--db", db, *args, code=2)
        assert result.stderr == said, (args, result.stderr)
    assert rows(db) == before


def test_a_copy_given_one_store_says_it_reads_no_db(tmp_path):
    """A trial's `banco --db X copy DST` was told "Missing argument 'DST'": copy names both
    stores and reads no --db (nor BANCO_DB); nothing is made."""
    db = tmp_path / "o.db"
    banco("--db", db, "new", "Anna", "Bea")
    r = banco("--db", db, "copy", tmp_path / "n.db", code=2)
    assert r.stderr == f"error: copy names both stores and reads no --db: `banco copy {db} " \
                       f"{tmp_path / 'n.db'}`\n"
    r = banco("copy", tmp_path / "n.db", code=2, env={"BANCO_DB": str(db)})
    assert "reads no --db: `banco copy" in r.stderr
    r = banco("--lang", "it", "copia", tmp_path / "n.db", code=2)
    assert r.stderr.startswith("errore: ") and "`banco copia SRC DST`" in r.stderr
    assert not (tmp_path / "n.db").exists()


def test_the_worst_lines_are_each_refused_specifically_with_their_exit_code(tmp_path):
    """An option given twice went to the last value without a word (another game, file or
    player than the banker read on the line); BANCO_GAME=abc was blamed on `--game`, which
    nobody typed; `--id` before the word was offered `--db`; a range was `x>=0`; an Italian
    option was named in English."""
    db = tmp_path / "w.db"
    banco("--db", db, "new", "Anna", "Bea")
    before = rows(db)
    twice = "is given twice, {} and {}: give it once (the last would be taken without a word)"
    for args, env, said in [
            (["--game", "1", "--game", "2", "state"], {}, "error: --game " + twice.format(1, 2)),
            (["--game", "1", "state", "--game=2"], {}, "error: --game " + twice.format(1, 2)),
            # two files: the last was taken without a word (an alias's `--db` is an
            # environment's BANCO_DB, which one --db overrides)
            (["--db", tmp_path / "b.db", "state"], {},
             "error: --db " + twice.format(db, tmp_path / "b.db")),
            (["--lang", "it", "stato", "--db", tmp_path / "b.db"], {},
             f"errore: --db è dato due volte, {db} e {tmp_path / 'b.db'}: dallo una volta sola "
             "(varrebbe l'ultimo senza dire nulla)"),
            (["roll", "1", "2", "-p", "Anna", "--player", "Bea"], {},
             "error: -p " + twice.format("Anna", "Bea")),
            (["--lang", "it", "tira", "1", "2", "--giocatore", "Anna", "-p", "Bea"], {},
             "errore: --giocatore è dato due volte, Anna e Bea: dallo una volta sola (varrebbe "
             "l'ultimo senza dire nulla)"),
            (["state"], {"BANCO_GAME": "abc"},
             "error: BANCO_GAME=abc is not a game number: a whole number, as `banco games` lists "
             "them (or unset BANCO_GAME for the latest unfinished game)"),
            (["--id", "k1", "roll", "1", "2"], {},
             "error: --id goes after the command's word: `banco roll ... --id KEY`"),
            (["--lang", "it", "registro", "--ultimi", "-1"], {},
             "errore: Valore non valido per '--ultimi': -1 non è nell'intervallo 0 o più."),
            (["--lang", "xx", "state"], {},
             "error: Invalid value for '--lang': 'xx' is not one of 'en', 'it'."),
            (["--game", "0", "state"], {}, "error: no game 0 in this database (games: 1)"),
            (["rоll", "1", "2"], {}, "error: no command called 'rоll' (its 'о' is U+043E, no "
                                     "plain letter: a command word is typed in a-z): did you "
                                     "mean roll?"),
            (["--lang", "it", "tirа", "1", "2"], {},
             "errore: nessun comando chiamato 'tirа' (la sua 'а' è U+0430, non una lettera "
             "semplice: una parola di comando si scrive in a-z): intendevi tira?"),
            ([""], {}, "error: no command called ''; `banco --help` lists them"),
            # the help a hint names comes in the language asked (a trial's `banco --help`
            # after `banco --lang it frobnica` came in English)
            (["--lang", "it", "frobnica"], {},
             "errore: nessun comando chiamato 'frobnica'; `banco --lang it --help` li elenca"),
            (["frobnica"], {"BANCO_LANG": "it"},
             "errore: nessun comando chiamato 'frobnica'; `banco --help` li elenca"),
            # options and no command: the help, as a bare `banco` (it was "Missing command.")
            (["--lang", "it"], {}, "Uso: banco [OPZIONI] COMANDO [ARGOMENTI]...")]:
        result = banco("--db", db, *args, code=2, env=env)
        assert result.stderr.splitlines()[0] == said, (args, result.stderr)
    assert not (tmp_path / "b.db").exists()
    assert rows(db) == before
