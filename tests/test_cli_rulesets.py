"""The words of the rule sets beyond classic at the command line: what `new` says, a mistyped
`deal`, `pay --with` or `--final` is a usage error (exit 2) that records nothing."""

import json


def facts(banco) -> int:
    return len(json.loads(banco("log", "--json").output))


def test_new_says_the_capital_and_what_comes_first(banco):
    out = banco("new", "Anna", "Bruno", "Carla", "--rules", "vintage").output
    assert "with 300.000 £ each; rules vintage, edition it-lire" in out
    assert "next: deal the deeds before the first roll (still to deal: Anna 6, Bruno 6, " \
           "Carla 6)" in out
    out = banco("new", "Anna", "Bruno", "--rules", "championship", "--final").output
    assert "rules championship, edition it, a final" in out and "Anna to roll" in out
    assert json.loads(banco("state", "--json").output)["final"] is True


def test_mistyped_words_are_usage_errors_and_record_nothing(banco):
    banco("new", "Anna", "Bruno", "--rules", "vintage")
    before = facts(banco)
    err = banco("deal", "Anna", "vicolo cortissimo", code=2).output
    assert "Vicolo Corto" in err  # the nearest name is suggested
    err = banco("pay", "Anna", "--with", "Vicolo Corto", code=2).output
    assert "PROPERTY=PRICE" in err
    err = banco("new", "Anna", "Bruno", "--final", code=2).output
    assert "--final: the classic rules make no difference" in err
    assert facts(banco) == before


def test_deal_reads_names_without_quotes_and_the_shell_completes_them(banco):
    from banco.cli.banker.shell import BancoShell
    from banco.cli.main import cli as banco_cli
    from banco.cli.session import Session

    banco("new", "Anna", "Bruno", "--rules", "short")
    out = banco("deal", "Anna", "vicolo", "corto", "stazione", "sud").output
    assert "Anna pays 260 M to the Bank: deeds dealt and paid at once: Vicolo Corto 60 M + " \
           "Stazione Sud 200 M" in out
    shell = BancoShell(Session(banco.db, None), banco_cli, history=None)
    assert shell.completedefault("Br", "deal Br", 5, 7) == ["Bruno "]
    assert "Viale Vesuvio" in shell.completedefault("Viale", "deal Bruno Viale", 11, 16)


def test_each_deal_answer_ends_with_what_the_table_waits_for(banco):
    """A trial: the last `deal`'s answer ended with the payment, where docs/banker.md says
    every answer ends with what the table waits for.  A deal before the last names the deeds
    still to deal; the last, whose roll it is."""
    banco("new", "Anna", "Bruno", "--rules", "short")
    out = banco("deal", "Anna", "vicolo", "corto", "stazione", "sud").output
    assert out.rstrip().splitlines()[-1] == ("next: deal the deeds before the first roll "
                                             "(still to deal: Bruno 2): `deal PLAYER PROPERTY...`")
    out = banco("deal", "Bruno", "via", "roma", "vicolo", "stretto").output
    assert out.rstrip().splitlines()[-1] == "Anna to roll"
