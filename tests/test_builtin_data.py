"""The built-in editions' and rule sets' JSON twins (ledger/board/builtin_data.py) say what
their TOML says: a TOML edited without writing its twin again (`python -m
ledger.board.builtin_data`) fails here, since commands read the twin."""

from __future__ import annotations

import json
import os

import pytest

from banco.ledger.board import builtin_data
from banco.ledger.board.builtin_data import builtin_files, parse_toml, read_builtin, twin_of

FILES = builtin_files()


def test_every_edition_and_rule_set_has_its_toml():
    names = {os.path.relpath(f, builtin_data.DATA) for f in FILES}
    assert {"editions/it.toml", "editions/us.toml", "rules/classic.toml",
            "rules/championship.toml"} <= names and len(names) == 12


@pytest.mark.parametrize("path", FILES, ids=lambda p: os.path.relpath(p, builtin_data.DATA))
def test_each_twin_says_what_its_toml_says(path):
    with open(twin_of(path), encoding="utf-8") as f:
        text = f.read()
    assert json.loads(text) == parse_toml(path), (
        f"{twin_of(path)} is not its TOML: run `python -m banco.ledger.board.builtin_data`")
    assert text == builtin_data.twin_text(path)
    assert read_builtin(path) == parse_toml(path)


def test_a_file_without_a_twin_is_read_as_toml(tmp_path):
    toml = tmp_path / "house.toml"
    toml.write_text('name = "house"\ngo_salary = 400\n[cite]\nrent = "003 \\u00a710"\n')
    assert read_builtin(str(toml)) == {"name": "house", "go_salary": 400,
                                       "cite": {"rent": "003 \u00a710"}}


def test_the_twin_is_what_is_read(tmp_path, monkeypatch):
    """A twin that differs is what the commands see: hence the test above."""
    toml = tmp_path / "x.toml"
    toml.write_text("go_salary = 200\n")
    (tmp_path / "x.json").write_text('{"go_salary": 250}')
    assert read_builtin(str(toml)) == {"go_salary": 250}
