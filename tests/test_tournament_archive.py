"""A tournament in one file (projections/exchange/tournament_archive.py): `tournament export` writes
it, `import` re-creates the tournament with every game verified, all or nothing."""

import json
import os

import pytest
from click.testing import CliRunner


def _run(db, *args, code=0):
    from banco.cli.main import cli

    result = CliRunner().invoke(cli, ["--db", db, *args], catch_exceptions=False)
    assert result.exit_code == code, (args, result.output)
    return result.output


@pytest.fixture(scope="module")
def archive(tmp_path_factory):
    """'Coppa': game 1 (round 1), game 3 (round 2); game 2 is not in it.  (db, archive)"""
    folder = tmp_path_factory.mktemp("archive")
    db = str(folder / "t.db")
    for players, lines in ((("Anna", "Bruno", "Carla"), ("roll 1 2", "buy")),
                           (("Gina", "Ugo"), ("roll 1 2",)),
                           (("Anna", "Bruno", "Dario"), ("roll 1 2", "buy", "roll 1 3"))):
        _run(db, "new", *players, "--rules", "championship")
        for line in lines:
            _run(db, *line.split())
        _run(db, "time-up")
    _run(db, "tournament", "new", "Coppa")
    _run(db, "tournament", "add", "1")
    _run(db, "tournament", "add", "3")
    path = str(folder / "coppa.jsonl")
    _run(db, "tournament", "export", "Coppa", "-o", path)
    return db, path


def test_export_import_export_is_byte_identical_and_standings_equal(archive, tmp_path):
    db, path = archive
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    header = json.loads(lines[0])
    assert header["name"] == "Coppa" and [g["round"] for g in header["games"]] == [1, 2]
    # then each game's export as `banco export` writes it, in the order entered
    one = tmp_path / "g1.jsonl"
    _run(db, "--game", "1", "export", "-o", str(one))
    first = one.read_text(encoding="utf-8").splitlines()
    assert lines[1:1 + len(first)] == first
    assert len(lines) == 1 + sum(g["events"] + 1 for g in header["games"])
    other = str(tmp_path / "other.db")
    out = _run(other, "import", path)
    assert "imported the tournament 'Coppa' from" in out and "2 games," in out
    said = out.splitlines()  # each game's line, then the tournament made of them
    assert [s.split(":")[0] for s in said] == [f"imported {path} as game 1",
                                               f"imported {path} as game 2",
                                               "imported the tournament 'Coppa' from " + path]
    again = str(tmp_path / "again.jsonl")
    _run(other, "tournament", "export", "Coppa", "-o", again)
    with open(path, "rb") as a, open(again, "rb") as b:
        assert a.read() == b.read()
    assert _run(other, "tournament", "standings") == _run(db, "tournament", "standings")
    assert json.loads(_run(other, "audit", "--json"))["ok"]
    # each game's read model kept by the import, as the log gives it (doctor compares them)
    doc = json.loads(_run(other, "doctor", "--json"))
    assert doc["healthy"] and doc["read_model"]["missing"] == []


def _edit(path, tmp_path, change):
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    change(lines)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(bad)


def _second_game_line(lines) -> int:
    """The index of game 2's header line in the archive."""
    return 1 + json.loads(lines[0])["games"][0]["events"] + 1


def _amount(lines):
    i = next(i for i, line in enumerate(lines) if i > _second_game_line(lines)
             and '"amount":60' in line)
    lines[i] = lines[i].replace('"amount":60', '"amount":6')


def _cut(lines):
    del lines[-1]


def _extra(lines):
    lines.append(lines[-1])


def _other_head(lines):
    h = json.loads(lines[0])
    h["games"][1]["head"] = "0" * 64
    lines[0] = json.dumps(h, separators=(",", ":"), sort_keys=True)


def _not_finished(lines):
    h = json.loads(lines[0])
    h["games"][1]["entered_seq"] -= 2  # entered before its time-up: not over then
    i = _second_game_line(lines) + h["games"][1]["entered_seq"]
    h["games"][1]["entered_head"] = json.loads(lines[i])["hash"]
    lines[0] = json.dumps(h, separators=(",", ":"), sort_keys=True)


BAD = {
    "an event of game 2 edited": (_amount, 3, "game 2 of the archive ("),
    "the archive cut short": (_cut, 3, "game 2 of the archive ("),
    "a line after the last game": (_extra, 3, "the archive's header lists 2 games, and more "
                                              "lines follow"),
    "the header's head for game 2": (_other_head, 3, "game 2 of the archive is not the one its "
                                                     "header lists"),
    "game 2 entered before it was over": (_not_finished, 3, "was not over at event"),
}


@pytest.mark.parametrize("bad", list(BAD))
def test_one_bad_game_and_nothing_is_written(archive, tmp_path, bad):
    db, path = archive
    change, code, named = BAD[bad]
    source = _edit(path, tmp_path, change)
    fresh = str(tmp_path / "fresh.db")
    out = _run(fresh, "import", source, code=code)
    assert named in out and "nothing was imported" in out, out
    assert not os.path.exists(fresh)  # a new file: none left behind
    kept = str(tmp_path / "kept.db")
    _run(kept, "new", "Ivo", "Lia")
    before = _run(kept, "games", "--json")
    _run(kept, "import", source, code=code)
    assert _run(kept, "games", "--json") == before  # an existing file: untouched
    assert "no tournament in this database yet" in _run(kept, "tournament", "standings", code=2)


def test_a_line_of_game_2_is_named_in_the_archive(archive, tmp_path):
    db, path = archive
    source = _edit(path, tmp_path, _amount)
    with open(source, encoding="utf-8") as f:
        number = next(n for n, line in enumerate(f, start=1)
                      if n > 2 and '"amount":6,' in line)
    out = _run(str(tmp_path / "x.db"), "import", source, code=3)
    assert f"line {number} (event" in out, out


def test_what_an_archive_import_refuses(archive, tmp_path):
    db, path = archive
    kept = str(tmp_path / "kept.db")
    one = str(tmp_path / "g3.jsonl")
    _run(db, "--game", "3", "export", "-o", one)
    _run(kept, "import", one)
    out = _run(kept, "import", path, code=2)  # its second game is here already
    assert "game 2 of the archive (" in out and "this game is already game 1 in" in out
    assert len(json.loads(_run(kept, "games", "--json"))) == 1  # game 1 of the archive: not kept
    other = str(tmp_path / "other.db")
    _run(other, "import", path)
    assert "there is already a tournament called 'Coppa'" in _run(other, "import", path, code=2)
    assert "tournament's archive" in _run(str(tmp_path / "y.db"), "import", path,
                                          "--expect-head", "a" * 12, code=2)


def test_the_archive_is_read_a_game_at_a_time(archive, tmp_path):
    """The lines are read as they are checked: a bad line of the first game is refused
    before another line is read (memory bounded by a game's batch, not the tournament)."""
    from banco.ledger.store.sqlite import SQLiteStore
    from banco.projections.exchange.exchange import ImportRefused
    from banco.projections.exchange.tournament_archive import import_archive

    db, path = archive
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    lines[3] = lines[3].replace('"seq":2', '"seq":7')
    rest = iter(lines[1:])
    store = SQLiteStore(str(tmp_path / "x.db"))
    with pytest.raises(ImportRefused, match="game 1 of the archive .* from line 2: line 4"):
        import_archive(store, lines[0], rest, source="coppa.jsonl", now="2026-11-30T18:00:00Z")
    store.close()
    assert len(list(rest)) == len(lines) - 4  # lines 1-4 read, not one more
