"""Mortgages and trades: half the price, lifted for 10% more, a trade's two sides and the
fee on a mortgaged deed received (004 §Ipoteche, §Scambi; 003 §08-§09)."""

import pytest
from estate_tables import verde
from helpers import (
    POS,
    Items,
    Mortgage,
    Trade,
    Unmortgage,
    balanced,
    build,
    cash,
    mortgage,
    new_table,
    of_type,
    own,
    play,
    turn_of,
    types,
)

from banco.ledger.base.errors import RuleViolation

# --- mortgages --------------------------------------------------------------------------------

def test_mortgage_pays_half_the_price_and_stops_rent():
    t, ev = play(own(new_table(), "Anna", "Vicolo Corto"), Mortgage(POS["Vicolo Corto"]))
    assert POS["Vicolo Corto"] in t.mortgaged and t.player("Anna").cash == 1530
    with pytest.raises(RuleViolation, match="already mortgaged"):
        play(t, Mortgage(POS["Vicolo Corto"]))


def test_no_mortgage_while_the_group_has_buildings():
    t = build(verde(), "Corso Impero", 1)
    with pytest.raises(RuleViolation, match='the group of Via Roma has buildings') as err:
        play(t, Mortgage(POS["Via Roma"]))
    assert "sell Via Roma all" in err.value.allowed


@pytest.mark.parametrize("name,cost", [
    ("Viale dei Giardini", 175 + 18),  # 17.5 rounds up
    ("Società Elettrica", 75 + 8),  # 7.5 rounds up
    ("Parco della Vittoria", 200 + 20),
    ("Vicolo Corto", 30 + 3),
])
def test_lifting_a_mortgage_costs_it_plus_ten_percent_rounded_up(name, cost):
    t = mortgage(own(new_table(), "Anna", name), name)
    t, ev = play(t, Unmortgage(POS[name]))
    assert of_type(ev, "MortgageLifted")[0]["amount"] == cost
    assert POS[name] not in t.mortgaged and t.player("Anna").cash == 1500 - cost


def test_interest_rounding_is_a_rule_set_parameter(tmp_path):
    house = tmp_path / "down.toml"
    house.write_text('extends = "classic"\ninterest_rounding = "down"\n')
    t = new_table(("Anna", "Bruno"), rules=str(house))
    t = mortgage(own(t, "Anna", "Viale dei Giardini"), "Viale dei Giardini")
    t, ev = play(t, Unmortgage(POS["Viale dei Giardini"]))
    assert of_type(ev, "MortgageLifted")[0]["amount"] == 175 + 17


def test_unmortgage_refusals():
    with pytest.raises(RuleViolation, match="not mortgaged"):
        play(own(new_table(), "Anna", "Vicolo Corto"), Unmortgage(POS["Vicolo Corto"]))
    t = cash(mortgage(own(new_table(), "Anna", "Via Roma"), "Via Roma"), "Anna", 164)
    with pytest.raises(RuleViolation, match="costs 165 M") as err:
        play(t, Unmortgage(POS["Via Roma"]))
    assert err.value.allowed == "raise 1 M more first"
    with pytest.raises(RuleViolation, match="belongs to the Bank"):
        play(new_table(), Mortgage(POS["Via Roma"]))
    with pytest.raises(RuleViolation, match="belongs to Anna, not Bruno"):
        play(own(new_table(), "Anna", "Via Roma"), Mortgage(POS["Via Roma"], "Bruno"))


# --- trades -----------------------------------------------------------------------------------

def test_a_trade_moves_deeds_cash_and_cards_in_one_event():
    t = own(own(new_table(), "Anna", "Via Roma"), "Bruno", "Stazione Sud")
    i = t.index["Bruno"]
    t = t._replace(players=t.players[:i] + (t.players[i]._replace(
        jail_cards=(("imprevisti", 15),)),) + t.players[i + 1:],
        held_cards={("imprevisti", 15): "Bruno"})
    t, ev = play(t, Trade("Anna", "Bruno", Items((POS["Via Roma"],), 100),
                          Items((POS["Stazione Sud"],), 0, 1)))
    assert types(ev) == ["TradeCompleted"]
    assert t.owners[POS["Via Roma"]] == "Bruno" and t.owners[POS["Stazione Sud"]] == "Anna"
    assert t.player("Anna").cash == 1400 and t.player("Bruno").cash == 1600
    assert t.player("Anna").jail_cards == (("imprevisti", 15),)
    assert t.held_cards == {("imprevisti", 15): "Anna"} and balanced(t)


@pytest.mark.parametrize("trade,words", [
    (Trade("Anna", "Anna", Items(cash=1), Items()), "themselves"),
    (Trade("Anna", "Bruno", Items(), Items()), "empty trade"),
    (Trade("Anna", "Bruno", Items(cash=1501), Items()), "no loans"),
    (Trade("Anna", "Bruno", Items((POS["Piazza Dante"],)), Items()), "does not own"),
    (Trade("Anna", "Bruno", Items(jail_cards=1), Items()), "get-out-of-jail"),
    (Trade("Anna", "Zeno", Items(cash=1), Items()), "not at this table"),
])
def test_trade_refusals(trade, words):
    with pytest.raises(RuleViolation, match=words) as err:
        play(new_table(), trade)
    assert words in str(err.value)


@pytest.mark.parametrize("a_gives,b_gives,words", [
    (Items(cash=100), Items(), "Anna would give 100 M and Bruno nothing"),
    (Items(), Items((POS["Via Roma"],)), "Bruno would give Via Roma and Anna nothing"),
    (Items(), Items(jail_cards=1), "Bruno would give 1 get-out-of-jail card(s) and Anna nothing"),
])
def test_no_gifts_and_no_loans_a_trade_has_two_sides(a_gives, b_gives, words):
    # 003 §06, 004 Note di gioco, 002 Varie: money lent is given, whatever it is called.
    t = own(new_table(), "Bruno", "Via Roma")
    t = t._replace(players=tuple(p._replace(jail_cards=(("imprevisti", 15),)) if p.name == "Bruno"
                                 else p for p in t.players),
                   held_cards={("imprevisti", 15): "Bruno"})
    with pytest.raises(RuleViolation, match="players may not give or lend") as err:
        play(t, Trade("Anna", "Bruno", a_gives, b_gives))
    assert words in str(err.value) and err.value.rule == "003 §06; 004 §Note di gioco; 002 §Varie"
    assert "gives something back" in err.value.allowed
    t, ev = play(t, Trade("Anna", "Bruno", Items(cash=1), Items((POS["Via Roma"],))))
    assert t.owners[POS["Via Roma"]] == "Anna" and t.player("Bruno").cash == 1501


@pytest.mark.parametrize("a_cash,b_cash", [(1400, 1), (50, 50), (1, 100)])
def test_cash_for_cash_is_a_gift_or_a_loan_and_is_refused(a_cash, b_cash):
    # 003 §06 "Non si prestano soldi", 004 Note di gioco: a trade's cash is a deed's or a
    # card's price; cash for cash sells nothing (a trial's `--give 1400 --get 1` went through)
    t = new_table()
    with pytest.raises(RuleViolation, match="swap cash for cash") as err:
        play(t, Trade("Anna", "Bruno", Items(cash=a_cash), Items(cash=b_cash)))
    assert err.value.rule == "003 §06; 004 §Note di gioco; 002 §Varie"
    assert "get-out-of-jail card on one side" in err.value.allowed
    t, _ = play(own(t, "Bruno", "Via Roma"),  # with a deed on one side it is a sale
                Trade("Anna", "Bruno", Items(cash=a_cash),
                      Items((POS["Via Roma"],), cash=b_cash)))
    assert t.owners[POS["Via Roma"]] == "Anna"


def test_a_game_recorded_before_the_rule_keeps_its_cash_for_cash_trades():
    """A GameStarted without trades_cash_for_cash was played when banco took such a trade:
    its log replays, and audits, as it was played."""
    t = new_table()
    params = {k: v for k, v in t.rules.params().items() if k != "trades_cash_for_cash"}
    older = t._replace(rules=type(t.rules).from_params(params))
    assert older.rules.trades_cash_for_cash is True
    t, _ = play(older, Trade("Anna", "Bruno", Items(cash=100), Items(cash=1)))
    assert [p.cash for p in t.players[:2]] == [1401, 1599]


def test_no_trading_a_deed_whose_group_is_built():
    t = build(verde(), "Corso Impero", 1)
    with pytest.raises(RuleViolation, match="sell them to the Bank before trading"):
        play(t, Trade("Anna", "Bruno", Items((POS["Via Roma"],)), Items(cash=300)))


def test_receiving_a_mortgaged_deed_costs_ten_percent_or_its_lifting():
    t = mortgage(own(new_table(), "Anna", "Viale dei Giardini"), "Viale dei Giardini")
    deal = Trade("Anna", "Bruno", Items((POS["Viale dei Giardini"],)), Items(cash=100))
    kept, ev = play(t, deal)
    assert types(ev) == ["TradeCompleted", "MortgageInterestPaid"]
    assert of_type(ev, "MortgageInterestPaid")[0]["amount"] == 18
    assert kept.player("Bruno").cash == 1500 - 100 - 18 and POS["Viale dei Giardini"] in kept.mortgaged
    # keeping it means paying mortgage + 10% again later (004 §Impegno)
    later, ev = play(turn_of(kept, "Bruno"), Unmortgage(POS["Viale dei Giardini"]))
    assert of_type(ev, "MortgageLifted")[0]["amount"] == 193
    lifted, ev = play(t, deal._replace(lift=(POS["Viale dei Giardini"],)))
    assert types(ev) == ["TradeCompleted", "MortgageLifted"]
    assert lifted.player("Bruno").cash == 1500 - 100 - 193
    assert POS["Viale dei Giardini"] not in lifted.mortgaged and balanced(lifted)


def test_a_trade_the_receiver_cannot_pay_the_fee_for_is_refused():
    t = mortgage(own(new_table(), "Anna", "Viale dei Giardini"), "Viale dei Giardini")
    t = cash(t, "Bruno", 17)
    with pytest.raises(RuleViolation) as err:
        play(t, Trade("Anna", "Bruno", Items((POS["Viale dei Giardini"],)), Items(cash=1)))
    assert "000 FAQ 33" in err.value.rule
