"""Names as the banker types them: exact beats prefix, multi-word names unquoted, hints."""

import json

import pytest
from helpers import EDITION, POS, new_table, own

from banco.cli.lines.estate import property_and_count
from banco.cli.lines.trade import parse_trade
from banco.ledger.base.errors import UsageError
from banco.ledger.base.names import UnknownName, resolve, resolve_all, resolve_run

PROPERTIES = [s.name for s in EDITION.properties]
GROUPS = list(EDITION.groups)


def test_an_exact_name_wins_over_a_longer_one_it_prefixes():
    assert resolve("anna", ["Annalisa", "Anna"], "player") == "Anna"
    assert resolve("ANNA", ["Anna", "Annalisa"], "player") == "Anna"
    assert resolve("annal", ["Anna", "Annalisa"], "player") == "Annalisa"
    # colour groups: `rosa` is exact though `ros` would be ambiguous with `rosso`
    assert resolve("rosa", GROUPS, "group") == "rosa"
    with pytest.raises(UnknownName, match="group 'ros' is ambiguous: did you mean 'rosa' or 'rosso'"):
        resolve("ros", GROUPS, "group")


def test_two_names_that_fold_alike_need_the_exact_spelling():
    assert resolve("Anná", ["Anna", "Anná"], "player") == "Anná"
    with pytest.raises(UnknownName, match="ambiguous: did you mean 'Anna' or 'Anná'"):
        resolve("ANNA", ["Anna", "Anná"], "player")


def test_ambiguity_lists_the_candidates_and_counts_the_rest():
    with pytest.raises(UnknownName) as err:
        resolve("vi", PROPERTIES, "property")
    msg = str(err.value)
    # a list said as one: 'a', 'b' ... or 'h', not 'a' or 'b' or ...
    assert msg.startswith("property 'vi' is ambiguous: did you mean 'Via Accademia', 'Via Marco "
                          "Polo', 'Via Roma', ")
    assert "'Viale Traiano' or 'Viale Vesuvio' (and 3 more)?" in msg and msg.count(" or ") == 1
    assert "(and 3 more)" in msg  # 11 names start with "vi": 8 shown
    assert err.value.ambiguous and len(err.value.suggestions) == 11


def test_a_misspelt_name_gets_the_closest_spellings():
    with pytest.raises(UnknownName, match="no deck called 'imprevisto': did you mean 'Imprevisti'"):
        resolve("imprevisto", ["Imprevisti", "Probabilità"], "deck")
    with pytest.raises(UnknownName, match="no player called 'zzz'; known: Anna, Bruno"):
        resolve("zzz", ["Bruno", "Anna"], "player")


def test_multi_word_names_run_until_the_next_name():
    words = "bastioni gran sasso via roma corso imp".split()
    assert resolve_all(words, PROPERTIES, "property") == ["Bastioni Gran Sasso", "Via Roma",
                                                          "Corso Impero"]
    assert resolve_run(["parco", "della", "vittoria", "x"], 0, PROPERTIES, "property") == (
        "Parco della Vittoria", 3)


def test_a_misspelt_multi_word_name_gets_the_hint_for_the_whole_name():
    # `viale` alone is ambiguous; the hint that helps is the one for both words
    with pytest.raises(UnknownName, match="did you mean 'Viale Monterosa'"):
        resolve_all(["viale", "monterossa"], PROPERTIES, "property")


def test_trade_lift_takes_multi_word_names_unquoted():
    t = parse_trade(new_table(), "Anna Bruno --give bastioni gran sasso --get 100 --lift "
                                 "bastioni gran sasso viale vesuvio".split())
    assert t.lift == (POS["Bastioni Gran Sasso"], POS["Viale Vesuvio"])
    assert t.a_gives.properties == (POS["Bastioni Gran Sasso"],) and t.b_gives.cash == 100


def test_trade_jail_card_is_one_card_each_time_it_is_written():
    table = new_table()
    assert parse_trade(table, "a b --give 50 --get jail-card".split()).b_gives.jail_cards == 1
    assert parse_trade(table, "a b --give 50 --get jail card".split()).b_gives.jail_cards == 1
    both = parse_trade(table, "a b --give 50 --get jail-card jail-card".split())
    assert both.b_gives.jail_cards == 2 and both.a_gives.cash == 50
    mixed = parse_trade(table, "a b --give via roma jail-card 150 --get corso impero".split())
    assert mixed.a_gives == (( POS["Via Roma"],), 150, 1)
    with pytest.raises(UsageError, match="is that 2 M and a card, or 2 cards"):
        parse_trade(table, "a b --give 2 jail-card --get 10".split())
    with pytest.raises(UsageError, match="once per card"):
        parse_trade(table, "a b --give jail-cards --get 10".split())


def test_build_property_words_then_a_count():
    table = new_table()
    assert property_and_count(table, ["via", "roma", "2"], allow_all=False) == (
        POS["Via Roma"], 2, False)
    assert property_and_count(table, ["Parco", "della", "Vittoria"], allow_all=False) == (
        POS["Parco della Vittoria"], 1, False)
    assert property_and_count(table, ["corso", "imp", "all"], allow_all=True) == (
        POS["Corso Impero"], 1, True)


def test_exact_player_name_wins_through_the_cli(banco):
    banco("new", "Annalisa", "Anna")
    r = banco("roll", "1", "2", "--player", "anna", code=1)
    assert "it is Annalisa's turn" in r.output  # resolved to Anna, not "ambiguous"
    banco("roll", "1", "2", "--player", "annal")


def test_trade_lift_through_the_cli(banco):
    banco("new", "Anna", "Bruno")
    banco("roll", "3", "3")  # Anna: Bastioni Gran Sasso, doubles
    banco("buy")
    banco("mortgage", "bastioni", "gran", "sasso")
    r = banco("trade", "Anna", "Bruno", "--give", "bastioni", "gran", "sasso", "--get", "100",
              "--lift", "bastioni", "gran", "sasso")
    assert "Anna gives Bastioni Gran Sasso; Bruno gives 100 M" in r.output
    props = json.loads(banco("state", "--json").output)["properties"]
    gran_sasso = next(p for p in props if p["name"] == "Bastioni Gran Sasso")
    assert gran_sasso == {**gran_sasso, "owner": "Bruno", "mortgaged": False}
    cash = [p["cash"] for p in json.loads(banco("state", "--json").output)["players"]]
    # Anna: 1500 - 100 + 50 (mortgage) + 100; Bruno: 1500 - 100 - 55 (50 + 10% to lift)
    assert cash == [1550, 1345]


def test_a_misspelt_player_is_matched_against_those_who_could_act():
    """`claim ana` with Anna owning a deed and Carla nothing suggests Anna only, and says
    among whom; a name near nobody who could lists them."""
    from banco.cli.session import player_name

    state = own(new_table(("Anna", "Bruno", "Carla")), "Anna", "Vicolo Corto")
    with pytest.raises(UnknownName, match=r"^no player called 'ana': of the players who own a "
                                          r"deed, did you mean 'Anna'\?$"):
        player_name(state, "ana", "owner")
    with pytest.raises(UnknownName, match=r"^no player called 'carlaa'; the players who own a "
                                          r"deed: Anna$"):
        player_name(state, "carlaa", "owner")
    assert player_name(state, "carla", "owner") == "Carla"  # the rules say why she cannot
    # a trade's second player is one of the others; with everyone able, the plain message
    with pytest.raises(UnknownName, match=r"of the other players in play, did you mean 'Carla'"):
        player_name(state, "ana", "other", but="Anna")
    with pytest.raises(UnknownName, match=r"^no player called 'ana': did you mean 'Anna' or "
                                          r"'Carla'\?$"):
        player_name(state, "ana", "in play")


def test_a_misspelt_bidder_is_one_of_those_who_may_bid():
    from banco.cli.session import player_name
    from banco.ledger.table.state import Auction

    state = new_table(("Anna", "Bruno", "Carla"))
    state = state._replace(auction=Auction(property=POS["Vicolo Corto"], min_bid=1, step=1,
                                           excluded=("Anna",)))
    with pytest.raises(UnknownName, match=r"of the players who may bid, did you mean 'Carla'"):
        player_name(state, "ana", "bidder")


def test_a_misspelt_start_of_a_long_name_and_a_name_near_nothing():
    """`parcco` found nothing close among whole names (it is the start of one); a property
    near nothing listed all 28 in one line: `board` lists them."""
    with pytest.raises(UnknownName, match=r"did you mean 'Parco della Vittoria'\?$"):
        resolve("parcco", PROPERTIES, "property")
    with pytest.raises(UnknownName, match=r"^no property called 'zzz'; `board` lists them$"):
        resolve("zzz", PROPERTIES, "property")
    with pytest.raises(UnknownName, match=r"^no player called 'zzz'; known: Anna, Bruno$"):
        resolve("zzz", ["Anna", "Bruno"], "player")  # a short list is still listed


def test_a_colour_group_by_a_unique_prefix():
    from banco.cli.lines.estate import to_level

    t = new_table()
    assert to_level(t, ["marr", "2"], hotel=True) == (tuple(EDITION.groups["marrone"]), 2)
    assert to_level(t, ["GIAL", "hotel"], hotel=True) == (tuple(EDITION.groups["giallo"]), 5)
    with pytest.raises(UnknownName, match="colour group 'ros' is ambiguous: did you mean "
                                          "'rosa' or 'rosso'"):
        to_level(t, ["ros", "2"], hotel=True)
    assert to_level(t, ["soc", "1"], hotel=True) is None  # Società...: a property's start
