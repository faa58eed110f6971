"""Houses and hotels: building, evenly and to a level, and selling them back, hotels broken up
(004, 003 §05-§07, 000 FAQ 25-29).  Every amount is worked out by hand from the it deeds.
The building shortage's auctions are tests/test_estate_auctions.py; mortgages and trades,
tests/test_estate_trades.py; debts and bankruptcy, tests/test_estate_bankruptcy.py."""

import pytest
from estate_tables import MARRONE, VERDE, levels, scarce, verde
from helpers import (
    POS,
    BreakUp,
    Build,
    BuildTo,
    Sell,
    SellTo,
    balanced,
    build,
    cash,
    mortgage,
    new_table,
    of_type,
    own,
    place,
    play,
    stock_ok,
    turn_of,
    types,
)

from banco.ledger.base.errors import RuleViolation
from banco.ledger.records.reasons import english

# --- building ---------------------------------------------------------------------------------

def test_lots_of_two_owners_are_refused_in_the_table_s_language_and_words():
    """A trial: in Italian, `costruisci` over two owners' lots said "Zoë and Élodie" and
    "`build` i terreni ...": the English word for the list and for the command."""
    from banco.cli.web.hub import translations

    t = own(own(new_table(), "Anna", "Vicolo Corto"), "Bruno", "Vicolo Stretto")
    lots = (POS["Vicolo Corto"], POS["Vicolo Stretto"])
    for cmd, word in ((BuildTo(lots, 1), "costruisci"), (SellTo(lots, 0), "vendi")):
        with pytest.raises(RuleViolation) as exc:
            play(t, cmd)
        english = exc.value.render(None, "allowed")
        assert "those deeds belong to Anna and Bruno" in english, english
        said = exc.value.render(translations("it"), "consentito")
        assert "Anna e Bruno" in said and f"`{word}` i terreni di ogni proprietario" in said, said
        assert " and " not in said and "`build`" not in said and "`sell`" not in said


def test_build_a_house_pays_its_cost_and_takes_it_from_the_bank():
    t, ev = play(verde(), Build(POS["Via Roma"]))
    assert t.buildings[POS["Via Roma"]] == 1 and t.bank_houses == 31
    assert t.player("Anna").cash == 1300
    assert of_type(ev, "HouseBuilt")[0]["amount"] == 200 and balanced(t) and stock_ok(t)


def test_building_must_be_even():
    t, _ = play(verde(), Build(POS["Via Roma"]))
    with pytest.raises(RuleViolation, match='uneven building: Via Roma would have 2 houses') as err:
        play(t, Build(POS["Via Roma"]))
    assert "uneven building" in str(err.value) and "003 §05" in err.value.rule
    # both lots still bare may take the next house: both are named, not the first alone
    assert "build on Corso Impero or Largo Augusto first" in err.value.allowed


def test_a_build_short_of_cash_says_how_much_to_raise():
    from helpers import cash

    t = cash(verde(), "Anna", 122)
    with pytest.raises(RuleViolation, match="Anna has 122 M; a house on Via Roma costs 200 M"
                       ) as err:
        play(t, Build(POS["Via Roma"]))
    assert "raise 78 M more first" in err.value.allowed and "`mortgage" in err.value.allowed


def test_an_uneven_build_is_said_for_the_level_asked_and_what_may_be_built():
    """A trial: on 2/2, `build Vicolo Corto --to hotel` was refused for `4 houses`, the first
    step that failed, and `allowed` said only to build on Vicolo Stretto first."""
    t = build(build(own(new_table(), "Anna", *MARRONE), "Vicolo Corto", 2), "Vicolo Stretto", 2)
    vc = POS["Vicolo Corto"]
    with pytest.raises(RuleViolation) as err:
        play(t, BuildTo((vc,), 5, "Anna"))
    assert str(err.value.text) == ("uneven building: Vicolo Corto would have a hotel while "
                                   "Vicolo Stretto has 2 houses")
    # the group named in the reader's words, the line with the key `build` takes (an English
    # page read "the whole group evenly, `build marrone hotel`" with no word for "marrone")
    assert err.value.allowed == ("`build Vicolo Corto --to 3` now; or the whole brown group "
                                 "evenly, `build marrone hotel`")
    from banco.cli.words import i18n

    with i18n.in_language("it"):
        assert i18n.say(err.value.allowed_text).endswith(
            "tutto il gruppo marrone in modo uniforme, `costruisci marrone albergo`")
    with i18n.in_language("en"):
        assert "the whole brown group evenly" in i18n.say(err.value.allowed_text)
    with pytest.raises(RuleViolation) as err:
        play(t, Build(vc, 3))
    assert "Vicolo Corto would have a hotel while Vicolo Stretto has 2 houses" in str(err.value)
    assert err.value.allowed == ("`build Vicolo Corto 1` now, up to 3 houses; or the whole "
                                 "brown group evenly, `build marrone hotel`")
    t = build(own(t, "Anna", *VERDE), "Via Roma", 1)  # two lots asked, the third bare
    with pytest.raises(RuleViolation) as err:
        play(t, BuildTo((POS["Via Roma"], POS["Corso Impero"]), 3, "Anna"))
    assert ("Via Roma and Corso Impero would have 3 houses each while Largo Augusto has 0 "
            "houses") in str(err.value)
    assert err.value.allowed == ("`build Via Roma Corso Impero --to 1` now; or the whole "
                                 "green group evenly, `build verde 3`")


def test_more_buildings_than_a_lot_takes_is_said_before_the_cash():
    """`build parco 999999999999999` short of cash was refused for one house's price: the
    count past a hotel is the mistake to name (004 §Alberghi), whatever the cash."""
    t = cash(own(new_table(), "Anna", *MARRONE), "Anna", 10)
    for count in (6, 999_999_999_999_999):
        with pytest.raises(RuleViolation) as err:
            play(t, Build(POS["Vicolo Corto"], count))
        assert f"Vicolo Corto has 0 houses: {count} more would go past a hotel, at most 5" in str(
            err.value)
        assert err.value.allowed == "`build Vicolo Corto 5`"


def test_a_multi_step_build_is_all_or_nothing():
    t = own(new_table(), "Anna", *MARRONE)
    with pytest.raises(RuleViolation, match='uneven building: Vicolo Corto would have 2 houses'):
        play(t, Build(POS["Vicolo Corto"], 2))  # the second house would be uneven
    t, ev = play(t, Build(POS["Vicolo Corto"]), Build(POS["Vicolo Stretto"], 2))
    assert levels(t, MARRONE) == [1, 2] and t.player("Anna").cash == 1350


def test_four_houses_then_a_hotel_that_returns_them():
    t = verde()
    for n in VERDE:
        t = build(t, n, 4)
    assert t.bank_houses == 20
    t, ev = play(t, Build(POS["Via Roma"]))
    assert levels(t, VERDE) == [5, 4, 4]
    assert (t.bank_houses, t.bank_hotels) == (24, 11) and t.player("Anna").cash == 1300
    assert of_type(ev, "HotelBuilt")[0]["bank_houses"] == 4 and stock_ok(t)
    with pytest.raises(RuleViolation, match='Via Roma already has a hotel') as err:
        play(t, Build(POS["Via Roma"]))
    assert "at most one" in str(err.value)


@pytest.mark.parametrize("scene,words", [
    (lambda t: own(t, "Bruno", "Largo Augusto"), "does not own the whole group"),
    (lambda t: mortgage(t, "Largo Augusto"), "mortgaged"),
    (lambda t: t._replace(bank_houses=0), "no houses left"),
    (lambda t: cash(t, "Anna", 199), "costs 200 M"),
])
def test_building_refusals(scene, words):
    with pytest.raises(RuleViolation, match=words) as err:
        play(scene(verde()), Build(POS["Via Roma"]))
    assert words in str(err.value)


def test_no_houses_on_stations_and_no_hotel_when_the_bank_has_none():
    t = own(new_table(), "Anna", "Stazione Sud")
    with pytest.raises(RuleViolation, match="only streets"):
        play(t, Build(POS["Stazione Sud"]))
    t = own(new_table(), "Anna", *MARRONE)
    t = build(build(t, "Vicolo Corto", 4), "Vicolo Stretto", 4)._replace(bank_hotels=0)
    with pytest.raises(RuleViolation, match="no hotels left"):
        play(t, Build(POS["Vicolo Corto"]))


def test_build_any_time_even_in_jail_and_on_anothers_turn():
    t = place(turn_of(verde(), "Carla"), "Anna", 10, in_jail=True)
    t, _ = play(t, Build(POS["Via Roma"]))
    assert t.buildings[POS["Via Roma"]] == 1


def test_building_changes_rent_and_short_rules_need_three_houses():
    t = verde()
    t, _ = play(t, Build(POS["Via Roma"]), Build(POS["Corso Impero"]), Build(POS["Largo Augusto"]))
    from banco.ledger.rules.movement import rent_for

    assert rent_for(t, POS["Via Roma"], 7)[0] == 130


# --- building and selling evenly to a level, as one fact ---------------------------------------

def test_build_a_group_evenly_to_four_houses_in_one_fact():
    t = verde()
    for n, lv in zip(VERDE, (2, 1, 1), strict=True):
        t = build(t, n, lv)
    t = cash(t, "Anna", 2000)
    t, ev = play(t, BuildTo(tuple(POS[n] for n in VERDE), 4))
    assert types(ev) == ["BuildingsBuilt"]  # 2/1/1 to 4/4/4 is one line, not eight
    fact = ev[0]["data"]
    assert fact["lots"] == [{"property": POS[n], "level": 4} for n in VERDE]
    assert (fact["bank_houses"], fact["bank_hotels"]) == (-8, 0)
    assert (fact["payer"], fact["payee"], fact["amount"]) == ("Anna", "bank", 8 * 200)
    # each lot's square and its levels before and after (schema 3), said at the edge
    assert fact["reason"] == {"code": "built_evenly", "changes": [
        {"space": POS["Via Roma"], "from": 2, "to": 4},
        {"space": POS["Corso Impero"], "from": 1, "to": 4},
        {"space": POS["Largo Augusto"], "from": 1, "to": 4}]}
    assert english(fact["reason"], t.edition) == (
        "built evenly: Via Roma 2 houses -> 4 houses, Corso Impero 1 house -> 4 houses, Largo "
        "Augusto 1 house -> 4 houses")
    assert levels(t, VERDE) == [4, 4, 4] and t.player("Anna").cash == 400
    assert t.bank_houses == 20 and stock_ok(t) and balanced(t)


def test_build_a_group_to_hotels_returns_the_houses_in_the_same_fact():
    t = own(new_table(), "Anna", *MARRONE)  # house 50: from 1/1, 3 houses + a hotel per lot
    t = build(build(t, "Vicolo Corto", 1), "Vicolo Stretto", 1)
    t, ev = play(t, BuildTo((POS["Vicolo Corto"], POS["Vicolo Stretto"]), 5))
    fact = of_type(ev, "BuildingsBuilt")[0]
    assert fact["amount"] == 2 * 4 * 50 and (fact["bank_houses"], fact["bank_hotels"]) == (2, -2)
    assert levels(t, MARRONE) == [5, 5] and t.bank_houses == 32 and t.bank_hotels == 10
    assert t.player("Anna").cash == 1100 and stock_ok(t) and balanced(t)


@pytest.mark.parametrize("scene,lots,level,words", [
    (lambda t: cash(t, "Anna", 1000), VERDE, 2, "Anna has 1000 M; building to 2 houses costs 1200 M"),
    (lambda t: t._replace(bank_houses=5), VERDE, 2,
     "building to 2 houses needs 6 houses from the Bank, which has 5 houses"),
    (lambda t: t, ("Via Roma",), 2, "uneven building: Via Roma would have 2 houses while"),
    (lambda t: build(t, "Via Roma", 1), ("Via Roma",), 1, "nothing to build: Via Roma already"),
    (lambda t: build(build(t, "Via Roma", 3), "Corso Impero", 2), ("Via Roma", "Corso Impero"),
     2, "Via Roma has 3 houses, more than 2 houses"),
    (lambda t: own(t, "Bruno", "Largo Augusto"), VERDE, 1, "Largo Augusto belongs to Bruno"),
])
def test_build_to_refusals(scene, lots, level, words):
    with pytest.raises(RuleViolation) as err:
        play(scene(verde()), BuildTo(tuple(POS[n] for n in lots), level, "Anna"))
    assert words in str(err.value)


def test_sell_a_group_of_hotels_down_to_two_houses_in_one_fact():
    t = verde()
    for n in VERDE:
        t = build(t, n, 5)
    t, ev = play(t, SellTo(tuple(POS[n] for n in VERDE), 2))
    assert types(ev) == ["BuildingsSold"]
    fact = ev[0]["data"]
    # each lot gives back a hotel and 2 of its 4 houses at half price: 3 x 100
    assert fact["amount"] == 3 * 3 * 100 and fact["payer"] == "bank"
    assert fact["lots"] == [{"property": POS[n], "level": 2} for n in VERDE]
    assert (fact["bank_houses"], fact["bank_hotels"]) == (-6, 3)
    assert levels(t, VERDE) == [2, 2, 2] and t.player("Anna").cash == 2400
    assert stock_ok(t) and balanced(t)


def test_sell_to_zero_of_a_whole_group_sells_everything_at_once():
    t = own(new_table(), "Anna", *MARRONE)
    t = build(build(t, "Vicolo Corto", 5), "Vicolo Stretto", 5)._replace(bank_houses=0)
    t, ev = play(t, SellTo((POS["Vicolo Corto"], POS["Vicolo Stretto"]), 0))
    assert types(ev) == ["BuildingsSold"] and of_type(ev, "BuildingsSold")[0]["amount"] == 250
    assert levels(t, MARRONE) == [0, 0] and t.bank_hotels == 12


def test_sell_to_refusals():
    t = build(build(build(verde(), "Via Roma", 2), "Corso Impero", 2), "Largo Augusto", 1)
    with pytest.raises(RuleViolation, match="Largo Augusto has 1 house, fewer than 2 houses"):
        play(t, SellTo((POS["Largo Augusto"],), 2))
    with pytest.raises(RuleViolation, match="uneven selling"):
        play(t, SellTo((POS["Via Roma"],), 0))
    t, ev = play(t, SellTo((POS["Via Roma"], POS["Corso Impero"]), 1))
    assert levels(t, VERDE) == [1, 1, 1] and of_type(ev, "BuildingsSold")[0]["amount"] == 200


# --- selling ----------------------------------------------------------------------------------

def test_sell_a_house_at_half_price_evenly():
    t = verde()
    for n, lv in zip(VERDE, (2, 2, 1), strict=True):
        t = build(t, n, lv)
    with pytest.raises(RuleViolation, match='uneven selling: Largo Augusto') as err:
        play(t, Sell(POS["Largo Augusto"]))
    assert "uneven selling" in str(err.value)
    t, ev = play(t, Sell(POS["Via Roma"]))
    assert levels(t, VERDE) == [1, 2, 1] and t.player("Anna").cash == 1600
    assert t.bank_houses == 28 and stock_ok(t)


def test_hotel_breaks_back_into_four_houses_when_the_bank_has_them():
    t = verde()
    for n in VERDE:
        t = build(t, n, 5)
    t, ev = play(t, Sell(POS["Via Roma"]))
    assert levels(t, VERDE) == [4, 5, 5] and t.player("Anna").cash == 1600
    assert (t.bank_houses, t.bank_hotels) == (28, 10) and stock_ok(t)


def test_hotel_break_up_with_few_houses_pays_half_for_the_missing_ones():
    # 000 FAQ 29: the houses that cannot be given back are paid at half value.
    t = own(new_table(), "Anna", *MARRONE)
    t = build(build(t, "Vicolo Corto", 5), "Vicolo Stretto", 4)
    t = t._replace(bank_houses=3)
    t, ev = play(t, Sell(POS["Vicolo Corto"]))
    assert levels(t, MARRONE) == [3, 4]
    assert of_type(ev, "BuildingSold")[0]["amount"] == 25 + 25
    assert t.bank_houses == 0 and t.player("Anna").cash == 1550


def test_hotel_break_up_that_would_be_uneven_offers_selling_the_group():
    t = own(new_table(), "Anna", *MARRONE)
    t = build(build(t, "Vicolo Corto", 5), "Vicolo Stretto", 5)._replace(bank_houses=2)
    with pytest.raises(RuleViolation, match='the Bank has only 2 house') as err:
        play(t, Sell(POS["Vicolo Corto"]))
    assert "sell Vicolo Corto all" in err.value.allowed
    t, ev = play(t, Sell(POS["Vicolo Corto"], whole_group=True))
    assert levels(t, MARRONE) == [0, 0]
    # each hotel: half of (hotel 50 + 4 houses x 50) = 125
    assert of_type(ev, "BuildingsSold")[0]["amount"] == 125 + 125
    assert t.player("Anna").cash == 1750 and t.bank_hotels == 12


def test_builders_come_before_a_hotel_break_up():
    t = own(new_table(), "Anna", *MARRONE)
    t = build(build(t, "Vicolo Corto", 5), "Vicolo Stretto", 5)
    from banco.ledger.table.state import Auction

    t = t._replace(auction=Auction(property=None, min_bid=1, step=1, kind="house"))
    with pytest.raises(RuleViolation, match='houses are being auctioned') as err:
        play(t, Sell(POS["Vicolo Corto"]))
    assert "000 FAQ 28" in err.value.rule


def two_hotel_owners(left, anna=(5, 4), bruno=(5, 4)):
    """Anna's brown and Bruno's blue streets built as given; the Bank keeps `left` houses."""
    t = own(own(new_table(), "Anna", *MARRONE), "Bruno", "Viale dei Giardini",
            "Parco della Vittoria")
    t = build(build(t, "Vicolo Corto", anna[0]), "Vicolo Stretto", anna[1])
    t = build(build(t, "Viale dei Giardini", bruno[0]), "Parco della Vittoria", bruno[1])
    return scarce(t, left)


def test_two_hotels_broken_up_at_once_share_the_houses_as_000_faq_29_says():
    # FAQ 29's example: 4 houses left, two hotels: 2 houses each, the other 2 at half value.
    t = two_hotel_owners(4, anna=(5, 4), bruno=(5, 4))
    with pytest.raises(RuleViolation, match='the group of Vicolo Corto would be uneven') as err:  # 2 houses beside 4 would be uneven
        play(t, BreakUp((POS["Vicolo Corto"], POS["Viale dei Giardini"])))
    assert "uneven" in str(err.value)
    t = two_hotel_owners(4, anna=(5, 5), bruno=(5, 5))
    t, ev = play(t, BreakUp((POS["Vicolo Corto"], POS["Vicolo Stretto"],
                             POS["Viale dei Giardini"], POS["Parco della Vittoria"])))
    # 4 houses for 4 hotels: one each; 3 each paid at half value
    assert levels(t, MARRONE) == [1, 1] and t.buildings[POS["Parco della Vittoria"]] == 1
    amounts = [x["amount"] for x in of_type(ev, "HotelsBrokenUp")[0]["transfers"]]
    assert amounts == [25 + 3 * 25, 25 + 3 * 25, 100 + 3 * 100, 100 + 3 * 100]
    assert t.bank_houses == 0 and t.bank_hotels == 12
    assert t.player("Anna").cash == 1700 and t.player("Bruno").cash == 2300
    assert balanced(t) and stock_ok(t)


def test_houses_that_cannot_be_shared_equally_stay_with_the_bank():
    t = two_hotel_owners(5, anna=(5, 5), bruno=(5, 5))
    t, _ = play(t, BreakUp((POS["Vicolo Corto"], POS["Vicolo Stretto"],
                            POS["Viale dei Giardini"], POS["Parco della Vittoria"])))
    assert t.bank_houses == 1 and stock_ok(t)


def test_a_shared_break_up_needs_two_hotels():
    t = two_hotel_owners(6)
    with pytest.raises(RuleViolation, match="two or more"):
        play(t, BreakUp((POS["Vicolo Corto"],)))
    with pytest.raises(RuleViolation, match="has no hotel"):
        play(t, BreakUp((POS["Vicolo Corto"], POS["Vicolo Stretto"])))
    t, ev = play(t, BreakUp((POS["Vicolo Corto"], POS["Viale dei Giardini"])))
    assert t.buildings[POS["Vicolo Corto"]] == 3  # 6 houses, 3 each: even beside 4
