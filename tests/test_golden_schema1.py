"""The recorded games as an older banco wrote them (schema version 1: every reason an English
sentence), kept frozen in tests/data/golden-schema1.json.gz since fixtures/*.events.json are
written in today's schema (tests/tools/regolden.py).  The upcaster's own test: stored as rows
of version 1, each game audits clean, so every sentence is read into the very fact today's
decide gives for its command (the audit compares facts, never words).  tests/test_no_prose.py
walks them, upcast, for words; tests/test_migration.py holds two of them as format-1 files."""

import pytest
from forge import recorded_schema1, rows_of, schema1_games

from banco.projections.audit.audit import audit


def test_the_frozen_games_are_of_schema_1():
    """English sentences, as written then: a regenerated file here would test nothing."""
    for name, events in schema1_games().items():
        said = [e for e in events if type(e["data"].get("reason")) is str]
        assert len(said) > 50, name
    assert sorted(schema1_games()) == ["championship-4p", "classic-4p", "classic-to-the-end",
                                       "short-to-the-end", "vintage-to-a-bankruptcy"]


@pytest.mark.parametrize("name", sorted(schema1_games()))
def test_a_game_of_schema_1_audits_as_it_did(name):
    events = recorded_schema1(name)
    report = audit(1, rows_of(events, version=1))
    assert report.ok, (report.bad_seq, report.problem)
    assert report.events == len(events)
