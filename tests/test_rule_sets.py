"""The built-in rule sets as data (ledger/board/data/rules/*.toml): each seed's figures, the default
board of each, the tables a rule set may hold, and what `new` makes of them."""

import pytest

from banco.ledger.base.errors import RuleViolation, UsageError
from banco.ledger.board.edition import load_edition
from banco.ledger.board.rule_sets import (
    BUILTIN,
    check_fit,
    cited,
    deeds_to_deal,
    load_rules,
    starting_cash,
)
from banco.ledger.rules.decide import start_game


def test_every_seed_has_its_rule_set_and_its_board():
    boards = {n: load_rules(n).edition for n in BUILTIN}
    assert boards == {"classic": "it", "quick": "it", "championship": "it", "vintage": "it-lire",
                      "euro": "it-euro", "short": "it", "timed": "it"}
    assert {n: load_rules(n).source for n in BUILTIN} == {
        "classic": "004", "quick": "003", "championship": "000", "vintage": "002",
        "euro": "001", "short": "004", "timed": "004"}
    for name in BUILTIN:  # each fits its own board: no salary or fine that the board contradicts
        rules = load_rules(name)
        assert load_edition(rules.edition).rules_mismatches(rules) == [], name


def test_vintage_capital_and_deeds_by_the_number_of_players():
    # 002 §Preparazione: 2 -> 350.000 and 7 deeds ... 6 -> 150.000 and 3.
    v = load_rules("vintage")
    assert [starting_cash(v, n) for n in range(2, 7)] == [350_000, 300_000, 250_000, 200_000,
                                                          150_000]
    assert [deeds_to_deal(v, n) for n in range(2, 7)] == [7, 6, 5, 4, 3]
    assert (v.go_salary, v.jail_fine, v.auction_min_bid) == (20_000, 5_000, 1)
    assert (v.bankruptcy_estate, v.pay_in_kind, v.time_limit) == ("bank_pays_creditors", True,
                                                                  "at_once")


def test_euro_short_timed_and_championship_figures():
    e, s, t, c = (load_rules(n) for n in ("euro", "short", "timed", "championship"))
    assert (e.go_salary, e.jail_fine, e.auction_min_bid, e.starting_cash) == (500, 125, 5, 3750)
    assert deeds_to_deal(e, 4) == 0
    assert (s.houses_for_hotel, deeds_to_deal(s, 8), s.end_after_bankruptcies,
            s.bankruptcy_estate) == (3, 2, 2, "all_to_creditor")
    assert (t.houses_for_hotel, deeds_to_deal(t, 3), t.time_limit) == (4, 2, "at_once")
    assert (c.claim_window, c.claim_settles, c.jail_card_max_price, c.trades_in_turn,
            c.trades_two_left, c.bankruptcy_start_of_turn, c.time_limit, c.tie_break) == (
        2, "after_turn", 50, "active_player", False, True, "finish_turn", "unmortgaged_property")
    # 000 §PUNTEGGIO, the points table as printed
    assert c.tournament_points == {"1": [28], "2": [25, 14], "3": [22, 12, 6],
                                   "4": [19, 10, 5, 3], "5": [16, 8, 4, 2, 1],
                                   "6": [13, 6, 3, 1, 1]}
    classic = load_rules("classic")
    assert (classic.time_limit, classic.deeds_dealt, classic.claim_settles, classic.cite) == (
        "none", 0, "now", {})


def test_a_refusal_cites_the_rule_sets_own_section():
    assert cited(load_rules("championship"), "rent", "004 x") == "000 FAQ 7"
    assert cited(load_rules("euro"), "auction", "004 x") == "001 §Fermata su proprietà libera"
    assert cited(load_rules("classic"), "rent", "004 x") == "004 x"


def test_a_house_file_extending_championship_keeps_the_sections_it_does_not_name(tmp_path):
    path = tmp_path / "torneo.toml"
    path.write_text('extends = "championship"\nclaim_window = 3\n[cite]\nrent = "casa 1"\n',
                    encoding="utf-8")
    load_rules.cache_clear()
    rules = load_rules(str(path))
    assert rules.claim_window == 3 and rules.cite["rent"] == "casa 1"
    assert rules.cite["time"] == "000 FAQ 6"  # a table is merged key by key
    assert rules.tournament_points["4"] == [19, 10, 5, 3]


@pytest.mark.parametrize("body,words", [
    ('[cite]\nrents = "x"\n', "'rents' is not a topic to cite"),
    ("[starting_cash_by_players]\nnine = 5\n", "'nine' is not a number of players"),
    ("[starting_cash_by_players]\n2 = -1\n", "must be a whole number"),
    ("[tournament_points]\n2 = [25, 14, 3]\n", "must list at most 2 whole numbers"),
    ("[starting_cash_by_players]\n2 = 1000\n", "has no entry for 3 players"),
    ("min_players = 5\nmax_players = 4\n", "min_players is more than max_players"),
    ('time_limit = "soon"\n', "time_limit must be one of none, at_once, finish_turn"),
    ('bankruptcy_estate = "bank"\n', "bankruptcy_estate must be one of"),
    ("deeds_dealt = 15\n", "deeds_dealt must be from 0 to 14"),
])
def test_a_bad_table_in_a_house_file_is_refused_by_name(tmp_path, body, words):
    path = tmp_path / "casa.toml"
    path.write_text('extends = "classic"\n' + body, encoding="utf-8")
    load_rules.cache_clear()
    with pytest.raises(UsageError) as err:
        load_rules(str(path))
    assert words in str(err.value)


def test_a_built_in_rule_set_on_a_board_it_does_not_fit_is_refused():
    with pytest.raises(UsageError, match="the classic rules do not fit the it-lire board.*"
                                         "--rules vintage"):
        check_fit(load_rules("classic"), load_edition("it-lire"))
    with pytest.raises(UsageError, match="the euro rules do not fit the it board.*--edition it-euro"):
        check_fit(load_rules("euro"), load_edition("it"))
    check_fit(load_rules("short"), load_edition("disney"))  # the M figures: it fits


def test_the_vintage_capital_is_issued_by_the_number_of_players():
    events = start_game(["Anna", "Bruno", "Carla"], load_rules("vintage"), "it-lire")
    issued = [e["data"] for e in events if e["type"] == "CashIssued"]
    assert [d["amount"] for d in issued] == [300_000] * 3
    assert issued[0]["reason"] == {"code": "starting_cash_for", "n": 3,
                                   "rule": "002 §Preparazione"}


def test_vintage_seats_two_to_six_and_championship_six():
    with pytest.raises(RuleViolation, match=r"the vintage rules seat 6 players, not 7 "
                                            r"\(002 §Preparazione\)"):
        start_game(list("ABCDEFG"), load_rules("vintage"), "it-lire")
    with pytest.raises(RuleViolation, match=r"000 §PUNTEGGIO"):
        start_game(list("ABCDEFG"), load_rules("championship"), "it")
    assert len(start_game(list("ABCDEFGH"), load_rules("classic"), "it")) == 9


def test_final_is_recorded_only_where_000_faq_31_applies():
    started = start_game(["Anna", "Bruno"], load_rules("championship"), "it", final=True)[0]
    assert started["data"]["final"] is True
    assert "final" not in start_game(["Anna", "Bruno"], load_rules("championship"), "it")[0]["data"]
    with pytest.raises(UsageError, match="--final: the classic rules make no difference"):
        start_game(["Anna", "Bruno"], load_rules("classic"), "it", final=True)


def test_a_game_recorded_before_these_rule_sets_replays_as_classic():
    from banco.ledger.board.rule_sets import RuleSet

    old = {k: v for k, v in load_rules("classic").params().items()
           if k not in ("edition", "deeds_dealt", "time_limit", "cite", "tournament_points")}
    rules = RuleSet.from_params(old)
    assert (rules.deeds_dealt, rules.time_limit, rules.cite, rules.claim_settles) == (
        0, "none", {}, "now")


def test_a_recorded_game_with_a_cite_topic_this_banco_does_not_know_still_replays():
    from banco.ledger.board.rule_sets import RuleSet

    params = {**load_rules("vintage").params()}
    params["cite"] = {**params["cite"], "salary": "002 §Indennità"}  # a newer banco's topic
    assert "salary" not in RuleSet.from_params(params).cite


def test_a_recorded_game_with_a_parameter_this_banco_does_not_know_cannot_be_read(banco):
    # A newer banco's rule parameter: the database says so (exit 4), never a traceback.
    import sqlite3

    banco("new", "Anna", "Bruno")
    conn = sqlite3.connect(banco.db)
    conn.execute("DROP TRIGGER events_no_update")
    row = conn.execute("SELECT data FROM events WHERE type='GameStarted'").fetchone()[0]
    conn.execute("UPDATE events SET data=? WHERE type='GameStarted'",
                 (row.replace('"auction_min_bid":1', '"auction_min_bid":1,"teleport_die":true'),))
    conn.commit()
    conn.close()
    for words in (("state",), ("board",)):
        out = banco(*words, code=4).output
        assert "its rules or board cannot be read" in out
        assert "teleport_die: not a rule parameter" in out
        assert "Traceback" not in out
