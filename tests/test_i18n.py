"""Italian and English: the catalogs are complete and compiled, and the language is chosen as
documented.  What is said in it is tests/test_i18n_said.py's, its grammar
tests/test_i18n_grammar.py's."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from i18n_run import clear_locale, run

from banco.cli.words import i18n

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "tools"))

import catalogs  # noqa: E402  (tests/tools/catalogs.py: extraction and compiling, by Babel)


@pytest.fixture(scope="module")
def template():
    return catalogs.extract()


# --- the catalogs --------------------------------------------------------------------------


@pytest.mark.parametrize("lang", catalogs.LANGUAGES)
def test_every_marked_message_is_translated_with_the_same_placeholders(lang, template):
    assert catalogs.problems(lang, template) == []


def test_the_extraction_finds_refusals_help_headings_and_contexts(template):
    ids = {m.id if isinstance(m.id, str) else m.id[0] for m in template}
    assert "{name} has {cash} in cash and {space} costs {price}" in ids  # a RuleViolation
    assert "Buy the property the current player stands on." in ids  # a command's help
    assert "net worth" in ids  # a heading inside an f-string
    assert template.get("go", context="space kind") is not None  # pgettext
    assert "Show this message and exit." in ids  # click's own words
    # a marker inside another's arguments, which Babel skips: it stayed English in Italian
    assert "nobody is in debt" in ids and "say who: {items} owe money" in ids
    nested = list(catalogs._nested('raise RuleViolation(msg("a") if x else msg("b {n}", n=1), '
                                   'allowed=msg("c"))\nmsg("top")', "f.py"))
    assert [m for m, _where, _ctx in nested] == ["a", "b {n}", "c"]


def test_a_missing_or_mismatched_translation_is_reported(template, tmp_path, monkeypatch):
    """The check itself fails on what it is there to catch."""
    from babel.messages.pofile import write_po

    catalog = catalogs.read_po("it")
    catalog.get("{player} to roll").string = "tocca a {giocatore} tirare"
    catalog.get("Buy the property the current player stands on.").string = ""
    po = tmp_path / "it" / "LC_MESSAGES" / "banco.po"
    po.parent.mkdir(parents=True)
    with open(po, "wb") as f:
        write_po(f, catalog)
    monkeypatch.setattr(catalogs, "LOCALE", tmp_path)
    found = catalogs.problems("it", template)
    assert any("'{player} to roll' is said with" in p for p in found), found
    assert any("'Buy the property the current player stands on.' has no translation" in p
               for p in found), found
    assert len(found) == 2


@pytest.mark.parametrize("lang", catalogs.LANGUAGES)
def test_the_shipped_mo_is_the_po_compiled(lang):
    shipped = catalogs.po_path(lang).with_suffix(".mo").read_bytes()
    assert shipped == catalogs.compiled(lang), "run `python tests/tools/catalogs.py compile`"


# --- choosing the language -----------------------------------------------------------------


@pytest.mark.parametrize("env, lang", [
    ({}, "en"),
    ({"LANG": "it_IT.UTF-8"}, "it"),
    ({"LANG": "de_DE.UTF-8"}, "en"),
    ({"LANG": "C.UTF-8"}, "en"),
    ({"LANG": "en_GB.UTF-8", "LC_ALL": "it_IT.UTF-8"}, "it"),
    ({"LANGUAGE": "de:it", "LANG": "en_US.UTF-8"}, "it"),
    ({"LANG": "it_IT.UTF-8", "BANCO_LANG": "en"}, "en"),
    ({"LANG": "en_US.UTF-8", "BANCO_LANG": "it"}, "it"),
])
def test_the_language_comes_from_banco_lang_else_the_locale_else_english(env, lang):
    assert i18n.from_environment(env) == lang


@pytest.mark.parametrize("where", ["before", "after"])
def test_lang_is_a_global_option_also_after_the_command(tmp_path, monkeypatch, where):
    clear_locale(monkeypatch)
    run(tmp_path, "new", "Anna", "Bruno")
    args = ["--lang", "it", "state"] if where == "before" else ["state", "--lang", "it"]
    out = run(tmp_path, *args)
    assert "turno: Anna (tirare)" in out
    assert "giocatore" in out and "cassa" in out
    assert "prossimo: tocca ad Anna: `tira D1 D2`" in out


def test_the_locale_speaks_italian_and_banco_lang_overrides_it(tmp_path, monkeypatch):
    clear_locale(monkeypatch, LANG="it_IT.UTF-8")
    out = run(tmp_path, "new", "Anna", "Bruno")
    assert out.startswith("partita 1: Anna, Bruno con 1500 M a testa")
    monkeypatch.setenv("BANCO_LANG", "en")
    assert "next: Anna to `roll D1 D2`" in run(tmp_path, "state")
    monkeypatch.delenv("BANCO_LANG")
    assert "prossimo: tocca ad Anna: `tira D1 D2`" in run(tmp_path, "state")
    assert "next: Anna to `roll D1 D2`" in run(tmp_path, "--lang", "en", "state")


def test_one_run_in_italian_leaves_the_next_in_english(tmp_path, monkeypatch):
    """The language is the run's: an in-process run (a test, a shell line) does not leave
    it behind, nor in LANGUAGE for a child process."""
    clear_locale(monkeypatch)
    run(tmp_path, "new", "Anna", "Bruno")
    assert "tocca ad Anna: `tira D1 D2`" in run(tmp_path, "--lang", "it", "state")
    assert "Anna to `roll D1 D2`" in run(tmp_path, "state")
    import os

    assert "LANGUAGE" not in os.environ


def test_help_and_clicks_own_words_in_italian(tmp_path, monkeypatch):
    clear_locale(monkeypatch)
    out = run(tmp_path, "--lang", "it", "--help")
    assert out.startswith("Uso: ") and "[OPZIONI] COMANDO [ARGOMENTI]..." in out.splitlines()[0]
    assert "Opzioni:" in out and "Comandi:" in out
    assert "Mostra questo messaggio ed esci." in out
    assert "Codici di uscita:" in out
    assert "\n  compra (buy) " in out and "\n  tira (roll) " in out  # the Italian word first
    out = run(tmp_path, "buy", "--help", "--lang", "it")
    assert "Compra la proprietà su cui si trova il giocatore di turno." in out
    out = run(tmp_path, "--lang", "it", "tira", "--help")
    assert "Registra i dadi: tira D1 D2." in out
    out = run(tmp_path, "--help")
    assert "Show this message and exit." in out and "Uso:" not in out


def test_a_misspelt_command_in_italian(tmp_path, monkeypatch):
    clear_locale(monkeypatch)
    out = run(tmp_path, "--lang", "it", "compar", code=2)
    assert "errore: nessun comando chiamato 'compar': intendevi compra o " in out
