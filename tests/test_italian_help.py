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


def _paths(command, prefix=()):
    """Every command's words on the line: `correct`, `ruling rent`, `tournament add` ..."""
    import click

    yield prefix
    if isinstance(command, click.Group):
        ctx = click.Context(command, info_name="banco")
        for name in command.list_commands(ctx):
            yield from _paths(command.get_command(ctx, name), (*prefix, name))


def test_every_command_s_italian_help_is_whole_italian():
    """`aiuto correggi` showed `correct GIOCATORE IMPORTO` and `back to the \\`bank\\``: the
    Italian help of every command (and subcommand) has no English line of its source, no
    English command word where Italian has its own (an example's first word, or a word in
    backticks) and no `bank` for the Bank (`banca` is what the Italian line takes)."""
    import re

    from click.testing import CliRunner

    from banco.cli.command_table import ITALIAN_WORDS
    from banco.cli.main import cli

    italian = ITALIAN_WORDS  # the words shown
    runner = CliRunner()
    found = []
    for path in _paths(cli):
        english = runner.invoke(cli, ["--lang", "en", *path, "--help"]).output
        said = runner.invoke(cli, ["--lang", "it", *path, "--help"]).output
        lines = {s for s in map(str.strip, english.splitlines())
                 if len(s.split()) >= 4 and not s.startswith("-")}
        for line in said.splitlines():
            if line.strip() in lines:
                found.append((path, "English", line))
            for m in re.finditer(r"(?:^\s+|`)(?:banco )?([a-z][a-z-]*)\b", line):
                if m.group(1) in italian:
                    found.append((path, m.group(1), line))
            if "`bank`" in line:
                found.append((path, "bank", line))
    assert not found


def test_no_command_s_italian_one_line_help_carries_a_stray_quote(banco):
    """`banco --lang it --help` listed `trasferisci (copy)  ""Copia ogni partita...`: quotes
    left in the catalog by hand.  Every command's line, in Italian, begins with its words."""
    listing = banco("--lang", "it", "--help").output.split("Comandi:", 1)[-1]
    import re

    lines = [re.match(r"  \S+(?: \(\S+\))?\s+(.*)", line) for line in listing.splitlines()
             if re.match(r"  \S", line)]
    assert len(lines) > 20 and all(lines), listing
    for line in lines:
        assert not line[1].startswith(('"', "'")) and '""' not in line[1], line[0]


def test_no_italian_message_gains_quotes_its_english_does_not_have():
    """The same, over every message of the catalog: a translation that begins with a quote, or
    holds two quotes together, where the English does not."""
    from pathlib import Path

    from babel.messages.pofile import read_po

    po = Path(__file__).resolve().parents[1] / "cli/words/locale/it/LC_MESSAGES/banco.po"
    with open(po, "rb") as f:
        catalog = read_po(f)
    stray = []
    for m in catalog:
        english = m.id[0] if isinstance(m.id, (list, tuple)) else m.id
        for italian in m.string if isinstance(m.string, (list, tuple)) else [m.string]:
            if not english or not italian:
                continue
            if (italian.startswith('"') and not english.startswith('"')) or (
                    '""' in italian and '""' not in english):
                stray.append(italian[:60])
    assert stray == []


@pytest.mark.parametrize("lang, typed, usage", [
    ("it", "help roll", "Uso: tira [OPZIONI] D1 D2 [S]"),
    ("it", "aiuto riscuoti", "Uso: riscuoti [OPZIONI] PROPRIETARIO"),
    ("it", "aiuto claim", "Uso: riscuoti [OPZIONI] PROPRIETARIO"),
    ("en", "help tira", "Usage: roll [OPTIONS] D1 D2 [S]"),
    # caps lock is no other word, as on the line (it was "no word 'ROLL'")
    ("it", "aiuto ROLL", "Uso: tira [OPZIONI] D1 D2 [S]"),
    ("en", "help Tira", "Usage: roll [OPTIONS] D1 D2 [S]"),
])
def test_the_shell_s_help_names_the_word_in_the_shell_s_language(banco, lang, typed, usage):
    """`help roll` in an Italian shell said `Uso: roll [OPZIONI]`: the English name typed
    became the usage's word, in an otherwise Italian help."""
    from click.testing import CliRunner

    from banco.cli.main import cli

    banco("new", "Anna", "Bruno")
    out = CliRunner().invoke(cli, ["--db", banco.db, "--lang", lang, "shell"],
                             input=typed + "\n").output
    said = [line.split("> ")[-1] for line in out.splitlines() if "Us" in line]
    assert said == [usage], out


def test_no_help_breaks_a_word_at_its_hyphen():
    """`scambia --help` wrapped `carta-prigione` as `carta-` and `prigione` on two lines (the
    last trial): at the terminal's 80 columns, no command's help (in either language) ends a
    line inside a hyphenated word, option or value."""
    import re

    from click.testing import CliRunner

    from banco.cli.main import cli

    runner = CliRunner(env={"COLUMNS": "80"})
    broken = []
    for path in _paths(cli):
        for lang in ("en", "it"):
            said = runner.invoke(cli, ["--lang", lang, *path, "--help"]).output
            assert max(len(line) for line in said.splitlines()) <= 80, (lang, path)
            broken += [(lang, path, line) for line in said.splitlines()
                       if re.search(r"[\w`\[]-$", line)]
    # `help scambia` on the command line and in the shell: the same help
    for args in (["--lang", "it", "help", "scambia"], ["--lang", "it", "shell"]):
        said = runner.invoke(cli, args, input="aiuto scambia\n").output
        assert "`carta-prigione`" in said, args
    assert broken == []
