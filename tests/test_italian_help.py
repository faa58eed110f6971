"""The Italian help lists an option's Italian name beside its English one: its text said
`Con --al ...` and its messages `--arbitro NOME`, while the list of options showed only `--at`
and `--referee`.  Both names work; the English help is unchanged."""

import pytest


@pytest.mark.parametrize("args,line", [
    (("stato", "--help"), "--al, --at SEQ|ORA"),
    (("correggi", "--help"), "--arbitro, --referee NOME"),
    (("correggi", "--help"), "--motivo, --reason TESTO"),
    (("decisione", "affitto", "--help"), "--richiesta-al, --claim-at SEQ|ORA"),
    (("verifica", "--help"), "--impronta-attesa, --expect-head"),
])
def test_the_italian_help_names_the_italian_option_first(banco, args, line):
    out = banco("--lang", "it", *args).output
    assert line in out
    assert "  --db FILE" in out  # an option with no Italian name keeps its one name


def test_the_english_help_keeps_one_name_and_both_names_work(banco):
    out = banco("state", "--help").output
    assert "  --at SEQ|TIME" in out and "--al" not in out
    banco("new", "Anna", "Bruno")
    assert "at event 3" in banco("--lang", "it", "stato", "--al", "3").output.replace(
        "all'evento 3", "at event 3")
    # the language changes between runs in one process (the shell, the tests): said anew
    assert "--al, --at" in banco("--lang", "it", "state", "--help").output
    assert "--al" not in banco("--lang", "en", "state", "--help").output
