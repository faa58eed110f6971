"""A word an older banco took (`trasferisci`, `copy`'s before `copia`) is read and never
shown: the words shown are a table of their own (vocabulary.ITALIAN_WORDS), and the former
words are data beside it (FORMER), not an entry that must come first in ALIASES so that a
table turned round lets the shown word win."""

import pytest
from click.testing import CliRunner

from banco.cli.lines import vocabulary
from banco.cli.main import cli


def said(*args, stdin=None) -> str:
    result = CliRunner().invoke(cli, list(args), input=stdin, catch_exceptions=False)
    return result.output


def test_the_words_read_are_the_words_shown_and_the_former_ones():
    assert vocabulary.ALIASES == {**{it: en for en, it in vocabulary.ITALIAN_WORDS.items()},
                                  **vocabulary.FORMER}
    assert vocabulary.english_word("trasferisci") == "copy"
    assert not set(vocabulary.FORMER) & set(vocabulary.ITALIAN_WORDS.values())
    # turned round, ALIASES would show a former word: nothing shown may read it that way
    assert {en: it for it, en in vocabulary.ALIASES.items()}["copy"] == "trasferisci"


def test_no_former_word_is_shown_by_help_completion_hints_or_the_phones_pads(tmp_path):
    from banco.cli.banker.shell_help import spoken, words
    from banco.cli.command_table import close_words, spoken_words
    from banco.cli.lines.referee import not_recorded_here
    from banco.cli.web.choices import line_words
    from banco.cli.words import i18n

    db = str(tmp_path / "f.db")
    said("--db", db, "new", "Anna", "Bea")
    former = set(vocabulary.FORMER)
    shown = [
        said("--lang", "it", "--help"), said("--lang", "it", "aiuto"),
        said("--lang", "it", "aiuto", "tutto"),
        said("--db", db, "--lang", "it", "trasferisci"),  # its usage names `copia`
        said("--db", db, "--lang", "it", "shell",
             stdin="aiuto\naiuto tutto\naiuto trasferisci\ntrasferisci\ntrasferisc\n"),
        " ".join(words()), " ".join(line_words("it").values()),
        str(not_recorded_here(["trasferisc"], "it")),
    ]
    with i18n.in_language("it"):
        shown += [" ".join(spoken_words()), " ".join(spoken()),
                  " ".join(close_words("trasferisc"))]
    for text in shown:
        assert not former & set(text.replace("`", " ").replace("'", " ").split()), text
    assert "copia" in shown[0] and "copia" in shown[3] and "aiuto copia" in shown[4]


@pytest.mark.parametrize("line", ["trasferisci a.db b.db", "TRASFERISCI a.db b.db"])
def test_a_former_word_still_runs_its_command(tmp_path, line):
    src, dst = tmp_path / "a.db", tmp_path / "b.db"
    said("--db", str(src), "new", "Anna", "Bea")
    word = line.split()[0]
    out = said("--lang", "it", word, str(src), str(dst))
    assert dst.exists(), out
