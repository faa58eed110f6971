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
