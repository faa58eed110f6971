"""The worst a banker can type in the shell, in both languages: each mistake one specific
`error:` with the word's usage under it, never a traceback, and nothing appended.  The command
line's answers to the same lines are tests/test_cli_bad_input.py's (as separate processes)."""

from click.testing import CliRunner

from banco.cli.main import cli


def typed(db, *lines, lang="en") -> str:
    """What `banco shell` says to `lines` typed one after another (stdout and stderr): run
    as the banker runs it, so that click speaks the shell's language too."""
    result = CliRunner().invoke(cli, ["--db", db, "--lang", lang, "shell"],
                                input="".join(f"{x}\n" for x in lines), catch_exceptions=False)
    return result.output  # its exit code: a piped shell's is its last line's


def test_a_reading_s_option_without_its_value_has_the_reading_s_usage_under_it(banco):
    """`state --at` said only click's `Option '--at' requires an argument.`; a table action's
    (`roll 1 2 --player`) had its usage under it: a reading's has too."""
    banco("new", "Anna", "Bea")
    err = typed(banco.db, "state --at") + typed(banco.db, "stato --al", lang="it")
    assert ("error: Option '--at' requires an argument.\n"
            "  Usage: state [OPTIONS]  (`help state` says more)\n") in err, err
    assert ("errore: L'opzione '--al' richiede un argomento.\n"
            "  Uso: stato [OPZIONI]  (`aiuto stato` dice di più)\n") in err, err


def test_an_option_given_twice_in_the_shell_is_refused_and_nothing_is_recorded(banco):
    """The shell's table actions are read by the parser (cli/lines/parse.py), which kept the
    last value as click did: `roll 1 2 -p Anna -p Bea` and a correction's two reasons."""
    import json

    banco("new", "Anna", "Bea")
    seq = json.loads(banco("state", "--json").output)["seq"]
    said = typed(banco.db, "roll 1 2 -p Anna -p Bea",
                 "correct Anna 5 --reason a --reason b --referee Rita")
    said_it = typed(banco.db, "tira 1 2 --giocatore Anna -p Bea", lang="it")
    assert "error: -p is given twice, Anna and Bea: give it once" in said, said
    assert "error: --reason is given twice, a and b: give it once" in said, said
    assert "errore: --giocatore è dato due volte, Anna e Bea: dallo una volta sola" in said_it
    assert json.loads(banco("state", "--json").output)["seq"] == seq


def test_game_with_no_number_says_what_it_takes(banco):
    """`game abc` and `game -1` were told "'-1' is not a valid integer"."""
    banco("new", "Anna", "Bea")
    said = typed(banco.db, "game abc", "game -1", "game ５")
    said_it = typed(banco.db, "partita abc", lang="it")
    assert "error: 'abc' is not a game's number: `game N`, N as `games` lists them" in said
    assert "error: '-1' is not a game's number: `game N`, N as `games` lists them" in said
    assert "did you mean 5?" in said, said
    assert ("errore: 'abc' non è il numero di una partita: `partita N`, N come lo elenca "
            "`partite`") in said_it, said_it
