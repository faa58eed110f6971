"""The shell's Tab lists only what fits (issue 20, item 5): `mortgage` the deeds that may be
mortgaged now, `unmortgage` the mortgaged ones, `build`/`sell` the groups and levels that can
be reached, `trade A B --give` A's deeds and `--get` B's, and a card by words of its text.
cli/banker/completion.py, a pure function of the table: tested on tables set up by hand."""

from __future__ import annotations

from helpers import build, cash, mortgage, new_table, own

from banco.cli.banker.completion import complete


def tab(state, line: str) -> list[str]:
    """What Tab offers at the end of `line` (the word being typed is its last)."""
    text = line.rsplit(" ", 1)[1]
    command = line.split(" ", 1)[0]
    return complete(state, command, text, line, len(line) - len(text), len(line))


def table():
    """Anna holds the brown lots (two houses each) and Via Accademia (mortgaged); Bruno the
    blue ones, bare, and Stazione Sud."""
    t = own(new_table(), "Anna", "Vicolo Corto", "Vicolo Stretto", "Via Accademia")
    t = own(t, "Bruno", "Bastioni Gran Sasso", "Viale Monterosa", "Viale Vesuvio",
            "Stazione Sud")
    t = build(build(t, "Vicolo Corto", 2), "Vicolo Stretto", 2)
    return mortgage(t, "Via Accademia")


def test_mortgage_offers_the_deeds_that_may_be_mortgaged_and_unmortgage_the_mortgaged():
    t = table()
    assert sorted(tab(t, "mortgage ")) == ["Bastioni Gran Sasso", "Stazione Sud",
                                           "Viale Monterosa", "Viale Vesuvio"]
    assert tab(t, "mortgage vicolo") == []  # built on: no mortgage (003 §07)
    assert tab(t, "mortgage via acc") == []  # mortgaged already
    assert tab(t, "unmortgage ") == ["Via Accademia "]
    assert tab(t, "ipoteca viale m") == []  # an Italian word is English's at the table
    assert tab(t, "mortgage viale m") == ["Monterosa "]


def test_build_and_sell_offer_the_groups_and_levels_they_can_reach():
    t = table()
    offered = tab(t, "build ")
    assert [n for n in offered if n.islower()] == ["marrone", "azzurro"]  # groups first
    assert "Vicolo Corto" in offered and "Via Accademia" not in offered  # a pink lot alone
    assert tab(t, "build marrone ") == ["3", "4", "hotel"]  # above the two each
    assert tab(t, "build azzurro ")[:2] == ["1", "2"]
    assert tab(t, "sell ") == ["marrone", "Vicolo Corto", "Vicolo Stretto"]
    assert tab(t, "sell marrone ") == ["1", "all"]  # down to one each, or none
    assert tab(t, "sell azzurro ") == []  # nothing built there


def test_build_offers_the_streets_where_one_house_fits_when_a_whole_level_does_not():
    """A newcomer's table: Bruno holds the light blues (a house 50 M each) with 120 M, so no
    whole level fits (150 M) but a house on any of them does; `build ` offers those streets,
    not the group, and `build viale m` completes to one."""
    t = cash(table(), "Bruno", 120)
    offered = tab(t, "build ")
    assert "azzurro" not in offered
    assert {"Bastioni Gran Sasso", "Viale Monterosa", "Viale Vesuvio"} <= set(offered)
    assert tab(t, "build viale m") == ["Monterosa "]
    from banco.projections.readings.estate_pads import one_more

    t = build(t, "Viale Monterosa", 1)  # building evenly: the other two first (003 §05)
    assert one_more(t, "Bruno") == ["Bastioni Gran Sasso", "Viale Vesuvio"]
    assert tab(t, "build azzurro ") == ["1 "]  # the whole group to one each: 100 M
    assert "Bastioni Gran Sasso" not in tab(cash(t, "Bruno", 40), "build ")  # nothing fits


def test_trade_offers_each_side_its_own_deeds():
    t = table()
    assert sorted(tab(t, "trade Anna Bruno --give ")) == ["Via Accademia", "Vicolo Corto",
                                                           "Vicolo Stretto"]
    assert tab(t, "trade Anna Bruno --get viale v") == ["Vesuvio "]
    assert tab(t, "trade Anna Bruno --get vicolo") == []  # Bruno holds no Vicolo
    assert tab(t, "trade Anna Bruno --dai vicolo c") == ["Corto "]


def test_a_card_is_found_by_words_of_its_text():
    t = new_table()
    assert tab(t, "card imprevisti terno") == ["8 "]  # "Avete vinto un terno al lotto"
    assert tab(t, "card probabilita compleanno") == ["7 "]  # any case, no accent needed
    assert sorted(tab(t, "card imprevisti prigione"), key=int) == ["4", "15"]
    assert tab(t, "card imprevisti 1") == ["1", "10", "11", "12", "13", "14", "15", "16"]
    assert tab(t, "card imprevisti zebra") == []
