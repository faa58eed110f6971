"""Who may send which line from a phone (cli/web/permissions.py): decisions on the line as the
library reads it (its typed command, or its own usage refusal), never on its words."""

from __future__ import annotations

import pytest
from games import record

import banco
from banco.cli.web import permissions as p
from banco.cli.web.permissions import decide, offer_parties


@pytest.fixture(scope="module")
def book(tmp_path_factory):
    """The classic-4p game (Anna, Bruno, Carla, Dario), Anna to roll."""
    db = record(str(tmp_path_factory.mktemp("perms") / "game.db"), "classic-4p")
    with banco.open(db) as library:
        yield library


YES, USAGE = "yes", "usage"  # allowed; allowed, and refused by the line's own usage words


@pytest.mark.parametrize("role, player, line, expected", [
    ("banker", None, "roll 3 4", YES), ("banker", None, "tira 3 4", YES),
    ("banker", None, "trade Anna Bruno --give 10", YES), ("banker", None, "undo", YES),
    ("banker", None, "claim Carla", YES), ("banker", None, "roll 3 4 --lang it", YES),
    ("banker", None, "ROLL 3 4", YES), ("banker", None, "roll 3 4 --lang", USAGE),
    ("banker", None, "draw", USAGE), ("banker", None, "pesca", USAGE),  # no card waits
    ("banker", None, "rol 3 4", USAGE), ("banker", None, "\U0001F3B2", USAGE),
    ("banker", None, "roll 'x", USAGE),
    ("banker", None, "ruling x", p.REFEREE_ONLY), ("banker", None, "ruling --help", p.REFEREE_ONLY),
    ("banker", None, "correct Anna 5 --reason r --referee Rita", p.REFEREE_ONLY),
    ("banker", None, "new A B", p.NOT_TABLE), ("banker", None, "nuova A B", p.NOT_TABLE),
    ("banker", None, "backup x", p.NOT_TABLE), ("banker", None, "--lang en roll 3 4", p.NOT_TABLE),
    ("banker", None, "roll 3 4 --game 2", p.OPTION), ("banker", None, "buy --id k", p.OPTION),
    ("banker", None, "roll 3 4 --db=other.db", p.OPTION),
    ("banker", None, "buy --expect=3", p.OPTION),
    ("banker", None, "roll -- 3 4 --game 2", USAGE),  # after `--`: a die, not an option
    ("player", "Carla", "claim Carla", YES), ("player", "Carla", "claim carla", YES),
    ("player", "Carla", "riscuoti Carla", YES), ("player", "Carla", "claim Anna", YES),
    ("player", "Carla", "roll 3 4", YES),  # whose act: cli/web/acts.py, when it is decided
    ("player", "Carla", "trade Carla Anna --give 10", YES),
    ("player", "Carla", "undo", p.BANKER_ONLY), ("player", "Carla", "ANNULLA", p.BANKER_ONLY),
    ("player", "Carla", "hammer", p.BANKER_ONLY), ("player", "Carla", "state", p.NOT_TABLE),
    ("player", "Carla", "ruling rent 3", p.BANKER_ONLY), ("player", "Carla", "claim", USAGE),
    ("player", "Carla", "claim Carla --game 1", p.OPTION),
    ("referee", None, "ruling --help", USAGE), ("referee", None, "correct x", USAGE),
    ("referee", None, "correct Anna 5 --reason r --referee Otto", YES),
    ("referee", None, "roll 1 2", p.NOT_REFEREE), ("referee", None, "state", p.NOT_REFEREE),
    ("referee", "Rita", "correct Anna 5 --reason r --referee Otto", p.AS_REFEREE),
    ("referee", "Rita", "correct Anna 5 --reason r --arbitro=RITA", YES),
    # `--referee` twice with two names: a usage error (the line reads no one referee), so
    # nothing is recorded for either; the same name twice is that referee
    ("referee", "Rita", "correct Anna 5 --reason r --referee Rita --referee Otto", USAGE),
    ("referee", "Rita", "correct Anna 5 --reason r --referee Otto --referee Rita", USAGE),
    ("referee", "Rita", "correct Anna 5 --reason r --referee Rita --referee Rita", YES),
    ("viewer", None, "roll 1 2", p.VIEWER), ("viewer", None, "claim Carla", p.VIEWER),
    ("viewer", None, "roll 'x", p.VIEWER),
    ("banker", None, "", p.NO_LINE), ("player", "Carla", "# a comment", p.NO_LINE),
])
def test_who_may_send_what(book, role, player, line, expected):
    read = book.read(line, game=1)
    decision = decide(role, player, read)
    if expected in (YES, USAGE):
        assert decision.allowed and decision.why is None, (line, decision)
        assert (read.refusal is not None) is (expected == USAGE), (line, read.refusal)
        if expected == USAGE:
            assert read.refusal.code == 2 and read.command is None
    else:
        assert not decision.allowed and decision.why == expected, (line, decision)
        assert decision.status == (400 if expected == p.NO_LINE else 403)


def test_banker_only_leaves_a_player_his_own_claim(book):
    def said(line: str) -> str | None:
        d = decide("player", "Carla", book.read(line, game=1), banker_only=True)
        return None if d.allowed else d.why.format(**d.params)

    assert said("claim Carla") is None and said("riscuoti CARLA") is None
    assert said("claim Anna") == "Carla may claim only the rent owed to Carla: `claim Carla`"
    assert said("roll 3 4") == "`roll` is the banker's to record, not a player's"
    assert said("tira 3 4 --lang it") == "`tira` is the banker's to record, not a player's"


def test_a_refusal_says_why_with_its_words(book):
    d = decide("player", "Carla", book.read("hammer", game=1))
    assert d.why.format(**d.params) == "`hammer` is the banker's to record, not a player's"
    d = decide("banker", None, book.read("backup " + "z" * 80, game=1))
    assert d.why.format(**d.params) == "`backup` is not a table action: run it at the terminal"
    d = decide("banker", None, book.read("z" * 80 + " 1", game=1))
    assert d.allowed  # no command at all: the line's own refusal, with its suggestion


def test_a_trade_is_answered_by_its_sides_only():
    assert offer_parties("player", "Anna", "Anna", "Bruno")
    assert not offer_parties("player", "Carla", "Anna", "Bruno")
    assert not offer_parties("banker", None, "Anna", "Bruno")
