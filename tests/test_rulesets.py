"""House-rules files (ledger/board/rule_sets.py): a bad file is refused naming the file, the line and the
parameter, never with a traceback; every amount is range-checked."""

import pytest

from banco.ledger.base.errors import UsageError
from banco.ledger.board.rule_sets import load_rules


def house(tmp_path, body: str) -> str:
    path = tmp_path / "casa.toml"
    path.write_text('extends = "classic"\n' + body, encoding="utf-8")
    load_rules.cache_clear()  # a file is read once per process: each test writes a new one
    return str(path)


@pytest.mark.parametrize("body,words", [
    ("go_salary = 400\nstarting_cash = -5\n", "casa.toml:3: starting_cash must be at least 0, not -5"),
    ("\nstarting_cash =\n", "casa.toml:3 ('starting_cash ='): not valid TOML"),
    ("startng_cash = 100\n", "casa.toml:2: startng_cash: not a rule parameter; did you mean starting_cash?"),
    ("[rules]\ngo_salary = 2\n", "casa.toml:2: rules: not a rule parameter"),
    ("go_salary = \"lots\"\n", "casa.toml:2: go_salary must be int, a whole number, not 'lots'"),
    ("go_salary = 200.5\n", "casa.toml:2: go_salary must be int, a whole number, not 200.5"),
    ("double_rent_with_mortgage = 1\n", "casa.toml:2: double_rent_with_mortgage must be bool"),
    ("claim_window = 0\n", "casa.toml:2: claim_window must be from 1 to 7, not 0"),
    ("auction_min_bid = 0\n", "casa.toml:2: auction_min_bid must be at least 1, not 0"),
    ("auction_step = -1\n", "casa.toml:2: auction_step must be at least 1"),
    ("houses_for_hotel = 5\n", "casa.toml:2: houses_for_hotel must be from 1 to 4, not 5"),
    ("mortgage_interest_percent = 110\n", "mortgage_interest_percent must be from 0 to 100"),
    ("jail_max_attempts = 0\n", "jail_max_attempts must be at least 1"),
    ("rent = \"sometimes\"\n", "casa.toml:2: rent must be one of claim, auto, not 'sometimes'"),
    ("name = \"  \"\n", "casa.toml:2: name cannot be empty"),
    # no figure longer than the command line reads (15 digits): 20 digits overflowed SQLite's
    # integers at `new`, 5,000 leaked Python's int-conversion advice (issue 32)
    ("starting_cash = 99999999999999999999\n",
     "casa.toml:2: starting_cash must be at most 999999999999999, not 99999999999999999999"),
    ("jail_fine = 1_000_000_000_000_000\n", "casa.toml:2: jail_fine must be at most"),
    ("starting_cash = " + "9" * 5000 + "\n",
     "casa.toml:2: a number of 5000 digits: no figure of a rule set is that long (at most 15 "
     "digits)"),
    ("go_salary = " + "9" * 4000 + "\n", "not 999999999999999… (4000 digits)"),
    ("[starting_cash_by_players]\n2 = 99999999999999999999\n",
     "casa.toml:2: starting_cash_by_players.2 must be a whole number from 0 to 999999999999999"),
])
def test_a_bad_house_rules_file_names_its_line_and_key(tmp_path, body, words):
    with pytest.raises(UsageError) as err:
        load_rules(house(tmp_path, body))
    assert words in str(err.value)


def test_the_largest_figure_the_command_line_reads_is_a_rule_sets_too(tmp_path):
    assert load_rules(house(tmp_path, "starting_cash = 999999999999999\n")).starting_cash \
        == 10 ** 15 - 1


def test_extends_must_name_a_built_in_rule_set(tmp_path):
    path = tmp_path / "x.toml"
    path.write_text('go_salary = 300\nextends = "monopoli"\n')
    with pytest.raises(UsageError, match=r"x.toml:2: extends: a rule set can extend only a built-in"):
        load_rules(str(path))
    path.write_text("go_salary = 300\n")
    load_rules.cache_clear()
    with pytest.raises(UsageError, match="must say which rule set it extends"):
        load_rules(str(path))


def test_a_file_that_is_not_text_is_refused(tmp_path):
    path = tmp_path / "bin.toml"
    path.write_bytes(b"\xff\xfe\x00extends")
    with pytest.raises(UsageError, match="bin.toml: cannot read the house rules"):
        load_rules(str(path))


def test_a_good_file_overrides_only_what_it_says(tmp_path):
    rules = load_rules(house(tmp_path, "go_salary = 400\nclaim_window = 2\n"))
    classic = load_rules("classic")
    assert (rules.name, rules.go_salary, rules.claim_window) == ("casa", 400, 2)
    assert rules._replace(name="classic", go_salary=200, claim_window=1) == classic


def test_the_rules_recorded_in_a_game_are_checked_too():
    from banco.ledger.board.rule_sets import RuleSet

    params = load_rules("classic").params()
    assert RuleSet.from_params(params) == load_rules("classic")
    with pytest.raises(UsageError, match="GameStarted event: jail_fine must be at least 0"):
        RuleSet.from_params({**params, "jail_fine": -50})
